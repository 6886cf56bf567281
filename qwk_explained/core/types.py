"""The fixed sets of names the engine speaks in, as ``Literal`` types (checked by mypy).

Each set also exists as a tuple for run-time checks and for iterating (``WEIGHTINGS``...), built
from the ``Literal`` so the two can never disagree.
"""

from __future__ import annotations

from typing import Literal, get_args

#: A named weighting: quadratic (i-j)^2/(N-1)^2, linear |i-j|/(N-1), unweighted (plain Cohen).
Weighting = Literal["quadratic", "linear", "unweighted"]
#: What a Walkthrough records as its weights: a named weighting, or a user's own matrix.
WeightsName = Literal["quadratic", "linear", "unweighted", "custom"]
#: The rating scale: every integer from min to max (``range``) or only the ratings used.
Scale = Literal["range", "observed"]
#: Why kappa is 0/0: a one-rating scale, no disagreement expected by chance, or a weight matrix
#: that is 0 everywhere (every disagreement free, so nothing can be weighed).
UndefinedReason = Literal["single_category", "no_chance_disagreement", "zero_weights"]
#: What a learner can compute by hand and have checked, in the order of the calculation: the
#: quantity names of the ``--json`` output and of the checker.
Quantity = Literal["observed", "weights", "actual_hist", "predicted_hist", "expected",
                   "observed_norm", "expected_norm", "numerator", "denominator", "kappa"]
#: A cell of the N x N matrices by *positions* (row i = actual, column j = predicted), 0..N-1.
Cell = tuple[int, int]

WEIGHTINGS: tuple[Weighting, ...] = get_args(Weighting)
SCALES: tuple[Scale, ...] = get_args(Scale)
UNDEFINED_REASONS: tuple[UndefinedReason, ...] = get_args(UndefinedReason)
QUANTITIES: tuple[Quantity, ...] = get_args(Quantity)
