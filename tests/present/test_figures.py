"""Plotly figures: what the reader sees must be what the engine computed, in the reader's language.

Sources of truth: the Walkthrough (cell texts are its matrices through numbers.format_number),
numbers.plotly_separators (one formatting place per language), the caller's texts (titles and
hover labels pass through untouched, so figures translate), and WCAG 2 contrast (the text colour
chosen for every colour of every scale reaches at least 4:1).
"""

from __future__ import annotations

import subprocess
import sys
import typing

import numpy as np
import pytest

from qwk_explained import walkthrough
from qwk_explained.present import colours, figures
from qwk_explained.present.catalogue import FIGURE_NAMES, figure_values
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number, plotly_separators

TEXTS = {"title": "Matriz observada O", "x_title": "Calificación predicha",
         "y_title": "Calificación real"}


@pytest.fixture(scope="module")
def seed():
    # The seeds' worked example (ratings 1..5).
    return walkthrough([2, 2, 2, 3, 4, 5, 5, 5, 5, 5], [2, 2, 2, 3, 2, 1, 1, 1, 1, 3])


def written(figure) -> np.ndarray:
    """What is written in each cell: the overlay traces' texts merged (each cell in exactly one)."""
    overlays = [np.array(trace.text, dtype=object) for trace in figure.data[1:]]
    assert all(trace.texttemplate == "%{text}" for trace in figure.data[1:])
    filled = sum((o != "").astype(int) for o in overlays)
    assert (filled <= 1).all()
    merged = overlays[0].copy()
    for other in overlays[1:]:
        merged = np.where(other != "", other, merged)
    return merged


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cell_texts_are_the_formatted_matrix(seed, lang):
    figure = figures.heatmap(seed.expected, seed.labels, kind="counts", lang=lang, **TEXTS)
    expected = np.array([[format_number(v, lang) for v in row] for row in seed.expected.tolist()])
    assert (np.array(figure.data[0].text) == expected).all()  # hover values
    assert (written(figure) == expected).all()  # numbers drawn in the cells
    assert written(figure)[1, 0] == f"1{LANGUAGES[lang].decimal}2"


def test_integer_counts(seed):
    figure = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en", integer=True,
                         **TEXTS)
    assert written(figure).tolist() == [[str(v) for v in row] for row in seed.observed.tolist()]
    big = figures.heatmap([[12345, 0], [1, 2]], [0, 1], kind="counts", lang="tr", integer=True,
                      **TEXTS)
    assert written(big)[0, 0] == "12.345"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_separators_follow_language(seed, lang):
    heat = figures.heatmap(seed.weights, seed.labels, kind="weights", lang=lang, **TEXTS)
    bars = figures.histogram_bars(seed.labels, seed.actual_hist, seed.predicted_hist,
                              actual_name="a", predicted_name="p", lang=lang, **TEXTS)
    assert heat.layout.separators == bars.layout.separators == plotly_separators(lang)
    assert heat.layout.separators == LANGUAGES[lang].decimal + LANGUAGES[lang].group


def test_axes_are_rating_categories_with_first_rating_on_top(seed):
    figure = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en", **TEXTS)
    for trace in figure.data:
        assert list(trace.x) == list(trace.y) == ["1", "2", "3", "4", "5"]
    assert figure.layout.xaxis.type == figure.layout.yaxis.type == "category"
    assert figure.layout.yaxis.autorange == "reversed"  # row 0 at the top, like a matrix
    assert figure.layout.yaxis.scaleanchor == "x"  # square cells
    assert figure.data[0].showscale is False


def test_titles_and_hover_pass_through(seed):
    figure = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="es", **TEXTS)
    assert figure.layout.title.text == TEXTS["title"]
    assert figure.layout.xaxis.title.text == TEXTS["x_title"]
    assert figure.layout.yaxis.title.text == TEXTS["y_title"]
    hover = figure.data[0].hovertemplate
    assert TEXTS["x_title"] in hover and TEXTS["y_title"] in hover and "%{text}" in hover
    assert all(trace.hoverinfo == "skip" for trace in figure.data[1:])
    custom = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="es",
                         hover="O(%{y}, %{x}) = %{text}<extra></extra>", **TEXTS)
    assert custom.data[0].hovertemplate == "O(%{y}, %{x}) = %{text}<extra></extra>"
    untitled = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en", title="",
                           x_title="x", y_title="y")
    assert untitled.layout.title.text is None


def test_highlight_outlines_the_right_cell(seed):
    figure = figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en",
                         highlight=(4, 0), **TEXTS)
    shapes = figure.layout.shapes
    assert len(shapes) == 2  # dark line under a white one
    for shape in shapes:
        assert (shape.type, shape.xref, shape.yref) == ("rect", "x", "y")
        # Category index 0 on x (predicted rating 1), 4 on y (actual rating 5).
        assert (shape.x0, shape.x1, shape.y0, shape.y1) == (-0.5, 0.5, 3.5, 4.5)
    assert {shape.line.color for shape in shapes} == {colours.DARK_TEXT, colours.LIGHT_TEXT}
    assert not figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en",
                           **TEXTS).layout.shapes
    with pytest.raises(IndexError):
        figures.heatmap(seed.observed, seed.labels, kind="counts", lang="en", highlight=(5, 0),
                    **TEXTS)


def test_colour_scale_per_kind(seed):
    scales = {}
    for kind in ("counts", "proportions", "weights", "products"):
        figure = figures.heatmap(seed.weights, seed.labels, kind=kind, lang="en", **TEXTS)
        scales[kind] = tuple(color for _, color in figure.data[0].colorscale)
    assert scales["counts"] == scales["proportions"]
    assert len({scales["counts"], scales["weights"], scales["products"]}) == 3
    assert scales["counts"][-1] == "rgb(8,48,107)"  # ColorBrewer Blues
    assert scales["weights"][-1] == "rgb(127,39,4)"  # Oranges
    assert scales["products"][-1] == "rgb(63,0,125)"  # Purples
    with pytest.raises(ValueError):
        figures.heatmap(seed.weights, seed.labels, kind="heat", lang="en", **TEXTS)


def test_colour_scales_match_plotly_named_scales():
    # The stops are written out to compute text colours; they must be plotly's own.
    import plotly.colors

    for name in ("Blues", "Oranges", "Purples"):
        assert colours.colorscale(name) == [[float(p), c.replace(" ", "")]
                                         for p, c in plotly.colors.get_colorscale(name)]


def test_text_colour_contrasts_with_its_cell():
    figure = figures.heatmap([[0, 10], [5, 1]], [0, 1], kind="counts", lang="en", **TEXTS)
    light, dark = figure.data[1], figure.data[2]
    assert light.textfont.color == colours.LIGHT_TEXT and dark.textfont.color == colours.DARK_TEXT
    assert light.text[0][1] == "10" and dark.text[0][0] == "0"  # white on dark, dark on light
    # WCAG: every colour of every scale gets a text colour with a contrast ratio of at least 4:1.
    for scale in ("Blues", "Oranges", "Purples"):
        values = np.linspace(0, 1, 201)
        luminance = colours._relative_luminance(colours.cell_colors(values, scale, 0.0, 1.0))
        use_light = colours.light_text_mask(values, scale, 0.0, 1.0)
        text = np.where(use_light, colours._hex_luminance(colours.LIGHT_TEXT),
                        colours._hex_luminance(colours.DARK_TEXT))
        ratio = (np.maximum(luminance, text) + 0.05) / (np.minimum(luminance, text) + 0.05)
        assert ratio.min() >= 4.0, scale


def test_all_zero_matrix_is_light_not_mid_scale():
    figure = figures.heatmap(np.zeros((3, 3)), [1, 2, 3], kind="products", lang="en", **TEXTS)
    assert figure.data[0].zmin == 0 and figure.data[0].zmax == 1
    assert all(t == "0" for row in figure.data[2].text for t in row)  # dark text everywhere


def test_shared_zmax(seed):
    figure = figures.heatmap(seed.observed_norm, seed.labels, kind="proportions", lang="en",
                         zmax=1.0, **TEXTS)
    assert figure.data[0].zmax == 1.0


def test_fifty_ratings_hover_only():
    rng = np.random.default_rng(3)
    result = walkthrough(rng.integers(0, 50, 2000), rng.integers(0, 50, 2000))
    figure = figures.heatmap(result.expected_norm, result.labels, kind="proportions", lang="tr",
                         highlight=(10, 20), **TEXTS)
    assert len(figure.data) == 1  # no overlay text traces: cells too small
    assert figure.data[0].texttemplate is None
    assert np.array(figure.data[0].text).shape == (50, 50)  # values still on hover
    assert 500 <= figure.layout.height <= 800


def test_height_grows_with_scale_size():
    heights = [figures.heatmap(np.eye(n), list(range(n)), kind="counts", lang="en",
                           **TEXTS).layout.height for n in (2, 5, 10, 15, 30, 50)]
    assert heights == sorted(heights)
    small = figures.heatmap(np.eye(15), list(range(15)), kind="counts", lang="en", **TEXTS)
    assert 8 <= small.data[1].textfont.size <= 14


@pytest.mark.parametrize("lang", LANGUAGES)
def test_histogram_bars(seed, lang):
    figure = figures.histogram_bars(seed.labels, seed.actual_hist, seed.predicted_hist,
                                title="Histogramas", x_title="Calificación", y_title="Recuento",
                                actual_name="Real", predicted_name="Predicha", lang=lang)
    actual, predicted = figure.data
    assert (actual.name, predicted.name) == ("Real", "Predicha")
    assert (actual.marker.color, predicted.marker.color) == (colours.ACTUAL_COLOR,
                                                             colours.PREDICTED_COLOR)
    assert list(actual.x) == list(predicted.x) == ["1", "2", "3", "4", "5"]
    assert list(actual.y) == [0, 3, 1, 1, 5] and list(predicted.y) == [4, 4, 2, 0, 0]
    assert list(actual.text) == ["0", "3", "1", "1", "5"]
    assert figure.layout.barmode == "group"
    assert figure.layout.xaxis.type == "category"
    assert figure.layout.title.text == "Histogramas"
    assert figure.layout.xaxis.title.text == "Calificación"
    assert figure.layout.yaxis.title.text == "Recuento"
    assert "Real" in actual.hovertemplate and "Calificación" in actual.hovertemplate


def test_histogram_counts_use_thousands_separator():
    # CLDR: Spanish groups from five digits on (minimumGroupingDigits 2), English from four.
    figure = figures.histogram_bars([0, 1], [15000, 1500], [2, 15000], title="", x_title="x",
                                y_title="y", actual_name="a", predicted_name="p", lang="es")
    assert list(figure.data[0].text) == ["15.000", "1500"]
    figure = figures.histogram_bars([0, 1], [1500, 2], [2, 1500], title="", x_title="x",
                                y_title="y", actual_name="a", predicted_name="p", lang="en")
    assert list(figure.data[0].text) == ["1,500", "2"]


def test_package_does_not_import_plotly():
    # The engine and CLI must run without plotly: only qwk_explained.present.figures imports it.
    code = "import sys, qwk_explained; sys.exit('plotly' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize("which", FIGURE_NAMES)
def test_walkthrough_figure_draws_what_it_is_named_after(seed, which):
    """Source of truth: the Walkthrough's matrix of the same name (the histograms: both margins),
    titled with the locale's ``steps.<name>_chart``, the followed cell outlined in heatmaps."""
    figure = figures.walkthrough_figure(seed, which, "es", cell=(4, 0))
    assert figure.layout.title.text == t("es", f"steps.{which}_chart")
    if which == "histograms":
        assert [list(trace.y) for trace in figure.data] == [seed.actual_hist.tolist(),
                                                            seed.predicted_hist.tolist()]
    else:
        assert np.array_equal(np.asarray(figure.data[0].z), figure_values(seed, which))
        assert {(shape.x0, shape.y0) for shape in figure.layout.shapes} == {(-0.5, 3.5)}


def _every_kind_of_figure(result):
    heatmaps = [figures.heatmap(result.weights, result.labels, kind=kind, lang="es",
                                highlight=(1, 2), integer=kind == "counts", **TEXTS)
                for kind in ("counts", "proportions", "weights", "products")]
    big = walkthrough(np.arange(40) % 20, np.arange(40)[::-1] % 20)
    return [
        *heatmaps,
        figures.heatmap(result.observed, result.labels, kind="counts", lang="en", title="",
                        x_title="x", y_title="y", zmax=3.0),
        figures.heatmap(big.expected, big.labels, kind="counts", lang="tr", **TEXTS),  # hover only
        figures.histogram_bars(result.labels, result.actual_hist, result.predicted_hist,
                               actual_name="a", predicted_name="p", lang="zh", **TEXTS),
        figures.histogram_bars(big.labels, big.actual_hist, big.predicted_hist, actual_name="a",
                           predicted_name="p", lang="en", **TEXTS),
    ]


def test_every_figure_passes_plotly_validation(seed):
    """Figures skip plotly's validation at run time (for speed), so it runs here instead.

    A misspelt property or a wrong value type raises ``ValueError`` in a validated ``go.Figure``;
    the JSON the browser gets must be the same either way.
    """
    import json

    import plotly.graph_objects as go
    import plotly.io as pio

    def sent(figure) -> dict:
        spec = json.loads(pio.to_json(figure, validate=False))
        # Validation writes the empty template out as {"data": {"scatter": [{"type": ...}]}}.
        spec["layout"].pop("template", None)
        return spec

    for figure in _every_kind_of_figure(seed):
        checked = go.Figure(figure.to_dict())  # validates every property, raises when invalid
        assert sent(checked) == sent(figure)


def test_figures_set_their_own_colours_and_carry_no_template(seed):
    """No template travels with a figure (Streamlit's default one only sets default colours,
    and it was half of each figure's objects): every trace has its colours set explicitly."""
    for figure in _every_kind_of_figure(seed):
        spec = figure.to_dict()
        assert spec["layout"]["template"] == {}
        for trace in spec["data"]:
            assert "colorscale" in trace or "color" in trace.get("marker", {}), trace["type"]


@pytest.mark.parametrize("scale", typing.get_args(colours.ColourScale))
def test_every_cell_colour_has_a_text_colour_that_reads_on_it(scale):
    """WCAG AA (4.5:1) for the numbers in every cell, on every colour a scale can paint: with
    #1A1A1A as the dark text, mid-tones (luminance 0.18 to 0.22: the blue of a count half way up,
    the red of a cost) passed with neither (axe on the thresholds page: 4.19 to 4.3)."""
    values = np.linspace(0.0, 1.0, 1001)
    luminance = colours._relative_luminance(colours.cell_colors(values, scale, 0.0, 1.0))
    light = colours.light_text_mask(values, scale, 0.0, 1.0)
    text = np.where(light, colours._LIGHT_LUMINANCE, colours._DARK_LUMINANCE)
    ratio = (np.maximum(luminance, text) + 0.05) / (np.minimum(luminance, text) + 0.05)
    assert ratio.min() >= 4.5, (scale, values[ratio.argmin()], ratio.min())
