r"""A walkthrough as one outline of typed blocks, before any markup.

Every written form of a walkthrough is drawn from this outline: the downloaded worksheet
(Markdown and LaTeX, :mod:`.worksheet`), the checker page's solution, a notebook's Markdown, HTML
and plain text (:mod:`qwk_explained.notebook`), the app's verdict. So a step says the same
sentences, formulas and tables wherever it is read. Sentences come from the locales (``steps.*``
for the steps, as on the app's pages; ``cli.*`` for the header and the caveats, as in the
terminal; ``checker.ws.*`` for what a downloaded document adds), formulas from the step catalogue
(:data:`~.catalogue.STEPS`) and :mod:`.formulas`, numbers from :mod:`.numbers`.

What differs between the surfaces on purpose is a :class:`Surface`: a downloaded document
introduces itself and its data, lists long vectors, tabulates every matrix, writes the sums term
by term and ends with the statistics; a notebook keeps to the terminal's header and limits (its
plain text *is* the terminal's text) and gives the interval in the verdict.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.teaching.cells import default_cell
from qwk_explained.teaching.interpret import shown_interval

from . import formulas, inference
from .catalogue import STEPS, FigureName, Step
from .i18n import t
from .numbers import format_label, format_number, format_p_value, format_percent

#: Vectors up to this length are echoed under the terminal's header (and a notebook's).
MAX_ECHOED_ITEMS = 40
#: Matrices up to this size are printed in a terminal; wider ones would wrap into an unreadable
#: mess. A notebook keeps the same limit (the heatmaps of ``figures()`` show a wider one), and a
#: longer scale's histograms read better as one row per rating on every surface.
MAX_PRINTED_SIZE = 20
#: Matrices up to this size are also written as one LaTeX matrix (``bmatrix``), as on the page.
MAX_BMATRIX = 8

#: The symbol of each matrix in the formulas, which names it in its LaTeX form.
MATRIX_SYMBOLS: dict[FigureName, str] = {
    "observed": "O", "weights": "w", "expected": "E",
    "observed_norm": r"\frac{O}{n}", "expected_norm": r"\frac{E}{n}",
    "weighted_observed": r"w \cdot \frac{O}{n}", "weighted_expected": r"w \cdot \frac{E}{n}",
}


@dataclass(frozen=True)
class Source:
    """Where the result came from: two vectors with the scale settings, or a contingency table."""

    from_table: bool = False
    scale: Scale = "range"
    min_rating: int | None = None
    max_rating: int | None = None


@dataclass(frozen=True)
class Surface:
    """What a surface decides on purpose about the outline it writes."""

    #: A document of its own (a file to download): a title, an introduction and a section on the
    #: data head it, and a section on the standard errors ends it (so the verdict leaves the
    #: interval to that section). Otherwise the terminal's header heads it.
    document: bool
    #: Rating vectors up to this length are listed under the header.
    max_listed_items: int
    #: Matrices up to this size are tables, a larger one a sentence saying so; ``None``: all.
    max_table_size: int | None
    #: The two sums of step 6 with every term written out, as a learner adds them by hand.
    every_term: bool


#: The downloaded worksheet and the checker's solution.
WORKSHEET = Surface(document=True, max_listed_items=200, max_table_size=None, every_term=True)
#: A notebook's explanation: the terminal's limits, since its plain text is the terminal's text.
NOTEBOOK = Surface(document=False, max_listed_items=MAX_ECHOED_ITEMS,
                   max_table_size=MAX_PRINTED_SIZE, every_term=False)


# --- the blocks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """A title; ``level`` 1 heads a whole explanation, 2 a step or a section."""

    text: str
    level: int


@dataclass(frozen=True)
class Text:
    """A sentence from the locales (it may hold Markdown emphasis, as the app shows it)."""

    text: str
    #: A CSS-safe name for what the sentence says, when a reader (or a test, or the app, which
    #: gives a caveat less weight) looks for it.
    name: str = ""


@dataclass(frozen=True)
class Formula:
    """One display formula in LaTeX, from :mod:`.formulas`."""

    latex: str


@dataclass(frozen=True)
class Table:
    """A labelled grid: a header row (``corner`` above the row labels), then labelled rows."""

    caption: str
    corner: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    #: A CSS-safe name for what the table holds (``observed``, ``statistics``...).
    name: str = ""
    #: The same matrix as one LaTeX ``bmatrix``, when it is small enough to read as one: what a
    #: surface that typesets formulas (the LaTeX worksheet, the checker's solution) draws.
    latex: str = ""


Block = Heading | Text | Formula | Table


# --- tables --------------------------------------------------------------------------------------


def _labels(result: Walkthrough, lang: str) -> tuple[str, ...]:
    return tuple(format_label(v, lang) for v in result.labels)


def _caption(name: FigureName, lang: str) -> str:
    """The caption of a quantity's table: the title of its chart in the app."""
    return t(lang, f"steps.{name}_chart")


def _matrix_table(result: Walkthrough, name: FigureName, lang: str) -> Table:
    values: NDArray[Any] = getattr(result, name)
    counts = name == "observed"
    labels = _labels(result, lang)
    rows = tuple(
        (label, tuple(format_number(int(v) if counts else float(v), lang) for v in row))
        for label, row in zip(labels, values.tolist(), strict=True))
    latex = formulas.matrix_latex(values, lang, integer=counts, max_size=MAX_BMATRIX,
                                  name=MATRIX_SYMBOLS[name])
    return Table(_caption(name, lang), t(lang, "checker.ws.corner"), labels, rows, name,
                 latex or "")


def _histogram_table(result: Walkthrough, lang: str) -> Table:
    actual = tuple(format_number(int(v), lang) for v in result.actual_hist)
    predicted = tuple(format_number(int(v), lang) for v in result.predicted_hist)
    names = (t(lang, "steps.actual_name"), t(lang, "steps.predicted_name"))
    caption, corner = _caption("histograms", lang), t(lang, "steps.axis_rating")
    if result.size <= MAX_PRINTED_SIZE:
        return Table(caption, corner, _labels(result, lang),
                     ((names[0], actual), (names[1], predicted)), "histograms")
    # A long scale reads better as one row per rating (as in the terminal).
    rows = tuple((label, (a, p)) for label, a, p in zip(_labels(result, lang), actual, predicted,
                                                        strict=True))
    return Table(caption, corner, names, rows, "histograms")


def quantity_blocks(result: Walkthrough, name: FigureName, lang: str,
                    max_table_size: int | None = MAX_PRINTED_SIZE) -> list[Block]:
    """The table of one quantity of a step (``observed``, ``histograms``, ``expected_norm``...),
    or a sentence saying it is larger than ``max_table_size`` to be read as a table."""
    if name == "histograms":
        return [_histogram_table(result, lang)]
    if max_table_size is not None and result.size > max_table_size:
        return [Text(t(lang, "notebook.table_too_large", caption=_caption(name, lang),
                       size=format_number(result.size, lang)))]
    return [_matrix_table(result, name, lang)]


# --- the walkthrough -----------------------------------------------------------------------------


def _listed(values: Any, lang: str) -> str:
    return ", ".join(format_label(v, lang) for v in values)


def _data_blocks(result: Walkthrough, lang: str, source: Source,
                 surface: Surface) -> Iterator[Block]:
    """A document's title, introduction and section on the data."""
    name = result.weights_name
    yield Heading(t(lang, "checker.ws.title", kappa_name=t(lang, f"common.kappa_name.{name}")), 1)
    yield Text(t(lang, "checker.ws.intro"))
    yield Heading(t(lang, "checker.ws.data_heading"), 2)
    if source.from_table or result.actual is None or result.predicted is None:
        yield Text(t(lang, "checker.ws.data_table", count=result.n))
    elif result.n > surface.max_listed_items:
        yield Text(t(lang, "checker.ws.data_long", count=result.n))
    else:
        yield Text(t(lang, "checker.ws.data_vectors", count=result.n))
        yield from _value_lines(result.actual, result.predicted, lang)
    yield Text(t(lang, "checker.ws.settings",
                 weighting=t(lang, f"common.in_sentence.weights.{name}"),
                 size=format_number(result.size, lang), labels=_listed(result.labels, lang),
                 n=format_number(result.n, lang)))


def _value_lines(actual: Any, predicted: Any, lang: str) -> Iterator[Block]:
    for key, values in (("common.actual_ratings", actual), ("common.predicted_ratings", predicted)):
        yield Text(t(lang, "cli.value_line", label=t(lang, key), value=_listed(values, lang)))


def _terminal_header(result: Walkthrough, lang: str, source: Source,
                     surface: Surface) -> Iterator[Block]:
    """What is compared, with which weighting and scale: the terminal's header, as blocks."""
    yield Heading(t(lang, "cli.title", name=t(lang, f"common.kappa_name.{result.weights_name}")),
                  1)
    # Values inside a sentence take their in-sentence form, as in the terminal ("Ponderación:
    # cuadrática", not "Cuadrática").
    weighting = t(lang, f"common.in_sentence.weights.{result.weights_name}")
    labels = _listed(result.labels, lang)
    n, size = format_number(result.n, lang), format_number(result.size, lang)
    if source.from_table or result.actual is None or result.predicted is None:
        yield Text(t(lang, "cli.settings_table", weighting=weighting))
        yield Text(t(lang, "cli.input_table", n=n, size=size, labels=labels))
        return
    yield Text(t(lang, "cli.settings_vectors", weighting=weighting,
                 scale=t(lang, f"common.in_sentence.scale.{source.scale}")))
    if result.n <= surface.max_listed_items:
        yield from _value_lines(result.actual, result.predicted, lang)
    yield Text(t(lang, "cli.input_vectors", n=n, size=size, labels=labels))


def header_blocks(result: Walkthrough, lang: str, source: Source,
                  surface: Surface) -> list[Block]:
    """What is compared, with which weighting, and how to read every matrix."""
    head = _data_blocks if surface.document else _terminal_header
    return [*head(result, lang, source, surface), Text(t(lang, "checker.ws.layout"))]


def _consecutive(result: Walkthrough) -> bool:
    return bool(np.all(np.diff(result.labels) == 1))


def _plugged(step: Step, result: Walkthrough, cell: Cell, lang: str,
             surface: Surface) -> tuple[str, ...]:
    if step.slug == "sums" and surface.every_term:
        return formulas.numerator_plugged(result, lang), formulas.denominator_plugged(result, lang)
    return step.plugged(result, cell, lang)


def weights_sentence_key(result: Walkthrough) -> str:
    """What the weights step says of the weighting: on a one-rating scale only that there is
    nothing to weigh (no "largest penalty for the two ends of the scale": it has one end)."""
    return ("cli.weights_single" if result.size < 2
            else f"steps.weights_kind_{result.weights_name}")


def step_blocks(result: Walkthrough, step: Step, lang: str, cell: Cell,
                surface: Surface = NOTEBOOK) -> list[Block]:
    """One step as the app shows it: title, explanation, generic formulas, tables, then the same
    formulas with the reader's numbers (``cell``, positions, for the steps that work one out)."""
    blocks: list[Block] = [Heading(step.heading(lang), 2), Text(t(lang, step.text_key))]
    if step.slug == "weights":
        blocks.append(Text(t(lang, weights_sentence_key(result))))
        if not _consecutive(result) and result.weights_name in ("quadratic", "linear"):
            blocks.append(Text(t(lang, "cli.weights_positions")))
    blocks += [Formula(latex) for latex in step.generic(result.weights_name)]
    for name in step.figures:
        blocks += quantity_blocks(result, name, lang, surface.max_table_size)
    blocks.append(Text(t(lang, "steps.with_your_numbers")))
    blocks += [Formula(latex) for latex in _plugged(step, result, cell, lang, surface)]
    if step.slug == "normalization":
        blocks += [Text(t(lang, "steps.normalization_why")),
                   Formula(formulas.normalization_identity())]
    if step.slug == "kappa":
        blocks += verdict_blocks(result, lang, None if surface.document else result.statistics())
    return blocks


def verdict_blocks(result: Walkthrough, lang: str,
                   stats: KappaStatistics | None = None) -> list[Block]:
    """Kappa, its Landis and Koch band (with its caveat for weighted kappa) and, given ``stats``,
    the interval as it may honestly be shown, in the app's words (:mod:`.inference`); or why
    kappa is undefined. Each sentence is named, so that the app can give caveats less weight."""
    value = (t(lang, "common.undefined") if result.kappa is None
             else format_number(result.kappa, lang))
    blocks: list[Block] = [Text(t(lang, "cli.value_line", label=t(lang, "common.kappa"),
                                  value=value), "kappa")]
    if result.kappa is None:
        return [*blocks, Text(t(lang, f"undefined.{result.undefined_reason}"), "undefined")]
    blocks.append(Text(t(lang, "steps.kappa_band", band=inference.band_name(lang, result)),
                       "band"))
    chance = inference.chance_sentence(lang, result)
    if chance is not None:
        blocks.append(Text(chance, "band"))
    caveat = inference.band_caveat(lang, result)
    if caveat is not None:
        blocks.append(Text(caveat, "caveat"))
    if stats is None:
        return blocks
    sentences = inference.interval_sentences(lang, result, stats)
    if sentences:
        blocks += [Text(sentences[0], "interval"),
                   Formula(formulas.ci_plugged(stats, lang, shown_interval(result, stats))),
                   *(Text(note, "caveat") for note in sentences[1:])]
    return blocks


def outline(result: Walkthrough, lang: str, source: Source | None = None,
            confidence: float = 0.95, *, cell: Cell | None = None,
            surface: Surface = WORKSHEET) -> list[Block]:
    """The whole walkthrough in ``lang``: the header, every step of the catalogue in its order
    (working out ``cell``, positions; by default the app's first cell), and on a document the
    statistics at ``confidence`` with their formulas."""
    source = source or Source()
    cell = default_cell(result) if cell is None else cell
    blocks = header_blocks(result, lang, source, surface)
    for step in STEPS:
        blocks += step_blocks(result, step, lang, cell, surface)
    if surface.document:
        blocks += statistics_blocks(result, result.statistics(confidence), lang, derivations=True)
    return blocks


# --- statistics ----------------------------------------------------------------------------------


def _statistics_rows(result: Walkthrough, stats: KappaStatistics,
                     lang: str) -> Iterator[tuple[str, str]]:
    def num(value: float | None) -> str:
        return t(lang, "common.undefined") if value is None else format_number(value, lang)

    yield t(lang, "common.kappa"), num(stats.kappa)
    yield t(lang, "common.standard_error"), num(stats.se)
    yield t(lang, "common.standard_error_h0"), num(stats.se0)
    yield t(lang, "common.z_statistic"), num(stats.z)
    yield (t(lang, "common.p_value_two_sided"),
           num(None) if stats.p_value is None else format_p_value(stats.p_value, lang))
    label = t(lang, "checker.ws.ci_label", level=format_percent(stats.confidence, lang, 2))
    shown = shown_interval(result, stats)
    if shown is None:
        yield label, num(None)
    elif shown.low is None or shown.high is None:
        yield label, t(lang, "checker.ws.interval_withheld")
    else:
        yield label, t(lang, "checker.ws.interval", low=num(shown.low), high=num(shown.high))


def _derivations(result: Walkthrough, stats: KappaStatistics, lang: str) -> list[Block]:
    """How SE, SE0, z, p and the interval are worked out (Fleiss, Cohen and Everitt 1969, as SAS
    prints them), with the reader's numbers."""
    shown = shown_interval(result, stats)
    return [Formula(latex) for latex in (
        formulas.agreement_generic(), formulas.se_generic(), formulas.se_generic(null=True),
        formulas.se_plugged(stats, lang), formulas.z_generic(), formulas.z_plugged(stats, lang),
        formulas.p_value_plugged(stats, lang), formulas.ci_generic(),
        formulas.ci_plugged(stats, lang, shown))]


def statistics_blocks(result: Walkthrough, stats: KappaStatistics, lang: str, *,
                      derivations: bool = False) -> list[Block]:
    """SE, SE0, z, p and the interval as a small table, with the same caveats as the app and the
    terminal: no kappa, no SE, no z; the interval clipped, withheld or flagged
    (:func:`.inference.interval_sentences`); with ``derivations``, their formulas after them."""
    rows = tuple((label, (value,)) for label, value in _statistics_rows(result, stats, lang))
    blocks: list[Block] = [
        Heading(t(lang, "checker.ws.stats_heading"), 2),
        Table("", t(lang, "checker.ws.quantity"), (t(lang, "checker.ws.value"),), rows,
              "statistics"),
    ]
    if stats.kappa is None:
        return [*blocks, Text(t(lang, "cli.statistics_need_kappa"))]
    if stats.se is None or stats.ci_low is None or stats.ci_high is None:
        return [*blocks, Text(t(lang, "cli.statistics_unavailable"))]
    blocks.append(Text(t(lang, "checker.ws.stats_text")))
    if stats.z is None:
        blocks.append(Text(t(lang, "cli.z_unavailable")))
    blocks += [Text(sentence) for sentence in inference.z_test_sentences(lang, result, stats)]
    blocks += [Text(sentence) for sentence in inference.interval_sentences(lang, result, stats)]
    if derivations:
        blocks += _derivations(result, stats, lang)
    return blocks
