"""Renderers for the six steps of QWK, shared by the walkthrough and the guided pages.

Each step shows a short explanation (locales), the generic formula, the same formula with the
user's numbers plugged in (``qwk_explained.formulas``) and a chart (``qwk_explained.figures``).
Figures are cached per input, language and highlighted cell, so a rerun only re-sends them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np
import streamlit as st

from qwk_explained import Walkthrough
from qwk_explained import figures as fig
from qwk_explained import formulas as fx
from qwk_explained.interpret import landis_koch
from qwk_explained.stats import KappaStatistics

from . import state
from .compute import Outcome
from .text import num, tr

#: Step slugs in order; ``walkthrough.<slug>_title`` / ``_text`` are their locale keys.
STEPS = ("observed", "weights", "histograms", "expected", "normalization", "kappa")
Cell = tuple[int, int]


def shown_result(outcome: Outcome, page: str) -> Walkthrough:
    """The result a page draws: stop with ``<page>.nothing_yet`` when there is none yet, and say
    ``<page>.stale`` when the input has a problem and the last valid result is shown instead."""
    if outcome.result is None:
        st.info(tr(f"{page}.nothing_yet"), icon=":material/edit:")
        st.stop()
    if outcome.stale:
        st.warning(tr(f"{page}.stale"), icon=":material/history:")
    return outcome.result


def default_cell(result: Walkthrough) -> Cell:
    """The first off-diagonal cell with items (the most instructive one), else the first cell."""
    size = result.size
    for i in range(size):
        for j in range(size):
            if i != j and result.observed[i, j]:
                return i, j
    return 0, min(1, size - 1)


def cell_picker(result: Walkthrough, *, key_prefix: str = "cell") -> Cell:
    """Two selectors for the cell (i, j) whose arithmetic is shown; remembered across pages."""
    labels = [int(x) for x in result.labels]
    stored = st.session_state.get("cell")
    if not (isinstance(stored, tuple) and stored[0] in labels and stored[1] in labels):
        i, j = default_cell(result)
        stored = (labels[i], labels[j])
        st.session_state["cell"] = stored
    for axis, value in zip(("row", "col"), stored, strict=True):
        widget = f"{key_prefix}_{axis}_input"
        if st.session_state.get(widget) not in labels:
            st.session_state[widget] = value

    def _picked() -> None:
        st.session_state["cell"] = (st.session_state[f"{key_prefix}_row_input"],
                                    st.session_state[f"{key_prefix}_col_input"])

    left, right, _ = st.columns([1, 1, 2])
    left.selectbox(tr("steps.cell_row"), labels, key=f"{key_prefix}_row_input", on_change=_picked)
    right.selectbox(tr("steps.cell_col"), labels, key=f"{key_prefix}_col_input", on_change=_picked)
    row, col = st.session_state["cell"]
    return labels.index(row), labels.index(col)


@st.cache_resource(max_entries=256, show_spinner=False)
def _figure(key: str, _result: Walkthrough, lang: str, which: str, cell: Cell | None):
    """Build one figure; ``key`` names the input so the result itself is not hashed."""
    return _BUILDERS[which](_result, lang, cell)


def _heat(matrix_attr: str, kind: str, title_key: str, integer: bool = False):
    def build(result: Walkthrough, lang: str, cell: Cell | None):
        from qwk_explained.i18n import t

        return fig.heatmap(
            getattr(result, matrix_attr), result.labels, title=t(lang, title_key),
            x_title=t(lang, "steps.axis_predicted"), y_title=t(lang, "steps.axis_actual"),
            kind=kind, lang=lang, highlight=cell, integer=integer)

    return build


def _bars(result: Walkthrough, lang: str, cell: Cell | None):
    from qwk_explained.i18n import t

    return fig.histogram_bars(
        result.labels, result.actual_hist, result.predicted_hist,
        title=t(lang, "steps.histograms_chart"), x_title=t(lang, "steps.axis_rating"),
        y_title=t(lang, "steps.axis_count"), actual_name=t(lang, "steps.actual_name"),
        predicted_name=t(lang, "steps.predicted_name"), lang=lang)


_BUILDERS: dict[str, Callable] = {
    "observed": _heat("observed", "counts", "steps.observed_chart", integer=True),
    "weights": _heat("weights", "weights", "steps.weights_chart"),
    "histograms": _bars,
    "expected": _heat("expected", "counts", "steps.expected_chart"),
    "observed_norm": _heat("observed_norm", "proportions", "steps.observed_norm_chart"),
    "expected_norm": _heat("expected_norm", "proportions", "steps.expected_norm_chart"),
    "weighted_observed": _heat("weighted_observed", "products", "steps.weighted_observed_chart"),
    "weighted_expected": _heat("weighted_expected", "products", "steps.weighted_expected_chart"),
}


#: The arrays each figure draws: two results with equal arrays get the same figure.
_SHOWS: dict[str, tuple[str, ...]] = {
    "histograms": ("actual_hist", "predicted_hist"),
    **{which: (which,) for which in ("observed", "weights", "expected", "observed_norm",
                                     "expected_norm", "weighted_observed", "weighted_expected")},
}


def _content_key(result: Walkthrough, which: str) -> str:
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


def chart(key: str, result: Walkthrough, which: str, cell: Cell | None = None) -> None:
    """Draw figure ``which``; ``key`` names the input (kept for callers; the cache uses content)."""
    figure = _figure(_content_key(result, which), result, state.lang(), which, cell)
    st.plotly_chart(figure, width="stretch", config={"displayModeBar": False},
                    key=f"chart_{which}")


def _header(number: int, slug: str) -> None:
    st.subheader(tr("steps.step_heading", number=number, title=tr(f"steps.{slug}_title")),
                 anchor=slug)
    st.markdown(tr(f"steps.{slug}_text"))


def _formulas(generic: str, plugged: str | None) -> None:
    st.latex(generic)
    if plugged:
        st.caption(tr("steps.with_your_numbers"))
        st.latex(plugged)


def observed(key: str, result: Walkthrough, cell: Cell, number: int = 1) -> None:
    _header(number, "observed")
    _formulas(fx.observed_generic(), fx.observed_cell(result, *cell, state.lang()))
    chart(key, result, "observed", cell)


def weights(key: str, result: Walkthrough, cell: Cell, number: int = 2) -> None:
    _header(number, "weights")
    st.markdown(tr(f"steps.weights_kind_{result.weights_name}"))
    _formulas(fx.weights_generic(result.weights_name),
              fx.weights_cell(result, *cell, state.lang()))
    chart(key, result, "weights", cell)


def histograms(key: str, result: Walkthrough, number: int = 3) -> None:
    _header(number, "histograms")
    _formulas(fx.histograms_generic(), fx.histogram_plugged(result, state.lang()))
    chart(key, result, "histograms")


def expected(key: str, result: Walkthrough, cell: Cell, number: int = 4) -> None:
    _header(number, "expected")
    _formulas(fx.expected_generic(), fx.expected_cell(result, *cell, state.lang()))
    chart(key, result, "expected", cell)


def normalization(key: str, result: Walkthrough, cell: Cell, number: int = 5) -> None:
    _header(number, "normalization")
    _formulas(fx.normalization_generic(), fx.normalization_cell(result, *cell, state.lang()))
    st.markdown(tr("steps.normalization_why"))
    st.latex(fx.normalization_identity())
    left, right = st.columns(2)
    with left:
        chart(key, result, "observed_norm", cell)
    with right:
        chart(key, result, "expected_norm", cell)


def kappa(key: str, result: Walkthrough, stats: KappaStatistics, cell: Cell,
          number: int = 6) -> None:
    _header(number, "kappa")
    left, right = st.columns(2)
    with left:
        chart(key, result, "weighted_observed", cell)
    with right:
        chart(key, result, "weighted_expected", cell)
    lang = state.lang()
    st.latex(fx.numerator_generic())
    st.latex(fx.numerator_plugged(result, lang, max_terms=4))
    st.latex(fx.denominator_generic())
    st.latex(fx.denominator_plugged(result, lang, max_terms=4))
    st.latex(fx.kappa_generic())
    st.latex(fx.kappa_plugged(result, lang))
    verdict(result, stats)


def verdict(result: Walkthrough, stats: KappaStatistics) -> None:
    """Kappa as a big number with its Landis and Koch band, SE and confidence interval."""
    if result.kappa is None:
        st.metric(tr("common.kappa"), tr("common.undefined"))
        st.warning(tr(f"undefined.{result.undefined_reason}"), icon=":material/help:")
        return
    band = landis_koch(result.kappa)
    st.metric(tr("common.kappa"), num(result.kappa), help=tr("steps.kappa_help"))
    st.markdown(tr("steps.kappa_band", band=tr(f"common.band.{band}")))
    if stats.se is not None:
        st.markdown(tr("steps.kappa_interval", se=num(stats.se), level=num(stats.confidence * 100),
                       low=num(stats.ci_low), high=num(stats.ci_high)))
        st.latex(fx.ci_plugged(stats, state.lang()))


def figure(key: str, result: Walkthrough, which: str, cell: Cell | None = None):
    """The cached figure :func:`chart` would draw, for a page that draws it itself (clickable)."""
    return _figure(key, result, state.lang(), which, cell)
