"""Checking a hand calculation: reading typed numbers, verdicts and the diagnosis of mistakes.

Sources of truth: the engine (``walkthrough``/``walkthrough_from_table``) for every reference
value; each diagnosis is checked by *making* the mistake by hand (the wrong value computed here
with numpy or plain arithmetic, independently of the module); the teaching audit's own cases
(adoption-speed data: O as shares and E as counts gives den 3.95 and kappa 0.8861; weights
divided by N^2 at N = 5); number reading against ``format_number`` round trips in every language
(hypothesis). The property tests over thousands of random pairs are in
``test_diagnosis_properties.py``.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import walkthrough, walkthrough_from_table
from qwk_explained.present import feedback
from qwk_explained.present.i18n import load, message, t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching import checking
from qwk_explained.teaching.checking import Answer, SubmissionError, check_answers
from qwk_explained.teaching.mistakes import CODES
from qwk_explained.teaching.typed_numbers import AnswerError, parse_answer, read_number

SEED = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")  # adoption speed, kappa -0.1392
TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])  # SAS's printed example


def one(result, quantity, text, cell=None, group=","):
    (checked,) = check_answers(result, [Answer(quantity, cell, text)], group)
    return checked


def verdict(result, quantity, value, cell=None):
    checked = one(result, quantity, value if isinstance(value, str) else repr(float(value)), cell)
    return checked.verdict, checked.diagnoses


# --- reading numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "lang", "value"), [
    ("0,25", "en", 0.25), ("0.25", "es", 0.25), ("-0,1392", "tr", -0.1392), (" 0.5 ", "zh", 0.5),
    (".5", "en", 0.5), (",5", "es", 0.5), ("+1", "en", 1.0), ("1e-3", "en", 0.001),
    ("1/16", "en", 0.0625), ("3/10", "es", 0.3), ("-1/4", "en", -0.25), ("0,5/2", "es", 0.25),
    ("25%", "en", 0.25), ("%25", "tr", 0.25), ("-13,92 %", "es", -0.1392),
    ("０，２５", "zh", 0.25), ("\u22120.5", "en", -0.5), ("1\u00a0234,5", "es", 1234.5),
    ("1,234", "en", 1234.0), ("1.234", "es", 1234.0), ("1,234.5", "es", 1234.5),
    ("1.234,5", "en", 1234.5), ("1,5", "en", 1.5), ("1.5", "tr", 1.5), ("0,250", "en", 0.25),
    ("-0", "en", 0.0), ("1,234,567", "en", 1234567.0), ("-%13,92", "tr", -0.1392),
    ("+%5", "tr", 0.05),
])
def test_parse_answer_accepts_what_people_type(text, lang, value):
    """Decimal comma or point, fractions, percentages, full-width digits, grouped thousands (the
    first reading of an ambiguous "1,234" is the grouped one)."""
    assert parse_answer(text, language(lang).group) == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty"), ("   ", "empty"), ("abc", "not_a_number"), ("0,2,5", "not_a_number"),
    ("1 2", "not_a_number"), ("inf", "not_a_number"), ("nan", "not_a_number"),
    ("1e400", "out_of_range"), ("--1", "not_a_number"), ("1/", "not_a_number"),
    ("1/2/3", "not_a_number"), ("1/0", "division_by_zero"), ("0,5/0,0", "division_by_zero"),
    ("x" * 50, "not_a_number"), (".", "not_a_number"),
])
def test_parse_answer_rejects_with_a_code(text, code):
    """Bad input raises AnswerError with a translatable code and a short copy of the text."""
    with pytest.raises(AnswerError) as caught:
        parse_answer(text)
    assert caught.value.code == code
    assert len(caught.value.params.get("text", "")) <= 20


@pytest.mark.parametrize(("text", "half_unit", "figures", "decimals"), [
    ("0.45", 0.005, 2, 2), ("0.450", 0.0005, 3, 3), ("0.0437", 0.00005, 3, 4), ("12", 0.5, 2, 0),
    ("-0.1392", 0.00005, 4, 4), ("25%", 0.005, 2, 2), ("1.5e-3", 0.00005, 2, 4),
    ("0.00", 0.005, 0, 2),
])
def test_the_digits_written_are_the_precision(text, half_unit, figures, decimals):
    """Half a unit of the last digit written, the significant figures and the decimals."""
    (number,) = read_number(text)
    assert number.half_unit == pytest.approx(half_unit)
    assert (number.significant, number.decimals, number.exact) == (figures, decimals, False)


def test_fractions_of_whole_numbers_are_exact():
    assert read_number("1/16")[0].exact and read_number("-3/10")[0].exact
    rounded = read_number("0.45/2")[0]
    assert not rounded.exact and rounded.half_unit == pytest.approx(0.005 / 0.45 * 0.225)


@pytest.mark.parametrize(("text", "lang", "values"), [
    ("1,714", "en", (1714.0, 1.714)), ("1,714", "zh", (1714.0, 1.714)),
    ("1.714", "es", (1714.0, 1.714)), ("1.714", "tr", (1714.0, 1.714)),
    ("1.714", "en", (1.714,)), ("1,714", "es", (1.714,)), ("0,714", "en", (0.714,)),
    ("12,34", "en", (12.34,)), ("1,7145", "en", (1.7145,)), ("-1,714", "en", (-1714.0, -1.714)),
])
def test_one_grouping_mark_before_three_digits_is_read_both_ways(text, lang, values):
    """Teaching audit, defect 7: "1,714" in English and "1.714" in Spanish are ambiguous."""
    readings = read_number(text, language(lang).group)
    assert tuple(number.value for number in readings) == values


@pytest.mark.parametrize("lang", LANGUAGES)
@settings(max_examples=60, deadline=None)
@given(value=st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_numbers_as_the_page_writes_them_parse_back(lang, value):
    """Invariant: whatever format_number shows in a language reads back as the same number,
    rounded as by hand (half away from 0: 0.03125 is shown 0.0313)."""
    shown = format_number(value, lang)
    read = parse_answer(shown, language(lang).group)
    by_hand = Decimal(repr(value)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    assert read == pytest.approx(float(by_hand), abs=1e-9)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_parse_messages_are_translated(lang):
    """Every parse error has a sentence in each language, with the typed text in it."""
    for text in ("abc", "1/0"):
        with pytest.raises(AnswerError) as caught:
            parse_answer(text)
        sentence = message(lang, caught.value)
        assert text in sentence and "{" not in sentence
    assert message(lang, AnswerError("empty")) == t(lang, "checker.parse.empty")


# --- verdicts --------------------------------------------------------------------------------


def test_reference_values_are_the_engines():
    """The reference of each quantity is the Walkthrough's own number, at rating positions."""
    assert checking.reference(SEED, "observed", (4, 0)) == SEED.observed[4, 0] == 4
    assert checking.reference(SEED, "weights", (4, 1)) == SEED.weights[4, 1] == 9 / 16
    assert checking.reference(SEED, "expected", (4, 0)) == pytest.approx(2.0)
    assert checking.reference(SEED, "actual_hist", (4,)) == 5
    assert checking.reference(SEED, "expected_norm", (4, 0)) == pytest.approx(0.2)
    assert checking.reference(SEED, "kappa") == SEED.kappa
    with pytest.raises(ValueError):
        checking.reference(SEED, "observed")
    with pytest.raises(IndexError):
        checking.reference(SEED, "observed", (5, 0))
    with pytest.raises(ValueError):
        checking.reference(SEED, "histograms")  # type: ignore[arg-type]


@pytest.mark.parametrize(("quantity", "text", "expected"), [
    ("kappa", "-0.13924", "rounding"), ("kappa", "-11/79", "right"),
    ("kappa", "-0.1392", "rounding"), ("kappa", "-0.14", "rounding"),
    ("kappa", "-0.13", "rounding"), ("kappa", "-0.15", "rounding"), ("kappa", "-0.16", "wrong"),
    ("kappa", "-0.1", "too_coarse"),
    ("denominator", "0.395", "right"), ("denominator", "0.40", "rounding"),
    ("denominator", "0.39", "rounding"), ("denominator", "0.38", "wrong"),
    ("denominator", "0.4", "too_coarse"), ("numerator", "0.45", "right"),
    ("numerator", "9/20", "right"), ("numerator", "0.4500", "right"),
    ("numerator", "0.46", "wrong"), ("numerator", "0.5", "too_coarse"),
])
def test_right_within_careful_rounding(quantity, text, expected):
    """Adoption-speed data: num = 0.45 is exact at 3 figures (band 0), den = 0.395 moves by at
    most 0.0012 and kappa by 0.0064 when every intermediate is written to 3 figures (a learner
    who truncates can reach -0.1456). A writing stands for what it rounds or truncates ("-0.13"
    for -0.139, "0.39" for 0.395: right); one significant figure is too coarse to judge, and
    says how many to write."""
    checked = one(SEED, quantity, text)
    assert checked.verdict == expected
    assert (checked.needed is not None) == (expected == "too_coarse")
    if expected == "too_coarse":
        assert checked.needed.count == 2 and not checked.wrong and not checked.accepted


@pytest.mark.parametrize(("actual", "predicted", "quantity", "writings"), [
    # Teaching audit, defect 2: "0.88" passed for 0.87662 but "0.876" failed.
    ([0, 4, 5, 1, 5, 2, 2, 0, 2, 2, 0, 3, 0, 1, 1, 5, 0, 0, 0],
     [1, 3, 4, 3, 5, 2, 2, 0, 4, 2, 1, 4, 0, 1, 1, 4, 0, 0, 0], "kappa",
     ("0.88", "0.87", "0.877", "0.876", "0.8766", "0.8767", "0.87662")),
])
def test_more_digits_are_never_worse(actual, predicted, quantity, writings):
    """Rounded and truncated writings of the true value, coarse to fine, are all right."""
    result = walkthrough(actual, predicted)
    assert round(result.kappa, 5) == 0.87662
    assert [one(result, quantity, text).verdict for text in writings] == ["rounding"] * len(
        writings)


def test_practice_easy_one_keeps_its_right_answers():
    """Teaching audit, defect 2: practice easy #1, kappa = 2/3 and den = 0.46875: "0.67" passed
    but "0.666" failed, "0.47" passed but "0.468" failed. Both writings are right now."""
    from qwk_explained.teaching.exercises import exercise_walkthrough, make_exercise

    result = exercise_walkthrough(make_exercise(1, "easy"))
    assert result.kappa == pytest.approx(2 / 3) and result.denominator == 0.46875
    for quantity, texts in (("kappa", ("0.67", "0.666", "0.6667")),
                            ("denominator", ("0.47", "0.468", "0.4688"))):
        assert all(one(result, quantity, text).accepted for text in texts), quantity


def test_small_sums_are_judged_relative_to_their_size():
    """A numerator of 0.0074 is not 0: "0" means nothing at all, and is wrong (audit: "0" was
    accepted for num in 31 hard exercises); "0.00" agrees with it to its digits but says too
    little to judge; two significant figures are right, 30 % off is wrong."""
    table = walkthrough_from_table(np.diag([10, 12, 9, 11]) + np.eye(4, k=1, dtype=int))
    num = table.numerator
    assert 0.001 < num < 0.01
    assert one(table, "numerator", "0").verdict == "wrong"
    checked = one(table, "numerator", "0.00")
    assert (checked.verdict, checked.needed.count) == ("too_coarse", 2)
    assert one(table, "numerator", f"{num:.2g}").verdict == "rounding"
    assert one(table, "numerator", f"{num * 1.3:.2g}").verdict == "wrong"


def test_a_value_too_coarse_to_judge_is_neither_right_nor_wrong():
    """Teaching audit, defect 5: "0.06" for w = 0.0625 was "Not right" and the first wrong step.
    Now it is too coarse: not graded, never the first wrong value, and it asks for 2 figures."""
    checked = check_answers(SEED, [Answer("weights", (1, 0), "0.06"),
                                   Answer("numerator", None, "0.45")])
    weight = checked[0]
    assert (weight.verdict, weight.needed) == ("too_coarse", checking.Precision("figures", 2))
    assert checking.first_wrong(checked) is None
    assert checking.graded(checked) == [checked[1]]
    assert one(SEED, "weights", "0.062", (1, 0)).verdict == "rounding"  # truncated: right


def test_a_kappa_from_the_learners_own_accepted_sums_is_right():
    """num 0.45 and den 0.40 (rounded) give 1 - 0.45/0.40 = -0.125: right for those sums."""
    checked = check_answers(SEED, [Answer("kappa", None, "-0.125"),
                                   Answer("numerator", None, "0.45"),
                                   Answer("denominator", None, "0.40")])
    kappa = checked[-1]
    assert (kappa.verdict, kappa.note) == ("rounding", "from_your_sums")
    alone = one(SEED, "kappa", "-0.125")
    assert alone.verdict == "wrong", "without the sums it is just a wrong kappa"


@pytest.mark.parametrize("kappa", ["-0.50", "0.00", "-0.55", "-0.25"])
def test_sums_too_coarse_to_judge_vouch_for_no_kappa(kappa):
    """Teaching audit, defect 1: with num "0.5" and den "0.4" (one figure each), kappas from
    -0.57 to 0 were right "for your own num and den". Sums too coarse to judge are not used."""
    checked = check_answers(SEED, [Answer("numerator", None, "0.5"),
                                   Answer("denominator", None, "0.4"),
                                   Answer("kappa", None, kappa)])
    assert [answer.verdict for answer in checked[:2]] == ["too_coarse", "too_coarse"]
    assert checked[2].note != "from_your_sums" and not checked[2].accepted


def test_a_kappa_from_the_learners_sums_must_match_to_its_own_digits():
    """1 - 0.45/0.40 = -0.125: "-0.12" (truncated) and "-0.125" match it, "-0.13" is within the
    right kappa's band anyway, "-0.11" matches neither."""
    sums = [Answer("numerator", None, "0.45"), Answer("denominator", None, "0.40")]
    for text, note, accepted in (("-0.125", "from_your_sums", True),
                                 ("-0.12", "from_your_sums", True), ("-0.13", None, True),
                                 ("-0.11", None, False)):
        kappa = check_answers(SEED, [*sums, Answer("kappa", None, text)])[-1]
        assert (kappa.note, kappa.accepted) == (note, accepted), text


def test_sums_from_counts_are_right_with_that_convention():
    """num = sum w O and den = sum w E (counts): n times the page's values, kappa unchanged."""
    numerator = float((SEED.weights * SEED.observed).sum())
    denominator = float((SEED.weights * SEED.expected).sum())
    checked = check_answers(SEED, [Answer("numerator", None, repr(numerator)),
                                   Answer("denominator", None, repr(denominator)),
                                   Answer("kappa", None, repr(1 - numerator / denominator))])
    assert [a.verdict for a in checked] == ["right_other_convention", "right_other_convention",
                                            "right"]
    assert all("counts_not_shares" in a.diagnoses for a in checked[:2])


def test_ambiguous_text_takes_the_reading_under_which_it_is_right():
    """E = 12/7 = 1.714... typed as "1,714" in English (or "1.714" in Spanish): right to its
    digits under the decimal reading, and the reading is said; a count of 1714 reads grouped."""
    result = walkthrough_from_table([[2, 1], [2, 2]])
    assert result.expected[0, 0] == pytest.approx(12 / 7)
    for text, group in (("1,714", ","), ("1.714", ".")):
        checked = one(result, "expected", text, (0, 0), group)
        assert (checked.verdict, checked.reading, checked.given) == ("rounding", "decimal", 1.714)
    grouped = one(walkthrough_from_table([[1714, 2], [0, 1]]), "observed", "1,714", (0, 0))
    assert (grouped.verdict, grouped.reading, grouped.given) == ("right", "grouping", 1714.0)


def test_check_orders_answers_and_points_at_the_first_wrong_one():
    checked = check_answers(SEED, [Answer("kappa", None, "0.5"),
                                   Answer("numerator", None, "0.45"),
                                   Answer("expected", (4, 0), "20"),
                                   Answer("observed", (4, 0), "4")])
    assert [a.quantity for a in checked] == ["observed", "expected", "numerator", "kappa"]
    assert [a.accepted for a in checked] == [True, False, True, False]
    assert checking.first_wrong(checked).quantity == "expected"
    assert checking.first_wrong(checked[:1]) is None and checking.first_wrong([]) is None


def test_unreadable_text_is_reported_not_judged():
    checked = check_answers(SEED, [Answer("kappa", None, "zwei"),
                                   Answer("numerator", None, "0.45")])
    kappa = checked[-1]
    assert kappa.verdict == "unreadable" and kappa.problem.code == "not_a_number"
    assert checking.first_wrong(checked) is None and checked[0].verdict == "right"
    assert checking.graded(checked) == [checked[0]]


UNDEFINED_ANSWERS = ["undefined", "Undefined", "NaN", "nan", "0/0", "0 / 0", "—", "–",
                     "No definida", "indefinido", "indeterminada", "无定义", "未定义",
                     "tanımsız", "TANIMSIZ", "belirsiz", "not defined"]


@pytest.mark.parametrize("text", UNDEFINED_ANSWERS)
def test_an_undefined_kappa_is_answered_undefined(text):
    """Teaching audit, defect 4: kappa 0/0 could not be answered. The words for undefined in the
    four languages (whatever the page's language), NaN, 0/0 and a dash are right; on data
    where kappa has a value they are wrong, with the reason."""
    flat = walkthrough([2, 2, 2], [2, 2, 2])
    checked = one(flat, "kappa", text)
    assert (checked.verdict, checked.undefined, checked.correct) == ("right", True, None)
    defined = one(SEED, "kappa", text)
    assert (defined.verdict, defined.note, defined.undefined) == ("wrong", "kappa_defined", True)


def test_a_number_for_an_undefined_kappa_is_wrong_with_the_reason():
    flat = walkthrough([2, 2, 2], [2, 2, 2])
    checked = one(flat, "kappa", "0")
    assert (checked.verdict, checked.correct, checked.note) == ("wrong", None, "kappa_undefined")
    assert one(flat, "numerator", "0").verdict == "right"
    assert one(flat, "numerator", "undefined").verdict == "unreadable"


# --- diagnoses: make the mistake, ask for the diagnosis ----------------------------------------


def test_the_audits_mixed_conventions_are_named():
    """Teaching audit, defect 1: O as shares but E as counts gives den 3.95, kappa 0.8861; the
    hint that "kappa would come out the same" was false there."""
    kappa = 1 - SEED.numerator / (SEED.denominator * SEED.n)
    assert round(kappa, 4) == 0.8861
    assert verdict(SEED, "kappa", "0.8861") == (
        "wrong", ("expected_not_divided_by_n", "mixed_counts_and_shares"))
    checked = check_answers(SEED, [Answer("numerator", None, "0.45"),
                                   Answer("denominator", None, "3.95")])
    assert (checked[1].verdict, checked[1].diagnoses) == (
        "wrong", ("expected_not_divided_by_n", "mixed_counts_and_shares"))
    assert verdict(SEED, "kappa", 1 - SEED.n * SEED.numerator / SEED.denominator) == (
        "wrong", ("mixed_counts_and_shares",))


def test_expected_not_divided_by_n():
    """E_ij typed as h_a[i] * h_p[j] (the outer product, no / n); E/n as h_a h_p / n."""
    outer = SEED.observed.sum(axis=1)[4] * SEED.observed.sum(axis=0)[0]
    assert verdict(SEED, "expected", outer, (4, 0)) == ("wrong", ("expected_not_divided_by_n",))
    assert verdict(TABLE, "expected", 5 * 13, (0, 1)) == ("wrong", ("expected_not_divided_by_n",))
    assert verdict(SEED, "expected_norm", outer / SEED.n, (4, 0)) == (
        "wrong", ("expected_not_divided_by_n", "counts_not_shares"))


def test_transposed():
    """O_ji or E_ji typed for cell (i, j); the other rater's histogram."""
    assert verdict(SEED, "observed", SEED.observed[0, 4], (4, 0)) == ("wrong", ("transposed",))
    assert verdict(TABLE, "expected", TABLE.expected[1, 0], (0, 1)) == ("wrong", ("transposed",))
    assert verdict(TABLE, "expected", 13 * 5, (1, 0)) == (
        "wrong", ("transposed", "expected_not_divided_by_n"))
    assert verdict(SEED, "actual_hist", SEED.predicted_hist[0], (0,)) == ("wrong", ("transposed",))


@pytest.mark.parametrize(("code", "divisor"), [
    ("weights_not_normalized", 1), ("weights_divided_by_N_squared", 25),
    ("weights_divided_by_N_minus_1", 4)])
def test_weights_with_a_wrong_divisor(code, divisor):
    """(i-j)^2 over 1, N^2 or N-1 instead of (N-1)^2 at N = 5; the audit saw /N^2 reported as
    "close" for 984/1,500 numerators."""
    raw = np.subtract.outer(np.arange(5), np.arange(5)) ** 2 / divisor
    assert verdict(SEED, "weights", raw[4, 1], (4, 1)) == ("wrong", (code,))
    numerator = float((raw * SEED.observed / SEED.n).sum())
    denominator = float((raw * SEED.expected / SEED.n).sum())
    assert verdict(SEED, "numerator", numerator) == ("wrong", (code,))
    assert verdict(SEED, "denominator", denominator) == ("wrong", (code,))
    assert verdict(SEED, "kappa", 1 - numerator / denominator)[0] == "right"  # the factor cancels


def test_linear_weights_divided_by_n_instead_of_n_minus_1():
    linear = walkthrough_from_table(SEED.observed, weights="linear")
    assert verdict(linear, "weights", 3 / 5, (4, 1)) == ("wrong", ("weights_divided_by_N_squared",))
    assert verdict(linear, "weights", 3, (4, 1)) == ("wrong", ("weights_not_normalized",))


def test_kappa_formed_the_wrong_way():
    assert verdict(SEED, "kappa", SEED.numerator / SEED.denominator) == (
        "wrong", ("forgot_one_minus",))
    assert verdict(SEED, "kappa", 1 - SEED.denominator / SEED.numerator) == (
        "wrong", ("num_den_swapped",))
    assert verdict(TABLE, "kappa", -TABLE.kappa) == ("wrong", ("sign",))
    assert verdict(SEED, "numerator", SEED.denominator) == ("wrong", ("num_den_swapped",))


def test_other_weighting():
    """Linear instead of quadratic and the other way round, computed independently."""
    linear = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1", weights="linear")
    assert verdict(SEED, "kappa", linear.kappa) == ("wrong", ("linear_weights",))
    assert verdict(SEED, "weights", 3 / 4, (4, 1)) == ("wrong", ("linear_weights",))
    assert verdict(linear, "kappa", SEED.kappa) == ("wrong", ("quadratic_weights",))
    assert verdict(linear, "numerator", SEED.numerator) == ("wrong", ("quadratic_weights",))
    plain = walkthrough_from_table(TABLE.observed, weights="unweighted")
    assert verdict(TABLE, "kappa", plain.kappa) == ("wrong", ("unweighted",))


def test_several_mistakes_that_give_one_value_are_all_named():
    """Unweighted w = 1 and (i - j)^2 = 1 unnormalized at distance 1: one value, two causes."""
    assert verdict(SEED, "weights", "1", (1, 0)) == (
        "wrong", ("unweighted", "weights_not_normalized"))


def test_observed_scale_instead_of_range_and_back():
    """N different: ratings nobody used left out (observed) or gaps filled in (range)."""
    gappy = walkthrough([0, 0, 4, 4, 1], [0, 1, 4, 4, 0])  # 2 and 3 unused: N = 5
    observed = walkthrough([0, 0, 4, 4, 1], [0, 1, 4, 4, 0], scale="observed")  # N = 3
    assert verdict(gappy, "kappa", observed.kappa) == ("wrong", ("observed_scale",))
    assert verdict(observed, "kappa", gappy.kappa) == ("wrong", ("range_scale",))
    assert verdict(gappy, "weights", observed.weights[1, 2], (1, 4)) == (
        "wrong", ("observed_scale",))
    assert checking.hint_params(gappy)["other_size"] == 3


def test_no_diagnosis_when_no_mistake_fits():
    assert verdict(SEED, "kappa", "0.77") == ("wrong", ())


# --- answers written as data ----------------------------------------------------------------------


def test_answers_from_nested_lists_and_cells_keyed_by_ratings():
    """Rows are actual ratings; "i,j" keys are rating labels (a table labelled 1 to 3)."""
    table = walkthrough_from_table([[2, 1, 0], [0, 3, 1], [0, 0, 2]], labels=[1, 2, 3])
    answers = checking.answers_from_mapping(table, {
        "observed": [[2, 1, 0], [0, None, 1], [0, 0, ""]], "expected": {"1,2": "1,333"},
        "actual_hist": {"3": 2}, "predicted_hist": [2, 4, 3], "kappa": 0.5})
    assert Answer("observed", (1, 2), "1") in answers
    assert Answer("expected", (0, 1), "1,333") in answers
    assert Answer("actual_hist", (2,), "2") in answers
    assert Answer("kappa", None, "0.5") in answers
    assert len([a for a in answers if a.quantity == "observed"]) == 7  # None and "" skipped
    spanish = checking.answers_from_mapping(table, {"kappa": 1.714}, ".")
    assert spanish == [Answer("kappa", None, "1,714")], "a JSON number is never ambiguous"


@pytest.mark.parametrize(("answers", "code"), [
    ([1, 2], "not_an_object"), ({"kapa": 1}, "unknown_quantity"),
    ({"observed": [[1, 2], [3, 4]]}, "bad_shape"), ({"observed": {"1;9": 1}}, "bad_cell"),
    ({"observed": {"x": 1}}, "bad_cell"), ({"kappa": True}, "bad_value"),
    ({"kappa": [0.5]}, "bad_value"), ({"actual_hist": [1, 2]}, "bad_shape"),
])
def test_malformed_answers_raise_a_translated_error(answers, code):
    with pytest.raises(SubmissionError) as caught:
        checking.answers_from_mapping(TABLE, answers)
    assert caught.value.code == code
    for lang in LANGUAGES:
        assert "{" not in message(lang, caught.value)


# --- words -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_diagnosis_verdict_and_note_is_a_filled_in_sentence(lang):
    """Each code of the fixed vocabulary has a sentence in every language, numbers filled in."""
    strings = load(lang)
    for code in CODES:
        assert f"checker.diagnosis.{code}" in strings, (lang, code)
    for text in feedback.diagnosis_sentences(lang, SEED, CODES):
        assert text and not set("{}") & set(text), (lang, text)
    said = [v for v in checking.VERDICTS if v != "unreadable"]  # its problem says why
    for key in [*(f"checker.verdict.{v}" for v in said),
                *(f"checker.verdict_short.{v}" for v in said),
                *(f"checker.note.{n}" for n in checking.NOTES),
                "checker.verdict_undefined.right", "checker.verdict_undefined.wrong"]:
        assert key in strings, (lang, key)
    for kind in ("figures", "decimals"):
        for count in (1, 2, 3):
            sentence = t(lang, f"checker.too_coarse.{kind}", count=count)
            assert format_number(count, lang) in sentence and "{" not in sentence
    sentence = feedback.diagnosis_sentences(lang, SEED, ["expected_not_divided_by_n"])[0]
    assert format_number(10, lang) in sentence


@pytest.mark.parametrize(("lang", "value", "key", "params"), [
    ("en", 0.45, "checker.exact_value", {"value": "0.45"}),
    ("en", 2 / 3, "checker.exact_fraction", {"fraction": "2/3", "value": "0.6667"}),
    ("es", -11 / 79, "checker.exact_fraction",
     {"fraction": "\u221211/79", "value": "\u22120,1392"}),
    ("tr", 2 ** 0.5 / 10, "checker.value_rounded", {"value": "0,1414", "decimals": 4}),
])
def test_a_rounded_value_is_never_called_exact(lang, value, key, params):
    """Teaching audit, defect 13: "The exact value is 0.6667" for 2/3. A value that four
    decimals do not write exactly is given as a fraction with "≈", or as rounded."""
    assert feedback.exact_sentence(lang, value) == t(lang, key, **params)


def test_feedback_names_place_verdict_and_reading():
    checked = check_answers(SEED, [Answer("expected", (4, 0), "20"),
                                   Answer("kappa", None, "-0,14")], ".")
    assert feedback.symbol("es", SEED, checked[0]) == "E[4, 0]"
    assert feedback.where("en", SEED, checked[0]) == t(
        "en", "checker.where.expected", row="4", col="0")
    assert feedback.verdict_line("es", checked[1]) == t(
        "es", "checker.verdict.rounding", value="\u22120,14")  # the value as Spanish writes it
    said = feedback.explanation("en", SEED, checked[0])
    assert said == [t("en", "checker.diagnosis.expected_not_divided_by_n", n="10")]


def test_a_grouped_reading_is_echoed_without_grouping():
    """The Turkish review (K4): "1.250" read with the point as a thousands mark must come back as
    1250, in the verdict and in the reading, not as "1.250" again, or the learner cannot see
    which reading was taken."""
    result = walkthrough_from_table([[1250, 2], [0, 1]])
    checked = one(result, "observed", "1.250", (0, 0), ".")
    assert (checked.reading, checked.given) == ("grouping", 1250.0)
    said = feedback.explanation("tr", result, checked)
    assert said[0] == t("tr", "checker.reading.grouping", text="1.250", value="1250")
    assert "1.250 olarak" not in said[0]
    assert feedback.verdict_line("tr", checked) == t("tr", "checker.verdict.right", value="1250")


def test_every_submission_error_the_code_raises_is_translated():
    """Scan of the package: each SubmissionError code has its sentence under checker.errors."""
    root = Path(checking.__file__).resolve().parent.parent
    codes = {code for path in root.rglob("*.py")
             for code in re.findall(r'SubmissionError\(\s*"([a-z_]+)"', path.read_text("utf-8"))}
    assert len(codes) >= 10, "the scan found too few codes: the regex is out of date"
    assert sorted(code for code in codes if f"checker.errors.{code}" not in load("en")) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_den_from_counts_alone_is_right_and_e_undivided_is_only_a_condition(lang):
    """Teaching audit, defect 5: den typed alone as n den (3.95 for 0.395) was "right, with
    counts" and, right under it, "E was not divided by n ... come out wrong". Without num it
    cannot be told which: the alternative is said as a condition."""
    (den,) = check_answers(SEED, [Answer("denominator", None, "3.95")])
    assert den.verdict == "right_other_convention"
    said = feedback.explanation(lang, SEED, den)
    assert t(lang, "checker.note.if_num_from_shares", n=format_number(10, lang)) in said
    assert not any(sentence == t(lang, "checker.diagnosis.expected_not_divided_by_n",
                                 n=format_number(10, lang)) for sentence in said)


def test_whole_numbers_for_counts_are_exact():
    """A count typed as a whole number is that count: "2" for O = 3 is wrong (O transposed
    here), never a rounding of 3 "too coarse" to judge; the same for a bare "0" anywhere."""
    result = walkthrough([0, 0, 0, 1, 1], [0, 1, 1, 0, 0])
    assert (result.observed[0, 1], result.observed[1, 0]) == (2, 2)
    skewed = walkthrough([0, 0, 0, 1, 1], [0, 1, 1, 1, 0])  # O[0, 1] = 2, O[1, 0] = 1
    checked = one(skewed, "observed", "1", (0, 1))
    assert (checked.verdict, checked.diagnoses) == ("wrong", ("transposed",))
    assert one(skewed, "observed_norm", "0", (0, 1)).verdict == "wrong"
    assert one(skewed, "expected", "10", (0, 0)).verdict == "wrong"


def test_two_figures_of_the_writing_count_as_two_figures():
    """0.0996 written "0.10" has two significant figures as written: judged, and right; "0.1"
    has one and is too coarse. (The requirement is the data's, the leniency the writing's.)"""
    goal = checking.Target(0.0996, 0.0, 0.001, checking.Precision("figures", 2))
    assert checking.judge(read_number("0.10")[0], "numerator", goal, []).verdict == "rounding"
    assert checking.judge(read_number("0.1")[0], "numerator", goal, []).verdict == "too_coarse"
    assert checking.judge(read_number("0.0996")[0], "numerator", goal, []).verdict == "right"


def test_a_mistake_that_gives_the_right_value_asks_for_no_digits():
    """A classic mistake can give the right value itself, up to binary noise (a scale whose
    dropped ratings change nothing): it is no reason to ask for 6 decimals."""
    same = checking.Candidate(0.1616847826086956 + 2e-17, frozenset({"observed_scale"}), 0.0)
    assert checking.coarsest_unit("kappa", 0.1616847826086956, 0.0, [same]) == 0.01


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_mistake_shared_by_a_whole_grid_is_named_for_the_grid(lang):
    """Invariant of the wording: a group is "every cell of E" exactly when it holds every cell,
    "every cell of E that is not 0" when it holds exactly the engine's nonzero cells, and
    otherwise lists each cell. E typed without / n (the outer product of the histograms)."""
    result = walkthrough_from_table([[3, 1, 0], [1, 4, 1], [0, 2, 5]])  # no zero in E
    outer = result.actual_hist[:, None] * result.predicted_hist[None, :]
    every = [Answer("expected", (i, j), str(int(outer[i, j])))
             for i in range(3) for j in range(3)]
    checked = check_answers(result, every)
    assert all(answer.wrong for answer in checked)
    assert feedback.places(lang, result, checked) == t(lang, "checker.every_cell", grid="`E`")
    assert feedback.places(lang, result, checked[:2]) == (
        f"`{feedback.symbol(lang, result, checked[0])}` "
        f"`{feedback.symbol(lang, result, checked[1])}`")
    zeros = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])  # E's first column is 0
    outer = zeros.actual_hist[:, None] * zeros.predicted_hist[None, :]
    wrong = [answer for answer in check_answers(
        zeros, [Answer("expected", (i, j), str(int(outer[i, j])))
                for i in range(3) for j in range(3)]) if answer.wrong]
    assert {answer.cell for answer in wrong} == {(i, j) for i in range(3) for j in (1, 2)}
    assert feedback.places(lang, zeros, wrong) == t(lang, "checker.every_nonzero_cell",
                                                     grid="`E`")
