"""Step by step: the seven steps of QWK one at a time, with one cell followed through all of them.

Only what has been computed so far is on screen: the current step in full, the earlier ones as a
one-line summary each (collapsed), nothing of the later ones. The step (``?step=3``) and the
followed cell (``?cell=4,0``, rating labels) live in canonical session keys and in the URL, so
they survive language and page switches and travel in a shared link.
"""

from collections.abc import Callable

import streamlit as st

from qwk_app import compute, inputs, links, render, state, widgets
from qwk_app.compute import Outcome
from qwk_app.frame import page_guard
from qwk_app.text import num, show_error, tr
from qwk_explained import InputError, Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present import figures, formulas
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.numbers import format_number, format_percent
from qwk_explained.teaching import cells

page_guard()

STEP_KEY = "guided_step"
CELL_PREFIX = "guided_cell"
CLICK_KEY = "guided_click_observed"
ITEM_KEY = "guided_whatif_item"
RATING_KEY = "guided_whatif_rating"
APPLIED_KEY = "guided_applied"
TOTAL = len(STEPS)


def heading_text(number: int) -> str:
    return STEPS[number - 1].heading(state.lang())


# --- the step number ------------------------------------------------------------------------------

def current_step() -> int:
    """The step to show: from a shared link on first use, then from the session; always 1..7."""
    session = st.session_state
    raw = state.url_value("step")
    if raw is not None:
        parsed = links.parse_step(raw, TOTAL)
        if parsed is None:
            st.warning(tr("guided.bad_step", total=num(TOTAL)), icon=":material/link_off:")
        session[STEP_KEY] = parsed or 1
    step = session.get(STEP_KEY)
    if not isinstance(step, int) or not 1 <= step <= TOTAL:
        step = 1
    session[STEP_KEY] = step
    state.share("step", step)
    return step


def move(delta: int) -> None:
    session = st.session_state
    session[STEP_KEY] = min(max(int(session.get(STEP_KEY, 1)) + delta, 1), TOTAL)


def navigation(step: int) -> None:
    st.progress(step / TOTAL, text=tr("guided.progress", step=num(step), total=num(TOTAL)))
    back, forward, _ = st.columns([1, 1, 3])
    back.button(tr("guided.previous"), key="guided_prev", on_click=move, args=(-1,),
                disabled=step <= 1, icon=":material/arrow_back:", width="stretch")
    forward.button(tr("guided.next"), key="guided_next", on_click=move, args=(1,),
                   disabled=step >= TOTAL, icon=":material/arrow_forward:", type="primary",
                   width="stretch")


# --- the followed cell ----------------------------------------------------------------------------

def store_cell(result: Walkthrough, cell: Cell) -> None:
    """Make ``cell`` (positions) the canonical one, and its two selectors agree."""
    row, col = int(result.labels[cell[0]]), int(result.labels[cell[1]])
    st.session_state["cell"] = (row, col)
    st.session_state[f"{CELL_PREFIX}_row_input"] = row
    st.session_state[f"{CELL_PREFIX}_col_input"] = col


def cell_from_link(result: Walkthrough) -> None:
    raw = state.url_value("cell")
    if raw is None:
        return
    parsed = links.parse_cell(raw, result.labels)
    if parsed is None:
        st.warning(tr("guided.bad_cell"), icon=":material/link_off:")
    else:
        store_cell(result, parsed)


def on_click(result: Walkthrough) -> Callable[[], None]:
    """The O heatmap's ``on_select``: a clicked cell becomes the followed cell."""

    def picked() -> None:
        event = st.session_state.get(CLICK_KEY)
        points = event["selection"]["points"] if event else []
        if points:
            cell = links.cell_from_point(points[0], result.labels)
            if cell is not None:
                store_cell(result, cell)

    return picked


def cell_details(result: Walkthrough, cell: Cell, step: int) -> None:
    """Which items fall in the cell, and its arithmetic for the steps done so far."""
    lang = state.lang()
    i, j = cell
    items = cells.items_in_cell(result, i, j)
    shown, more = cells.capped(items)
    listed = tr("guided.item_separator").join(format_number(k, lang, group=False) for k in shown)
    if not shown:
        st.markdown(tr("guided.cell_no_items", row=int(result.labels[i]),
                       col=int(result.labels[j])))
    elif more:
        st.markdown(tr("guided.cell_items_more", items=listed, more=num(more)))
    else:
        st.markdown(tr("guided.cell_items", items=listed))
    st.latex(formulas.observed_cell(result, i, j, lang))
    if step >= 2:
        st.latex(formulas.weights_cell(result, i, j, lang))
    if step >= 3:
        st.latex(formulas.histogram_cell(result, i, lang, "a"))
        st.latex(formulas.histogram_cell(result, j, lang, "p"))
    if step >= 4:
        st.latex(formulas.expected_cell(result, i, j, lang))
    if step >= 6:
        num_share, den_share = cells.cell_shares(result, i, j)
        if num_share is None:
            st.markdown(tr("guided.share_num_zero"))
        else:
            st.latex(formulas.numerator_share_latex(result, i, j, lang))
            st.markdown(tr("guided.share_num_text", share=format_percent(num_share, lang)))
        if den_share is None:
            st.markdown(tr("guided.share_den_zero"))
        else:
            st.latex(formulas.denominator_share_latex(result, i, j, lang))
            st.markdown(tr("guided.share_den_text", share=format_percent(den_share, lang)))
    if step < TOTAL:
        st.caption(tr("guided.cell_later"))


# --- the steps ------------------------------------------------------------------------------------

def observed_step(result: Walkthrough, cell: Cell) -> None:
    """Step 1 as everywhere, with a clickable O: a click picks the followed cell."""
    step = STEPS[0]
    render.heading(step)
    render.step_formulas(step, result, cell)
    st.caption(tr("guided.click_hint"))
    figure = figures.with_click_targets(render.figure(result, "observed", cell), result.labels)
    st.plotly_chart(figure, width="stretch", config={"displayModeBar": False}, key=CLICK_KEY,
                    on_select=on_click(result), selection_mode="points")


def show_step(number: int, result: Walkthrough, cell: Cell) -> None:
    if number == 1:
        observed_step(result, cell)
    else:
        render.step(STEPS[number - 1], result, result.statistics(), cell)


def summary(step: int, result: Walkthrough, cell: Cell) -> None:
    """One line per step already done: its title and its result for the followed cell."""
    if step <= 1:
        return
    lang = state.lang()
    i, j = cell
    lines = {
        "observed": [formulas.observed_cell(result, i, j, lang)],
        "weights": [formulas.weights_cell(result, i, j, lang)],
        "histograms": [formulas.histogram_vectors(result, lang)],
        "expected": [formulas.expected_cell(result, i, j, lang)],
        "normalization": [formulas.normalization_cell(result, i, j, lang)],
        "sums": [formulas.numerator_plugged(result, lang, max_terms=2),
                 formulas.denominator_plugged(result, lang, max_terms=2)],
    }
    with st.expander(tr("guided.done_so_far"), icon=":material/checklist:"):
        for number in range(1, step):
            st.markdown(f"**{heading_text(number)}**")
            for line in lines[STEPS[number - 1].slug]:
                st.latex(line)


# --- what if one item had another prediction ----------------------------------------------------

def apply_change(actual_text: str, predicted_text: str, item: int, rating: int) -> None:
    state.set_vectors(actual_text, predicted_text)
    st.session_state[APPLIED_KEY] = (item, rating)


def kappa_text(result: Walkthrough) -> str:
    return tr("common.undefined") if result.kappa is None else num(result.kappa)


def what_if(result: Walkthrough, outcome: Outcome, cell: Cell) -> None:
    st.subheader(tr("guided.whatif_heading"), anchor="what-if")
    st.markdown(tr("guided.whatif_intro"))
    session = st.session_state
    labels = [int(x) for x in result.labels]
    item = session.get(ITEM_KEY)
    if not isinstance(item, int) or not 1 <= item <= result.n:
        # Start from an item of the followed cell: the experiment then continues the cell's story.
        in_cell = cells.items_in_cell(result, *cell)
        session[ITEM_KEY] = int(in_cell[0]) if len(in_cell) else 1
        session.pop(RATING_KEY, None)
    if session.get(RATING_KEY) not in labels:
        actual = int(result.actual[session[ITEM_KEY] - 1])
        session[RATING_KEY] = actual if actual in labels else labels[0]
    left, right, _ = st.columns([1, 1, 2])
    left.number_input(tr("guided.whatif_item"), min_value=1, max_value=result.n, step=1,
                      key=ITEM_KEY, help=tr("guided.whatif_item_help"))
    widgets.rating_select(right, tr("guided.whatif_rating"), labels, key=RATING_KEY)
    settings = state.settings()
    try:
        change = cells.what_if(result, int(session[ITEM_KEY]) - 1, int(session[RATING_KEY]),
                               weights=settings.weights, scale=settings.scale,
                               min_rating=settings.min_rating, max_rating=settings.max_rating)
    except InputError as error:
        show_error(error)
        return
    st.markdown(tr("guided.whatif_current", item=num(change.item + 1),
                   actual=change.actual_rating, predicted=change.old_prediction))
    same = change.new_prediction == change.old_prediction
    if same:
        st.info(tr("guided.whatif_same"), icon=":material/info:")
    now, after = st.columns(2)
    now.metric(tr("guided.whatif_kappa_now"), kappa_text(change.before))
    after.metric(tr("guided.whatif_kappa_after"), kappa_text(change.after),
                 delta=None if change.change is None or same else num(change.change))
    for name, walk in (("before", change.before), ("after", change.after)):
        if walk.kappa is None and not (same and name == "after"):
            st.warning(tr(f"guided.whatif_undefined_{name}",
                          reason=tr(f"undefined.{walk.undefined_reason}")),
                       icon=":material/help:")
    uploaded = session.get("upload") is not None
    actual_text = state.vector_text(result.actual) if uploaded else str(session.get("actual", ""))
    st.button(tr("guided.whatif_apply"), key="guided_whatif_apply", on_click=apply_change,
              args=(actual_text, state.vector_text(change.predicted), change.item + 1,
                    change.new_prediction),
              disabled=same or outcome.stale, help=tr("guided.whatif_apply_help"),
              icon=":material/done:")
    if outcome.stale:
        st.caption(tr("guided.whatif_stale"))


# --- the page -------------------------------------------------------------------------------------

st.title(tr("guided.title"))
st.markdown(tr("guided.intro"))
step = current_step()

outcome = compute.current()
with st.expander(tr("guided.edit_ratings"), expanded=bool(outcome.errors),
                 icon=":material/edit:"):
    inputs.text_fields(outcome)
result = render.shown_result(outcome, "guided")
applied = st.session_state.pop(APPLIED_KEY, None)
if applied is not None:
    st.success(tr("guided.whatif_applied", item=num(applied[0]), rating=applied[1]),
               icon=":material/done:")

navigation(step)
# The cell is chosen below the step but used by it: draw the boxes in reading order, fill the
# cell box first.
done_box, step_box, cell_box = st.container(), st.container(), st.container()
with cell_box:
    st.subheader(tr("guided.cell_heading"), anchor="cell")
    st.markdown(tr("guided.cell_intro"))
    cell_from_link(result)
    cell = widgets.cell_picker(result, prefix=CELL_PREFIX)
    state.share("cell", links.cell_text(result, *cell))
    cell_details(result, cell, step)
with done_box:
    summary(step, result, cell)
with step_box:
    show_step(step, result, cell)
st.divider()
if step == TOTAL:
    what_if(result, outcome, cell)
else:
    st.caption(tr("guided.whatif_later"))
