"""Parse and validate user input: rating vectors as text, CSV files, contingency tables, the scale.

All input problems raise :class:`~qwk_explained.errors.InputError` with a code from
``locales/*.json`` (``errors.<code>``). Parsing is vectorised: a million ratings go through one
``str.split`` and one numpy conversion; the slow per-token scan only runs to *explain* a failure.
"""

from __future__ import annotations

import io
import re
import unicodedata
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .errors import InputError

#: Most distinct ratings on one scale: a 50 x 50 matrix is still readable; more is no rating scale.
MAX_RATINGS = 50
#: Most items in one vector: 10 million int64 ratings are 80 MB, about the most a page should hold.
MAX_ITEMS = 10_000_000
#: Largest absolute rating accepted: ratings are small; this keeps arithmetic far from overflow.
MAX_ABS_RATING = 1_000_000_000
#: Largest count accepted in one cell of a contingency table.
MAX_CELL_COUNT = MAX_ITEMS

SCALES = ("range", "observed")

_SEPARATORS = re.compile(r"[\s,;、]+")
_INTEGRAL = re.compile(r"^[+-]?[0-9]+(?:\.0*)?$")
_DECIMAL = re.compile(r"^[+-]?(?:[0-9]+[.,][0-9]*|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?$")
_NONFINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
_BRACKETS = "[](){}"
_ASCII_NUMBER = re.compile(r"[0-9+\-.]*")

IntArray = NDArray[np.int64]


def _normalise(text: str) -> str:
    """Fold full-width digits and punctuation (common in Chinese input) to ASCII, drop brackets."""
    text = unicodedata.normalize("NFKC", text)
    return text.translate({ord(c): " " for c in _BRACKETS})


def _shorten(token: str, limit: int = 20) -> str:
    return token if len(token) <= limit else token[: limit - 1] + "…"


def _explain_token(token: str, position: int) -> InputError:
    """Name the first thing wrong with one token (called only once conversion has failed)."""
    shown = _shorten(token)
    if token.lower() in _NONFINITE:
        return InputError("not_finite", token=shown, position=position)
    if _DECIMAL.match(token):
        return InputError("not_integer_decimal", token=shown, position=position)
    if _INTEGRAL.match(token):
        return InputError("value_too_large", token=shown, position=position, limit=MAX_ABS_RATING)
    return InputError("not_integer", token=shown, position=position)


def tokens_to_ints(tokens: Sequence[str], *, first_position: int = 1) -> IntArray:
    """Convert integer tokens to an int64 array, or raise the error for the first bad token.

    ``"3.0"`` is accepted (spreadsheets export whole numbers that way); ``"3.5"`` is not.
    """
    if len(tokens) > MAX_ITEMS:
        raise InputError("too_many_items", count=len(tokens), limit=MAX_ITEMS)
    try:
        text = np.asarray(tokens, dtype=np.str_)
        # numpy's cast follows Python's int(): it would take "1_0" as 10 and non-ASCII digits;
        # ratings are ASCII digits only, so anything else goes to the per-token explanation.
        if text.size and not _ASCII_NUMBER.fullmatch("".join(tokens)):
            raise ValueError
        values = text.astype(np.int64)
    except (ValueError, OverflowError):
        values = np.empty(len(tokens), dtype=np.int64)
        for index, token in enumerate(tokens):
            if not _INTEGRAL.match(token):
                raise _explain_token(token, index + first_position) from None
            try:
                values[index] = int(token.split(".")[0])
            except OverflowError:
                raise _explain_token(token, index + first_position) from None
    if values.size:
        extreme = int(max(abs(int(values.min())), abs(int(values.max()))))
        if extreme > MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(values) > MAX_ABS_RATING))
            raise _explain_token(str(tokens[bad]), bad + first_position)
    return values


def parse_vector(text: str) -> IntArray:
    """Parse ratings separated by commas, spaces, semicolons or newlines into an int64 array.

    >>> parse_vector("4, 4;3\\n1").tolist()
    [4, 4, 3, 1]
    """
    if not isinstance(text, str):
        raise InputError("empty")
    if len(text) > MAX_ITEMS * 12:
        raise InputError("too_many_items", count=len(text) // 2, limit=MAX_ITEMS)
    # Separators at either end (any Unicode whitespace included) leave empty tokens: drop them.
    tokens = [token for token in _SEPARATORS.split(_normalise(text)) if token]
    if not tokens:
        raise InputError("empty")
    return tokens_to_ints(tokens)


def check_pair(actual: IntArray, predicted: IntArray) -> None:
    """Two raters must have rated the same items: equal, non-zero length."""
    if len(actual) == 0 or len(predicted) == 0:
        raise InputError("empty")
    if len(actual) != len(predicted):
        raise InputError("length_mismatch", n_actual=len(actual), n_predicted=len(predicted))
    if len(actual) > MAX_ITEMS:
        raise InputError("too_many_items", count=len(actual), limit=MAX_ITEMS)


def as_ratings(values: Any) -> IntArray:
    """Turn a sequence (list, numpy array, text) into an int64 vector of ratings, validating it."""
    if isinstance(values, str):
        return parse_vector(values)
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputError("not_a_vector")
    if array.size > MAX_ITEMS:
        raise InputError("too_many_items", count=int(array.size), limit=MAX_ITEMS)
    if array.dtype.kind in "iu":
        if array.dtype.kind == "u" and array.size and int(array.max()) > MAX_ABS_RATING:
            bad = int(np.argmax(array > MAX_ABS_RATING))  # before the cast wraps it negative
            raise _explain_token(str(array[bad]), bad + 1)
        result = array.astype(np.int64, copy=False)
        if result.size and max(abs(int(result.min())), abs(int(result.max()))) > MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(result) > MAX_ABS_RATING))
            raise _explain_token(str(result[bad]), bad + 1)
        return result
    if array.dtype.kind == "b":
        return array.astype(np.int64)
    if array.dtype.kind == "f":
        finite = np.isfinite(array)
        if not finite.all():
            bad = int(np.argmin(finite))
            raise InputError("not_finite", token=str(array[bad]), position=bad + 1)
        whole = array == np.round(array)
        if not whole.all():
            bad = int(np.argmin(whole))
            raise InputError("not_integer_decimal", token=str(array[bad]), position=bad + 1)
        if array.size and np.abs(array).max() > MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(array) > MAX_ABS_RATING))
            # str(1e300) is "1e+300", which the token grammar would call "not an integer".
            raise InputError("value_too_large", token=_shorten(str(array[bad])),
                             position=bad + 1, limit=MAX_ABS_RATING)
        return array.astype(np.int64)
    return tokens_to_ints([str(v).strip() for v in array.tolist()])


def int_ratings(values: Any) -> IntArray:
    """Like :func:`as_ratings`, but an integer numpy vector is taken as it is (no pass over it).

    Its range is checked later, by :func:`count_pairs`, in the same pass that counts the pairs.
    """
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iu":
        if values.dtype == np.int64:
            return values
        if values.dtype.itemsize < 8 or values.dtype.kind == "i":
            return values.astype(np.int64)
    return as_ratings(values)


#: Items per block when counting pairs: both raters' blocks and the codes stay in the L2 cache.
_BLOCK = 1 << 15


def count_pairs(
    actual: IntArray, predicted: IntArray, max_span: int = MAX_RATINGS
) -> tuple[int, int, IntArray] | None:
    """Count the (actual, predicted) pairs in one pass: ``(low, high, O)``.

    ``low``/``high`` are the smallest and largest rating of both raters and ``O[i, j]`` counts the
    items rated ``low + i`` and ``low + j``. Returns ``None`` instead when the ratings span more
    than ``max_span`` values or one is larger than :data:`MAX_ABS_RATING` in absolute value (the
    caller then names the problem with :func:`as_ratings` and :func:`rating_scale`).

    The vectors are read block by block: the block's extremes, then codes ``a * width + b`` in a
    reused buffer, then one ``np.bincount``. No n-sized temporary array is allocated. The window of
    the codes is guessed from the first block; in the rare case that a later block falls outside
    it (small non-negative ratings first, a negative one later) the vectors are read twice.
    """
    n = len(actual)
    block = min(n, _BLOCK)
    low, high = _extremes(actual[:block], predicted[:block])
    if high - low >= max_span or max(-low, high) > MAX_ABS_RATING:
        return None
    if block == n:  # one block: the window is the ratings' own range (from 0 if that is close)
        base = 0 if 0 <= low and high < 2 * max_span else low
        return _tally(actual, predicted, base, high, low, high, block, checked=False)
    if low >= 0 and low + max_span <= 2 * max_span:
        # Small non-negative ratings, the usual case: a window from 0 needs no offset in the codes.
        counted = _tally(actual, predicted, 0, low + max_span - 1, low, high, block)
        if counted is None:  # a negative rating further on
            low, high = _extremes(actual, predicted)
            if high - low >= max_span or max(-low, high) > MAX_ABS_RATING:
                return None
            counted = _tally(actual, predicted, low, high, low, high, block, checked=False)
    else:
        # Every rating of a data set spanning at most max_span values lies in this window.
        counted = _tally(actual, predicted, high - max_span + 1, low + max_span - 1, low, high,
                         block)
    if counted is None or counted[1] - counted[0] >= max_span:
        return None
    return counted


def _extremes(actual: IntArray, predicted: IntArray) -> tuple[int, int]:
    smallest, largest = np.minimum.reduce, np.maximum.reduce  # less overhead than .min()
    return (int(min(smallest(actual), smallest(predicted))),
            int(max(largest(actual), largest(predicted))))


def _tally(
    actual: IntArray,
    predicted: IntArray,
    base: int,
    top: int,
    low: int,
    high: int,
    block: int,
    *,
    checked: bool = True,
) -> tuple[int, int, IntArray] | None:
    """Pair counts on the window base..top, or None when a block holds a rating outside it.

    ``low``/``high`` are the extremes of the first block (``checked``: of the later blocks too,
    which are then not checked again).
    """
    width = top - base + 1
    offset = base * (width + 1)  # code of (base, base)
    if len(actual) <= block:  # a single block: no buffer to reuse, no counts to add up
        codes = np.multiply(actual, width)
        np.add(codes, predicted, out=codes)
        if offset:
            np.subtract(codes, offset, out=codes)
        counts = np.bincount(codes, minlength=width * width)
        return low, high, _window(counts, width, low - base, high - base)
    counts = np.zeros(width * width, dtype=np.int64)
    codes = np.empty(block, dtype=np.int64)
    for start in range(0, len(actual), block):
        a, b = actual[start:start + block], predicted[start:start + block]
        if start and checked:
            block_low, block_high = _extremes(a, b)
            if block_low < base or block_high > top:
                return None
            low, high = min(low, block_low), max(high, block_high)
        out = codes[: len(a)]
        np.multiply(a, width, out=out)
        np.add(out, b, out=out)
        if offset:
            np.subtract(out, offset, out=out)
        counts += np.bincount(out, minlength=width * width)
    return low, high, _window(counts, width, low - base, high - base)


def _window(counts: IntArray, width: int, first: int, last: int) -> IntArray:
    """Rows and columns first..last of the width x width table held flat in ``counts``."""
    return np.ascontiguousarray(counts.reshape(width, width)[first:last + 1, first:last + 1])


def rating_scale(
    actual: IntArray,
    predicted: IntArray,
    *,
    scale: str = "range",
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> IntArray:
    """The ordered rating labels that index the rows and columns of every matrix.

    ``scale="range"``: every integer from the smallest to the largest rating (Ben Hamner's Kaggle
    convention), widened by ``min_rating``/``max_rating``. ``scale="observed"``: only ratings that
    occur (scikit-learn's and R irr's convention). Weights depend on a label's *position* on this
    scale, so the two conventions differ as soon as a rating inside the range is never used.
    """
    data_min = int(min(actual.min(), predicted.min()))
    data_max = int(max(actual.max(), predicted.max()))

    def observed() -> IntArray:
        span = data_max - data_min + 1
        if span <= 4 * MAX_RATINGS:
            # Small span: a bincount is cheaper than sorting a million ratings in np.unique.
            present = np.bincount(actual - data_min, minlength=span) > 0
            present |= np.bincount(predicted - data_min, minlength=span) > 0
            return np.flatnonzero(present).astype(np.int64) + data_min
        return np.union1d(np.unique(actual), np.unique(predicted)).astype(np.int64)

    return scale_labels(data_min, data_max, observed, scale=scale, min_rating=min_rating,
                        max_rating=max_rating)


def _bound(value: Any) -> int | None:
    """A declared end of the scale as an int: whole floats and digit strings pass, like ratings."""
    return None if value is None else int(as_ratings([value])[0])


def scale_labels(
    data_min: int,
    data_max: int,
    observed: Callable[[], IntArray],
    *,
    scale: str = "range",
    min_rating: Any = None,
    max_rating: Any = None,
) -> IntArray:
    """:func:`rating_scale` once the smallest and largest rating are known.

    ``observed`` returns the sorted ratings that occur; it is only called for the observed scale.
    """
    if scale not in SCALES:
        raise InputError("unknown_scale", value=str(scale), choices=", ".join(SCALES))
    min_rating, max_rating = _bound(min_rating), _bound(max_rating)
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise InputError("bounds_reversed", min_rating=min_rating, max_rating=max_rating)
    if min_rating is not None and data_min < min_rating:
        raise InputError("below_scale", value=data_min, min_rating=min_rating)
    if max_rating is not None and data_max > max_rating:
        raise InputError("above_scale", value=data_max, max_rating=max_rating)
    if scale == "range":
        low = data_min if min_rating is None else min_rating
        high = data_max if max_rating is None else max_rating
        if high - low + 1 > MAX_RATINGS:
            raise InputError("too_many_ratings", count=high - low + 1, limit=MAX_RATINGS)
        return np.arange(low, high + 1, dtype=np.int64)
    labels = observed()
    if labels.size > MAX_RATINGS:
        raise InputError("too_many_ratings", count=int(labels.size), limit=MAX_RATINGS)
    return labels


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
    """Read a CSV of one or two integer columns (comma, semicolon or tab), header optional.

    A first row that is not all integers is taken as the header. Two columns are the actual and the
    predicted ratings, in that order.

    A plain file (ASCII digits and signs, one delimiter) is read by a C CSV reader, pandas' or
    numpy's (:func:`_parse_csv_plain`); any other file, and every file with a problem to explain,
    by the careful reader, which gives the same columns, only more slowly.
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
    if any(_INTEGRAL.match(cell) or _DECIMAL.match(cell) for cell in first):
        return delimiter, first, None
    return delimiter, first, tuple(_shorten(cell) for cell in first)


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
    first_line = _normalise(head).replace('"', "").replace("'", "").strip()
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
    if (values.shape[1] != len(first) or values.shape[0] > MAX_ITEMS
            or int(values.min()) < -MAX_ABS_RATING or int(values.max()) > MAX_ABS_RATING):
        return None
    return CsvColumns(tuple(values[:, k].copy() for k in range(values.shape[1])), header)


#: Plain bodies from this size on go to pandas where it is installed; for smaller ones (0.03 s in
#: ``np.loadtxt`` at 1 MB) importing pandas would cost more than it saves (a command line run).
_PANDAS_FROM_BYTES = 1 << 20


def _read_plain(body: bytes, delimiter: str | None, reader: str) -> NDArray[np.int64]:
    """The rows of a plain CSV body as an int64 matrix (pandas if it is there, else numpy)."""
    if reader == "pandas" or (reader == "auto" and len(body) >= _PANDAS_FROM_BYTES):
        try:
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
    text = _normalise(decode_text(data)).replace('"', "").replace("'", "")
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


def parse_table(text: str) -> NDArray[np.int64]:
    """Parse a contingency table written as rows separated by ``;`` or newlines (rows = actual).

    >>> parse_table("0,4,1;0,8,0;0,1,5").tolist()
    [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
    """
    if not isinstance(text, str):
        raise InputError("empty")
    cleaned = unicodedata.normalize("NFKC", text).strip()
    # A Python/JSON nested list "[[1, 2], [3, 4]]" on one line: "], [" ends a row.
    cleaned = re.sub(r"\]\s*,?\s*\[", ";", cleaned)
    rows_text = [row for row in re.split(r"[;\n]+", cleaned) if row.strip(" \t\r,[]")]
    if not rows_text:
        raise InputError("empty")
    if len(rows_text) > MAX_RATINGS:
        raise InputError("too_many_ratings", count=len(rows_text), limit=MAX_RATINGS)
    rows = [[c for c in re.split(r"[\s,]+", row.strip(" \t\r[]")) if c] for row in rows_text]
    counts: list[list[int]] = []
    for r, row in enumerate(rows, start=1):
        parsed = []
        for c, cell in enumerate(row, start=1):
            if not _INTEGRAL.match(cell) or cell.startswith("-"):
                raise InputError("table_bad_count", row=r, column=c, token=_shorten(cell))
            value = int(cell.split(".")[0])
            if value > MAX_CELL_COUNT:
                raise InputError("table_bad_count", row=r, column=c, token=_shorten(cell))
            parsed.append(value)
        counts.append(parsed)
    return as_table(counts)


def as_table(table: Any) -> NDArray[np.int64]:
    """Validate a contingency table: square, non-negative whole counts, not all zero."""
    try:
        array = np.asarray(table)
    except ValueError:  # ragged nested lists
        raise _not_square(table, np.empty((0, 0))) from None
    if array.shape == (0,):
        raise InputError("table_empty")
    if array.ndim != 2 or (array.dtype == object and _is_ragged(table)):
        raise _not_square(table, array)
    rows, columns = array.shape
    if rows != columns:
        raise InputError("table_not_square", rows=rows, columns=columns)
    if rows > MAX_RATINGS:
        raise InputError("too_many_ratings", count=rows, limit=MAX_RATINGS)
    if array.dtype.kind in "iuf":
        with np.errstate(invalid="ignore"):
            bad = (array < 0) | (array > MAX_CELL_COUNT)  # before a cast could wrap 1e300
            if array.dtype.kind == "f":
                bad |= ~np.isfinite(array) | (array != np.round(array))
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise InputError("table_bad_count", row=r + 1, column=c + 1,
                             token=_shorten(str(array[r, c])))
    else:  # text, booleans, objects: report the first cell that is not a count
        r, c, cell = _first_bad_cell(table if isinstance(table, list | tuple) else array)
        raise InputError("table_bad_count", row=r + 1, column=c + 1, token=_shorten(str(cell)))
    counts = array.astype(np.int64)
    if counts.sum() == 0:
        raise InputError("table_empty")
    if counts.sum() > MAX_ITEMS:
        raise InputError("too_many_items", count=int(counts.sum()), limit=MAX_ITEMS)
    return counts


def _is_ragged(table: Any) -> bool:
    try:
        return len({len(row) for row in table}) > 1
    except TypeError:
        return True


def _first_bad_cell(rows: Any) -> tuple[int, int, Any]:
    """Row, column and value of the first cell that is not a count (rows as given, not cast)."""
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if isinstance(cell, bool | np.bool_) or not isinstance(cell, int | float | np.number):
                return r, c, cell
            if not (0 <= cell <= MAX_CELL_COUNT and float(cell).is_integer()):
                return r, c, cell
    return 0, 0, rows[0][0]  # pragma: no cover - every cell is a count after all


def _not_square(table: Any, array: NDArray[Any]) -> InputError:
    """The error for a table that is not a rectangle of numbers (ragged rows, a flat list...)."""
    if array.ndim == 0:
        return InputError("table_not_square", rows=0, columns=0)
    if array.ndim > 2:
        return InputError("table_not_square", rows=array.shape[0],
                          columns=int(np.prod(array.shape[1:])))
    rows = list(table)
    try:
        lengths = [len(row) for row in rows]
    except TypeError:  # a flat list of numbers: one row
        return InputError("table_not_square", rows=1, columns=len(rows))
    # Name the first row whose length breaks the square: "2 rows but 1 column".
    columns = next((length for length in lengths if length != len(rows)), max(lengths, default=0))
    return InputError("table_not_square", rows=len(rows), columns=columns)
