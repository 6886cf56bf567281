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

The names below are handed out lazily (PEP 562): ``import qwk_explained.core.steps`` runs this
file first, and importing them here would load the notebook layer (and every module of the
core) under the app and the command line, which never use it. Each name is imported from its
module the first time it is read, as scipy and scikit-learn do with their submodules.
``tests/engine/test_lazy_imports.py`` checks what each layer's import loads.

scikit-learn is never imported here (only to cross-check, by the pitfalls page and the tests).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the type checker and the reader see; at run time, __getattr__ below
    from ._version import __version__ as __version__
    from .core.csvfile import parse_csv
    from .core.errors import InputError, QwkError
    from .core.fast import quadratic_weighted_kappa
    from .core.limits import MAX_ITEMS, MAX_RATINGS
    from .core.paired import Comparison, compare
    from .core.parse import parse_vector
    from .core.stats import KappaStatistics, kappa_statistics
    from .core.steps import Walkthrough
    from .core.tables import parse_table
    from .core.thresholds import Thresholds, apply_thresholds
    from .core.types import WEIGHTINGS
    from .core.weights import weight_matrix
    from .notebook.display import walkthrough, walkthrough_from_table
    from .notebook.thresholds import optimize_thresholds

#: Each public name and the module (relative to this package) that defines it.
_HOMES = {
    "__version__": "._version",
    "MAX_ITEMS": ".core.limits",
    "MAX_RATINGS": ".core.limits",
    "WEIGHTINGS": ".core.types",
    "Comparison": ".core.paired",
    "InputError": ".core.errors",
    "KappaStatistics": ".core.stats",
    "QwkError": ".core.errors",
    "Thresholds": ".core.thresholds",
    "Walkthrough": ".core.steps",
    "apply_thresholds": ".core.thresholds",
    "compare": ".core.paired",
    "kappa_statistics": ".core.stats",
    "optimize_thresholds": ".notebook.thresholds",
    "parse_csv": ".core.csvfile",
    "parse_table": ".core.tables",
    "parse_vector": ".core.parse",
    "quadratic_weighted_kappa": ".core.fast",
    "walkthrough": ".notebook.display",
    "walkthrough_from_table": ".notebook.display",
    "weight_matrix": ".core.weights",
}

__all__ = [
    "MAX_ITEMS",
    "MAX_RATINGS",
    "WEIGHTINGS",
    "Comparison",
    "InputError",
    "KappaStatistics",
    "QwkError",
    "Thresholds",
    "Walkthrough",
    "apply_thresholds",
    "compare",
    "kappa_statistics",
    "optimize_thresholds",
    "parse_csv",
    "parse_table",
    "parse_vector",
    "quadratic_weighted_kappa",
    "walkthrough",
    "walkthrough_from_table",
    "weight_matrix",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # read once: later look-ups find it without this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
