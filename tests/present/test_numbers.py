"""Numbers written in one place: labels, counts, p-values and every number a sentence holds.

Sources of truth: :func:`~qwk_explained.present.numbers.format_number` (checked against Babel's
CLDR data in ``test_cldr.py``), and the invariants each helper adds to it: a rating is never
grouped, a count is the whole number it stands for, a p-value too small for the shown decimals
is an inequality, never 0, and a translated sentence writes a number exactly as
``format_number`` does, whether it comes from ``t()`` or from an error's ``message()``.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_explained.core.errors import InputError
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.present.numbers import (
    DECIMALS,
    SMALLEST_P,
    format_count,
    format_label,
    format_latex,
    format_number,
    format_p_value,
    format_percent,
    printf_percent,
    rounds_to_zero,
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_label_keeps_the_minus_sign_and_is_never_grouped(lang: str) -> None:
    for value in (-3, 0, 7, 1000, -12_345, np.int64(1_000_000)):
        text = format_label(value, lang)
        assert text == format_number(int(value), lang, group=False)
        assert language(lang).group not in text and "-" not in text
    assert format_label(-3, lang) == language(lang).minus + "3"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_held_as_a_float_is_written_as_its_whole_number(lang: str) -> None:
    for count in (0, 3, 12_345, 10_000_000):
        for held in (count, float(count), np.float64(count) + 1e-9, np.float64(count) - 1e-9):
            assert format_count(held, lang) == format_number(count, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_p_value_too_small_to_show_is_an_inequality(lang: str) -> None:
    assert SMALLEST_P == 10.0 ** -DECIMALS
    smallest = format_number(SMALLEST_P, lang)
    for p in (0.0, 1e-12, 0.99 * SMALLEST_P):
        assert format_p_value(p, lang) == f"< {smallest}"
        assert format_p_value(p, lang, name="p") == f"p < {smallest}"
        assert format_p_value(p, lang, latex=True) == f"< {format_latex(SMALLEST_P, lang)}"
    for p in (SMALLEST_P, 0.16113, 1.0):
        assert format_p_value(p, lang) == format_number(p, lang)
        assert format_p_value(p, lang, name="p") == f"p = {format_number(p, lang)}"


def test_rounds_to_zero_exactly_when_the_number_is_written_as_zero() -> None:
    """The app hides a change of kappa that would read "0" (or "−0")."""
    for value in np.linspace(-3e-4, 3e-4, 601):
        written = format_number(float(value), "en")
        assert rounds_to_zero(float(value)) == (written == "0"), (value, written)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sentence_writes_its_numbers_as_format_number_does(lang: str) -> None:
    """A raw negative integer passed to t() gets the true minus sign, never an ASCII hyphen
    (t("es", "step_by_step.cell_no_items", row=-3) used to say "-3"), and a real number its decimal
    mark; t() and message() fill the same placeholders the same way."""
    text = t(lang, "step_by_step.cell_no_items", row=-3, col=np.int64(-12))
    assert format_number(-3, lang) in text and format_number(-12, lang) in text
    assert "-" not in text
    assert format_number(-1234.5, lang) in t(lang, "cli.value_line", label="κ", value=-1234.5)
    error = InputError("length_mismatch", n_actual=12_345, n_predicted=-0.5)
    assert message(lang, error) == t(lang, "errors.length_mismatch", **error.params)
    assert format_number(12_345, lang) in message(lang, error)


def test_the_plural_form_follows_the_count_as_it_is_shown() -> None:
    """1.00001 is written "1" with four decimals, so it takes the singular."""
    assert t("en", "errors.csv_too_many_columns", count=1.00001) == t(
        "en", "errors.csv_too_many_columns", count=1)
    assert t("en", "errors.csv_too_many_columns", count=1.5) == t(
        "en", "errors.csv_too_many_columns", count=2).replace("2", "1.5")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_printf_percent_writes_what_format_percent_writes(lang: str) -> None:
    """The slider's printf pattern (filled in the browser by sprintf-js, here by Python's ``%``,
    which reads ``%d`` and ``%%`` alike) writes a whole percentage as the language does."""
    for whole in (0, 5, 60, 100):
        assert printf_percent(lang) % whole == format_percent(whole / 100, lang, 0)


@pytest.mark.parametrize(("value", "shown"), [
    (0.0625 * 0.06, "0,0038"), (0.00125, "0,0013"), (-0.00375, "−0,0038"), (0.03125, "0,0313"),
    (0.00605, "0,0061"), (-0.00004, "0"), (-0.00005, "−0,0001")])
def test_display_rounds_half_away_from_zero_as_by_hand(value: float, shown: str) -> None:
    """Spanish review, M13: w·E/n = 0.0625 · 0.06 = 0.00375 showed 0,0037 (the float's
    0.00374999…) beside 0,00125 shown 0,0013; a learner rounds what they worked out, 0,0038."""
    assert format_number(value, "es") == shown
    assert rounds_to_zero(value) == (shown == "0")
