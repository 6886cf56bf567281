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
#: Why kappa is 0/0: a one-rating scale, or no disagreement expected by chance.
UndefinedReason = Literal["single_category", "no_chance_disagreement"]
#: A cell of the N x N matrices by *positions* (row i = actual, column j = predicted), 0..N-1.
Cell = tuple[int, int]

WEIGHTINGS: tuple[Weighting, ...] = get_args(Weighting)
SCALES: tuple[Scale, ...] = get_args(Scale)
UNDEFINED_REASONS: tuple[UndefinedReason, ...] = get_args(UndefinedReason)
