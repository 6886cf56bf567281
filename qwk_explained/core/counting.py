"""Count the (actual, predicted) pairs: the observed matrix O in one pass over the items.

O(n) with numpy and no n-sized temporary: pair codes ``a * width + b`` are formed block by block
in a reused buffer and counted with ``np.bincount``.
"""

from __future__ import annotations

import numpy as np

from . import limits
from .parse import IntArray

#: Items per block when counting pairs: both raters' blocks and the codes stay in the L2 cache.
_BLOCK = 1 << 15


def count_pairs(
    actual: IntArray, predicted: IntArray, max_span: int = limits.MAX_RATINGS
) -> tuple[int, int, IntArray] | None:
    """Count the (actual, predicted) pairs in one pass: ``(low, high, O)``.

    ``low``/``high`` are the smallest and largest rating of both raters and ``O[i, j]`` counts the
    items rated ``low + i`` and ``low + j``. Returns ``None`` instead when the ratings span more
    than ``max_span`` values or one is larger than :data:`~.limits.MAX_ABS_RATING` in absolute
    value (the caller then names the problem with ``validate.as_ratings`` and
    ``scale.rating_scale``).

    The vectors are read block by block: the block's extremes, then codes ``a * width + b`` in a
    reused buffer, then one ``np.bincount``. No n-sized temporary array is allocated. The window of
    the codes is guessed from the first block; in the rare case that a later block falls outside
    it (small non-negative ratings first, a negative one later) the vectors are read twice.
    """
    n = len(actual)
    block = min(n, _BLOCK)
    low, high = _extremes(actual[:block], predicted[:block])
    if high - low >= max_span or max(-low, high) > limits.MAX_ABS_RATING:
        return None
    if block == n:  # one block: the window is the ratings' own range (from 0 if that is close)
        base = 0 if 0 <= low and high < 2 * max_span else low
        return _tally(actual, predicted, base, high, low, high, block, checked=False)
    if low >= 0 and low + max_span <= 2 * max_span:
        # Small non-negative ratings, the usual case: a window from 0 needs no offset in the codes.
        counted = _tally(actual, predicted, 0, low + max_span - 1, low, high, block)
        if counted is None:  # a negative rating further on
            low, high = _extremes(actual, predicted)
            if high - low >= max_span or max(-low, high) > limits.MAX_ABS_RATING:
                return None
            counted = _tally(actual, predicted, low, high, low, high, block, checked=False)
    else:
        # Every rating of a data set spanning at most max_span values lies in this window.
        counted = _tally(actual, predicted, high - max_span + 1, low + max_span - 1, low, high,
                         block)
    if counted is None or counted[1] - counted[0] >= max_span:
        return None
    return counted


def _extremes(actual: IntArray, predicted: IntArray) -> tuple[int, int]:
    smallest, largest = np.minimum.reduce, np.maximum.reduce  # less overhead than .min()
    return (int(min(smallest(actual), smallest(predicted))),
            int(max(largest(actual), largest(predicted))))


def _tally(
    actual: IntArray,
    predicted: IntArray,
    base: int,
    top: int,
    low: int,
    high: int,
    block: int,
    *,
    checked: bool = True,
) -> tuple[int, int, IntArray] | None:
    """Pair counts on the window base..top, or None when a block holds a rating outside it.

    ``low``/``high`` are the extremes of the first block (``checked``: of the later blocks too,
    which are then not checked again).
    """
    width = top - base + 1
    offset = base * (width + 1)  # code of (base, base)
    if len(actual) <= block:  # a single block: no buffer to reuse, no counts to add up
        codes = np.multiply(actual, width)
        np.add(codes, predicted, out=codes)
        if offset:
            np.subtract(codes, offset, out=codes)
        counts = np.bincount(codes, minlength=width * width)
        return low, high, _window(counts, width, low - base, high - base)
    counts = np.zeros(width * width, dtype=np.int64)
    codes = np.empty(block, dtype=np.int64)
    for start in range(0, len(actual), block):
        a, b = actual[start:start + block], predicted[start:start + block]
        if start and checked:
            block_low, block_high = _extremes(a, b)
            if block_low < base or block_high > top:
                return None
            low, high = min(low, block_low), max(high, block_high)
        out = codes[: len(a)]
        np.multiply(a, width, out=out)
        np.add(out, b, out=out)
        if offset:
            np.subtract(out, offset, out=out)
        counts += np.bincount(out, minlength=width * width)
    return low, high, _window(counts, width, low - base, high - base)


def _window(counts: IntArray, width: int, first: int, last: int) -> IntArray:
    """Rows and columns first..last of the width x width table held flat in ``counts``."""
    return np.ascontiguousarray(counts.reshape(width, width)[first:last + 1, first:last + 1])
