r"""Which items weigh most on kappa: kappa without each item, and with its prediction one level
closer to the actual rating.

Every item of cell (i, j) of O has the same influence, so both are computed per cell, from closed
forms, for all cells at once: O(N²) after the O(n) count of O, never one walkthrough per item.
With the unnormalised sums :math:`S = \sum w_{ij} O_{ij}` and :math:`C = \sum_{k,l} h^a_k w_{kl}
h^p_l` (so that :math:`\kappa = 1 - nS/C`), and the two weighted margins :math:`r = W h^p`,
:math:`c = W^\top h^a`:

* without one item of (i, j): :math:`n - 1` items, :math:`S - w_{ij}`, and
  :math:`C - r_i - c_j + w_{ij}` (the actual margin loses one at i, the predicted one at j);
* its prediction moved from j to :math:`j' = j \pm 1`, toward i: :math:`S - w_{ij} + w_{ij'}`
  and :math:`C - c_j + c_{j'}` (only the predicted margin changes).

Both keep the result's scale (its labels and weights), as the bootstrap does: removing the only
item of a rating does not shrink the scale. The jackknife values (kappa without each item) are
also what the bootstrap's BCa interval takes its acceleration from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from .types import Cell

#: A sum of non-negative terms recomputed by adding and subtracting is taken for 0 when it is
#: within this many rounding errors of the terms' size: den can only be 0 or at least the
#: smallest positive weight, so this decides exactly, not by an arbitrary threshold.
_ROUNDING = 64 * np.finfo(np.float64).eps


class CountsTable(Protocol):
    """What the influence reads of a result (a :class:`~qwk_explained.core.steps.Walkthrough`)."""

    @property
    def n(self) -> int: ...
    @property
    def kappa(self) -> float | None: ...
    @property
    def observed(self) -> NDArray[np.int64]: ...
    @property
    def weights(self) -> NDArray[np.float64]: ...
    @property
    def actual_hist(self) -> NDArray[np.int64]: ...
    @property
    def predicted_hist(self) -> NDArray[np.int64]: ...


@dataclass(frozen=True)
class CellInfluence:
    """The influence of each item of one cell of O (positions ``cell``), as :meth:`ranked` lists.

    ``count`` items share it; ``kappa_moved`` is kappa with one of them predicted at column
    ``moved_to`` (one level toward the actual rating), ``gain`` its difference with kappa;
    ``kappa_without`` is kappa without one of them (``None`` where undefined).
    """

    cell: Cell
    count: int
    moved_to: int
    kappa_moved: float
    gain: float
    kappa_without: float | None


@dataclass(frozen=True, eq=False)
class Influence:
    """Kappa without one item, and with one item's prediction moved, for the items of each cell.

    Attributes
    ----------
    kappa : float or None
        Kappa of the whole result.
    observed : ndarray of shape (N, N), int64
        O: how many items share each cell's influence.
    without : ndarray of shape (N, N), float64
        Kappa without one item of the cell (the jackknife value); NaN where the cell is empty
        or kappa without it is undefined.
    moved : ndarray of shape (N, N), float64
        Kappa with one item of the cell predicted one level closer to its actual rating; NaN on
        the diagonal (nothing to fix), in empty cells and where that kappa is undefined.
    moved_to : ndarray of shape (N, N), int64
        The column (position) that item's prediction moves to: ``j + sign(i - j)``.
    """

    kappa: float | None
    observed: NDArray[np.int64]
    without: NDArray[np.float64]
    moved: NDArray[np.float64]
    moved_to: NDArray[np.int64]

    @property
    def gain(self) -> NDArray[np.float64]:
        """``moved - kappa``: what fixing one item of each cell by one level adds to kappa."""
        if self.kappa is None:
            return np.full(self.moved.shape, np.nan)
        return self.moved - self.kappa

    @cached_property
    def _ranked(self) -> tuple[CellInfluence, ...]:
        # The same for every caller of a (cached, shared) result: computed once.
        return self._rank()

    def ranked(self) -> tuple[CellInfluence, ...]:
        """The cells whose items can be fixed, the fix that pays most first.

        Ties (the same gain to rounding) keep reading order. Cells on the diagonal, empty cells
        and cells whose fix gives an undefined kappa are left out.

        >>> from qwk_explained.core.steps import walkthrough
        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> best = result.influence.ranked()[0]
        >>> best.cell, best.count, best.moved_to, round(best.gain, 4)  # item 2: 4 predicted 2
        ((4, 2), 1, 3, 0.037)
        """
        return self._ranked

    def _rank(self) -> tuple[CellInfluence, ...]:
        gain = self.gain
        usable = np.isfinite(gain)
        flat = np.flatnonzero(usable.ravel())
        order = flat[np.argsort(-np.round(gain.ravel()[flat], 12), kind="stable")]
        size = self.observed.shape[0]
        ranked = []
        for k in order.tolist():
            i, j = divmod(k, size)
            without = self.without[i, j]
            ranked.append(CellInfluence(
                cell=(i, j), count=int(self.observed[i, j]), moved_to=int(self.moved_to[i, j]),
                kappa_moved=float(self.moved[i, j]), gain=float(gain[i, j]),
                kappa_without=float(without) if np.isfinite(without) else None))
        return tuple(ranked)


def _kappas(n: int | NDArray[np.int64], weighted_sum: NDArray[np.float64],
            chance: NDArray[np.float64], noise: NDArray[np.float64]) -> NDArray[np.float64]:
    """``1 - n S / C`` cell by cell, NaN where C is 0 (to rounding) or n is 0."""
    defined = (chance > _ROUNDING * noise) & (np.asarray(n) > 0)
    safe = np.where(defined, chance, 1.0)
    return np.where(defined, 1.0 - n * weighted_sum / safe, np.nan)


def influence(result: CountsTable) -> Influence:
    """Kappa without one item of each cell, and with one item's prediction moved toward the
    actual rating by one level, for every cell at once (closed forms, O(N²)).

    Parameters
    ----------
    result : Walkthrough
        The computed steps (``n``, ``kappa``, ``observed``, ``weights`` and the histograms).

    Returns
    -------
    Influence
        Per-cell values; :meth:`Influence.ranked` lists the cells whose fix pays most first.

    Notes
    -----
    The values are exactly those of a walkthrough recomputed on the changed items with the
    same scale (see the module's docstring for the formulas); kappa stays undefined where the
    change leaves no disagreement expected by chance.

    Examples
    --------
    >>> from qwk_explained.core.steps import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> found = influence(result)
    >>> round(float(found.without[4, 0]), 4), round(float(found.moved[4, 0]), 4)
    (-0.1351, -0.1092)

    The same as recomputing: item 1 (rated 4, predicted 0) left out, or predicted 1:

    >>> round(walkthrough([4, 3, 4, 4, 4, 1, 1, 2, 1], [2, 1, 0, 0, 0, 1, 1, 2, 1],
    ...                   min_rating=0).kappa, 4)
    -0.1351
    >>> round(walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [1, 2, 1, 0, 0, 0, 1, 1, 2, 1]).kappa, 4)
    -0.1092
    """
    observed = result.observed
    w = result.weights
    size = observed.shape[0]
    n = result.n
    h_a = result.actual_hist.astype(np.float64)
    h_p = result.predicted_hist.astype(np.float64)
    weighted_sum = float((w * observed).sum())  # S
    rows = w @ h_p  # r_i = sum_l w_il h^p_l
    cols = h_a @ w  # c_j = sum_k h^a_k w_kj
    chance = float(h_a @ rows)  # C
    # Without one item of (i, j).
    s_without = weighted_sum - w
    c_without = chance - rows[:, None] - cols[None, :] + w
    noise = chance + rows[:, None] + cols[None, :] + w
    without = _kappas(n - 1, s_without, c_without, noise)
    without[observed == 0] = np.nan
    # One item of (i, j) predicted at j' = j + sign(i - j).
    positions = np.arange(size)
    target = (positions[None, :]
              + np.sign(positions[:, None] - positions[None, :])).astype(np.int64)
    rows_idx = np.broadcast_to(positions[:, None], (size, size))
    s_moved = weighted_sum - w + w[rows_idx, target]
    c_moved = chance - cols[None, :] + cols[target]
    moved = _kappas(n, s_moved, c_moved, chance + cols[None, :] + cols[target])
    moved[(observed == 0) | (target == positions[None, :])] = np.nan
    for array in (without, moved, target):
        array.setflags(write=False)
    return Influence(kappa=result.kappa, observed=observed, without=without, moved=moved,
                     moved_to=target)
