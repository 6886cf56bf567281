r"""Light charts for the walkthrough: each matrix a table of coloured cells, the histograms bars.

Plain HTML, drawn by the browser's own layout: a table of 25 numbers is a table, not a picture of
one. In Chromium each plotly figure cost about 35 ms of main-thread work whenever its data
changed (seven of the eight change with every edit), and plotly's JavaScript (4.7 MB) added about
two seconds to a first visit; these tables cost about 3 ms each and load nothing.

They also do what a picture cannot: the numbers stay text (selectable, read by screen readers,
scaled with the page's font for a projector), every cell is a button that can follow that cell
through the steps, and hovering a cell lights up the same cell in every matrix and its two
histogram bars (the app's component does the lighting; here each cell and bar only carries
``data-cell="i,j"`` or ``data-bar="a:i"``/``"p:j"``, by *positions*). Each cell explains itself on
hover or focus with its arithmetic: ``E₄,₀ = hᵃ₄ · hᵖ₀ / n = 5 · 4 / 10 = 2``.

Colours are those of :mod:`qwk_explained.present.colours` (one colour-blind-safe scale per
meaning, the text colour chosen by WCAG contrast); numbers go through
:func:`qwk_explained.present.numbers.format_number`; every word is passed in already translated
or looked up in the locales; everything else is escaped, so no text can become markup.

Cell numbers use fewer decimals on larger scales (4 up to 6 ratings, 3 up to 10, 2 beyond), so
that a 10-rating matrix fits beside another one; the full value is in the cell's explanation. A
non-zero value that would round to 0 is written ``<0.001``, never ``0``. Above 15 ratings the
cells carry no number at all (they are too small), only the explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell

from .blocks import Table
from .catalogue import COST_FIGURES, FIGURES, FigureName, figure_values
from .colours import (
    DARK_TEXT,
    DIVERGING,
    LIGHT_TEXT,
    SCALE_OF_KIND,
    HeatmapKind,
    cell_colors,
    light_text_mask,
    value_range,
)
from .i18n import t
from .languages import language
from .numbers import format_count, format_label, format_number

#: Above this many ratings the cells are too small for a number: it is in the explanation only.
MAX_TEXT_SIZE = 15
_MINUS = "\u2212"
#: Four corners, drawn rather than a glyph that some fonts lack.
_FULL_ICON = ('<svg aria-hidden="true" viewBox="0 0 24 24" width="1em" height="1em" fill="none" '
              'stroke="currentColor" stroke-width="2.2" stroke-linecap="round">'
              '<path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"/></svg>')


def cell_decimals(size: int) -> int:
    """Decimals written in the cells of an N x N matrix: 4 up to N = 6, 3 up to 10, then 2."""
    return 4 if size <= 6 else 3 if size <= 10 else 2


def cell_text(value: float, lang: str, decimals: int = 4, *, integer: bool = False) -> str:
    """A cell's number: an integer count, or ``decimals`` decimals; never ``0`` for a non-zero.

    >>> cell_text(0.0004, "en", 3), cell_text(0.0627, "es", 3), cell_text(3, "tr", integer=True)
    ('<0.001', '0,063', '3')
    """
    if integer:
        return format_count(value, lang)
    text = format_number(float(value), lang, decimals)
    if value and text in ("0", "-0"):
        return "<" + format_number(10.0 ** -decimals, lang, decimals)
    return text


def _sub(text: Any) -> str:
    return f"<sub>{escape(str(text))}</sub>"


def _cell_symbol(symbol: str, row: Any, col: Any) -> str:
    return f"{symbol}{_sub(f'{row},{col}')}"


# --- what each cell explains on hover ---------------------------------------------------------


def _weight_tip(result: Walkthrough, i: int, j: int, lang: str) -> str:
    """The weight of cell (i, j) with its positions plugged in, as :func:`formulas.weights_cell`."""
    labels = result.labels
    head = _cell_symbol("w", format_label(labels[i], lang), format_label(labels[j], lang))
    value = format_number(float(result.weights[i, j]), lang)
    kind, size = result.weights_name, result.size
    if kind == "unweighted":
        relation = "=" if i == j else "≠"
        return (f"{head} = {value} ({format_label(labels[i], lang)} {relation} "
                f"{format_label(labels[j], lang)})")
    if kind not in ("quadratic", "linear") or size < 2:
        return f"{head} = {value}"
    positions = "" if (int(labels[i]), int(labels[j])) == (i, j) else f" (i = {i}, j = {j})"
    if kind == "quadratic":
        symbolic = f"(i{_MINUS}j)²/(N{_MINUS}1)²"
        plugged = f"({i}{_MINUS}{j})²/({size}{_MINUS}1)² = {(i - j) ** 2}/{(size - 1) ** 2}"
    else:
        symbolic = f"|i{_MINUS}j|/(N{_MINUS}1)"
        plugged = f"|{i}{_MINUS}{j}|/({size}{_MINUS}1) = {abs(i - j)}/{size - 1}"
    return f"{head} = {symbolic}{positions} = {plugged} = {value}"


def _cost_tip(result: Walkthrough, which: FigureName, i: int, j: int, lang: str,
              ratings: tuple[str, str]) -> str:
    """A cell of a cost map: ``cost = w · O / n / den = 1 · 4 / 10 / 0.395 = 1.0127``, as
    :func:`.formulas.cost_cell` (and ``signed_cost_cell``) write it."""
    costs = result.cost_map
    signed = which == "signed_cost"
    head = _cell_symbol("cost±" if signed else "cost", *ratings)
    if costs is None:
        return f"{head} = ?"
    o, e, w = (_cell_symbol(s, *ratings) for s in ("O", "E", "w"))
    count = format_count(result.observed[i, j], lang)
    n, den = format_count(result.n, lang), format_number(result.denominator, lang)
    weight = format_number(float(result.weights[i, j]), lang)
    if signed:
        expected = format_number(float(result.expected[i, j]), lang)
        return (f"{head} = {w} · ({o} {_MINUS} {e}) / n / den = {weight} · ({count} {_MINUS} "
                f"{expected}) / {n} / {den} = {format_number(float(costs.signed[i, j]), lang)}")
    return (f"{head} = {w} · {o} / n / den = {weight} · {count} / {n} / {den} = "
            f"{format_number(float(costs.cost[i, j]), lang)}")


def _tip(result: Walkthrough, which: FigureName, i: int, j: int, lang: str) -> str:
    """The arithmetic of one cell of chart ``which`` (HTML), every number as in the formulas.

    The same arithmetic as the figure's cell formula (``FIGURES[which].cell``), written here in
    HTML rather than read from that LaTeX (:mod:`.formula_text`): a page draws up to 1,575 of
    them on every rerun (seven 15 x 15 matrices), and building and reading the LaTeX costs about
    190 µs a cell against 9 µs here. ``tests/app/test_linked_cells.py`` holds the two to the same
    numbers."""
    a, p = format_label(result.labels[i], lang), format_label(result.labels[j], lang)
    if which in COST_FIGURES:
        return _cost_tip(result, which, i, j, lang, (a, p))

    def number(value: float) -> str:
        return format_number(float(value), lang)

    n = format_number(result.n, lang)
    o, e, w = (_cell_symbol(s, a, p) for s in ("O", "E", "w"))
    if which == "observed":
        return f"{o} = {format_count(result.observed[i, j], lang)}"
    if which == "weights":
        return _weight_tip(result, i, j, lang)
    if which == "expected":
        return (f"{e} = h<sup>a</sup>{_sub(a)} · h<sup>p</sup>{_sub(p)} / n = "
                f"{format_count(result.actual_hist[i], lang)} · "
                f"{format_count(result.predicted_hist[j], lang)} / {n} = "
                f"{number(result.expected[i, j])}")
    if which == "observed_norm":
        return (f"{o} / n = {format_count(result.observed[i, j], lang)} / {n} = "
                f"{number(result.observed_norm[i, j])}")
    if which == "expected_norm":
        return (f"{e} / n = {number(result.expected[i, j])} / {n} = "
                f"{number(result.expected_norm[i, j])}")
    if which == "weighted_observed":
        return (f"{w} · {o} / n = {number(result.weights[i, j])} · "
                f"{number(result.observed_norm[i, j])} = {number(result.weighted_observed[i, j])}")
    return (f"{w} · {e} / n = {number(result.weights[i, j])} · "
            f"{number(result.expected_norm[i, j])} = {number(result.weighted_expected[i, j])}")


def cell_tips(result: Walkthrough, which: FigureName, lang: str) -> list[list[str]]:
    """Every cell's explanation for chart ``which``: which ratings it pairs, then its arithmetic."""
    labels = [format_label(x, lang) for x in result.labels]
    return [[escape(t(lang, "charts.cell", row=labels[i], col=labels[j]))
             + "<br>" + _tip(result, which, i, j, lang)
             for j in range(result.size)] for i in range(result.size)]


# --- the HTML -------------------------------------------------------------------------------------


def _full_button(label: str) -> str:
    """The button that shows one chart on the whole screen (a projector, the back of a room)."""
    text = escape(label)
    return (f'<button type="button" class="qwk-full" aria-label="{text}" title="{text}">'
            f"{_FULL_ICON}</button>")


def matrix_html(
    matrix: Any,
    labels: Sequence[Any] | NDArray[Any],
    *,
    title: str,
    x_title: str,
    y_title: str,
    kind: HeatmapKind,
    lang: str,
    full_label: str,
    highlight: Cell | None = None,
    integer: bool = False,
    tips: Sequence[Sequence[str]] | None = None,
    zmax: float | None = None,
    changed: NDArray[np.bool_] | None = None,
) -> str:
    """An N x N matrix as a table of coloured cells with its number written in each.

    Parameters
    ----------
    matrix
        N x N values, rows = actual rating, columns = predicted rating.
    labels
        The N rating labels, as column and row headers.
    title, x_title, y_title
        Translated texts (x = predicted rating, above the columns; y = actual rating, beside the
        rows).
    kind
        ``"counts"``, ``"proportions"`` (blue), ``"weights"`` (orange) or ``"products"``
        (purple).
    lang
        Language of the numbers.
    full_label
        Translated name of the full-screen button.
    highlight
        ``(i, j)`` positions of the followed cell (outlined).
    integer
        Write values as integers (counts).
    tips
        N x N explanations (trusted HTML: :func:`cell_tips`), shown on hover and focus. Each
        waits in its cell's ``data-tip`` and becomes an element only when it is shown: as
        elements, the 25 explanations of each of eleven matrices were half of the charts'
        nodes, built again by the browser on every rerun.
    zmax
        Top of the colour scale (default: the largest value).
    changed
        N x N mask of the cells whose value just changed (marked for a moment).

    Returns
    -------
    str
        A ``<figure>``; each cell is a ``<button data-cell="i,j">``.
    """
    if kind not in SCALE_OF_KIND:
        raise ValueError(f"unknown kind {kind!r}; expected one of {tuple(SCALE_OF_KIND)}")
    values = np.asarray(matrix, dtype=np.float64)
    size = len(labels)
    if values.shape != (size, size):
        raise ValueError(f"matrix of shape {values.shape} does not match {size} labels")
    if highlight is not None and not all(0 <= int(k) < size for k in highlight):
        raise IndexError(f"highlight {highlight} outside the {size} x {size} matrix")
    scale = SCALE_OF_KIND[kind]
    zmin, top = value_range(values, zmax, diverging=kind in DIVERGING)
    rgb = np.rint(cell_colors(values, scale, zmin, top)).astype(int)
    light = light_text_mask(values, scale, zmin, top)
    decimals = cell_decimals(size)
    written = size <= MAX_TEXT_SIZE
    heads = [escape(format_label(x, lang) if isinstance(x, int | np.integer) else str(x))
             for x in labels]
    # Set vertically beside the rows: Chinese upright, top to bottom; Latin turned (upwards).
    y_class = "qwk-ytitle qwk-upright" if language(lang).upright_in_vertical_text else "qwk-ytitle"

    rows = []
    for i in range(size):
        cells = []
        if i == 0:
            cells.append(f'<th scope="rowgroup" rowspan="{size}" class="{y_class}">'
                         f"<span>{escape(y_title)}</span></th>")
        cells.append(f'<th scope="row">{heads[i]}</th>')
        for j in range(size):
            classes = ["qwk-cell"]
            if highlight is not None and (i, j) == tuple(highlight):
                classes.append("qwk-followed")
            if changed is not None and changed[i, j]:
                classes.append("qwk-changed")
            r, g, b = rgb[i, j]
            color = LIGHT_TEXT if light[i, j] else DARK_TEXT
            text = cell_text(values[i, j], lang, decimals, integer=integer)
            if written:  # the explanation waits in an attribute: charts.js draws it on demand
                body = f'<span class="qwk-value">{escape(text)}</span>'
                title_attr = f' data-tip="{escape(tips[i][j])}"' if tips else ""
            else:  # no room for a number: it is in the cell's title, nothing more (2,500 cells)
                body, title_attr = "", f' title="{heads[i]}, {heads[j]}: {escape(text)}"'
            cells.append(
                f'<td><button type="button" class="{" ".join(classes)}" data-cell="{i},{j}" '
                f'style="background:rgb({r},{g},{b});color:{color}"{title_attr}>{body}'
                "</button></td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = "".join(f'<th scope="col">{head}</th>' for head in heads)
    size_class = "" if written else " qwk-dense"
    return (
        f'<figure class="qwk-chart qwk-matrix qwk-{kind}{size_class}" style="--n:{size}">'
        f'<figcaption class="qwk-title"><span>{escape(title)}</span>'
        f"{_full_button(full_label)}</figcaption>"
        '<div class="qwk-scroll"><table class="qwk-grid">'
        f'<thead><tr><td colspan="2"></td><th scope="colgroup" colspan="{size}" '
        f'class="qwk-xtitle">{escape(x_title)}</th></tr>'
        f'<tr><td colspan="2"></td>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></figure>"
    )


def histogram_html(
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
    full_label: str,
    highlight: Cell | None = None,
    changed: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None,
) -> str:
    """The two histograms as pairs of bars, one pair per rating, the count above each bar.

    ``highlight = (i, j)`` marks bar i of the actual histogram and bar j of the predicted one (the
    two margins of the followed cell); ``changed`` marks the bars whose count just changed. Each
    bar carries ``data-bar="a:i"`` or ``"p:j"`` (positions) and a sentence for screen readers.
    """
    heads = [format_label(x, lang) if isinstance(x, int | np.integer) else str(x) for x in labels]
    size = len(heads)
    series = []
    for code, name, counts in (("a", actual_name, actual_hist), ("p", predicted_name,
                                                                    predicted_hist)):
        values = [int(round(float(v))) for v in np.asarray(counts).ravel().tolist()]
        if len(values) != size:
            raise ValueError(f"{len(values)} counts for {size} labels")
        series.append((code, name, values))
    top = max([1, *series[0][2], *series[1][2]])
    written = size <= MAX_TEXT_SIZE
    groups = []
    for k, head in enumerate(heads):
        bars = []
        for position, (code, name, values) in enumerate(series):
            classes = [f"qwk-bar qwk-{code}"]
            if highlight is not None and highlight[position] == k:
                classes.append("qwk-followed")
            if changed is not None and changed[position][k]:
                classes.append("qwk-changed")
            count = format_number(values[k], lang)
            spoken = t(lang, "charts.bar", name=name, rating=head, count=count)
            shown = f'<span class="qwk-count" aria-hidden="true">{escape(count)}</span>' \
                if written else ""
            bars.append(
                f'<div class="{" ".join(classes)}" data-bar="{code}:{k}" '
                f'style="height:{100 * values[k] / top:.2f}%" title="{escape(spoken)}">'
                f'{shown}<span class="qwk-sr">{escape(spoken)}</span></div>')
        groups.append(f'<div class="qwk-group"><div class="qwk-pair">{"".join(bars)}</div>'
                      f'<div class="qwk-tick" aria-hidden="true">{escape(head)}</div></div>')
    legend = "".join(f'<span class="qwk-key"><span class="qwk-swatch qwk-{code}"></span>'
                     f"{escape(name)}</span>" for code, name, _ in series)
    return (
        f'<figure class="qwk-chart qwk-bars" style="--n:{size}">'
        f'<figcaption class="qwk-title"><span>{escape(title)}</span>'
        f"{_full_button(full_label)}</figcaption>"
        f'<div class="qwk-legend">{legend}</div>'
        f'<div class="qwk-ytitle-h">{escape(y_title)}</div>'
        f'<div class="qwk-plot">{"".join(groups)}</div>'
        f'<div class="qwk-xtitle">{escape(x_title)}</div></figure>'
    )


# --- the walkthrough's charts ---------------------------------------------------------------------


def changed_cells(before: Walkthrough | None, after: Walkthrough,
                  which: FigureName) -> NDArray[np.bool_] | None:
    """Cells of chart ``which`` whose value differs between two results on the same scale.

    ``None`` when there is nothing to compare (no earlier result, another scale): then no cell
    is marked, rather than all of them.
    """
    if before is None or not np.array_equal(before.labels, after.labels):
        return None
    same: NDArray[np.bool_] = np.isclose(figure_values(before, which),
                                         figure_values(after, which), rtol=0, atol=1e-12,
                                         equal_nan=True)
    return ~same


def walkthrough_chart(result: Walkthrough, which: FigureName, lang: str, cell: Cell | None = None,
                      before: Walkthrough | None = None) -> str:
    """One chart of the walkthrough (:data:`~.catalogue.FIGURES`) as HTML, in ``lang``.

    ``cell`` (positions) is outlined, with its two histogram bars; the cells that differ from
    ``before`` (the result shown just before an edit) are marked.
    """
    full = t(lang, "charts.full_screen")
    if which == "histograms":
        changed = None
        if before is not None and np.array_equal(before.labels, result.labels):
            changed = (before.actual_hist != result.actual_hist,
                       before.predicted_hist != result.predicted_hist)
        return histogram_html(
            result.labels, result.actual_hist, result.predicted_hist,
            title=t(lang, FIGURES[which].title_key), x_title=t(lang, "steps.axis_rating"),
            y_title=t(lang, "steps.axis_count"), actual_name=t(lang, "steps.actual_name"),
            predicted_name=t(lang, "steps.predicted_name"), lang=lang, full_label=full,
            highlight=cell, changed=changed)
    figure = FIGURES[which]
    return matrix_html(
        figure_values(result, which), result.labels, title=t(lang, figure.title_key),
        x_title=t(lang, "steps.axis_predicted"), y_title=t(lang, "steps.axis_actual"),
        kind=figure.kind, lang=lang, full_label=full, highlight=cell, integer=figure.integer,
        tips=cell_tips(result, which, lang) if result.size <= MAX_TEXT_SIZE else None,
        changed=changed_cells(before, result, which))



# --- the list of fixes ----------------------------------------------------------------------------


def fixes_html(table: Table) -> str:
    """The list of fixes (step 6, which fix pays most) as an HTML table whose rows are buttons
    for their cells (``data-cell="i,j"``, positions), as a matrix's cells are: hovering a row
    lights up its cell in every chart, and a click follows it."""
    head = "".join(f'<th scope="col">{escape(name)}</th>' for name in (table.corner,
                                                                        *table.columns))
    rows = []
    for (label, cells), (i, j) in zip(table.rows, table.cells, strict=True):
        first = (f'<th scope="row"><button type="button" class="qwk-fix" data-cell="{i},{j}">'
                 f"{escape(label)}</button></th>")
        rows.append("<tr>" + first + "".join(f"<td>{escape(cell)}</td>" for cell in cells)
                    + "</tr>")
    return (f'<figure class="qwk-chart qwk-fixes"><table><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></figure>')
