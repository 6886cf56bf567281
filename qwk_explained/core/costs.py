r"""Where kappa is lost: what each cell of O costs, in units of kappa.

Kappa is 1 - num/den, and num is a sum over cells, so 1 - kappa splits cell by cell:

.. math::

    \text{cost}_{ij} = \frac{w_{ij}\, O_{ij} / n}{\text{den}}, \qquad
    \sum_{i,j} \text{cost}_{ij} = \frac{\text{num}}{\text{den}} = 1 - \kappa.

A cell's cost is how much kappa would rise if its items had been rated alike (all else, E
included, unchanged): the map says *where* the observed disagreement lies, weighed as kappa
weighs it. Set against chance, each cell's part of num - den gives the signed map

.. math::

    \text{signed}_{ij} = \frac{w_{ij}\, (O_{ij} - E_{ij}) / n}{\text{den}}, \qquad
    \sum_{i,j} \text{signed}_{ij} = \frac{\text{num} - \text{den}}{\text{den}} = -\kappa,

positive where the raters disagree more than chance would (the cell pulls kappa down), negative
where they disagree less (it holds kappa up). Both are undefined when den = 0, as kappa is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from .types import Cell


class WeighedTable(Protocol):
    """What the cost map reads of a result (a :class:`~qwk_explained.core.steps.Walkthrough`)."""

    @property
    def weighted_observed(self) -> NDArray[np.float64]: ...
    @property
    def weighted_expected(self) -> NDArray[np.float64]: ...
    @property
    def denominator(self) -> float: ...
    @property
    def kappa(self) -> float | None: ...


@dataclass(frozen=True, eq=False)
class CostMap:
    """Each cell's cost (adding up to 1 - kappa) and its signed cost against chance (to -kappa).

    Attributes
    ----------
    cost : ndarray of shape (N, N), float64
        ``w_ij O_ij / (n den)``: 0 on the diagonal and wherever O is 0, never negative.
    signed : ndarray of shape (N, N), float64
        ``w_ij (O_ij - E_ij) / (n den)``: positive where the raters disagree more than chance.
    kappa : float
        The kappa the map splits.
    """

    cost: NDArray[np.float64]
    signed: NDArray[np.float64]
    kappa: float

    def costliest(self, limit: int = 3) -> tuple[Cell, ...]:
        """Up to ``limit`` cells with a positive cost, costliest first (ties in reading order).

        >>> from qwk_explained.core.steps import walkthrough
        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> result.cost_map.costliest(2)
        ((4, 0), (3, 1))
        """
        flat = self.cost.ravel()
        order = np.argsort(-flat, kind="stable")
        size = self.cost.shape[0]
        return tuple((int(k) // size, int(k) % size) for k in order[:limit] if flat[k] > 0)

    def share(self, cells: tuple[Cell, ...]) -> float:
        """The cost of ``cells`` together: how much of 1 - kappa they carry."""
        return float(sum(self.cost[i, j] for i, j in cells))


def cost_map(result: WeighedTable) -> CostMap | None:
    """The cost map of a result, ``None`` when kappa is undefined (den = 0).

    Parameters
    ----------
    result : Walkthrough
        The computed steps (``weighted_observed``, ``weighted_expected``, ``denominator``,
        ``kappa``).

    Returns
    -------
    CostMap or None
        ``cost`` adds up to 1 - kappa and ``signed`` to -kappa.

    Examples
    --------
    On the adoption-speed example the four items rated 4 and predicted 0 carry 1.01 of the
    1.14 that kappa falls short of 1:

    >>> from qwk_explained.core.steps import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> costs = cost_map(result)
    >>> round(float(costs.cost[4, 0]), 4), round(float(costs.cost.sum()), 4)
    (1.0127, 1.1392)
    >>> round(float(costs.signed.sum()), 4) == round(-result.kappa, 4)
    True
    """
    if result.kappa is None or not result.denominator > 0:
        return None
    den = result.denominator
    cost = result.weighted_observed / den
    signed = (result.weighted_observed - result.weighted_expected) / den
    cost.setflags(write=False)
    signed.setflags(write=False)
    return CostMap(cost=cost, signed=signed, kappa=result.kappa)
