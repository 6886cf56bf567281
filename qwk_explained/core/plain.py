"""Plain numeric text (digits, signs, one delimiter, line breaks) read by a C reader: integer
ratings, or a model's scores with decimal points.

Why: the careful readers (:mod:`.parse`, :mod:`.csvfile`) build a Python string per rating and
convert them in one numpy cast that holds the GIL; a 20 MB upload or a 10 MB paste took them 2 to
4 s, during which every other session of a classroom server waited. pandas' C reader (installed
with Streamlit) reads the same text in a tenth of the time and releases the GIL while it
tokenizes, so other sessions go on; ``np.loadtxt`` (holding the GIL, still 5 times faster than a
cast of Python strings) stands in where pandas is not installed. The callers decide what is plain
and check the values; anything this reader refuses goes back to them to be explained.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: Plain text from this size on goes to pandas where it is installed; for smaller texts (0.03 s in
#: ``np.loadtxt`` at 1 MB) importing pandas would cost more than it saves (a command line run).
PANDAS_FROM_BYTES = 1 << 20


def read_integer_rows(body: bytes, delimiter: str | None,
                      reader: str = "auto") -> NDArray[np.int64]:
    """The rows of plain integer text as an int64 matrix, one row per non-empty line.

    ``delimiter`` separates the cells of a row (``None``: runs of spaces). ``reader`` picks the C
    reader (``"auto"``: pandas for large texts when it is installed, else numpy; ``"pandas"`` or
    ``"numpy"``, for the tests). Raises ``ValueError`` or ``OverflowError`` for text that is not
    plain after all (a word, a decimal, ragged rows, an integer beyond int64); pandas' parser
    errors are ``ValueError`` subclasses.
    """
    rows: NDArray[np.int64] = _read_rows(body, delimiter, np.int64, reader)
    return rows


def read_float_rows(body: bytes, delimiter: str | None,
                    reader: str = "auto") -> NDArray[np.float64]:
    """:func:`read_integer_rows` for numbers with a decimal point (a model's scores): a float64
    matrix. The same errors; a word such as ``nan`` is read as a number, so the caller checks
    the values (or keeps letters out of what it calls plain)."""
    rows: NDArray[np.float64] = _read_rows(body, delimiter, np.float64, reader)
    return rows


def _read_rows(body: bytes, delimiter: str | None, dtype: type[np.int64] | type[np.float64],
               reader: str) -> NDArray[Any]:
    if reader == "pandas" or (reader == "auto" and len(body) >= PANDAS_FROM_BYTES):
        try:  # here, not at the top: pandas is optional, and slow to import for a small text
            import pandas as pd
        except ImportError:
            if reader == "pandas":
                raise
        else:
            frame = pd.read_csv(io.BytesIO(body), sep=delimiter or r"\s+", header=None,
                                dtype=dtype, engine="c", na_filter=False)
            return frame.to_numpy(dtype=dtype)
    return np.loadtxt(io.BytesIO(body), delimiter=delimiter, dtype=dtype, comments=None,
                      ndmin=2)
