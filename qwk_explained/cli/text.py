"""The default output: the seven steps in the terminal, every formula with the user's numbers.

The steps come from the step catalogue (:mod:`qwk_explained.present.catalogue`), numbered and
titled as on every other surface; this module writes each one as terminal text. Sentences come
from the locales (``cli.*``), numbers from :func:`~qwk_explained.present.numbers.format_number`;
formulas (symbols, ``=``, ``×``) are the same in every language.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.present import columns, formulas, inference
from qwk_explained.present.catalogue import STEPS, StepSlug
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_label, format_number, format_p_value
from qwk_explained.present.outline import MAX_ECHOED_ITEMS, MAX_PRINTED_SIZE
from qwk_explained.teaching.interpret import shown_interval


class TerminalText:
    """Helpers bound to one language: numbers, labels, sentences."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def num(self, value: float | int) -> str:
        return format_number(value, self.lang)

    def label(self, value: int) -> str:
        return format_label(value, self.lang)

    def cell(self, i: int, j: int) -> str:
        # A space after the comma: in Spanish and Turkish "[4,0]" would read as the number 4,0.
        return f"[{self.label(i)}, {self.label(j)}]"

    def __call__(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    def prose(self, key: str, **params: Any) -> str:
        """A translated sentence wrapped to the terminal."""
        return self.prose_text(self(key, **params))

    def width(self) -> int:
        """The terminal's width, at most 100 columns."""
        return max(40, min(shutil.get_terminal_size((100, 24)).columns, 100))

    def prose_text(self, text: str) -> str:
        """Text wrapped to the terminal's width (at most 100 columns), measured in columns: a
        Han character takes two, and Chinese breaks between characters
        (:mod:`qwk_explained.present.columns`)."""
        return columns.fill(text, self.width())


def _grid(corner: str, columns: list[str], rows: list[tuple[str, list[str]]]) -> list[str]:
    """An aligned text table: a header of column labels, then one labelled line per row."""
    width = max(len(text) for text in [*columns, *(c for _, cells in rows for c in cells)])
    head = max(len(corner), *(len(label) for label, _ in rows))
    lines = [f"  {corner.rjust(head)} | " + " ".join(c.rjust(width) for c in columns)]
    lines.append("  " + "-" * head + "-+-" + "-" * (len(columns) * (width + 1) - 1))
    for label, cells in rows:
        lines.append(f"  {label.rjust(head)} | " + " ".join(c.rjust(width) for c in cells))
    return lines


def _matrix(tx: TerminalText, labels: NDArray[np.int64], matrix: NDArray[Any]) -> list[str]:
    if len(labels) > MAX_PRINTED_SIZE:
        return [tx("cli.matrix_too_large", size=len(labels))]
    names = [tx.label(v) for v in labels]
    rows = [(name, [tx.num(v) for v in row]) for name, row in zip(names, matrix.tolist(),
                                                                   strict=True)]
    return _grid("i \\ j", names, rows)


def _weights_section(tx: TerminalText, result: Walkthrough) -> list[str]:
    labels = result.labels
    size = len(labels)
    if size < 2:  # one rating: nothing to weigh, and no "two extreme ratings" to speak of
        return [tx.prose("cli.weights_single")]
    lines = [tx.prose(f"cli.weights_explain_{result.weights_name}")]
    consecutive = bool(np.all(np.diff(labels) == 1))
    if not consecutive and result.weights_name != "unweighted":
        lines.append(tx.prose("cli.weights_positions"))
    generic = {
        "quadratic": "w[i, j] = (i − j)² / (N − 1)²",
        "linear": "w[i, j] = |i − j| / (N − 1)",
        "unweighted": "w[i, i] = 0,  w[i, j] = 1  (i ≠ j)",
    }[result.weights_name]
    if not consecutive:
        generic = generic.replace("(i − j)", "(p(i) − p(j))").replace("|i − j|", "|p(i) − p(j)|")
    lines.append(f"N = {size}:  {generic}")
    if result.weights_name == "unweighted":
        pairs = [(0, 0), (0, 1)]
    else:
        pairs = [(0, 1)] + ([(0, size - 1)] if size > 2 else [])
    for a, b in pairs:
        i, j = int(labels[a]), int(labels[b])
        value = tx.num(result.weights[a, b])
        head = f"w{tx.cell(i, j)}"
        # On a consecutive scale i − j equals the difference of positions, so the labels are
        # plugged in directly; otherwise the positions p(i), p(j) are shown first.
        pi, pj = (i, j) if consecutive else (a, b)
        p_i, p_j = f"p({tx.label(i)})", f"p({tx.label(j)})"
        if result.weights_name == "quadratic":
            via = "" if consecutive else f"({p_i} − {p_j})² / (N − 1)² = "
            lines.append(f"{head} = {via}({tx.label(pi)} − {tx.label(pj)})² / ({size} − 1)² = "
                         f"{(pi - pj) ** 2} / {(size - 1) ** 2} = {value}")
        elif result.weights_name == "linear":
            via = "" if consecutive else f"|{p_i} − {p_j}| / (N − 1) = "
            lines.append(f"{head} = {via}|{tx.label(pi)} − {tx.label(pj)}| / ({size} − 1) = "
                         f"{abs(pi - pj)} / {size - 1} = {value}")
        else:
            lines.append(f"{head} = {value}")
    return lines


def _observed(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    return [tx.prose("cli.observed_explain"), *_matrix(tx, result.labels, result.observed),
            f"n = Σ O[i, j] = {tx.num(result.n)}"]


def _weights(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    return [*_weights_section(tx, result), *_matrix(tx, result.labels, result.weights)]


def _histograms(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    lines = [tx.prose("cli.histograms_explain")]
    names = [tx.label(v) for v in result.labels]
    hist_a = [tx.num(v) for v in result.actual_hist.tolist()]
    hist_p = [tx.num(v) for v in result.predicted_hist.tolist()]
    if result.size <= MAX_PRINTED_SIZE:
        lines.extend(_grid("i", names, [("hist_a", hist_a), ("hist_p", hist_p)]))
    else:  # a long scale reads better as one line per rating
        lines.extend(_grid("i", ["hist_a", "hist_p"],
                           [(name, [a, p]) for name, a, p in zip(names, hist_a, hist_p,
                                                                  strict=True)]))
    lines.append(f"Σ hist_a = Σ hist_p = n = {tx.num(result.n)}")
    return lines


def _expected(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    a, b = focus
    i, j = int(result.labels[a]), int(result.labels[b])
    return [
        tx.prose("cli.expected_explain"),
        "E[i, j] = hist_a[i] × hist_p[j] / n",
        f"E{tx.cell(i, j)} = hist_a[{tx.label(i)}] × hist_p[{tx.label(j)}] / n = "
        f"{tx.num(result.actual_hist[a])} × {tx.num(result.predicted_hist[b])} / "
        f"{tx.num(result.n)} = {tx.num(result.expected[a, b])}",
        *_matrix(tx, result.labels, result.expected),
    ]


def _normalization(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    labels, n = result.labels, tx.num(result.n)
    a, b = focus
    oa, ob = (int(x) for x in np.unravel_index(int(np.argmax(result.observed)),
                                               result.observed.shape))
    return [
        tx.prose("cli.normalization_explain"),
        f"O{tx.cell(int(labels[oa]), int(labels[ob]))} / n = "
        f"{tx.num(result.observed[oa, ob])} / {n} = {tx.num(result.observed_norm[oa, ob])}",
        f"E{tx.cell(int(labels[a]), int(labels[b]))} / n = {tx.num(result.expected[a, b])} / "
        f"{n} = {tx.num(result.expected_norm[a, b])}",
        "O / n", *_matrix(tx, labels, result.observed_norm),
        "E / n", *_matrix(tx, labels, result.expected_norm),
        f"Σ O[i, j] / n = Σ E[i, j] / n = {tx.num(1)}",
    ]


def _sums(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    # Every non-zero term, wrapped, so that a hand-added sum can be compared term by term.
    lines = [tx.prose("cli.sums_explain")]
    for name, value, matrix, total in (
            ("num", "O", result.observed_norm, result.numerator),
            ("den", "E", result.expected_norm, result.denominator)):
        lines.append(f"{name} = Σ w[i, j] × {value}[i, j] / n")
        lines += formulas.sum_text_lines(name, result.weights, matrix, total, tx.lang,
                                         width=tx.width())
    return lines


def _kappa(tx: TerminalText, result: Walkthrough, focus: Cell) -> list[str]:
    num, den = tx.num(result.numerator), tx.num(result.denominator)
    if result.kappa is None:
        return [tx.prose("cli.kappa_explain"), f"kappa = 1 − num / den = 1 − {num} / {den}",
                tx.prose(f"undefined.{result.undefined_reason}")]
    return [tx.prose("cli.kappa_explain"),
            f"kappa = 1 − num / den = 1 − {num} / {den} = {tx.num(result.kappa)}"]


#: How each step of the catalogue is written in the terminal.
SECTIONS: dict[StepSlug, Callable[[TerminalText, Walkthrough, Cell], list[str]]] = {
    "observed": _observed, "weights": _weights, "histograms": _histograms,
    "expected": _expected, "normalization": _normalization, "sums": _sums, "kappa": _kappa,
}


def header_lines(tx: TerminalText, result: Walkthrough, scale: Scale) -> list[str]:
    """What is compared, with which weighting and scale."""
    names = ", ".join(tx.label(v) for v in result.labels)
    lines = [tx.prose("cli.title", name=tx(f"common.kappa_name.{result.weights_name}"))]
    # Values inside a sentence take their in-sentence form ("Ponderación: cuadrática").
    weighting = tx(f"common.in_sentence.weights.{result.weights_name}")
    n, size = tx.num(result.n), result.size
    if result.actual is None or result.predicted is None:
        return [*lines, tx.prose("cli.settings_table", weighting=weighting),
                tx.prose("cli.input_table", n=n, size=size, labels=names)]
    lines.append(tx.prose("cli.settings_vectors", weighting=weighting,
                          scale=tx(f"common.in_sentence.scale.{scale}")))
    if result.n <= MAX_ECHOED_ITEMS:
        for key, values in (("common.actual_ratings", result.actual),
                            ("common.predicted_ratings", result.predicted)):
            shown = ", ".join(tx.label(v) for v in values)
            lines.append(tx.prose("cli.value_line", label=tx(key), value=shown))
    lines.append(tx.prose("cli.input_vectors", n=n, size=size, labels=names))
    return lines


def render_text(result: Walkthrough, stats: KappaStatistics, lang: str,
                scale: Scale = "range") -> str:
    """The whole walkthrough as terminal text in ``lang`` (what the CLI prints by default).

    ``scale`` is the convention the labels were built with (the result does not record it).
    Steps 4 and 5 work out the cell of E that weighs most in the denominator.
    """
    tx = TerminalText(lang)
    weighted = result.weighted_expected if result.denominator > 0 else result.expected
    row, column = np.unravel_index(int(np.argmax(weighted)), weighted.shape)
    focus = result.check_cell(int(row), int(column))
    out = header_lines(tx, result, scale)
    for step in STEPS:
        out += ["", tx.prose_text(step.heading(lang)), *SECTIONS[step.slug](tx, result, focus)]
    out += ["", tx("cli.result_heading"), *_result_lines(tx, result, stats)]
    return "\n".join(out) + "\n"


def _result_lines(tx: TerminalText, result: Walkthrough, stats: KappaStatistics) -> list[str]:
    def line(label_key: str, value: str) -> str:
        return tx("cli.value_line", label=tx(label_key), value=value)

    if result.kappa is None:
        # The reason was given under step 6, right after 0/0.
        return [line("common.kappa", tx("common.in_sentence.undefined")),
                tx.prose("cli.statistics_need_kappa")]
    kappa = tx.num(result.kappa)
    lines = [f"kappa = {kappa}",
             line("common.interpretation", inference.band_name(tx.lang, result) or "")]
    chance = inference.chance_sentence(tx.lang, result)
    if chance is not None:
        lines.append(tx.prose_text(chance))
    caveat = inference.band_caveat(tx.lang, result)
    if caveat is not None:
        lines.append(tx.prose_text(caveat))
    if stats.se is None or stats.se0 is None or stats.ci_low is None or stats.ci_high is None:
        return [*lines, tx.prose("cli.statistics_unavailable")]
    lines.append(line("common.standard_error", f"SE = {tx.num(stats.se)}"))
    lines.append(line("common.standard_error_h0", f"SE0 = {tx.num(stats.se0)}"))
    if stats.z is None or stats.p_value is None:
        lines.append(tx.prose("cli.z_unavailable"))
    else:
        lines.append(f"z = kappa / SE0 = {kappa} / {tx.num(stats.se0)} = {tx.num(stats.z)}")
        lines.append(line("common.p_value_two_sided",
                          format_p_value(stats.p_value, tx.lang, name="p")))
        lines += [tx.prose_text(sentence)
                  for sentence in inference.z_test_sentences(tx.lang, result, stats)]
    shown = shown_interval(result, stats)
    if shown is not None and shown.withheld is None:
        # z₀.₉₇₅, the quantile, is not the z of the test just above.
        quantile = inference.quantile_symbol(stats, tx.lang)
        lines.append(f"kappa ± {quantile} × SE = {kappa} ± {tx.num(stats.z_critical)} × "
                     f"{tx.num(stats.se)}")
    lines += [tx.prose_text(sentence)
              for sentence in inference.interval_sentences(tx.lang, result, stats)]
    return lines


def render_step(result: Walkthrough, slug: StepSlug, lang: str, cell: Cell) -> str:
    """One step as terminal text: its numbered heading and its section, working out ``cell``
    (positions) where the step works out one cell (a notebook shows one step at a time)."""
    tx = TerminalText(lang)
    heading = next(step.heading(lang) for step in STEPS if step.slug == slug)
    return "\n".join([tx.prose_text(heading), *SECTIONS[slug](tx, result, cell)]) + "\n"
