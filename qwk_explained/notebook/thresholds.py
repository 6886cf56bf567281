"""Cut points that explain themselves in a notebook, in the reader's language.

:func:`qwk_explained.optimize_thresholds` returns an :class:`ExplainedThresholds`: the core's
:class:`~qwk_explained.core.thresholds.Thresholds` (it *is* one: same fields), plus what a
notebook asks of an object to show it. Its plain text is what ``qwk-explained thresholds``
prints, its Markdown and HTML the same outline (:func:`~qwk_explained.present.thresholds.
threshold_blocks`) with tables; ``application/json`` is the command's ``--json`` object, given
only when asked for, as for a walkthrough (see :mod:`.display`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from qwk_explained.core import thresholds as core_thresholds
from qwk_explained.core.thresholds import STARTS, StartName, Thresholds
from qwk_explained.core.types import RatingsLike, Weighting

from .display import MimeBundle, OutlinedResult, _language

if TYPE_CHECKING:
    from qwk_explained.present.blocks import Block

__all__ = ["ExplainedThresholds", "ThresholdsExplanation", "optimize_thresholds"]


@dataclass(frozen=True)
class ExplainedThresholds(Thresholds):
    """A :class:`~qwk_explained.core.thresholds.Thresholds` that shows itself in a notebook:
    displaying it is ``result.explain()`` in the language of the environment."""

    def explain(self, lang: str | None = None) -> ThresholdsExplanation:
        """The cut points, kappa, its cross-validated value and the search, in ``lang``.

        Examples
        --------
        >>> from qwk_explained import optimize_thresholds
        >>> result = optimize_thresholds([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.9, 1.2, 1.8, 2.4],
        ...                              folds=0)
        >>> "Puntos de corte: 0,65; 1,5" in result.explain("es").text
        True
        """
        return ThresholdsExplanation(self, _language(lang))

    def _repr_mimebundle_(self, include: Collection[str] | None = None,
                          exclude: Collection[str] | None = None) -> MimeBundle:
        return self.explain()._repr_mimebundle_(include, exclude)


@dataclass(frozen=True, eq=False)
class ThresholdsExplanation(OutlinedResult):
    """A :class:`Thresholds` result written out in one language; displays itself."""

    result: ExplainedThresholds
    lang: str

    @cached_property
    def _blocks(self) -> list[Block]:
        from qwk_explained.present.thresholds import threshold_blocks

        return threshold_blocks(self.result, self.lang)

    @property
    def json(self) -> dict[str, Any]:
        """Every number, as the command's ``--json`` object."""
        from qwk_explained.cli.thresholds import thresholds_json

        return thresholds_json(self.result)


def optimize_thresholds(actual: RatingsLike, scores: Any, *, weights: Weighting = "quadratic",
                        min_rating: int | None = None, max_rating: int | None = None,
                        folds: int = 5, seed: int = 0,
                        starts: Sequence[StartName] = STARTS) -> ExplainedThresholds:
    """The cut points that turn scores into ratings with the highest kappa, able to explain
    themselves in a notebook.

    The computation is :func:`qwk_explained.core.thresholds.optimize_thresholds` (same
    parameters, same errors, same guarantees); the result also displays itself (see
    :class:`ExplainedThresholds`).

    Examples
    --------
    >>> from qwk_explained import Thresholds, optimize_thresholds
    >>> result = optimize_thresholds([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.9, 1.2, 1.8, 2.4], folds=0)
    >>> isinstance(result, Thresholds), result.cuts, result.kappa
    (True, (0.65, 1.5), 1.0)
    """
    result = core_thresholds.optimize_thresholds(
        actual, scores, weights=weights, min_rating=min_rating, max_rating=max_rating,
        folds=folds, seed=seed, starts=starts)
    return ExplainedThresholds(**vars(result))
