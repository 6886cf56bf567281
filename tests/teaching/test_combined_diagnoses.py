"""Two mistakes that explain a value together are each said truly of that value (tr review:
w[0, 4] = 0,8 on five levels was "the value with linear weights" (1) and "divided by 25
instead of 16" (0.64), both false; 0.8 is |0 − 4| / 5, linear weights divided by N).

Sources of truth: the weights worked out by hand for each named combination.
"""

from __future__ import annotations

import pytest

from qwk_explained import walkthrough
from qwk_explained.present import feedback
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.checking import Answer, check_answers

ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_linear_weights_divided_by_n_are_named_with_the_linear_divisors(lang: str) -> None:
    result = walkthrough(ACTUAL, PREDICTED)  # quadratic, five levels
    (checked,) = check_answers(result, [Answer("weights", (0, 4), "0.8")])
    assert set(checked.diagnoses) == {"linear_weights", "weights_divided_by_N_squared"}
    said = feedback.diagnosis_sentences(lang, result, checked.diagnoses)
    assert t(lang, "checker.diagnosis.linear_weights_distance") in said
    # |0 - 4| / 5 = 0.8: divided by 5 instead of 4, not 25 instead of 16.
    scaling = t(lang, "checker.diagnosis.weights_divided_by_N_squared", wrong_divisor="5",
                factor="4", size="5", span="4")
    assert scaling in said
    assert t(lang, "checker.diagnosis.linear_weights") not in said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_quadratic_weights_divided_by_n_squared_where_linear_was_asked(lang: str) -> None:
    result = walkthrough(ACTUAL, PREDICTED, weights="linear")
    # (0 - 4)² / 25 = 0.64
    (checked,) = check_answers(result, [Answer("weights", (0, 4), "0.64")])
    assert set(checked.diagnoses) == {"quadratic_weights", "weights_divided_by_N_squared"}
    said = feedback.diagnosis_sentences(lang, result, checked.diagnoses)
    assert t(lang, "checker.diagnosis.quadratic_weights_distance") in said
    assert t(lang, "checker.diagnosis.weights_divided_by_N_squared", wrong_divisor="25",
             factor="16", size="5", span="4") in said


def test_a_weighting_alone_is_still_the_value_with_that_weighting() -> None:
    result = walkthrough(ACTUAL, PREDICTED)
    (checked,) = check_answers(result, [Answer("weights", (0, 3), "0.75")])  # 3 / 4, linear
    assert checked.diagnoses == ("linear_weights",)
    assert feedback.diagnosis_sentences("en", result, checked.diagnoses) == [
        t("en", "checker.diagnosis.linear_weights")]
