"""CSV files of ratings: one column (one rater) or two (actual, predicted), header optional.

A plain file goes to a C reader (pandas' or numpy's); any other file, and every file with a
problem to explain, to the careful reader, which gives the same columns, only more slowly.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from . import limits
from .errors import InputError
from .parse import DECIMAL, INTEGRAL, IntArray, normalise, shorten, tokens_to_ints
from .plain import read_integer_rows


@dataclass(frozen=True)
class CsvColumns:
    """Columns read from a CSV file: one or two rating vectors, and the header names if any."""

    columns: tuple[IntArray, ...]
    header: tuple[str, ...] | None


def decode_text(data: bytes | str) -> str:
    """Bytes of a text file as text (UTF-8, with or without BOM, else Windows-1252); not binary."""
    if isinstance(data, str):
        return data
    if b"\x00" in data[:4096]:
        raise InputError("csv_not_text")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise InputError("csv_not_text")  # pragma: no cover - cp1252 rejects only a few bytes


def _delimiter(line: str) -> str | None:
    for delimiter in ("\t", ";", ","):
        if delimiter in line:
            return delimiter
    return None


def parse_csv(data: bytes | str, *, max_columns: int = 2) -> CsvColumns:
    """Read ratings from a CSV file: one integer column (one rater) or two (actual, predicted).

    Parameters
    ----------
    data : bytes or str
        The file's content. Bytes are decoded as UTF-8 (with or without a byte order mark), else
        as Windows-1252. Cells are separated by commas, semicolons or tabs (the first line
        decides); a first row without a single number is a header. Quotes are ignored, and so
        are empty cells at the end of a row (``1,2,``) and rows of delimiters alone (``,``),
        which spreadsheets export. A whole number may be written ``3.0``, or ``3,0`` when the
        cells are not separated by commas (Spanish and Turkish spreadsheets).

    Returns
    -------
    CsvColumns
        ``columns``, one or two int64 vectors (actual, then predicted), and ``header``, the
        column names, or ``None`` when the file has none. With ``max_columns=3`` a third
        column is read too (actual, model A, model B: a comparison of two models).

    Raises
    ------
    InputError
        ``csv_not_text`` (a binary file), ``empty``, ``csv_header_only`` (a header and no
        rating), ``csv_too_many_columns``, ``csv_ragged`` (a row of another width, with its
        line number: rows are never paired across lines), ``too_many_items`` (more rows than
        :data:`~.limits.MAX_ITEMS`) or ``csv_bad_cell`` (the first cell that is not an integer
        rating, with its line number).

    See Also
    --------
    qwk_explained.parse_vector : Ratings typed as text.

    Notes
    -----
    A plain file (ASCII digits and signs, one delimiter) is read by a C CSV reader, pandas' or
    numpy's (:func:`_parse_csv_plain`); any other file, and every file with a problem to explain,
    by the careful reader, which gives the same columns, only more slowly.

    Examples
    --------
    >>> columns = parse_csv(b"actual;predicted\\r\\n4;0\\r\\n4;2\\r\\n3;1\\r\\n")
    >>> columns.header, [column.tolist() for column in columns.columns]
    (('actual', 'predicted'), [[4, 4, 3], [0, 2, 1]])
    >>> parse_csv("4\\n4\\n3\\n").header is None
    True
    >>> parse_csv("actual;predicted\\n1,0;2,0\\n").columns[1].tolist()
    [2]
    >>> try:
    ...     parse_csv("1,2\\n3\\n4,5,6\\n")
    ... except InputError as error:
    ...     print(error.code, error.params)
    csv_ragged {'line': 2, 'count': 1}
    """
    plain = _parse_csv_plain(data, max_columns=max_columns)
    return plain if plain is not None else _parse_csv_careful(data, max_columns)


def _cells(line: str, delimiter: str | None) -> list[str]:
    """The cells of one line, stripped; empty cells at its end dropped (the trailing delimiter of
    a spreadsheet's export, ``1,2,``), so that a line of delimiters alone has none."""
    cells = [cell.strip() for cell in line.split(delimiter)]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def _header_of(first_line: str) -> tuple[str | None, list[str], tuple[str, ...] | None]:
    """The delimiter, cells and header (``None`` for a data row) that a first line announces.

    A first row without a single number is a header; one mixing numbers and words is a broken
    data row, reported by the careful reader with its line number.
    """
    delimiter = _delimiter(first_line)
    first = _cells(first_line, delimiter)
    if any(INTEGRAL.match(cell) or DECIMAL.match(cell) for cell in first):
        return delimiter, first, None
    return delimiter, first, tuple(shorten(cell) for cell in first)


#: Bytes a plain CSV body may hold besides its delimiter (anything else goes to the careful reader).
_PLAIN_BODY = b"0123456789+- \r\n"


def _parse_csv_plain(data: bytes | str, *, reader: str = "auto",
                     max_columns: int = 2) -> CsvColumns | None:
    """The common upload (integers, one delimiter, maybe a header) read by a C CSV reader.

    Why: the careful reader builds a Python string per cell and converts them with numpy while
    holding the GIL; a 20 MB upload took it 4 s, 2 s of which blocked every other session on the
    server, and pandas' C reader (:mod:`.plain`) reads it in 0.2 s, releasing the GIL
    (``reader`` picks pandas or numpy, for the tests). It answers only when the file is plain:
    the body holds nothing but digits, signs, spaces, line breaks and the first line's
    delimiter, every row has the first line's width, every value is within the limits.
    Otherwise this returns ``None`` and the careful reader gives the result or names the
    problem.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if b"\x00" in raw[:4096]:
        return None
    start = len(raw) - len(raw.lstrip())
    end = raw.find(b"\n", start)
    end = len(raw) if end < 0 else end
    try:  # the first line as the careful reader sees it (a header may be in any language)
        head = raw[:end].decode("utf-8") if isinstance(data, str) else decode_text(raw[:end])
    except (InputError, UnicodeDecodeError):
        return None
    first_line = normalise(head).replace('"', "").replace("'", "").strip()
    if len(first_line.splitlines()) > 1:  # a line break only the careful reader splits on
        return None
    delimiter, first, header = _header_of(first_line)
    body = raw[end + 1:] if header else raw[start:]
    if (len(first) > max_columns or not body.strip() or body.count(b"\r") != body.count(b"\r\n")
            or body.translate(None, _PLAIN_BODY + (delimiter or "").encode())):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. "empty input": the careful reader explains
            values = read_integer_rows(body, delimiter, reader)
    except (ValueError, OverflowError, UserWarning):  # pandas' parser errors are ValueErrors
        return None
    if (values.shape[1] != len(first) or values.shape[0] > limits.MAX_ITEMS
            or max(-int(values.min()), int(values.max())) > limits.MAX_ABS_RATING):
        return None
    return CsvColumns(tuple(values[:, k].copy() for k in range(values.shape[1])), header)


#: Characters of text the careful reader handles at a time (cleaned, split and converted): a
#: large file is never copied whole, and a Python string per cell lives only for its block.
_BLOCK_CHARS = 1 << 18
#: A whole number written with a decimal comma (``3,0``, Spanish and Turkish spreadsheets).
_WHOLE_WITH_COMMA = re.compile(r"^([+-]?[0-9]+),0*$")
_SPACE = re.compile(r"[^\S\n]")  # whitespace inside a line


def _line_blocks(text: str) -> Iterator[tuple[list[int], list[str]]]:
    """The non-empty lines of ``text``, normalised, quotes dropped and stripped, with their
    numbers (from 1), a block of about :data:`_BLOCK_CHARS` characters at a time (each block
    ends at a line feed, so no line is cut)."""
    done, start = 0, 0
    while start < len(text):
        end = text.find("\n", start + _BLOCK_CHARS)
        end = len(text) if end < 0 else end + 1
        block = normalise(text[start:end]).replace('"', "").replace("'", "")
        stripped = [line.strip() for line in block.splitlines()]
        if "" in stripped:
            numbers = [done + k for k, line in enumerate(stripped, start=1) if line]
            lines = [line for line in stripped if line]
        else:
            numbers, lines = list(range(done + 1, done + len(stripped) + 1)), stripped
        done += len(stripped)
        if lines:
            yield numbers, lines
        start = end


def _parse_csv_careful(data: bytes | str, max_columns: int = 2) -> CsvColumns:
    """:func:`parse_csv` for any file: every line and cell checked, the first problem named.

    Items (rows) are counted against :data:`~.limits.MAX_ITEMS`, not cells. The file is read a
    block at a time, so memory stays about that of the text and the ratings read.
    """
    header: tuple[str, ...] | None = None
    delimiter: str | None = None
    width = count = 0
    read: list[list[IntArray]] = []
    blocks = _line_blocks(decode_text(data))
    for numbers, lines in blocks:
        if not width:  # the first row (a header or data) is still to be found
            first = next((k for k, line in enumerate(lines) if _cells(line, _delimiter(line))),
                         None)
            if first is None:  # rows of delimiters alone (",,") are empty rows
                continue
            delimiter, cells, header = _header_of(lines[first])
            width = len(cells)
            if width > max_columns:
                raise InputError("csv_too_many_columns", count=width)
            read = [[] for _ in range(width)]
            start = first + 1 if header else first
            numbers, lines = numbers[start:], lines[start:]
        columns, numbers = _block_cells(numbers, lines, delimiter, width)
        count += len(numbers)
        if count > limits.MAX_ITEMS:
            count += sum(len(_block_cells(n, rest, delimiter, width)[1]) for n, rest in blocks)
            raise InputError("too_many_items", count=count, limit=limits.MAX_ITEMS)
        for parts, values in zip(read, _convert(columns, numbers), strict=True):
            parts.append(values)
    if not width:
        raise InputError("empty")
    if count == 0:  # the first row was a header
        raise InputError("csv_header_only")
    return CsvColumns(tuple(np.concatenate(parts) for parts in read), header)


def _block_cells(numbers: list[int], lines: list[str], delimiter: str | None,
                 width: int) -> tuple[list[list[str]], list[int]]:
    """The cells of a block of lines, column by column, and the numbers of the lines that are
    rows (not empty); a line of another width is ``csv_ragged``, with its number.

    The common block (every line with exactly the first row's delimiters, no empty cell) is
    split in one go; any other is split row by row, which names the problem.
    """
    columns: list[list[str]]
    if delimiter is not None and width == 2:
        joined = "\n".join(lines)
        other = re.escape(delimiter)
        # A line without the delimiter, or with it twice: split row by row below.
        if not re.search(f"^[^{other}\n]*$|^[^{other}\n]*{other}[^\n]*{other}", joined,
                         re.MULTILINE):
            flat = joined.replace("\n", delimiter).split(delimiter)
            if _SPACE.search(joined):
                flat = [cell.strip() for cell in flat]
            if "" not in flat:
                columns = [flat[0::2], flat[1::2]]
                return _whole_commas(columns, delimiter), numbers
    if delimiter is None and width == 1:
        return _whole_commas([lines], delimiter), numbers
    columns, rows = [[] for _ in range(width)], []
    for number, line in zip(numbers, lines, strict=True):
        cells = _cells(line, delimiter)
        if not cells:  # ",," or ";": an empty row of a spreadsheet's export
            continue
        if len(cells) != width and width == 3:  # a comparison's: actual, model A, model B
            raise InputError("csv_ragged_three", line=number, count=len(cells))
        if len(cells) != width:
            raise InputError("csv_ragged", line=number, count=len(cells))
        for column, cell in zip(columns, cells, strict=True):
            column.append(cell)
        rows.append(number)
    return _whole_commas(columns, delimiter), rows


def _whole_commas(columns: list[list[str]], delimiter: str | None) -> list[list[str]]:
    """``3,0`` read as ``3`` where a comma cannot be the delimiter (a decimal-comma export)."""
    if delimiter == ",":
        return columns
    return [[_WHOLE_WITH_COMMA.sub(r"\1", cell) if "," in cell else cell for cell in column]
            for column in columns]


def _convert(columns: list[list[str]], numbers: list[int]) -> list[IntArray]:
    """Each column's cells as ratings; the first bad cell in reading order (line, then column)
    is the one named, with its line."""
    converted, bad = [], []
    for column, cells in enumerate(columns):
        try:
            converted.append(tokens_to_ints(cells, first_position=0))
        except InputError as error:
            position = error.params.get("position")
            if position is None:
                raise
            bad.append((position, column, error.params.get("token", "")))
    if bad:
        position, _, token = min(bad)
        raise InputError("csv_bad_cell", line=numbers[position], token=token)
    return converted
