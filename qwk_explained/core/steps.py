"""Every step of weighted kappa, computed once and kept in one immutable result.

The steps follow the Kaggle description (Ben Hamner's reference implementation):

1. O, the observed matrix: O_ij counts items rated i by the actual rater and j by the predicted one;
2. w, the disagreement weights (see :mod:`qwk_explained.weights`);
3. the two histograms, i.e. the margins of O;
4. E = outer(hist_actual, hist_predicted) / n, the counts expected if the raters were independent,
   so that E and O have the same sum n;
5. O / n and E / n, both scaled to sum 1 (scaling both by the same factor leaves kappa unchanged);
6. numerator = sum(w * O / n), denominator = sum(w * E / n), kappa = 1 - numerator / denominator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .counting import count_pairs
from .errors import InputError
from .scale import rating_scale, scale_labels
from .stats import KappaStatistics, kappa_statistics
from .tables import as_table
from .types import Cell, Scale, UndefinedReason, WeightsName
from .validate import as_ratings, check_pair, int_ratings
from .weights import resolve_weights

#: Reason codes for an undefined kappa (keys under ``undefined.`` in the locales).
SINGLE_CATEGORY: UndefinedReason = "single_category"
NO_CHANCE_DISAGREEMENT: UndefinedReason = "no_chance_disagreement"
ZERO_WEIGHTS: UndefinedReason = "zero_weights"


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    array.setflags(write=False)
    return array


def _read_only_view(array: NDArray[Any]) -> NDArray[Any]:
    # A view, so that the caller's own array (often the very object passed in) stays writeable.
    return _frozen(array.view())


@dataclass(frozen=True, eq=False)
class Walkthrough:
    """All intermediate quantities of weighted kappa for one pair of rating vectors (or one table).

    Matrices are N x N numpy arrays (rows = actual rating, columns = predicted), read-only.
    ``kappa`` is ``None`` when the denominator is 0 (no disagreement is expected by chance, e.g.
    every rating identical); ``undefined_reason`` then names why. ``actual``/``predicted`` are the
    item vectors when the result came from vectors (read-only views: an int64 array passed in is
    not copied, and stays writeable for its owner), ``None`` when it came from a table.
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
        """Standard errors, z, p-value and confidence interval (see :mod:`.stats`)."""
        return kappa_statistics(self, confidence=confidence)


def _undefined_reason(size: int, weights: NDArray[np.float64]) -> UndefinedReason:
    """Why den = 0: one rating only, weights that make every disagreement free (a custom matrix of
    zeros), or margins under which chance predicts no disagreement at all."""
    if size < 2:
        return SINGLE_CATEGORY
    if not weights.any():
        return ZERO_WEIGHTS
    return NO_CHANCE_DISAGREEMENT


def _from_counts(
    observed: NDArray[np.int64],
    labels: NDArray[np.int64],
    weights: Any,
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
        kappa, reason = None, _undefined_reason(size, w)
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
    actual: Any,
    predicted: Any,
    *,
    weights: Any = "quadratic",
    min_rating: int | None = None,
    max_rating: int | None = None,
    scale: Scale = "range",
) -> Walkthrough:
    """Compute every step of weighted kappa between two rating vectors.

    Parameters
    ----------
    actual, predicted
        Integer ratings of the same items (lists, arrays, or text such as ``"4, 4, 3"``).
    weights
        ``"quadratic"`` (default), ``"linear"``, ``"unweighted"`` or an N x N disagreement matrix.
    min_rating, max_rating
        Declared ends of the scale; ratings outside raise an error, and with ``scale="range"`` they
        widen the scale to include ratings nobody used.
    scale
        ``"range"`` (every integer from min to max) or ``"observed"`` (only ratings that occur).

    Examples
    --------
    >>> w = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> round(w.kappa, 4)
    -0.1392
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
    table: Any, *, weights: Any = "quadratic", labels: Any = None
) -> Walkthrough:
    """Compute every step from a contingency table (rows = actual rating, columns = predicted).

    ``labels`` names the ratings of the rows/columns (default 0..N-1); they must be increasing
    integers and only serve for display: weights use positions.
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
