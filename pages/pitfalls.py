"""Pitfalls: why implementations of (quadratic weighted) kappa disagree on the same ratings."""

from typing import Any

import pandas as pd
import streamlit as st

from qwk_app import compute, inputs, render, state, widgets
from qwk_app.frame import page_guard
from qwk_app.text import error_text, num, tr
from qwk_explained.core.steps import Walkthrough
from qwk_explained.present import formulas
from qwk_explained.present.numbers import format_list
from qwk_explained.teaching import conventions
from qwk_explained.teaching.examples import BY_NAME

page_guard()

#: One-click examples, each showing one pitfall (in the order of the table's rows).
EXAMPLES = ("unused_rating", "seed_en", "seed_es", "all_zero_all_four", "full_disagreement",
            "constant")


def _load(name: str) -> None:
    """Put an example into the shared vectors (the walkthrough's presets do the same)."""
    inputs.load_example(name)


def _example_button(name: str, where: str) -> None:
    st.button(tr(f"presets.{name}"), key=f"pitfalls_{where}_{name}", on_click=_load,
              args=(name,), icon=":material/upload:")


@st.cache_resource(max_entries=64, show_spinner=False)
def _compare(key: str, _result: Walkthrough, weights: str) -> conventions.Comparison:
    return conventions.compare(_result.actual, _result.predicted, weights)


def _list(values: Any) -> str:
    return format_list([num(int(v)) for v in values], state.lang())


def _params(params: dict[str, Any]) -> dict[str, Any]:
    """A reason's values as text, and the count its plural form follows: how many ratings it
    lists (``unused``) or, otherwise, how many ratings its scale has (``size``)."""
    shown: dict[str, Any] = {}
    for name, value in params.items():
        shown[name] = _list(value) if isinstance(value, tuple) else num(value)
    if "unused" in params:
        shown["count"] = len(params["unused"])
    elif "size" in params:
        shown["count"] = int(params["size"])
    return shown


def _kappa_cell(row: conventions.Row) -> str:
    if row.status == "ok" and row.kappa is not None:
        return num(row.kappa)
    if row.status == "undefined":
        return tr("common.undefined")
    if row.raises:
        return tr("pitfalls.raises", error=row.raises)
    return tr("pitfalls.no_result")


def _reason(row: conventions.Row) -> str:
    if row.reason == "scale_error" and row.problem is not None:
        return error_text(row.problem)
    return tr(f"pitfalls.reason.{row.reason}", **_params(row.params))


def _sklearn_cell(run: conventions.SklearnRun | None) -> str:
    if run is None:
        return ""
    if run.raised:
        return tr("pitfalls.raises", error=run.raised)
    if run.is_nan:
        return tr("pitfalls.sklearn_nan")
    return num(run.value)


def _sklearn_notes(check: conventions.SklearnCheck) -> None:
    for run in (check.with_labels, check.without_labels):
        if run is not None and run.warnings:
            call = "pitfalls.call_with_labels" if run.labels_given else "pitfalls.call_without"
            st.caption(tr("pitfalls.sklearn_warned", call=tr(call),
                          names=format_list(run.warnings, state.lang())))


st.title(tr("pitfalls.title"))
st.markdown(tr("pitfalls.intro"))

outcome = compute.current()
inputs.text_fields(outcome)
st.markdown(tr("pitfalls.examples_intro"))
buttons = st.columns(3)
for index, name in enumerate(EXAMPLES):
    with buttons[index % 3]:
        _example_button(name, "load")
widgets.undo_offer("undo_pitfalls", ("example",))  # an example replaced what was typed

result = render.shown_result(outcome, "pitfalls")

weights = state.settings().weights
comparison = _compare(compute.result_key(outcome), result, weights)
sklearn = conventions.sklearn_check(result.actual, result.predicted, weights)

st.header(tr("pitfalls.table_heading"), anchor="conventions")
st.markdown(tr("pitfalls.table_intro", name=tr(f"common.kappa_name.{weights}"),
               count=comparison.n, low=num(comparison.low), high=num(comparison.high)))
columns: dict[str, list[str]] = {
    tr("pitfalls.column_convention"): [tr(f"pitfalls.convention.{row.code}")
                                       for row in comparison.rows],
    tr("pitfalls.column_ours"): [_kappa_cell(row) for row in comparison.rows],
}
if sklearn.available:
    columns[tr("pitfalls.column_sklearn")] = [
        _sklearn_cell({"range": sklearn.with_labels,
                       "observed": sklearn.without_labels}.get(row.code))
        for row in comparison.rows]
columns[tr("pitfalls.column_reason")] = [_reason(row) for row in comparison.rows]
st.table(pd.DataFrame(columns), hide_index=True)
if sklearn.available:
    st.caption(tr("pitfalls.sklearn_caption", version=sklearn.version or "?"))
    _sklearn_notes(sklearn)
else:
    st.info(tr("pitfalls.sklearn_missing"), icon=":material/info:")

# Undefined 0/0 -----------------------------------------------------------------------------------
st.header(tr("pitfalls.undefined_heading"), anchor="undefined")
st.markdown(tr("pitfalls.undefined_text", example=tr("presets.constant")))
constant = BY_NAME["constant"]
constant_check = conventions.sklearn_check(constant.actual, constant.predicted, weights)
left, right = st.columns(2)
with left:
    st.markdown(tr("pitfalls.undefined_ours"))
    st.info(tr("undefined.no_chance_disagreement"), icon=":material/help:")
with right:
    if constant_check.available and constant_check.without_labels is not None:
        run = constant_check.without_labels
        st.markdown(tr("pitfalls.undefined_sklearn", value=_sklearn_cell(run),
                       names=format_list(run.warnings, state.lang())
                       or tr("pitfalls.no_warning")))
    else:
        st.info(tr("pitfalls.sklearn_missing"), icon=":material/info:")
_example_button("constant", "undefined")

# The seed's "-1" claim --------------------------------------------------------------------------
st.header(tr("pitfalls.claim_heading"), anchor="minus-one")
zeros, opposite = BY_NAME["all_zero_all_four"], BY_NAME["full_disagreement"]
claim = conventions.seed_claim((zeros.actual, zeros.predicted),
                               (opposite.actual, opposite.predicted))
i, j = claim.cell
cell = {"row": int(claim.claimed.labels[i]), "col": int(claim.claimed.labels[j])}
st.markdown(tr("pitfalls.claim_text", kappa=num(claim.claimed.kappa), **{
    k: num(v) for k, v in cell.items()}))
lang = state.lang()
st.latex(formulas.numerator_plugged(claim.claimed, lang))
st.latex(formulas.denominator_plugged(claim.claimed, lang))
st.latex(formulas.kappa_plugged(claim.claimed, lang))
st.markdown(tr("pitfalls.claim_opposite", kappa=num(claim.opposite.kappa)))
st.latex(formulas.numerator_plugged(claim.opposite, lang))
st.latex(formulas.denominator_plugged(claim.opposite, lang))
st.latex(formulas.kappa_plugged(claim.opposite, lang))
st.markdown(tr("pitfalls.claim_seed_code"))
claim_buttons = st.columns(2)
with claim_buttons[0]:
    _example_button("all_zero_all_four", "claim")
with claim_buttons[1]:
    _example_button("full_disagreement", "claim")
