"""The fast path: quadratic weighted kappa without keeping the intermediate steps.

O(n) in one ``np.bincount`` over pair codes, block by block (see
:func:`~qwk_explained.core.counting.count_pairs`); every other operation works on the N x N
matrix. No Python loop over items, no n-sized temporary and no copy of an int64 vector. Same
convention as
:func:`walkthrough` with ``scale="range"``: the scale runs from the smallest to the largest rating
(or the given bounds).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from . import limits
from .counting import count_pairs
from .scale import rating_scale, scale_labels
from .validate import as_ratings, check_pair, int_ratings


def quadratic_weighted_kappa(
    actual: Any, predicted: Any, *, min_rating: int | None = None, max_rating: int | None = None
) -> float:
    """Quadratic weighted kappa of two integer rating vectors; NaN only when it is undefined (0/0).

    >>> actual, predicted = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]
    >>> round(quadratic_weighted_kappa(actual, predicted), 4)
    -0.1392

    Unlike :func:`walkthrough`, which reports an undefined kappa as ``None`` with a reason, this
    function returns ``float("nan")`` then, so it can be used as a drop-in metric.

    The declared bounds are checked but do not change the value: unused ratings at the ends of the
    scale add empty rows and columns, and the common factor 1/(N-1)^2 of the weights cancels.
    """
    a, b = int_ratings(actual), int_ratings(predicted)  # integer numpy vectors: no copy
    check_pair(a, b)
    counted = count_pairs(a, b)
    if counted is None:
        # A rating beyond MAX_ABS_RATING or more than MAX_RATINGS ratings: name the problem.
        rating_scale(as_ratings(a), as_ratings(b), min_rating=min_rating, max_rating=max_rating)
        raise AssertionError("unreachable: rating_scale accepted them")  # pragma: no cover
    low, high, observed = counted
    if min_rating is not None or max_rating is not None:
        scale_labels(low, high, lambda: observed, min_rating=min_rating, max_rating=max_rating)
    distances = _squared_distances(high - low + 1)
    # Integer sums, exact: sum O_ij (i-j)^2, and n * sum E_ij (i-j)^2 = h_a . D . h_p (at most
    # 49^2 * n^2 < 2^63 for n up to MAX_ITEMS). The weights' 1/(N-1)^2 cancels in the ratio.
    numerator = int(np.vdot(observed, distances))
    chance = int(observed.sum(axis=1) @ distances @ observed.sum(axis=0))
    if chance == 0:
        return math.nan
    return 1.0 - len(a) * numerator / chance  # Python ints: one correctly rounded division


@lru_cache(maxsize=limits.MAX_RATINGS)
def _squared_distances(size: int) -> np.ndarray:
    positions = np.arange(size, dtype=np.int64)
    distances = (positions[:, None] - positions[None, :]) ** 2
    distances.setflags(write=False)
    return distances
