r"""A walkthrough as one outline of typed blocks (:mod:`.blocks`), before any markup.

Every written form of a walkthrough is drawn from this outline: the terminal and a notebook's
plain text (:func:`.markup.plain_text`), the downloaded worksheet (Markdown and LaTeX,
:mod:`.worksheet`), the checker page's solution, a notebook's Markdown and HTML
(:mod:`qwk_explained.notebook`). The steps are the catalogue's (:meth:`.catalogue.Step.blocks`),
as the app shows them; this module adds what heads and ends a whole walkthrough: the header
(``cli.*`` sentences, what is compared and how), and on a document the statistics.

What differs between the surfaces on purpose is a :class:`Surface`: a downloaded document
introduces itself and its data, lists long vectors and tabulates every matrix; the terminal and a
notebook keep to the terminal's header and limits; the terminal and a document end with the
statistics, while a notebook gives the interval in the verdict. A text surface shows a chart as
its table (:func:`chart_blocks`); the app draws it.

The step-by-step page and practice take part of each step (:func:`done_blocks`,
:func:`cell_blocks`, :func:`worked_blocks`) by the blocks' roles, never by the step's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from numpy.typing import NDArray

from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.stats import KappaStatistics, KappaTest
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Quantity, Scale
from qwk_explained.teaching.cells import default_cell
from qwk_explained.teaching.interpret import shown_interval

from . import formulas, inference
from .blocks import Block, Chart, Formula, Heading, Table, Text
from .catalogue import FIGURES, STEPS, FigureName, Step, figure_values
from .i18n import t
from .numbers import format_label, format_list, format_number, format_p_value, format_percent
from .uncertainty import uncertainty_blocks

#: Vectors up to this length are echoed under the terminal's header (and a notebook's).
MAX_ECHOED_ITEMS = 40
#: Matrices up to this size are printed in a terminal; wider ones would wrap into an unreadable
#: mess. A notebook keeps the same limit (the heatmaps of ``figures()`` show a wider one), and a
#: longer scale's histograms read better as one row per rating on every surface.
MAX_PRINTED_SIZE = 20
#: Matrices up to this size are also written as one LaTeX matrix (``bmatrix``), as on the page.
MAX_BMATRIX = 8


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
    #: data head it. Otherwise the terminal's header heads it.
    document: bool
    #: A section on the standard errors ends it (so the verdict leaves the interval to it), with
    #: their formulas when ``derivations`` is set; otherwise the verdict gives the interval.
    statistics: bool
    derivations: bool
    #: Rating vectors up to this length are listed under the header.
    max_listed_items: int
    #: Matrices up to this size are tables, a larger one a sentence saying so (``too_large``, a
    #: locale key with ``caption`` and ``size``); ``None``: all.
    max_table_size: int | None
    too_large: str = "notebook.table_too_large"


#: The downloaded worksheet and the checker's solution.
WORKSHEET = Surface(document=True, statistics=True, derivations=True, max_listed_items=200,
                    max_table_size=None)
#: A notebook's explanation: the terminal's limits, the interval in the verdict.
NOTEBOOK = Surface(document=False, statistics=False, derivations=False,
                   max_listed_items=MAX_ECHOED_ITEMS, max_table_size=MAX_PRINTED_SIZE)
#: The command line's default output.
TERMINAL = replace(NOTEBOOK, statistics=True, too_large="cli.matrix_too_large")


# --- charts as tables ----------------------------------------------------------------------------


def _labels(result: Walkthrough, lang: str) -> tuple[str, ...]:
    return tuple(format_label(v, lang) for v in result.labels)


def _caption(name: FigureName, lang: str) -> str:
    """The caption of a quantity's table: the title of its chart in the app."""
    return t(lang, FIGURES[name].title_key)


def _matrix_table(result: Walkthrough, name: FigureName, lang: str) -> Table:
    figure = FIGURES[name]
    values: NDArray[Any] = figure_values(result, name)
    labels = _labels(result, lang)
    rows = tuple(
        (label, tuple(format_number(int(v) if figure.integer else float(v), lang) for v in row))
        for label, row in zip(labels, values.tolist(), strict=True))
    latex = formulas.matrix_latex(values, lang, integer=figure.integer, max_size=MAX_BMATRIX,
                                  name=figure.symbol)
    return Table(_caption(name, lang), t(lang, "checker.ws.corner"), labels, rows, name,
                 latex or "", quantity=figure.quantity)


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


def chart_blocks(chart: Chart, lang: str, max_table_size: int | None = MAX_PRINTED_SIZE,
                 too_large: str = "notebook.table_too_large") -> list[Block]:
    """A chart as text media show it: its table, or a sentence saying it is larger than
    ``max_table_size`` to be read as one (the histograms are always a table)."""
    result, name = chart.result, chart.name
    if name == "histograms":
        return [_histogram_table(result, lang)]
    if max_table_size is not None and result.size > max_table_size:
        return [Text(t(lang, too_large, caption=_caption(name, lang),
                       size=format_number(result.size, lang)), quantity=chart.quantity)]
    return [_matrix_table(result, name, lang)]


# --- the walkthrough -----------------------------------------------------------------------------


def _listed(values: Any, lang: str) -> str:
    """Ratings as data: one after another, commas as in the lists the user typed."""
    return ", ".join(format_label(v, lang) for v in values)


def _levels(labels: Any, lang: str) -> str:
    """The scale's levels inside a sentence, listed as the language lists things ("0, 1, and
    2"; Chinese "0、1 和 2", where ", " would be a Latin comma in Chinese prose)."""
    return format_list([format_label(v, lang) for v in labels], lang)


def _data_blocks(result: Walkthrough, lang: str, source: Source,
                 surface: Surface) -> Iterator[Block]:
    """A document's title, introduction and section on the data."""
    name = result.weights_name
    yield Heading(t(lang, "checker.ws.title", kappa_name=t(lang, f"common.kappa_name.{name}")), 1)
    yield Text(t(lang, "checker.ws.intro"), role="header")
    yield Heading(t(lang, "checker.ws.data_heading"), 2)
    if source.from_table or result.actual is None or result.predicted is None:
        yield Text(t(lang, "checker.ws.data_table", count=result.n), role="header")
    elif result.n > surface.max_listed_items:
        yield Text(t(lang, "checker.ws.data_long", count=result.n), role="header")
    else:
        yield Text(t(lang, "checker.ws.data_vectors", count=result.n), role="header")
        yield from _value_lines(result.actual, result.predicted, lang)
    yield Text(t(lang, "checker.ws.settings",
                 weighting=t(lang, f"common.in_sentence.weights.{name}"),
                 size=format_number(result.size, lang), labels=_levels(result.labels, lang),
                 n=format_number(result.n, lang)), role="header")


def _value_lines(actual: Any, predicted: Any, lang: str) -> Iterator[Block]:
    for key, values in (("common.actual_ratings", actual), ("common.predicted_ratings", predicted)):
        yield Text(t(lang, "cli.value_line", label=t(lang, key), value=_listed(values, lang)),
                   role="header")


def _terminal_header(result: Walkthrough, lang: str, source: Source,
                     surface: Surface) -> Iterator[Block]:
    """What is compared, with which weighting and scale: the terminal's header, as blocks."""
    yield Heading(t(lang, "cli.title", name=t(lang, f"common.kappa_name.{result.weights_name}")),
                  1)
    # Values inside a sentence take their in-sentence form, as in the terminal ("Ponderación:
    # cuadrática", not "Cuadrática").
    weighting = t(lang, f"common.in_sentence.weights.{result.weights_name}")
    labels = _levels(result.labels, lang)
    n, size = format_number(result.n, lang), format_number(result.size, lang)
    if source.from_table or result.actual is None or result.predicted is None:
        yield Text(t(lang, "cli.settings_table", weighting=weighting), role="header")
        yield Text(t(lang, "cli.input_table", n=n, size=size, labels=labels), role="header")
        return
    yield Text(t(lang, "cli.settings_vectors", weighting=weighting,
                 scale=t(lang, f"common.in_sentence.scale.{source.scale}")), role="header")
    if result.n <= surface.max_listed_items:
        yield from _value_lines(result.actual, result.predicted, lang)
    yield Text(t(lang, "cli.input_vectors", n=n, size=size, labels=labels), role="header")


def header_blocks(result: Walkthrough, lang: str, source: Source,
                  surface: Surface) -> list[Block]:
    """What is compared, with which weighting, and how to read every matrix."""
    head = _data_blocks if surface.document else _terminal_header
    return [*head(result, lang, source, surface), Text(t(lang, "checker.ws.layout"),
                                                       role="header")]


def step_blocks(result: Walkthrough, step: Step, lang: str, cell: Cell,
                surface: Surface = NOTEBOOK,
                stats: KappaStatistics | None = None) -> list[Block]:
    """One step as a text surface writes it: the catalogue's blocks, each chart as its table.

    Without a statistics section the verdict gives the interval (``stats``, by default the
    result's at 95 %)."""
    if not surface.statistics and stats is None:
        stats = result.statistics()
    blocks: list[Block] = []
    for block in step.blocks(result, cell, lang, None if surface.statistics else stats):
        if isinstance(block, Chart):
            blocks += chart_blocks(block, lang, surface.max_table_size, surface.too_large)
        else:
            blocks.append(block)
    return blocks


def outline(result: Walkthrough, lang: str, source: Source | None = None,
            confidence: float = 0.95, *, cell: Cell | None = None,
            surface: Surface = WORKSHEET, boot: Bootstrap | None = None,
            test: KappaTest | None = None) -> list[Block]:
    """The whole walkthrough in ``lang``: the header, every step of the catalogue in its order
    (working out ``cell``, positions; by default the app's first cell), and on a surface with a
    statistics section the statistics at ``confidence``, then how sure one can be (the
    bootstrap ``boot`` and the test against kappa0 ``test`` when given, and SE versus SE0)."""
    source = source or Source()
    cell = default_cell(result) if cell is None else cell
    stats = result.statistics(confidence)
    blocks = header_blocks(result, lang, source, surface)
    for step in STEPS:
        blocks += step_blocks(result, step, lang, cell, surface, stats)
    if surface.statistics:
        blocks += statistics_blocks(result, stats, lang, derivations=surface.derivations)
        blocks += uncertainty_blocks(result, stats, lang, boot, test)
    return blocks


# --- parts of the steps --------------------------------------------------------------------------


def done_blocks(result: Walkthrough, cell: Cell, lang: str, before: int) -> list[Block]:
    """The steps before step ``before``, each by its heading and its result (the step-by-step
    page's "done so far")."""
    blocks: list[Block] = []
    for step in STEPS[:before - 1]:
        blocks.append(Heading(step.heading(lang), 3))
        blocks += [block for block in step.blocks(result, cell, lang)
                   if isinstance(block, Formula) and block.role == "result"]
    return blocks


def cell_blocks(result: Walkthrough, cell: Cell, lang: str, upto: int) -> list[Block]:
    """The followed cell's story up to step ``upto``: what each step says of the cell alone (its
    items, its histogram bars, its shares of num and den) and the result of each step that works
    the cell out."""
    return [block for step in STEPS[:upto] for block in step.blocks(result, cell, lang)
            if block.role == "cell" or (step.per_cell and block.role == "result")]


def worked_blocks(result: Walkthrough, cell: Cell, lang: str,
                  quantity: Quantity) -> tuple[list[Block], list[Block]]:
    """What practice shows of the step that computes ``quantity``: its generic formulas (with the
    question), then its result with the exercise's numbers, the followed cell's part and its
    chart (with the answer)."""
    blocks = [block for step in STEPS if quantity in step.quantities
              for block in step.blocks(result, cell, lang) if block.quantity == quantity]
    generic = [block for block in blocks if block.role == "generic"]
    worked = [block for block in blocks if block.role in ("result", "cell", "chart")]
    return generic, worked


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
    terminal: no kappa, no SE, no z; the z test flagged for a small sample, with the exact
    p-value for a few items (:func:`.inference.z_test_sentences`); the interval clipped, withheld
    or flagged (:func:`.inference.interval_sentences`); with ``derivations``, their formulas
    after them."""
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
    blocks += [Text(sentence) for sentence
               in inference.interval_sentences(lang, result, stats, se_in_table=True)]
    if derivations:
        blocks += _derivations(result, stats, lang)
    return blocks
