"""Every step of weighted kappa, computed once and kept in one immutable result.

The steps follow the Kaggle description (Ben Hamner's reference implementation), numbered as in
the step catalogue (:mod:`qwk_explained.present.catalogue`) every surface shows:

1. O, the observed matrix: O_ij counts items rated i by the actual rater and j by the predicted one;
2. w, the disagreement weights (see :mod:`.weights`);
3. the two histograms, i.e. the margins of O;
4. E = outer(hist_actual, hist_predicted) / n, the counts expected if the raters were independent,
   so that E and O have the same sum n;
5. O / n and E / n, both scaled to sum 1 (scaling both by the same factor leaves kappa unchanged);
6. numerator = sum(w * O / n), denominator = sum(w * E / n);
7. kappa = 1 - numerator / denominator.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import limits
from .costs import CostMap, cost_map
from .counting import count_pairs
from .errors import InputError
from .influence import Influence, influence
from .resampling import Bootstrap, bootstrap
from .scale import rating_scale, scale_labels
from .stats import KappaStatistics, KappaTest, kappa_statistics, kappa_test
from .tables import as_table
from .types import (
    Cell,
    RatingsLike,
    Scale,
    UndefinedReason,
    WeightingLike,
    WeightsName,
)
from .validate import as_ratings, check_pair, int_ratings
from .weights import resolve_weights

#: Reason codes for an undefined kappa (keys under ``undefined.`` in the locales).
SINGLE_CATEGORY: UndefinedReason = "single_category"
NO_CHANCE_DISAGREEMENT: UndefinedReason = "no_chance_disagreement"
ZERO_WEIGHTS: UndefinedReason = "zero_weights"
CHANCE_PAIRS_FREE: UndefinedReason = "chance_pairs_free"


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    array.setflags(write=False)
    return array


def _read_only_view(array: NDArray[Any]) -> NDArray[Any]:
    # A view, so that the caller's own array (often the very object passed in) stays writeable.
    return _frozen(array.view())


def hash_values(hasher: Any, values: np.ndarray) -> None:
    """Feed an array to ``hasher`` by its shape and values, compactly.

    Integers that all fit in a byte (ratings, almost always) are hashed as bytes: two million
    ratings are 2 MB to hash instead of 16, for a digest computed while a long paste is read.
    The dtype and shape written first keep the forms apart; equal values give equal bytes.
    hashlib lets the other threads (a server's other sessions) run while it hashes.
    """
    array = np.ascontiguousarray(values)
    if array.dtype.kind in "iu" and array.dtype.itemsize > 1 and array.size:
        if -128 <= int(array.min()) and int(array.max()) <= 127:
            array = array.astype(np.int8)
    hasher.update(f"|{array.dtype.str}{array.shape}".encode())
    hasher.update(array.data)


@dataclass(frozen=True, eq=False)
class Walkthrough:
    """All intermediate quantities of weighted kappa for one pair of rating vectors (or one table).

    Made by :func:`walkthrough` or :func:`walkthrough_from_table`. Matrices are N x N numpy arrays
    (rows = actual rating, columns = predicted), read-only.

    Attributes
    ----------
    labels : ndarray of shape (N,), int64
        The ratings of the scale, increasing; row and column i of every matrix is ``labels[i]``.
    n : int
        Number of items.
    observed : ndarray of shape (N, N), int64
        O, the counts of (actual, predicted) pairs.
    actual_hist, predicted_hist : ndarray of shape (N,), int64
        The histograms of each rater's ratings: the row and column sums of O.
    weights_name : {"quadratic", "linear", "unweighted", "custom"}
        The weighting, ``"custom"`` for a matrix the caller gave.
    weights : ndarray of shape (N, N), float64
        w, the disagreement weights (0 on the diagonal for the named weightings).
    expected : ndarray of shape (N, N), float64
        E = outer(actual_hist, predicted_hist) / n, the counts expected from chance alone.
    observed_norm, expected_norm : ndarray of shape (N, N), float64
        O / n and E / n, each adding up to 1.
    weighted_observed, weighted_expected : ndarray of shape (N, N), float64
        w * O / n and w * E / n, cell by cell.
    numerator, denominator : float
        The sums of ``weighted_observed`` and of ``weighted_expected``.
    kappa : float or None
        1 - numerator / denominator; ``None`` when the denominator is 0 (no disagreement is
        expected by chance, e.g. every rating identical).
    undefined_reason : {"single_category", "no_chance_disagreement"} or None
        Why kappa is undefined, ``None`` when it is a number.
    actual, predicted : ndarray of shape (n,), int64, or None
        The item vectors when the result came from vectors (read-only views: an int64 array
        passed in is not copied, and stays writeable for its owner), ``None`` from a table.
    """

    labels: NDArray[np.int64]
    n: int
    observed: NDArray[np.int64]
    actual_hist: NDArray[np.int64]
    predicted_hist: NDArray[np.int64]
    weights_name: WeightsName
    weights: NDArray[np.float64]
    expected: NDArray[np.float64]
    observed_norm: NDArray[np.float64]
    expected_norm: NDArray[np.float64]
    weighted_observed: NDArray[np.float64]
    weighted_expected: NDArray[np.float64]
    numerator: float
    denominator: float
    kappa: float | None
    undefined_reason: UndefinedReason | None
    actual: NDArray[np.int64] | None = field(default=None, repr=False)
    predicted: NDArray[np.int64] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        """N, the number of ratings on the scale."""
        return len(self.labels)

    @cached_property
    def digest(self) -> str:
        """A fingerprint of everything this result is made of, computed once.

        The scale, O, the weighting and w (so every setting: the scale convention and ends give
        the labels), and the rating vectors themselves, in order (a worksheet writes them out).
        Two results with the same digest hold the same numbers, so a cache of what is derived
        from a result keys on it (never on a key assembled by hand, which can miss a setting).

        >>> a = walkthrough([1, 2, 3], [1, 3, 3])
        >>> a.digest == walkthrough([1, 2, 3], [1, 3, 3]).digest
        True
        >>> a.digest == walkthrough([1, 2, 3], [1, 3, 3], weights="linear").digest
        False
        """
        hasher = hashlib.blake2b(self.weights_name.encode(), digest_size=20)
        for part in (self.labels, self.observed, self.weights, self.actual, self.predicted):
            if part is None:
                hasher.update(b"|none")
            else:
                hash_values(hasher, part)
        return hasher.hexdigest()

    @property
    def defined(self) -> bool:
        """Whether kappa is a number (den > 0), not 0/0."""
        return self.kappa is not None

    def check_cell(self, i: int, j: int) -> Cell:
        """Positions ``(i, j)`` as plain ints, or an ``IndexError`` if they are not on the scale."""
        if not (0 <= i < self.size and 0 <= j < self.size):
            raise IndexError(f"cell ({i}, {j}) outside the {self.size} x {self.size} matrices")
        return int(i), int(j)

    def statistics(self, confidence: float = 0.95) -> KappaStatistics:
        """Standard errors, z test and confidence interval of this kappa.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the confidence interval, strictly between 0 and 1.

        Returns
        -------
        KappaStatistics
            Every field but ``confidence`` is ``None`` when kappa is undefined.

        Raises
        ------
        InputError
            ``bad_confidence`` when ``confidence`` is not strictly between 0 and 1.

        See Also
        --------
        qwk_explained.kappa_statistics : The function behind this method, with the formulas of
            Fleiss, Cohen and Everitt (1969).

        Examples
        --------
        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> stats = result.statistics(confidence=0.9)
        >>> round(stats.se, 4), round(stats.ci_low, 4), round(stats.ci_high, 4)
        (0.0741, -0.2612, -0.0173)
        """
        return kappa_statistics(self, confidence=confidence)

    @cached_property
    def cost_map(self) -> CostMap | None:
        """Where kappa is lost: each cell's cost ``w_ij O_ij / (n den)`` (adding up to
        1 - kappa) and its signed cost against chance (adding up to -kappa); ``None`` when
        kappa is undefined. See :func:`qwk_explained.core.costs.cost_map`.

        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> round(float(result.cost_map.cost[4, 0]), 2), round(1 - result.kappa, 2)
        (1.01, 1.14)
        """
        return cost_map(self)

    @cached_property
    def influence(self) -> Influence:
        """Kappa without one item of each cell (the jackknife), and with one item's prediction
        moved one level toward its actual rating, for every cell at once (O(N²)). See
        :func:`qwk_explained.core.influence.influence`.

        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> round(float(result.influence.moved[4, 0]), 4)  # item 1 predicted 1 instead of 0
        -0.1092
        """
        return influence(self)

    def bootstrap(self, resamples: int = limits.DEFAULT_RESAMPLES, *, seed: int = 0,
                  confidence: float = 0.95) -> Bootstrap | None:
        """The bootstrap of kappa over items (percentile and BCa intervals), drawn as cell
        counts: O(B·N²) whatever n is. ``None`` when kappa is undefined.

        Parameters
        ----------
        resamples : int, default=2000
            B, between 100 and 100,000.
        seed : int, default=0
            The random generator's seed: the same seed gives the same resamples.
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        Bootstrap or None

        Raises
        ------
        InputError
            ``bad_resamples``, ``bad_seed`` or ``bad_confidence``.

        See Also
        --------
        qwk_explained.core.resampling.bootstrap : The function behind this method.
        """
        return bootstrap(self, resamples, seed=seed, confidence=confidence)

    def kappa_test(self, kappa0: float) -> KappaTest:
        """The z test of kappa = ``kappa0`` (SE0 for 0, SE otherwise), two- and one-sided.

        Raises
        ------
        InputError
            ``bad_kappa_null`` for a ``kappa0`` outside [-1, 1].

        See Also
        --------
        qwk_explained.core.stats.kappa_test : The function behind this method.
        """
        return kappa_test(self, kappa0)


def _undefined_reason(size: int, weights: NDArray[np.float64], actual_hist: NDArray[np.int64],
                      predicted_hist: NDArray[np.int64]) -> UndefinedReason:
    """Why den = 0: one rating only, weights that make every disagreement free (a custom matrix of
    zeros), margins under which chance predicts no disagreement at all (both raters give every
    item one and the same rating), or else a custom matrix that gives weight 0 to every pair of
    ratings chance produces (a block of zeros where both raters' ratings meet)."""
    if size < 2:
        return SINGLE_CATEGORY
    if not weights.any():
        return ZERO_WEIGHTS
    used_a, used_p = np.flatnonzero(actual_hist), np.flatnonzero(predicted_hist)
    if used_a.size == used_p.size == 1 and used_a[0] == used_p[0]:
        return NO_CHANCE_DISAGREEMENT
    return CHANCE_PAIRS_FREE


def _from_counts(
    observed: NDArray[np.int64],
    labels: NDArray[np.int64],
    weights: WeightingLike,
    actual: NDArray[np.int64] | None = None,
    predicted: NDArray[np.int64] | None = None,
) -> Walkthrough:
    size = len(labels)
    weights_name, w = resolve_weights(weights, size)
    n = int(observed.sum())
    actual_hist = observed.sum(axis=1)
    predicted_hist = observed.sum(axis=0)
    expected = np.outer(actual_hist, predicted_hist) / n
    observed_norm = observed / n
    expected_norm = expected / n
    weighted_observed = w * observed_norm
    weighted_expected = w * expected_norm
    numerator = float(weighted_observed.sum())
    denominator = float(weighted_expected.sum())
    kappa: float | None
    if denominator > 0:
        kappa, reason = 1.0 - numerator / denominator, None
    else:
        kappa, reason = None, _undefined_reason(size, w, actual_hist, predicted_hist)
    return Walkthrough(
        labels=_frozen(labels),
        n=n,
        observed=_frozen(observed),
        actual_hist=_frozen(actual_hist),
        predicted_hist=_frozen(predicted_hist),
        weights_name=weights_name,
        weights=_frozen(w),
        expected=_frozen(expected),
        observed_norm=_frozen(observed_norm),
        expected_norm=_frozen(expected_norm),
        weighted_observed=_frozen(weighted_observed),
        weighted_expected=_frozen(weighted_expected),
        numerator=numerator,
        denominator=denominator,
        kappa=kappa,
        undefined_reason=reason,
        actual=None if actual is None else _read_only_view(actual),
        predicted=None if predicted is None else _read_only_view(predicted),
    )


def walkthrough(
    actual: RatingsLike,
    predicted: RatingsLike,
    *,
    weights: WeightingLike = "quadratic",
    min_rating: int | None = None,
    max_rating: int | None = None,
    scale: Scale = "range",
) -> Walkthrough:
    r"""Compute every step of weighted kappa between two raters' ratings of the same items.

    Parameters
    ----------
    actual, predicted : array-like of int, or str
        Integer ratings of the same n items by two raters (lists, numpy vectors, or text such as
        ``"4, 4, 3"``). Whole floats (``3.0``) are accepted; ``3.5`` is not.
    weights : str or array-like of shape (N, N), default="quadratic"
        ``"quadratic"``, ``"linear"`` or ``"unweighted"`` (see
        :func:`~qwk_explained.weight_matrix`), or a custom non-negative N x N disagreement matrix
        for the N ratings of the scale.
    min_rating, max_rating : int, optional
        Declared ends of the scale. A rating outside them is an error; with ``scale="range"``
        they widen the scale to ratings nobody used.
    scale : {"range", "observed"}, default="range"
        Which ratings index the matrices: ``"range"``, every integer from the lowest to the
        highest rating (Ben Hamner's Kaggle metric); ``"observed"``, only the ratings that occur
        (scikit-learn's ``cohen_kappa_score`` without ``labels``). Weights come from *positions*
        on the scale, so the two differ as soon as a rating inside the range is never used.

    Returns
    -------
    Walkthrough
        Every intermediate matrix and sum, read-only; ``kappa`` is ``None`` when it is undefined
        (0/0), with ``undefined_reason`` saying why.

    Raises
    ------
    InputError
        For ratings that are not integers, vectors of different or zero length, a rating outside
        the declared ends, a scale of more than 50 ratings, an unknown weighting or scale, or a
        custom matrix of the wrong shape. ``code`` names the problem; the locales word it.

    See Also
    --------
    walkthrough_from_table : The same steps from a contingency table.
    qwk_explained.quadratic_weighted_kappa : Kappa alone, faster, NaN when undefined.
    Walkthrough.statistics : Standard errors, z test and confidence interval.

    Notes
    -----
    With :math:`\ell_0 < \dots < \ell_{N-1}` the ratings of the scale and :math:`a_k, p_k` the two
    ratings of item :math:`k = 1, \dots, n`, the steps are (Cohen 1968):

    .. math::

        O_{ij} = \#\{\, k : a_k = \ell_i,\ p_k = \ell_j \,\}, \qquad
        h^a_i = \sum_j O_{ij}, \qquad h^p_j = \sum_i O_{ij}, \qquad
        E_{ij} = \frac{h^a_i\, h^p_j}{n},

        \text{num} = \sum_{i,j} w_{ij} \frac{O_{ij}}{n}, \qquad
        \text{den} = \sum_{i,j} w_{ij} \frac{E_{ij}}{n}, \qquad
        \kappa = 1 - \frac{\text{num}}{\text{den}}.

    E is what O would be if the raters were independent with the same margins. Kappa is 1 for
    perfect agreement, 0 when the raters agree as often as chance predicts, negative below that;
    it is undefined when den = 0 (a one-rating scale, or no disagreement expected by chance).

    With quadratic weights on the ``range`` scale this is the Kaggle competitions' quadratic
    weighted kappa (Ben Hamner's reference code); scikit-learn's
    ``cohen_kappa_score(actual, predicted, weights="quadratic")`` uses the ``observed`` scale
    unless ``labels`` lists the whole range. Artstein and Poesio (2008) survey kappa, its weighted
    form and the choices behind them.

    References
    ----------
    .. [1] J. Cohen (1960), "A coefficient of agreement for nominal scales", Educational and
       Psychological Measurement 20(1), 37-46.
    .. [2] J. Cohen (1968), "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220.
    .. [3] B. Hamner, "Metrics", machine learning evaluation metrics used by Kaggle
       (``quadratic_weighted_kappa``), https://github.com/benhamner/Metrics.
    .. [4] R. Artstein and M. Poesio (2008), "Inter-coder agreement for computational
       linguistics", Computational Linguistics 34(4), 555-596.

    Examples
    --------
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> result.labels.tolist(), result.actual_hist.tolist(), result.predicted_hist.tolist()
    ([0, 1, 2, 3, 4], [0, 3, 1, 1, 5], [4, 4, 2, 0, 0])
    >>> round(result.numerator, 4), round(result.denominator, 4), round(result.kappa, 4)
    (0.45, 0.395, -0.1392)

    Ratings 3 and 4 are never used here: on the range scale 1..5 a 2 and a 5 are three positions
    apart, on the observed scale (1, 2, 5) one, so the disagreement between them weighs less:

    >>> walkthrough([1, 2, 5, 5], [1, 2, 2, 5]).kappa
    0.625
    >>> walkthrough([1, 2, 5, 5], [1, 2, 2, 5], scale="observed").kappa
    0.8

    An undefined kappa is ``None``, with the reason:

    >>> constant = walkthrough("2, 2, 2", "2, 2, 2")
    >>> constant.kappa is None, constant.undefined_reason
    (True, 'single_category')
    """
    a = int_ratings(actual)
    b = int_ratings(predicted)
    check_pair(a, b)
    counted = count_pairs(a, b)
    if counted is None:
        # A rating too large to be one (as_ratings names it), more than MAX_RATINGS ratings on the
        # range scale (rating_scale says so), or an observed scale with gaps over a wide span.
        a, b = as_ratings(a), as_ratings(b)
        labels = rating_scale(a, b, scale=scale, min_rating=min_rating, max_rating=max_rating)
        size = len(labels)
        ia, ib = np.searchsorted(labels, a), np.searchsorted(labels, b)
        observed = np.bincount(ia * size + ib, minlength=size * size).reshape(size, size)
        return _from_counts(observed.astype(np.int64), labels, weights, a, b)
    low, high, table = counted

    def occurring() -> NDArray[np.int64]:
        used = (table.sum(axis=0) > 0) | (table.sum(axis=1) > 0)
        return np.flatnonzero(used).astype(np.int64) + low

    labels = scale_labels(low, high, occurring, scale=scale, min_rating=min_rating,
                          max_rating=max_rating)
    if scale == "range":
        # Place the counts of low..high on the (possibly wider) declared scale.
        size, start = len(labels), low - int(labels[0])
        observed = np.zeros((size, size), dtype=np.int64)
        observed[start:start + len(table), start:start + len(table)] = table
    else:
        positions = labels - low
        observed = table[np.ix_(positions, positions)]
    return _from_counts(observed, labels, weights, a, b)


def walkthrough_from_table(
    table: ArrayLike, *, weights: WeightingLike = "quadratic", labels: ArrayLike | None = None
) -> Walkthrough:
    r"""Compute every step of weighted kappa from a contingency table of counts.

    Parameters
    ----------
    table : array-like of shape (N, N)
        The observed matrix O: ``table[i][j]`` items rated ``labels[i]`` by the actual rater and
        ``labels[j]`` by the predicted one. Whole, non-negative counts, not all zero.
    weights : str or array-like of shape (N, N), default="quadratic"
        ``"quadratic"``, ``"linear"`` or ``"unweighted"``, or a custom non-negative N x N
        disagreement matrix.
    labels : array-like of int of shape (N,), optional
        The ratings of the rows and columns, strictly increasing (default ``0 .. N-1``). They
        only name the rows: the weights come from positions, as in :func:`walkthrough`.

    Returns
    -------
    Walkthrough
        Every step, as from vectors; ``actual`` and ``predicted`` are ``None`` (a table has no
        items to list).

    Raises
    ------
    InputError
        For a table that is not square, holds a count that is not a whole number >= 0, is all
        zero or too large, for labels that are not N increasing integers, an unknown weighting,
        or a custom matrix of the wrong shape.

    See Also
    --------
    walkthrough : The same steps from two rating vectors.
    qwk_explained.parse_table : A table typed as text (``"20,20;10,50"``).

    Notes
    -----
    The table is O itself, so the steps start at the margins:

    .. math::

        n = \sum_{i,j} O_{ij}, \qquad
        E_{ij} = \frac{\bigl(\sum_l O_{il}\bigr) \bigl(\sum_l O_{lj}\bigr)}{n}, \qquad
        \kappa = 1 - \frac{\sum_{i,j} w_{ij}\, O_{ij}}{\sum_{i,j} w_{ij}\, E_{ij}}.

    References
    ----------
    .. [1] J. Cohen (1960), "A coefficient of agreement for nominal scales", Educational and
       Psychological Measurement 20(1), 37-46.
    .. [2] J. Cohen (1968), "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220.
    .. [3] R. Artstein and M. Poesio (2008), "Inter-coder agreement for computational
       linguistics", Computational Linguistics 34(4), 555-596.

    Examples
    --------
    Artstein and Poesio (2008), Table 1: two coders, two categories, kappa = 0.348.

    >>> result = walkthrough_from_table([[20, 20], [10, 50]], weights="unweighted")
    >>> result.expected.tolist(), round(result.kappa, 3)
    ([[12.0, 28.0], [18.0, 42.0]], 0.348)

    Three ordered categories, the three weightings (the weighting example built on Table 4 that
    scikit-learn tests ``cohen_kappa_score`` with):

    >>> table = [[46, 0, 0], [4, 40, 0], [0, 0, 10]]
    >>> [round(walkthrough_from_table(table, weights=kind).kappa, 4)
    ...  for kind in ("unweighted", "linear", "quadratic")]
    [0.9315, 0.9412, 0.9541]
    >>> walkthrough_from_table(table, labels=[1, 2, 3]).labels.tolist()
    [1, 2, 3]
    """
    counts = as_table(table)
    size = counts.shape[0]
    if labels is None:
        label_array = np.arange(size, dtype=np.int64)
    else:
        try:
            label_array = as_ratings(labels)
        except InputError:  # letters, decimals, a nested list...
            raise InputError("table_bad_labels", size=size) from None
        if label_array.shape != (size,) or (np.diff(label_array) <= 0).any():
            raise InputError("table_bad_labels", size=size)
    return _from_counts(counts, label_array.copy(), weights)
