"""How text is set: sans-serif CJK faces named after the Latin face, and the vertical axis title
of a matrix upright where the language sets vertical text upright.

Sources of truth: the language record (``upright_in_vertical_text``: true for Chinese only), and
what a browser does with a ``font-family`` list (each family in turn, for each glyph; the system's
fallback, a serif Song face on the test machine, only after every family named). The browser
tests (``tests/browser/test_typesetting.py``) check the faces and glyphs Chromium really draws.
"""

from __future__ import annotations

import re

import pytest

from qwk_explained import walkthrough
from qwk_explained.present import charts, figures
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.present.typography import (
    APP_LATIN,
    CJK_SANS_SERIF,
    PLOTLY_LATIN,
    font_family,
)

SEED = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])


def _families(value: str) -> list[str]:
    return [name.strip().strip('"') for name in value.split(",")]


@pytest.mark.parametrize("latin", [APP_LATIN, PLOTLY_LATIN])
def test_the_cjk_sans_serif_faces_come_after_the_latin_ones_and_before_any_fallback(latin):
    families = _families(font_family(latin))
    assert families == [*latin, *CJK_SANS_SERIF, "sans-serif"]
    # The face the test machine installs (fonts-wqy-microhei) is named: no serif fallback there.
    assert "WenQuanYi Micro Hei" in families
    assert not [name for name in families if re.search(r"serif$", name) and name != "sans-serif"]


def test_only_chinese_sets_vertical_text_upright():
    assert {code for code, record in LANGUAGES.items() if record.upright_in_vertical_text} \
        == {"zh"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_matrix_charts_y_title_is_upright_where_the_language_says(lang):
    html = charts.walkthrough_chart(SEED, "observed", lang)
    title = re.search(r'<th scope="rowgroup"[^>]*class="([^"]*)"', html)
    assert title is not None
    upright = "qwk-upright" in title[1].split()
    assert upright == language(lang).upright_in_vertical_text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plotly_heatmaps_y_title_is_upright_where_the_language_says(lang):
    """plotly turns an axis title a quarter turn; an upright title is an annotation of one
    glyph per line, unturned, beside the axis instead."""
    figure = figures.walkthrough_figure(SEED, "observed", lang).to_dict()
    layout = figure["layout"]
    title = t(lang, "steps.axis_actual")
    assert _families(layout["font"]["family"])[:3] == list(PLOTLY_LATIN)
    if language(lang).upright_in_vertical_text:
        assert layout["yaxis"]["title"]["text"] == ""
        (note,) = layout["annotations"]
        assert note["text"].split("<br>") == list(title) and note["textangle"] == 0
        assert note["xref"] == "x domain" and note["xanchor"] == "right" and note["xshift"] < 0
    else:
        assert layout["yaxis"]["title"]["text"] == title and "annotations" not in layout
