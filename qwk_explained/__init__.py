"""qwk-explained: quadratic weighted kappa, step by step.

The package is pure Python + numpy. ``walkthrough`` keeps every intermediate step; the fast path
``quadratic_weighted_kappa`` computes only the number. Figures (plotly) live in
:mod:`qwk_explained.figures` and are imported only by the app; scikit-learn is never imported here.
"""

from __future__ import annotations

from .errors import InputError
from .fast import quadratic_weighted_kappa
from .ratings import MAX_ITEMS, MAX_RATINGS, parse_csv, parse_table, parse_vector
from .stats import KappaStatistics, kappa_statistics
from .steps import Walkthrough, walkthrough, walkthrough_from_table
from .weights import WEIGHTINGS, weight_matrix

__all__ = [
    "MAX_ITEMS",
    "MAX_RATINGS",
    "WEIGHTINGS",
    "InputError",
    "KappaStatistics",
    "Walkthrough",
    "kappa_statistics",
    "parse_csv",
    "parse_table",
    "parse_vector",
    "quadratic_weighted_kappa",
    "walkthrough",
    "walkthrough_from_table",
    "weight_matrix",
]

__version__ = "0.1.0"
