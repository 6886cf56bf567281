"""The live walkthrough: edit the two rating vectors and watch every step of QWK update."""

from qwk_app.frame import page_guard

page_guard()

import streamlit as st  # noqa: E402

from qwk_app import compute, inputs, render  # noqa: E402
from qwk_app.text import num, tr  # noqa: E402

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
key = compute.result_key(outcome)
st.markdown(tr("walkthrough.cell_intro"))
cell = render.cell_picker(result)
render.observed(key, result, cell)
render.weights(key, result, cell)
render.histograms(key, result)
render.expected(key, result, cell)
render.normalization(key, result, cell)
render.kappa(key, result, stats, cell)
