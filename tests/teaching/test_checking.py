"""Checking a hand calculation: parsing typed numbers, verdicts and the diagnosis of mistakes.

Sources of truth: the engine (``walkthrough``/``walkthrough_from_table``) for every reference
value; each diagnosis is checked by *making* the mistake (computing the wrong value the way a
learner would, with numpy, independently of the module) and asking for the diagnosis; number
parsing is checked against ``format_number`` round trips in every language (hypothesis).
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import WEIGHTINGS, walkthrough, walkthrough_from_table
from qwk_explained.present import feedback
from qwk_explained.present.i18n import LANGUAGES, load, message, t
from qwk_explained.present.languages import language
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching import checking

SEED = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")  # the Spanish seed, kappa -0.1392
# The SAS PROC FREQ example table that statsmodels' test_inter_rater reproduces.
TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])


def codes(result, step, value, cell=None, tolerance=None):
    verdict = checking.check_value(result, step, value, cell, tolerance)
    assert not verdict.correct, verdict
    return verdict.diagnosis.codes if verdict.diagnosis else None


# --- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "lang", "value"), [
    ("0,25", "en", 0.25), ("0.25", "es", 0.25), ("-0,1392", "tr", -0.1392), (" 0.5 ", "zh", 0.5),
    (".5", "en", 0.5), (",5", "es", 0.5), ("+1", "en", 1.0), ("1e-3", "en", 0.001),
    ("1/16", "en", 0.0625), ("3/10", "es", 0.3), ("-1/4", "en", -0.25), ("0,5/2", "es", 0.25),
    ("25%", "en", 0.25), ("%25", "tr", 0.25), ("-13,92 %", "es", -0.1392),
    ("０，２５", "zh", 0.25), ("\u22120.5", "en", -0.5), ("1\u00a0234,5", "es", 1234.5),
    ("1,234", "en", 1234.0), ("1.234", "es", 1234.0), ("1,234.5", "es", 1234.5),
    ("1.234,5", "en", 1234.5), ("1,5", "en", 1.5), ("1.5", "tr", 1.5), ("0,250", "en", 0.25),
    ("-0", "en", 0.0),
])
def test_parse_answer_accepts_what_people_type(text, lang, value):
    """Decimal comma or point, fractions, percentages, full-width digits, grouped thousands."""
    assert checking.parse_answer(text, language(lang).group) == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty"), ("   ", "empty"), ("abc", "not_a_number"), ("0,2,5", "not_a_number"),
    ("1 2", "not_a_number"), ("inf", "not_a_number"), ("nan", "not_a_number"),
    ("1e400", "not_a_number"), ("--1", "not_a_number"), ("1/", "not_a_number"),
    ("1/2/3", "not_a_number"), ("1/0", "division_by_zero"), ("0,5/0,0", "division_by_zero"),
    ("x" * 50, "not_a_number"),
])
def test_parse_answer_rejects_with_a_code(text, code):
    """Bad input raises AnswerError with a translatable code and a short copy of the text."""
    with pytest.raises(checking.AnswerError) as caught:
        checking.parse_answer(text)
    assert caught.value.code == code
    assert len(caught.value.params.get("text", "")) <= 20


@pytest.mark.parametrize("lang", LANGUAGES)
@settings(max_examples=60, deadline=None)
@given(value=st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_numbers_as_the_page_writes_them_parse_back(lang, value):
    """Invariant: whatever format_number shows in a language reads back as the same number."""
    shown = format_number(value, lang)
    read = checking.parse_answer(shown, language(lang).group)
    assert read == pytest.approx(round(value, 4), abs=1e-9)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_parse_messages_are_translated(lang):
    """Every parse error has a sentence in each language, with the typed text in it."""
    for text in ("abc", "1/0"):
        with pytest.raises(checking.AnswerError) as caught:
            checking.parse_answer(text)
        sentence = message(lang, caught.value)
        assert text in sentence and "{" not in sentence
    assert message(lang, checking.AnswerError("empty")) == t(lang, "checker.parse.empty")


# --- verdicts --------------------------------------------------------------------------------


def test_reference_values_are_the_engines():
    """The reference of each step is the Walkthrough's own number."""
    assert checking.reference(SEED, "observed", (4, 0)) == SEED.observed[4, 0] == 4
    assert checking.reference(SEED, "weights", (4, 1)) == SEED.weights[4, 1] == 9 / 16
    assert checking.reference(SEED, "expected", (4, 0)) == pytest.approx(2.0)
    assert checking.reference(SEED, "numerator") == SEED.numerator
    assert checking.reference(SEED, "denominator") == SEED.denominator
    assert checking.reference(SEED, "kappa") == SEED.kappa
    with pytest.raises(ValueError):
        checking.reference(SEED, "observed")
    with pytest.raises(IndexError):
        checking.reference(SEED, "observed", (5, 0))
    with pytest.raises(ValueError):
        checking.reference(SEED, "histograms")


def test_rounded_answers_within_the_tolerance_are_right():
    """A value rounded to 2 or 4 decimals passes the default absolute tolerance 0.005."""
    for value in (-0.14, -0.1392, SEED.kappa):
        assert checking.check_value(SEED, "kappa", value).correct
    assert not checking.check_value(SEED, "kappa", -0.13).correct
    assert checking.check_value(SEED, "expected", 2, (4, 0)).correct
    relative = checking.Tolerance(0.01, relative=True)
    assert checking.check_value(SEED, "kappa", -0.1392 * 1.009, tolerance=relative).correct
    assert not checking.check_value(SEED, "kappa", -0.1392 * 1.02, tolerance=relative).correct
    exact = checking.Tolerance(0.0)
    assert checking.check_value(SEED, "observed", 4, (4, 0), exact).correct


def test_check_orders_verdicts_and_points_at_the_first_wrong_step():
    """Verdicts come back in the order of the calculation; the first wrong one is earliest."""
    verdicts = checking.check(SEED, [("kappa", None, 0.5), ("numerator", None, SEED.numerator),
                               ("expected", (4, 0), 20), ("observed", (4, 0), 4)])
    assert [v.step for v in verdicts] == ["observed", "expected", "numerator", "kappa"]
    assert [v.correct for v in verdicts] == [True, False, True, False]
    assert checking.first_wrong(verdicts).step == "expected"
    assert checking.first_wrong(verdicts[:1]) is None
    assert checking.first_wrong([]) is None


# --- diagnoses: make the mistake, ask for the diagnosis ----------------------------------------


def test_e_not_divided_by_n():
    """E_ij typed as h_a[i] * h_p[j] (the outer product, no / n)."""
    i, j = 4, 0
    mistake = SEED.observed.sum(axis=1)[i] * SEED.observed.sum(axis=0)[j]
    assert codes(SEED, "expected", mistake, (i, j)) == ("e_not_divided",)
    assert codes(TABLE, "expected", 5 * 13, (0, 1)) == ("e_not_divided",)


def test_rows_and_columns_swapped():
    """O_ji or E_ji typed for cell (i, j)."""
    assert codes(SEED, "observed", SEED.observed[0, 4], (4, 0)) == ("swapped",)
    assert codes(TABLE, "expected", TABLE.expected[1, 0], (0, 1)) == ("swapped",)
    assert codes(TABLE, "expected", 13 * 5, (1, 0)) == ("e_not_divided", "swapped")


def test_weights_not_normalized():
    """w typed as (i-j)^2 (quadratic) or |i-j| (linear), and num/den with those weights."""
    assert codes(SEED, "weights", (4 - 1) ** 2, (4, 1)) == ("weights_not_normalized",)
    linear = walkthrough_from_table(SEED.observed, weights="linear")
    assert codes(linear, "weights", 3, (4, 1)) == ("weights_not_normalized",)
    raw = (np.subtract.outer(np.arange(5), np.arange(5)) ** 2).astype(float)
    numerator = float((raw * SEED.observed / SEED.n).sum())
    denominator = float((raw * SEED.expected / SEED.n).sum())
    assert codes(SEED, "numerator", numerator) == ("weights_not_normalized",)
    assert codes(SEED, "denominator", denominator) == ("weights_not_normalized",)
    both = float((raw * SEED.observed).sum())
    assert codes(SEED, "numerator", both) == ("weights_not_normalized", "counts_not_proportions")


def test_counts_instead_of_proportions():
    """num = sum w * O (counts, not O / n): n times the page's num; kappa is unaffected."""
    numerator = float((SEED.weights * SEED.observed).sum())
    denominator = float((SEED.weights * SEED.expected).sum())
    assert codes(SEED, "numerator", numerator) == ("counts_not_proportions",)
    assert codes(SEED, "denominator", denominator) == ("counts_not_proportions",)
    assert checking.check_value(SEED, "kappa", 1 - numerator / denominator).correct


def test_kappa_as_the_ratio_inverted_or_with_the_wrong_sign():
    assert codes(SEED, "kappa", SEED.numerator / SEED.denominator) == ("ratio_not_one_minus",)
    assert codes(SEED, "kappa", 1 - SEED.denominator / SEED.numerator) == ("ratio_inverted",)
    assert codes(TABLE, "kappa", -TABLE.kappa) == ("sign",)


def test_other_weighting():
    """Linear instead of quadratic and the other way round, computed independently."""
    linear = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1", weights="linear")
    assert codes(SEED, "kappa", linear.kappa) == ("weighting_linear",)
    assert codes(SEED, "weights", 3 / 4, (4, 1)) == ("weighting_linear",)
    assert codes(linear, "kappa", SEED.kappa) == ("weighting_quadratic",)
    assert codes(linear, "numerator", SEED.numerator) == ("weighting_quadratic",)
    plain = walkthrough_from_table(TABLE.observed, weights="unweighted")
    assert codes(TABLE, "kappa", plain.kappa) == ("weighting_unweighted",)


def test_observed_scale_instead_of_range_and_back():
    """N different: ratings nobody used left out (observed) or gaps filled in (range)."""
    ranged = walkthrough([1, 2, 5, 5, 1], [1, 3, 5, 4, 2])  # 1..5, every rating used
    # Ratings 2 and 3 unused: uneven gaps, so N changes kappa (even gaps 0, 2, 4 would not).
    gappy = walkthrough([0, 0, 4, 4, 1], [0, 1, 4, 4, 0])
    observed = walkthrough([0, 0, 4, 4, 1], [0, 1, 4, 4, 0], scale="observed")
    assert gappy.size == 5 and observed.size == 3
    assert codes(gappy, "kappa", observed.kappa) == ("scale_observed",)
    diagnosis = checking.check_value(gappy, "kappa", observed.kappa).diagnosis
    assert diagnosis.params == {"size": 3, "expected_size": 5}
    assert codes(observed, "kappa", gappy.kappa) == ("scale_range",)
    assert codes(gappy, "weights", observed.weights[1, 2], (1, 4)) == ("scale_observed",)
    assert checking.other_scale(ranged) is None
    zero_row = walkthrough_from_table([[3, 0, 1, 0], [0, 0, 0, 0], [1, 0, 2, 1], [0, 0, 1, 2]])
    dropped = walkthrough_from_table([[3, 1, 0], [1, 2, 1], [0, 1, 2]])
    assert codes(zero_row, "kappa", dropped.kappa) == ("scale_observed",)


def test_percent_instead_of_proportion():
    assert codes(SEED, "kappa", SEED.kappa * 100) == ("percent",)
    assert codes(SEED, "weights", 56.25, (4, 1)) == ("percent",)
    assert codes(TABLE, "denominator", round(TABLE.denominator * 100, 2)) == ("percent",)


def test_other_diagnoses_and_no_diagnosis():
    assert codes(SEED, "observed", 0.4, (4, 0)) == ("divided_by_n",)
    assert codes(SEED, "expected", 4, (4, 0)) == ("observed_not_expected",)
    assert codes(SEED, "numerator", SEED.denominator) == ("num_den_swapped",)
    assert codes(SEED, "kappa", SEED.kappa + 0.02) == ("close",)
    assert codes(SEED, "kappa", 0.77) is None


def test_undefined_kappa_has_no_right_value():
    """Every rating identical: kappa is 0/0, so any typed kappa is wrong, with that reason."""
    flat = walkthrough([2, 2, 2], [2, 2, 2])
    verdict = checking.check_value(flat, "kappa", 0.0)
    assert not verdict.correct and verdict.expected is None
    assert verdict.diagnosis.codes == ("kappa_undefined",)
    assert checking.check_value(flat, "numerator", 0).correct


@settings(max_examples=60, deadline=None)
@given(table=st.integers(2, 6).flatmap(
    lambda size: st.lists(st.lists(st.integers(0, 9), min_size=size, max_size=size),
                          min_size=size, max_size=size)).filter(lambda rows: sum(map(sum, rows))))
def test_reference_is_right_and_classic_mistakes_are_named(table):
    """Invariants on random tables: every reference value checks as right; E not divided by n
    and a swapped O cell are named whenever they differ from the right value."""
    result = walkthrough_from_table(table)
    size = result.size
    for step in checking.STEPS:
        cells = [(i, j) for i in range(size) for j in range(size)] if step in checking.CELL_STEPS \
            else [None]
        for cell in cells:
            expected = checking.reference(result, step, cell)
            if expected is not None:
                assert checking.check_value(result, step, expected, cell).correct
    counts = np.asarray(table)
    for i in range(size):
        for j in range(size):
            outer = counts[i].sum() * counts[:, j].sum()
            if abs(outer - result.expected[i, j]) > 0.005:
                assert codes(result, "expected", outer, (i, j)) == ("e_not_divided",)
            if abs(counts[j, i] - counts[i, j]) > 0.005:
                assert codes(result, "observed", counts[j, i], (i, j)) == ("swapped",)


# --- words -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hint_is_translated_and_filled_in(lang):
    """Each diagnosis code has a sentence in every language; placeholders get numbers."""
    strings = load(lang)
    params = {"n": 10, "size": 5, "expected_size": 3, "factor": 16}
    for code in checking.HINT_CODES:
        assert f"checker.hint.{code}" in strings, (lang, code)
        text = feedback.hint(lang, checking.Diagnosis((code,), params))
        assert text and not set("{}") & set(text), (lang, code, text)
    both = feedback.hint(lang, checking.Diagnosis(
        ("weights_not_normalized", "counts_not_proportions"), params))
    assert t(lang, "checker.hint.counts_not_proportions", n=format_number(10, lang)) in both


def test_every_code_the_module_can_return_is_translated():
    """Scan of the module: each code literal in _candidates/diagnose is in HINT_CODES."""
    source = inspect.getsource(checking._candidates) + inspect.getsource(checking.diagnose)
    tuples = re.findall(r'\(((?:"[a-z_]+",\s*)+"?[a-z_]*"?)\)', source)
    literals = {code for group in tuples for code in re.findall(r'"([a-z_]+)"', group)}
    literals -= set(checking.STEPS)
    assert literals, "the scan found no code: the regex is out of date"
    families = {f"weighting_{name}" for name in WEIGHTINGS} | {"scale_observed", "scale_range"}
    assert sorted((literals | families) - set(checking.HINT_CODES)) == []
