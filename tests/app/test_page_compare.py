"""The comparison page (issue 21) in every language: three pasted columns or one uploaded CSV of
three, both kappas, their difference with the paired interval and test, and every bad input
(different lengths, a non-integer, a constant model, resample counts or a seed out of range)
said in the reader's language under the field it comes from, with what was typed kept.

Sources of truth: :func:`qwk_explained.compare` (itself checked against scikit-learn and full
enumeration in ``tests/engine/test_paired.py``) written by ``present.numbers``, and the error
sentences of ``present.i18n.message``.
"""

from __future__ import annotations

import pytest

from qwk_app.compare import EXAMPLE, TEXT_KEYS
from qwk_explained import InputError, compare
from qwk_explained.core.limits import MAX_RESAMPLES, MAX_SEED, MIN_RESAMPLES
from qwk_explained.present.comparison import signed
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from tests.app.helpers import assert_clean, open_app


def texts(at) -> dict[str, str]:
    return {area.key: area.value for area in at.text_area}


def page_text(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def typed(at, column: str, text: str):
    at.text_area(key=f"{TEXT_KEYS[column]}_input").input(text)
    return at.run()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_example_is_compared_as_the_api_compares_it(lang: str) -> None:
    at = open_app("compare", lang=lang)
    assert_clean(at)
    assert not errors(at)
    expected = compare(EXAMPLE["actual"], EXAMPLE["model_a"], EXAMPLE["model_b"])
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t(lang, "compare.model_a")] == format_number(expected.kappa_a, lang)
    assert metrics[t(lang, "compare.model_b")] == format_number(expected.kappa_b, lang)
    assert metrics[t(lang, "compare_page.difference_label")] == signed(expected.difference, lang)
    text = page_text(at)
    low, high = expected.interval
    assert format_number(low, lang) in text and format_number(high, lang) in text
    # The example's difference is real at 5 %: interval above 0 and p below 0.05.
    assert low > 0 and expected.p_value < 0.05
    assert t(lang, "compare.paired_note") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_columns_of_different_lengths_are_named_and_kept(lang: str) -> None:
    at = open_app("compare", lang=lang)
    short = "4, 4, 3"
    typed(at, "model_b", short)
    assert_clean(at)
    n = len(EXAMPLE["actual"].split(","))
    expected = message(lang, InputError("columns_length_mismatch", n_actual=n, n_model_a=n,
                                        n_model_b=3))
    assert expected in errors(at)
    assert texts(at)[f"{TEXT_KEYS['model_b']}_input"] == short
    assert not at.metric, "no comparison is shown while the columns disagree"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_non_integer_is_named_in_its_own_column(lang: str) -> None:
    at = open_app("compare", lang=lang)
    bad = EXAMPLE["model_a"].replace("0, 2, 1", "0, 2.5, 1", 1)
    typed(at, "model_a", bad)
    assert_clean(at)
    (shown,) = errors(at)
    assert shown.startswith(t(lang, "errors.in_model_a", message="").rstrip()[:6])
    assert "2.5" in shown or "2,5" in shown
    assert texts(at)[f"{TEXT_KEYS['model_a']}_input"] == bad
    # Fixing it brings the comparison back.
    typed(at, "model_a", EXAMPLE["model_a"])
    assert not errors(at) and at.metric


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_constant_model_is_said_and_the_rest_compared(lang: str) -> None:
    at = open_app("compare", lang=lang)
    n = len(EXAMPLE["actual"].split(","))
    typed(at, "model_b", ", ".join(["2"] * n))
    assert_clean(at)
    assert not errors(at)
    expected = compare(EXAMPLE["actual"], EXAMPLE["model_a"], ", ".join(["2"] * n))
    assert "b" in expected.constant and expected.kappa_b == 0
    text = page_text(at)
    assert t(lang, "compare.constant", model=t(lang, "compare.model_b"),
             rating=format_number(2, lang)) in text
    assert format_number(expected.kappa_a, lang) in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("field", "value", "code"), [
    ("compare_resamples_input", MIN_RESAMPLES - 1, "bad_resamples"),
    ("compare_resamples_input", MAX_RESAMPLES + 1, "bad_resamples"),
    ("compare_seed_input", -1, "bad_seed"),
])
def test_settings_out_of_range_are_refused_with_their_reason(lang: str, field: str, value: int,
                                                             code: str) -> None:
    at = open_app("compare", lang=lang)
    at.number_input(key=field).set_value(value).run()
    assert_clean(at)
    shown = errors(at)
    assert len(shown) == 1
    limits = {"low": MIN_RESAMPLES, "high": MAX_RESAMPLES} if code == "bad_resamples" else {
        "high": MAX_SEED}
    expected = message(lang, InputError(code, value=str(value), **limits))
    assert shown == [expected]
    assert texts(at)[f"{TEXT_KEYS['actual']}_input"] == EXAMPLE["actual"], "nothing typed lost"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_uploaded_csv_of_three_columns_is_compared_and_a_wrong_width_refused(lang: str):
    actual, a, b = ([int(x) for x in EXAMPLE[c].split(",")] for c in ("actual", "model_a",
                                                                        "model_b"))
    rows = "real;a;b\n" + "".join(f"{x};{y};{z}\n" for x, y, z in zip(actual, b, a,
                                                                       strict=True))
    at = open_app("compare", lang=lang)
    at.file_uploader[0].set_value(("models.csv", rows.encode(), "text/csv")).run()
    assert_clean(at)
    expected = compare(actual, b, a)  # the file swaps the two models
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t(lang, "compare.model_a")] == format_number(expected.kappa_a, lang)
    assert t(lang, "compare_page.upload_used") in [i.value for i in at.info]
    assert texts(at)[f"{TEXT_KEYS['model_a']}_input"] == EXAMPLE["model_a"], "typed text kept"
    two = "".join(f"{x},{y}\n" for x, y in zip(actual, a, strict=True))
    at.file_uploader[0].set_value(("two.csv", two.encode(), "text/csv")).run()
    assert_clean(at)
    assert errors(at) == [message(lang, InputError("compare_upload_columns", count=2))]
    at.file_uploader[0].set_value(None).run()
    assert not errors(at) and at.metric


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_uploaded_row_without_three_ratings_is_named_by_its_line(lang: str) -> None:
    at = open_app("compare", lang=lang)
    rows = "real,a,b\n4,0,3\n4,2\n3,1,2\n"
    at.file_uploader[0].set_value(("short.csv", rows.encode(), "text/csv")).run()
    assert_clean(at)
    assert errors(at) == [message(lang, InputError("csv_ragged_three", line=3, count=2))]
    assert not at.metric
    assert texts(at)[f"{TEXT_KEYS['actual']}_input"] == EXAMPLE["actual"], "typed text kept"
