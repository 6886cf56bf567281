"""Numbers as each language writes them: the single place where numbers become text.

English and Chinese write 0.25 and 1,000; Spanish and Turkish write 0,25 and 1.000. Counts are shown
as integers, everything else rounded to 4 decimals with trailing zeros dropped, so the same number
reads the same in a sentence, a table, a formula and a chart.
"""

from __future__ import annotations

import math

from qwk_explained.teaching.interpret import DECIMALS

from .languages import language

__all__ = ["DECIMALS", "format_latex", "format_number", "format_percent", "plotly_separators",
           "separators"]


def separators(lang: str) -> tuple[str, str]:
    """(decimal mark, thousands separator) for a language, from its record."""
    record = language(lang)
    return record.decimal, record.group


def plotly_separators(lang: str) -> str:
    """The ``layout.separators`` string plotly expects: decimal mark then thousands separator."""
    decimal, thousands = separators(lang)
    return decimal + thousands


def format_number(value: float | int | None, lang: str = "en", decimals: int = DECIMALS,
                  *, group: bool = True) -> str:
    """Format a count or a real number for display in ``lang``.

    >>> format_number(0.0625, "es"), format_number(12345, "tr"), format_number(-0.139240506, "en")
    ('0,0625', '12.345', '-0.1392')
    """
    if value is None:
        return "—"
    number = float(value)
    if math.isnan(number):
        return "—"
    if math.isinf(number):
        return "∞" if number > 0 else "-∞"
    if isinstance(value, int) or number.is_integer():
        text = f"{int(round(number)):,}" if group else str(int(round(number)))
    else:
        text = f"{number:,.{decimals}f}" if group else f"{number:.{decimals}f}"
        text = text.rstrip("0").rstrip(".")
        if text in ("-0", ""):
            text = "0"
    decimal, thousands = separators(lang)
    if decimal == ".":
        return text
    return text.translate({ord(","): thousands, ord("."): decimal})


def format_latex(value: float | int | None, lang: str = "en", decimals: int = DECIMALS) -> str:
    """The same text as :func:`format_number`, made safe inside LaTeX (``0{,}25``, ``1{.}000``)."""
    text = format_number(value, lang, decimals)
    # Braces keep TeX from spacing a comma (or a grouping point) as punctuation.
    text = text.replace(",", "{,}")
    if language(lang).group == ".":
        text = text.replace(".", "{.}")
    return text.replace("—", r"\text{—}").replace("∞", r"\infty")


def format_percent(value: float, lang: str = "en", decimals: int = 1) -> str:
    """A proportion as a percentage (``0.5`` -> ``50%``; Turkish puts the sign first: ``%50``)."""
    return language(lang).percent_text(format_number(value * 100, lang, decimals))
