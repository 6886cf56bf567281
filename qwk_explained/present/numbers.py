r"""Numbers as each language writes them: the single place where numbers become text.

Every rule comes from the language's record (:mod:`.languages`, CLDR data): the decimal and
grouping marks (0.25 and 1,000 in English and Chinese; 0,25 and 1.000 in Spanish and Turkish,
where Spanish leaves four-digit numbers ungrouped), the minus sign, the percent pattern (``95%``,
``95 %``, ``%95``) and the list patterns ("2 and 5", "2 y 5", "2 ve 5", "2 和 5"). Counts are
shown as integers, everything else rounded to 4 decimals with trailing zeros dropped, so the same
number reads the same in a sentence, a table, a formula and a chart. A rating is a name on the
scale, never grouped (1000, not 1,000); a p-value too small for 4 decimals is ``< 0.0001``, never
0. Inside LaTeX the marks are braced (``0{,}25``) so TeX does not space them as punctuation, and
TeX's own minus is used.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from qwk_explained.teaching.interpret import DECIMALS

from . import columns
from .languages import Language, language

__all__ = ["DECIMALS", "SMALLEST_P", "about", "format_count", "format_label", "format_latex",
           "format_latex_count", "format_latex_percent", "format_list", "format_number",
           "format_p_value", "format_percent", "plotly_separators", "printf_percent",
           "rounds_to_zero", "separators", "space_cjk"]

#: What an undefined number (None, NaN) is shown as.
MISSING = "—"
#: The smallest p-value written as a number: below it, rounding to DECIMALS would print 0, a
#: certainty no test gives, so it is written ``< 0.0001``.
SMALLEST_P = 10.0 ** -DECIMALS
#: Marks as LaTeX writes them in math mode: braced, so TeX does not space them as punctuation.
_LATEX_DECIMAL = {",": "{,}"}
_LATEX_GROUP = {",": "{,}", ".": "{.}", "\u00a0": r"\,", "\u202f": r"\,", "'": "{'}"}


def separators(lang: str) -> tuple[str, str]:
    """(decimal mark, grouping mark) for a language, from its record."""
    record = language(lang)
    return record.decimal, record.group


def plotly_separators(lang: str) -> str:
    """The ``layout.separators`` string plotly expects: decimal mark then grouping mark."""
    decimal, group = separators(lang)
    return decimal + group


def printf_percent(lang: str) -> str:
    """A printf pattern that writes a whole percentage as the language does, for a widget that
    formats its value in the browser (Streamlit's slider takes sprintf-js patterns, which know no
    decimal comma: a proportion in 0..1 would show "0.60" in every language).

    >>> [printf_percent(lang) for lang in ("en", "es", "tr")]
    ['%d%%', '%d\xa0%%', '%%%d']
    """
    return language(lang).percent.replace("%", "%%").replace("{}", "%d")


def _group(digits: str, record: Language, mark: str) -> str:
    """``12345`` -> ``12,345``; numbers shorter than 3 + minimumGroupingDigits stay whole."""
    if len(digits) < 3 + record.min_grouping_digits:
        return digits
    head = len(digits) % 3 or 3
    return mark.join([digits[:head]] + [digits[k:k + 3] for k in range(head, len(digits), 3)])


def _parts(value: float | int, decimals: int) -> tuple[bool, str, str] | None:
    """(negative, integer digits, fraction digits) of a rounded number; None if not finite."""
    number = float(value)
    if not math.isfinite(number):
        return None
    if isinstance(value, int) or number.is_integer():
        text = str(abs(int(round(number))))
        return number < 0 and text != "0", text, ""
    text = _rounded(abs(number), decimals).rstrip("0")
    integer, _, fraction = text.partition(".")
    negative = number < 0 and (integer.strip("0") != "" or fraction != "")
    return negative, integer or "0", fraction


#: Enough digits for any number on screen: ``quantize`` fails beyond its context's precision.
_CONTEXT = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP)


def _rounded(number: float, decimals: int) -> str:
    """``number`` (at least 0) with ``decimals`` decimals, rounded as by hand: half away from 0,
    from the shortest decimal that reads back as the float.

    ``f"{x:.4f}"`` rounds the binary float, which for 0.0625 · 0.06 is 0.00374999…: it writes
    0.0037 where a learner rounding the 0.00375 they worked out writes 0.0038 (and 0.00125 as
    0.0013, so the two disagreed on screen).
    """
    exact = decimal.Decimal(repr(number))
    return str(exact.quantize(decimal.Decimal(1).scaleb(-decimals), context=_CONTEXT))


def _format(value: float | int | None, record: Language, decimals: int, *, group: bool,
            minus: str, decimal: str, group_mark: str, missing: str, infinity: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    parts = _parts(value, decimals)
    if parts is None:
        return infinity if float(value) > 0 else minus + infinity
    negative, integer, fraction = parts
    text = _group(integer, record, group_mark) if group else integer
    if fraction:
        text += decimal + fraction
    return (minus if negative else "") + text


def format_number(value: float | int | None, lang: str = "en", decimals: int = DECIMALS,
                  *, group: bool = True) -> str:
    """Format a count or a real number for display in ``lang``.

    >>> format_number(0.0625, "es"), format_number(12345, "tr"), format_number(-0.139240506, "en")
    ('0,0625', '12.345', '−0.1392')
    >>> format_number(1234, "es"), format_number(1234, "en"), format_number(None, "zh")
    ('1234', '1,234', '—')
    """
    record = language(lang)
    return _format(value, record, decimals, group=group, minus=record.minus,
                   decimal=record.decimal, group_mark=record.group, missing=MISSING,
                   infinity="∞")


def format_label(value: int | np.integer[Any], lang: str = "en") -> str:
    """A label as the language writes it: a rating of the scale or an item's number, with the
    language's minus sign and never grouped, since a label names a row or an item rather than
    counting anything.

    >>> format_label(-3, "es"), format_label(1000, "en"), format_number(1000, "en")
    ('−3', '1000', '1,000')
    """
    return format_number(int(value), lang, group=False)


def _whole(value: float | int | np.number[Any]) -> int:
    # Counts held in float arrays (O as floats, histograms summed) are whole numbers up to
    # rounding error.
    return int(round(float(value)))


def rounds_to_zero(value: float) -> bool:
    """Whether ``value`` is written as 0 with :data:`DECIMALS` decimals (a change too small to
    show).

    >>> rounds_to_zero(0.00004), rounds_to_zero(-0.00005), rounds_to_zero(0.0001)
    (True, False, False)
    """
    return abs(value) < 0.5 * 10.0 ** -DECIMALS


def about(count: int, figures: int = 1) -> int:
    """``count`` to ``figures`` significant figures: the size of an "about" quantity, which
    written in full ("about 5,242,880 rows") claims a precision it does not have.

    >>> about(5_242_880), about(5_242_880, 2), about(7), about(0)
    (5000000, 5200000, 7, 0)
    """
    if count == 0:
        return 0
    return round(count, figures - len(str(abs(count))))


def format_count(value: float | int | np.number[Any], lang: str = "en") -> str:
    """A count, written as the whole number it is even when an array holds it as a float.

    >>> format_count(12345.0, "es"), format_count(np.float64(2.9999999999), "en")
    ('12.345', '3')
    """
    return format_number(_whole(value), lang)


def format_p_value(p: float, lang: str = "en", *, name: str | None = None,
                   latex: bool = False) -> str:
    r"""A two-sided p-value: the number, or ``< 0.0001`` below :data:`SMALLEST_P`.

    With ``name`` it is a relation: ``p = 0.1611``, ``p < 0.0001``. With ``latex`` the number
    is written for a formula (``0{,}0001``).

    >>> format_p_value(0.16113, "es"), format_p_value(3e-9, "en"), format_p_value(0.5, name="p")
    ('0,1611', '< 0.0001', 'p = 0.5')
    >>> print(format_p_value(3e-9, "tr", name=r"p = 2\Phi(-6)", latex=True))
    p = 2\Phi(-6) < 0{,}0001
    """
    below = p < SMALLEST_P
    write = format_latex if latex else format_number
    number = write(SMALLEST_P if below else p, lang)
    if below:
        return f"< {number}" if name is None else f"{name} < {number}"
    return number if name is None else f"{name} = {number}"


def format_latex(value: float | int | None, lang: str = "en", decimals: int = DECIMALS) -> str:
    """The same number as :func:`format_number`, for a LaTeX formula (``0{,}25``, ``1{.}000``).

    >>> format_latex(-0.25, "tr"), format_latex(12345.5, "es")
    ('-0{,}25', '12{.}345{,}5')
    """
    record = language(lang)
    return _format(value, record, decimals, group=True, minus="-",
                   decimal=_LATEX_DECIMAL.get(record.decimal, record.decimal),
                   group_mark=_LATEX_GROUP.get(record.group, record.group),
                   missing=r"\text{—}", infinity=r"\infty")


def format_latex_count(value: float | int | np.number[Any], lang: str = "en") -> str:
    """:func:`format_count` for a LaTeX formula (``12{.}345``)."""
    return format_latex(_whole(value), lang)


def format_percent(value: float, lang: str = "en", decimals: int = 1) -> str:
    """A proportion as a percentage in the language's CLDR pattern.

    >>> format_percent(0.95, "en"), format_percent(0.95, "es"), format_percent(0.95, "tr")
    ('95%', '95\xa0%', '%95')
    """
    return language(lang).percent_text(format_number(value * 100, lang, decimals))


def format_latex_percent(value: float, lang: str = "en", decimals: int = 1) -> str:
    r"""A percentage inside a formula: ``12{,}5~\%`` in Spanish, ``\%12{,}5`` in Turkish."""
    text = language(lang).percent_text(format_latex(value * 100, lang, decimals))
    return text.replace("%", r"\%").replace("\u00a0", "~").replace("\u202f", r"\,")


def space_cjk(before: str, after: str, lang: str) -> str:
    """The space a language sets between two pieces of text that meet: in Chinese, one between a
    Han character and a Latin letter, digit or sign (``第 3 步``, ``二次加权 kappa``), none
    next to full-width punctuation; nothing elsewhere."""
    if not (before and after and language(lang).space_between_cjk_and_latin):
        return ""
    left, right = before[-1], after[0]
    if (_is_han(left) and _is_latin(right)) or (_is_latin(left) and _is_han(right)):
        return " "
    return ""


def _is_han(char: str) -> bool:
    # Han ideographs (and kana): wide letters, not full-width punctuation or spaces.
    return char.isalpha() and columns.is_wide(char)


def _is_latin(char: str) -> bool:
    # A backtick opens or closes Markdown code (`labels=`), which reads as Latin text, and a
    # slash starts a path ("文件 /tmp/x.json 不存在").
    return (char.isalnum() or char in "%−+-`/") and not columns.is_wide(char)


def format_list(items: Sequence[str], lang: str = "en") -> str:
    """Already formatted items joined as the language lists them (CLDR list patterns).

    >>> format_list(["2", "3", "5"], "en"), format_list(["2", "5"], "es"), format_list(["2"], "tr")
    ('2, 3, and 5', '2 y 5', '2')
    >>> format_list(["2", "3", "5"], "zh")
    '2、3 和 5'
    """
    patterns = language(lang).cldr["list"]
    items = list(items)
    if len(items) < 2:
        return items[0] if items else ""
    if len(items) == 2:
        return _fill(patterns["2"], items[0], items[1], lang)
    text = _fill(patterns["end"], items[-2], items[-1], lang)
    for item in reversed(items[1:-2]):
        text = _fill(patterns["middle"], item, text, lang)
    return _fill(patterns["start"], items[0], text, lang)


def _fill(pattern: str, first: str, second: str, lang: str) -> str:
    head, rest = pattern.split("{0}", 1)
    middle, tail = rest.split("{1}", 1)
    return (head + space_cjk(head, first, lang) + first + space_cjk(first, middle, lang) + middle
            + space_cjk(middle, second, lang) + second + space_cjk(second, tail, lang) + tail)
