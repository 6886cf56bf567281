r"""One cell (i, j) of the QWK matrices, and the "what if" of moving one item.

The guided page follows a single cell through every step: which items fall in O_ij, its weight,
its expected count, and how much of the numerator and of the denominator it carries:

.. math::

    \text{share}_{\text{num}}(i, j) = \frac{w_{ij}\, O_{ij} / n}{\text{num}}, \qquad
    \text{share}_{\text{den}}(i, j) = \frac{w_{ij}\, E_{ij} / n}{\text{den}},

so that the shares of all cells add up to 1 (100 %) whenever num (resp. den) is not 0. A cell with
a large share of num is where the observed disagreement comes from.

:func:`what_if` answers "what would kappa be if item k had been predicted differently?" by
recomputing the whole walkthrough on the modified vectors with the same settings (weights, scale),
so it always agrees with :func:`qwk_explained.walkthrough`.

Also here: reading the guided page's URL values (``step=3``, ``cell=4,0``) and a clicked heatmap
point back into numbers, never trusting them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .numbers import format_latex
from .steps import Walkthrough, walkthrough

Cell = tuple[int, int]

#: The guided page's steps, in order: O, w, histograms, E, normalization, num and den, kappa.
GUIDED_STEPS = ("observed", "weights", "histograms", "expected", "normalization", "sums",
                "kappa")
#: Item numbers listed for one cell before "and N more".
ITEMS_SHOWN = 50


# --- reading values that came from a URL or a click ----------------------------------------------


def parse_step(value: Any, total: int = len(GUIDED_STEPS)) -> int | None:
    """A 1-based step number from text (``"3"``), or ``None`` when it is not 1..total.

    >>> parse_step("3"), parse_step(" 7 "), parse_step("0"), parse_step("99"), parse_step("x")
    (3, 7, None, None, None)
    """
    text = str(value).strip()
    if not text.isdigit() or not text.isascii():
        return None
    step = int(text)
    return step if 1 <= step <= total else None


def _label_position(value: Any, labels: Sequence[int] | NDArray[np.int64]) -> int | None:
    try:
        label = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    positions = [k for k, x in enumerate(labels) if int(x) == label]
    return positions[0] if positions else None


def parse_cell(value: Any, labels: Sequence[int] | NDArray[np.int64]) -> Cell | None:
    """Positions (i, j) of a cell written with rating labels (``"4,0"``); ``None`` if invalid.

    >>> parse_cell("4,0", [0, 1, 2, 3, 4]), parse_cell("5,1", [1, 2, 3]), parse_cell("a", [1])
    ((4, 0), None, None)
    """
    parts = str(value).split(",")
    if len(parts) != 2:
        return None
    row, col = (_label_position(part, labels) for part in parts)
    if row is None or col is None:
        return None
    return row, col


def cell_text(result: Walkthrough, i: int, j: int) -> str:
    """The cell as ``"4,0"`` (rating labels), the inverse of :func:`parse_cell`."""
    return f"{int(result.labels[i])},{int(result.labels[j])}"


def cell_from_point(point: Mapping[str, Any],
                    labels: Sequence[int] | NDArray[np.int64]) -> Cell | None:
    """The cell (i, j) of a clicked heatmap point: ``x`` is the predicted label, ``y`` the actual.

    Falls back to ``customdata`` holding the positions ``[i, j]``.

    >>> cell_from_point({"x": "0", "y": "4"}, [0, 1, 2, 3, 4])
    (4, 0)
    """
    row = _label_position(point.get("y"), labels)
    col = _label_position(point.get("x"), labels)
    if row is not None and col is not None:
        return row, col
    custom = point.get("customdata")
    if isinstance(custom, Sequence) and not isinstance(custom, str) and len(custom) == 2:
        try:
            i, j = int(custom[0]), int(custom[1])
        except (TypeError, ValueError):
            return None
        if 0 <= i < len(labels) and 0 <= j < len(labels):
            return i, j
    return None


# --- one cell -------------------------------------------------------------------------------------


def _check_cell(result: Walkthrough, i: int, j: int) -> Cell:
    if not (0 <= i < result.size and 0 <= j < result.size):
        raise IndexError(f"cell ({i}, {j}) outside the {result.size} x {result.size} matrices")
    return int(i), int(j)


def items_in_cell(result: Walkthrough, i: int, j: int) -> NDArray[np.int64]:
    """1-based item numbers k with actual_k = label_i and predicted_k = label_j (the items of O_ij).

    >>> from qwk_explained import walkthrough
    >>> items_in_cell(walkthrough([4, 4, 3, 4], [0, 2, 1, 0]), 4, 0).tolist()
    [1, 4]
    """
    i, j = _check_cell(result, i, j)
    if result.actual is None or result.predicted is None:
        raise ValueError("the result came from a table: it has no items")
    mask = (result.actual == result.labels[i]) & (result.predicted == result.labels[j])
    return np.flatnonzero(mask).astype(np.int64) + 1


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
    >>> w = walkthrough([2, 2, 2, 3, 4, 5, 5, 5, 5, 5], [2, 2, 2, 3, 2, 1, 1, 1, 1, 3])
    >>> round(cell_shares(w, 4, 0)[0], 4)
    0.8889
    """
    i, j = _check_cell(result, i, j)
    num, den = share_matrices(result)
    return (None if num is None else float(num[i, j]),
            None if den is None else float(den[i, j]))


def _percent_latex(share: float, lang: str) -> str:
    # Turkish writes the sign first (%50), like numbers.format_percent.
    value = format_latex(share * 100, lang, decimals=1)
    return rf"\%{value}" if lang == "tr" else rf"{value}\,\%"


def _share_latex(result: Walkthrough, i: int, j: int, lang: str, which: str) -> str | None:
    i, j = _check_cell(result, i, j)
    label = "{" + cell_text(result, i, j) + "}"
    if which == "num":
        matrix, part, total = "O", result.observed_norm[i, j], result.numerator
    else:
        matrix, part, total = "E", result.expected_norm[i, j], result.denominator
    if total <= 0:
        return None
    weight = result.weights[i, j]
    return (
        rf"\frac{{w_{label}\, {matrix}_{label} / n}}{{\text{{{which}}}}} = "
        rf"\frac{{{format_latex(weight, lang)} \cdot {format_latex(part, lang)}}}"
        rf"{{{format_latex(total, lang)}}} = "
        f"{_percent_latex(weight * part / total, lang)}"
    )


def numerator_share_latex(result: Walkthrough, i: int, j: int, lang: str = "en") -> str | None:
    r"""``\frac{w_{5,1}\, O_{5,1} / n}{\text{num}} = \frac{1 \cdot 0{,}4}{0{,}45} = 88{,}9\,\%``.

    ``None`` when num = 0 (no disagreement observed: no cell has a share).
    """
    return _share_latex(result, i, j, lang, "num")


def denominator_share_latex(result: Walkthrough, i: int, j: int, lang: str = "en") -> str | None:
    r"""The same for E and den; ``None`` when den = 0 (kappa is undefined)."""
    return _share_latex(result, i, j, lang, "den")


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
        if self.before.kappa is None or self.after.kappa is None:
            return None
        return self.after.kappa - self.before.kappa


def what_if(
    result: Walkthrough,
    item_index: int,
    new_prediction: int,
    *,
    weights: Any = "quadratic",
    scale: str = "range",
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> WhatIf:
    """Recompute every step with item ``item_index`` (0-based) predicted as ``new_prediction``.

    The settings must be the ones ``result`` was computed with. Raises ``InputError`` when the new
    prediction does not fit the settings (outside a fixed min..max).

    >>> from qwk_explained import walkthrough
    >>> w = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> change = what_if(w, 0, 4)
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
