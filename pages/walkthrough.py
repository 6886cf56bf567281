"""The live walkthrough: edit the two rating vectors and watch every step of QWK update."""

import streamlit as st

from qwk_app import compute, inputs, render, widgets
from qwk_app.frame import page_guard
from qwk_app.text import num, tr
from qwk_explained.present.catalogue import STEPS

page_guard()

st.title(tr("walkthrough.title"))
st.markdown(tr("walkthrough.intro"))

inputs.apply_table_edits()
outcome = compute.current()
inputs.vector_panel(outcome)
result = render.shown_result(outcome, "walkthrough")

stats = result.statistics()
summary = st.columns(4)
summary[0].metric(tr("walkthrough.items"), num(result.n))
summary[1].metric(tr("walkthrough.ratings"), num(result.size),
                  help=tr("walkthrough.ratings_help", low=int(result.labels[0]),
                          high=int(result.labels[-1])))
summary[2].metric(tr("common.kappa"),
                  tr("common.undefined") if result.kappa is None else num(result.kappa))
summary[3].metric(tr("walkthrough.agreement"), num(float(result.observed_norm.trace())),
                  help=tr("walkthrough.agreement_help"))

st.divider()
st.markdown(tr("walkthrough.cell_intro"))
cell = widgets.cell_picker(result)
for step in STEPS:
    render.step(step, result, stats, cell)
