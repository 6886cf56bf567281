"""Notebooks: walkthroughs that display every step, their figures, and a live widget.

- :mod:`.display`: :class:`ExplainedWalkthrough`, what :func:`qwk_explained.walkthrough` returns,
  shows itself in Jupyter, VS Code, Colab or Kaggle (``result.explain("es")`` in another
  language, ``result.explain(step="expected")`` for one step, ``result.figures()``,
  ``result.statistics()``). It needs nothing beyond numpy to compute; showing the richest output
  uses the ``notebook`` extra.
- :func:`explore`: a widget with the two rating vectors as editable fields, the weighting and the
  language, and O, w, E and kappa following every edit (``pip install "qwk-explained[notebook]"``).

Built on every other layer (core, teaching, present, cli); nothing below imports it, and only
this package imports IPython, anywidget or traitlets (import-linter contracts in pyproject.toml).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .display import (
    ExplainedStatistics,
    ExplainedWalkthrough,
    Explanation,
    Figures,
    NotebookError,
    missing_extra,
    walkthrough,
    walkthrough_from_table,
)

if TYPE_CHECKING:
    from .widget import KappaExplorer

__all__ = ["ExplainedStatistics", "ExplainedWalkthrough", "Explanation", "Figures",
           "NotebookError", "explore", "walkthrough", "walkthrough_from_table"]


def explore(actual: Any, predicted: Any, *, weights: str = "quadratic",
            lang: str = "en") -> KappaExplorer:
    """A live widget: edit the ratings, change the weighting or the language, watch O, w, E and
    kappa follow.

    Parameters
    ----------
    actual, predicted : list of int, array or str
        The two raters' ratings of the same items, as :func:`qwk_explained.walkthrough` takes
        them. Text that is not a list of whole numbers is kept in its field with the message
        saying what to fix, as in the app.
    weights : {"quadratic", "linear", "unweighted"}, default="quadratic"
    lang : {"en", "es", "zh", "tr"}, default="en"

    Returns
    -------
    KappaExplorer
        An anywidget whose traits ``actual``, ``predicted`` (lists of int), ``weights`` and
        ``lang`` can be read and set from Python; ``kappa`` (float, ``None`` when undefined) is
        read-only and follows every change. Its JavaScript ships inside the package: no
        internet connection and no server besides the notebook's kernel.
    """
    try:
        from .widget import KappaExplorer
    except ImportError as error:  # anywidget, the notebook extra
        raise missing_extra(lang, error) from error
    return KappaExplorer(actual, predicted, weights=weights, lang=lang)
