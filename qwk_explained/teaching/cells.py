r"""One cell (i, j) of the QWK matrices, and the "what if" of moving one item.

The step-by-step page follows a single cell through every step: which items fall in O_ij, its
weight, its expected count, and how much of the numerator and of the denominator it carries:

.. math::

    \text{share}_{\text{num}}(i, j) = \frac{w_{ij}\, O_{ij} / n}{\text{num}}, \qquad
    \text{share}_{\text{den}}(i, j) = \frac{w_{ij}\, E_{ij} / n}{\text{den}},

so that the shares of all cells add up to 1 (100 %) whenever num (resp. den) is not 0. A cell with
a large share of num is where the observed disagreement comes from.

:func:`what_if` answers "what would kappa be if item k had been predicted differently?" by
recomputing the whole walkthrough on the modified vectors with the same settings (weights, scale),
so it always agrees with :func:`qwk_explained.walkthrough`.

The LaTeX of a cell's shares is in :mod:`qwk_explained.present.formulas`; reading a cell from
a URL or a click is the app's job (:mod:`qwk_app.links`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import Cell, Scale, WeightingLike

#: Item numbers listed for one cell before "and N more".
ITEMS_SHOWN = 50


# --- one cell -------------------------------------------------------------------------------------

#: A cell written as two whole numbers, ``"4,0"`` (a comma or a semicolon between them, spaces
#: and signs allowed): rating labels in a link, a submission or a grid, positions in a click.
_CELL_TEXT = re.compile(r"^\s*([+-]?\d{1,9})\s*[,;]\s*([+-]?\d{1,9})\s*$")


def read_cell(text: Any) -> tuple[int, int] | None:
    """The two numbers of a cell written as text (``"4,0"``), or ``None`` if it is not one.

    Untrusted text (a link, a click, a JSON key) is read here only; what the numbers mean
    (rating labels or positions) is the caller's.

    >>> read_cell("4,0"), read_cell(" -1 ; 2 "), read_cell("4"), read_cell("a,b")
    ((4, 0), (-1, 2), None, None)
    """
    match = _CELL_TEXT.match(str(text))
    return None if match is None else (int(match[1]), int(match[2]))


def label_positions(labels: Sequence[int] | NDArray[np.int64],
                    ratings: tuple[int, int]) -> Cell | None:
    """Positions (i, j) of the cell with rating labels ``ratings`` on a scale, or ``None`` when
    either rating is not on it.

    >>> label_positions([1, 2, 3], (3, 1)), label_positions([1, 2, 3], (0, 1))
    ((2, 0), None)
    """
    where = {int(label): k for k, label in enumerate(labels)}
    i, j = where.get(int(ratings[0])), where.get(int(ratings[1]))
    return None if i is None or j is None else (i, j)



def default_cell(result: Walkthrough) -> Cell:
    """The cell shown first: the first off-diagonal cell with items (where the raters disagree,
    the most instructive one), else the first cell next to the diagonal."""
    size = result.size
    for i in range(size):
        for j in range(size):
            if i != j and result.observed[i, j]:
                return i, j
    return 0, min(1, size - 1)


def items_in_cell(result: Walkthrough, i: int, j: int) -> NDArray[np.int64]:
    """1-based item numbers k with actual_k = label_i and predicted_k = label_j (the items of O_ij).

    >>> from qwk_explained import walkthrough
    >>> items_in_cell(walkthrough([4, 4, 3, 4], [0, 2, 1, 0]), 4, 0).tolist()
    [1, 4]
    """
    i, j = result.check_cell(i, j)
    if result.actual is None or result.predicted is None:
        raise ValueError("the result came from a table: it has no items")
    mask = (result.actual == result.labels[i]) & (result.predicted == result.labels[j])
    return np.flatnonzero(mask).astype(np.int64) + 1


#: Items read at a time when listing the first items of several cells.
_BLOCK = 1 << 16


def first_items(result: Walkthrough, cells: Sequence[Cell],
                limit: int = ITEMS_SHOWN) -> dict[Cell, list[int]]:
    """The first ``limit`` item numbers (from 1) of each cell, in one pass over the items.

    The items are read block by block and the pass stops as soon as every cell has its items
    (O says how many it has), so the cells with many items, the ones captions name, cost one
    block, not n comparisons per cell. Empty lists for a result from a table.

    >>> from qwk_explained import walkthrough
    >>> first_items(walkthrough([4, 4, 3, 4], [0, 2, 1, 0]), [(4, 0), (3, 1)], limit=1)
    {(4, 0): [1], (3, 1): [3]}
    """
    checked = [result.check_cell(*cell) for cell in cells]
    found: dict[Cell, list[int]] = {cell: [] for cell in checked}
    if result.actual is None or result.predicted is None:
        return found
    wanted = {cell: min(limit, int(result.observed[cell])) for cell in checked}
    for start in range(0, result.n, _BLOCK):
        pending = [cell for cell in checked if len(found[cell]) < wanted[cell]]
        if not pending:
            break
        actual = result.actual[start:start + _BLOCK]
        predicted = result.predicted[start:start + _BLOCK]
        for i, j in pending:
            hits = np.flatnonzero((actual == result.labels[i]) & (predicted == result.labels[j]))
            missing = wanted[(i, j)] - len(found[(i, j)])
            found[(i, j)] += (hits[:missing] + start + 1).tolist()
    return found


def capped(items: Sequence[int] | NDArray[np.int64],
           limit: int = ITEMS_SHOWN) -> tuple[list[int], int]:
    """The first ``limit`` items and how many are left out ("and N more").

    >>> capped(range(1, 8), 5)
    ([1, 2, 3, 4, 5], 2)
    """
    values = [int(x) for x in items]
    return values[:limit], max(len(values) - limit, 0)


def share_matrices(result: Walkthrough) -> tuple[NDArray[np.float64] | None,
                                                 NDArray[np.float64] | None]:
    """Every cell's share of num and of den (each sums to 1), ``None`` where the total is 0."""
    num = result.weighted_observed / result.numerator if result.numerator > 0 else None
    den = result.weighted_expected / result.denominator if result.denominator > 0 else None
    return num, den


def cell_shares(result: Walkthrough, i: int, j: int) -> tuple[float | None, float | None]:
    """The cell's share of num (w_ij O_ij / n over num) and of den; ``None`` when that total is 0.

    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([2, 2, 2, 3, 4, 5, 5, 5, 5, 5], [2, 2, 2, 3, 2, 1, 1, 1, 1, 3])
    >>> round(cell_shares(result, 4, 0)[0], 4)
    0.8889
    """
    i, j = result.check_cell(i, j)
    num, den = share_matrices(result)
    return (None if num is None else float(num[i, j]),
            None if den is None else float(den[i, j]))


# --- what if one item had another prediction ------------------------------------------------------


@dataclass(frozen=True)
class WhatIf:
    """Kappa before and after giving item ``item`` (0-based) the prediction ``new_prediction``.

    ``change`` is after - before, ``None`` when either kappa is undefined. ``predicted`` is the
    whole modified predicted vector.
    """

    before: Walkthrough
    after: Walkthrough
    item: int
    actual_rating: int
    old_prediction: int
    new_prediction: int
    predicted: NDArray[np.int64]

    @property
    def change(self) -> float | None:
        """after - before, ``None`` when either kappa is undefined."""
        if self.before.kappa is None or self.after.kappa is None:
            return None
        return self.after.kappa - self.before.kappa


def what_if(
    result: Walkthrough,
    item_index: int,
    new_prediction: int,
    *,
    weights: WeightingLike = "quadratic",
    scale: Scale = "range",
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> WhatIf:
    """Recompute every step with item ``item_index`` (0-based) predicted as ``new_prediction``.

    The settings must be the ones ``result`` was computed with. Raises ``InputError`` when the new
    prediction does not fit the settings (outside a fixed min..max).

    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> change = what_if(result, 0, 4)
    >>> round(change.after.kappa, 4) == round(walkthrough(
    ...     [4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [4, 2, 1, 0, 0, 0, 1, 1, 2, 1]).kappa, 4)
    True
    """
    if result.actual is None or result.predicted is None:
        raise ValueError("the result came from a table: it has no items to move")
    if not 0 <= item_index < result.n:
        raise IndexError(f"item {item_index} outside 0..{result.n - 1}")
    predicted = np.array(result.predicted, dtype=np.int64)
    old = int(predicted[item_index])
    predicted[item_index] = int(new_prediction)
    after = walkthrough(result.actual, predicted, weights=weights, scale=scale,
                        min_rating=min_rating, max_rating=max_rating)
    predicted.setflags(write=False)
    return WhatIf(result, after, int(item_index), int(result.actual[item_index]), old,
                  int(new_prediction), predicted)


# --- moving one item from one cell of O to another ------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One item taken out of cell ``source`` of O and put into cell ``target`` (positions).

    The item keeps its number; its actual rating becomes the target's row label and its
    predicted rating the target's column label, so O loses one in the source and gains one in the
    target, and the two histograms, E and both sums follow. ``actual`` and ``predicted`` are the
    whole new vectors.
    """

    item: int
    source: Cell
    target: Cell
    actual: NDArray[np.int64]
    predicted: NDArray[np.int64]


def move_item(result: Walkthrough, source: Cell, target: Cell) -> Move | None:
    """Move the last item of cell ``source`` to cell ``target``; ``None`` if the source is empty.

    The last item is taken so that the items listed first in the cell stay where they are.

    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> move = move_item(result, (4, 0), (4, 1))
    >>> move.item, move.predicted.tolist()
    (6, [0, 2, 1, 0, 0, 1, 1, 1, 2, 1])
    >>> int(walkthrough(move.actual, move.predicted).observed[4, 1])
    1
    """
    if result.actual is None or result.predicted is None:
        raise ValueError("the result came from a table: it has no items to move")
    source, target = result.check_cell(*source), result.check_cell(*target)
    items = items_in_cell(result, *source)
    if not len(items) or source == target:
        return None
    item = int(items[-1])
    actual = np.array(result.actual, dtype=np.int64)
    predicted = np.array(result.predicted, dtype=np.int64)
    actual[item - 1] = int(result.labels[target[0]])
    predicted[item - 1] = int(result.labels[target[1]])
    actual.setflags(write=False)
    predicted.setflags(write=False)
    return Move(item, source, target, actual, predicted)
