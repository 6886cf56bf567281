"""Ratings given as arrays, lists or text, checked: whole numbers, a vector, within the limits.

Also the one rule about a pair of raters: they rated the same items (equal, non-zero length).
Whatever a caller passes (ragged nested lists, booleans, a masked array, float16) ends in int64
ratings or an :class:`~.errors.InputError`, never in numpy's own errors or warnings.
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


def unmasked(values: Any) -> Any:
    """``values`` without its mask, when it is a numpy masked array that hides nothing.

    A masked value is one the caller chose to leave out; counting it (numpy's ``asarray`` drops
    the mask) would silently change kappa, so a mask that hides anything is refused.
    """
    if not isinstance(values, np.ma.MaskedArray):
        return values
    if np.ma.getmaskarray(values).any():
        raise InputError("masked_values")
    return values.data


def as_ratings(values: Any) -> IntArray:
    """Turn a sequence (list, numpy array, text) into an int64 vector of ratings, validating it.

    Booleans are refused, not read as 0 and 1: ``True`` is no rating, and a list that mixes it
    with numbers has most likely lost a value somewhere.
    """
    if isinstance(values, str):
        return parse_vector(values)
    values = unmasked(values)
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):  # ragged nested lists, more than 64 levels of nesting
        raise InputError("not_a_vector") from None
    if array.ndim != 1:
        raise InputError("not_a_vector")
    if array.size > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=int(array.size), limit=limits.MAX_ITEMS)
    if isinstance(values, list | tuple) and array.dtype.kind in "iuf":
        # numpy reads [True, 2] as [1, 2]: find a boolean among the Python values.
        kinds = set(map(type, values))
        if bool in kinds or np.bool_ in kinds:
            bad = next(k for k, v in enumerate(values) if isinstance(v, bool | np.bool_))
            raise InputError("not_integer", token=str(values[bad]), position=bad + 1)
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
        if not array.size:
            return array.astype(np.int64)
        raise InputError("not_integer", token=str(array[0]), position=1)
    if array.dtype.kind == "f":
        if array.dtype.itemsize < 8:  # float16 cannot even hold the limit it is compared with
            array = array.astype(np.float64)
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
    if (isinstance(values, np.ndarray) and not isinstance(values, np.ma.MaskedArray)
            and values.ndim == 1 and values.dtype.kind in "iu"):
        if values.dtype == np.int64:
            return values
        if values.dtype.itemsize < 8 or values.dtype.kind == "i":
            return values.astype(np.int64)
    return as_ratings(values)
