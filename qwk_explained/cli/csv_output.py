"""``--csv``: a file that a spreadsheet opens in columns, in the teacher's language, and never runs.

- **Columns.** Spreadsheets split a CSV file on their locale's list separator: a semicolon
  wherever numbers take a decimal comma (Spanish, Turkish), a comma elsewhere. The delimiter
  follows the output language by default (``--csv-delimiter`` picks another; see
  :func:`~.args.csv_delimiter`).
- **Numbers** are written as numbers, with the language's decimal mark (``0,45`` in Spanish, so
  that a Spanish spreadsheet reads a number and not a date or text), or a point when that mark
  is the delimiter itself.
- **Text** is UTF-8 behind a byte order mark: without it, Excel reads the file in the system's
  code page and garbles "ñ", "ş" and Chinese.
- **Formulas never run.** A text cell that a spreadsheet would take for a formula (starting with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, or their full-width forms, which East
  Asian versions of Excel also read) gets a leading apostrophe, as OWASP advises against CSV
  injection: the id a student chose for themselves cannot run in the teacher's spreadsheet.
  Numbers are never touched (``-0.14`` stays a number), and nor is text that is only a number.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from qwk_explained.present.languages import language

__all__ = ["BOM", "Cell", "Spreadsheet", "neutral"]

#: A cell as the rows are built: empty, a number, or text.
Cell = str | int | float | None
#: The byte order mark that tells a spreadsheet the file is UTF-8.
BOM = "\ufeff"
#: What makes a spreadsheet read a cell as a formula (or, for tab and CR, hide what follows).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


def neutral(text: str) -> str:
    """``text`` as a spreadsheet shows it, never as a formula it runs.

    >>> neutral('=HYPERLINK("http://x")'), neutral("@SUM(1)"), neutral("-0.14"), neutral("ana")
    ('\\'=HYPERLINK("http://x")', "'@SUM(1)", '-0.14', 'ana')
    """
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class Spreadsheet:
    """Rows of cells written as CSV for a spreadsheet in ``lang``, with ``delimiter``."""

    def __init__(self, lang: str, delimiter: str) -> None:
        self.delimiter = delimiter
        decimal = language(lang).decimal
        self.decimal = "." if decimal == delimiter else decimal

    def start(self, columns: Sequence[str]) -> str:
        """The byte order mark and the header row."""
        return BOM + self.rows([columns])

    def rows(self, rows: Iterable[Sequence[Cell]]) -> str:
        out = io.StringIO()
        writer = csv.writer(out, delimiter=self.delimiter, lineterminator="\r\n")
        writer.writerows([self.cell(value) for value in row] for row in rows)
        return out.getvalue()

    def cell(self, value: Cell) -> str:
        """One cell's text: a number in the language's decimal mark, text made harmless."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return repr(value).replace(".", self.decimal)
        return neutral(str(value))
