r"""The scores of each actual rating as a histogram, with the cut points drawn across them.

One row per actual rating, all on the same score axis, so the learner sees where each rating's
scores lie and which of them the cut points send to another rating: a bar whose scores get their
own rating is blue, one whose scores get another rating orange (Okabe-Ito, safe with every common
colour-vision deficiency), and the cut points are lines across every row with their values above.

Plain SVG inside HTML, drawn by the app's chart component (:mod:`qwk_app.charts`) with no
plotting library: the bars are counted once per data set (:func:`score_histograms`), and moving a
cut point only redraws lines and colours. Numbers go through :mod:`.numbers`, words through the
locales, and everything else is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import numpy as np
from numpy.typing import NDArray

from .colours import ACTUAL_COLOR, PREDICTED_COLOR
from .i18n import t
from .numbers import format_label, format_number
from .thresholds import format_cut, number_list

#: Bars per row: fine enough to show a regressor's spread, coarse enough to read on a phone.
BINS = 60
_WIDTH, _LEFT, _RIGHT = 720.0, 64.0, 12.0
_ROW, _GAP, _TOP, _BOTTOM = 38.0, 6.0, 40.0, 34.0


@dataclass(frozen=True, eq=False)
class ScoreHistograms:
    """Counts of the scores in ``BINS`` equal bins, one row per rating of the scale.

    Attributes
    ----------
    edges : ndarray of shape (bins + 1,), float64
        The bins' edges, from the lowest score to the highest.
    counts : ndarray of shape (N, bins), int64
        ``counts[i, b]``: items of the i-th rating whose score falls in bin b.
    min_rating : int
        The rating of row 0.
    """

    edges: NDArray[np.float64]
    counts: NDArray[np.int64]
    min_rating: int


def score_histograms(actual: NDArray[np.int64], scores: NDArray[np.float64], *,
                     min_rating: int, max_rating: int, bins: int = BINS) -> ScoreHistograms:
    """Count each rating's scores in ``bins`` equal bins spanning all the scores (O(n)).

    >>> h = score_histograms(np.array([0, 0, 1]), np.array([0.0, 0.4, 1.0]), min_rating=0,
    ...                      max_rating=1, bins=2)
    >>> h.edges.tolist(), h.counts.tolist()
    ([0.0, 0.5, 1.0], [[2, 0], [0, 1]])
    """
    low, high = float(scores.min()), float(scores.max())
    edges = np.linspace(low, high if high > low else low + 1.0, bins + 1)
    # Bins are [a, b), the last [a, b], as np.histogram counts them.
    index = np.clip(np.searchsorted(edges, scores, side="right") - 1, 0, bins - 1)
    size = max_rating - min_rating + 1
    rows = actual.astype(np.int64) - min_rating
    counts = np.bincount(rows * bins + index, minlength=size * bins).reshape(size, bins)
    return ScoreHistograms(edges, counts, min_rating)


def _x(value: float, low: float, high: float) -> float:
    span = (high - low) or 1.0
    return _LEFT + (value - low) / span * (_WIDTH - _LEFT - _RIGHT)


def score_chart_html(histograms: ScoreHistograms, cuts: Sequence[float], lang: str) -> str:
    """The chart as one ``<figure>`` of SVG with its caption (``qwk-scores``).

    Each cut point is a line with ``data-cut`` (its index) and the axis's ends are in
    ``data-low``/``data-high``, so a script can tell which cut a pointer grabs and where it goes.
    """
    edges, counts = histograms.edges, histograms.counts
    low, high = float(edges[0]), float(edges[-1])
    size, bins = counts.shape
    height = _TOP + size * (_ROW + _GAP) + _BOTTOM
    centres = (edges[:-1] + edges[1:]) / 2
    given = np.searchsorted(np.asarray(cuts, dtype=np.float64), centres, side="right")
    bar_width = (_WIDTH - _LEFT - _RIGHT) / bins
    parts = [f'<svg viewBox="0 0 {_WIDTH:.0f} {height:.0f}" role="img" '
             f'aria-labelledby="qwk-scores-caption" data-low="{low!r}" data-high="{high!r}" '
             f'data-left="{_LEFT}" data-right="{_WIDTH - _RIGHT}" data-width="{_WIDTH:.0f}" '
             'style="width:100%;height:auto;font-size:12px">']
    for row in range(size):
        top = _TOP + row * (_ROW + _GAP)
        rating = format_label(histograms.min_rating + row, lang)
        parts.append(f'<text x="{_LEFT - 8}" y="{top + _ROW / 2 + 4:.1f}" text-anchor="end" '
                     f'fill="currentColor">{escape(rating)}</text>')
        parts.append(f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{top + _ROW:.1f}" '
                     f'y2="{top + _ROW:.1f}" stroke="currentColor" stroke-opacity="0.25"/>')
        tallest = int(counts[row].max())
        for b in np.flatnonzero(counts[row]).tolist():
            bar = _ROW * int(counts[row, b]) / tallest
            colour = ACTUAL_COLOR if given[b] == row else PREDICTED_COLOR
            parts.append(f'<rect x="{_LEFT + b * bar_width:.1f}" y="{top + _ROW - bar:.1f}" '
                         f'width="{max(bar_width - 1, 1):.1f}" height="{bar:.1f}" '
                         f'fill="{colour}"/>')
    bottom = _TOP + size * (_ROW + _GAP)
    parts.append(f'<text x="4" y="14" fill="currentColor">'
                 f'{escape(t(lang, "thresholds.chart_rows"))}</text>')
    parts.append(f'<text x="{_WIDTH - _RIGHT}" y="{bottom + 28:.1f}" text-anchor="end" '
                 f'fill="currentColor">{escape(t(lang, "thresholds.column.scores"))}</text>')
    for value in (low, (low + high) / 2, high):
        parts.append(f'<text x="{_x(value, low, high):.1f}" y="{bottom + 16:.1f}" '
                     f'text-anchor="middle" fill="currentColor">'
                     f'{escape(format_number(value, lang, 2))}</text>')
    for k, cut in enumerate(cuts):
        x = min(max(_x(cut, low, high), _LEFT), _WIDTH - _RIGHT)
        parts.append(f'<g class="qwk-cut" data-cut="{k}" data-value="{float(cut)!r}" tabindex="0" '
                     'style="cursor:ew-resize">'
                     f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP - 6}" y2="{bottom:.1f}" '
                     'stroke="currentColor" stroke-width="2" stroke-dasharray="5 3"/>'
                     f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP - 6}" y2="{bottom:.1f}" '
                     'stroke="transparent" stroke-width="14"/>'
                     f'<text x="{x:.1f}" y="{_TOP - 12}" text-anchor="middle" '
                     f'fill="currentColor">{escape(format_cut(cut, lang))}</text></g>')
    parts.append("</svg>")
    caption = t(lang, "thresholds.chart_caption",
                cuts=number_list([format_cut(c, lang) for c in cuts], lang))
    return (f'<figure class="qwk-scores" style="margin:0">{"".join(parts)}'
            f'<figcaption id="qwk-scores-caption">{escape(caption)}</figcaption></figure>')
