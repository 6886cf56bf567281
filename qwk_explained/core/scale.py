"""The rating scale: the ordered labels that index every matrix's rows and columns.

Two conventions: ``range`` (every integer from the lowest to the highest rating, Ben Hamner's
Kaggle metric) and ``observed`` (only the ratings that occur, scikit-learn's default). Weights
depend on a label's *position* on the scale, so they differ as soon as a rating is never used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import limits
from .errors import InputError
from .parse import IntArray, shorten
from .types import SCALES, Scale, is_scale
from .validate import as_ratings

__all__ = ["SCALES", "rating_scale", "scale_labels"]


def rating_scale(
    actual: IntArray,
    predicted: IntArray,
    *,
    scale: Scale = "range",
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> IntArray:
    """The ordered rating labels that index the rows and columns of every matrix.

    ``scale="range"``: every integer from the smallest to the largest rating (Ben Hamner's Kaggle
    convention), widened by ``min_rating``/``max_rating``. ``scale="observed"``: only ratings that
    occur (scikit-learn's and R irr's convention). Weights depend on a label's *position* on this
    scale, so the two conventions differ as soon as a rating inside the range is never used.
    """
    data_min = int(min(actual.min(), predicted.min()))
    data_max = int(max(actual.max(), predicted.max()))

    def observed() -> IntArray:
        span = data_max - data_min + 1
        if span <= 4 * limits.MAX_RATINGS:
            # Small span: a bincount is cheaper than sorting a million ratings in np.unique.
            present = np.bincount(actual - data_min, minlength=span) > 0
            present |= np.bincount(predicted - data_min, minlength=span) > 0
            return np.flatnonzero(present).astype(np.int64) + data_min
        return np.union1d(np.unique(actual), np.unique(predicted)).astype(np.int64)

    return scale_labels(data_min, data_max, observed, scale=scale, min_rating=min_rating,
                        max_rating=max_rating)


def _bound(value: Any) -> int | None:
    """A declared end of the scale as an int: whole floats and digit strings pass, like ratings."""
    return None if value is None else int(as_ratings([value])[0])


def scale_labels(
    data_min: int,
    data_max: int,
    observed: Callable[[], IntArray],
    *,
    scale: Scale = "range",
    min_rating: Any = None,
    max_rating: Any = None,
) -> IntArray:
    """:func:`rating_scale` once the smallest and largest rating are known.

    ``observed`` returns the sorted ratings that occur; it is only called for the observed scale.
    """
    if not is_scale(scale):
        raise InputError("unknown_scale", value=shorten(str(scale)), choices=", ".join(SCALES))
    min_rating, max_rating = _bound(min_rating), _bound(max_rating)
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise InputError("bounds_reversed", min_rating=min_rating, max_rating=max_rating)
    if min_rating is not None and data_min < min_rating:
        raise InputError("below_scale", value=data_min, min_rating=min_rating)
    if max_rating is not None and data_max > max_rating:
        raise InputError("above_scale", value=data_max, max_rating=max_rating)
    if scale == "range":
        low = data_min if min_rating is None else min_rating
        high = data_max if max_rating is None else max_rating
        if high - low + 1 > limits.MAX_RATINGS:
            raise InputError("too_many_ratings", count=high - low + 1, limit=limits.MAX_RATINGS)
        return np.arange(low, high + 1, dtype=np.int64)
    labels = observed()
    if labels.size > limits.MAX_RATINGS:
        raise InputError("too_many_ratings", count=int(labels.size), limit=limits.MAX_RATINGS)
    return labels
