r"""The typed blocks a step is written in, before any markup.

Each step of the catalogue (:mod:`.catalogue`) yields its blocks once: its explanation, its notes,
its formulas (generic, then with the reader's numbers), what it says about the followed cell, its
charts and, for kappa, the verdict. Every surface only renders blocks in its medium: the app with
``st.*`` calls (``qwk_app.render``), the terminal and a notebook's plain text
(:func:`.markup.plain_text`), Markdown (:func:`.markup.markdown`), LaTeX (:mod:`.worksheet`) and
HTML (``qwk_explained.notebook.render``). A sentence fixed once is fixed everywhere.

Two fields let a surface take part of a step without knowing which step it is:

* ``role``: what the block is to the step. ``explanation`` (the step's text), ``note`` (a
  sentence or a formula that qualifies it), ``generic`` (a formula in symbols), ``result`` (the
  same with the reader's numbers: the step's result), ``cell`` (what the step says of the
  followed cell only: its items, its two histogram bars, its share of num and den), ``chart``,
  ``verdict`` (kappa's value, band and interval).
* ``quantity``: the quantity of the result the block works out (``observed``, ``numerator``...),
  when it works out one.

So the step-by-step page's "done so far" is each step's ``result`` formulas, the followed cell's
story is its ``cell`` blocks and the ``result`` of the steps that work out one cell, and practice
shows the blocks of the quantity it asked for. A new surface adds a renderer; a new kind of
content adds a block type (and a case in each renderer), never a switch on the step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from qwk_explained.core.types import Cell, Quantity

if TYPE_CHECKING:
    from qwk_explained.core.steps import Walkthrough

    from .catalogue import FigureName

Role = Literal["heading", "explanation", "note", "generic", "result", "cell", "chart", "table",
               "verdict", "header", "statistics"]


@dataclass(frozen=True)
class Heading:
    """A title; ``level`` 1 heads a whole explanation, 2 a step or a section, 3 a step named
    inside a summary. ``anchor`` (a step's slug) lets a page link to it."""

    text: str
    level: int
    anchor: str = ""
    role: Role = "heading"
    quantity: Quantity | None = None


@dataclass(frozen=True)
class Text:
    """A sentence from the locales (it may hold Markdown emphasis, as the app shows it)."""

    text: str
    #: A CSS-safe name for what the sentence says, when a reader (or a test, or the app, which
    #: gives a caveat less weight) looks for it.
    name: str = ""
    role: Role = "note"
    quantity: Quantity | None = None


@dataclass(frozen=True)
class Metric:
    """A named value, such as kappa: a big number on a page, ``label: value`` in text."""

    label: str
    value: str
    #: The whole line as text media write it (``cli.value_line``: "Kappa: −0.1392").
    text: str
    name: str = ""
    #: What the value means, where a page can show it on demand.
    help: str = ""
    role: Role = "verdict"
    quantity: Quantity | None = None


@dataclass(frozen=True)
class Formula:
    """One display formula in LaTeX, from :mod:`.formulas` (plain text for a terminal comes from
    the same LaTeX, :mod:`.formula_text`)."""

    latex: str
    role: Role = "result"
    quantity: Quantity | None = None


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
    role: Role = "table"
    quantity: Quantity | None = None
    #: The cell of O (positions) each row is about, when the rows are cells (the list of fixes):
    #: a surface that follows cells follows the one a row names.
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Chart:
    """A matrix of the result, or its two histograms: a chart on a page, a table in a document
    (:func:`.outline.chart_blocks`). It holds the result rather than its numbers, so a page that
    draws it never formats numbers it will not show."""

    name: FigureName
    result: Walkthrough = field(compare=False, repr=False)
    role: Role = "chart"
    quantity: Quantity | None = None


Block = Heading | Text | Metric | Formula | Table | Chart
