"""Contingency tables: the observed matrix O given directly (rows = actual, columns = predicted).

A table is typed as rows separated by ``;`` or new lines (or pasted as a nested list), and checked:
square, non-negative whole counts, not all zero, within the limits.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .parse import INTEGRAL, shorten
from .validate import unmasked


def parse_table(text: str) -> NDArray[np.int64]:
    """Read a contingency table of counts typed as text.

    Parameters
    ----------
    text : str
        Rows separated by ``;`` or line breaks, the counts of a row by commas or spaces; row i
        is the actual rating, column j the predicted one. A nested list pasted from Python or
        JSON (``[[20, 20], [10, 50]]``) reads the same.

    Returns
    -------
    ndarray of shape (N, N), int64
        The observed matrix O, ready for :func:`~qwk_explained.walkthrough_from_table`.

    Raises
    ------
    InputError
        ``empty`` or ``table_empty`` (no count, or all zero), ``table_not_square`` (with the
        number of rows and of columns), ``table_bad_count`` (the first cell that is not a whole
        number >= 0, with its row and column), ``too_many_ratings`` or ``too_many_items``.

    See Also
    --------
    qwk_explained.walkthrough_from_table : Every step of kappa from the table.

    Examples
    --------
    >>> parse_table("0,4,1;0,8,0;0,1,5").tolist()
    [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
    >>> parse_table("[[20, 20], [10, 50]]").tolist() == parse_table("20 20\\n10 50").tolist()
    True
    >>> try:
    ...     parse_table("1,-2;3,4")
    ... except InputError as error:
    ...     print(error.code, error.params)
    table_bad_count {'row': 1, 'column': 2, 'token': '-2'}
    """
    if not isinstance(text, str):
        raise InputError("empty")
    cleaned = unicodedata.normalize("NFKC", text).strip()
    # A Python/JSON nested list "[[1, 2], [3, 4]]" on one line: "], [" ends a row.
    cleaned = re.sub(r"\]\s*,?\s*\[", ";", cleaned)
    rows_text = [row for row in re.split(r"[;\n]+", cleaned) if row.strip(" \t\r,[]")]
    if not rows_text:
        raise InputError("empty")
    if len(rows_text) > limits.MAX_RATINGS:
        raise InputError("too_many_ratings", count=len(rows_text), limit=limits.MAX_RATINGS)
    rows = [[c for c in re.split(r"[\s,]+", row.strip(" \t\r[]")) if c] for row in rows_text]
    counts: list[list[int]] = []
    for r, row in enumerate(rows, start=1):
        parsed = []
        for c, cell in enumerate(row, start=1):
            whole = cell.split(".")[0]
            # A count has at most as many digits as the largest one allowed; checking the length
            # first also keeps int() below Python's 4,300-digit limit.
            if (not INTEGRAL.match(cell) or cell.startswith("-")
                    or len(whole.lstrip("+0")) > len(str(limits.MAX_CELL_COUNT))):
                raise InputError("table_bad_count", row=r, column=c, token=shorten(cell))
            value = int(whole.lstrip("+0") or "0")  # leading zeros count towards that limit
            if value > limits.MAX_CELL_COUNT:
                raise InputError("table_bad_count", row=r, column=c, token=shorten(cell))
            parsed.append(value)
        counts.append(parsed)
    return as_table(counts)


def as_table(table: Any) -> NDArray[np.int64]:
    """Validate a contingency table: square, non-negative whole counts, not all zero.

    A boolean is no count, even among numbers (numpy would read ``True`` as 1), and a masked
    array that hides a cell is refused (numpy would count the hidden value).
    """
    table = unmasked(table)
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
    if rows > limits.MAX_RATINGS:
        raise InputError("too_many_ratings", count=rows, limit=limits.MAX_RATINGS)
    if array.dtype.kind in "iuf" and isinstance(table, list | tuple) and _has_boolean(table):
        r, c, cell = _first_bad_cell(table)
        raise InputError("table_bad_count", row=r + 1, column=c + 1, token=shorten(str(cell)))
    if array.dtype.kind == "f" and array.dtype.itemsize < 8:  # float16 cannot hold the limit
        array = array.astype(np.float64)
    if array.dtype.kind in "iuf":
        with np.errstate(invalid="ignore"):
            bad = (array < 0) | (array > limits.MAX_CELL_COUNT)  # before a cast could wrap 1e300
            if array.dtype.kind == "f":
                bad |= ~np.isfinite(array) | (array != np.round(array))
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise InputError("table_bad_count", row=r + 1, column=c + 1,
                             token=shorten(str(array[r, c])))
    else:  # text, booleans, objects: report the first cell that is not a count
        r, c, cell = _first_bad_cell(table if isinstance(table, list | tuple) else array)
        raise InputError("table_bad_count", row=r + 1, column=c + 1, token=shorten(str(cell)))
    counts = array.astype(np.int64)
    if counts.sum() == 0:
        raise InputError("table_empty")
    if counts.sum() > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=int(counts.sum()), limit=limits.MAX_ITEMS)
    return counts


def _has_boolean(rows: Any) -> bool:
    return any(isinstance(cell, bool | np.bool_) for row in rows for cell in row)


def _is_ragged(table: Any) -> bool:
    try:
        return len({len(row) for row in table}) > 1
    except TypeError:
        return True


def _first_bad_cell(rows: Any) -> tuple[int, int, Any]:
    """Row, column and value of the first cell that is not a count (rows as given, not cast)."""
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if (isinstance(cell, bool | np.bool_)
                    or not isinstance(cell, int | float | np.integer | np.floating)):
                return r, c, cell
            if not (0 <= cell <= limits.MAX_CELL_COUNT and float(cell).is_integer()):
                return r, c, cell
    return 0, 0, rows[0][0]  # pragma: no cover - every cell is a count after all


def _not_square(table: Any, array: NDArray[Any]) -> InputError:
    """The error for a table that is not a rectangle of numbers (ragged rows, a flat list...)."""
    if array.ndim == 0:  # one number, None, a set...: no rows at all
        return InputError("table_not_a_table")
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
