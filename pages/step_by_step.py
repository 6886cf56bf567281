"""Step by step: the seven steps of QWK one at a time, with one cell followed through all of them.

Only what has been computed so far is on screen: the current step in full, the earlier ones in one
line each, none of the later ones. :mod:`qwk_app.shown_step` keeps the step,
:mod:`qwk_app.step_by_step` the cell and the what-if.
"""

import streamlit as st

from qwk_app import compute, inputs, links, render, shown_step, state, step_by_step, widgets
from qwk_app.frame import page_guard
from qwk_app.text import label, num, show_error, tr
from qwk_explained.core.errors import InputError
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present.blocks import Chart
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.outline import cell_blocks, done_blocks

page_guard()

session = st.session_state


def navigation(step: int, suffix: str = "") -> None:
    """Previous and next, above the step and again below it (keys ending in ``suffix``)."""
    back, forward, _ = st.columns([1, 1, 3])
    back.button(tr("step_by_step.previous"), key=f"step_prev{suffix}", on_click=shown_step.move,
                args=(session, -1), disabled=step <= 1, icon=":material/arrow_back:",
                width="stretch")
    forward.button(tr("step_by_step.next"), key=f"step_next{suffix}", on_click=shown_step.move,
                   args=(session, 1), disabled=step >= shown_step.TOTAL,
                   icon=":material/arrow_forward:", type="primary", width="stretch")


def kappa_text(result: Walkthrough) -> str:
    return tr("common.undefined") if result.kappa is None else num(result.kappa)


def what_if(result: Walkthrough, cell: Cell, stale: bool) -> None:
    st.subheader(tr("step_by_step.whatif_heading"), anchor="what-if")
    st.markdown(tr("step_by_step.whatif_intro"))
    step_by_step.choose(session, result, cell)
    left, right, _ = st.columns([1, 1, 2])
    left.number_input(tr("step_by_step.whatif_item"), min_value=1, max_value=result.n, step=1,
                      key=step_by_step.ITEM_KEY, help=tr("step_by_step.whatif_item_help"))
    widgets.rating_select(right, tr("step_by_step.whatif_rating"), result.labels.tolist(),
                          key=step_by_step.RATING_KEY)
    try:
        tried = step_by_step.experiment(session, result, state.settings())
    except InputError as error:
        show_error(error)
        return
    change = tried.change
    st.markdown(tr("step_by_step.whatif_current", item=label(change.item + 1),
                   actual=label(change.actual_rating), predicted=label(change.old_prediction)))
    if tried.same:
        st.info(tr("step_by_step.whatif_same"), icon=":material/info:")
    now, after = st.columns(2)
    now.metric(tr("step_by_step.whatif_kappa_now"), kappa_text(change.before))
    after.metric(tr("step_by_step.whatif_kappa_after"), kappa_text(change.after),
                 delta=None if tried.delta is None else num(tried.delta))
    for name, reason in tried.undefined():
        st.warning(tr(f"step_by_step.whatif_undefined_{name}", reason=tr(f"undefined.{reason}")),
                   icon=":material/help:")
    st.button(tr("step_by_step.whatif_apply"), key="whatif_apply", on_click=step_by_step.apply,
              args=(session, tried), disabled=tried.same or stale,
              help=tr("step_by_step.whatif_apply_help"), icon=":material/done:")
    if stale:
        st.caption(tr("step_by_step.whatif_stale"))


st.title(tr("step_by_step.title"))
st.markdown(tr("step_by_step.intro"))
step, bad_step = shown_step.current_step(session)
if bad_step:
    st.warning(tr("step_by_step.bad_step", total=num(shown_step.TOTAL)), icon=":material/link_off:")
state.share("step", step)

outcome = compute.current()
with st.expander(tr("step_by_step.edit_ratings"), expanded=bool(outcome.errors),
                 icon=":material/edit:"):
    inputs.text_fields(outcome)
result = render.shown_result(outcome, "step_by_step")
if (applied := step_by_step.applied(session)) is not None:
    st.success(tr("step_by_step.whatif_applied", item=label(applied[0]), rating=label(applied[1])),
               icon=":material/done:")

st.progress(step / shown_step.TOTAL, text=tr("step_by_step.progress", step=num(step),
                                         total=num(shown_step.TOTAL)))
navigation(step)
# The cell is chosen below the step but used by it, so it is read first.
bad_cell = widgets.cell_from_link(session, result.labels)
cell = widgets.keep_cell(session, result, prefix=step_by_step.CELL_PREFIX)
state.share("cell", links.cell_text(result, *cell))
if step > 1:
    with st.expander(tr("step_by_step.done_so_far"), icon=":material/checklist:"):
        render.blocks(done_blocks(result, cell, state.lang(), step))
    render.step(STEPS[step - 1], result, result.statistics(), cell,
                on_follow=widgets.follow_only(result))
else:  # step 1 as everywhere, with a clickable O: a click picks the followed cell
    first = STEPS[0].blocks(result, cell, state.lang())
    render.blocks([block for block in first if not isinstance(block, Chart)])
    st.caption(tr("step_by_step.click_hint"))
    render.blocks([block for block in first if isinstance(block, Chart)], cell,
                  on_cell=widgets.follow_click(result, movable=False))
st.subheader(tr("step_by_step.cell_heading"), anchor="cell")
st.markdown(tr("step_by_step.cell_intro"))
if bad_cell:
    st.warning(tr("step_by_step.bad_cell"), icon=":material/link_off:")
widgets.cell_picker(result, prefix=step_by_step.CELL_PREFIX)
render.blocks(cell_blocks(result, cell, state.lang(), step))
if step < shown_step.TOTAL:
    st.caption(tr("step_by_step.cell_later"))
navigation(step, suffix="_bottom")
st.divider()
if step == shown_step.TOTAL:
    what_if(result, cell, outcome.stale)
else:
    st.caption(tr("step_by_step.whatif_later"))
