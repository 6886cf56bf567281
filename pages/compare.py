"""Compare two models: paste (or upload) the actual ratings and two models' predictions of the
same items, and read whether the difference between their kappas is real.

Layout only: :mod:`qwk_app.compare` turns the inputs into a comparison, and
:mod:`qwk_explained.present.comparison` says what it means, as ``qwk-explained compare`` does.
"""

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from qwk_app import compare, render, state
from qwk_app.frame import page_guard
from qwk_app.text import show_error, tr
from qwk_explained.core.limits import MAX_RESAMPLES, MIN_RESAMPLES
from qwk_explained.present.blocks import Heading, Text
from qwk_explained.present.comparison import comparison_sentences, model_name, signed
from qwk_explained.present.numbers import format_count, format_number

page_guard()

session = st.session_state
lang = state.lang()
compare.init(session)
st.title(tr("compare.title"))
st.markdown(tr("compare_page.intro"))

slots: dict[str, DeltaGenerator] = {}
for column, name in zip(st.columns(3), compare.COLUMNS, strict=True):
    with column:
        key = compare.TEXT_KEYS[name]
        st.text_area(tr(f"compare_page.{name}_label"), key=state.bind(key),
                     on_change=state.commit(key), help=tr("compare_page.text_help"),
                     max_chars=compare.MAX_TEXT_CHARS, height=120)
        slots[name] = st.empty()
slots["columns"] = st.empty()
st.file_uploader(tr("compare_page.upload_label"), type=["csv", "txt", "tsv"], key=compare.UPLOAD,
                 help=tr("compare_page.upload_help"))
slots["upload"] = st.empty()
settings = st.columns(2)
settings[0].number_input(tr("compare_page.resamples_label"), step=1000,
                         key=state.bind(compare.RESAMPLES),
                         on_change=state.commit(compare.RESAMPLES),
                         help=tr("compare_page.resamples_help",
                                 low=format_count(MIN_RESAMPLES, lang),
                                 high=format_count(MAX_RESAMPLES, lang)))
settings[1].number_input(tr("compare_page.seed_label"), step=1, key=state.bind(compare.SEED),
                         on_change=state.commit(compare.SEED), help=tr("compare_page.seed_help"))
slots["settings"] = st.empty()

with st.spinner(tr("compare_page.working"), show_time=True):
    outcome = compare.current(session)
for place, error in outcome.errors.items():
    with slots[place]:
        show_error(error)
if outcome.upload is not None and not outcome.errors:
    st.info(tr("compare_page.upload_used"), icon=":material/upload_file:")

comparison = outcome.comparison
if comparison is not None:
    st.divider()
    render.blocks([Heading(tr("compare_page.results_title"), 2, anchor="result")])
    metrics = [(model_name(lang, model), format_number(walk.kappa, lang))
               for walk, model in ((comparison.a, "a"), (comparison.b, "b"))
               if walk.kappa is not None]
    if comparison.difference is not None:
        metrics.append((tr("compare_page.difference_label"), signed(comparison.difference, lang)))
    for column, (label, value) in zip(st.columns(3), metrics, strict=False):
        column.metric(label, value)  # side by side: the two kappas and their difference
    render.blocks([Text(sentence.text, sentence.name)
                   for sentence in comparison_sentences(lang, comparison)])
