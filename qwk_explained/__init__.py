"""qwk-explained: quadratic weighted kappa, step by step.

Layers, each importing only the ones before it (checked by import-linter, see ``pyproject.toml``):

- :mod:`qwk_explained.core`: parse and validate ratings, count pairs, weights, every step of the
  walkthrough, statistics, the fast path. Pure Python + numpy.
- :mod:`qwk_explained.teaching`: cells, the checker's diagnoses, exercises, conventions, theory,
  examples, interpretation bands. Codes and numbers, no sentences.
- :mod:`qwk_explained.present`: languages and translations, numbers, LaTeX formulas, plotly
  figures (imported only where used), worksheets and the step catalogue. Sentences live here.
- :mod:`qwk_explained.cli`: the command line.
- :mod:`qwk_explained.notebook`: rich display in notebooks and a live widget. :func:`walkthrough`
  and :func:`walkthrough_from_table` come from there: their result is the core's
  :class:`Walkthrough`, able to show every step in a notebook (it loads nothing more until then).
  So does :func:`optimize_thresholds`: the core's :class:`Thresholds` (cut points that turn a
  model's scores into ratings), able to show itself.

scikit-learn is never imported here (only to cross-check, by the pitfalls page and the tests).
"""

from __future__ import annotations

from ._version import __version__ as __version__
from .core.csvfile import parse_csv
from .core.errors import InputError, QwkError
from .core.fast import quadratic_weighted_kappa
from .core.limits import MAX_ITEMS, MAX_RATINGS
from .core.parse import parse_vector
from .core.stats import KappaStatistics, kappa_statistics
from .core.steps import Walkthrough
from .core.tables import parse_table
from .core.thresholds import Thresholds, apply_thresholds
from .core.types import WEIGHTINGS
from .core.weights import weight_matrix
from .notebook.display import walkthrough, walkthrough_from_table
from .notebook.thresholds import optimize_thresholds

__all__ = [
    "MAX_ITEMS",
    "MAX_RATINGS",
    "WEIGHTINGS",
    "InputError",
    "KappaStatistics",
    "QwkError",
    "Thresholds",
    "Walkthrough",
    "apply_thresholds",
    "kappa_statistics",
    "parse_csv",
    "parse_table",
    "optimize_thresholds",
    "parse_vector",
    "quadratic_weighted_kappa",
    "walkthrough",
    "walkthrough_from_table",
    "weight_matrix",
]

