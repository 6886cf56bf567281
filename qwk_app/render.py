"""The app's renderer of the steps' blocks, shared by the walkthrough, step-by-step and practice.

Each step of the catalogue (:mod:`qwk_explained.present.catalogue`) writes itself once as blocks
(:mod:`qwk_explained.present.blocks`): its explanation and notes, its generic formulas, the same
with the user's numbers, what it says of the followed cell, its charts, kappa's verdict. Here
each block becomes its Streamlit element (:func:`blocks`); the terminal, the worksheets and a
notebook render the same blocks in their media, so a sentence fixed once is fixed everywhere.
The charts are light HTML (:mod:`qwk_explained.present.charts`, drawn by :mod:`qwk_app.charts`)
whose cells follow the clicked cell through every step and explain their arithmetic on hover.

After an edit the page says what changed (:func:`track_change`): kappa before and the difference,
and the cells of every matrix whose value changed are marked for a moment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present import charts as light
from qwk_explained.present.blocks import Block, Chart, Formula, Heading, Metric, Table, Text
from qwk_explained.present.catalogue import FIGURES, STEPS, FigureName, Step
from qwk_explained.present.numbers import rounds_to_zero

from . import charts as drawn
from . import shown_step, state
from .compute import Outcome
from .frame import end_page
from .state import Session
from .text import label, num, signed, tr


def shown_result(outcome: Outcome, page: str) -> Walkthrough:
    """The result a page draws: stop with ``<page>.nothing_yet`` when there is none yet, and say
    ``<page>.stale`` when the input has a problem and the last valid result is shown instead.

    While the input is only unfinished (a list still being typed), that is said calmly: the
    last complete result stays until both lists are complete.
    """
    if outcome.result is None:
        st.info(tr(f"{page}.nothing_yet"), icon=":material/edit:")
        end_page()
    if outcome.typing:
        st.caption(tr("live.typing"))
    elif outcome.stale:
        st.warning(tr(f"{page}.stale"), icon=":material/history:")
    return outcome.result


def page_title(page: str) -> str:
    """The page's title for the weighting in use ("Linear weighted kappa, step by step")."""
    weights = state.settings().weights
    return tr(f"{page}.title" if weights == "quadratic" else f"{page}.title_{weights}")


# --- what changed -------------------------------------------------------------------------------

#: The result the next change is measured from, as (key, result): the last one shown that was
#: not half of a two-field edit.
_REFERENCE = "_qwk_reference_result"
_CHANGE = "_qwk_last_change"
#: The key of a result shown while a two-field edit is half made (:func:`half_made`).
_HALF_MADE = "_qwk_half_made"


@dataclass(frozen=True)
class Change:
    """The last change of the result: what was shown before, and the key of what is shown now.

    ``fresh`` is ``True`` only on the run that made the change: the changed cells are marked on
    that run, not again when the page reruns for another reason (a click on a cell).
    """

    before: Walkthrough
    after_key: str
    fresh: bool = False


def half_made(before: Walkthrough, after: Walkthrough, *, lengths_differed: bool) -> bool:
    """Whether ``after`` pairs a list retyped since ``before`` with the other list as it was.

    A learner who types a new list of their own, rating by rating, passes through every length;
    once the new list is as long as the other, old one, the two make a pair that means nothing:
    kappa of the new actual ratings against the example's predictions. That result is shown
    (it is what the fields hold) but no change is measured to or from it: the next change is
    measured from what was shown before the retyping began. One rating changed (deleted and
    typed again) and a list pasted at once (another model's predictions) are real changes.
    """
    if not lengths_differed or before.actual is None or before.predicted is None \
            or after.actual is None or after.predicted is None or after.n != before.n:
        return False
    changed = [int(np.count_nonzero(old != new)) for old, new in
               ((before.actual, after.actual), (before.predicted, after.predicted))]
    return sorted(changed) == [0, max(changed)] and max(changed) > 1


def track_change(session: Session, outcome: Outcome) -> Change | None:
    """The change that led to the result shown now, if the result did change since it was shown.

    The reference is remembered per session, so the comparison is with what the learner saw, on
    any page; a result kept while the input has a problem changes nothing, and neither does a
    half-made two-field edit (:func:`half_made`).
    """
    if outcome.result is None:
        return None
    reference = session.get(_REFERENCE)
    last = session.get(_CHANGE)
    if reference is None:
        session[_REFERENCE] = (outcome.key, outcome.result)
        return None
    if reference[0] == outcome.key:
        if not outcome.stale:  # the lists are back as they were: no length differs any more
            session.pop(state.LENGTHS_DIFFERED, None)
        return last if last is not None and last.after_key == outcome.key else None
    if session.get(_HALF_MADE) == outcome.key:
        return None
    if half_made(reference[1], outcome.result,
                 lengths_differed=bool(session.get(state.LENGTHS_DIFFERED))):
        session[_HALF_MADE] = outcome.key
        return None
    change = Change(reference[1], outcome.key)
    session[_CHANGE] = change
    session[_REFERENCE] = (outcome.key, outcome.result)
    session.pop(_HALF_MADE, None)
    session.pop(state.LENGTHS_DIFFERED, None)
    return replace(change, fresh=True)


#: The step that computes kappa: presenter mode's "compute it together" keeps kappa until it.
KAPPA_STEP = next(step.number for step in STEPS if step.slug == "kappa")


def kappa_withheld(session: Session) -> bool:
    """Whether presenter mode keeps kappa hidden now: "compute it together" is on (the
    teacher may switch it off) and the class has not reached the step that computes it."""
    together = session.get("together", state.DEFAULTS["together"])
    return bool(together) and shown_step.current_step(session).number < KAPPA_STEP


def summary(result: Walkthrough, change: Change | None, *, withheld: bool = False) -> None:
    """Kappa first (the one number every learner looks for), then n, N and exact agreement;
    after a change, what kappa was and by how much it moved. ``withheld``: kappa is not shown
    yet (presenter mode, before its step), nor anything that would give it away."""
    if withheld:
        change = None
    before = change.before.kappa if change is not None else None
    delta = (None if before is None or result.kappa is None or change is None
             else result.kappa - before)
    kappa, items, ratings, agreement = st.columns(4)
    if withheld:
        kappa.metric(tr("common.kappa"), tr("presenter.kappa_later", step=num(KAPPA_STEP)),
                     help=tr("presenter.together_help"))
    else:
        kappa.metric(tr("common.kappa"),
                     tr("common.undefined") if result.kappa is None else num(result.kappa),
                     delta=None if delta is None or rounds_to_zero(delta) else signed(delta),
                     help=tr("steps.kappa_help"))
    items.metric(tr("walkthrough.items"), num(result.n))
    ratings.metric(tr("walkthrough.ratings"), num(result.size),
                   help=tr("walkthrough.ratings_help", low=label(result.labels[0]),
                           high=label(result.labels[-1])))
    agreement.metric(tr("walkthrough.agreement"), num(float(result.observed_norm.trace())),
                     help=tr("walkthrough.agreement_help"))
    if change is not None:
        was = tr("common.undefined") if before is None else num(before)
        if delta is None:
            st.caption(tr("live.changed_undefined", before=was))
        else:
            st.caption(tr("live.changed", before=was, change=signed(delta)))


# --- blocks ----------------------------------------------------------------------------------

#: What a click on a chart's cell does: a function of the cell "i,j", or nothing.
OnCell = Callable[[str], None] | None
#: Sentences shown small: what introduces the formulas with numbers, a caveat, the bars' caption.
_CAPTIONS = {"with_your_numbers", "caveat", "histograms_cell"}


def chart(result: Walkthrough, which: FigureName, cell: Cell | None = None, *,
          before: Walkthrough | None = None, on_cell: OnCell = None) -> None:
    """Draw chart ``which`` (:data:`qwk_explained.present.catalogue.FIGURES`).

    ``cell`` is outlined; cells that differ from ``before`` are marked; with ``on_cell`` a click
    on a cell calls it.
    """
    html = light.walkthrough_chart(result, which, state.lang(), cell, before)
    drawn.draw(html, key=f"chart_{which}", on_cell=on_cell)


def _charts(names: list[FigureName], result: Walkthrough, cell: Cell | None, *,
            before: Walkthrough | None, on_cell: OnCell) -> None:
    """Charts drawn together: one, or two side by side (stacked on a narrow screen)."""
    if len(names) == 1:
        chart(result, names[0], cell, before=before, on_cell=on_cell)
        return
    for column, name in zip(st.columns(len(names)), names, strict=True):
        with column:
            chart(result, name, cell, before=before, on_cell=on_cell)


def blocks(shown: Sequence[Block], cell: Cell | None = None, *,
           before: Walkthrough | None = None, on_cell: OnCell = None,
           on_follow: OnCell = None, nested: bool = False) -> None:
    """Blocks as the app shows them: a step's heading with its slug as the anchor, sentences as
    Markdown (a caveat smaller, why kappa is undefined as a warning), formulas typeset, kappa as
    a big number, a matrix as LaTeX when small or a scrolling grid, charts drawn (consecutive
    ones side by side) with ``cell`` outlined, the cells that differ from ``before`` marked and a
    click calling ``on_cell``; the list of fixes with its rows linked to their cells like a
    matrix's, a click on one calling ``on_follow``. ``nested`` (inside an expander that names
    the whole): headings as small titles, and the document's own title left out."""
    pending: list[FigureName] = []
    result: Walkthrough | None = None
    for block in [*shown, None]:
        if isinstance(block, Chart):
            pending.append(block.name)
            result = block.result
            continue
        if pending and result is not None:
            _charts(pending, result, cell, before=before, on_cell=on_cell)
            pending = []
        if isinstance(block, Heading):
            _heading(block, nested)
        elif isinstance(block, Metric):
            st.metric(block.label, block.value, help=block.help or None)
        elif isinstance(block, Text):
            if block.name == "undefined":
                st.warning(block.text, icon=":material/help:")
            elif block.name in _CAPTIONS:
                st.caption(block.text)
            else:
                st.markdown(block.text)
        elif isinstance(block, Formula):
            st.latex(block.latex)
        elif isinstance(block, Table):
            _table(block, on_follow)


def _heading(heading: Heading, nested: bool) -> None:
    if nested:
        if heading.level > 1:
            st.markdown(f"#### {heading.text}")
    elif heading.level <= 2:
        st.subheader(heading.text, anchor=heading.anchor or None)
    else:
        st.markdown(f"**{heading.text}**")


def _table(table: Table, on_follow: OnCell = None) -> None:
    """A matrix as LaTeX when it is small enough, else as a scrolling grid; the small tables (the
    histograms, the statistics) as static ones; the list of fixes drawn like the charts, its
    rows linked to their cells (hover lights a cell up in every matrix, a click follows it)."""
    if table.caption:
        st.caption(table.caption)
    if table.cells:
        drawn.draw(light.fixes_html(table), key=f"chart_{table.name}", on_cell=on_follow)
        return
    if table.latex:
        st.latex(table.latex)
        return
    frame = pd.DataFrame([list(cells) for _, cells in table.rows],
                         index=pd.Index([label for label, _ in table.rows], name=table.corner),
                         columns=list(table.columns))
    if table.name in FIGURES and table.name != "histograms":
        st.dataframe(frame)
    else:
        st.table(frame)


def step(step: Step, result: Walkthrough, stats: KappaStatistics, cell: Cell, *,
         before: Walkthrough | None = None, on_cell: OnCell = None,
         on_follow: OnCell = None) -> None:
    """One whole step as the catalogue writes it (for kappa, the verdict with ``stats``)."""
    blocks(step.blocks(result, cell, state.lang(), stats), cell, before=before, on_cell=on_cell,
           on_follow=on_follow)


# --- presenter mode: one step at a time ---------------------------------------------------------

#: Sentences presenter mode shows beside the formulas with the class's numbers: what introduces
#: them, kappa and its band, or why kappa is undefined.
_PLUGGED_NAMES = {"with_your_numbers", "kappa", "band", "undefined"}
#: The widths of presenter mode's columns (the formula, the same with the class's numbers, the
#: charts), by how many charts the step draws: two (step 5's O/n and E/n, step 6's num and den)
#: take the larger share, so that their numbers stay written at a readable size.
_WIDTHS: dict[int, list[float]] = {0: [1, 1], 1: [1, 1.25, 1.35], 2: [0.78, 1.47, 2]}


@dataclass(frozen=True)
class PresentedParts:
    """A step's blocks as one projected screen lays them out (:func:`presenter_parts`)."""

    #: The heading and the explanation, across the screen.
    top: list[Block]
    #: The formulas in symbols.
    generic: list[Block]
    #: The same with the class's numbers (and kappa's value and band).
    plugged: list[Block]
    #: The step's charts.
    charts: list[Block]
    #: What qualifies the step rather than works it out, folded until the class asks: notes,
    #: the followed cell's story, caveats, kappa's interval, step 6's where kappa is lost.
    folded: list[Block]


def presenter_parts(shown: Sequence[Block]) -> PresentedParts:
    """Sort a step's blocks (:meth:`~qwk_explained.present.catalogue.Step.blocks`, in their
    order: heading, explanation, body, the step's charts, what comes after them) into the parts
    of :class:`PresentedParts`."""
    start = next((k for k, block in enumerate(shown) if isinstance(block, Chart)), len(shown))
    end = start
    while end < len(shown) and isinstance(shown[end], Chart):
        end += 1
    parts = PresentedParts([], [], [], list(shown[start:end]), [])
    for block in shown[:start]:
        name = getattr(block, "name", "")
        if block.role in ("heading", "explanation"):
            parts.top.append(block)
        elif isinstance(block, Formula) and block.role == "generic":
            parts.generic.append(block)
        elif isinstance(block, Formula) and block.role == "result" or name in _PLUGGED_NAMES:
            parts.plugged.append(block)
        else:
            parts.folded.append(block)
    parts.folded.extend(shown[end:])
    return parts


def presented(step: Step, result: Walkthrough, stats: KappaStatistics, cell: Cell, *,
              before: Walkthrough | None = None, on_cell: OnCell = None,
              on_follow: OnCell = None) -> None:
    """One step on one projected screen (1280 x 720 at 150 %): the explanation across it, then
    side by side the formula, the same with the class's numbers and the step's charts (which
    grow into the room left them); the rest folded under the formula (:func:`presenter_parts`).
    The step is written once: these are its blocks, laid out."""
    parts = presenter_parts(step.blocks(result, cell, state.lang(), stats))
    draw = partial(blocks, cell=cell, before=before, on_cell=on_cell, on_follow=on_follow)
    with st.container(key="presented_step"):
        draw(parts.top)
        columns = st.columns(_WIDTHS[len(parts.charts)], gap="xsmall")
        with columns[0]:
            draw(parts.generic)
            if parts.folded:
                with st.expander(tr("presenter.more"), icon=":material/unfold_more:"):
                    draw(parts.folded, nested=True)
        with columns[1]:
            draw(parts.plugged)
        if parts.charts:
            with columns[2]:
                draw(parts.charts)


def presented_step(session: Session) -> Step:
    """The step presenter mode shows, with previous and next buttons (the room sees one step):
    the step-by-step page's step (:func:`qwk_app.shown_step.current_step`): both show the
    same. A clicker's keys press the buttons, and the step is in the URL."""
    number = shown_step.current_step(session).number
    step_buttons(session, number)
    drawn.step_keys(next_key="present_next", previous_key="present_prev", key="present_keys")
    state.share("step", number)  # a reload, or a laptop waking up, comes back to this step
    return STEPS[number - 1]


def step_buttons(session: Session, number: int, *, below: bool = False) -> None:
    """Previous, where the class is, next: above the step, and again ``below`` it, so the
    teacher who scrolled down to the matrix need not scroll back up to go on."""
    suffix = "_below" if below else ""
    back, where, forward = st.columns([1, 2, 1], vertical_alignment="center")
    back.button(tr("presenter.previous"), key=f"present_prev{suffix}", on_click=shown_step.move,
                args=(session, -1), disabled=number <= 1, icon=":material/arrow_back:",
                width="stretch")
    where.progress(number / len(STEPS),
                   text=tr("presenter.progress", step=num(number), total=num(len(STEPS))))
    forward.button(tr("presenter.next"), key=f"present_next{suffix}", on_click=shown_step.move,
                   args=(session, 1), disabled=number >= len(STEPS),
                   icon=":material/arrow_forward:", type="primary", width="stretch")
