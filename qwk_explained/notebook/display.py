"""Walkthroughs that explain themselves in a notebook, in the reader's language.

:func:`qwk_explained.walkthrough` returns an :class:`ExplainedWalkthrough`: the core's immutable
:class:`~qwk_explained.core.steps.Walkthrough` (it *is* one: same fields, same arrays, same
``isinstance``), plus what a notebook asks of an object to show it (``_repr_mimebundle_``). The
core cannot render itself, since it knows no language, formula or markup; the class that can
lives here, above every layer it uses, and the package's top level hands it out. The engine's
own callers (the command line, the checker, the exercises) keep the plain core class.

Nothing above the core is imported until something is displayed: ``import qwk_explained`` loads
the engine only, and the presentation layers (sentences, formulas, markup: the outline of
:mod:`qwk_explained.present.outline`, its renderers in :mod:`qwk_explained.present.markup` and
:mod:`.render`) load inside the methods that display. IPython, anywidget and plotly are never
needed to compute, only to show.

Every rich output is written from one outline, the worksheet's and the command line's:
``text/plain`` as the command line writes it, ``text/markdown`` and ``text/html`` the steps with
their formulas and tables. ``application/json`` (the command line's ``--json`` object) is given
only when asked for, with ``display(result, include=["application/json"])`` or
:attr:`Explanation.json`: JupyterLab ranks its JSON viewer above every other renderer, so a
bundle that always held JSON would show a tree of numbers instead of the walkthrough.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from qwk_explained.core import steps as core_steps
from qwk_explained.core.errors import InputError, QwkError
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.present.languages import LANGUAGES, environment_language

if TYPE_CHECKING:
    from plotly.graph_objects import Figure

    from qwk_explained.present.blocks import Block
    from qwk_explained.present.catalogue import StepSlug

__all__ = ["ExplainedStatistics", "ExplainedWalkthrough", "Explanation", "Figures",
           "NotebookError", "walkthrough", "walkthrough_from_table"]

MimeBundle = dict[str, Any]
#: Given only on request (see the module's notes).
JSON_TYPE = "application/json"


class NotebookError(QwkError, ValueError):
    """A notebook call that names something that does not exist (locale keys ``notebook.*``)."""

    namespace = "notebook"


def _language(lang: str | None) -> str:
    """``lang``, checked; by default the language the environment asks for, as the terminal."""
    if lang is None:
        return environment_language()
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise InputError("unknown_language", value=str(lang)[:40], choices=", ".join(LANGUAGES))
    return lang


def missing_extra(lang: str | None, error: ImportError) -> ImportError:
    """The error for a feature of the ``notebook`` extra (the widget, figures) that is not
    installed, saying what to install in the reader's language."""
    from qwk_explained.present.i18n import t

    missing = error.name or str(error)
    return ImportError(t(_language(lang), "notebook.needs_extra", missing=missing), name=missing)


def _bundle(make: Mapping[str, Callable[[], Any]], include: Collection[str] | None,
            exclude: Collection[str] | None) -> MimeBundle:
    """The requested representations, each built only if it is wanted (IPython's semantics of
    ``include`` and ``exclude``); HTML is left out when it cannot be written."""
    wanted = [kind for kind in make
              if (include is None and kind != JSON_TYPE) or (include and kind in include)]
    bundle = {kind: make[kind]() for kind in wanted if not exclude or kind not in exclude}
    return {kind: value for kind, value in bundle.items() if value is not None}


@dataclass(frozen=True, eq=False)
class ExplainedWalkthrough(Walkthrough):
    """A :class:`~qwk_explained.core.steps.Walkthrough` that shows every step in a notebook.

    ``scale`` records the convention the result was computed with (``None`` for a contingency
    table), which the header names. Displaying the result is ``result.explain()`` in the
    language of the environment; :meth:`explain` picks another language, one step or one cell.
    """

    scale: Scale | None = field(default=None, repr=False)

    @classmethod
    def of(cls, result: Walkthrough, scale: Scale | None) -> ExplainedWalkthrough:
        """The same result, able to display itself. Nothing is copied or recomputed: the arrays
        are the core's read-only arrays. (Going through ``__init__`` would set each frozen field
        again, about 7 % of a whole walkthrough of 10,000 items.)"""
        shown = object.__new__(cls)
        shown.__dict__.update(vars(result))
        object.__setattr__(shown, "scale", scale)
        return shown

    def explain(self, lang: str | None = None, *, step: str | int | None = None,
                cell: tuple[int, int] | None = None) -> Explanation:
        r"""The walkthrough (or one step) in ``lang``, ready to display.

        Parameters
        ----------
        lang : {"en", "es", "zh", "tr"}, optional
            Language of the sentences and the numbers (0,25 in Spanish and Turkish); by default
            the language of the environment (``LANGUAGE``, ``LC_ALL``, ``LANG``), else English.
        step : str or int, optional
            One step only, by slug (``"expected"``) or number (``4``), as the catalogue numbers
            them on every surface.
        cell : (int, int) or str, optional
            The cell whose arithmetic the formulas work out, as (actual rating, predicted
            rating), or as text (``"4,0"``); by default the first cell where the raters
            disagree, as in the app.

        Examples
        --------
        >>> from qwk_explained import walkthrough
        >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
        >>> spanish = result.explain("es", step="kappa").markdown
        >>> r"\kappa = 1 - \frac{0{,}45}{0{,}395} = 1 - 1{,}1392 = -0{,}1392" in spanish
        True
        """
        from qwk_explained.present.catalogue import STEPS
        from qwk_explained.teaching.cells import default_cell

        language = _language(lang)
        slug = None
        if step is not None:
            names: dict[str, StepSlug] = {s.slug: s.slug for s in STEPS}
            names.update({str(s.number): s.slug for s in STEPS})
            slug = names.get(str(step))
            if slug is None:
                raise NotebookError("unknown_step", value=str(step),
                                    choices=", ".join(s.slug for s in STEPS))
        position = default_cell(self) if cell is None else self._position(cell)
        return Explanation(self, language, slug, position)

    def _position(self, cell: Any) -> Cell:
        """Rating labels (what the reader typed: ``(4, 0)``, or ``"4,0"`` as a link writes it)
        to positions (what the formulas index). Anything but two ratings is refused: a string
        iterated character by character, or a third number, would name another cell."""
        from qwk_explained.core.parse import shorten
        from qwk_explained.teaching.cells import read_cell

        ratings = read_cell(cell) if isinstance(cell, str) else cell
        if not isinstance(ratings, tuple | list | np.ndarray) or len(ratings) != 2:
            raise NotebookError("bad_cell", value=shorten(str(cell)))
        positions = []
        for rating in ratings:
            is_rating = isinstance(rating, int | np.integer) and not isinstance(rating, bool)
            found = np.flatnonzero(self.labels == rating) if is_rating else np.empty(0)
            if found.size != 1:
                labels = ", ".join(str(int(v)) for v in self.labels)
                raise NotebookError("not_on_scale", value=str(rating), labels=labels)
            positions.append(int(found[0]))
        return positions[0], positions[1]

    def statistics(self, confidence: float = 0.95, *,
                   lang: str | None = None) -> ExplainedStatistics:
        """Standard errors, z, p-value and confidence interval, displayed as a small table."""
        stats = super().statistics(confidence)
        return ExplainedStatistics(**{f.name: getattr(stats, f.name)
                                      for f in fields(KappaStatistics)},
                                   lang=None if lang is None else _language(lang), result=self)

    def figures(self, lang: str | None = None, *, step: str | int | None = None,
                cell: tuple[int, int] | None = None) -> Figures:
        """The app's plotly figures of every step (or one), titles in ``lang``, ``cell``
        outlined in the heatmaps. Needs plotly (the ``notebook`` extra)."""
        try:
            from qwk_explained.present.catalogue import BY_SLUG, FIGURE_NAMES
            from qwk_explained.present.figures import walkthrough_figure
        except ImportError as error:  # plotly
            raise missing_extra(lang, error) from error

        explanation = self.explain(lang, step=step, cell=cell)
        names = (list(FIGURE_NAMES) if explanation.step is None
                 else list(BY_SLUG[explanation.step].figures))
        position = None if cell is None else explanation.cell
        return Figures({name: walkthrough_figure(self, name, explanation.lang, position)
                        for name in names})

    def _repr_mimebundle_(self, include: Collection[str] | None = None,
                          exclude: Collection[str] | None = None) -> MimeBundle:
        return self.explain()._repr_mimebundle_(include, exclude)


class Outlined(ABC):
    """What shows itself from one outline: :attr:`markdown`, :attr:`html` and :attr:`text` are
    the same blocks (``_blocks``, written once per object) in ``lang`` for each medium, and
    ``_repr_mimebundle_`` hands them to the notebook. A walkthrough, its statistics and a search
    for cut points differ only in the outline they write."""

    #: The language of the sentences and numbers (``None``: the environment's, as the terminal).
    lang: str | None

    @property
    @abstractmethod
    def _blocks(self) -> list[Block]:
        """The outline every representation is written from."""

    @property
    def markdown(self) -> str:
        """Markdown with ``$$`` formulas and pipe tables."""
        from qwk_explained.present.markup import markdown

        return markdown(self._blocks, top=3)

    @property
    def html(self) -> str | None:
        """HTML with MathML formulas and no script; ``None`` without ``latex2mathml`` (the
        notebook then shows the Markdown)."""
        from .render import html_document

        return html_document(self._blocks, _language(self.lang))

    @property
    def text(self) -> str:
        """The same blocks as plain text, as the command line writes them."""
        from qwk_explained.present.markup import plain_text

        return plain_text(self._blocks)

    def _representations(self) -> dict[str, Callable[[], Any]]:
        """Each MIME type and how to write it (only what the notebook asks for is written)."""
        return {"text/html": lambda: self.html, "text/markdown": lambda: self.markdown,
                "text/plain": lambda: self.text}

    def _repr_mimebundle_(self, include: Collection[str] | None = None,
                          exclude: Collection[str] | None = None) -> MimeBundle:
        return _bundle(self._representations(), include, exclude)


class OutlinedResult(Outlined):
    """An :class:`Outlined` result that also has the command line's ``--json`` object (given to
    a notebook only on request: see the module's notes) and prints as its plain text."""

    @property
    @abstractmethod
    def json(self) -> dict[str, Any]:
        """Every number, as the command line's ``--json`` object."""

    def _representations(self) -> dict[str, Callable[[], Any]]:
        return {**super()._representations(), JSON_TYPE: lambda: self.json}

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, eq=False)
class Explanation(OutlinedResult):
    """A walkthrough (or one step of it) written out in one language; displays itself.

    ``cell`` holds positions on the scale (row, column of every matrix).
    """

    result: ExplainedWalkthrough
    lang: str
    step: StepSlug | None = None
    cell: Cell = (0, 0)

    @cached_property
    def _blocks(self) -> list[Block]:
        """The outline every representation is written from (once per explanation)."""
        from qwk_explained.present.catalogue import BY_SLUG
        from qwk_explained.present.outline import NOTEBOOK, Source, outline, step_blocks

        if self.step is None:
            scale = self.result.scale
            source = Source(from_table=scale is None, scale=scale or "range")
            return outline(self.result, self.lang, source, cell=self.cell, surface=NOTEBOOK)
        return step_blocks(self.result, BY_SLUG[self.step], self.lang, self.cell, NOTEBOOK)

    @property
    def json(self) -> dict[str, Any]:
        """Every number, as the command line's ``--json`` object."""
        from qwk_explained.cli.json_output import result_json

        return result_json(self.result, self.result.statistics())


@dataclass(frozen=True, eq=False)
class ExplainedStatistics(KappaStatistics, Outlined):
    """:class:`~qwk_explained.core.stats.KappaStatistics` shown as a table with its caveats."""

    lang: str | None = field(default=None, repr=False)
    #: The walkthrough these statistics belong to: its size and margins decide whether the
    #: interval is clipped, withheld or flagged, as in the app.
    result: Walkthrough | None = field(default=None, repr=False)

    def __eq__(self, other: object) -> bool:
        # The same numbers are the same statistics, shown or not (the core's equality compares
        # classes too, which would make ``kappa_statistics(result) != result.statistics()``).
        if not isinstance(other, KappaStatistics):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name)
                   for f in fields(KappaStatistics))

    __hash__ = KappaStatistics.__hash__

    @cached_property
    def _blocks(self) -> list[Block]:
        from qwk_explained.present.outline import statistics_blocks

        if self.result is None:  # built by hand, without its walkthrough
            raise ValueError("these statistics do not know the walkthrough they belong to")
        return statistics_blocks(self.result, self, _language(self.lang))


class Figures(Mapping[str, "Figure"]):
    """The plotly figures of a walkthrough by name (``"observed"``, ``"histograms"``...), in the
    order of the steps. Shown in a notebook, they appear one after the other."""

    def __init__(self, figures: Mapping[str, Figure]) -> None:
        self._figures = dict(figures)

    def __getitem__(self, name: str) -> Figure:
        return self._figures[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._figures)

    def __len__(self) -> int:
        return len(self._figures)

    def __repr__(self) -> str:
        return f"Figures({', '.join(self._figures)})"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        for figure in self._figures.values():
            display(figure)


# --- the public API's two entry points -----------------------------------------------------------


def walkthrough(actual: Any, predicted: Any, *, weights: Any = "quadratic",
                min_rating: int | None = None, max_rating: int | None = None,
                scale: Scale = "range") -> ExplainedWalkthrough:
    """Every step of weighted kappa between two rating vectors, able to explain itself.

    The computation is :func:`qwk_explained.core.steps.walkthrough` (same parameters, same
    errors); the result also displays every step in a notebook (see :class:`ExplainedWalkthrough`).

    Examples
    --------
    >>> from qwk_explained import Walkthrough, walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> isinstance(result, Walkthrough), round(result.kappa, 4)
    (True, -0.1392)
    """
    result = core_steps.walkthrough(actual, predicted, weights=weights, min_rating=min_rating,
                                    max_rating=max_rating, scale=scale)
    return ExplainedWalkthrough.of(result, scale)


def walkthrough_from_table(table: Any, *, weights: Any = "quadratic",
                           labels: Any = None) -> ExplainedWalkthrough:
    """Every step from a contingency table (rows = actual rating), able to explain itself.

    The computation is :func:`qwk_explained.core.steps.walkthrough_from_table`.

    Examples
    --------
    >>> from qwk_explained import walkthrough_from_table
    >>> round(walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]]).kappa, 4)
    0.4502
    """
    return ExplainedWalkthrough.of(
        core_steps.walkthrough_from_table(table, weights=weights, labels=labels), None)
