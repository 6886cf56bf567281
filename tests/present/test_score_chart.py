"""The scores chart: each actual rating's scores as a histogram row, the cut points across them.

Sources of truth: ``np.histogram`` for the counts, ``apply_thresholds`` for which bars get their
own rating (blue) or another (orange), the locale files for the words; invariants of the markup
(one line group per cut point with its index and value, nothing unescaped).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from qwk_explained import apply_thresholds
from qwk_explained.present.colours import ACTUAL_COLOR, PREDICTED_COLOR
from qwk_explained.present.i18n import LANGUAGES, t
from qwk_explained.present.score_chart import BINS, score_chart_html, score_histograms
from qwk_explained.present.thresholds import format_cut, number_list
from qwk_explained.teaching.examples import scored_example

ACTUAL, SCORES = scored_example(2000, seed=3)
HISTOGRAMS = score_histograms(ACTUAL, SCORES, min_rating=0, max_rating=4)
CUTS = (1.1, 1.8, 2.3, 2.9)


def test_each_row_counts_its_ratings_scores_like_numpy() -> None:
    for rating in range(5):
        expected, edges = np.histogram(SCORES[ACTUAL == rating], bins=BINS,
                                       range=(SCORES.min(), SCORES.max()))
        assert HISTOGRAMS.counts[rating].tolist() == expected.tolist()
        assert np.allclose(HISTOGRAMS.edges, edges)
    assert HISTOGRAMS.counts.sum() == len(ACTUAL)


def test_bars_are_blue_where_their_scores_get_their_own_rating() -> None:
    html = score_chart_html(HISTOGRAMS, CUTS, "en")
    centres = (HISTOGRAMS.edges[:-1] + HISTOGRAMS.edges[1:]) / 2
    given = apply_thresholds(centres, CUTS)
    expected = [ACTUAL_COLOR if given[b] == row else PREDICTED_COLOR
                for row in range(5) for b in np.flatnonzero(HISTOGRAMS.counts[row])]
    assert re.findall(r'<rect [^>]*fill="(#[0-9A-Fa-f]+)"', html) == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_draggable_line_per_cut_with_its_value_in_the_language(lang: str) -> None:
    html = score_chart_html(HISTOGRAMS, CUTS, lang)
    groups = re.findall(r'<g class="qwk-cut" data-cut="(\d)" data-value="([^"]+)"', html)
    assert groups == [(str(k), repr(c)) for k, c in enumerate(CUTS)]
    for cut in CUTS:
        assert f">{format_cut(cut, lang)}</text>" in html
    caption = t(lang, "thresholds.chart_caption",
                cuts=number_list([format_cut(c, lang) for c in CUTS], lang))
    assert caption.replace("'", "&#x27;").replace('"', "&quot;") in html
    assert t(lang, "thresholds.chart_rows") in html
    assert "<script" not in html


def test_a_cut_outside_the_scores_is_drawn_at_the_edge() -> None:
    html = score_chart_html(HISTOGRAMS, (-50.0, 1.0, 2.0, 50.0), "en")
    xs = [float(x) for x in re.findall(r'<g class="qwk-cut"[^>]*><line x1="([0-9.]+)"', html)]
    assert xs[0] == 64.0 and xs[-1] == 708.0
