"""Disagreement weights w_ij: how much a rating i from one rater and j from the other disagree.

Weights are built from label *positions* 0..N-1 on the rating scale, not from the label values: that
is how every reference implementation does it, and why an unused rating in the middle of the scale
changes the result (see the pitfalls page).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .errors import InputError
from .types import WEIGHTINGS, Weighting, WeightsName

__all__ = ["WEIGHTINGS", "custom_weights", "resolve_weights", "weight_matrix"]


def weight_matrix(kind: Weighting, size: int) -> NDArray[np.float64]:
    """The N x N disagreement weights for a named weighting.

    ``quadratic``: (i-j)^2/(N-1)^2; ``linear``: |i-j|/(N-1); ``unweighted``: 0 on the diagonal, 1
    elsewhere (plain Cohen's kappa). All are 0 on the diagonal and at most 1. With a single rating
    (N = 1) there is nothing to disagree about and w = [[0]].
    """
    if kind not in WEIGHTINGS:
        raise InputError("unknown_weights", value=str(kind), choices=", ".join(WEIGHTINGS))
    positions = np.arange(size, dtype=np.float64)
    distance = np.abs(positions[:, None] - positions[None, :])
    if kind == "unweighted":
        return (distance > 0).astype(np.float64)
    if size < 2:
        return np.zeros((size, size))
    if kind == "linear":
        return distance / (size - 1)
    return distance**2 / (size - 1) ** 2


def custom_weights(matrix: Any, size: int) -> NDArray[np.float64]:
    """Validate a user-supplied N x N disagreement matrix: finite, non-negative, right shape."""
    try:
        weights = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("weights_bad_matrix", size=size) from None
    if weights.shape != (size, size):
        raise InputError("weights_bad_matrix", size=size)
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise InputError("weights_bad_matrix", size=size)
    return weights


def resolve_weights(weights: Any, size: int) -> tuple[WeightsName, NDArray[np.float64]]:
    """Return (name, matrix) for a weighting name or a custom matrix."""
    if isinstance(weights, str):
        return weights, weight_matrix(weights, size)
    return "custom", custom_weights(weights, size)
