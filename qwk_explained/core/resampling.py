r"""Inference by resampling: the bootstrap over items, drawn as cell counts, and the exact
permutation test of chance agreement.

**The bootstrap: B resamples in O(B·N²), whatever n is.**
Resampling n items with replacement and counting their cells gives a multinomial draw of the
cell counts with probabilities O_ij / n, and kappa depends on the items only through those counts.
So instead of B passes over n items (what ``scipy.stats.bootstrap`` or a loop over
``cohen_kappa_score`` does), each resample is one multinomial draw over the occupied cells of the
table (at most N² cells for one kappa, N³ for a paired comparison of two models), and kappa
follows from the drawn counts with matrix products. The draws come from numpy's
``Generator(PCG64)`` seeded with ``seed``, so a seed gives the same resamples on every machine.

Two intervals come from the resampled values (Efron and Tibshirani 1993):

* **percentile**: the alpha/2 and 1 - alpha/2 quantiles of the bootstrap values;
* **BCa** (bias-corrected and accelerated, chapter 14): the same quantiles, moved by the bias
  correction :math:`z_0 = \Phi^{-1}(\#\{\hat\theta^* < \hat\theta\} / B)` (ties count half) and
  the acceleration :math:`a = \sum d^3 / (6 (\sum d^2)^{3/2})`, with :math:`d` the jackknife
  deviations, which :mod:`.influence` gives per cell (items of a cell share their jackknife
  value, so the sums run over cells, weighted by their counts).

A resample whose kappa is undefined (all resampled items in one row, say) is left out and
counted in ``undefined``.

**The exact permutation test.** The z test of :mod:`.stats` leans on a normal approximation that
needs about 2k² items (k ratings in use; Cicchetti and Fleiss 1977). With fewer, the exact test is
better: under the null hypothesis the pairing of the actual and the predicted ratings is random
while each rater's own ratings (the margins of O) stay as they are. Every pairing is equally
likely, so a table T of counts with those margins has the multivariate hypergeometric probability

.. math::

    P(T) = \frac{\prod_i h^a_i! \, \prod_j h^p_j!}{n! \, \prod_{i,j} T_{ij}!},

and the p-value is the probability of a kappa at least as far from 0 as the observed one. The
margins fix den, so kappa = 1 - num/den is decided by num = Σ w T / n, which is linear in T: the
distribution is worked out exactly, row by row, over the column counts still to be placed (a
dynamic programme, with whole numbers until the final division), never by drawing samples.

References: Mielke and Berry (2007), *Permutation Methods*, 2nd ed., ch. 6 (exact tests of
agreement with fixed margins); Cicchetti and Fleiss (1977), Applied Psychological Measurement 1,
195-201.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .influence import CountsTable, influence
from .stats import CountedTable

#: Cells times resamples drawn at once: a block of draws stays a few megabytes at any B and N.
_BLOCK_CELLS = 1 << 18


@dataclass(frozen=True)
class Interval:
    """A confidence interval ``[low, high]``."""

    low: float
    high: float

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | float) and self.low <= value <= self.high


@dataclass(frozen=True, eq=False)
class Bootstrap:
    """The bootstrap distribution of a statistic (a kappa, or a difference of two kappas).

    Attributes
    ----------
    estimate : float
        The statistic on the data itself.
    confidence : float
        Level of both intervals, e.g. 0.95.
    resamples : int
        B, the resamples drawn.
    seed : int
        The random generator's seed: the same seed gives the same resamples.
    distribution : ndarray of shape (B - undefined,), float64
        The statistic of each resample where it is defined, in the order drawn.
    undefined : int
        Resamples where the statistic is 0/0 (left out of the intervals).
    percentile : Interval or None
        The percentile interval (``None`` when no resample is defined).
    bca : Interval or None
        The BCa interval; ``None`` when it cannot be formed (every resample on one side of the
        estimate, or an undefined jackknife value).
    bias_correction, acceleration : float or None
        BCa's z0 and a.
    """

    estimate: float
    confidence: float
    resamples: int
    seed: int
    distribution: NDArray[np.float64]
    undefined: int
    percentile: Interval | None
    bca: Interval | None
    bias_correction: float | None
    acceleration: float | None

    @property
    def se(self) -> float | None:
        """The bootstrap standard error: the standard deviation of the resampled values."""
        if self.distribution.size < 2:
            return None
        return float(self.distribution.std(ddof=1))

    @property
    def skewness(self) -> float | None:
        """Skewness of the resampled values (0 for a symmetric distribution)."""
        values = self.distribution
        spread = values.std()
        if values.size < 3 or spread == 0:
            return None
        return float((((values - values.mean()) / spread) ** 3).mean())

    def p_value(self, null: float) -> float | None:
        """Two-sided p-value of ``statistic = null``, from the percentile interval inverted:
        twice the share of resampled values on the far side of ``null`` (at most 1). The
        smallest p it can give is 1/B; 0 means below that.

        >>> boot = Bootstrap(0.5, 0.95, 4, 0, np.array([0.2, 0.4, 0.6, 0.8]), 0, None, None,
        ...                  None, None)
        >>> boot.p_value(0.3), boot.p_value(0.9)
        (0.5, 0.0)
        """
        values = self.distribution
        if not values.size:
            return None
        low = int(np.count_nonzero(values <= null))
        high = int(np.count_nonzero(values >= null))
        return min(1.0, 2.0 * min(low, high) / values.size)


def check_resamples(resamples: Any) -> int:
    """``resamples`` as an int within ``MIN_RESAMPLES..MAX_RESAMPLES``, else ``bad_resamples``."""
    if (isinstance(resamples, bool) or not isinstance(resamples, int | np.integer)
            or not limits.MIN_RESAMPLES <= resamples <= limits.MAX_RESAMPLES):
        raise InputError("bad_resamples", value=str(resamples), low=limits.MIN_RESAMPLES,
                         high=limits.MAX_RESAMPLES)
    return int(resamples)


def check_seed(seed: Any) -> int:
    """``seed`` as an int within ``0..MAX_SEED``, else ``bad_seed``."""
    if (isinstance(seed, bool) or not isinstance(seed, int | np.integer)
            or not 0 <= seed <= limits.MAX_SEED):
        raise InputError("bad_seed", value=str(seed), high=limits.MAX_SEED)
    return int(seed)


def check_confidence(confidence: Any) -> float:
    """``confidence`` strictly between 0 and 1, else ``bad_confidence``."""
    if (isinstance(confidence, bool) or not isinstance(confidence, int | float)
            or not 0 < confidence < 1):
        raise InputError("bad_confidence", value=str(confidence))
    return float(confidence)


class Grouping:
    """Sums of per-cell counts by a key of each cell (its row, its column...), for many tables
    at once: ``sums(counts)[b, key]`` adds the counts of table b's cells with that key."""

    def __init__(self, keys: NDArray[np.int64], size: int) -> None:
        self.order = np.argsort(keys, kind="stable")
        self.present, self.starts = np.unique(keys[self.order], return_index=True)
        self.size = size
        self.sorted = bool((self.order == np.arange(len(keys))).all())

    def compact(self, counts: NDArray[Any]) -> NDArray[Any]:
        """The sums for the keys that occur only (``present``), shape (tables, len(present))."""
        ordered = counts if self.sorted else counts[:, self.order]
        return np.add.reduceat(ordered, self.starts, axis=1)

    def sums(self, counts: NDArray[Any]) -> NDArray[np.float64]:
        """The sums for every key 0..size-1, shape (tables, size)."""
        out = np.zeros((counts.shape[0], self.size))
        out[:, self.present] = self.compact(counts)
        return out


class CellKappa:
    """Kappa of many tables that share their occupied cells, from the cells' counts.

    ``rows[k]`` and ``cols[k]`` are the positions of cell k; for a table of counts ``x``
    (one row per table), kappa = 1 - n S / C with S = sum_k w[rows_k, cols_k] x_k and
    C = h^a W h^p (the margins summed from x): O(cells + N²) per table. C is a sum of
    non-negative terms, so it is 0 exactly when kappa is undefined (NaN then).
    """

    def __init__(self, rows: NDArray[np.int64], cols: NDArray[np.int64],
                 weights: NDArray[np.float64]) -> None:
        size = weights.shape[0]
        self.cell_weights = weights[rows, cols]
        self.by_row = Grouping(rows, size)
        self.by_col = Grouping(cols, size)
        self.weights = weights[np.ix_(self.by_row.present, self.by_col.present)]

    def __call__(self, counts: NDArray[np.int64], n: int) -> NDArray[np.float64]:
        weighted_sum = counts @ self.cell_weights
        h_a = self.by_row.compact(counts)
        h_p = self.by_col.compact(counts)
        chance = ((h_a @ self.weights) * h_p).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(chance > 0, 1.0 - n * weighted_sum / chance, np.nan)


#: A statistic of many resampled tables: counts of shape (b, cells) -> values of shape (b, m).
Statistic = Callable[[NDArray[np.int64]], NDArray[np.float64]]


def multinomial_draws(counts: NDArray[np.int64], resamples: int, rng: np.random.Generator,
                      statistic: Statistic) -> NDArray[np.float64]:
    """The statistic of ``resamples`` multinomial draws of n = ``counts.sum()`` items over the
    cells (probabilities ``counts / n``), block by block: shape (resamples, m).

    The draws are the same whatever the block size (numpy draws them one table after another).
    """
    n = int(counts.sum())
    probabilities = counts / n
    block = max(1, _BLOCK_CELLS // max(len(counts), 1))
    parts = []
    for start in range(0, resamples, block):
        drawn = rng.multinomial(n, probabilities, size=min(block, resamples - start))
        parts.append(statistic(drawn))
    return np.concatenate(parts)


def acceleration(jackknife: NDArray[np.float64], counts: NDArray[np.int64]) -> float | None:
    r"""BCa's acceleration from jackknife values given per cell, each shared by ``counts`` items:
    :math:`a = \sum d^3 / (6 (\sum d^2)^{3/2})` with :math:`d = \bar\theta_{(\cdot)} - \theta_{(k)}`
    over the n items (Efron and Tibshirani 1993, eq. 14.15). ``None`` when a jackknife value is
    undefined; 0 when every value is the same.

    >>> acceleration(np.array([0.1, 0.3]), np.array([1, 1]))
    0.0
    """
    if not np.isfinite(jackknife).all():
        return None
    n = int(counts.sum())
    deviations = float(counts @ jackknife) / n - jackknife
    spread = float(counts @ deviations**2)
    if spread <= 0:
        return 0.0
    return float(counts @ deviations**3) / (6.0 * spread * math.sqrt(spread))


def summarise(estimate: float, values: NDArray[np.float64], *, confidence: float,
              resamples: int, seed: int, jackknife: NDArray[np.float64],
              jackknife_counts: NDArray[np.int64]) -> Bootstrap:
    """The intervals of a bootstrap distribution (NaN values are the undefined resamples)."""
    defined = values[np.isfinite(values)]
    defined.setflags(write=False)
    alpha = 1.0 - confidence
    if not defined.size:
        return Bootstrap(estimate, confidence, resamples, seed, defined, resamples, None, None,
                         None, None)
    low, high = np.quantile(defined, [alpha / 2, 1 - alpha / 2])
    percentile = Interval(float(low), float(high))
    # Bias correction: the share of resampled values below the estimate, ties counted half.
    below = (np.count_nonzero(defined < estimate)
             + np.count_nonzero(defined <= estimate)) / (2 * defined.size)
    accel = acceleration(jackknife, jackknife_counts)
    bca = z0 = None
    if 0 < below < 1:
        z0 = NormalDist().inv_cdf(below)
        if accel is not None:
            bca = _bca(defined, z0, accel, alpha)
    return Bootstrap(estimate, confidence, resamples, seed, defined, resamples - defined.size,
                     percentile, bca, z0, accel)


def _bca(values: NDArray[np.float64], z0: float, accel: float, alpha: float) -> Interval | None:
    """The BCa quantiles (Efron and Tibshirani 1993, eq. 14.10), ``None`` where the adjusted
    level leaves (0, 1) (an acceleration too large for the bias correction)."""
    normal = NormalDist()
    levels = []
    for tail in (alpha / 2, 1 - alpha / 2):
        shifted = z0 + normal.inv_cdf(tail)
        stretch = 1.0 - accel * shifted
        if stretch <= 0:
            return None
        levels.append(normal.cdf(z0 + shifted / stretch))
    if not all(0 < level < 1 and math.isfinite(level) for level in levels):
        return None
    low, high = np.quantile(values, levels)
    return Interval(float(low), float(high))


def occupied_cells(table: NDArray[np.int64]) -> tuple[NDArray[np.int64], ...]:
    """The positions of the non-empty cells of a table (one array per axis, in reading order)
    and their counts: only these cells can be drawn."""
    where = np.nonzero(table)
    return (*(axis.astype(np.int64) for axis in where), table[where].astype(np.int64))


def bootstrap(result: CountsTable, resamples: int = limits.DEFAULT_RESAMPLES, *,
              seed: int = 0, confidence: float = 0.95) -> Bootstrap | None:
    r"""The bootstrap distribution of kappa over items, and its percentile and BCa intervals.

    Parameters
    ----------
    result : Walkthrough
        The computed steps; its scale and weights are kept in every resample.
    resamples : int, default=2000
        B, between ``MIN_RESAMPLES`` (100) and ``MAX_RESAMPLES`` (100,000).
    seed : int, default=0
        Seed of numpy's PCG64 generator: the same seed gives the same resamples.
    confidence : float, default=0.95
        Level of the intervals, strictly between 0 and 1.

    Returns
    -------
    Bootstrap or None
        ``None`` when kappa itself is undefined.

    Raises
    ------
    InputError
        ``bad_resamples``, ``bad_seed`` or ``bad_confidence``.

    Notes
    -----
    Each resample draws n items with replacement; its cell counts are one multinomial draw
    :math:`O^* \sim \mathrm{Mult}(n, O / n)`, which is drawn directly (module docstring), so
    B resamples cost O(B·N²) whatever n is.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani (1993), *An Introduction to the Bootstrap*, Chapman &
       Hall, chapters 13 (percentile) and 14 (BCa).

    Examples
    --------
    >>> from qwk_explained.core.steps import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> boot = bootstrap(result, 1000, seed=7)
    >>> boot.resamples, boot.seed, boot.percentile.low < result.kappa < boot.percentile.high
    (1000, 7, True)
    >>> bootstrap(result, 1000, seed=7).distribution.tolist() == boot.distribution.tolist()
    True
    """
    resamples = check_resamples(resamples)
    seed = check_seed(seed)
    confidence = check_confidence(confidence)
    if result.kappa is None:
        return None
    rows, cols, counts = occupied_cells(result.observed)
    kappa_of = CellKappa(rows, cols, result.weights)
    n = result.n
    values = multinomial_draws(counts, resamples, np.random.default_rng(seed),
                               lambda drawn: kappa_of(drawn, n)[:, None])[:, 0]
    jackknife = influence(result).without[rows, cols]
    return summarise(result.kappa, values, confidence=confidence, resamples=resamples,
                     seed=seed, jackknife=jackknife, jackknife_counts=counts)


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
