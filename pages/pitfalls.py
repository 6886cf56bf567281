"""Pitfalls: why implementations of (quadratic weighted) kappa disagree on the same ratings.

Layout only: :func:`qwk_app.pitfalls.analyse` gives every convention's kappa and scikit-learn's on
the session's ratings, and :mod:`qwk_app.pitfalls` their text.
"""

import pandas as pd
import streamlit as st

from qwk_app import compute, inputs, pitfalls, render, state, widgets
from qwk_app.frame import page_guard
from qwk_app.text import num, tr
from qwk_explained.core.steps import Walkthrough
from qwk_explained.present import formulas
from qwk_explained.present.numbers import format_list

page_guard()

session = st.session_state
lang = state.lang()


def example_button(name: str, where: str) -> None:
    st.button(tr(f"presets.{name}"), key=f"pitfalls_{where}_{name}", on_click=inputs.load_example,
              args=(session, name), icon=":material/upload:")


def sums(walk: Walkthrough) -> None:
    """num, den and kappa with the example's numbers."""
    for latex in (formulas.numerator_plugged(walk, lang), formulas.denominator_plugged(walk, lang),
                  formulas.kappa_plugged(walk, lang)):
        st.latex(latex)


st.title(tr("pitfalls.title"))
st.markdown(tr("pitfalls.intro"))

outcome = compute.current()
inputs.text_fields(outcome)
st.markdown(tr("pitfalls.examples_intro"))
buttons = st.columns(3)
for index, name in enumerate(pitfalls.EXAMPLES):
    with buttons[index % 3]:
        example_button(name, "load")
widgets.undo_offer("undo_pitfalls", ("example",))  # an example replaced what was typed

result = render.shown_result(outcome, "pitfalls")
analysis = pitfalls.analyse(session, result)
comparison, sklearn = analysis.comparison, analysis.sklearn

st.header(tr("pitfalls.table_heading"), anchor="conventions")
if state.settings(session).weights == "custom":
    st.info(tr("pitfalls.custom_weights"), icon=":material/info:")
st.markdown(tr("pitfalls.table_intro", name=tr(f"common.kappa_name.{analysis.weights}"),
               count=comparison.n, low=num(comparison.low), high=num(comparison.high)))
st.table(pd.DataFrame(pitfalls.table(analysis, lang)), hide_index=True)
if sklearn.available:
    st.caption(tr("pitfalls.sklearn_caption", version=sklearn.version or "?"))
    for note in pitfalls.sklearn_notes(sklearn, lang):
        st.caption(note)
else:
    st.info(tr("pitfalls.sklearn_missing"), icon=":material/info:")

# Undefined 0/0 -----------------------------------------------------------------------------------
st.header(tr("pitfalls.undefined_heading"), anchor="undefined")
st.markdown(tr("pitfalls.undefined_text", example=tr("presets.constant")))
left, right = st.columns(2)
with left:
    st.markdown(tr("pitfalls.undefined_ours"))
    st.info(tr("undefined.no_chance_disagreement"), icon=":material/help:")
with right:
    run = analysis.constant.without_labels
    if analysis.constant.available and run is not None:
        st.markdown(tr("pitfalls.undefined_sklearn", value=pitfalls.sklearn_text(run, lang),
                       names=format_list(list(run.warnings), lang) or tr("pitfalls.no_warning")))
    else:
        st.info(tr("pitfalls.sklearn_missing"), icon=":material/info:")
example_button("constant", "undefined")

# The seed's "-1" claim --------------------------------------------------------------------------
st.header(tr("pitfalls.claim_heading"), anchor="minus-one")
claim = analysis.claim
i, j = claim.cell
st.markdown(tr("pitfalls.claim_text", kappa=num(claim.claimed.kappa),
               row=num(int(claim.claimed.labels[i])), col=num(int(claim.claimed.labels[j]))))
sums(claim.claimed)
st.markdown(tr("pitfalls.claim_opposite", kappa=num(claim.opposite.kappa)))
sums(claim.opposite)
st.markdown(tr("pitfalls.claim_seed_code"))
claim_buttons = st.columns(2)
for column, name in zip(claim_buttons, (pitfalls.CLAIMED.name, pitfalls.OPPOSITE.name),
                        strict=True):
    with column:
        example_button(name, "claim")
