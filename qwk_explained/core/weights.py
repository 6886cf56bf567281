r"""Disagreement weights w_ij: how much a rating i from one rater and j from the other disagree.

Weights are built from label *positions* 0..N-1 on the rating scale, not from the label values: that
is how every reference implementation does it, and why an unused rating in the middle of the scale
changes the result (see the pitfalls page).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .errors import InputError
from .parse import shorten
from .types import (
    WEIGHTINGS,
    Weighting,
    WeightingLike,
    WeightMatrixLike,
    WeightsName,
    is_weighting,
)
from .validate import unmasked

__all__ = ["custom_weights", "resolve_weights", "weight_matrix"]


def weight_matrix(kind: Weighting, size: int) -> NDArray[np.float64]:
    r"""The N x N disagreement weights of a named weighting.

    Parameters
    ----------
    kind : {"quadratic", "linear", "unweighted"}
        The weighting. ``"unweighted"`` gives plain (Cohen 1960) kappa, where every disagreement
        costs the same.
    size : int
        N, the number of ratings on the scale.

    Returns
    -------
    ndarray of shape (size, size), float64
        ``w[i, j]`` for positions ``i`` (actual) and ``j`` (predicted) on the scale: 0 on the
        diagonal, at most 1 elsewhere.

    Raises
    ------
    InputError
        ``unknown_weights`` when ``kind`` names no weighting.

    See Also
    --------
    qwk_explained.walkthrough : Every step of kappa with these weights (or a custom matrix).

    Notes
    -----
    For positions :math:`i, j = 0, \dots, N-1` (Cohen 1968; Fleiss, Cohen and Everitt 1969 write the
    same weights as agreements :math:`1 - w_{ij}`):

    .. math::

        w^{\text{quadratic}}_{ij} = \frac{(i - j)^2}{(N - 1)^2}, \qquad
        w^{\text{linear}}_{ij} = \frac{|i - j|}{N - 1}, \qquad
        w^{\text{unweighted}}_{ij} = [\, i \neq j \,].

    Only the *positions* enter, never the rating values: ratings 1, 2, 5 on an observed scale sit
    at positions 0, 1, 2. A common factor of all weights cancels in kappa, so
    :math:`(i - j)^2` and :math:`(i - j)^2 / (N - 1)^2` give the same kappa; the normalized form
    keeps every weight between 0 and 1. With a single rating (N = 1) there is nothing to disagree
    about and :math:`w = [[0]]`.

    References
    ----------
    .. [1] J. Cohen (1968), "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220.
    .. [2] J. L. Fleiss, J. Cohen and B. S. Everitt (1969), "Large sample standard errors of kappa
       and weighted kappa", Psychological Bulletin 72(5), 323-327.

    Examples
    --------
    >>> weight_matrix("quadratic", 3).tolist()
    [[0.0, 0.25, 1.0], [0.25, 0.0, 0.25], [1.0, 0.25, 0.0]]
    >>> weight_matrix("linear", 3).tolist()
    [[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]]
    >>> weight_matrix("unweighted", 3).tolist()
    [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    if not is_weighting(kind):
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


def custom_weights(matrix: WeightMatrixLike, size: int) -> NDArray[np.float64]:
    """Validate a user-supplied N x N disagreement matrix: finite, non-negative, right shape.

    Real numbers only: a complex matrix is refused rather than cast (numpy would drop the
    imaginary parts with a warning), and so is a masked one that hides a value.
    """
    matrix = unmasked(matrix)
    try:
        given = np.asarray(matrix)
        if given.dtype.kind not in "biufOUS":  # complex, dates, records
            raise TypeError
        weights = given.astype(np.float64)  # objects and text must each read as a real number
    except (TypeError, ValueError):
        raise InputError("weights_bad_matrix", size=size) from None
    if weights.shape != (size, size):
        raise InputError("weights_bad_matrix", size=size)
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise InputError("weights_bad_matrix", size=size)
    return weights


def resolve_weights(
    weights: WeightingLike, size: int
) -> tuple[WeightsName, NDArray[np.float64]]:
    """Return (name, matrix) for a weighting name or a custom matrix.

    Any text is taken for a name (an unknown one raises ``unknown_weights``), anything else for a
    matrix (``custom``).
    """
    if isinstance(weights, str):
        if not is_weighting(weights):
            raise InputError("unknown_weights", value=shorten(weights),
                             choices=", ".join(WEIGHTINGS))
        return weights, weight_matrix(weights, size)
    return "custom", custom_weights(weights, size)
