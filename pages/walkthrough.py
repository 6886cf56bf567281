"""The live walkthrough: type the two rating vectors and watch every step of QWK follow.

Layout only: the live rating fields first, kappa right below them (on a phone too), then the
other ways to enter ratings, then the followed cell and the seven steps of the catalogue. A click
on any cell of any chart follows that cell through every step. In presenter mode the room sees
one step at a time.
"""

import streamlit as st

from qwk_app import compute, frame, inputs, links, render, state, uncertainty, widgets
from qwk_app.frame import page_guard
from qwk_app.text import tr
from qwk_explained.present.catalogue import STEPS

page_guard()

session = st.session_state
presenter = frame.presenting()
if presenter:  # a compact header: the title and the folded ratings on one line
    head = st.container(key="presenter_head")  # beside the sidebar's button, under the QR's
    title, fields, _ = head.columns([3, 1.5, 0.3], vertical_alignment="center")
    title.title(render.page_title("walkthrough"))
    fields = fields.expander(tr("presenter.ratings"), icon=":material/edit:")
else:
    st.title(render.page_title("walkthrough"))
    st.markdown(tr("walkthrough.intro"))
    fields = st.container()

inputs.apply_table_edits(session)
outcome = compute.current()
with fields:
    inputs.text_fields(outcome)
summary = st.container()
if not presenter:
    inputs.vector_panel()
with summary:
    result = render.shown_result(outcome, "walkthrough")
    change = render.track_change(session, outcome)
    render.summary(result, change, withheld=presenter and render.kappa_withheld(session))

bad_cell = widgets.cell_from_link(session, result.labels)
cell = widgets.keep_cell(session, result)
before = change.before if change is not None and change.fresh else None
# Items move only while the texts are the result shown (no upload, no problem being fixed).
movable = not outcome.stale and session.get("upload") is None
on_cell = widgets.follow_click(result, movable=movable)
on_follow = widgets.follow_only(result)
if presenter:
    step = render.presented_step(session)
    render.presented(step, result, result.statistics(), cell, before=before, on_cell=on_cell,
                     on_follow=on_follow)
    render.step_buttons(session, step.number, below=True)
else:
    st.divider()
    st.subheader(tr("walkthrough.cell_heading"), anchor="cell")
    st.markdown(tr("walkthrough.cell_intro"))
    if bad_cell:
        st.warning(tr("step_by_step.bad_cell"), icon=":material/link_off:")
    cell = widgets.cell_picker(result)
    widgets.move_controls(result, cell, editable=movable)
    stats = result.statistics()
    for step in STEPS:
        render.step(step, result, stats, cell, before=before, on_cell=on_cell,
                    on_follow=on_follow)
    uncertainty.section(result, stats)
state.share("cell", links.cell_text(result, *cell))
