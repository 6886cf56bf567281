r"""LaTeX for every step of weighted kappa, shown twice: symbolic, then with the reader's numbers.

Formulas are the same in every language, so they hold symbols only, never words: O (observed), w
(weights), h^{a}_i and h^{p}_j (the histograms of the actual and predicted ratings), E (expected),
n (items), N (ratings on the scale), \kappa, \text{num} and \text{den}. Only the numbers change
with ``lang``, and they all go through :func:`.numbers.format_latex` (``0{,}25`` in
Spanish and Turkish), so a formula rounds exactly like the sentence beside it: counts as integers,
everything else to 4 decimals.

Cells are addressed by their *positions* ``i, j`` (0..N-1, rows = actual, columns = predicted) and
written with the rating *labels* as subscripts (``O_{4,0}``), because that is what the reader typed.
Weights are computed from positions, not labels; when the two differ the plugged-in weight shows
the positions it used.

Every function returns display-mode LaTeX that KaTeX and MathJax render (the app, a notebook's
``$$`` markdown) and LaTeX compiles (the worksheet). A formula must fit a
phone's width (390 px) without a sideways scroll, since what scrolls out of view is usually the
result: several equations share a line (``\qquad``) only while they fit, and long sums are
written over several lines (``\begin{array}{l}``) with every term and the total. The width of a
line is estimated in digit widths (:func:`text_width`; a digit is 0.5 em in KaTeX), and a line
holds at most :data:`LINE_WIDTH` of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from qwk_explained.core.stats import KappaStatistics, KappaTest
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import WEIGHTS_NAMES, WeightsName
from qwk_explained.teaching.interpret import ShownInterval

from .languages import language
from .numbers import (
    format_latex,
    format_latex_count,
    format_latex_percent,
    format_p_value,
)

#: What an undefined quantity (kappa with den = 0, z with SE_0 = 0) equals in a formula.
UNDEFINED = r"\text{?}"

_QUAD = r"\qquad "
_SUM_IJ = r"\sum_{i,j} "

#: Digit widths on one line of a formula. Streamlit draws display formulas at 19.4 px, where one
#: unit of :func:`text_width` measured 10 to 11.3 px in Chromium: 31 units fit the 358 px a phone
#: 390 px wide leaves for the text.
LINE_WIDTH = 31
_INDENT = r"\quad "

#: Width in digit widths of what a command draws (0 for spacing-free markup).
_COMMAND_WIDTH = {r"\cdot": 1.4, r"\dots": 1.6, r"\pm": 2.0, r"\sum": 1.6, r"\kappa": 1.0,
                  r"\neq": 2.2, r"\geq": 2.2, r"\infty": 1.6, r"\Phi": 1.2, r"\top": 1.0,
                  r"\quad": 2.0, r"\qquad": 4.0, r"\,": 0.3, r"\ ": 0.5, r"\#": 1.2,
                  r"\max": 2.2, r"\bar": 0.0, r"\left": 0.0, r"\right": 0.0, r"\Big": 0.0,
                  r"\bigl": 0.0, r"\bigr": 0.0, r"\mathrm": 0.0, r"\text": 0.0}
_CHAR_WIDTH = {"+": 2.0, "=": 2.2, "-": 1.6, ",": 0.5, ".": 0.5, ";": 0.5, "(": 0.6,
               ")": 0.6, "[": 0.5, "]": 0.5, "|": 0.5, ":": 0.6, " ": 0.0, "&": 0.0}
_TOKEN = re.compile(r"\\[a-zA-Z]+|\\.|\{|\}|[_^]|.", re.DOTALL)


def _group(tokens: list[str], start: int) -> tuple[list[str], int]:
    """The tokens of the group at ``start`` (``{...}`` or one token) and the index after it."""
    if start >= len(tokens):
        return [], start
    if tokens[start] != "{":
        return [tokens[start]], start + 1
    depth, index = 1, start + 1
    while index < len(tokens) and depth:
        depth += {"{": 1, "}": -1}.get(tokens[index], 0)
        index += 1
    return tokens[start + 1:index - 1], index


def _width(tokens: list[str]) -> float:
    total, index = 0.0, 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token == r"\frac":
            top, index = _group(tokens, index)
            bottom, index = _group(tokens, index)
            total += max(_width(top), _width(bottom)) + 0.4
        elif token in ("_", "^"):
            script, index = _group(tokens, index)
            total += 0.7 * _width(script)
        elif token in (r"\text", r"\mathrm"):
            word, index = _group(tokens, index)
            total += len("".join(word))
        elif token in (r"\begin", r"\end"):
            _, index = _group(tokens, index)
            if index < len(tokens) and tokens[index] == "{":  # array{l}: its column spec
                _, index = _group(tokens, index)
        elif token in "{}":
            continue
        elif token.startswith("\\") and len(token) > 1:
            total += _COMMAND_WIDTH.get(token, 1.0)
        else:
            total += _CHAR_WIDTH.get(token, 1.0)
    return total


def text_width(latex: str) -> float:
    r"""Roughly how wide ``latex`` is drawn, in digit widths; the widest line of several.

    A fraction is as wide as the wider of its two lines, a subscript 0.7 of its text; an
    operator counts its spacing. Generous on purpose: a formula estimated too wide is wrapped
    one line early, never cut off.

    >>> text_width(r"0{,}25 + 1"), text_width(r"\frac{16}{16}")
    (6.5, 2.4)
    """
    return max(_width(_TOKEN.findall(line)) for line in latex.split(r"\\"))


def _lines_of(head: str, pieces: Sequence[str], tail: str, joiner: str = " + ") -> list[str]:
    """Pack ``head = piece joiner piece ... = tail`` into lines of at most LINE_WIDTH."""
    lines: list[str] = []
    current = head
    for piece in pieces:
        glue = "" if current == head else joiner
        candidate = current + glue + piece
        indent = _INDENT if lines else ""
        if text_width(indent + candidate) <= LINE_WIDTH or not current.strip():
            current = candidate
        elif current == head:  # the head alone on the first line, its "=" at the end
            lines.append(head.rstrip())
            current = piece
        else:
            lines.append(current)
            current = joiner.lstrip() + piece
    lines.append(current)
    if tail:
        if text_width(_INDENT + lines[-1] + tail) <= LINE_WIDTH:
            lines[-1] += tail
        else:
            lines.append(tail.lstrip())
    return lines


def wrapped(lines: Sequence[str]) -> str:
    r"""One line as it is, several as a left-aligned column, every line after the first indented.

    >>> print(wrapped(["a = 1 + 2", "+ 3", "= 6"]))
    \begin{aligned} &a = 1 + 2 \\ &\quad + 3 \\ &\quad = 6 \end{aligned}
    """
    if len(lines) == 1:
        return lines[0]
    body = r" \\ ".join(["&" + lines[0], *("&" + _INDENT + line for line in lines[1:])])
    return r"\begin{aligned} " + body + r" \end{aligned}"


def long_sum(head: str, terms: Sequence[str], total: str) -> str:
    r"""``head t1 + t2 + ... = total``, on as many lines as a phone needs, every term kept.

    ``head`` ends with its ``=`` (``\text{num} = ``); without terms the result is
    ``head total``.
    """
    if not terms:
        return head + total
    return wrapped(_lines_of(head, list(terms), " = " + total))


def chain(parts: Sequence[str]) -> str:
    r"""``a = b = c = ...``, broken before an ``=`` wherever a line would be too wide."""
    return wrapped(_lines_of(parts[0] + " = ", list(parts[1:]), "", joiner=" = "))


def side_by_side(parts: Sequence[str]) -> str:
    r"""Equations one after the other (``\qquad``) while they fit a line, else one per line."""
    lines: list[str] = []
    for part in parts:
        if lines and text_width(lines[-1] + _QUAD + part) <= LINE_WIDTH:
            lines[-1] += _QUAD + part
        else:
            lines.append(part)
    if len(lines) == 1:
        return lines[0]
    return r"\begin{gathered} " + r" \\ ".join(lines) + r" \end{gathered}"


# --- small helpers -------------------------------------------------------------------------------


def _num(value: float | int, lang: str) -> str:
    """A real number (4 decimals, trailing zeros dropped) as LaTeX."""
    return format_latex(value, lang)


def _count(value: float | int, lang: str) -> str:
    """A count (rounded to an integer) as LaTeX."""
    return format_latex_count(value, lang)


def _label(result: Walkthrough, index: int) -> str:
    # Ratings are integers; no thousands separator in a subscript (O_{1000,2}, not O_{1{,}000,2}).
    return str(int(result.labels[index]))


def _cell(result: Walkthrough, i: int, j: int) -> str:
    """Subscript for cell (i, j): the two rating labels, e.g. ``{4,0}``."""
    return "{" + _label(result, i) + "," + _label(result, j) + "}"


def _list_separator(lang: str) -> str:
    # With a decimal comma a comma cannot separate list items: Spanish and Turkish use ";".
    return language(lang).latex_list_separator


def _capped_terms(terms: Sequence[str], max_terms: int | None) -> list[str]:
    """The first ``max_terms`` terms (all of them for ``None``), then ``\\dots`` if any are left."""
    if max_terms is None or len(terms) <= max(max_terms, 1):
        return list(terms)
    return [*terms[: max(max_terms, 1)], r"\dots"]


def _check_kind(kind: WeightsName) -> None:
    if kind not in WEIGHTS_NAMES:
        raise ValueError(f"unknown weighting {kind!r}; expected one of {WEIGHTS_NAMES}")


# --- step 1: the observed matrix O ---------------------------------------------------------------


def observed_generic() -> str:
    r"""O_{ij} counts the items rated i by the actual rater and j by the predicted one."""
    return r"O_{ij} = \#\{\, k : a_k = i,\ p_k = j \,\}"


def observed_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""``O_{4,0} = 3``: the count in cell (i, j), subscripts are the rating labels."""
    i, j = result.check_cell(i, j)
    return f"O_{_cell(result, i, j)} = {_count(result.observed[i, j], lang)}"


# --- step 2: the weights w -----------------------------------------------------------------------


def weights_generic(kind: WeightsName = "quadratic") -> str:
    r"""The disagreement weight w_{ij} for positions i, j = 0..N-1 on the scale."""
    _check_kind(kind)
    if kind == "quadratic":
        return r"w_{ij} = \frac{(i-j)^2}{(N-1)^2}"
    if kind == "linear":
        return r"w_{ij} = \frac{|i-j|}{N-1}"
    if kind == "unweighted":
        return r"w_{ij} = \begin{cases} 0 & i = j \\ 1 & i \neq j \end{cases}"
    return r"w_{ij} \geq 0"


def weights_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""The weight of cell (i, j) with its positions plugged in.

    ``w_{4,0} = \frac{(4-0)^2}{(5-1)^2} = \frac{16}{16} = 1``. When labels are not the positions
    (ratings 1..5 sit at positions 0..4) the generic formula is shown evaluated at the positions:
    ``w_{5,1} = \frac{(i-j)^2}{(N-1)^2}\Big|_{i=4,\ j=0} = \dots``.
    """
    i, j = result.check_cell(i, j)
    kind = result.weights_name
    value = _num(result.weights[i, j], lang)
    head = f"w_{_cell(result, i, j)}"
    if kind == "unweighted":
        relation = "=" if i == j else r"\neq"
        return f"{head} = {value}" + rf"\quad ({_label(result, i)} {relation} {_label(result, j)})"
    if kind not in ("quadratic", "linear") or result.size < 2:
        # Custom weights have no formula; with N = 1 the only weight is 0 (no (N-1) to divide by).
        return f"{head} = {value}"
    size = result.size
    if kind == "quadratic":
        symbolic = r"\frac{(i-j)^2}{(N-1)^2}"
        plugged = rf"\frac{{({i}-{j})^2}}{{({size}-1)^2}}"
        ratio = rf"\frac{{{(i - j) ** 2}}}{{{(size - 1) ** 2}}}"
    else:
        symbolic = r"\frac{|i-j|}{N-1}"
        plugged = rf"\frac{{|{i}-{j}|}}{{{size}-1}}"
        ratio = rf"\frac{{{abs(i - j)}}}{{{size - 1}}}"
    parts = [head]
    if _label(result, i) != str(i) or _label(result, j) != str(j):
        parts.append(rf"{symbolic}\Big|_{{i={i},\ j={j}}}")
    return chain([*parts, plugged, ratio, value])


# --- step 3: the histograms ----------------------------------------------------------------------


def histograms_generic() -> str:
    r"""The histograms are the margins of O, and both add up to the number of items n."""
    return side_by_side([r"h^{a}_i = \sum_j O_{ij}", r"h^{p}_j = \sum_i O_{ij}",
                         r"n = \sum_i h^{a}_i = \sum_j h^{p}_j"])


def histogram_cell(result: Walkthrough, index: int, lang: str = "en",
                   which: Literal["a", "p"] = "a",
                   max_terms: int = 8) -> str:
    r"""One bar of a histogram as a row (``which="a"``) or column (``"p"``) sum of O.

    ``h^{a}_{2} = \sum_j O_{2,j} = 0 + 3 + 0 + 0 + 0 = 3``.
    """
    if which not in ("a", "p"):
        raise ValueError(f"which must be 'a' or 'p', not {which!r}")
    index, _ = result.check_cell(index, 0)
    label = _label(result, index)
    if which == "a":
        line, total = result.observed[index, :], result.actual_hist[index]
        symbol = rf"\sum_j O_{{{label},j}}"
    else:
        line, total = result.observed[:, index], result.predicted_hist[index]
        symbol = rf"\sum_i O_{{i,{label}}}"
    return long_sum(f"h^{{{which}}}_{{{label}}} = {symbol} = ",
                    _capped_terms([_count(v, lang) for v in line], max_terms),
                    _count(total, lang))


def histogram_plugged(result: Walkthrough, lang: str = "en", max_terms: int = 8) -> str:
    r"""``n = \sum_i h^{a}_i = 0 + 3 + 1 + 1 + 5 = \sum_j h^{p}_j = 4 + 4 + 2 + 0 + 0 = 10``."""
    actual = _capped_terms([_count(v, lang) for v in result.actual_hist], max_terms)
    predicted = _capped_terms([_count(v, lang) for v in result.predicted_hist], max_terms)
    lines = _lines_of(r"n = \sum_i h^{a}_i = ", actual, "")
    lines += _lines_of(r"= \sum_j h^{p}_j = ", predicted, " = " + _count(result.n, lang))
    return wrapped(lines)


# --- step 4: the expected matrix E ---------------------------------------------------------------


def expected_generic() -> str:
    r"""E is what O would be if the raters were independent, scaled to the same sum n."""
    return side_by_side([r"E_{ij} = \frac{h^{a}_i \, h^{p}_j}{n}",
                         r"E = \frac{h^{a} \left(h^{p}\right)^{\top}}{n}"])


def expected_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""``E_{2,2} = \frac{h^{a}_{2} \, h^{p}_{2}}{n} = \frac{3 \cdot 4}{10} = 1{,}2`` (es)."""
    i, j = result.check_cell(i, j)
    a_label, p_label = _label(result, i), _label(result, j)
    return chain([
        f"E_{_cell(result, i, j)}",
        rf"\frac{{h^{{a}}_{{{a_label}}} \, h^{{p}}_{{{p_label}}}}}{{n}}",
        rf"\frac{{{_count(result.actual_hist[i], lang)} \cdot "
        rf"{_count(result.predicted_hist[j], lang)}}}"
        rf"{{{_count(result.n, lang)}}}",
        _num(result.expected[i, j], lang),
    ])


# --- step 5: normalization -----------------------------------------------------------------------


def normalization_generic() -> str:
    r"""O and E divided by n: both become proportions that add up to 1."""
    return side_by_side([r"\frac{O_{ij}}{n}", r"\frac{E_{ij}}{n}",
                         _SUM_IJ + r"\frac{O_{ij}}{n} = " + _SUM_IJ + r"\frac{E_{ij}}{n} = 1"])


def normalized_cell(result: Walkthrough, i: int, j: int, lang: str = "en",
                    which: Literal["O", "E"] = "O") -> str:
    r"""One normalized cell: ``\frac{O_{5,1}}{n} = \frac{4}{10} = 0{,}4`` (or the same for E)."""
    i, j = result.check_cell(i, j)
    if which == "O":
        value, normalized = _count(result.observed[i, j], lang), result.observed_norm[i, j]
    else:
        value, normalized = _num(result.expected[i, j], lang), result.expected_norm[i, j]
    return (rf"\frac{{{which}_{_cell(result, i, j)}}}{{n}} = "
            rf"\frac{{{value}}}{{{_count(result.n, lang)}}} = {_num(normalized, lang)}")


def normalization_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""Both normalized cells: ``\frac{O_{5,1}}{n} = \frac{4}{10} = 0{,}4`` and the same for E."""
    return side_by_side([normalized_cell(result, i, j, lang, "O"),
                         normalized_cell(result, i, j, lang, "E")])


def normalization_identity() -> str:
    r"""Why normalizing is harmless: a common factor c cancels in the ratio of kappa."""
    return wrapped([
        r"1 - \frac{\sum_{i,j} w_{ij}\, c\, O_{ij}}{\sum_{i,j} w_{ij}\, c\, E_{ij}}",
        r"= 1 - \frac{\sum_{i,j} w_{ij}\, O_{ij}}{\sum_{i,j} w_{ij}\, E_{ij}}"
        r"\qquad (c \neq 0)",
    ])


# --- step 6: numerator, denominator, kappa -------------------------------------------------------


def numerator_generic() -> str:
    r"""The weighted observed disagreement."""
    return r"\text{num} = " + _SUM_IJ + r"w_{ij}\, \frac{O_{ij}}{n}"


def denominator_generic() -> str:
    r"""The weighted disagreement expected by chance."""
    return r"\text{den} = " + _SUM_IJ + r"w_{ij}\, \frac{E_{ij}}{n}"


def weighted_terms(weights: np.ndarray, values: np.ndarray, lang: str) -> list[str]:
    r"""Every non-zero ``w_{ij} \cdot v_{ij}`` in reading order (row by row), as LaTeX.

    Only the terms that contribute: w = 0 on the diagonal (and empty cells) would be noise.
    """
    rows, cols = np.nonzero(weights * values)
    return [rf"{_num(weights[r, c], lang)} \cdot {_num(values[r, c], lang)}"
            for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]


def _weighted_sum(symbol: str, weights: np.ndarray, values: np.ndarray, total: float, lang: str,
                  max_terms: int | None) -> str:
    terms = _capped_terms(weighted_terms(weights, values, lang), max_terms)
    return long_sum(rf"\text{{{symbol}}} = ", terms, _num(total, lang))


def numerator_plugged(result: Walkthrough, lang: str = "en", max_terms: int | None = None) -> str:
    r"""num written out: every non-zero w_{ij} \cdot O_{ij}/n term, then the total.

    ``\text{num} = 1 \cdot 0{,}4 + 0{,}0625 \cdot 0{,}1 + \dots = 0{,}45`` (es), the terms in
    reading order (row by row), wrapped over as many lines as a phone needs (:func:`long_sum`):
    a student who added the products by hand can compare them one by one. ``max_terms`` cuts the
    list after that many terms (``\dots``) where a summary is enough.
    """
    return _weighted_sum("num", result.weights, result.observed_norm, result.numerator, lang,
                         max_terms)


def denominator_plugged(result: Walkthrough, lang: str = "en", max_terms: int | None = None) -> str:
    r"""den written out: every non-zero w_{ij} \cdot E_{ij}/n term, then the total."""
    return _weighted_sum("den", result.weights, result.expected_norm, result.denominator, lang,
                         max_terms)


def weighted_cell(result: Walkthrough, i: int, j: int, lang: str = "en",
                  which: Literal["O", "E"] = "O") -> str:
    r"""One term of num (``which="O"``) or den: ``w_{5,1} \cdot \frac{O_{5,1}}{n} = 1 \cdot 0{,}4
    = 0{,}4``."""
    i, j = result.check_cell(i, j)
    cell = _cell(result, i, j)
    if which == "O":
        part, product = result.observed_norm[i, j], result.weighted_observed[i, j]
    else:
        part, product = result.expected_norm[i, j], result.weighted_expected[i, j]
    return (rf"w_{cell} \cdot \frac{{{which}_{cell}}}{{n}} = {_num(result.weights[i, j], lang)} "
            rf"\cdot {_num(part, lang)} = {_num(product, lang)}")


def kappa_generic() -> str:
    r"""Kappa: one minus observed over chance-expected weighted disagreement."""
    return (
        r"\kappa = 1 - \frac{\text{num}}{\text{den}}"
        r" = 1 - \frac{\sum_{i,j} w_{ij}\, O_{ij}}{\sum_{i,j} w_{ij}\, E_{ij}}"
    )


def kappa_plugged(result: Walkthrough, lang: str = "en") -> str:
    r"""``\kappa = 1 - \frac{0{,}45}{0{,}395} = 1 - 1{,}1392 = -0{,}1392``.

    When no disagreement is expected by chance (den = 0) kappa is undefined and the formula ends in
    ``\text{?}`` instead of a number.

    >>> from qwk_explained import walkthrough
    >>> print(kappa_plugged(walkthrough([2, 2, 2, 3, 4, 5, 5, 5, 5, 5],
    ...                                 [2, 2, 2, 3, 2, 1, 1, 1, 1, 3]), "es"))
    \kappa = 1 - \frac{0{,}45}{0{,}395} = 1 - 1{,}1392 = -0{,}1392
    """
    fraction = rf"1 - \frac{{{_num(result.numerator, lang)}}}{{{_num(result.denominator, lang)}}}"
    if result.kappa is None:
        return chain([r"\kappa", fraction, UNDEFINED])
    ratio = _num(result.numerator / result.denominator, lang)
    return chain([r"\kappa", fraction, f"1 - {ratio}", _num(result.kappa, lang)])


# --- the followed cell's share of num and den (step 6) -------------------------------------------


def _percent_latex(share: float, lang: str) -> str:
    return format_latex_percent(share, lang, decimals=1)


def _share_latex(result: Walkthrough, i: int, j: int, lang: str,
                 which: Literal["num", "den"]) -> str | None:
    i, j = result.check_cell(i, j)
    label = _cell(result, i, j)
    if which == "num":
        matrix, part, total = "O", result.observed_norm[i, j], result.numerator
    else:
        matrix, part, total = "E", result.expected_norm[i, j], result.denominator
    if total <= 0:
        return None
    weight = result.weights[i, j]
    return (
        rf"\frac{{w_{label}\, {matrix}_{label} / n}}{{\text{{{which}}}}} = "
        rf"\frac{{{format_latex(weight, lang)} \cdot {format_latex(part, lang)}}}"
        rf"{{{format_latex(total, lang)}}} = "
        f"{_percent_latex(weight * part / total, lang)}"
    )


def numerator_share_latex(result: Walkthrough, i: int, j: int, lang: str = "en") -> str | None:
    r"""``\frac{w_{5,1}\, O_{5,1} / n}{\text{num}} = \frac{1 \cdot 0{,}4}{0{,}45} = 88{,}9\%``.

    ``None`` when num = 0 (no disagreement observed: no cell has a share).
    """
    return _share_latex(result, i, j, lang, "num")


def denominator_share_latex(result: Walkthrough, i: int, j: int, lang: str = "en") -> str | None:
    r"""The same for E and den; ``None`` when den = 0 (kappa is undefined)."""
    return _share_latex(result, i, j, lang, "den")


# --- matrices ------------------------------------------------------------------------------------


def matrix_latex(matrix: Any, lang: str = "en", integer: bool = False, max_size: int = 8,
                 *, name: str | None = None) -> str | None:
    r"""A matrix as ``\begin{bmatrix} ... \end{bmatrix}`` (``name = `` in front if given).

    Returns ``None`` when the matrix has more than ``max_size`` rows or columns: a 50 x 50 bmatrix
    is unreadable, show the heatmap instead.
    """
    array = np.asarray(matrix)
    if array.ndim != 2 or max(array.shape) > max_size or array.size == 0:
        return None
    fmt = _count if integer else _num
    rows = [" & ".join(fmt(v, lang) for v in row) for row in array.tolist()]
    body = r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"
    return f"{name} = {body}" if name else body


# --- statistics ----------------------------------------------------------------------------------


def agreement_generic() -> str:
    r"""The quantities of Fleiss, Cohen and Everitt (1969), with agreement weights a_{ij}."""
    return side_by_side([
        r"a_{ij} = 1 - \frac{w_{ij}}{\max w}", r"p_{ij} = \frac{O_{ij}}{n}",
        r"p_{i\cdot} = \frac{h^{a}_i}{n}", r"p_{\cdot j} = \frac{h^{p}_j}{n}",
        r"P_o = \sum_{i,j} a_{ij}\, p_{ij}", r"P_e = \sum_{i,j} a_{ij}\, p_{i\cdot}\, p_{\cdot j}",
        r"\bar a_{i\cdot} = \sum_j p_{\cdot j}\, a_{ij}",
        r"\bar a_{\cdot j} = \sum_i p_{i\cdot}\, a_{ij}",
    ])


def se_generic(null: bool = False) -> str:
    r"""The asymptotic standard error (``null=False``, for the confidence interval) or the one under
    the hypothesis of chance agreement (``null=True``, for the z test)."""
    if null:
        return (
            r"\mathrm{SE}_0 = \sqrt{\frac{\sum_{i,j} p_{i\cdot}\, p_{\cdot j}"
            r"\left[a_{ij} - (\bar a_{i\cdot} + \bar a_{\cdot j})\right]^2 - P_e^2}"
            r"{n\,(1 - P_e)^2}}"
        )
    return (
        r"\mathrm{SE} = \sqrt{\frac{\sum_{i,j} p_{ij}"
        r"\left[a_{ij} - (\bar a_{i\cdot} + \bar a_{\cdot j})(1 - \kappa)\right]^2"
        r" - \left[\kappa - P_e\,(1 - \kappa)\right]^2}{n\,(1 - P_e)^2}}"
    )


def se_plugged(stats: KappaStatistics, lang: str = "en") -> str:
    r"""The values behind SE: ``P_o = 0{,}55 \qquad P_e = 0{,}605 \qquad \mathrm{SE} = ...``.

    Each of P_o, P_e, SE and SE_0 is ``\text{?}`` when kappa is undefined.
    """
    parts = []
    for symbol, value in (("P_o", stats.p_o), ("P_e", stats.p_e), (r"\mathrm{SE}", stats.se),
                          (r"\mathrm{SE}_0", stats.se0)):
        parts.append(f"{symbol} = " + (UNDEFINED if value is None else _num(value, lang)))
    return side_by_side(parts)


def ci_generic() -> str:
    r"""The confidence interval of kappa."""
    return r"\kappa \pm z_{1-\alpha/2}\, \mathrm{SE}"


def ci_plugged(stats: KappaStatistics, lang: str = "en",
               shown: ShownInterval | None = None) -> str:
    r"""The interval: ``\kappa \pm z_{0.975} \cdot \mathrm{SE} = -0.1392 \pm 1.96 \cdot 0.0741``.

    Then ``= [-0.2846,\ 0.0061]`` (``[-0{,}2846;\ 0{,}0061]`` in es/tr, where the comma is the
    decimal mark and ``;`` separates the bounds). With ``shown`` (see
    :func:`qwk_explained.teaching.interpret.shown_interval`), an interval that reaches past the
    possible values of kappa ends ``\cap [-1, 1] = [0.8797,\ 1]``, and a withheld one in ``?``.
    The parts break over lines where a phone needs it (:func:`chain`).
    """
    level, quantile = 0.5 + stats.confidence / 2.0, stats.z_critical
    head = rf"\kappa \pm z_{{{_num(level, lang)}}} \cdot \mathrm{{SE}}"
    if stats.kappa is None or stats.se is None or stats.ci_low is None or stats.ci_high is None:
        return f"{head} = {UNDEFINED}"
    plugged = rf"{_num(stats.kappa, lang)} \pm {_num(quantile, lang)} \cdot {_num(stats.se, lang)}"
    if shown is not None and shown.withheld is not None:
        return chain([head, plugged, UNDEFINED])
    parts = [head, plugged, _interval(stats.ci_low, stats.ci_high, lang)]
    if shown is not None and shown.clipped and shown.low is not None and shown.high is not None:
        parts[-1] += rf" \cap {_interval(-1, 1, lang)}"
        parts.append(_interval(shown.low, shown.high, lang))
    return chain(parts)


def _interval(low: float, high: float, lang: str) -> str:
    return r"\left[" + _num(low, lang) + _list_separator(lang) + _num(high, lang) + r"\right]"


def z_generic() -> str:
    r"""The z statistic against chance agreement and its two-sided p-value."""
    return side_by_side([r"z = \frac{\kappa}{\mathrm{SE}_0}", r"p = 2\,\bigl(1 - \Phi(|z|)\bigr)"])


def z_plugged(stats: KappaStatistics, lang: str = "en") -> str:
    r"""``z = \frac{\kappa}{\mathrm{SE}_0} = \frac{-0.1392}{0.0993} = -1.4015``."""
    head = r"z = \frac{\kappa}{\mathrm{SE}_0}"
    if stats.kappa is None or stats.se0 is None:
        return f"{head} = {UNDEFINED}"
    fraction = rf"\frac{{{_num(stats.kappa, lang)}}}{{{_num(stats.se0, lang)}}}"
    if stats.z is None:  # SE_0 = 0: nothing varies under chance agreement
        return f"{head} = {fraction} = {UNDEFINED}"
    return f"{head} = {fraction} = {_num(stats.z, lang)}"


def p_value_plugged(stats: KappaStatistics, lang: str = "en") -> str:
    r"""``p = 2\,(1 - \Phi(1.4015)) = 0.1611``."""
    head = r"p = 2\,\bigl(1 - \Phi(|z|)\bigr)"
    if stats.z is None or stats.p_value is None:
        return f"{head} = {UNDEFINED}"
    plugged = rf"{head} = 2\,\bigl(1 - \Phi({_num(abs(stats.z), lang)})\bigr)"
    return format_p_value(stats.p_value, lang, name=plugged, latex=True)


# --- where kappa is lost (step 6) ----------------------------------------------------------------


def cost_generic() -> str:
    r"""Each cell's cost, and what the costs add up to: the shortfall of kappa from 1."""
    return side_by_side([
        r"\text{cost}_{ij} = \frac{w_{ij}\, O_{ij} / n}{\text{den}}",
        r"\sum_{i,j} \text{cost}_{ij} = \frac{\text{num}}{\text{den}} = 1 - \kappa"])


def signed_cost_generic() -> str:
    r"""Each cell's cost against chance, and what they add up to: minus kappa."""
    return side_by_side([
        r"\text{cost}^{\pm}_{ij} = \frac{w_{ij}\, (O_{ij} - E_{ij}) / n}{\text{den}}",
        r"\sum_{i,j} \text{cost}^{\pm}_{ij} = \frac{\text{num} - \text{den}}{\text{den}}"
        r" = -\kappa"])


def cost_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""``\text{cost}_{4,0} = \frac{w_{4,0}\, O_{4,0} / n}{\text{den}} = \frac{1 \cdot 4 / 10}
    {0.395} = 1.0127``; ``?`` when kappa is undefined (den = 0)."""
    i, j = result.check_cell(i, j)
    label = _cell(result, i, j)
    head = rf"\text{{cost}}_{label}"
    costs = result.cost_map
    if costs is None:
        return f"{head} = {UNDEFINED}"
    return chain([
        head, rf"\frac{{w_{label}\, O_{label} / n}}{{\text{{den}}}}",
        rf"\frac{{{_num(result.weights[i, j], lang)} \cdot {_count(result.observed[i, j], lang)}"
        rf" / {_count(result.n, lang)}}}{{{_num(result.denominator, lang)}}}",
        _num(costs.cost[i, j], lang)])


def signed_cost_cell(result: Walkthrough, i: int, j: int, lang: str = "en") -> str:
    r"""``\text{cost}^{\pm}_{4,0} = \frac{w_{4,0}\,(O_{4,0} - E_{4,0}) / n}{\text{den}} =
    \frac{1 \cdot (4 - 2) / 10}{0.395} = 0.5063``; ``?`` when kappa is undefined."""
    i, j = result.check_cell(i, j)
    label = _cell(result, i, j)
    head = rf"\text{{cost}}^{{\pm}}_{label}"
    costs = result.cost_map
    if costs is None:
        return f"{head} = {UNDEFINED}"
    return chain([
        head, rf"\frac{{w_{label}\, (O_{label} - E_{label}) / n}}{{\text{{den}}}}",
        rf"\frac{{{_num(result.weights[i, j], lang)} \cdot ({_count(result.observed[i, j], lang)}"
        rf" - {_num(result.expected[i, j], lang)}) / {_count(result.n, lang)}}}"
        rf"{{{_num(result.denominator, lang)}}}",
        _num(costs.signed[i, j], lang)])


def kappa0_test_plugged(test: KappaTest, lang: str = "en") -> str:
    r"""``z = \frac{\kappa - \kappa_0}{\mathrm{SE}} = \frac{-0.1392 - 0.6}{0.0741} = -9.9699``
    (``\mathrm{SE}_0`` for kappa0 = 0)."""
    se = r"\mathrm{SE}_0" if test.uses_se0 else r"\mathrm{SE}"
    head = rf"z = \frac{{\kappa - \kappa_0}}{{{se}}}"
    if test.kappa is None or test.se is None or test.z is None:
        return f"{head} = {UNDEFINED}"
    kappa0 = _num(test.kappa0, lang)
    if test.kappa0 < 0:  # "- -0.2" would read as a typo
        kappa0 = rf"\left({kappa0}\right)"
    return chain([head, rf"\frac{{{_num(test.kappa, lang)} - {kappa0}}}"
                        rf"{{{_num(test.se, lang)}}}", _num(test.z, lang)])
