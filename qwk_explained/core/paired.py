r"""Two models rated on the same items: is the difference of their kappas real?

Everything is computed from one N x N x N table, :math:`T_{axy}` = the number of items with actual
rating a, model A's prediction x and model B's y (O(n) to count, then nothing depends on n):

* each model's walkthrough comes from a margin of T (:math:`O^A = \sum_y T_{\cdot\cdot y}`,
  :math:`O^B = \sum_x T_{\cdot x \cdot}`), so both share one scale;
* the **paired bootstrap** resamples items, i.e. draws T's counts from a multinomial, and takes
  :math:`\kappa_B^* - \kappa_A^*` from the same draw: the pairing (the same items for both
  models) is what makes the interval of the difference narrower than two separate intervals
  suggest;
* the **paired permutation test** asks how often a difference as large arises when, item by
  item, the two predictions are swapped at random (what the null hypothesis "A and B are
  interchangeable" allows). Swapping each of the :math:`T_{axy}` items of a cell with x ≠ y
  with probability 1/2 moves a Binomial(T_axy, 1/2) number of them to cell (a, y, x): one
  binomial draw per cell and permutation, O(B·N³) in all. The p-value is
  :math:`(1 + \#\{|d^*| \ge |d|\}) / (1 + B)` (Phipson and Smyth 2010), so it is never 0 and
  is exactly 1 when the two models agree on every item.

Resamples and permutations come from two generators spawned from one seed, so each is
reproducible and neither changes when the other's count changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .influence import influence
from .resampling import (
    Bootstrap,
    CellKappa,
    Grouping,
    check_confidence,
    check_resamples,
    check_seed,
    multinomial_draws,
    occupied_cells,
    summarise,
)
from .scale import rating_scale
from .steps import Walkthrough, _from_counts
from .types import RatingsLike, Scale, WeightingLike
from .validate import as_ratings

#: The two models, as the comparison names them.
Model = Literal["a", "b"]
#: The three columns of a comparison (error codes name the one at fault).
Column = Literal["actual", "model_a", "model_b"]
#: Items counted at a time into T: codes and blocks stay small at any n.
_BLOCK = 1 << 16


@dataclass(frozen=True)
class Permutation:
    """The paired permutation test of "A and B are interchangeable".

    ``p_value`` is two-sided; ``distribution`` holds the difference of each permutation where
    both kappas are defined (``undefined`` counts the others).
    """

    p_value: float
    permutations: int
    distribution: NDArray[np.float64]
    undefined: int


@dataclass(frozen=True, eq=False)
class Comparison:
    """Two models' predictions of the same items against the same actual ratings.

    Attributes
    ----------
    labels : ndarray of shape (N,), int64
        The scale shared by both models.
    n : int
        Number of items.
    table : ndarray of shape (N, N, N), int64
        T[a, x, y]: items rated a, predicted x by model A and y by model B (positions).
    a, b : Walkthrough
        Each model's walkthrough against the actual ratings, on the shared scale.
    difference : float or None
        ``kappa_b - kappa_a``, ``None`` when either kappa is undefined.
    disagreements : int
        Items on which the two models predict differently.
    a_closer, b_closer : int
        Items whose prediction by A (resp. B) is strictly closer to the actual rating (by the
        ratings' values).
    bootstrap : Bootstrap or None
        The paired bootstrap of the difference (percentile and BCa intervals).
    permutation : Permutation or None
        The paired permutation test.
    """

    labels: NDArray[np.int64]
    n: int
    table: NDArray[np.int64]
    a: Walkthrough
    b: Walkthrough
    difference: float | None
    disagreements: int
    a_closer: int
    b_closer: int
    bootstrap: Bootstrap | None
    permutation: Permutation | None

    @property
    def kappa_a(self) -> float | None:
        """Model A's kappa (``None`` when undefined)."""
        return self.a.kappa

    @property
    def kappa_b(self) -> float | None:
        """Model B's kappa (``None`` when undefined)."""
        return self.b.kappa

    def _models(self) -> tuple[tuple[Model, Walkthrough], ...]:
        return (("a", self.a), ("b", self.b))

    @property
    def undefined(self) -> tuple[Model, ...]:
        """The models whose kappa is undefined (a constant model, for example)."""
        return tuple(name for name, walk in self._models() if walk.kappa is None)

    @property
    def constant(self) -> tuple[Model, ...]:
        """The models that predict one rating for every item: their kappa is 0 by construction
        (such a model agrees with the actual ratings exactly as often as chance), or undefined
        when the actual ratings are that same rating too."""
        return tuple(name for name, walk in self._models()
                     if np.count_nonzero(walk.predicted_hist) == 1)

    @property
    def interval(self) -> tuple[float, float] | None:
        """The paired bootstrap's percentile interval of the difference, as (low, high)."""
        if self.bootstrap is None or self.bootstrap.percentile is None:
            return None
        return self.bootstrap.percentile.low, self.bootstrap.percentile.high

    @property
    def p_value(self) -> float | None:
        """The paired permutation test's two-sided p-value."""
        return None if self.permutation is None else self.permutation.p_value


def _column(values: RatingsLike, column: Column) -> NDArray[np.int64]:
    try:
        return as_ratings(values)
    except InputError as error:
        raise InputError(f"in_{column}", message=error) from None


def _shared_scale(actual: NDArray[np.int64], a: NDArray[np.int64], b: NDArray[np.int64],
                  scale: Scale, min_rating: int | None,
                  max_rating: int | None) -> NDArray[np.int64]:
    """One scale for the three columns: each model's own scale with the actual ratings, joined
    (and checked against the limit on the number of ratings)."""
    bounds = {"scale": scale, "min_rating": min_rating, "max_rating": max_rating}
    own_a = rating_scale(actual, a, **bounds)  # type: ignore[arg-type]
    own_b = rating_scale(actual, b, **bounds)  # type: ignore[arg-type]
    if scale == "range":
        labels = np.arange(min(own_a[0], own_b[0]), max(own_a[-1], own_b[-1]) + 1)
    else:
        labels = np.union1d(own_a, own_b)
    if labels.size > limits.MAX_RATINGS:
        raise InputError("too_many_ratings", count=int(labels.size), limit=limits.MAX_RATINGS)
    return labels.astype(np.int64)


def count_triples(actual: NDArray[np.int64], a: NDArray[np.int64], b: NDArray[np.int64],
                  labels: NDArray[np.int64]) -> NDArray[np.int64]:
    """T[a, x, y] in one pass over the items, block by block (no n-sized temporary)."""
    size = len(labels)
    counts = np.zeros(size**3, dtype=np.int64)
    consecutive = bool(size == labels[-1] - labels[0] + 1)
    for start in range(0, len(actual), _BLOCK):
        stop = start + _BLOCK
        if consecutive:
            ia, ix, iy = (v[start:stop] - labels[0] for v in (actual, a, b))
        else:
            ia, ix, iy = (np.searchsorted(labels, v[start:stop]) for v in (actual, a, b))
        counts += np.bincount((ia * size + ix) * size + iy, minlength=size**3)
    return counts.reshape(size, size, size)


def compare(
    actual: RatingsLike,
    a: RatingsLike,
    b: RatingsLike,
    *,
    weights: WeightingLike = "quadratic",
    scale: Scale = "range",
    min_rating: int | None = None,
    max_rating: int | None = None,
    resamples: int = limits.DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> Comparison:
    r"""Compare two models' weighted kappas on the same items, paired.

    Parameters
    ----------
    actual, a, b : array-like of int, or str
        The actual ratings of n items and the two models' predictions of the same items.
    weights : str or array-like of shape (N, N), default="quadratic"
        ``"quadratic"``, ``"linear"``, ``"unweighted"`` or a custom disagreement matrix.
    scale : {"range", "observed"}, default="range"
        The scale's convention (see :func:`~qwk_explained.walkthrough`), shared by both models:
        every rating of the three columns is on it.
    min_rating, max_rating : int, optional
        Declared ends of the scale.
    resamples : int, default=2000
        B, for the bootstrap and for the permutation test, between 100 and 100,000.
    seed : int, default=0
        Seed of the random generators: the same seed gives the same results.
    confidence : float, default=0.95
        Level of the bootstrap intervals.

    Returns
    -------
    Comparison
        Both kappas, their difference ``kappa_b - kappa_a`` with a paired bootstrap interval
        and a paired permutation p-value, and how many items the models disagree on. When a
        model's kappa is undefined (a constant prediction), its kappa is ``None``, what can be
        said of the other model is still there, and the difference, interval and p-value are
        ``None``.

    Raises
    ------
    InputError
        ``columns_length_mismatch`` for columns of different lengths; ``in_actual``,
        ``in_model_a`` or ``in_model_b`` (with the column's own problem as ``message``) for
        a column that is not whole-number ratings; the scale's and the settings' codes
        (``bad_resamples``, ``bad_seed``, ``bad_confidence``...).

    See Also
    --------
    qwk_explained.walkthrough : One model's kappa, step by step.

    Notes
    -----
    Looking at whether two separate confidence intervals overlap is not a test of the
    difference: the models were scored on the same items, so their kappas move together from
    one sample of items to another. Resampling the items once for both keeps that pairing.
    Both procedures are described in the module's docstring; B resamples cost O(B·N³),
    whatever n is.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani (1993), *An Introduction to the Bootstrap*, Chapman &
       Hall, chapters 13-15.
    .. [2] D. P. McKenzie, A. J. Mackinnon, N. Péladeau et al. (1996), "Comparing correlated
       kappas by resampling: is one level of agreement significantly different from another?",
       Journal of Psychiatric Research 30(6), 483-492.
    .. [3] B. Phipson and G. K. Smyth (2010), "Permutation p-values should never be zero",
       Statistical Applications in Genetics and Molecular Biology 9(1), article 39.

    Examples
    --------
    >>> actual = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1]
    >>> result = compare(actual, [0, 2, 1, 0, 0, 0, 1, 1, 2, 1], [3, 4, 3, 4, 4, 2, 1, 1, 2, 1],
    ...                  resamples=1000, seed=1)
    >>> round(result.kappa_a, 4), round(result.kappa_b, 4), round(result.difference, 4)
    (-0.1392, 0.8485, 0.9877)
    >>> result.disagreements, result.b_closer, result.a_closer
    (6, 6, 0)
    >>> result.p_value < 0.05
    True
    >>> compare(actual, actual, actual, resamples=100).p_value  # the same model twice
    1.0
    """
    resamples = check_resamples(resamples)
    seed = check_seed(seed)
    confidence = check_confidence(confidence)
    columns = {"actual": _column(actual, "actual"), "model_a": _column(a, "model_a"),
               "model_b": _column(b, "model_b")}
    lengths = {name: len(values) for name, values in columns.items()}
    if len(set(lengths.values())) > 1:
        raise InputError("columns_length_mismatch", **{f"n_{k}": v for k, v in lengths.items()})
    if not lengths["actual"]:
        raise InputError("empty")
    if lengths["actual"] > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=lengths["actual"], limit=limits.MAX_ITEMS)
    ratings, pred_a, pred_b = columns.values()
    labels = _shared_scale(ratings, pred_a, pred_b, scale, min_rating, max_rating)
    table = count_triples(ratings, pred_a, pred_b, labels)
    walk_a = _from_counts(table.sum(axis=2), labels, weights, ratings, pred_a)
    walk_b = _from_counts(table.sum(axis=1), labels, weights, ratings, pred_b)
    # Closer by the ratings' values, as a reader compares them (on an observed scale with gaps
    # positions and values can disagree about which prediction is nearer).
    gap = np.abs(labels[:, None] - labels[None, :])  # |a - x|
    closer_a = gap[:, :, None] < gap[:, None, :]
    agree = np.eye(len(labels), dtype=bool)
    difference = bootstrap = permutation = None
    if walk_a.kappa is not None and walk_b.kappa is not None:
        difference = walk_b.kappa - walk_a.kappa
        boot_rng, perm_rng = (np.random.default_rng(s)
                              for s in np.random.SeedSequence(seed).spawn(2))
        bootstrap = _paired_bootstrap(table, walk_a, walk_b, difference, resamples, boot_rng,
                                      confidence, seed)
        permutation = _permutation(table, walk_a, difference, resamples, perm_rng)
    table.setflags(write=False)
    return Comparison(
        labels=walk_a.labels, n=walk_a.n, table=table, a=walk_a, b=walk_b,
        difference=difference,
        disagreements=int(walk_a.n - table[:, agree].sum()),
        a_closer=int(table[closer_a].sum()),
        b_closer=int(table[closer_a.transpose(0, 2, 1)].sum()),
        bootstrap=bootstrap, permutation=permutation,
    )


def _paired_bootstrap(table: NDArray[np.int64], walk_a: Walkthrough, walk_b: Walkthrough,
                      difference: float, resamples: int, rng: np.random.Generator,
                      confidence: float, seed: int) -> Bootstrap:
    """kappa_B* - kappa_A* over multinomial draws of T's occupied cells, with BCa's
    acceleration from the jackknife of the difference (one value per cell of T)."""
    actual, x, y, counts = occupied_cells(table)
    kappa_a = CellKappa(actual, x, walk_a.weights)
    kappa_b = CellKappa(actual, y, walk_b.weights)
    n = walk_a.n
    values = multinomial_draws(counts, resamples, rng,
                               lambda drawn: (kappa_b(drawn, n) - kappa_a(drawn, n))[:, None])
    # Without one item of cell (a, x, y): A loses it from its cell (a, x), B from (a, y).
    jackknife = influence(walk_b).without[actual, y] - influence(walk_a).without[actual, x]
    return summarise(difference, values[:, 0], confidence=confidence, resamples=resamples,
                     seed=seed, jackknife=jackknife, jackknife_counts=counts)


def _permutation(table: NDArray[np.int64], walk_a: Walkthrough, difference: float,
                 resamples: int, rng: np.random.Generator) -> Permutation:
    """The paired permutation test: swap A's and B's predictions of each item with
    probability 1/2, a binomial draw per cell of T where they differ."""
    size = table.shape[0]
    actual, x, y, counts = occupied_cells(table)
    differ = x != y
    actual, x, y, counts = actual[differ], x[differ], y[differ], counts[differ]
    w = walk_a.weights
    n = walk_a.n
    h_a = walk_a.actual_hist.astype(np.float64)
    chance_weights = h_a @ w  # C = (h^a W) . h^p for either model: h^a never moves
    # Swapping one item of (a, x, y): A's prediction becomes y and B's x.
    step_a = w[actual, y] - w[actual, x]
    to_y, from_x = Grouping(y, size), Grouping(x, size)
    sum_a = float((w * walk_a.observed).sum())
    sum_b = float((w * table.sum(axis=1)).sum())
    hist_a = walk_a.predicted_hist.astype(np.float64)
    hist_b = table.sum(axis=(0, 1)).astype(np.float64)
    values = np.zeros(resamples)  # A = B on every item: nothing to swap, every d* is 0
    block = max(1, (1 << 18) // max(len(counts), 1))
    for start in range(0, resamples if len(counts) else 0, block):
        swapped = rng.binomial(counts, 0.5, size=(min(block, resamples - start), len(counts)))
        shift = swapped @ step_a
        moved = to_y.sums(swapped) - from_x.sums(swapped)  # A's histogram gains at y, loses at x
        chance_a = (hist_a + moved) @ chance_weights
        chance_b = (hist_b - moved) @ chance_weights
        with np.errstate(divide="ignore", invalid="ignore"):
            kappa_a = np.where(chance_a > 0, 1.0 - n * (sum_a + shift) / chance_a, np.nan)
            kappa_b = np.where(chance_b > 0, 1.0 - n * (sum_b - shift) / chance_b, np.nan)
        values[start:start + len(swapped)] = kappa_b - kappa_a
    defined = values[np.isfinite(values)]
    defined.setflags(write=False)
    # |d*| >= |d|, with room for the rounding of a tie (A = B gives d* = d = 0 exactly).
    tolerance = 1e-12 * max(1.0, abs(difference))
    extreme = int(np.count_nonzero(np.abs(defined) >= abs(difference) - tolerance))
    return Permutation(p_value=(1 + extreme) / (1 + defined.size), permutations=resamples,
                       distribution=defined, undefined=resamples - defined.size)
