"""Plotly figures for the walkthrough: heatmaps with numbers written in the cells, histogram bars.

This is the only module that imports plotly (the package ``__init__`` does not), so the engine and
the CLI run without it. Every visible text (titles, axis titles, legend names, hover labels) is
passed in by the caller, already translated; numbers are formatted by
:func:`.numbers.format_number` and ``layout.separators`` follows the language, so a
figure reads like the sentence beside it.

Figures are written as plain plotly JSON (dicts) and wrapped in a ``go.Figure`` without plotly's
per-property validation (:func:`_figure`): validation was three quarters of the cost of a figure
(a 5 x 5 heatmap: 3.2 ms with it, 0.8 ms without), the walkthrough draws eight per rerun, and
thirty students editing at once wait for each other's reruns. The tests validate the specs instead
(``tests/present/test_figures.py`` rebuilds each kind of figure with validation on), so a misspelt
property is caught once rather than paid for on every edit.

Heatmaps are ``heatmap`` traces (several times cheaper to build than ``plotly.express.imshow``).
Rows are the actual rating (first label at the top, like a matrix), columns the predicted one. The
colours are those of :mod:`qwk_explained.present.colours`. Plotly draws a heatmap's cell text in a
single colour, so the numbers are drawn by two transparent overlay heatmaps: white on dark cells,
near-black on light ones, chosen from the WCAG contrast against the colour of each cell.

The app's walkthrough draws its matrices and histograms with the light HTML charts of
:mod:`qwk_explained.present.charts` instead: in a browser each plotly figure costs about 35 ms of
main-thread work whenever its data changes, and plotly's 4.7 MB of JavaScript adds about two
seconds to a first visit. These figures serve the notebook and the pages that need plotly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import NDArray

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell

from .catalogue import FIGURES, FigureName, figure_values
from .colours import (
    ACTUAL_COLOR,
    DARK_TEXT,
    DIVERGING,
    LIGHT_TEXT,
    PREDICTED_COLOR,
    SCALE_OF_KIND,
    HeatmapKind,
    colorscale,
    light_text_mask,
    value_range,
)
from .i18n import t
from .languages import language
from .numbers import format_count, format_number, plotly_separators
from .typography import PLOTLY_LATIN, font_family

_TRANSPARENT = [[0.0, "rgba(0,0,0,0)"], [1.0, "rgba(0,0,0,0)"]]

#: Above this many ratings the cells are too small for text: values are shown on hover only.
MAX_TEXT_SIZE = 15

_BASE_LAYOUT: dict[str, Any] = {
    "margin": {"l": 8, "r": 8, "t": 48, "b": 8},
    "title": {"x": 0.0, "xanchor": "left"},
    "plot_bgcolor": "rgba(0,0,0,0)",
    "paper_bgcolor": "rgba(0,0,0,0)",
}


def _layout(title: str, lang: str) -> dict[str, Any]:
    layout = copy.deepcopy(_BASE_LAYOUT)
    layout["separators"] = plotly_separators(lang)
    layout["font"] = {"family": font_family(PLOTLY_LATIN)}
    if title:
        layout["title"]["text"] = title
    else:
        layout["margin"]["t"] = 8
    return layout


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """A ``go.Figure`` holding ``data`` and ``layout`` as given, without plotly's validation.

    ``_validate=False`` is plotly's own switch for this (``BaseFigure.__init__``); the figure still
    behaves as usual (``fig.data[0].text``, ``to_dict``, ``st.plotly_chart``).

    The template is empty on purpose. plotly would add its default one, which under Streamlit
    holds only default colours (colorway, colour scales), and every colour here is set
    explicitly; the font family is set by :func:`_layout` (CJK faces after the Latin ones) and the
    axis colours come from the front end's theme, applied in the browser. That
    template was half the objects of each figure, copied and walked four times per chart on every
    rerun; without it the eight charts of the walkthrough render to the same pixels, light and
    dark (checked with screenshots).
    """
    layout["template"] = {}
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _categories(labels: Sequence[Any] | NDArray[Any]) -> list[str]:
    # Ratings are integers; strings keep the axis categorical even for 1, 2, 3 or gaps like 1, 5.
    return [str(int(x)) if isinstance(x, int | np.integer) else str(x) for x in labels]


def _cell_size(size: int) -> int:
    """Pixels per cell: large for a 5-point scale, shrinking so 50 ratings still fit ~600 px."""
    return int(min(56, max(12, 600 // max(size, 1))))


def _text_size(cell: int, texts: list[str]) -> int:
    # About 0.6 em per digit: the longest number must fit in 85 % of the cell, between 8 and 14 px.
    longest = max((len(t) for t in texts), default=1)
    return int(min(14, max(8, 0.85 * cell / (0.6 * max(longest, 1)))))


def heatmap(
    matrix: Any,
    labels: Sequence[Any] | NDArray[Any],
    *,
    title: str,
    x_title: str,
    y_title: str,
    kind: HeatmapKind,
    lang: str,
    highlight: tuple[int, int] | None = None,
    integer: bool = False,
    hover: str | None = None,
    zmax: float | None = None,
) -> go.Figure:
    """A square N x N heatmap with each cell's value written in it.

    Parameters
    ----------
    matrix
        N x N values, rows = actual rating, columns = predicted rating.
    labels
        The N rating labels, used as categorical ticks on both axes.
    title, x_title, y_title
        Translated texts (x = predicted rating, y = actual rating); an empty title leaves no room.
    kind
        ``"counts"``, ``"proportions"`` (blue), ``"weights"`` (orange) or ``"products"`` (purple).
    lang
        Language of the numbers (cell texts, hover, ``layout.separators``).
    highlight
        ``(i, j)`` positions of a cell to outline (a two-tone rectangle, visible on any colour).
    integer
        Write values as integers (counts).
    hover
        A plotly ``hovertemplate``: ``%{y}`` actual label, ``%{x}`` predicted label, ``%{text}`` the
        formatted value. Default: ``"{y_title}: %{y}<br>{x_title}: %{x}<br>%{text}"``.
    zmax
        Top of the colour scale (default: the largest value). Give two matrices the same ``zmax``
        to compare their colours, e.g. O/n and E/n.

    For N > 15 no text is written in the cells (they are too small): values are on hover only.
    """
    if kind not in SCALE_OF_KIND:
        raise ValueError(f"unknown kind {kind!r}; expected one of {tuple(SCALE_OF_KIND)}")
    values = np.asarray(matrix, dtype=np.float64)
    categories = _categories(labels)
    size = len(categories)
    if values.shape != (size, size):
        raise ValueError(f"matrix of shape {values.shape} does not match {size} labels")
    scale = SCALE_OF_KIND[kind]
    zmin, zmax = value_range(values, zmax, diverging=kind in DIVERGING)

    flat = values.ravel()
    if integer:
        texts = [format_count(v, lang) if np.isfinite(v) else format_number(v, lang)
                 for v in flat.tolist()]
    else:
        texts = [format_number(v, lang) for v in flat.tolist()]
    text_grid = np.array(texts, dtype=object).reshape(size, size)

    if hover is None:
        hover = f"{y_title}: %{{y}}<br>{x_title}: %{{x}}<br>%{{text}}<extra></extra>"
    gap = 1 if size <= MAX_TEXT_SIZE else 0
    common = {"x": categories, "y": categories, "xgap": gap, "ygap": gap, "showscale": False}
    # Plain lists, not numpy arrays: plotly turns every numpy array into base64 on its way to the
    # browser and, with pandas loaded, first asks narwhals what kind of array it is (3 % of the
    # server's time under the classroom load test). The matrices are at most 50 x 50.
    traces: list[dict[str, Any]] = [{
        "type": "heatmap",
        "z": values.tolist(),
        "text": text_grid.tolist(),
        "colorscale": colorscale(scale),
        "zmin": zmin,
        "zmax": zmax,
        "hovertemplate": hover,
        "name": "cells",
        **common,
    }]
    cell = _cell_size(size)
    if size <= MAX_TEXT_SIZE:
        light = light_text_mask(values, scale, zmin, zmax)
        font_size = _text_size(cell, texts)
        blank = np.zeros((size, size)).tolist()
        for mask, color, name in ((light, LIGHT_TEXT, "light text"),
                                  (~light, DARK_TEXT, "dark text")):
            traces.append({
                "type": "heatmap",
                "z": blank,
                "text": np.where(mask, text_grid, "").tolist(),
                "texttemplate": "%{text}",
                "textfont": {"color": color, "size": font_size},
                "colorscale": _TRANSPARENT,
                "hoverinfo": "skip",
                "name": name,
                **common,
            })

    layout = _layout(title, lang)
    axis = {"type": "category", "showgrid": False, "zeroline": False, "ticks": "",
            "ticklabelstandoff": 4, "automargin": True}
    layout["xaxis"] = {**axis, "title": {"text": x_title}, "constrain": "domain"}
    layout["yaxis"] = {**axis, "title": {"text": y_title}, "autorange": "reversed",
                       "scaleanchor": "x", "scaleratio": 1, "constrain": "domain"}
    if language(lang).upright_in_vertical_text:
        _upright_y_title(layout, y_title, categories)
    layout["height"] = size * cell + layout["margin"]["t"] + 90
    if highlight is not None:
        i, j = (int(k) for k in highlight)
        if not (0 <= i < size and 0 <= j < size):
            raise IndexError(f"highlight {highlight} outside the {size} x {size} matrix")
        box = {"type": "rect", "xref": "x", "yref": "y", "layer": "above",
               "x0": j - 0.5, "x1": j + 0.5, "y0": i - 0.5, "y1": i + 0.5}
        # A dark line under a white one: the outline shows on light and dark cells alike.
        layout["shapes"] = [{**box, "line": {"color": DARK_TEXT, "width": 5}},
                            {**box, "line": {"color": LIGHT_TEXT, "width": 2}}]
    return _figure(traces, layout)


#: Pixels per character of a tick label (plotly's 12 px font), and of the upright title's column.
_TICK_CHAR_PX, _TITLE_PX = 7, 16


def _upright_y_title(layout: dict[str, Any], title: str, categories: list[str]) -> None:
    """Set the y-axis title upright, one glyph under the other, left of the tick labels.

    plotly turns an axis title a quarter turn, which lays Han characters on their side; a
    vertical Chinese title keeps each glyph upright and reads top to bottom. The title becomes an
    annotation beside the axis (``x domain``: the axis's own edge, wherever the square cells put
    it), past the widest tick label, and the left margin grows by its column.
    """
    ticks = layout["yaxis"].get("ticklabelstandoff", 0) + _TICK_CHAR_PX * max(map(len, categories))
    layout["yaxis"]["title"] = {"text": ""}
    layout["annotations"] = [{
        "text": "<br>".join(title), "textangle": 0, "showarrow": False,
        "xref": "x domain", "yref": "y domain", "x": 0, "y": 0.5, "xanchor": "right",
        "yanchor": "middle", "xshift": -(ticks + _TITLE_PX // 2)}]
    layout["margin"]["l"] += ticks + _TITLE_PX * 2


def histogram_bars(
    labels: Sequence[Any] | NDArray[Any],
    actual_hist: Any,
    predicted_hist: Any,
    *,
    title: str,
    x_title: str,
    y_title: str,
    actual_name: str,
    predicted_name: str,
    lang: str,
) -> go.Figure:
    """Grouped bars of the two histograms (how often each rater gave each rating), counts on top.

    Above 15 ratings the counts are on hover only. Hover shows the series name, the rating and
    the count; all texts are the caller's (translated) ones.
    """
    categories = _categories(labels)
    show_text = len(categories) <= MAX_TEXT_SIZE
    top = 0
    traces = []
    for name, counts, color in ((actual_name, actual_hist, ACTUAL_COLOR),
                                (predicted_name, predicted_hist, PREDICTED_COLOR)):
        values = [int(round(float(v))) for v in np.asarray(counts).ravel().tolist()]
        if len(values) != len(categories):
            raise ValueError(f"{len(values)} counts for {len(categories)} labels")
        top = max([top, *values])
        texts = [format_number(v, lang) for v in values]
        traces.append({
            "type": "bar",
            "x": categories,
            "y": values,
            "text": texts,
            "textposition": "outside" if show_text else "none",
            "cliponaxis": False,
            "marker": {"color": color},
            "name": name,
            "hovertemplate": f"{name}<br>{x_title}: %{{x}}<br>{y_title}: %{{text}}<extra></extra>",
        })
    layout = _layout(title, lang)
    layout.update(
        barmode="group",
        height=340,
        legend={"orientation": "h", "x": 0.0, "y": 1.0, "yanchor": "bottom"},
        xaxis={"type": "category", "title": {"text": x_title}, "automargin": True},
        yaxis={"title": {"text": y_title}, "rangemode": "tozero", "tickformat": ",d",
               "automargin": True, **({"dtick": 1} if top <= 10 else {})},
    )
    layout["margin"]["t"] = max(layout["margin"]["t"], 64)  # room for the legend above the bars
    return _figure(traces, layout)


# --- the walkthrough's figures -------------------------------------------------------------------


def walkthrough_figure(result: Walkthrough, which: FigureName, lang: str,
                       cell: Cell | None = None) -> go.Figure:
    """One figure of the walkthrough (:data:`~.catalogue.FIGURES`), titles in ``lang``, with
    ``cell`` (positions) outlined in the heatmaps."""
    figure = FIGURES[which]
    if which == "histograms":
        return histogram_bars(
            result.labels, result.actual_hist, result.predicted_hist,
            title=t(lang, figure.title_key), x_title=t(lang, "steps.axis_rating"),
            y_title=t(lang, "steps.axis_count"), actual_name=t(lang, "steps.actual_name"),
            predicted_name=t(lang, "steps.predicted_name"), lang=lang)
    return heatmap(
        figure_values(result, which), result.labels, title=t(lang, figure.title_key),
        x_title=t(lang, "steps.axis_predicted"), y_title=t(lang, "steps.axis_actual"),
        kind=figure.kind, lang=lang, highlight=cell, integer=figure.integer)
