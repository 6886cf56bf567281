r"""The seven steps of weighted kappa, each written once. Every surface renders these blocks.

The walkthrough page, the step-by-step page, practice, the command line, the worksheets, the
checker's solution and a notebook all number and name the steps from :data:`STEPS`, so "step 4"
means the expected matrix everywhere; and each step says what it says in one place, its
:meth:`Step.blocks` (:mod:`.blocks`): the explanation, its notes, the generic formulas, the same
with the reader's numbers, what it says of the followed cell, its charts, and for kappa the
verdict. Where each step lives:

==  =============  ==========================================  ===============================
#   slug           computed in ``qwk_explained.core``           written by ``present.formulas``
==  =============  ==========================================  ===============================
1   observed       ``counting.count_pairs``, ``steps``          ``observed_generic``, ``_cell``
2   weights        ``weights.weight_matrix``                    ``weights_generic``, ``_cell``
3   histograms     ``steps.walkthrough``: margins of O          ``histograms_generic`` ...
4   expected       ``steps.walkthrough``: outer(h_a, h_p) / n   ``expected_generic``, ``_cell``
5   normalization  ``steps.walkthrough``: O / n and E / n       ``normalization_generic`` ...
6   sums           ``steps.walkthrough``: num and den           ``numerator_*``, ``denominator_*``
7   kappa          ``steps.walkthrough``: 1 - num / den         ``kappa_generic``, ``_plugged``
==  =============  ==========================================  ===============================

Each step's title and explanation are the locale keys ``steps.<slug>_title`` and
``steps.<slug>_text`` (one explanation per step, in the app, the terminal and the documents
alike); its formulas come twice, generic (symbols only) and with the reader's numbers plugged in
for one followed cell. The charts a step draws are :data:`FIGURES`: what each shows, its colours
and the symbol that names it in a formula, read by the HTML charts, the plotly figures and the
tables of a document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Quantity
from qwk_explained.teaching import cells
from qwk_explained.teaching.interpret import shown_interval

from . import formulas, inference, losses
from .blocks import Block, Chart, Formula, Heading, Metric, Table, Text
from .colours import HeatmapKind
from .i18n import t
from .numbers import format_label, format_number, format_percent

StepSlug = Literal["observed", "weights", "histograms", "expected", "normalization", "sums",
                   "kappa"]
SLUGS: tuple[StepSlug, ...] = get_args(StepSlug)

#: The walkthrough's charts, by the result's attribute they draw (and the two histograms), and
#: step 6's cost maps (``cost`` and ``signed_cost``, from the result's ``cost_map``).
FigureName = Literal["observed", "weights", "histograms", "expected", "observed_norm",
                     "expected_norm", "weighted_observed", "weighted_expected", "cost",
                     "signed_cost"]
FIGURE_NAMES: tuple[FigureName, ...] = get_args(FigureName)

__all__ = ["BY_SLUG", "COST_FIGURES", "FIGURES", "FIGURE_NAMES", "SLUGS", "STEPS", "STEP_OF",
           "Figure", "FigureName", "Quantity", "Step", "StepSlug", "figure_values", "items_text",
           "step", "verdict_blocks"]


# --- the charts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One chart of the walkthrough: a matrix of the result (or the two histograms)."""

    name: FigureName
    #: The quantity whose arithmetic the chart shows (the weighted matrices add up to num and
    #: den); ``None`` for the two histograms, which are two quantities.
    quantity: Quantity | None
    #: Its colours: one colour-blind-safe scale per meaning (:mod:`.colours`).
    kind: HeatmapKind
    #: Counts are written as integers.
    integer: bool
    #: The symbol that names the matrix in the formulas (and its LaTeX table).
    symbol: str
    #: One cell's arithmetic, as :mod:`.formulas` writes it (``None`` for the histograms).
    cell: Callable[[Walkthrough, int, int, str], str] | None

    @property
    def title_key(self) -> str:
        return f"steps.{self.name}_chart"


def _weighted_cell(which: Literal["O", "E"]) -> Callable[[Walkthrough, int, int, str], str]:
    return lambda result, i, j, lang: formulas.weighted_cell(result, i, j, lang, which)


def _normalized_cell(which: Literal["O", "E"]) -> Callable[[Walkthrough, int, int, str], str]:
    return lambda result, i, j, lang: formulas.normalized_cell(result, i, j, lang, which)


FIGURES: dict[FigureName, Figure] = {figure.name: figure for figure in (
    Figure("observed", "observed", "counts", True, "O", formulas.observed_cell),
    Figure("weights", "weights", "weights", False, "w", formulas.weights_cell),
    Figure("histograms", None, "counts", True, "h", None),
    Figure("expected", "expected", "counts", False, "E", formulas.expected_cell),
    Figure("observed_norm", "observed_norm", "proportions", False, r"\frac{O}{n}",
           _normalized_cell("O")),
    Figure("expected_norm", "expected_norm", "proportions", False, r"\frac{E}{n}",
           _normalized_cell("E")),
    Figure("weighted_observed", "numerator", "products", False, r"w \cdot \frac{O}{n}",
           _weighted_cell("O")),
    Figure("weighted_expected", "denominator", "products", False, r"w \cdot \frac{E}{n}",
           _weighted_cell("E")),
    Figure("cost", None, "costs", False, r"\text{cost}", formulas.cost_cell),
    Figure("signed_cost", None, "signed", False, r"\text{cost}^{\pm}", formulas.signed_cost_cell),
)}


#: Step 6's two cost maps: derived from the result's steps, not steps of their own.
COST_FIGURES: tuple[FigureName, ...] = ("cost", "signed_cost")


def figure_values(result: Walkthrough, name: FigureName) -> NDArray[np.float64]:
    """The N x N numbers chart ``name`` draws: the result's matrix of that name, or a cost map
    (NaN everywhere when kappa is undefined: no cost can be said)."""
    if name in COST_FIGURES:
        costs = result.cost_map
        if costs is None:
            return np.full((result.size, result.size), np.nan)
        return costs.cost if name == "cost" else costs.signed
    values: NDArray[np.float64] = getattr(result, name)
    return values


# --- the steps -----------------------------------------------------------------------------------

#: What a step writes besides its heading, explanation and charts.
Body = Callable[[Walkthrough, Cell, str, "KappaStatistics | None"], Iterator[Block]]


@dataclass(frozen=True)
class Step:
    """One step: its number, slug, the quantities it produces, what it writes, what it draws.

    ``per_cell`` says whether the step's result works out the followed cell ``(i, j)``
    (positions), or the whole step (the histograms, the sums, kappa), which does not depend on
    the cell. ``figures`` are the charts the step shows, in order (drawn side by side when there
    are two).
    """

    number: int
    slug: StepSlug
    quantities: tuple[Quantity, ...]
    per_cell: bool
    figures: tuple[FigureName, ...]
    body: Body
    #: What the step writes after its charts (step 6: where kappa is lost, which fix pays most).
    after: Body | None = None

    @property
    def title_key(self) -> str:
        return f"steps.{self.slug}_title"

    @property
    def text_key(self) -> str:
        return f"steps.{self.slug}_text"

    def heading(self, lang: str) -> str:
        """``Step 4: the expected matrix E`` in ``lang``."""
        return t(lang, "steps.step_heading", number=self.number, title=t(lang, self.title_key))

    def blocks(self, result: Walkthrough, cell: Cell, lang: str,
               stats: KappaStatistics | None = None) -> list[Block]:
        """The whole step in ``lang``: heading, explanation, notes, generic formulas, the same
        with the reader's numbers (working out ``cell``, positions), what it says of that cell,
        its charts; for kappa the verdict, with the interval given ``stats``."""
        return [Heading(self.heading(lang), 2, anchor=self.slug),
                Text(t(lang, self.text_key), role="explanation"),
                *self.body(result, cell, lang, stats),
                *(Chart(name, result, quantity=FIGURES[name].quantity) for name in self.figures),
                *(self.after(result, cell, lang, stats) if self.after is not None else ())]


def _with_your_numbers(lang: str) -> Text:
    return Text(t(lang, "steps.with_your_numbers"), "with_your_numbers")


def _label(result: Walkthrough, index: int, lang: str) -> str:
    return format_label(result.labels[index], lang)


def items_text(result: Walkthrough, cell: Cell, lang: str) -> str:
    """Which items fall in ``cell`` (numbered from 1 in the order of the lists; the first
    :data:`~qwk_explained.teaching.cells.ITEMS_SHOWN` and how many more), or that none does."""
    i, j = cell
    items = cells.items_in_cell(result, i, j)
    shown, more = cells.capped(items)
    if not shown:
        return t(lang, "step_by_step.cell_no_items", row=_label(result, i, lang),
                 col=_label(result, j, lang))
    # The count first, then the numbers: "10" alone next to O = 1 read as ten items.
    listed = t(lang, "step_by_step.item_separator").join(format_label(k, lang) for k in shown)
    if more:
        return t(lang, "step_by_step.cell_items_more", count=len(items), items=listed,
                 more=format_number(more, lang))
    return t(lang, "step_by_step.cell_items", count=len(items), items=listed)


def _observed(result: Walkthrough, cell: Cell, lang: str,
              stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.observed_generic(), "generic", "observed")
    yield _with_your_numbers(lang)
    if result.actual is not None:  # a contingency table has no items to list
        yield Text(items_text(result, cell, lang), "cell_items", "cell", "observed")
    yield Formula(formulas.observed_cell(result, *cell, lang), "result", "observed")


def _weights(result: Walkthrough, cell: Cell, lang: str,
             stats: KappaStatistics | None) -> Iterator[Block]:
    kind = result.weights_name
    if result.size < 2:  # nothing to disagree about: no formula has an N - 1 to divide by
        yield Text(t(lang, "steps.weights_single"), "weights_single")
    else:
        yield Text(t(lang, f"steps.weights_kind_{kind}"), "weights_kind")
        if kind in ("quadratic", "linear") and not np.all(np.diff(result.labels) == 1):
            # The scikit-learn trap the app teaches: weights come from positions, not values.
            yield Text(t(lang, "steps.weights_positions"), "weights_positions")
    yield Formula(formulas.weights_generic(kind), "generic", "weights")
    yield _with_your_numbers(lang)
    yield Formula(formulas.weights_cell(result, *cell, lang), "result", "weights")


def _histograms(result: Walkthrough, cell: Cell, lang: str,
                stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.histograms_generic(), "generic")
    yield _with_your_numbers(lang)
    yield Formula(formulas.histogram_plugged(result, lang), "result")
    i, j = cell
    yield Text(t(lang, "steps.histograms_cell", row=_label(result, i, lang),
                 col=_label(result, j, lang)), "histograms_cell", "cell")
    yield Formula(formulas.histogram_cell(result, i, lang, "a"), "cell", "actual_hist")
    yield Formula(formulas.histogram_cell(result, j, lang, "p"), "cell", "predicted_hist")


def _expected(result: Walkthrough, cell: Cell, lang: str,
              stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.expected_generic(), "generic", "expected")
    yield _with_your_numbers(lang)
    yield Formula(formulas.expected_cell(result, *cell, lang), "result", "expected")


def _normalization(result: Walkthrough, cell: Cell, lang: str,
                   stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.normalization_generic(), "generic")
    yield _with_your_numbers(lang)
    yield Formula(formulas.normalization_cell(result, *cell, lang), "result")
    yield Text(t(lang, "steps.normalization_why"), "normalization_why")
    yield Formula(formulas.normalization_identity(), "note")


def _sums(result: Walkthrough, cell: Cell, lang: str,
          stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.numerator_generic(), "generic", "numerator")
    yield Formula(formulas.denominator_generic(), "generic", "denominator")
    yield _with_your_numbers(lang)
    yield Formula(formulas.numerator_plugged(result, lang), "result", "numerator")
    yield Formula(formulas.denominator_plugged(result, lang), "result", "denominator")
    # The followed cell's share of each sum: how much of the disagreement comes from it.
    i, j = cell
    num_share, den_share = cells.cell_shares(result, i, j)
    for name, share, latex in (
            ("num", num_share, formulas.numerator_share_latex(result, i, j, lang)),
            ("den", den_share, formulas.denominator_share_latex(result, i, j, lang))):
        if share is None or latex is None:
            yield Text(t(lang, f"step_by_step.share_{name}_zero"), f"share_{name}", "cell")
        else:
            yield Formula(latex, "cell")
            said = t(lang, f"step_by_step.share_{name}_text", share=format_percent(share, lang))
            yield Text(said, f"share_{name}", "cell")


def _where_lost(result: Walkthrough, cell: Cell, lang: str,
                stats: KappaStatistics | None) -> Iterator[Block]:
    """After the sums: where kappa is lost (each cell's cost and its cost against chance, the
    costliest cells in words with their items, the followed cell's two costs) and which fix pays
    most (one item of a cell predicted a level closer, or left out; a row follows its cell)."""
    yield Heading(t(lang, "losses.title"), 3, anchor="where-lost")
    costs = losses.cost_sentences(result, lang)
    if result.cost_map is None:
        yield from (Text(sentence.text, sentence.name) for sentence in costs)
        return
    yield Text(costs[0].text, "losses_explain")
    yield Formula(formulas.side_by_side([formulas.cost_generic(),
                                         formulas.signed_cost_generic()]), "generic")
    yield Chart("cost", result)
    yield Chart("signed_cost", result)
    # The costliest cells in one paragraph, then what the signed map says in another.
    yield Text(" ".join(sentence.text for sentence in costs[1:]), costs[-1].name)
    yield Text(" ".join(sentence.text for sentence in losses.signed_sentences(result, lang)),
               "signed_explain")
    yield Formula(formulas.side_by_side([formulas.cost_cell(result, *cell, lang),
                                         formulas.signed_cost_cell(result, *cell, lang)]),
                  "cell")
    yield Heading(t(lang, "influence.title"), 3, anchor="fixes")
    fixes = losses.fixes(result, lang)
    for sentence in losses.influence_sentences(result, lang, fixes):
        yield Text(sentence.text, sentence.name)
        if sentence.name == "explain" and fixes:
            header = [t(lang, f"influence.col_{name}") for name in losses.FIX_COLUMNS]
            rows = tuple((cells_[0], cells_[1:]) for cells_ in map(losses.fix_cells, fixes))
            yield Table("", header[0], tuple(header[1:]), rows, "fixes",
                        cells=tuple(fix.cell for fix in fixes))


def _kappa(result: Walkthrough, cell: Cell, lang: str,
           stats: KappaStatistics | None) -> Iterator[Block]:
    yield Formula(formulas.kappa_generic(), "generic", "kappa")
    yield _with_your_numbers(lang)
    yield Formula(formulas.kappa_plugged(result, lang), "result", "kappa")
    yield from verdict_blocks(result, lang, stats)


def verdict_blocks(result: Walkthrough, lang: str,
                   stats: KappaStatistics | None = None) -> list[Block]:
    """Kappa, its Landis and Koch band (with its caveat for weighted kappa) and, given ``stats``,
    the interval as it may honestly be shown (:mod:`.inference`); or why kappa is undefined.
    Each sentence is named, so that a page can give caveats less weight."""
    label = t(lang, "common.kappa")
    if result.kappa is None:  # "Undefined" alone, "Kappa: undefined" in a sentence
        value, in_sentence = t(lang, "common.undefined"), t(lang, "common.in_sentence.undefined")
    else:
        value = in_sentence = format_number(result.kappa, lang)
    blocks: list[Block] = [Metric(label, value, t(lang, "cli.value_line", label=label,
                                                   value=in_sentence), "kappa",
                                  help=t(lang, "steps.kappa_help"), quantity="kappa")]
    if result.kappa is None:
        return [*blocks, Text(t(lang, f"undefined.{result.undefined_reason}"), "undefined",
                              "verdict")]
    blocks.append(Text(t(lang, "steps.kappa_band", band=inference.band_name(lang, result)),
                       "band", "verdict"))
    chance = inference.chance_sentence(lang, result)
    if chance is not None:  # Landis and Koch call 0 "slight": that it is chance level is apart
        blocks.append(Text(chance, "band", "verdict"))
    caveat = inference.band_caveat(lang, result)
    if caveat is not None:
        blocks.append(Text(caveat, "caveat", "verdict"))
    if stats is None:
        return blocks
    sentences = inference.interval_sentences(lang, result, stats)
    if sentences:
        blocks += [Text(sentences[0], "interval", "verdict"),
                   Formula(formulas.ci_plugged(stats, lang, shown_interval(result, stats)),
                           "verdict"),
                   *(Text(note, "caveat", "verdict") for note in sentences[1:])]
    return blocks


STEPS: tuple[Step, ...] = (
    Step(1, "observed", ("observed",), True, ("observed",), _observed),
    Step(2, "weights", ("weights",), True, ("weights",), _weights),
    Step(3, "histograms", ("actual_hist", "predicted_hist"), False, ("histograms",),
         _histograms),
    Step(4, "expected", ("expected",), True, ("expected",), _expected),
    Step(5, "normalization", ("observed_norm", "expected_norm"), True,
         ("observed_norm", "expected_norm"), _normalization),
    Step(6, "sums", ("numerator", "denominator"), False,
         ("weighted_observed", "weighted_expected"), _sums, _where_lost),
    Step(7, "kappa", ("kappa",), False, (), _kappa),
)

BY_SLUG: dict[StepSlug, Step] = {step.slug: step for step in STEPS}
#: The step that produces each quantity (the checker names "the first wrong step" with it).
STEP_OF: dict[Quantity, Step] = {quantity: step for step in STEPS for quantity in step.quantities}


def step(slug: StepSlug) -> Step:
    """The step with this slug (``step("expected").number == 4``)."""
    return BY_SLUG[slug]
