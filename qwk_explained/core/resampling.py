r"""Inference by re-pairing the raters' ratings: the exact permutation test of chance agreement.

The z test of :mod:`.stats` leans on a normal approximation that needs about 2k² items (k ratings
in use; Cicchetti and Fleiss 1977). With fewer, the exact test is better: under the null
hypothesis the pairing of the actual and the predicted ratings is random while each rater's own
ratings (the margins of O) stay as they are. Every pairing is equally likely, so a table T of
counts with those margins has the multivariate hypergeometric probability

.. math::

    P(T) = \frac{\prod_i h^a_i! \, \prod_j h^p_j!}{n! \, \prod_{i,j} T_{ij}!},

and the p-value is the probability of a kappa at least as far from 0 as the observed one. The
margins fix den, so kappa = 1 - num/den is decided by num = Σ w T / n, which is linear in T: the
distribution is worked out exactly, row by row, over the column counts still to be placed (a
dynamic programme, with whole numbers until the final division), never by drawing samples. The
module is the home of such resampling inference; a bootstrap interval and a paired permutation
test belong beside this one.

References: Mielke and Berry (2007), *Permutation Methods*, 2nd ed., ch. 6 (exact tests of
agreement with fixed margins); Cicchetti and Fleiss (1977), Applied Psychological Measurement 1,
195-201.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .stats import CountedTable

__all__ = ["EXACT_MAX_ITEMS", "PermutationTest", "exact_permutation_test"]

#: Up to this many items the exact test is offered beside the z test: below 2k² items for every
#: k > 2, and small enough that every table is worked out at once.
EXACT_MAX_ITEMS = 12
#: Two kappas closer than this are the same kappa (one table reached by different sums).
_TIE = 1e-9
#: Largest weighted sum counted in an array (larger ones, from odd custom weights, in a mapping).
_MAX_SUM = 1_000_000


@dataclass(frozen=True)
class PermutationTest:
    """The exact permutation test of kappa against chance agreement, margins fixed.

    ``p_value`` is two-sided: the probability, over every pairing of the two raters' ratings,
    of a kappa at least as far from 0 as ``kappa`` (the z test's |z| >= |z observed|, since SE0
    depends on the margins only).
    """

    kappa: float
    p_value: float


def exact_permutation_test(result: CountedTable,
                           max_items: int = EXACT_MAX_ITEMS) -> PermutationTest | None:
    """The exact permutation test of ``result``'s kappa, or ``None`` when kappa is undefined or
    there are more than ``max_items`` items.

    Parameters
    ----------
    result : Walkthrough
        The computed steps (anything with ``n``, ``kappa``, ``weights``, ``actual_hist`` and
        ``predicted_hist``).
    max_items : int, default=EXACT_MAX_ITEMS
        The largest n the test is worked out for.

    Examples
    --------
    >>> from qwk_explained import walkthrough
    >>> exact_permutation_test(walkthrough([0, 1, 2], [0, 2, 1]))  # every pairing: |kappa| >= 0.5
    PermutationTest(kappa=0.5, p_value=1.0)
    >>> pairs = walkthrough([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2])  # kappa 1; -1 when reversed
    >>> round(exact_permutation_test(pairs).p_value, 4)  # 2 of the 90 pairings, 2/90
    0.0222
    """
    if result.kappa is None or result.n > max_items:
        return None
    n = result.n
    rows = [int(count) for count in result.actual_hist]
    columns = [int(count) for count in result.predicted_hist]
    whole = _whole_weights(np.asarray(result.weights, dtype=np.float64), n)
    # kappa = 1 - (S / n) / den with den = Σ w h^a h^p / n², the same for every table with
    # these margins: 1 - S n / Σ w h^a h^p, in the units of the whole weights.
    chance = float(np.outer(rows, columns).ravel() @ whole.ravel()) / n
    counts = _distribution(whole, rows, columns)
    total = sum(counts.values())
    observed = abs(result.kappa)
    extreme = sum(count for value, count in counts.items()
                  if abs(1.0 - value / chance) >= observed - _TIE * max(1.0, observed))
    return PermutationTest(float(result.kappa), float(Fraction(extreme, total)))


def _whole_weights(weights: NDArray[np.float64],
                   n: int) -> NDArray[np.int64] | NDArray[np.float64]:
    """The weights times the smallest factor that makes them whole numbers ((N - 1)² for
    quadratic ones), so that the sums are counted exactly and quickly; a custom matrix that
    no small factor makes whole stays as it is."""
    fractions = [Fraction(float(w)).limit_denominator(10_000) for w in weights.ravel()]
    if all(abs(float(f) - float(w)) < 1e-12 for f, w in zip(fractions, weights.ravel(),
                                                              strict=True)):
        scale = math.lcm(*(f.denominator for f in fractions))
        whole = np.array([int(f * scale) for f in fractions], dtype=np.int64)
        if whole.max(initial=0) * n <= _MAX_SUM:
            return whole.reshape(weights.shape)
    return weights


def _distribution(weights: NDArray[Any], rows: list[int],
                  columns: list[int]) -> dict[float, int]:
    """How many pairings give each value of Σ w T (the tables' weighted disagreement, in counts
    of items): row by row, every way of spreading the row's items over the column counts still
    free, weighted by the number of ways to pick those items (a product of binomials). Whole
    weights keep the counts in an array indexed by the sum; others in a mapping."""
    whole = weights.dtype.kind == "i"
    size = int(weights.max(initial=0)) * sum(rows) + 1 if whole else 0
    # Counts of pairings reach n! / prod(row counts!): machine integers hold them up to n = 20.
    kind = np.int64 if math.factorial(sum(rows)) < 2**62 else object
    start: Any = np.zeros(size, dtype=kind) if whole else {0.0: 1}
    if whole:
        start[0] = 1
    states: dict[tuple[int, ...], Any] = {tuple(columns): start}
    for i, row in enumerate(rows):
        following: dict[tuple[int, ...], Any] = {}
        for free, distribution in states.items():
            for taken in _spreads(row, free):
                ways = 1
                for take, left in zip(taken, free, strict=True):
                    ways *= comb(left, take)
                rest = tuple(left - take for left, take in zip(free, taken, strict=True))
                if whole:
                    added = int(np.dot(weights[i], taken))
                    shifted = np.zeros(size, dtype=kind)
                    shifted[added:] = distribution[:size - added] * ways
                    following[rest] = following[rest] + shifted if rest in following else shifted
                    continue
                step = float(np.dot(weights[i], taken))
                target = following.setdefault(rest, {})
                for value, count in distribution.items():
                    key = round(value + step, 9)
                    target[key] = target.get(key, 0) + count * ways
        states = following
    (distribution,) = states.values()
    if whole:
        return {float(value): int(count) for value, count in enumerate(distribution) if count}
    return dict(distribution)


def _spreads(items: int, free: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way of putting ``items`` into columns with room ``free`` (counts per column)."""
    if not free:
        if items == 0:
            yield ()
        return
    room_after = sum(free[1:])
    for first in range(max(0, items - room_after), min(items, free[0]) + 1):
        for rest in _spreads(items - first, free[1:]):
            yield (first, *rest)
