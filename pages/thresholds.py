"""From scores to ratings: move the cut points that turn a model's scores into ratings.

Layout only: the data and the cut points live in :mod:`qwk_app.thresholds`. The chart of the
scores (one histogram per actual rating, the cut points across them: drag one, or move its
slider), three ways to place the cut points with a table of what each gave, the optimizer's
cross-validated kappa beside its in-sample kappa with the gap in words, then the walkthrough's
seven steps for the ratings the cut points give, drawn by the walkthrough's own renderer.
"""

import pandas as pd
import streamlit as st

from qwk_app import charts, render, state, widgets
from qwk_app import thresholds as page
from qwk_app.frame import page_guard
from qwk_app.text import escape_markdown, label, num, show_error, signed, tr
from qwk_explained.core.types import Weighting
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import rounds_to_zero
from qwk_explained.present.score_chart import score_chart_html
from qwk_explained.present.thresholds import (
    format_cut,
    number_list,
    optimism_blocks,
    search_blocks,
    start_name,
)

page_guard()

session = st.session_state
lang = state.lang()
weights = state.settings().named
page.start(session)
st.title(tr("thresholds.title"))
st.markdown(tr("thresholds.page_intro"))
if state.settings().weights == "custom":
    st.info(tr("thresholds.custom_weights"), icon=":material/info:")

# --- the data -------------------------------------------------------------------------------
example, typing, upload = st.tabs([tr("thresholds.tab_example"), tr("thresholds.tab_type"),
                                   tr("thresholds.tab_upload")])
with example:
    size, load = st.columns([2, 1], vertical_alignment="bottom")
    size.selectbox(tr("thresholds.example_size"), page.EXAMPLE_SIZES, key=page.EXAMPLE_SIZE,
                   format_func=lambda n: t(lang, "thresholds.example_size_option", count=n))
    load.button(tr("thresholds.example_load"), key="thresholds_example", on_click=page.load_example,
                args=(session,), icon=":material/dataset:", width="stretch")
    st.caption(tr("thresholds.example_help"))
with typing:
    left, right = st.columns(2)
    for column, key, name in ((left, page.ACTUAL, "actual_label"),
                              (right, page.SCORES, "scores_label")):
        session.setdefault(f"{key}_input", session.get(key, ""))
        column.text_area(tr(f"thresholds.{name}"), key=f"{key}_input", height=110,
                         on_change=page.typed, args=(session, key),
                         help=tr("thresholds.fields_help"))
with upload:
    st.file_uploader(tr("thresholds.upload_label"), type=["csv", "txt", "tsv"], key=page.UPLOAD,
                     on_change=page.take_upload, args=(session,),
                     help=tr("thresholds.upload_help"))
    show_error(session.get(page.UPLOAD_ERROR))

data, errors, stale = page.current(session)
arrays = session.get(page.ARRAYS)
if isinstance(arrays, dict):
    shown_name = escape_markdown(arrays["name"]) or tr("thresholds.example_name")
    st.info(tr("thresholds.arrays_active", name=shown_name, count=len(arrays["actual"])),
            icon=":material/dataset:")
    st.button(tr("thresholds.arrays_clear"), key="thresholds_clear", on_click=page.clear_arrays,
              args=(session,))
for field in ("actual", "scores", "pair"):
    show_error(errors.get(field))
if data is None:
    st.info(tr("thresholds.nothing_yet"), icon=":material/edit:")
    st.stop()
if stale:
    st.warning(tr("thresholds.stale"), icon=":material/history:")


@st.fragment
def cut_points(data: page.Scored, weights: Weighting) -> None:
    """Everything a moved cut point changes, rerun alone when one moves (a drag, a key, a
    slider), when a button places them, or when a cell is clicked: kappa, the chart and its
    sliders, the buttons and their table, the validation, and every step. The data, their
    inputs, the sidebar and the share link do not change then, so they are not redrawn; a
    change of the data or of the settings reruns the whole page, which calls this again with
    them."""
    lang = state.lang()
    cuts = page.cuts(session, data, weights)
    result = page.shown_result(session, data, cuts, weights)
    previous, fresh = page.last_change(session, data, cuts, weights, result)
    before = None if previous is None else previous.kappa
    change = None if before is None or result.kappa is None else result.kappa - before
    kappa_column, items_column, distinct_column = st.columns(3)
    kappa_column.metric(tr("thresholds.kappa_now"),
                        tr("common.undefined") if result.kappa is None else num(result.kappa),
                        delta=None if change is None or rounds_to_zero(change)
                        else signed(change),
                        help=tr("steps.kappa_help"))
    items_column.metric(tr("thresholds.items"), num(result.n))
    distinct_column.metric(tr("thresholds.distinct_scores"), num(data.distinct))
    if before is not None:
        st.caption(tr("live.changed", before=num(before), change=signed(result.kappa - before))
                   if result.kappa is not None else
                   tr("live.changed_undefined", before=num(before)))

    # --- the chart and the cut points -------------------------------------------------------------
    st.subheader(tr("thresholds.chart_heading"), anchor="cuts")
    st.caption(tr("thresholds.chart_help"))
    charts.draw(score_chart_html(data.histograms, cuts, lang), key="thresholds_chart",
                on_cut=lambda message: page.dragged(session, message))
    if session.get(page.NOTE) == "clamped":
        st.caption(tr("thresholds.clamped"))
    per_row = min(len(cuts), 4)
    for first in range(0, len(cuts), per_row):
        columns = st.columns(per_row)
        for k in range(first, min(first + per_row, len(cuts))):
            session[page.slider_key(k)] = cuts[k]
            columns[k - first].select_slider(
                tr("thresholds.cut_label", low=label(data.min_rating + k),
                   high=label(data.min_rating + k + 1)),
                options=page.slider_options(data, cuts, k), key=page.slider_key(k),
                format_func=lambda value: page.slider_label(value, lang), on_change=page.slid,
                args=(session, k))

    # --- three ways to place them, and what each gave ---------------------------------------------
    st.subheader(tr("thresholds.methods_heading"), anchor="methods")
    buttons = st.columns(3)
    for column, method in zip(buttons, page.METHODS, strict=True):
        column.button(start_name(method, lang), key=f"thresholds_{method}", on_click=page.choose,
                      args=(session, method, data, weights), width="stretch",
                      type="primary" if method == "optimizer" else "secondary",
                      help=tr(f"thresholds.method_help.{method}"))
    with st.expander(tr("thresholds.cv_settings"), icon=":material/tune:"):
        fold_column, seed_column = st.columns(2)
        fold_column.selectbox(tr("thresholds.folds_label"), page.FOLD_CHOICES, key=page.FOLDS,
                              format_func=lambda k: (t(lang, "thresholds.no_folds") if k == 0 else
                                                     t(lang, "thresholds.folds_option", count=k)))
        seed_column.number_input(tr("inputs.random_seed"), min_value=0, max_value=2**31 - 1, step=1,
                                 key=page.SEED, help=tr("thresholds.seed_help"))
    tried = session.get(page.TRIED) or []
    if tried:
        frame = pd.DataFrame(
            [[start_name(entry.method, lang),
              tr("common.undefined") if entry.kappa is None else num(entry.kappa),
              "" if entry.cv_kappa is None else num(entry.cv_kappa),
              number_list([format_cut(c, lang) for c in entry.cuts], lang)] for entry in tried],
            columns=[tr(f"thresholds.column.{key}") for key in ("method", "kappa", "cv_kappa",
                                                                  "cuts")])
        st.table(frame.set_index(frame.columns[0]))

    search = session.get(page.SEARCH)
    if search is not None:
        st.subheader(tr("thresholds.validation_heading"), anchor="validation")
        show_error(session.get(page.SEARCH_ERROR))
        in_sample, validated = st.columns(2)
        in_sample.metric(tr("thresholds.kappa_in_sample_label"), num(search.kappa))
        validated.metric(tr("thresholds.kappa_cv_label"),
                         "—" if search.cv_kappa is None else num(search.cv_kappa),
                         delta=None if search.optimism is None else signed(-search.optimism))
        render.blocks(list(optimism_blocks(search, lang)))
        if search.cuts != cuts:
            st.caption(tr("thresholds.validation_other_cuts"))
        with st.expander(tr("thresholds.search_heading"), icon=":material/search:"):
            render.blocks(search_blocks(search, lang)[1:], nested=True)

    # --- every step, for the ratings these cut points give ---------------------------------------
    st.divider()
    st.subheader(tr("thresholds.steps_heading"), anchor="steps")
    st.markdown(tr("thresholds.steps_intro"))
    cell = widgets.keep_cell(session, result)
    on_cell = widgets.follow_click(result, movable=False)
    stats = result.statistics()
    for step in STEPS:
        render.step(step, result, stats, cell, before=previous if fresh else None, on_cell=on_cell)


cut_points(data, weights)
