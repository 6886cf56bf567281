"""What a walkthrough says in a notebook, as a list of blocks, before any markup.

One outline serves every output: :mod:`.render` writes the blocks as Markdown (``$$`` formulas,
pipe tables) and as HTML (MathML formulas, ``<table>``), and the live widget draws a few of the
same blocks. Sentences come from the locales (``steps.*`` for the steps, as on the app's pages;
``cli.*`` for the header, as in the terminal; ``notebook.*`` for what only a notebook says),
formulas from the step catalogue (:data:`~qwk_explained.present.catalogue.STEPS`), numbers from
:mod:`qwk_explained.present.numbers`, so a step reads the same in the app, the terminal and the
notebook, in each of the four languages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.cli.text import MAX_ECHOED_ITEMS, MAX_PRINTED_SIZE
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.present import formulas, inference
from qwk_explained.present.catalogue import FIGURE_NAMES, STEPS, FigureName, Step
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import (
    format_label,
    format_number,
    format_p_value,
    format_percent,
)
from qwk_explained.teaching.interpret import shown_interval

#: Matrices up to the terminal's size are written as tables; a wider one is a wall of numbers
#: (the heatmaps of ``figures()`` show it, and the result holds every value as an array).
MAX_TABLE_SIZE = MAX_PRINTED_SIZE
#: Vectors up to the terminal's length are listed under the title.
MAX_LISTED_ITEMS = MAX_ECHOED_ITEMS

#: The caption of each quantity's table: the title of its chart in the app.
_CAPTIONS = {name: f"steps.{name}_chart" for name in FIGURE_NAMES}


@dataclass(frozen=True)
class Heading:
    """A title; ``level`` 1 heads a whole explanation, 2 a step."""

    text: str
    level: int


@dataclass(frozen=True)
class Text:
    """A sentence from the locales (it may hold Markdown emphasis, as the app shows it)."""

    text: str
    #: A CSS-safe name for what the sentence says, when a reader (or a test) looks for it.
    name: str = ""


@dataclass(frozen=True)
class Formula:
    """One display formula in LaTeX, from :mod:`qwk_explained.present.formulas`."""

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


Block = Heading | Text | Formula | Table


# --- small helpers -------------------------------------------------------------------------------


def _label(value: Any, lang: str) -> str:
    return format_label(value, lang)


def _labels(result: Walkthrough, lang: str) -> tuple[str, ...]:
    return tuple(_label(v, lang) for v in result.labels)


def _matrix_table(result: Walkthrough, name: FigureName, lang: str) -> Table:
    values: NDArray[Any] = getattr(result, name)
    counts = name == "observed"
    labels = _labels(result, lang)
    rows = tuple(
        (label, tuple(format_number(int(v) if counts else float(v), lang) for v in row))
        for label, row in zip(labels, values.tolist(), strict=True))
    return Table(t(lang, _CAPTIONS[name]), t(lang, "checker.ws.corner"), labels, rows, name)


def _histogram_table(result: Walkthrough, lang: str) -> Table:
    actual = tuple(format_number(int(v), lang) for v in result.actual_hist)
    predicted = tuple(format_number(int(v), lang) for v in result.predicted_hist)
    names = (t(lang, "steps.actual_name"), t(lang, "steps.predicted_name"))
    caption, corner = t(lang, "steps.histograms_chart"), t(lang, "steps.axis_rating")
    if result.size <= MAX_TABLE_SIZE:
        return Table(caption, corner, _labels(result, lang),
                     ((names[0], actual), (names[1], predicted)), "histograms")
    # A long scale reads better as one row per rating (as in the terminal).
    rows = tuple((label, (a, p)) for label, a, p in zip(_labels(result, lang), actual, predicted,
                                                        strict=True))
    return Table(caption, corner, names, rows, "histograms")


def quantity_blocks(result: Walkthrough, name: FigureName, lang: str) -> list[Block]:
    """The table of one quantity of a step (``observed``, ``histograms``, ``expected_norm``...),
    or a sentence saying it is too large to be read as a table."""
    if name == "histograms":
        return [_histogram_table(result, lang)]
    if result.size > MAX_TABLE_SIZE:
        return [Text(t(lang, "notebook.table_too_large", caption=t(lang, _CAPTIONS[name]),
                       size=format_number(result.size, lang)))]
    return [_matrix_table(result, name, lang)]


# --- the walkthrough -----------------------------------------------------------------------------


def header_blocks(result: Walkthrough, lang: str, scale: Scale | None) -> list[Block]:
    """What is compared, with which weighting and scale: the terminal's header, as blocks.

    ``scale`` is the convention the result was computed with, ``None`` for a contingency table.
    """
    name = t(lang, f"common.kappa_name.{result.weights_name}")
    # Values inside a sentence take their in-sentence form, as in the terminal ("Ponderación:
    # cuadrática", not "Cuadrática").
    weighting = t(lang, f"common.in_sentence.weights.{result.weights_name}")
    labels = ", ".join(_labels(result, lang))
    n, size = format_number(result.n, lang), format_number(result.size, lang)
    blocks: list[Block] = [Heading(t(lang, "cli.title", name=name), 1)]
    if scale is None or result.actual is None or result.predicted is None:
        blocks += [Text(t(lang, "cli.settings_table", weighting=weighting)),
                   Text(t(lang, "cli.input_table", n=n, size=size, labels=labels))]
    else:
        blocks.append(Text(t(lang, "cli.settings_vectors", weighting=weighting,
                             scale=t(lang, f"common.in_sentence.scale.{scale}"))))
        if result.n <= MAX_LISTED_ITEMS:
            for key, values in (("common.actual_ratings", result.actual),
                                ("common.predicted_ratings", result.predicted)):
                shown = ", ".join(_label(v, lang) for v in values)
                blocks.append(Text(t(lang, "cli.value_line", label=t(lang, key), value=shown)))
        blocks.append(Text(t(lang, "cli.input_vectors", n=n, size=size, labels=labels)))
    blocks.append(Text(t(lang, "checker.ws.layout")))
    return blocks


def _consecutive(result: Walkthrough) -> bool:
    return bool(np.all(np.diff(result.labels) == 1))


def step_blocks(result: Walkthrough, step: Step, lang: str, cell: Cell) -> list[Block]:
    """One step as the app shows it: title, explanation, generic formulas, tables, then the same
    formulas with the reader's numbers (``cell``, positions, for the steps that work one out)."""
    blocks: list[Block] = [Heading(step.heading(lang), 2), Text(t(lang, step.text_key))]
    if step.slug == "weights":
        blocks.append(Text(t(lang, f"steps.weights_kind_{result.weights_name}")))
        if not _consecutive(result) and result.weights_name in ("quadratic", "linear"):
            blocks.append(Text(t(lang, "cli.weights_positions")))
    blocks += [Formula(latex) for latex in step.generic(result.weights_name)]
    for name in step.figures:
        blocks += quantity_blocks(result, name, lang)
    blocks.append(Text(t(lang, "steps.with_your_numbers")))
    blocks += [Formula(latex) for latex in step.plugged(result, cell, lang)]
    if step.slug == "normalization":
        blocks += [Text(t(lang, "steps.normalization_why")),
                   Formula(formulas.normalization_identity())]
    if step.slug == "kappa":
        blocks += verdict_blocks(result, lang)
    return blocks


def verdict_blocks(result: Walkthrough, lang: str, *, interval: bool = True) -> list[Block]:
    """Kappa, its Landis and Koch band (with its caveat for weighted kappa) and, if ``interval``,
    the interval as it may honestly be shown, in the app's words (:mod:`.present.inference`); or
    why kappa is undefined."""
    value = (t(lang, "common.undefined") if result.kappa is None
             else format_number(result.kappa, lang))
    blocks: list[Block] = [Text(t(lang, "cli.value_line", label=t(lang, "common.kappa"),
                                  value=value), "kappa")]
    if result.kappa is None:
        return [*blocks, Text(t(lang, f"undefined.{result.undefined_reason}"))]
    blocks.append(Text(t(lang, "steps.kappa_band", band=inference.band_name(lang, result))))
    caveat = inference.band_caveat(lang, result)
    if caveat is not None:
        blocks.append(Text(caveat))
    if not interval:
        return blocks
    stats = result.statistics()
    sentences = inference.interval_sentences(lang, result, stats)
    if sentences:
        blocks += [Text(sentences[0]),
                   Formula(formulas.ci_plugged(stats, lang, shown_interval(result, stats))),
                   *(Text(note) for note in sentences[1:])]
    return blocks


def walkthrough_blocks(result: Walkthrough, lang: str, scale: Scale | None,
                       cell: Cell) -> list[Block]:
    """The whole walkthrough: the header, then every step of the catalogue in its order."""
    blocks = header_blocks(result, lang, scale)
    for step in STEPS:
        blocks += step_blocks(result, step, lang, cell)
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


def statistics_blocks(result: Walkthrough, stats: KappaStatistics, lang: str) -> list[Block]:
    """SE, SE0, z, p and the interval as a small table, with the same caveats as the app and the
    terminal: no kappa, no SE, no z; the interval clipped, withheld or flagged
    (:func:`.present.inference.interval_sentences`)."""
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
    blocks += [Text(sentence) for sentence in inference.interval_sentences(lang, result, stats)]
    return blocks
