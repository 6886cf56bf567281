"""The fixed sets of names the engine speaks in, as ``Literal`` types (checked by mypy).

Each set also exists as a tuple for run-time checks and for iterating (``WEIGHTINGS``...), built
from the ``Literal`` so the two can never disagree. A value read from outside (a URL, a command
line) becomes one of these types through :func:`is_weighting` or :func:`is_scale`, which check it
against that tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias, TypeGuard, get_args

from numpy.typing import ArrayLike, NDArray

#: A named weighting: quadratic (i-j)^2/(N-1)^2, linear |i-j|/(N-1), unweighted (plain Cohen).
Weighting = Literal["quadratic", "linear", "unweighted"]
#: What a Walkthrough records as its weights: a named weighting, or a user's own matrix.
WeightsName = Literal["quadratic", "linear", "unweighted", "custom"]
#: The rating scale: every integer from min to max (``range``) or only the ratings used.
Scale = Literal["range", "observed"]
#: Why kappa is 0/0: a one-rating scale, no disagreement expected by chance, a weight matrix
#: that is 0 everywhere (every disagreement free, so nothing can be weighed), or a custom matrix
#: that is 0 on every pair of ratings chance produces.
UndefinedReason = Literal["single_category", "no_chance_disagreement", "zero_weights",
                          "chance_pairs_free"]
#: What a learner can compute by hand and have checked, in the order of the calculation: the
#: quantity names of the ``--json`` output and of the checker.
Quantity = Literal["observed", "weights", "actual_hist", "predicted_hist", "expected",
                   "observed_norm", "expected_norm", "numerator", "denominator", "kappa"]
#: A cell of the N x N matrices by *positions* (row i = actual, column j = predicted), 0..N-1.
Cell = tuple[int, int]

#: Ratings as a caller may give them: a list, a tuple, a numpy vector, or text (``"4, 4, 3"``).
#: numpy's ``ArrayLike`` already admits ``str``; the alias names what the engine expects.
RatingsLike: TypeAlias = ArrayLike
#: A user's own N x N disagreement matrix (nested lists or a numpy array of numbers).
WeightMatrixLike: TypeAlias = NDArray[Any] | Sequence[Sequence[float]]
#: The ``weights`` argument of the engine: a named weighting or a user's own matrix.
WeightingLike: TypeAlias = Weighting | WeightMatrixLike

WEIGHTINGS: tuple[Weighting, ...] = get_args(Weighting)
WEIGHTS_NAMES: tuple[WeightsName, ...] = get_args(WeightsName)
SCALES: tuple[Scale, ...] = get_args(Scale)
UNDEFINED_REASONS: tuple[UndefinedReason, ...] = get_args(UndefinedReason)
QUANTITIES: tuple[Quantity, ...] = get_args(Quantity)


def is_weighting(value: object) -> TypeGuard[Weighting]:
    """Whether ``value`` names a weighting (``"quadratic"``, ``"linear"``, ``"unweighted"``).

    >>> is_weighting("linear"), is_weighting("cubic")
    (True, False)
    """
    return isinstance(value, str) and value in WEIGHTINGS  # an array would compare elementwise


def is_quantity(value: object) -> TypeGuard[Quantity]:
    """Whether ``value`` names a quantity a learner can have checked (``"expected"``, ``"kappa"``).

    >>> is_quantity("expected"), is_quantity("histograms")
    (True, False)
    """
    return value in QUANTITIES


def is_scale(value: object) -> TypeGuard[Scale]:
    """Whether ``value`` names a rating scale convention (``"range"`` or ``"observed"``).

    >>> is_scale("observed"), is_scale("fixed")
    (True, False)
    """
    return isinstance(value, str) and value in SCALES  # an array would compare elementwise
