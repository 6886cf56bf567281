"""Renderers for the seven steps of QWK, shared by the walkthrough and the step-by-step pages.

Each step of the catalogue (:mod:`qwk_explained.present.catalogue`) shows its explanation
(locales), its generic formulas, the same formulas with the user's numbers plugged in and its
charts: light HTML charts (:mod:`qwk_explained.present.charts`, drawn by :mod:`qwk_app.charts`),
whose cells follow the clicked cell through every step. The followed cell is worked out in each
step: the items that fall in it (step 1), its two histogram bars (step 3), its arithmetic in the
other steps and, on hover, in every cell of every matrix.

After an edit the page says what changed (:func:`track_change`): kappa before and the difference,
and the cells of every matrix whose value changed are marked for a moment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import streamlit as st

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present import charts as light
from qwk_explained.present import formulas
from qwk_explained.present.catalogue import STEPS, FigureName, Step
from qwk_explained.present.numbers import rounds_to_zero
from qwk_explained.present.outline import Formula, Text, verdict_blocks

from . import charts as drawn
from . import guided, state
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

_SHOWN = "_qwk_shown_result"
_CHANGE = "_qwk_last_change"


@dataclass(frozen=True)
class Change:
    """The last change of the result: what was shown before, and the key of what is shown now.

    ``fresh`` is ``True`` only on the run that made the change: the changed cells are marked on
    that run, not again when the page reruns for another reason (a click on a cell).
    """

    before: Walkthrough
    after_key: str
    fresh: bool = False


def track_change(session: Session, outcome: Outcome) -> Change | None:
    """The change that led to the result shown now, if the result did change since it was shown.

    The result shown is remembered per session, so the comparison is with what the learner
    saw, on any page; a result kept while the input has a problem changes nothing.
    """
    if outcome.result is None:
        return None
    shown = session.get(_SHOWN)
    if shown is None or shown[0] != outcome.key:
        session[_SHOWN] = (outcome.key, outcome.result)
        if shown is None:
            return None
        change = Change(shown[1], outcome.key)
        session[_CHANGE] = change
        return replace(change, fresh=True)
    last = session.get(_CHANGE)
    return last if last is not None and last.after_key == outcome.key else None


def summary(result: Walkthrough, change: Change | None) -> None:
    """Kappa first (the one number every learner looks for), then n, N and exact agreement;
    after a change, what kappa was and by how much it moved."""
    before = change.before.kappa if change is not None else None
    delta = (None if before is None or result.kappa is None or change is None
             else result.kappa - before)
    kappa, items, ratings, agreement = st.columns(4)
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


# --- charts -------------------------------------------------------------------------------------

#: What a click on a chart's cell does: a function of the cell "i,j", or nothing.
OnCell = Callable[[str], None] | None


def chart(result: Walkthrough, which: FigureName, cell: Cell | None = None, *,
          before: Walkthrough | None = None, on_cell: OnCell = None) -> None:
    """Draw chart ``which`` (a name of :data:`qwk_explained.present.charts.WALKTHROUGH_CHARTS`).

    ``cell`` is outlined; cells that differ from ``before`` are marked; with ``on_cell`` a click
    on a cell calls it.
    """
    html = light.walkthrough_chart(result, which, state.lang(), cell, before)
    drawn.draw(html, key=f"chart_{which}", on_cell=on_cell)


def charts(result: Walkthrough, names: tuple[FigureName, ...], cell: Cell | None, *,
           before: Walkthrough | None = None, on_cell: OnCell = None) -> None:
    """Draw the charts of a step: none, one, or two side by side (stacked on a narrow screen)."""
    if not names:
        return
    if len(names) == 1:
        chart(result, names[0], cell, before=before, on_cell=on_cell)
        return
    for column, name in zip(st.columns(len(names)), names, strict=True):
        with column:
            chart(result, name, cell, before=before, on_cell=on_cell)


def heading(step: Step) -> None:
    """The step's numbered title (with its slug as the anchor) and its explanation."""
    st.subheader(step.heading(state.lang()), anchor=step.slug)
    st.markdown(tr(step.text_key))


def step_formulas(step: Step, result: Walkthrough, cell: Cell) -> None:
    """The generic formulas, then the same with the user's numbers, for the followed cell too:
    the items that fall in it (step 1) and its two histogram bars (step 3)."""
    lang = state.lang()
    if step.slug == "weights":
        st.markdown(tr(f"steps.weights_kind_{result.weights_name}"))
    for latex in step.generic(result.weights_name):
        st.latex(latex)
    st.caption(tr("steps.with_your_numbers"))
    if step.slug == "observed":
        cell_items(result, cell)
    for latex in step.plugged(result, cell, lang):
        st.latex(latex)
    if step.slug == "histograms":
        st.caption(tr("steps.histograms_cell", row=label(result.labels[cell[0]]),
                      col=label(result.labels[cell[1]])))
        st.latex(formulas.histogram_cell(result, cell[0], lang, "a"))
        st.latex(formulas.histogram_cell(result, cell[1], lang, "p"))
    if step.slug == "normalization":
        st.markdown(tr("steps.normalization_why"))
        st.latex(formulas.normalization_identity())


def cell_items(result: Walkthrough, cell: Cell) -> None:
    """Which items fall in the followed cell (numbered from 1 in the order of the lists)."""
    if result.actual is not None:
        st.markdown(guided.items_text(result, cell, state.lang()))


def step(step: Step, result: Walkthrough, stats: KappaStatistics, cell: Cell, *,
         before: Walkthrough | None = None, on_cell: OnCell = None) -> None:
    """One whole step: heading, formulas, charts (and for kappa, the verdict)."""
    heading(step)
    step_formulas(step, result, cell)
    charts(result, step.figures, cell, before=before, on_cell=on_cell)
    if step.slug == "kappa":
        verdict(result, stats)


# --- presenter mode: one step at a time ---------------------------------------------------------

def presented_step(session: Session) -> Step:
    """The step presenter mode shows, with previous and next buttons (the room sees one step):
    the step-by-step page's step (:func:`qwk_app.guided.current_step`), so both show the same."""
    number = guided.current_step(session).number
    back, where, forward = st.columns([1, 2, 1], vertical_alignment="center")
    back.button(tr("presenter.previous"), key="present_prev", on_click=guided.move,
                args=(session, -1), disabled=number <= 1, icon=":material/arrow_back:",
                width="stretch")
    where.progress(number / len(STEPS),
                   text=tr("presenter.progress", step=num(number), total=num(len(STEPS))))
    forward.button(tr("presenter.next"), key="present_next", on_click=guided.move,
                   args=(session, 1), disabled=number >= len(STEPS),
                   icon=":material/arrow_forward:", type="primary", width="stretch")
    return STEPS[number - 1]


def verdict(result: Walkthrough, stats: KappaStatistics) -> None:
    """Kappa as a big number, then what the outline says of it
    (:func:`qwk_explained.present.outline.verdict_blocks`, as the worksheet and a notebook say
    it): its Landis and Koch band and the interval, the caveats smaller; or why it is undefined."""
    if result.kappa is None:
        st.metric(tr("common.kappa"), tr("common.undefined"))
    else:
        st.metric(tr("common.kappa"), num(result.kappa), help=tr("steps.kappa_help"))
    for block in verdict_blocks(result, state.lang(), stats):
        if isinstance(block, Formula):
            st.latex(block.latex)
        elif isinstance(block, Text):
            if block.name == "undefined":
                st.warning(block.text, icon=":material/help:")
            elif block.name == "caveat":
                st.caption(block.text)
            elif block.name != "kappa":  # the metric above shows kappa
                st.markdown(block.text)
