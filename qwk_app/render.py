"""Renderers for the seven steps of QWK, shared by the walkthrough and the step-by-step pages.

Each step of the catalogue (:mod:`qwk_explained.present.catalogue`) shows its explanation
(locales), its generic formulas, the same formulas with the user's numbers plugged in and its
charts (:mod:`qwk_explained.present.figures`). Figures are cached by what they show, the language
and the highlighted cell, so a rerun only re-sends them.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st
from plotly import graph_objects as go

from qwk_explained import Walkthrough
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.types import Cell
from qwk_explained.present import figures, formulas, inference
from qwk_explained.present.catalogue import FIGURE_NAMES, FigureName, Step
from qwk_explained.teaching.interpret import shown_interval

from . import state
from .compute import Outcome
from .text import num, tr


def shown_result(outcome: Outcome, page: str) -> Walkthrough:
    """The result a page draws: stop with ``<page>.nothing_yet`` when there is none yet, and say
    ``<page>.stale`` when the input has a problem and the last valid result is shown instead."""
    if outcome.result is None:
        st.info(tr(f"{page}.nothing_yet"), icon=":material/edit:")
        st.stop()
    if outcome.stale:
        st.warning(tr(f"{page}.stale"), icon=":material/history:")
    return outcome.result


@st.cache_resource(max_entries=256, show_spinner=False)
def _figure(key: str, _result: Walkthrough, lang: str, which: FigureName,
            cell: Cell | None) -> go.Figure:
    """Build one figure; ``key`` names what it shows, so the result itself is not hashed."""
    return figures.walkthrough_figure(_result, which, lang, cell)


#: The arrays each figure draws: two results with equal arrays get the same figure. Every figure
#: but the histograms draws the matrix it is named after.
_SHOWS: dict[FigureName, tuple[str, ...]] = {
    which: ("actual_hist", "predicted_hist") if which == "histograms" else (which,)
    for which in FIGURE_NAMES
}


def _content_key(result: Walkthrough, which: FigureName) -> str:
    """A digest of what figure ``which`` shows (its arrays and the scale), not of the input text.

    Figures are then shared by every input that draws the same thing: the weights chart by every
    vector pair on the same scale, and all but the weight-dependent charts when only the
    weighting changes. Each figure is built once per content, language and highlighted cell.
    """
    digest = hashlib.blake2b(which.encode(), digest_size=16)
    for part in (result.labels, *(getattr(result, name) for name in _SHOWS[which])):
        array = np.ascontiguousarray(part)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def figure(result: Walkthrough, which: FigureName, cell: Cell | None = None) -> go.Figure:
    """The cached figure ``which`` (a key of the builders) with ``cell`` outlined."""
    return _figure(_content_key(result, which), result, state.lang(), which, cell)


def chart(result: Walkthrough, which: FigureName, cell: Cell | None = None) -> None:
    """Draw figure ``which``."""
    st.plotly_chart(figure(result, which, cell), width="stretch",
                    config={"displayModeBar": False}, key=f"chart_{which}")


def charts(result: Walkthrough, names: tuple[FigureName, ...], cell: Cell | None) -> None:
    """Draw the figures of a step: none, one, or two side by side."""
    if not names:
        return
    if len(names) == 1:
        chart(result, names[0], cell)
        return
    for column, name in zip(st.columns(len(names)), names, strict=True):
        with column:
            chart(result, name, cell)


def heading(step: Step) -> None:
    """The step's numbered title (with its slug as the anchor) and its explanation."""
    st.subheader(step.heading(state.lang()), anchor=step.slug)
    st.markdown(tr(step.text_key))


def step_formulas(step: Step, result: Walkthrough, cell: Cell) -> None:
    """The generic formulas, then the same with the user's numbers."""
    lang = state.lang()
    if step.slug == "weights":
        st.markdown(tr(f"steps.weights_kind_{result.weights_name}"))
    for latex in step.generic(result.weights_name):
        st.latex(latex)
    st.caption(tr("steps.with_your_numbers"))
    for latex in step.plugged(result, cell, lang):
        st.latex(latex)
    if step.slug == "normalization":
        st.markdown(tr("steps.normalization_why"))
        st.latex(formulas.normalization_identity())


def step(step: Step, result: Walkthrough, stats: KappaStatistics, cell: Cell) -> None:
    """One whole step: heading, formulas, charts (and for kappa, the verdict)."""
    heading(step)
    step_formulas(step, result, cell)
    charts(result, step.figures, cell)
    if step.slug == "kappa":
        verdict(result, stats)


def verdict(result: Walkthrough, stats: KappaStatistics) -> None:
    """Kappa as a big number with its Landis and Koch band, SE and confidence interval."""
    if result.kappa is None:
        st.metric(tr("common.kappa"), tr("common.undefined"))
        st.warning(tr(f"undefined.{result.undefined_reason}"), icon=":material/help:")
        return
    st.metric(tr("common.kappa"), num(result.kappa), help=tr("steps.kappa_help"))
    lang = state.lang()
    st.markdown(tr("steps.kappa_band", band=inference.band_name(lang, result)))
    caveat = inference.band_caveat(lang, result)
    if caveat is not None:
        st.caption(caveat)
    sentences = inference.interval_sentences(lang, result, stats)
    if sentences:
        st.markdown(sentences[0])
        st.latex(formulas.ci_plugged(stats, lang, shown_interval(result, stats)))
        for note in sentences[1:]:
            st.caption(note)
