"""Numbers as a learner types them, with the precision they were written to.

A hand calculation is judged to the digits the learner wrote: ``0.45`` for 0.4502 is right to two
decimals, ``0.4`` is not precise enough to say, ``1/16`` is exact. :func:`read_number` therefore
returns, besides the value, half a unit of the last digit written (the largest rounding error the
text allows), the number of significant figures and of decimals.

Accepted forms: a decimal comma or point (``0,25`` and ``0.25``), a fraction (``1/16``, exact when
both parts are whole numbers), a percentage (``25%``, Turkish ``%25``), an exponent (``1.5e-3``),
full-width digits and minus signs. One mark followed by exactly three digits is ambiguous when it
is the language's grouping mark: ``1,714`` in English is 1714 (grouped) or 1.714 (a decimal
comma); both readings are returned, the grouped one first, and the checker keeps the reading
under which the answer is right.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, replace
from itertools import product
from typing import Literal

from qwk_explained.core.errors import QwkError
from qwk_explained.core.parse import shorten

#: How an ambiguous number was read: ``1,714`` as one thousand seven hundred and fourteen
#: (``grouping``) or as one point seven one four (``decimal``).
Reading = Literal["grouping", "decimal"]

#: Significant figures given to an exact value (a fraction of whole numbers): more than any
#: precision rule asks for.
EXACT_FIGURES = 99
#: Longest piece of the learner's text repeated in a message.
_SHOWN = 20

# Bounds, checked before any arithmetic: a value of a hand calculation of kappa needs a few
# digits, no exponent beyond a handful, no magnitude beyond the counts of ten million items
# (what a mistake such as E not divided by n gives: up to 10^14). Past them the arithmetic of a
# reading overflows (``0e400`` made its precision 10^400, a 4,301-digit exponent is more than
# Python's int() reads), so such a text is refused with its own message instead.
#: Most digits in one typed number (both parts of a fraction together).
MAX_DIGITS = 40
#: Longest text read as one number (spaces, signs and marks included).
MAX_CHARS = 100
#: Largest exponent written (``1e-30`` reads; ``1e300`` does not).
MAX_EXPONENT = 99
#: Largest magnitude of a value read (any value or mistake of the calculation is far smaller).
MAX_MAGNITUDE = 1e18


class AnswerError(QwkError, ValueError):
    """A typed answer that is not a number (locale keys under ``checker.parse.``)."""

    namespace = "checker.parse"


@dataclass(frozen=True)
class TypedNumber:
    """One reading of a typed number.

    ``half_unit`` is half a unit of the last digit written (``0.005`` for ``0.45``; 0 for an exact
    fraction such as ``1/16``): the text stands for any value within that distance. ``significant``
    counts the significant figures written (``0.0450`` has 3), ``decimals`` the digits after the
    decimal mark once percent signs and exponents are applied (``25%`` has 2). ``reading`` is set
    only when the text could be read in two ways.
    """

    value: float
    half_unit: float
    significant: int
    decimals: int
    reading: Reading | None = None

    @property
    def exact(self) -> bool:
        """Whether the text is an exact value (a fraction of whole numbers), not a rounded one."""
        return self.half_unit == 0.0


_PLAIN = re.compile(r"^(?P<sign>[+-]?)(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?"
                    r"(?:[eE](?P<exp>[+-]?[0-9]+))?$")
# "1,234,567" and "1,234.5" (English grouping), "1.234.567" and "1.234,5" (Spanish, Turkish).
_GROUPED = {",": re.compile(r"^[+-]?[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?$"),
            ".": re.compile(r"^[+-]?[1-9][0-9]{0,2}(?:\.[0-9]{3})+(?:,[0-9]+)?$")}
# One grouping mark followed by exactly three digits: "1,714" (en) or "1.714" (es, tr).
_AMBIGUOUS = {",": re.compile(r"^[+-]?[1-9][0-9]{0,2},[0-9]{3}$"),
              ".": re.compile(r"^[+-]?[1-9][0-9]{0,2}\.[0-9]{3}$")}
_MINUS_SIGNS = {ord(c): "-" for c in "\u2212\u2012\u2013\u2014\ufe63\uff0d"}
_THIN_SPACES = {ord(c): None for c in "\u00a0\u2009\u202f\u2007"}


def _decimal_texts(token: str, group: str) -> list[tuple[str, Reading | None]]:
    """``token`` rewritten with a decimal point and no grouping: one text, or two if ambiguous."""
    if group in _AMBIGUOUS and _AMBIGUOUS[group].match(token):
        return [(token.replace(group, ""), "grouping"), (token.replace(group, "."), "decimal")]
    if group in _GROUPED and _GROUPED[group].match(token):
        return [(token.replace(group, "").replace(",", "."), None)]
    if "," in token and "." in token:
        # Both marks in another language's style: the last one is the decimal mark.
        last = max(token.rfind(","), token.rfind("."))
        mark = token[last]
        token = token.replace("." if mark == "," else ",", "")
        return [(token.replace(",", "."), None)]
    if token.count(",") == 1:
        # A single comma is a decimal mark in every language the app speaks ("0,25").
        return [(token.replace(",", "."), None)]
    return [(token, None)] if "," not in token else []


def _check_length(text: str, shown: str) -> None:
    """Refuse a text too long to be one number, before anything else reads it."""
    digits = sum(character.isdigit() for character in text)
    if len(text) > MAX_CHARS or digits > MAX_DIGITS:
        raise AnswerError("too_long", text=shown, limit=MAX_DIGITS)


def _check_exponent(match: re.Match[str], shown: str) -> None:
    """Refuse an exponent beyond :data:`MAX_EXPONENT` before it is converted or used."""
    exponent = (match["exp"] or "0").lstrip("+-").lstrip("0")
    if len(exponent) > len(str(MAX_EXPONENT)) or int(exponent or 0) > MAX_EXPONENT:
        raise AnswerError("out_of_range", text=shown)


def _check_magnitude(number: TypedNumber, shown: str) -> None:
    """Refuse a value beyond :data:`MAX_MAGNITUDE` (``1e99/1e-99``)."""
    if not abs(number.value) <= MAX_MAGNITUDE:  # also refuses NaN
        raise AnswerError("out_of_range", text=shown)


def _plain(text: str, reading: Reading | None, shown: str) -> TypedNumber | None:
    match = _PLAIN.match(text)
    if match is None or not (match["int"] or match["frac"]):
        return None
    _check_exponent(match, shown)
    value = float(text)
    if not math.isfinite(value):
        return None
    fraction = match["frac"] or ""
    exponent = int(match["exp"] or 0)
    decimals = len(fraction) - exponent
    digits = (match["int"] + fraction).lstrip("0")
    return TypedNumber(value, 0.5 * 10.0 ** (-decimals), len(digits), decimals, reading)


def _quotient(top: TypedNumber, bottom: TypedNumber) -> TypedNumber:
    """``top / bottom``: exact when both are whole numbers, else with their rounding combined."""
    value = top.value / bottom.value
    whole = [part.decimals <= 0 and float(part.value).is_integer() for part in (top, bottom)]
    if all(whole):
        return TypedNumber(value, 0.0, EXACT_FIGURES, EXACT_FIGURES, top.reading or bottom.reading)
    # Relative errors add up in a quotient; a whole part of a fraction is taken as exact.
    relative = sum(part.half_unit / abs(part.value)
                   for part, exact in zip((top, bottom), whole, strict=True)
                   if not exact and part.value != 0)
    half = abs(value) * relative
    figures = min(part.significant for part, exact in zip((top, bottom), whole, strict=True)
                  if not exact)
    decimals = EXACT_FIGURES if half == 0 else math.floor(-math.log10(2 * half))
    return TypedNumber(value, half, figures, decimals, top.reading or bottom.reading)


def _percent(text: str) -> tuple[bool, str]:
    """Whether ``text`` is a percentage, and the number without its percent sign: ``25%``,
    ``-13,92 %``, and the Turkish ``%25``, ``%-13,92`` and ``-%13,92`` (the sign before the
    percent sign, as Turkish writes a negative percentage)."""
    sign = ""
    if text[:1] in "+-" and text[1:].lstrip().startswith("%"):
        sign, text = text[0], text[1:].lstrip()
    if text.endswith("%") or text.startswith("%"):
        return True, sign + text.strip("%").strip()
    return False, sign + text


#: What a learner writes for a kappa that has no value (0/0), in the four languages the app
#: speaks, whatever the language of the page: the words for "undefined" and "indeterminate",
#: NaN, the fraction 0/0 itself and a dash. Compared after NFKC, case folding and dotless i.
UNDEFINED_ANSWERS = frozenset({
    "undefined", "not defined", "indeterminate", "nan", "0/0", "\u2014", "\u2013",
    "indefinida", "indefinido", "no definida", "no definido", "no está definida",
    "no está definido", "indeterminada", "indeterminado",
    "无定义", "未定义", "不存在", "无意义",
    "tanimsiz", "belirsiz",
})


def reads_as_undefined(text: str) -> bool:
    """Whether ``text`` says "undefined" (see :data:`UNDEFINED_ANSWERS`), as a learner answers a
    kappa of 0/0.

    >>> [reads_as_undefined(s) for s in ("NaN", " Undefined ", "0 / 0", "TANIMSIZ", "0", "—")]
    [True, True, True, True, False, True]
    """
    if not isinstance(text, str):
        return False
    cleaned = unicodedata.normalize("NFKC", text.translate(_THIN_SPACES)).strip()
    # Turkish dotted and dotless i fold differently; compare them as one letter.
    folded = cleaned.replace("\u0130", "i").replace("\u0131", "i").casefold()
    words = " ".join(folded.replace("/", " / ").split()).replace(" / ", "/").rstrip(".")
    return words in UNDEFINED_ANSWERS


def read_number(text: str, group: str = ",") -> tuple[TypedNumber, ...]:
    """Every reading of one typed number; raise :class:`AnswerError` when it is not one.

    ``group`` is the grouping mark of the learner's language (``,`` in English and Chinese, ``.``
    in Spanish and Turkish). A single comma is always a decimal mark (``0,25``); a single grouping
    mark followed by exactly three digits gives two readings, grouped first. A number beyond the
    bounds (:data:`MAX_DIGITS`, :data:`MAX_CHARS`, :data:`MAX_EXPONENT`, :data:`MAX_MAGNITUDE`) is
    refused (``too_long``, ``out_of_range``) before any arithmetic is done with it.

    >>> [n.value for n in read_number("1,714", ",")], [n.value for n in read_number("1,714", ".")]
    ([1714.0, 1.714], [1.714])
    >>> number = read_number("0,450")[0]
    >>> number.value, number.half_unit, number.significant, number.decimals
    (0.45, 0.0005, 3, 3)
    >>> read_number("1/16")[0].exact, read_number("-13,92%")[0].value
    (True, -0.1392)
    """
    if not isinstance(text, str):
        raise AnswerError("empty")
    # Narrow and no-break spaces group thousands in French-style numbers (1 234,5); drop them
    # before NFKC turns them into ordinary spaces, which stay an error inside a number.
    cleaned = unicodedata.normalize("NFKC", text.translate(_THIN_SPACES))
    cleaned = cleaned.translate(_MINUS_SIGNS).strip()
    if not cleaned:
        raise AnswerError("empty")
    shown = shorten(cleaned, _SHOWN)
    _check_length(cleaned, shown)
    percent, cleaned = _percent(cleaned)
    parts = [part.strip() for part in cleaned.split("/")]
    if len(parts) > 2 or any(not part or " " in part for part in parts):
        raise AnswerError("not_a_number", text=shown)
    options: list[list[TypedNumber]] = []
    for part in parts:
        readings = [_plain(decimal, reading, shown)
                    for decimal, reading in _decimal_texts(part, group)]
        if not readings or any(reading is None for reading in readings):
            raise AnswerError("not_a_number", text=shown)
        options.append([reading for reading in readings if reading is not None])
    numbers: list[TypedNumber] = []
    for combination in product(*options):
        number = combination[0]
        if len(combination) == 2:
            if combination[1].value == 0:
                raise AnswerError("division_by_zero", text=shown)
            number = _quotient(*combination)
        if percent:
            number = replace(number, value=number.value / 100.0,
                             half_unit=number.half_unit / 100.0, decimals=number.decimals + 2)
        _check_magnitude(number, shown)
        # Twelve decimals hide binary noise (0.1392 typed stays 0.1392); "+ 0.0" makes -0 plain 0.
        numbers.append(replace(number, value=round(number.value, 12) + 0.0))
    return tuple(numbers)


def parse_answer(text: str, group: str = ",") -> float:
    """The value of one typed number (its first reading); raise :class:`AnswerError` if none.

    >>> parse_answer("0,25"), parse_answer("0.25"), parse_answer("1/16"), parse_answer("-13,92%")
    (0.25, 0.25, 0.0625, -0.1392)
    >>> parse_answer("1.234", "."), parse_answer("1,234", ","), parse_answer("1,5", ",")
    (1234.0, 1234.0, 1.5)
    """
    return read_number(text, group)[0].value
