"""A weight matrix of one's own: where it starts, how it is written in a link, what is wrong with
it and what is unusual about it.

The engine takes any finite, non-negative N x N matrix (:func:`qwk_explained.core.weights.
custom_weights`); a learner editing one cell at a time deserves the precise reason when it is not
one (``errors.weights_*`` in the locales): not square, not the scale's size, a cell that is empty
or not a finite number, a negative weight, or no positive weight at all (then every
disagreement is free and kappa is 0/0). A matrix can also be valid and unusual: a positive
weight on the diagonal makes agreeing cost something (perfect agreement no longer gives kappa
= 1), and an asymmetric one weighs "predicted too high" and "predicted too low" differently;
:func:`notes` names those (``weights_note.*``), so the page can say so without refusing them.

In a link the matrix is one short text, rows separated by ``;`` and cells by ``,``, numbers
with a decimal point (``0,0.25,1;0.25,0,0.25;1,0.25,0``), whatever the language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_RATINGS
from qwk_explained.core.parse import shorten
from qwk_explained.core.types import Weighting
from qwk_explained.core.weights import weight_matrix

#: What can be unusual about a valid matrix (``weights_note.<code>`` in the locales).
Note = Literal["diagonal", "asymmetric"]
#: Longest matrix text read from a link: 50 x 50 cells of a dozen characters.
MAX_TEXT = MAX_RATINGS * MAX_RATINGS * 12


def starting_weights(kind: Weighting, size: int) -> NDArray[np.float64]:
    """The matrix an editor starts from: a named weighting on the scale's N ratings.

    >>> starting_weights("linear", 3).tolist()
    [[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]]
    """
    return weight_matrix(kind, size)


def check_weights(cells: Sequence[Sequence[Any]] | NDArray[Any], size: int) -> NDArray[np.float64]:
    """The matrix as floats if it can weigh disagreements on a scale of ``size`` ratings.

    Raises
    ------
    InputError
        ``weights_not_square`` (rows x columns), ``weights_wrong_size`` (N x N, the scale has
        ``size`` ratings), ``weights_not_number`` (row, column and what is there: an empty
        cell, text, NaN or an infinity), ``weights_negative`` (row, column, value) or
        ``weights_all_zero``. Rows and columns are counted from 1, as a reader counts them.

    Examples
    --------
    >>> check_weights([[0, 1], [1, 0]], 2).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    >>> try:
    ...     check_weights([[0, -1], [1, 0]], 2)
    ... except InputError as error:
    ...     print(error.code, error.params)
    weights_negative {'row': 1, 'column': 2, 'value': '-1'}
    """
    rows = [list(row) for row in cells]
    widths = {len(row) for row in rows}
    if len(widths) != 1 or len(rows) != len(rows[0]):
        raise InputError("weights_not_square", rows=len(rows),
                         columns=max(widths) if widths else 0)
    if len(rows) != size:
        raise InputError("weights_wrong_size", given=len(rows), size=size)
    matrix = np.empty((size, size))
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            number = _number(value)
            if number is None:
                raise InputError("weights_not_number", row=i + 1, column=j + 1,
                                 value=shorten(str("" if value is None else value)))
            if number < 0:
                raise InputError("weights_negative", row=i + 1, column=j + 1,
                                 value=shorten(str(value)))
            matrix[i, j] = number
    if not (matrix > 0).any():
        raise InputError("weights_all_zero")
    return matrix


def _number(value: Any) -> float | None:
    """A cell as a finite float, or ``None`` (empty, text, NaN, an infinity, a boolean)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def notes(matrix: NDArray[np.float64]) -> tuple[Note, ...]:
    """What is unusual about a valid matrix, for the page to say.

    >>> notes(np.array([[0.0, 1.0], [2.0, 0.0]])), notes(np.array([[1.0, 1.0], [1.0, 0.0]]))
    (('asymmetric',), ('diagonal',))
    """
    found: list[Note] = []
    if (np.diag(matrix) != 0).any():
        found.append("diagonal")
    if not np.array_equal(matrix, matrix.T):
        found.append("asymmetric")
    return tuple(found)


def weights_text(matrix: NDArray[np.float64]) -> str:
    """The matrix as it goes into a link, each number as short as it reads back exactly.

    >>> weights_text(np.array([[0.0, 0.25], [0.25, 0.0]]))
    '0,0.25;0.25,0'
    """
    return ";".join(",".join(_short(value) for value in row) for row in matrix.tolist())


def _short(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def parse_weights_text(text: str, size: int) -> NDArray[np.float64]:
    """A matrix from a link's text, checked as :func:`check_weights` checks an edited one.

    >>> parse_weights_text("0,1,4;1,0,1;4,1,0", 3)[0].tolist()
    [0.0, 1.0, 4.0]
    """
    if len(text) > MAX_TEXT:  # far more than 50 x 50 weights: not read cell by cell
        count = text.count(";") + 1
        raise InputError("weights_not_square", rows=count, columns=text.count(",") // count + 1)
    rows = [row.split(",") for row in text.strip().split(";")]
    return check_weights([[cell.strip() or None for cell in row] for row in rows], size)
