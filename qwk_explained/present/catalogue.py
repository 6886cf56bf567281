r"""The seven steps of weighted kappa, listed once. Every surface iterates this catalogue.

The walkthrough page, the step-by-step page, the command line, the worksheets and the checker
all number and name the steps from :data:`STEPS`, so "step 4" means the expected matrix
everywhere. Where each step lives:

==  =============  ==========================================  ===============================
#   slug           computed in ``qwk_explained.core``           written by ``present.formulas``
==  =============  ==========================================  ===============================
1   observed       ``counting.count_pairs``, ``steps``          ``observed_generic``, ``_cell``
2   weights        ``weights.weight_matrix``                    ``weights_generic``, ``_cell``
3   histograms     ``steps._from_counts``: margins of O         ``histograms_generic`` ...
4   expected       ``steps._from_counts``: outer(h_a, h_p) / n  ``expected_generic``, ``_cell``
5   normalization  ``steps._from_counts``: O / n and E / n      ``normalization_generic`` ...
6   sums           ``steps._from_counts``: num and den          ``numerator_*``, ``denominator_*``
7   kappa          ``steps._from_counts``: 1 - num / den        ``kappa_generic``, ``_plugged``
==  =============  ==========================================  ===============================

Each step's title and explanation are the locale keys ``steps.<slug>_title`` and
``steps.<slug>_text``; its formulas come twice, generic (symbols only) and with the reader's
numbers plugged in for one followed cell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Quantity, WeightsName

from . import formulas
from .i18n import t

StepSlug = Literal["observed", "weights", "histograms", "expected", "normalization", "sums",
                   "kappa"]
SLUGS: tuple[StepSlug, ...] = get_args(StepSlug)

#: The walkthrough's figures, by the result's attribute they draw (and the two histograms); built
#: by :func:`qwk_explained.present.figures.walkthrough_figure`.
FigureName = Literal["observed", "weights", "histograms", "expected", "observed_norm",
                     "expected_norm", "weighted_observed", "weighted_expected"]
FIGURE_NAMES: tuple[FigureName, ...] = get_args(FigureName)

__all__ = ["BY_SLUG", "FIGURE_NAMES", "SLUGS", "STEPS", "STEP_OF", "FigureName", "Quantity", "Step",
           "StepSlug", "step"]


@dataclass(frozen=True)
class Step:
    """One step: its number, slug, the quantities it produces, and its two kinds of formula.

    ``generic(weights_name)`` gives the symbolic formulas (LaTeX); ``plugged(result, cell, lang)``
    the same formulas with the reader's numbers. ``per_cell`` says whether the plugged formula
    works out the followed cell ``(i, j)`` (positions) or the whole step (the histograms, the
    sums, kappa), which does not depend on the cell. ``figures`` are the charts the step shows,
    in order (drawn side by side when there are two).
    """

    number: int
    slug: StepSlug
    quantities: tuple[Quantity, ...]
    generic: Callable[[WeightsName], tuple[str, ...]]
    plugged: Callable[[Walkthrough, Cell, str], tuple[str, ...]]
    per_cell: bool
    figures: tuple[FigureName, ...]

    @property
    def title_key(self) -> str:
        return f"steps.{self.slug}_title"

    @property
    def text_key(self) -> str:
        return f"steps.{self.slug}_text"

    def heading(self, lang: str) -> str:
        """``Step 4: the expected matrix E`` in ``lang``."""
        return t(lang, "steps.step_heading", number=self.number, title=t(lang, self.title_key))


def _generic_weights(kind: WeightsName) -> tuple[str, ...]:
    return (formulas.weights_generic(kind),)


STEPS: tuple[Step, ...] = (
    Step(1, "observed", ("observed",),
         lambda kind: (formulas.observed_generic(),),
         lambda result, cell, lang: (formulas.observed_cell(result, *cell, lang),), per_cell=True,
         figures=("observed",)),
    Step(2, "weights", ("weights",),
         _generic_weights,
         lambda result, cell, lang: (formulas.weights_cell(result, *cell, lang),), per_cell=True,
         figures=("weights",)),
    Step(3, "histograms", ("actual_hist", "predicted_hist"),
         lambda kind: (formulas.histograms_generic(),),
         lambda result, cell, lang: (formulas.histogram_plugged(result, lang),), per_cell=False,
         figures=("histograms",)),
    Step(4, "expected", ("expected",),
         lambda kind: (formulas.expected_generic(),),
         lambda result, cell, lang: (formulas.expected_cell(result, *cell, lang),), per_cell=True,
         figures=("expected",)),
    Step(5, "normalization", ("observed_norm", "expected_norm"),
         lambda kind: (formulas.normalization_generic(),),
         lambda result, cell, lang: (formulas.normalization_cell(result, *cell, lang),),
         per_cell=True,
         figures=("observed_norm", "expected_norm")),
    Step(6, "sums", ("numerator", "denominator"),
         lambda kind: (formulas.numerator_generic(), formulas.denominator_generic()),
         lambda result, cell, lang: (formulas.numerator_plugged(result, lang),
                                     formulas.denominator_plugged(result, lang)),
         per_cell=False,
         figures=("weighted_observed", "weighted_expected")),
    Step(7, "kappa", ("kappa",),
         lambda kind: (formulas.kappa_generic(),),
         lambda result, cell, lang: (formulas.kappa_plugged(result, lang),), per_cell=False,
         figures=()),
)

BY_SLUG: dict[StepSlug, Step] = {step.slug: step for step in STEPS}
#: The step that produces each quantity (the checker names "the first wrong step" with it).
STEP_OF: dict[Quantity, Step] = {quantity: step for step in STEPS for quantity in step.quantities}


def step(slug: StepSlug) -> Step:
    """The step with this slug (``step("expected").number == 4``)."""
    return BY_SLUG[slug]
