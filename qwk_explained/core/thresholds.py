r"""From scores to ratings: cut points, and the cut points that maximize weighted kappa.

A model that predicts a continuous score (a regressor's output) is scored with kappa after its
scores are cut into the N ratings of the scale by N - 1 cut points :math:`c_1 \le \dots \le
c_{N-1}`: an item whose score :math:`x` is at least :math:`c_k` and below :math:`c_{k+1}` gets
the k-th rating. A score equal to a cut point goes up, as in Kaggle's OptimizedRounder
(``pred >= coef[k]``); equal cut points leave the ratings between them empty.

**The search.** Kappa depends on the cut points only through which side of each cut every score
falls, so it changes only where a cut crosses a score, and only the midpoints between distinct
sorted scores need to be tried. With the items sorted once by score, moving cut k across a run of
items moves exactly those items between ratings k - 1 and k, so O's numerator and its margin
change incrementally:

.. math::

    \Delta \text{num} = \sum_{\text{items moved}} (D_{a,k-1} - D_{a,k}), \qquad
    \Delta \text{chance} = m\, (r_{k-1} - r_k), \qquad r_j = \sum_i h^{\text{actual}}_i D_{ij},

where D is the integer distance matrix of the weighting (:math:`(i-j)^2`, :math:`|i-j|` or
:math:`[i \ne j]`, the weights without their common factor, which cancels in kappa), m the
number of items moved and :math:`\kappa = 1 - n\,\text{num}/\text{chance}`. A prefix sum over
the items between cut k's neighbours gives num and chance for every position of cut k at once,
in O(n). The search takes each cut in turn, moves it to its best position between its
neighbours, and repeats until a whole pass moves no cut. It starts from plain rounding (cuts at
r + 1/2) and from the quantile cuts that reproduce the actual ratings' histogram, and keeps the
best.

**What it guarantees.** The cut points it returns are a coordinate-wise optimum over the
midpoints between distinct scores: no single cut point can be moved anywhere between its
neighbours, onto them included, to raise kappa. Each move raises kappa strictly, so its kappa is
at least that of every start, and the search ends. Cut points never cross (each moves only
between its neighbours). Sums are exact integers; a move is decided by comparing the fractions
num/chance exactly, so float rounding never moves a cut. Items with the same score always get
the same rating (no cut can separate them). The ratings it gives the scores it was fitted on
depend on the scores only through their order, except for the rounding start, which reads them on
the ratings' scale; the cut values, midpoints, are values, and place new scores by value.

**What it does not guarantee.** A global optimum: moving two cut points at once can raise kappa
where moving either alone does not. The starts make a poor local optimum unlikely, not
impossible.

**Cross-validation.** Cuts fitted on the data they are scored on are optimistic: they fit that
sample's noise. With ``folds`` = k the items are dealt into k parts, stratified by actual rating
with the random generator seeded by ``seed``; for each part, cut points are searched on the
other k - 1 parts and applied to the held-out part. ``cv_kappa`` is the kappa of the n
out-of-fold ratings pooled, not the mean of the k fold kappas: kappa is a ratio of sums, so a
mean of ratios is the kappa of no set of predictions, and a small fold's kappa is noisy or
undefined (a fold with one actual rating). The pooled kappa scores every item once, with cut
points that never saw it, on the same items and margins as the in-sample kappa, so the
difference between the two (the optimism) is what the tuning fitted to noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .parse import IntArray, shorten
from .scale import rating_scale
from .scores import FloatArray, as_scores
from .types import WEIGHTINGS, RatingsLike, Weighting, is_weighting
from .validate import as_ratings, unmasked

#: Where a search starts: plain rounding, or the quantiles of the actual ratings' histogram.
StartName = Literal["rounding", "quantiles"]
STARTS: tuple[StartName, ...] = get_args(StartName)

__all__ = ["STARTS", "Start", "Thresholds", "apply_thresholds", "check_scores",
           "optimize_thresholds", "quantile_cuts", "rounding_cuts", "stratified_folds"]


@dataclass(frozen=True)
class Start:
    """One start of the search: its cut points, their kappa, and the kappa the search reached."""

    name: StartName
    cuts: tuple[float, ...]
    kappa: float
    fitted_kappa: float


@dataclass(frozen=True)
class Thresholds:
    """Cut points that turn scores into ratings, their kappa and its cross-validated value.

    Made by :func:`optimize_thresholds`.

    Attributes
    ----------
    cuts : tuple of float
        The N - 1 cut points, non-decreasing: a score at least ``cuts[k]`` and below
        ``cuts[k + 1]`` gets rating ``min_rating + k + 1``.
    kappa : float
        Kappa of these cut points on the data they were fitted on (in-sample).
    cv_kappa : float or None
        Kappa of the pooled out-of-fold ratings (see the module's notes); ``None`` when
        ``folds`` is 0.
    fold_kappas : tuple of (float or None)
        Kappa of each held-out part alone (``None`` where it is undefined), for a look at their
        spread.
    min_rating, max_rating : int
        The ends of the rating scale.
    weights : {"quadratic", "linear", "unweighted"}
        The weighting kappa was computed with.
    folds, seed : int
        The cross-validation's number of parts and the random generator's seed.
    n, distinct_scores : int
        Number of items and of distinct scores.
    actual_hist, predicted_hist : tuple of int
        How many items have each actual rating, and how many the cut points give each rating.
    start : {"rounding", "quantiles"}
        The start the kept cut points came from.
    starts : tuple of Start
        Every start, with its own kappa and the kappa reached from it.
    """

    cuts: tuple[float, ...]
    kappa: float
    cv_kappa: float | None
    fold_kappas: tuple[float | None, ...]
    min_rating: int
    max_rating: int
    weights: Weighting
    folds: int
    seed: int
    n: int
    distinct_scores: int
    actual_hist: tuple[int, ...]
    predicted_hist: tuple[int, ...]
    start: StartName
    starts: tuple[Start, ...]

    @property
    def optimism(self) -> float | None:
        """In-sample kappa minus cross-validated kappa: how much the tuning fitted to noise."""
        return None if self.cv_kappa is None else self.kappa - self.cv_kappa

    def predict(self, scores: Any) -> IntArray:
        """The ratings these cut points give ``scores`` (see :func:`apply_thresholds`)."""
        return apply_thresholds(scores, self.cuts, min_rating=self.min_rating)


def _check_cuts(cuts: Any) -> FloatArray:
    cuts = unmasked(cuts)
    if np.iscomplexobj(cuts):  # casting would drop the imaginary part with only a warning
        raise InputError("bad_cuts")
    try:
        values = np.asarray(cuts, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("bad_cuts") from None
    if (values.ndim != 1 or values.size == 0 or values.size >= limits.MAX_RATINGS
            or not np.isfinite(values).all() or (np.diff(values) < 0).any()):
        raise InputError("bad_cuts")
    return values


def apply_thresholds(scores: Any, cuts: Any, *, min_rating: int = 0) -> IntArray:
    """Cut scores into ratings.

    Parameters
    ----------
    scores : array-like of float, or str
        The scores (finite numbers).
    cuts : array-like of float
        The N - 1 cut points, non-decreasing.
    min_rating : int, default=0
        The lowest rating: a score below the first cut point gets it.

    Returns
    -------
    ndarray of shape (n,), int64
        ``min_rating`` plus the number of cut points at or below each score: a score equal to a
        cut point goes up, as in Kaggle's OptimizedRounder.

    Raises
    ------
    InputError
        For bad scores (see :func:`~.scores.as_scores`), ``bad_cuts`` for cut points that
        are not finite and non-decreasing, or more than the largest scale allows, and a
        ``min_rating`` that is no rating (checked as ratings are).

    Examples
    --------
    >>> apply_thresholds([0.2, 1.5, 2.49, 3.7], [0.5, 1.5, 2.5]).tolist()
    [0, 2, 2, 3]
    >>> apply_thresholds([0.2, 1.5], [1.0, 1.0, 2.0], min_rating=1).tolist()  # rating 2 empty
    [1, 3]
    """
    values = as_scores(scores)
    edges = _check_cuts(cuts)
    lowest = int(as_ratings([min_rating])[0])
    return np.searchsorted(edges, values, side="right").astype(np.int64) + lowest


def rounding_cuts(min_rating: int, max_rating: int) -> tuple[float, ...]:
    """Plain rounding as cut points: r + 1/2 between ratings r and r + 1.

    >>> rounding_cuts(1, 4)
    (1.5, 2.5, 3.5)
    """
    return tuple(float(r) + 0.5 for r in range(int(min_rating), int(max_rating)))


def _distances(weights: Weighting, size: int) -> NDArray[np.int64]:
    """The weighting's distances as integers: its weights times (N-1)^2, N-1 or 1."""
    positions = np.arange(size, dtype=np.int64)
    gap: NDArray[np.int64] = np.abs(positions[:, None] - positions[None, :])
    if weights == "quadratic":
        return gap * gap
    if weights == "linear":
        return gap
    return (gap > 0).astype(np.int64)


class _Sorted:
    """Items sorted by score and grouped by equal scores: what every search reads.

    A cut point is a *position* t in 0..m (m distinct scores): the number of distinct scores
    below it. ``bounds[t]`` is the number of items below it.
    """

    def __init__(self, actual: NDArray[np.int64], scores: FloatArray, order: NDArray[np.int64],
                 distances: NDArray[np.int64]) -> None:
        # Positions on the scale (N <= 50 fits a byte), in score order.
        self.actual = actual[order].astype(np.int8)
        ordered = scores[order]
        starts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
        self.bounds = np.concatenate(([0], starts, [len(ordered)])).astype(np.int64)
        self.distinct = ordered[self.bounds[:-1]]
        self.distances = distances
        size = distances.shape[0]
        self.hist = np.bincount(self.actual, minlength=size).astype(np.int64)
        self.r = self.hist @ distances  # chance = sum_j r_j * predicted_hist_j

    @property
    def m(self) -> int:
        return len(self.distinct)

    def positions(self, cuts: Sequence[float] | FloatArray) -> NDArray[np.int64]:
        """Positions of cut values: how many distinct scores lie below each."""
        return np.searchsorted(self.distinct, np.asarray(cuts, dtype=np.float64),
                               side="left").astype(np.int64)

    def quantile_positions(self) -> NDArray[np.int64]:
        """The positions whose item counts below come closest to the actual ratings' cumulative
        histogram (ties towards fewer items), so the predicted histogram copies the actual one
        as closely as ties allow."""
        targets = np.cumsum(self.hist)[:-1]
        above = np.searchsorted(self.bounds, targets, side="left")
        below = np.maximum(above - 1, 0)
        closer_below = targets - self.bounds[below] <= self.bounds[above] - targets
        return np.where((above > 0) & closer_below, below, above).astype(np.int64)

    def cut_values(self, positions: NDArray[np.int64]) -> tuple[float, ...]:
        """The cut value of each position: the midpoint between the distinct scores around it.

        Below every score, half the first gap below the lowest; above every score, half the last
        gap above the highest. A midpoint that rounds onto the lower score (two adjacent
        doubles) is replaced by the upper score, which a score equal to the cut passes.
        """
        u, m = self.distinct, self.m
        first_gap = (u[1] - u[0]) / 2 if m > 1 else 0.5
        last_gap = (u[-1] - u[-2]) / 2 if m > 1 else 0.5
        values = []
        for t in positions.tolist():
            if t == 0:
                value = float(u[0] - first_gap)
                value = value if value < u[0] else float(np.nextafter(u[0], -np.inf))
            elif t == m:
                value = float(u[-1] + last_gap)
                value = value if value > u[-1] else float(np.nextafter(u[-1], np.inf))
            else:
                low, high = float(u[t - 1]), float(u[t])
                value = low / 2 + high / 2
                value = value if low < value <= high else high
            values.append(value)
        return tuple(values)

    def sums(self, positions: NDArray[np.int64]) -> tuple[int, int]:
        """num and chance (exact integers) of the ratings these positions give."""
        size = self.distances.shape[0]
        edges = self.bounds[np.concatenate(([0], positions, [self.m]))]
        predicted = np.repeat(np.arange(size, dtype=np.int64), np.diff(edges))
        observed = np.bincount(self.actual.astype(np.int64) * size + predicted,
                               minlength=size * size)
        num = int(np.vdot(observed, self.distances.ravel()))
        chance = int(self.r @ np.diff(edges))
        return num, chance

    def search(self, start: NDArray[np.int64]) -> tuple[NDArray[np.int64], int, int]:
        """Coordinate search from ``start`` until a whole pass moves no cut point.

        Returns the positions, num and chance. Each cut is scanned over every position between
        its neighbours in one prefix sum (see the module's notes); it moves only when the best
        position's num/chance is smaller than the current one's, compared exactly.
        """
        t = start.copy()
        num, chance = self.sums(t)
        cuts = len(t)
        moved = True
        while moved:
            moved = False
            for c in range(cuts):
                lo = int(t[c - 1]) if c > 0 else 0
                hi = int(t[c + 1]) if c + 1 < cuts else self.m
                if hi == lo:
                    continue
                offsets = self.bounds[lo:hi + 1]
                first = int(offsets[0])
                # Moving an item of actual position a from rating c + 1 down to rating c.
                step = self.distances[:, c] - self.distances[:, c + 1]
                prefix = np.zeros(int(offsets[-1]) - first + 1, dtype=np.int64)
                np.cumsum(step[self.actual[first:offsets[-1]]], out=prefix[1:])
                below = offsets - first  # items on rating c at each position
                here = int(t[c]) - lo
                nums = num + prefix[below] - prefix[below[here]]
                chances = chance + (below - below[here]) * int(self.r[c] - self.r[c + 1])
                best = _best(nums, chances, here)
                if best != here:
                    t[c] = lo + best
                    num, chance = int(nums[best]), int(chances[best])
                    moved = True
        return t, num, chance


def _best(nums: NDArray[np.int64], chances: NDArray[np.int64], here: int) -> int:
    """The index of the smallest num/chance, ``here`` when it is among the smallest, else the
    first. Floats shortlist the candidates; Python integers decide exactly among them."""
    ratios = nums / chances
    lowest = float(ratios.min())
    shortlist: list[int] = np.flatnonzero(ratios <= lowest * (1 + 1e-12)).tolist()
    if here not in shortlist:
        shortlist.append(here)
    best = shortlist[0]
    for index in shortlist[1:]:
        # nums[index]/chances[index] < nums[best]/chances[best], exactly
        if int(nums[index]) * int(chances[best]) < int(nums[best]) * int(chances[index]):
            best = index
    if int(nums[here]) * int(chances[best]) == int(nums[best]) * int(chances[here]):
        return here
    return best


def _kappa(n: int, num: int, chance: int) -> float:
    return 1.0 - n * num / chance  # Python ints: one correctly rounded division


def _pair_kappa(actual: NDArray[np.int64], predicted: NDArray[np.int64],
                distances: NDArray[np.int64]) -> float | None:
    size = distances.shape[0]
    observed = np.bincount(actual * size + predicted, minlength=size * size).reshape(size, size)
    num = int(np.vdot(observed, distances))
    chance = int(observed.sum(axis=1) @ distances @ observed.sum(axis=0))
    return None if chance == 0 else _kappa(len(actual), num, chance)


@dataclass(frozen=True)
class _Fit:
    cuts: tuple[float, ...]
    kappa: float
    predicted_hist: tuple[int, ...]
    start: StartName
    starts: tuple[Start, ...]


def _fit(data: _Sorted, min_rating: int, starts: Sequence[StartName]) -> _Fit:
    """Search from every start and keep the best (the first of equals, in ``starts`` order)."""
    size = data.distances.shape[0]
    n = int(data.bounds[-1])
    tried: list[Start] = []
    found: list[tuple[int, int, NDArray[np.int64]]] = []
    for name in starts:
        if name == "rounding":
            cuts = rounding_cuts(min_rating, min_rating + size - 1)
            positions = data.positions(cuts)
        else:
            positions = data.quantile_positions()
            cuts = data.cut_values(positions)
        fitted, num, chance = data.search(positions)
        tried.append(Start(name, cuts, _kappa(n, *data.sums(positions)), _kappa(n, num, chance)))
        found.append((num, chance, fitted))
    best = 0
    for index, (num, chance, _) in enumerate(found):
        if num * found[best][1] < found[best][0] * chance:  # exactly smaller num/chance
            best = index
    num, chance, fitted = found[best]
    edges = data.bounds[np.concatenate(([0], fitted, [data.m]))]
    return _Fit(data.cut_values(fitted), _kappa(n, num, chance),
                tuple(int(v) for v in np.diff(edges)), tried[best].name, tuple(tried))


def _whole(value: Any, low: int, high: int) -> int | None:
    """``value`` as an int if it is a whole number (not a bool) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not (
            low <= value <= high):
        return None
    return int(value)


def stratified_folds(actual: NDArray[np.int64], folds: int, seed: int) -> NDArray[np.int64]:
    """Each item's part (0..folds-1) for cross-validation, stratified by actual rating.

    The items are shuffled by numpy's PCG64 generator seeded with ``seed``, grouped by rating
    (keeping the shuffled order), and dealt to the parts in turn: every part holds each rating
    within one item of the same count, and all parts are within one item of n / folds.

    >>> stratified_folds(np.array([0, 0, 0, 1, 1, 1]), 3, seed=0).tolist()
    [1, 2, 0, 0, 2, 1]
    """
    shuffled = np.random.default_rng(seed).permutation(len(actual))
    dealt = shuffled[np.argsort(actual[shuffled], kind="stable")]
    part = np.empty(len(actual), dtype=np.int64)
    part[dealt] = np.arange(len(actual)) % folds
    return part


def _cross_validate(actual: NDArray[np.int64], scores: FloatArray, order: NDArray[np.int64],
                    distances: NDArray[np.int64], min_rating: int, folds: int, seed: int,
                    starts: Sequence[StartName]) -> tuple[float | None, tuple[float | None, ...]]:
    part = stratified_folds(actual, folds, seed)
    out_of_fold = np.empty(len(actual), dtype=np.int64)
    fold_kappas: list[float | None] = []
    for k in range(folds):
        held = part == k
        training = order[~held[order]]  # still in score order
        if np.count_nonzero(np.bincount(actual[training])) < 2:
            raise InputError("cv_fold_one_rating", folds=folds)
        fit = _fit(_Sorted(actual, scores, training, distances), min_rating, starts)
        out_of_fold[held] = np.searchsorted(np.asarray(fit.cuts), scores[held], side="right")
        fold_kappas.append(_pair_kappa(actual[held], out_of_fold[held], distances)
                           if held.any() else None)
    return _pair_kappa(actual, out_of_fold, distances), tuple(fold_kappas)


def _prepare(actual: RatingsLike, scores: Any, min_rating: Any,
             max_rating: Any) -> tuple[NDArray[np.int64], FloatArray, IntArray]:
    """Validated ratings (as positions on the scale), scores and the scale's labels."""
    ratings = as_ratings(actual)
    if len(ratings) == 0:
        raise InputError("empty")
    values = as_scores(scores)
    if len(values) != len(ratings):
        raise InputError("scores_length_mismatch", n_actual=len(ratings), n_scores=len(values))
    labels = rating_scale(ratings, ratings, min_rating=min_rating, max_rating=max_rating)
    positions = ratings - labels[0]
    if int(positions.min()) == int(positions.max()):
        raise InputError("thresholds_one_rating", rating=int(ratings[0]))
    return positions, values, labels


def check_scores(actual: RatingsLike, scores: Any, *, min_rating: int | None = None,
                 max_rating: int | None = None) -> tuple[IntArray, FloatArray, IntArray]:
    """Ratings and scores checked as :func:`optimize_thresholds` checks them, without a search.

    Returns the ratings, the scores (float64) and the labels of the scale; raises the same
    :class:`~.errors.InputError` the search would (lengths, a single actual rating, fewer
    distinct scores than ratings), so a page can say what is wrong before anything is tuned.

    >>> check_scores([0, 1, 2], [0.5, 0.5, 0.7])
    Traceback (most recent call last):
    ...
    qwk_explained.core.errors.InputError: thresholds_few_scores(count=2, ratings=3)
    """
    positions, values, labels = _prepare(actual, scores, min_rating, max_rating)
    distinct = len(np.unique(values))
    if distinct < len(labels):
        raise InputError("thresholds_few_scores", count=distinct, ratings=len(labels))
    return positions + labels[0], values, labels


def quantile_cuts(actual: RatingsLike, scores: Any, *, min_rating: int | None = None,
                  max_rating: int | None = None) -> tuple[float, ...]:
    """Cut points that give the scores the actual ratings' histogram, as closely as ties allow.

    The k-th cut sits at the midpoint between the distinct scores whose count below comes
    closest to the number of items rated below k (ties towards fewer items).

    Examples
    --------
    >>> quantile_cuts([0, 0, 1, 2], [0.1, 0.4, 0.2, 0.9])
    (0.30000000000000004, 0.65)
    """
    positions, values, labels = _prepare(actual, scores, min_rating, max_rating)
    data = _Sorted(positions, values, np.argsort(values, kind="stable"),
                   _distances("quadratic", len(labels)))
    return data.cut_values(data.quantile_positions())


def optimize_thresholds(
    actual: RatingsLike,
    scores: Any,
    *,
    weights: Weighting = "quadratic",
    min_rating: int | None = None,
    max_rating: int | None = None,
    folds: int = 5,
    seed: int = 0,
    starts: Sequence[StartName] = STARTS,
) -> Thresholds:
    r"""The cut points that turn scores into ratings with the highest weighted kappa.

    An exact coordinate search over the midpoints between distinct scores, from plain rounding
    and from quantile cuts, with k-fold cross-validation of the whole search; see the module's
    notes for what it guarantees.

    Parameters
    ----------
    actual : array-like of int, or str
        The actual ratings of n items.
    scores : array-like of float, or str
        The model's continuous scores for the same items, in the same order.
    weights : {"quadratic", "linear", "unweighted"}, default="quadratic"
        The weighting of kappa.
    min_rating, max_rating : int, optional
        Ends of the rating scale (default: the lowest and highest actual rating). The scale
        has N ratings and the search N - 1 cut points.
    folds : int, default=5
        Parts of the cross-validation, 2 to 20 and at most n; 0 skips it.
    seed : int, default=0
        Seed of the random generator that deals the items into parts.
    starts : sequence of {"rounding", "quantiles"}, default=("rounding", "quantiles")
        Where the search starts. Rounding assumes scores on the ratings' scale; with quantiles
        alone the result depends on the scores only through their order.

    Returns
    -------
    Thresholds
        ``cuts``, ``kappa`` (in-sample), ``cv_kappa`` (``None`` when ``folds`` is 0) and the
        starts tried.

    Raises
    ------
    InputError
        Bad ratings or scores; ``scores_length_mismatch``; ``thresholds_one_rating`` (every
        actual rating the same: no cut point changes kappa); ``thresholds_few_scores`` (fewer
        distinct scores than ratings: some rating could never be given); ``unknown_weights``;
        ``bad_folds``; ``bad_seed``; ``bad_starts``; ``cv_fold_one_rating`` (a training part
        holds a single actual rating: use fewer folds).

    See Also
    --------
    apply_thresholds : Cut scores with these (or any) cut points.

    Notes
    -----
    With :math:`D` the weighting's distances and :math:`r = D^\top h^{\text{actual}}`, each
    cut's candidate positions are scored at once: moving cut k over m items changes num by a
    prefix sum of :math:`D_{a,k-1} - D_{a,k}` and chance by :math:`m (r_{k-1} - r_k)`. One
    sort, then O(n) per pass over all cuts. Kappa is
    :math:`1 - n\,\text{num} / \text{chance}`, computed from exact integers as
    :func:`~qwk_explained.quadratic_weighted_kappa` computes it, so ``kappa`` equals
    ``quadratic_weighted_kappa(actual, result.predict(scores))`` for quadratic weights.

    Kaggle's OptimizedRounder runs Nelder-Mead over the cut points from 0.5, 1.5, ...,
    evaluating scikit-learn's ``cohen_kappa_score`` each time: it can stop anywhere on kappa's
    flat steps, lets the cut points cross, and reports an in-sample kappa only.

    References
    ----------
    .. [1] A. Thakur, "OptimizedRounder", PetFinder.my Adoption Prediction, Kaggle discussion
       76107 (2019).
    .. [2] R. Kohavi (1995), "A study of cross-validation and bootstrap for accuracy estimation
       and model selection", IJCAI, 1137-1145.

    Examples
    --------
    >>> actual = [0, 0, 1, 1, 2, 2, 3, 3]
    >>> scores = [0.9, 1.1, 1.2, 1.6, 1.7, 2.1, 2.2, 2.3]
    >>> result = optimize_thresholds(actual, scores, folds=0)
    >>> result.cuts, result.kappa
    ((1.15, 1.65, 2.15), 1.0)
    >>> result.predict([1.0, 2.0]).tolist()
    [0, 2]
    """
    positions, values, labels = _prepare(actual, scores, min_rating, max_rating)
    size = len(labels)
    if not is_weighting(weights):
        raise InputError("unknown_weights", value=str(weights), choices=", ".join(WEIGHTINGS))
    distances = _distances(weights, size)
    order = np.argsort(values, kind="stable")
    data = _Sorted(positions, values, order, distances)
    if data.m < size:
        raise InputError("thresholds_few_scores", count=data.m, ratings=size)
    # The ends are given as text: a number is written through a float, which 2**63 - 1 is not.
    most = min(limits.MAX_FOLDS, len(positions))
    if folds != 0 and _whole(folds, 2, most) is None:
        raise InputError("bad_folds", value=shorten(str(folds)), high=str(most))
    seed_value = _whole(seed, 0, limits.MAX_SEED)
    if seed_value is None:
        raise InputError("bad_seed", value=shorten(str(seed)), high=str(limits.MAX_SEED))
    chosen = tuple(dict.fromkeys(starts)) if not isinstance(starts, str) else ()
    if not chosen or any(name not in STARTS for name in chosen):
        raise InputError("bad_starts", value=str(starts), choices=", ".join(STARTS))
    low = int(labels[0])
    fit = _fit(data, low, chosen)
    cv_kappa, fold_kappas = (None, ()) if folds == 0 else _cross_validate(
        positions, values, order, distances, low, int(folds), seed_value, chosen)
    return Thresholds(cuts=fit.cuts, kappa=fit.kappa, cv_kappa=cv_kappa, fold_kappas=fold_kappas,
                      min_rating=low, max_rating=int(labels[-1]), weights=weights,
                      folds=int(folds), seed=seed_value, n=len(positions),
                      distinct_scores=data.m,
                      actual_hist=tuple(int(v) for v in data.hist),
                      predicted_hist=fit.predicted_hist, start=fit.start, starts=fit.starts)
