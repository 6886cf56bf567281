"""The fast path: quadratic weighted kappa without keeping the intermediate steps.

O(n) in one ``np.bincount`` over pair codes, block by block (see
:func:`~qwk_explained.core.counting.count_pairs`); every other operation works on the N x N
matrix. No Python loop over items, no n-sized temporary and no copy of an int64 vector. Same
convention as :func:`~qwk_explained.walkthrough` with ``scale="range"``: the scale runs from the
smallest to the largest rating (or the given bounds).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from . import limits
from .counting import count_pairs
from .scale import rating_scale, scale_labels
from .types import RatingsLike
from .validate import as_ratings, check_pair, int_ratings


def quadratic_weighted_kappa(
    actual: RatingsLike,
    predicted: RatingsLike,
    *,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> float:
    r"""Quadratic weighted kappa of two integer rating vectors, without the intermediate steps.

    Parameters
    ----------
    actual, predicted : array-like of int, or str
        Integer ratings of the same n items by two raters (lists, numpy vectors, or text such as
        ``"4, 4, 3"``).
    min_rating, max_rating : int, optional
        Declared ends of the scale. A rating outside them is an error; inside, they do not change
        the value (see Notes).

    Returns
    -------
    float
        Kappa, at most 1. ``nan`` when it is undefined (0/0: no disagreement is expected by
        chance, e.g. every rating identical), so that it works as a drop-in metric;
        :func:`~qwk_explained.walkthrough` reports that case as ``None`` with a reason instead.

    Raises
    ------
    InputError
        For ratings that are not integers, vectors of different or zero length, a rating outside
        the declared ends, or ratings spanning more than 50 values.

    See Also
    --------
    qwk_explained.walkthrough : Every step of the same computation, any weighting, either scale.

    Notes
    -----
    The scale is the ``range`` one: every integer from the lowest to the highest rating, at
    positions :math:`0, \dots, N-1`, as in Ben Hamner's Kaggle reference code. With O the
    observed matrix, :math:`h^a, h^p` its margins and :math:`E_{ij} = h^a_i h^p_j / n`:

    .. math::

        \kappa = 1 - \frac{\sum_{i,j} w_{ij}\, O_{ij}}{\sum_{i,j} w_{ij}\, E_{ij}}, \qquad
        w_{ij} = \frac{(i - j)^2}{(N - 1)^2}.

    The factor :math:`1/(N-1)^2` cancels, so the sums are computed exactly in integers as
    :math:`\sum O_{ij} (i-j)^2` and :math:`n \sum E_{ij} (i-j)^2 = (h^a)^\top D\, h^p` with
    :math:`D_{ij} = (i-j)^2`, and divided once. Declared bounds that widen the scale only add
    empty rows and columns at its ends, which change neither sum.

    In one pass over the items (``np.bincount`` over pair codes, block by block), with no Python
    loop over items and no n-sized temporary array.

    References
    ----------
    .. [1] J. Cohen (1968), "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220.
    .. [2] B. Hamner, "Metrics", machine learning evaluation metrics used by Kaggle
       (``quadratic_weighted_kappa``), https://github.com/benhamner/Metrics.

    Examples
    --------
    >>> actual, predicted = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]
    >>> round(quadratic_weighted_kappa(actual, predicted), 4)
    -0.1392
    >>> quadratic_weighted_kappa([1, 2, 3, 3], [1, 2, 2, 3], min_rating=0, max_rating=9)
    0.8
    >>> quadratic_weighted_kappa([2, 2, 2], [2, 2, 2])
    nan
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
def _squared_distances(size: int) -> NDArray[np.int64]:
    positions = np.arange(size, dtype=np.int64)
    distances = (positions[:, None] - positions[None, :]) ** 2
    distances.setflags(write=False)
    return distances
