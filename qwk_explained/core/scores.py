r"""Continuous scores (a regressor's outputs) typed as text, given as arrays or read from a file.

Ratings are whole numbers (:mod:`.parse`); scores are any finite numbers, such as 2.37 or -0.8,
and are cut into ratings by :mod:`.thresholds`. The decimal separator is a point; a comma is a
decimal comma where it cannot be a separator: in typed text whose values are separated by
something else (spaces, line breaks, semicolons), and in files whose cells are separated by
semicolons or tabs (as spreadsheets in Spanish or Turkish save them). Conversion is vectorised;
the token-by-token scan only runs to name the first bad token.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import limits
from .csvfile import decode_text
from .errors import InputError
from .parse import IntArray, normalise, shorten, tokens_to_ints
from .plain import read_float_rows
from .validate import unmasked

FloatArray = NDArray[np.float64]

#: What separates typed scores besides commas: white space, semicolons, ideographic commas.
_SEPARATORS = re.compile(r"[\s;、]+")
#: One score: digits with an optional decimal point and exponent.
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
#: A value written with a decimal comma (``0,75``): one comma, between digits.
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?$")
_ASCII_NUMBERS = re.compile(r"[0-9+\-.eE]*")
_NONFINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity",
              "na", "n/a", "null", "none"}


@dataclass(frozen=True)
class ScoredColumns:
    """A two-column file: the actual ratings, the scores, and the header names if any."""

    actual: IntArray
    scores: FloatArray
    header: tuple[str, ...] | None


def _explain(token: str, position: int) -> InputError:
    """Name what is wrong with one score (called only once conversion has failed)."""
    shown = shorten(token)
    if token.strip().lower() in _NONFINITE:
        return InputError("score_not_finite", token=shown, position=position)
    if _NUMBER.match(token.strip()):  # a number, so it overflowed to infinity or is too large
        return InputError("score_too_large", token=shown, position=position,
                          limit=limits.MAX_ABS_SCORE)
    return InputError("score_not_number", token=shown, position=position)


def _checked(values: FloatArray, tokens: Sequence[str] | None, first_position: int) -> FloatArray:
    """Scores that are finite and within :data:`~.limits.MAX_ABS_SCORE`, else the first bad one."""
    bad = ~(np.abs(values) <= limits.MAX_ABS_SCORE)  # NaN compares False: it is bad too
    if bad.any():
        index = int(np.argmax(bad))
        token = tokens[index] if tokens is not None else repr(float(values[index]))
        if tokens is None and not np.isfinite(values[index]):
            raise InputError("score_not_finite", token=token, position=index + first_position)
        raise _explain(token, index + first_position)
    return values


def tokens_to_scores(tokens: Sequence[str], *, first_position: int = 1) -> FloatArray:
    """Convert score tokens (decimal point) to a float64 array, or raise for the first bad one."""
    if len(tokens) > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=len(tokens), limit=limits.MAX_ITEMS)
    try:
        # numpy's cast follows Python's float(): it would take "1_0", "nan" and non-ASCII digits;
        # scores are ASCII numbers only, so anything else goes to the per-token explanation.
        if not _ASCII_NUMBERS.fullmatch("".join(tokens)):
            raise ValueError
        values = np.asarray(tokens, dtype=np.str_).astype(np.float64)
    except (ValueError, OverflowError):
        for index, token in enumerate(tokens):
            if not _NUMBER.match(token):
                raise _explain(token, index + first_position) from None
        raise  # pragma: no cover - every token matched the grammar numpy converts
    return _checked(values, tokens, first_position)


def split_scores(text: str) -> list[str]:
    """The score tokens of typed text, decimal commas turned into points.

    Commas separate values unless the values are separated by something else (spaces, line
    breaks, semicolons) and every comma sits between digits, one per value: then they are
    decimal commas. ``"0,5; 1,25"`` and one ``0,5`` per line are two scores, ``"0.5,1.25"`` too.
    """
    chunks = [chunk for chunk in _SEPARATORS.split(normalise(text)) if chunk]
    with_comma = [chunk for chunk in chunks if "," in chunk]
    if len(chunks) > 1 and with_comma and all(_DECIMAL_COMMA.match(c) for c in with_comma):
        return [chunk.replace(",", ".") for chunk in chunks]
    return [token for chunk in chunks for token in chunk.split(",") if token]


def parse_scores(text: str) -> FloatArray:
    """Read continuous scores typed as text into a vector.

    Parameters
    ----------
    text : str
        Numbers separated by spaces, line breaks, semicolons or commas. A comma is a decimal
        comma when the values are separated by something else (``0,5; 1,25`` or one value per
        line) and every comma sits between digits; brackets are ignored and full-width digits
        count as ASCII ones, as for ratings.

    Returns
    -------
    ndarray of shape (n,), float64
        The scores in the order typed.

    Raises
    ------
    InputError
        ``scores_empty`` for text without a number; otherwise the first bad token with its
        1-based ``position``: ``score_not_number`` (a word), ``score_not_finite`` (``nan``,
        ``inf``, a missing value), ``score_too_large`` (beyond :data:`~.limits.MAX_ABS_SCORE`),
        or ``too_many_items``.

    Examples
    --------
    >>> parse_scores("0.4, 2.75 3").tolist()
    [0.4, 2.75, 3.0]
    >>> parse_scores("0,5; 1,25").tolist()
    [0.5, 1.25]
    >>> try:
    ...     parse_scores("1.5, nan")
    ... except InputError as error:
    ...     print(error.code, error.params)
    score_not_finite {'token': 'nan', 'position': 2}
    """
    if not isinstance(text, str):
        raise InputError("scores_empty")
    if len(text) > limits.MAX_ITEMS * 24:
        raise InputError("too_many_items", count=len(text) // 2, limit=limits.MAX_ITEMS)
    tokens = split_scores(text)
    if not tokens:
        raise InputError("scores_empty")
    return tokens_to_scores(tokens)


def as_scores(values: Any) -> FloatArray:
    """Scores given as text, a list or an array, as a float64 vector, checked.

    Whole numbers, floats and numeric text are accepted; booleans, complex numbers, NaN,
    infinities, values beyond :data:`~.limits.MAX_ABS_SCORE` and masked values are not.

    >>> as_scores([1, 2.5, "3.25"]).tolist()
    [1.0, 2.5, 3.25]
    """
    if isinstance(values, str):
        return parse_scores(values)
    values = unmasked(values)
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):  # a ragged nested list
        raise InputError("not_a_vector") from None
    if array.ndim != 1:
        raise InputError("not_a_vector")
    if array.size == 0:
        raise InputError("scores_empty")
    if array.size > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=int(array.size), limit=limits.MAX_ITEMS)
    if array.dtype.kind in "iuf":
        with np.errstate(over="ignore"):  # a float128 or a huge int beyond float64: +-inf, caught
            return _checked(array.astype(np.float64, copy=False), None, 1)
    if array.dtype.kind in "US" or (array.dtype.kind == "O" and all(
            isinstance(v, str | int | float) and not isinstance(v, bool) for v in array.tolist())):
        tokens = [normalise(str(v)).strip() for v in array.tolist()]
        return tokens_to_scores(tokens)
    raise InputError("score_not_number", token=shorten(str(array[0])), position=1)


# --- Two-column files ---------------------------------------------------------------------------

def _delimiter(line: str) -> str | None:
    for delimiter in ("\t", ";", ","):
        if delimiter in line:
            return delimiter
    return None


def _cells(line: str, delimiter: str | None) -> list[str]:
    cells = line.split(delimiter) if delimiter else line.split()
    if delimiter in ("\t", ";"):  # the cells of such a file may hold decimal commas
        cells = [cell.replace(",", ".") for cell in cells]
    return [cell.strip() for cell in cells]


def _is_number(cell: str) -> bool:
    return bool(_NUMBER.match(cell)) or cell.lower() in _NONFINITE


def parse_scored_csv(data: bytes | str) -> ScoredColumns:
    """Read a file of two columns: the actual rating (a whole number), then the score.

    Parameters
    ----------
    data : bytes or str
        The file's content, decoded as :func:`~.csvfile.parse_csv` decodes it. Cells are
        separated by tabs, semicolons or commas (the first line decides); with tabs or
        semicolons a score may use a decimal comma. A first row without a number is a header.

    Returns
    -------
    ScoredColumns
        ``actual`` (int64), ``scores`` (float64) and ``header``.

    Raises
    ------
    InputError
        ``csv_not_text``, ``scores_empty``, ``scores_csv_columns`` (not two columns),
        ``scores_csv_ragged`` (a row of another width, with its line number),
        ``csv_bad_cell`` (a rating that is not a whole number) or ``scores_csv_bad_cell``
        (a score that is not a finite number), each with its line number.

    Notes
    -----
    A plain file (ASCII numbers and one delimiter) is read by a C reader, pandas' or numpy's,
    so ten million rows take seconds; any other file, and every file with a problem to explain,
    goes through the careful reader, which names the first bad line.

    Examples
    --------
    >>> columns = parse_scored_csv("rating;score\\n4;3,6\\n1;1,2\\n")
    >>> columns.header, columns.actual.tolist(), columns.scores.tolist()
    (('rating', 'score'), [4, 1], [3.6, 1.2])
    """
    plain = _parse_plain(data)
    return plain if plain is not None else _parse_careful(data)


def first_row_width(data: bytes | str) -> int:
    """How many cells the first non-empty line of a file holds (0 for an empty file), split as
    :func:`parse_scored_csv` splits it: what tells a file of ratings and scores from a column.

    >>> first_row_width(b"rating;score\\n4;3,6\\n"), first_row_width("4\\n1\\n")
    (2, 1)
    """
    head = decode_text(data[:4096]).removeprefix("\ufeff")
    for line in head.splitlines():
        cleaned = normalise(line).replace('"', "").replace("'", "").strip()
        if cleaned:
            return len(_cells(cleaned, _delimiter(cleaned)))
    return 0


def _header(first_line: str) -> tuple[str | None, list[str], tuple[str, ...] | None]:
    delimiter = _delimiter(first_line)
    first = _cells(first_line, delimiter)
    if any(_is_number(cell) for cell in first):
        return delimiter, first, None
    return delimiter, first, tuple(shorten(cell) for cell in first)


def _parse_careful(data: bytes | str) -> ScoredColumns:
    text = normalise(decode_text(data).removeprefix("\ufeff")).replace('"', "").replace("'", "")
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise InputError("scores_empty")
    delimiter, first, header = _header(lines[0][1])
    if header:
        lines = lines[1:]
        if not lines:
            raise InputError("scores_empty")
    if len(first) != 2:
        raise InputError("scores_csv_columns", count=len(first))
    if len(lines) > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=len(lines), limit=limits.MAX_ITEMS)
    rows = [(number, _cells(line, delimiter)) for number, line in lines]
    for number, cells in rows:
        if len(cells) != 2:
            raise InputError("scores_csv_ragged", line=number, count=len(cells))
    try:
        actual = tokens_to_ints([cells[0] for _, cells in rows])
    except InputError as error:
        position = int(error.params.get("position", 1))
        raise InputError("csv_bad_cell", line=rows[position - 1][0],
                         token=error.params.get("token", "")) from None
    try:
        scores = tokens_to_scores([cells[1] for _, cells in rows])
    except InputError as error:
        position = int(error.params.get("position", 1))
        raise InputError("scores_csv_bad_cell", line=rows[position - 1][0],
                         token=error.params.get("token", "")) from None
    return ScoredColumns(actual, scores, header)


#: Bytes a plain body may hold besides its delimiter (anything else goes to the careful reader).
_PLAIN_BODY = b"0123456789+-.eE \r\n"


def _parse_plain(data: bytes | str) -> ScoredColumns | None:
    """The common file (numbers, one delimiter, maybe a header) through a C reader, else None."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte order mark
    if b"\x00" in raw[:4096]:
        return None
    start = len(raw) - len(raw.lstrip())
    end = raw.find(b"\n", start)
    end = len(raw) if end < 0 else end
    try:
        head = raw[start:end].decode("utf-8")
    except UnicodeDecodeError:
        return None
    first_line = normalise(head).replace('"', "").replace("'", "").strip()
    if len(first_line.splitlines()) != 1:
        return None
    delimiter, first, header = _header(first_line)
    body = raw[end + 1:] if header else raw[start:]
    allowed = _PLAIN_BODY + (delimiter or "").encode()
    if delimiter in ("\t", ";"):
        body = body.replace(b",", b".")
    if len(first) != 2 or body.translate(None, allowed):
        return None
    values = _plain_matrix(body, delimiter, 2)
    if values is None:
        return None
    actual, scores = values[:, 0], values[:, 1].copy()
    if (not (np.abs(actual) <= limits.MAX_ABS_RATING).all() or (actual != np.round(actual)).any()
            or not (np.abs(scores) <= limits.MAX_ABS_SCORE).all()):
        return None
    return ScoredColumns(actual.astype(np.int64), scores, header)


def _plain_matrix(body: bytes, delimiter: str | None, width: int) -> FloatArray | None:
    """The rows of a plain body (numbers only) as a float matrix of ``width`` columns, or None
    when a C reader cannot read it so (the careful reader then names the problem)."""
    if not body.strip() or body.count(b"\r") != body.count(b"\r\n"):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. "empty input": the careful reader explains
            values = read_float_rows(body, delimiter)
    except (ValueError, OverflowError, UserWarning):  # pandas' parser errors are ValueErrors
        return None
    if values.ndim != 2 or values.shape[1] != width or values.shape[0] > limits.MAX_ITEMS:
        return None
    return values


def parse_scores_file(data: bytes | str) -> FloatArray:
    """Scores from a file: one column, with or without a header line, or all on one line.

    A first line without a number is a header. Lines of plain numbers go to a C reader; anything
    else is read as typed scores (:func:`parse_scores`: one score per line may use a decimal
    comma), which names the first bad one by its position among the scores.

    >>> parse_scores_file(b"score\\n3.6\\n1.2\\n").tolist()
    [3.6, 1.2]
    >>> parse_scores_file("3,6\\n1,25\\n").tolist()
    [3.6, 1.25]
    """
    text = decode_text(data).removeprefix("\ufeff")
    head, _, rest = text.lstrip().partition("\n")
    if not any(_is_number(token) for token in split_scores(head)):
        text = rest
    body = text.encode("utf-8")
    if body.count(b"\n") > 1 and not body.translate(None, _PLAIN_BODY):
        values = _plain_matrix(body, None, 1)
        if values is not None and (np.abs(values) <= limits.MAX_ABS_SCORE).all():
            column: FloatArray = values[:, 0].copy()
            return column
    return parse_scores(text)
