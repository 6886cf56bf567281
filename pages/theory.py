"""Theory: why the kappa formula looks like this, on a 2 x 2 example and on the user's ratings.

Layout only: the 2 x 2 example's state lives in :mod:`qwk_app.theory`, every number on the user's
ratings comes from :mod:`qwk_explained.teaching.theory` (cached in :mod:`qwk_app.compute`).
"""

import pandas as pd
import streamlit as st

from qwk_app import compute, inputs, references, state
from qwk_app import theory as theory_state
from qwk_app.frame import page_guard
from qwk_app.text import num, show_error, tr
from qwk_explained.core.errors import InputError
from qwk_explained.core.types import WEIGHTINGS, Weighting, WeightsName
from qwk_explained.present import formulas, inference, theory_formulas
from qwk_explained.present.numbers import format_list
from qwk_explained.teaching import theory

page_guard()

session = st.session_state


def kappa_text(value: float | None) -> str:
    return tr("common.undefined") if value is None else num(value)


url_problem = theory_state.init_table(session)
lang = state.lang()

st.title(tr("theory.title"))
st.markdown(tr("theory.intro"))

outcome = compute.current()
with st.expander(tr("theory.your_ratings"), expanded=bool(outcome.errors),
                 icon=":material/edit:"):
    st.caption(tr("theory.your_ratings_help"))
    inputs.text_fields(outcome)
result = outcome.result
if result is not None and outcome.stale:
    st.warning(tr("theory.stale"), icon=":material/history:")

# 1. Cohen's kappa from P_o and P_e ----------------------------------------------------------------
st.header(tr("theory.cohen_heading"), anchor="cohen")
st.markdown(tr("theory.cohen_text"))
st.latex(theory_formulas.agreement_kappa_generic())

# 2. The binary case with P(A), P(B), P(A and B) ---------------------------------------------------
st.header(tr("theory.binary_heading"), anchor="binary")
st.markdown(tr("theory.binary_text"))
st.latex(theory_formulas.binary_probabilities_generic())
st.markdown(tr("theory.derivation_intro"))
for line in theory_formulas.binary_derivation():
    st.latex(line)
st.markdown(tr("theory.derivation_outro"))

st.subheader(tr("theory.example_heading"), anchor="example")
st.markdown(tr("theory.example_text"))
if url_problem == "shape":
    st.error(tr("theory.table_url_shape"), icon=":material/error:")
elif isinstance(url_problem, InputError):
    show_error(url_problem)
for row in (0, 1):
    columns = st.columns(2)
    for col in (0, 1):
        count = theory_state.key(f"n{row}{col}")
        columns[col].number_input(
            tr("theory.cell_label", actual=row, predicted=col), min_value=0, max_value=1_000_000,
            step=1, key=state.bind(count), on_change=state.commit(count),
            help=tr("theory.cell_help"))
counts = theory_state.counts(session)
state.share("table", theory_state.table_link(counts))

binary: theory.BinaryKappa | None = None
try:
    binary = theory.binary_kappa(*counts)
except InputError as error:
    show_error(error)
if binary is not None:
    top = st.columns(3)
    top[0].metric(tr("theory.metric_p_a"), num(binary.p_a), help=tr("theory.metric_p_a_help"))
    top[1].metric(tr("theory.metric_p_b"), num(binary.p_b), help=tr("theory.metric_p_b_help"))
    top[2].metric(tr("theory.metric_p_ab"), num(binary.p_ab), help=tr("theory.metric_p_ab_help"))
    bottom = st.columns(4)
    bottom[0].metric(tr("theory.metric_p_o"), num(binary.p_o), help=tr("theory.metric_p_o_help"))
    bottom[1].metric(tr("theory.metric_p_e"), num(binary.p_e), help=tr("theory.metric_p_e_help"))
    bottom[2].metric(tr("theory.metric_kappa_agreement"), kappa_text(binary.kappa_agreement))
    bottom[3].metric(tr("theory.metric_kappa_events"), kappa_text(binary.kappa_events))
    st.caption(tr("steps.with_your_numbers"))
    for line in theory_formulas.binary_plugged(binary, lang):
        st.latex(line)
    if binary.undefined_reason is not None:
        st.warning(tr("theory.binary_undefined"), icon=":material/help:")
    else:
        st.success(tr("theory.binary_equal"), icon=":material/check:")

# 3. Weighted kappa --------------------------------------------------------------------------------
st.header(tr("theory.weighted_heading"), anchor="weighted")
st.markdown(tr("theory.weighted_text"))
st.latex(formulas.kappa_generic())
st.markdown(tr("theory.unweighted_text"))
st.latex(theory_formulas.unweighted_identity())

st.subheader(tr("theory.two_ratings_heading"), anchor="two-ratings")
st.markdown(tr("theory.two_ratings_text"))
if binary is not None:
    by_weighting = theory.binary_by_weighting(binary)
    st.table(pd.DataFrame({
        tr("common.weighting"): [tr(f"common.weights.{kind}") for kind in WEIGHTINGS],
        tr("common.kappa"): [kappa_text(by_weighting[kind]) for kind in WEIGHTINGS],
    }), hide_index=True)
else:
    st.info(tr("theory.two_ratings_need_table"))

st.subheader(tr("theory.why_quadratic_heading"), anchor="why-quadratic")
st.markdown(tr("theory.why_quadratic_text"))
st.latex(theory_formulas.quadratic_moments_generic())

st.subheader(tr("theory.rescaling_heading"), anchor="rescaling")
st.markdown(tr("theory.rescaling_text", factor=theory_state.FACTOR))
st.latex(theory_formulas.rescaling_generic())
if result is None:
    st.info(tr("theory.need_ratings"), icon=":material/edit:")
else:
    rescaled = compute.rescaling(result, theory_state.FACTOR)
    st.table(pd.DataFrame({
        tr("theory.rescaling_route"): [tr(f"theory.rescaling_{r.code}", factor=theory_state.FACTOR)
                                       for r in rescaled],
        tr("common.numerator"): [num(r.numerator) for r in rescaled],
        tr("common.denominator"): [num(r.denominator) for r in rescaled],
        tr("common.kappa"): [kappa_text(r.kappa) for r in rescaled],
    }), hide_index=True)
    st.latex(theory_formulas.rescaling_plugged(rescaled, lang))

# 4. The closed form: Lin's concordance correlation ------------------------------------------------
st.header(tr("theory.closed_heading"), anchor="closed-form")
st.markdown(tr("theory.closed_text"))
st.latex(theory_formulas.closed_form_generic())
check: theory.ClosedFormCheck | None = None
if result is None or result.actual is None or result.predicted is None:
    st.info(tr("theory.need_ratings"), icon=":material/edit:")
else:
    check = compute.closed_form(result)
    closed = check.closed
    st.caption(tr("steps.with_your_numbers"))
    st.latex(theory_formulas.closed_form_moments(closed, lang))
    st.latex(theory_formulas.closed_form_plugged(closed, lang))
    left, right = st.columns(2)
    left.metric(tr("theory.closed_value"), kappa_text(closed.kappa),
                help=tr("theory.closed_value_help"))
    if check.matrix is not None:
        right.metric(tr("theory.matrix_value"), kappa_text(check.matrix.kappa),
                     help=tr("theory.matrix_value_help"))
        st.latex(formulas.kappa_plugged(check.matrix, lang))
        if closed.kappa is None:
            st.warning(tr("theory.closed_undefined"), icon=":material/help:")
        else:
            st.success(tr("theory.closed_equal"), icon=":material/check:")
    elif check.matrix_error is not None and check.matrix_error.code == "too_many_ratings":
        # Not a problem with the ratings (every other page reads them on the scale chosen): only
        # the full range is too wide for a matrix, and the closed form needs none.
        st.info(tr("theory.closed_range_too_wide", count=check.matrix_error.params["count"],
                   limit=num(check.matrix_error.params["limit"]),
                   low=num(int(min(result.actual.min(), result.predicted.min()))),
                   high=num(int(max(result.actual.max(), result.predicted.max())))),
                icon=":material/info:")
    else:
        with right:
            show_error(check.matrix_error)
        st.info(tr("theory.closed_no_matrix"))
    st.markdown(tr("theory.pearson_text"))
    st.latex(theory_formulas.pearson_generic())
    pearson = theory_formulas.pearson_plugged(closed, lang)
    if pearson is None:
        st.caption(tr("theory.pearson_constant"))
    else:
        st.latex(pearson)
    if check.unused:
        # "becomes X instead of the closed form's value" only when X is another value.
        key = {"even": "theory.closed_unused_even", "same": "theory.closed_unused_same"}.get(
            check.dropping_unused or "changes", "theory.closed_unused")
        st.warning(tr(key, count=len(check.unused),
                      unused=format_list([num(x) for x in check.unused], lang),
                      observed=kappa_text(check.observed_kappa),
                      positions=kappa_text(check.positions.kappa if check.positions else None)),
                   icon=":material/warning:")
    elif check.matrix is not None:  # with no matrix on the full range, unused ones are unknown
        st.info(tr("theory.closed_observed_general"), icon=":material/info:")
    settings = state.settings(session)
    if settings.weights != "quadratic" or settings.scale != "range":
        st.caption(tr("theory.closed_settings",
                      name=tr(f"common.in_sentence.kappa_name.{settings.weights}"),
                      scale=tr(f"frame.scale_{state.scale_mode(session)}"),  # as in the sidebar
                      kappa=kappa_text(result.kappa)))

# 5. Interpretation scales -------------------------------------------------------------------------
st.header(tr("theory.scales_heading"), anchor="scales")
st.markdown(tr("theory.scales_text"))
if result is None:
    st.info(tr("theory.need_ratings"), icon=":material/edit:")
    user_kappa = None
    weighting_kappas: dict[Weighting, float | None] = {}
else:
    user_kappa = result.kappa
    weighting_kappas = compute.kappa_by_weighting(result)
    st.markdown(tr("theory.scales_yours",
                   name=tr(f"common.in_sentence.kappa_name.{result.weights_name}"),
                   kappa=kappa_text(user_kappa)))
    chance = inference.chance_sentence(lang, result)
    if chance is not None:
        st.markdown(chance)
scale_columns = st.columns(len(theory.INTERPRETATION_SCALES))
for column, (scale, bands) in zip(scale_columns, theory.INTERPRETATION_SCALES.items(), strict=True):
    mine = theory.band(scale, user_kappa)
    with column:
        st.subheader(theory_state.citation(scale, lang))
        st.table(pd.DataFrame({
            tr("theory.scale_range"): [theory_state.band_range(b, lang) for b in bands],
            tr("theory.scale_meaning"): [tr(f"theory.band.{scale}.{b.code}") for b in bands],
            tr("theory.scale_yours"): [tr("theory.scale_mark", kappa=kappa_text(user_kappa))
                                       if b.code == mine else "" for b in bands],
        }), hide_index=True)
if weighting_kappas:
    st.markdown(tr("theory.scales_weightings"))
    # A matrix of the learner's own is a row of its own, beside the named weightings.
    rows: dict[WeightsName, float | None] = {**weighting_kappas}
    if result is not None and result.weights_name == "custom":
        rows["custom"] = result.kappa
    table = {tr("common.weighting"): [tr(f"common.weights.{kind}") for kind in rows],
             tr("common.kappa"): [kappa_text(kappa) for kappa in rows.values()]}
    for scale in theory.INTERPRETATION_SCALES:
        table[theory_state.citation(scale, lang)] = [
            "" if kappa is None else tr(f"theory.band.{scale}.{theory.band(scale, kappa)}")
            for kappa in rows.values()]
    st.table(pd.DataFrame(table), hide_index=True)
    quadratic, unweighted = weighting_kappas["quadratic"], weighting_kappas["unweighted"]
    st.markdown(tr(f"theory.scales_caveat.{theory_state.caveat(quadratic, unweighted)}",
                   quadratic=kappa_text(quadratic), unweighted=kappa_text(unweighted)))

# 6. The kappa paradox -----------------------------------------------------------------------------
st.header(tr("theory.paradox_heading"), anchor="paradox")
st.markdown(tr("theory.paradox_text"))
paradox_columns = st.columns(len(theory.PARADOX_TABLES))
for column, (name, table_counts) in zip(paradox_columns, theory.PARADOX_TABLES.items(),
                                        strict=True):
    paradox = theory.binary_kappa(*table_counts)
    with column:
        st.subheader(tr(f"theory.paradox_{name}"))
        st.table(pd.DataFrame(
            {tr("theory.predicted_rating", rating=col): [str(paradox.table[row][col])
                                                         for row in (0, 1)]
             for col in (0, 1)},
            index=[tr("theory.actual_rating", rating=row) for row in (0, 1)]))
        # Two metrics a row: three in half the page cut a translated label short.
        first, second = st.columns(2)
        first.metric(tr("theory.metric_p_o"), num(paradox.p_o))
        second.metric(tr("common.kappa"), kappa_text(paradox.kappa_agreement))
        st.columns(2)[0].metric(tr("theory.metric_kappa_max"), kappa_text(paradox.kappa_max),
                                help=tr("theory.metric_kappa_max_help"))
        st.button(tr("theory.paradox_load"), key=f"theory_paradox_{name}",
                  on_click=theory_state.load_table, args=(session, table_counts),
                  icon=":material/upload:")
st.markdown(tr("theory.paradox_explained"))

# 7. References and the documents the examples come from ----------------------------------------
st.header(tr("theory.references_heading"), anchor="references")
st.markdown(references.references_markdown(lang))
st.subheader(tr("theory.sources_heading"), anchor="sources")
st.markdown(tr("theory.sources_text"))
st.markdown(references.sources_markdown(lang))
