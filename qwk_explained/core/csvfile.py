"""CSV files of ratings: one column (one rater) or two (actual, predicted), header optional.

A plain file goes to a C reader (pandas' or numpy's); any other file, and every file with a
problem to explain, to the careful reader, which gives the same columns, only more slowly.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .parse import DECIMAL, INTEGRAL, IntArray, normalise, shorten, tokens_to_ints


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


def parse_csv(data: bytes | str) -> CsvColumns:
    """Read ratings from a CSV file: one integer column (one rater) or two (actual, predicted).

    Parameters
    ----------
    data : bytes or str
        The file's content. Bytes are decoded as UTF-8 (with or without a byte order mark), else
        as Windows-1252. Cells are separated by commas, semicolons or tabs (the first line
        decides); a first row without a single number is a header. Quotes are ignored.

    Returns
    -------
    CsvColumns
        ``columns``, one or two int64 vectors (actual, then predicted), and ``header``, the
        column names, or ``None`` when the file has none.

    Raises
    ------
    InputError
        ``csv_not_text`` (a binary file), ``empty``, ``csv_too_many_columns``, ``csv_ragged``
        (a row of another width, with its line number) or ``csv_bad_cell`` (the first cell that
        is not an integer rating, with its line number).

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
    >>> try:
    ...     parse_csv("1,2\\n3\\n")
    ... except InputError as error:
    ...     print(error.code, error.params)
    csv_ragged {'line': 2, 'count': 1}
    """
    plain = _parse_csv_plain(data)
    return plain if plain is not None else _parse_csv_careful(data)


def _header_of(first_line: str) -> tuple[str | None, list[str], tuple[str, ...] | None]:
    """The delimiter, cells and header (``None`` for a data row) that a first line announces.

    A first row without a single number is a header; one mixing numbers and words is a broken
    data row, reported by the careful reader with its line number.
    """
    delimiter = _delimiter(first_line)
    first = [cell.strip() for cell in first_line.split(delimiter)]
    if any(INTEGRAL.match(cell) or DECIMAL.match(cell) for cell in first):
        return delimiter, first, None
    return delimiter, first, tuple(shorten(cell) for cell in first)


#: Bytes a plain CSV body may hold besides its delimiter (anything else goes to the careful reader).
_PLAIN_BODY = b"0123456789+- \r\n"


def _parse_csv_plain(data: bytes | str, *, reader: str = "auto") -> CsvColumns | None:
    """The common upload (integers, one delimiter, maybe a header) read by a C CSV reader.

    Why: the careful reader builds a Python string per cell and converts them in one numpy cast
    that holds the GIL; a 20 MB upload took it 4 s, 2 s of which blocked every other session on
    the server. pandas' C reader (installed with Streamlit) reads the same file in 0.2 s and
    releases the GIL while it tokenizes, so other sessions go on; ``np.loadtxt`` (0.45 s, holding
    the GIL) reads small files and stands in where pandas is not installed (``reader`` picks
    one, for the tests). Either answers only when the file is plain: the body holds nothing but
    digits, signs, spaces, line breaks and the first line's delimiter, every row has the first
    line's width, every value is within the limits. Otherwise this returns ``None`` and the
    careful reader gives the result or names the problem.
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
    if (len(first) > 2 or not body.strip() or body.count(b"\r") != body.count(b"\r\n")
            or body.translate(None, _PLAIN_BODY + (delimiter or "").encode())):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. "empty input": the careful reader explains
            values = _read_plain(body, delimiter, reader)
    except (ValueError, OverflowError, UserWarning):  # pandas' parser errors are ValueErrors
        return None
    if (values.shape[1] != len(first) or values.shape[0] > limits.MAX_ITEMS
            or max(-int(values.min()), int(values.max())) > limits.MAX_ABS_RATING):
        return None
    return CsvColumns(tuple(values[:, k].copy() for k in range(values.shape[1])), header)


#: Plain bodies from this size on go to pandas where it is installed; for smaller ones (0.03 s in
#: ``np.loadtxt`` at 1 MB) importing pandas would cost more than it saves (a command line run).
_PANDAS_FROM_BYTES = 1 << 20


def _read_plain(body: bytes, delimiter: str | None, reader: str) -> NDArray[np.int64]:
    """The rows of a plain CSV body as an int64 matrix (pandas if it is there, else numpy)."""
    if reader == "pandas" or (reader == "auto" and len(body) >= _PANDAS_FROM_BYTES):
        try:  # here, not at the top: pandas is optional, and slow to import for a small file
            import pandas as pd
        except ImportError:
            if reader == "pandas":
                raise
        else:
            frame = pd.read_csv(io.BytesIO(body), sep=delimiter or r"\s+", header=None,
                                dtype=np.int64, engine="c", na_filter=False)
            return frame.to_numpy(dtype=np.int64)
    return np.loadtxt(io.BytesIO(body), delimiter=delimiter, dtype=np.int64, comments=None,
                      ndmin=2)


def _parse_csv_careful(data: bytes | str) -> CsvColumns:
    """:func:`parse_csv` for any file: every line and cell checked, the first problem named."""
    text = normalise(decode_text(data)).replace('"', "").replace("'", "")
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise InputError("empty")
    delimiter, first, header = _header_of(lines[0])
    if header:
        lines = lines[1:]
        if not lines:
            raise InputError("empty")
    width = len(first)
    if width > 2:
        raise InputError("csv_too_many_columns", count=width)
    line_offset = 2 if header else 1
    if width == 1:
        cells = [line.split(delimiter)[0] if delimiter else line for line in lines]
        try:
            values = tokens_to_ints([c.strip() for c in cells], first_position=line_offset)
        except InputError as error:
            raise InputError("csv_bad_cell", line=error.params.get("position", 0),
                             token=error.params.get("token", "")) from None
        return CsvColumns((values,), header)
    if delimiter is None:
        flat = " ".join(lines).split()
    else:
        flat = delimiter.join(lines).split(delimiter)
    if len(flat) != 2 * len(lines):
        for number, line in enumerate(lines):
            count = len(line.split(delimiter)) if delimiter else len(line.split())
            if count != 2:
                raise InputError("csv_ragged", line=number + line_offset, count=count)
    flat = [cell.strip() for cell in flat]
    try:
        values = tokens_to_ints(flat, first_position=0)
    except InputError as error:
        position = error.params.get("position")
        if position is None:
            raise
        raise InputError("csv_bad_cell", line=position // 2 + line_offset,
                         token=error.params.get("token", "")) from None
    pairs = values.reshape(-1, 2)
    return CsvColumns((pairs[:, 0].copy(), pairs[:, 1].copy()), header)


#: Separators of a typed vector (and the brackets of a pasted list) as a plain text writes them,
#: each turned into a line break: one rating a line, for the C reader.
_SEPARATOR_BYTES = b",; \t\r\f\v[](){}"
_PLAIN_SEPARATORS = bytes.maketrans(_SEPARATOR_BYTES, b"\n" * len(_SEPARATOR_BYTES))


def parse_plain_vector(text: str, *, min_chars: int = _PANDAS_FROM_BYTES) -> IntArray | None:
    """A long typed vector of plain integers, read by pandas' C reader; ``None`` otherwise.

    Why: a pasted vector of millions of ratings took :func:`~.parse.parse_vector` seconds of
    Python string handling and a numpy cast that hold the GIL, and every other session on the
    server waited (reliability report, M4). This is the upload's reader (:func:`_read_plain`),
    which releases the GIL while it tokenizes. It answers only for a text of at least
    ``min_chars`` characters made of ASCII digits, signs and separators whose ratings are all
    within the limits; for anything else (a short text, a decimal, a full-width digit, a bad
    token, no pandas) it returns ``None`` and ``parse_vector`` reads the text or names the
    problem, so both give the same ratings.
    """
    if len(text) < min_chars or not text.isascii():
        return None
    body = text.encode("ascii").translate(_PLAIN_SEPARATORS)
    if body.translate(None, b"0123456789+-\n"):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            values = _read_plain(body, ",", "pandas")[:, 0]
    except (ImportError, ValueError, OverflowError, UserWarning, IndexError):
        return None
    if values.size == 0 or values.size > limits.MAX_ITEMS or max(
            -int(values.min()), int(values.max())) > limits.MAX_ABS_RATING:
        return None
    return np.ascontiguousarray(values)
