"""Ratings given as arrays, lists or text, checked: whole numbers, a vector, within the limits.

Also the one rule about a pair of raters: they rated the same items (equal, non-zero length).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import limits
from .errors import InputError
from .parse import IntArray, explain_token, parse_vector, shorten, tokens_to_ints


def check_pair(actual: IntArray, predicted: IntArray) -> None:
    """Two raters must have rated the same items: equal, non-zero length."""
    if len(actual) == 0 or len(predicted) == 0:
        raise InputError("empty")
    if len(actual) != len(predicted):
        raise InputError("length_mismatch", n_actual=len(actual), n_predicted=len(predicted))
    if len(actual) > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=len(actual), limit=limits.MAX_ITEMS)


def as_ratings(values: Any) -> IntArray:
    """Turn a sequence (list, numpy array, text) into an int64 vector of ratings, validating it."""
    if isinstance(values, str):
        return parse_vector(values)
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputError("not_a_vector")
    if array.size > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=int(array.size), limit=limits.MAX_ITEMS)
    if array.dtype.kind in "iu":
        if array.dtype.kind == "u" and array.size and int(array.max()) > limits.MAX_ABS_RATING:
            bad = int(np.argmax(array > limits.MAX_ABS_RATING))  # before the cast wraps it negative
            raise explain_token(str(array[bad]), bad + 1)
        result = array.astype(np.int64, copy=False)
        extreme = max(abs(int(result.min())), abs(int(result.max()))) if result.size else 0
        if extreme > limits.MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(result) > limits.MAX_ABS_RATING))
            raise explain_token(str(result[bad]), bad + 1)
        return result
    if array.dtype.kind == "b":
        return array.astype(np.int64)
    if array.dtype.kind == "f":
        finite = np.isfinite(array)
        if not finite.all():
            bad = int(np.argmin(finite))
            raise InputError("not_finite", token=str(array[bad]), position=bad + 1)
        whole = array == np.round(array)
        if not whole.all():
            bad = int(np.argmin(whole))
            raise InputError("not_integer_decimal", token=str(array[bad]), position=bad + 1)
        if array.size and np.abs(array).max() > limits.MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(array) > limits.MAX_ABS_RATING))
            # str(1e300) is "1e+300", which the token grammar would call "not an integer".
            raise InputError("value_too_large", token=shorten(str(array[bad])),
                             position=bad + 1, limit=limits.MAX_ABS_RATING)
        return array.astype(np.int64)
    return tokens_to_ints([str(v).strip() for v in array.tolist()])


def int_ratings(values: Any) -> IntArray:
    """Like :func:`as_ratings`, but an integer numpy vector is taken as it is (no pass over it).

    Its range is checked later, by :func:`count_pairs`, in the same pass that counts the pairs.
    """
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iu":
        if values.dtype == np.int64:
            return values
        if values.dtype.itemsize < 8 or values.dtype.kind == "i":
            return values.astype(np.int64)
    return as_ratings(values)
