r"""The worked solution as files to download: Markdown, LaTeX, CSV of every matrix, Python.

One outline (:func:`outline`) lists the solution as blocks (headings, sentences, formulas, matrices,
small tables) in the reader's language; :func:`markdown` and :func:`latex_document` render it, so
the two printable worksheets always hold the same steps. Sentences come from the locales
(``checker.ws.*``, plus the step texts under ``steps.*``); formulas from :mod:`.formulas`; numbers
from :mod:`.numbers` (``0,25`` in Spanish and Turkish, ``0{,}25`` inside LaTeX).

:func:`matrices_csv` is for machines: one long table ``matrix,row,column,value`` with rating labels
and full-precision numbers written with a decimal point, whatever the language.
:func:`python_snippet` reproduces kappa with this package and with scikit-learn's
``cohen_kappa_score`` (``labels=`` set to the whole scale, since weights come from positions).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.teaching.cells import default_cell
from qwk_explained.teaching.conventions import SKLEARN_WEIGHTS
from qwk_explained.teaching.interpret import shown_interval

from . import formulas, inference
from .catalogue import STEPS, Step, StepSlug
from .i18n import t
from .languages import language
from .numbers import format_count, format_label, format_number, format_p_value, format_percent

#: Matrices larger than this are written as tables, not ``bmatrix`` (as on the page).
MAX_BMATRIX = 8
#: Vectors longer than this are not listed in the worksheets (the table O is).
MAX_LISTED_ITEMS = 200
#: Vectors longer than this go into the Python snippet as their table O instead.
MAX_SNIPPET_ITEMS = 2000

#: The matrices of the CSV export, in the order of the steps (name, attribute).
CSV_MATRICES = (
    ("observed", "observed"),
    ("weights", "weights"),
    ("expected", "expected"),
    ("observed_norm", "observed_norm"),
    ("expected_norm", "expected_norm"),
    ("weighted_observed", "weighted_observed"),
    ("weighted_expected", "weighted_expected"),
)
#: The two histograms of the CSV export (one value per rating: the column is left empty).
CSV_VECTORS = (("actual_hist", "actual_hist"), ("predicted_hist", "predicted_hist"))


@dataclass(frozen=True)
class Source:
    """Where the result came from: two vectors with the scale settings, or a contingency table."""

    from_table: bool = False
    scale: Scale = "range"
    min_rating: int | None = None
    max_rating: int | None = None


# --- the outline ---------------------------------------------------------------------------------


#: The kinds of piece a worksheet is made of.
BlockKind = Literal["title", "heading", "text", "formula", "matrix", "table"]


@dataclass(frozen=True)
class Block:
    """One piece of the worksheet.

    ``kind`` is ``title``, ``heading``, ``text``, ``formula`` (``latex``), ``matrix`` (``symbol``,
    ``values``, ``integer``, ``caption``) or ``table`` (``header`` and ``rows`` of text).
    """

    kind: BlockKind
    text: str = ""
    latex: str = ""
    symbol: str = ""
    values: Any = None
    integer: bool = False
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


def _step_blocks(result: Walkthrough, lang: str) -> dict[StepSlug, list[Block]]:
    """What each step shows besides its formulas: its matrices, or the histograms' table."""

    def tr(key: str) -> str:
        return t(lang, key)

    def matrix(symbol: str, values: Any, chart: str, integer: bool = False) -> Block:
        return Block("matrix", symbol=symbol, values=values, integer=integer, text=tr(chart))

    histograms = Block("table", header=(tr("steps.axis_rating"), tr("steps.actual_name"),
                                        tr("steps.predicted_name")),
                       rows=tuple((format_label(label, lang),
                                   format_count(a, lang), format_count(p, lang))
                                  for label, a, p in zip(result.labels, result.actual_hist,
                                                         result.predicted_hist, strict=True)))
    return {
        "observed": [matrix("O", result.observed, "steps.observed_chart", integer=True)],
        "weights": [matrix("w", result.weights, "steps.weights_chart")],
        "histograms": [histograms],
        "expected": [matrix("E", result.expected, "steps.expected_chart")],
        "normalization": [
            matrix(r"\frac{O}{n}", result.observed_norm, "steps.observed_norm_chart"),
            matrix(r"\frac{E}{n}", result.expected_norm, "steps.expected_norm_chart")],
        "sums": [matrix(r"w \cdot \frac{O}{n}", result.weighted_observed,
                        "steps.weighted_observed_chart"),
                 matrix(r"w \cdot \frac{E}{n}", result.weighted_expected,
                        "steps.weighted_expected_chart")],
        "kappa": [],
    }


def _plugged(step: Step, result: Walkthrough, cell: Cell, lang: str) -> tuple[str, ...]:
    """The step's formulas with the numbers plugged in; the sums with every term written out,
    since a worked solution is what a learner compares a hand-added sum with."""
    if step.slug == "sums":
        return formulas.numerator_plugged(result, lang), formulas.denominator_plugged(result, lang)
    return step.plugged(result, cell, lang)


def _values(values: Any, lang: str) -> str:
    return ", ".join(format_label(v, lang) for v in values)


def outline(result: Walkthrough, lang: str, source: Source | None = None,
            confidence: float = 0.95) -> list[Block]:
    """Every step of the solution as blocks, with the sentences in ``lang``."""
    source = source or Source()
    return list(_outline(result, lang, source, confidence))


def _outline(result: Walkthrough, lang: str, source: Source,
             confidence: float) -> Iterator[Block]:
    def tr(key: str, **params: Any) -> str:
        return t(lang, key, **params)

    def num(value: float | int | None) -> str:
        return format_number(value, lang)

    name = result.weights_name
    yield Block("title", tr("checker.ws.title", kappa_name=tr(f"common.kappa_name.{name}")))
    yield Block("text", tr("checker.ws.intro"))

    # The data and the settings.
    yield Block("heading", tr("checker.ws.data_heading"))
    if source.from_table or result.actual is None or result.predicted is None:
        yield Block("text", tr("checker.ws.data_table", count=result.n))
    elif result.n > MAX_LISTED_ITEMS:
        yield Block("text", tr("checker.ws.data_long", count=result.n))
    else:
        yield Block("text", tr("checker.ws.data_vectors", count=result.n))
        yield Block("text", tr("checker.ws.actual_values", values=_values(result.actual, lang)))
        yield Block("text",
                    tr("checker.ws.predicted_values", values=_values(result.predicted, lang)))
    yield Block("text", tr("checker.ws.settings",
                           weighting=tr(f"common.in_sentence.weights.{name}"),
                           size=num(result.size), labels=_values(result.labels, lang),
                           n=num(result.n)))
    yield Block("text", tr("checker.ws.layout"))
    cell = default_cell(result)
    extras = _step_blocks(result, lang)
    for step in STEPS:
        yield Block("heading", step.heading(lang))
        yield Block("text", tr(step.text_key))
        if step.slug == "weights":
            yield Block("text", tr(f"steps.weights_kind_{name}"))
        for latex in step.generic(name):
            yield Block("formula", latex=latex)
        yield from extras[step.slug]
        if step.per_cell:
            yield Block("text", tr("checker.ws.example_cell"))
        for latex in _plugged(step, result, cell, lang):
            yield Block("formula", latex=latex)
    if result.kappa is None:
        yield Block("text", tr(f"undefined.{result.undefined_reason}"))
    else:
        yield Block("text", tr("checker.ws.result", kappa=num(result.kappa),
                               band=inference.band_name(lang, result)))
        caveat = inference.band_caveat(lang, result)
        if caveat is not None:
            yield Block("text", caveat)

    # Inference (Fleiss, Cohen and Everitt 1969, as SAS prints it).
    stats = result.statistics(confidence)
    yield Block("heading", tr("checker.ws.stats_heading"))
    if stats.se is None:
        yield Block("text", tr("checker.ws.stats_undefined"))
        return
    yield Block("text", tr("checker.ws.stats_text"))
    level = format_percent(confidence, lang, decimals=2)
    shown = shown_interval(result, stats)
    interval = (tr("checker.ws.interval_withheld") if shown is None or shown.low is None
                else tr("checker.ws.interval", low=num(shown.low), high=num(shown.high)))
    yield Block("table", header=(tr("checker.ws.quantity"), tr("checker.ws.value")), rows=(
        (tr("common.kappa"), num(stats.kappa)),
        (tr("common.standard_error"), num(stats.se)),
        (tr("common.standard_error_h0"), num(stats.se0)),
        (tr("common.z_statistic"), num(stats.z)),
        (tr("common.p_value_two_sided"),
         num(None) if stats.p_value is None else format_p_value(stats.p_value, lang)),
        (tr("checker.ws.ci_label", level=level), interval),
    ))
    for sentence in inference.interval_sentences(lang, result, stats):
        yield Block("text", sentence)
    for latex in (formulas.agreement_generic(), formulas.se_generic(),
                  formulas.se_generic(null=True), formulas.se_plugged(stats, lang),
                  formulas.z_generic(), formulas.z_plugged(stats, lang),
                  formulas.p_value_plugged(stats, lang), formulas.ci_generic(),
                  formulas.ci_plugged(stats, lang, shown)):
        yield Block("formula", latex=latex)


# --- Markdown ------------------------------------------------------------------------------------


def _md_escape(text: str) -> str:
    return text.replace("|", r"\|")


def _matrix_rows(block: Block, labels: Any, lang: str) -> tuple[tuple[str, ...], list[list[str]]]:
    values = np.asarray(block.values)
    fmt: Callable[[Any], str]
    if block.integer:
        def fmt(v: Any) -> str:
            return format_count(v, lang)
    else:
        def fmt(v: Any) -> str:
            return format_number(float(v), lang)
    names = [format_label(label, lang) for label in labels]
    rows = [[names[r], *(fmt(v) for v in values[r])] for r in range(values.shape[0])]
    return tuple(names), rows


def markdown(result: Walkthrough, lang: str, source: Source | None = None,
             confidence: float = 0.95) -> str:
    """The worksheet as Markdown: tables for matrices, ``$$`` for formulas."""
    lines: list[str] = []
    corner = t(lang, "checker.ws.corner")
    for block in outline(result, lang, source, confidence):
        if block.kind == "title":
            lines += [f"# {block.text}", ""]
        elif block.kind == "heading":
            lines += [f"## {block.text}", ""]
        elif block.kind == "text":
            lines += [block.text, ""]
        elif block.kind == "formula":
            lines += ["$$", block.latex, "$$", ""]
        elif block.kind == "matrix":
            names, rows = _matrix_rows(block, result.labels, lang)
            lines += [f"**{block.text}**", ""]
            lines.append("| " + " | ".join([_md_escape(corner), *names]) + " |")
            lines.append("|" + "---|" * (len(names) + 1))
            lines += ["| " + " | ".join(row) + " |" for row in rows]
            lines.append("")
        elif block.kind == "table":
            lines.append("| " + " | ".join(_md_escape(h) for h in block.header) + " |")
            lines.append("|" + "---|" * len(block.header))
            lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in block.rows]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --- LaTeX ---------------------------------------------------------------------------------------

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "→": r"$\rightarrow$", "↓": r"$\downarrow$", "·": r"$\cdot$", "−": r"$-$", "κ": r"$\kappa$",
    "≤": r"$\leq$", "≥": r"$\geq$", "×": r"$\times$",
}


def latex_escape(text: str) -> str:
    r"""Plain text made safe for LaTeX (``50%`` -> ``50\%``); ``**bold**`` becomes ``\textbf``."""
    out = "".join(_TEX_SPECIAL.get(char, char) for char in text)
    parts = out.split("**")
    if len(parts) % 2 == 1 and len(parts) > 1:
        out = "".join(part if k % 2 == 0 else r"\textbf{" + part + "}"
                      for k, part in enumerate(parts))
    return out


def _tex_table(header: tuple[str, ...], rows: list[list[str]] | tuple[tuple[str, ...], ...],
               first_column_header: bool = False) -> list[str]:
    columns = "l|" + "r" * (len(header) - 1) if first_column_header else "l" + "r" * (
        len(header) - 1)
    lines = [r"\begin{center}", r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
             rf"\begin{{tabular}}{{{columns}}}", r"\hline",
             " & ".join(latex_escape(h) for h in header) + r" \\", r"\hline"]
    lines += [" & ".join(latex_escape(c) for c in row) + r" \\" for row in rows]
    lines += [r"\hline", r"\end{tabular}}", r"\end{center}", ""]
    return lines


def latex_document(result: Walkthrough, lang: str, source: Source | None = None,
                   confidence: float = 0.95) -> str:
    """The worksheet as a complete LaTeX document (``article``; ``ctexart`` for Chinese)."""
    blocks = outline(result, lang, source, confidence)
    title = next(block.text for block in blocks if block.kind == "title")
    if language(lang).latex_class == "ctexart":
        preamble = [f"% {t(lang, 'checker.ws.tex_compile_cjk')}",
                    r"\documentclass[UTF8,11pt]{ctexart}"]
    else:
        preamble = [f"% {t(lang, 'checker.ws.tex_compile')}",
                    r"\documentclass[11pt]{article}",
                    r"\usepackage[utf8]{inputenc}",
                    r"\usepackage[T1]{fontenc}",
                    r"\usepackage{lmodern}"]
    preamble += [
        r"\usepackage[a4paper,margin=2cm]{geometry}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage{graphicx}",
        r"\setcounter{MaxMatrixCols}{20}",
        r"\setlength{\parindent}{0pt}",
        r"\setlength{\parskip}{0.6em}",
        "% A display formula, shrunk to the line width when it is wider (long plugged-in sums).",
        r"\newcommand{\fitformula}[1]{\begin{center}"
        r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{$\displaystyle #1$}"
        r"\end{center}}",
        "",
        r"\title{" + latex_escape(title) + "}",
        r"\date{}",
        "",
        r"\begin{document}",
        r"\maketitle",
        "",
    ]
    lines = list(preamble)
    corner = t(lang, "checker.ws.corner")
    for block in blocks:
        if block.kind == "heading":
            lines += [r"\section*{" + latex_escape(block.text) + "}", ""]
        elif block.kind == "text":
            lines += [latex_escape(block.text), ""]
        elif block.kind == "formula":
            lines += [r"\fitformula{" + block.latex + "}", ""]
        elif block.kind == "matrix":
            lines += [r"\textbf{" + latex_escape(block.text) + "}", ""]
            body = formulas.matrix_latex(block.values, lang, integer=block.integer,
                                   max_size=MAX_BMATRIX, name=block.symbol)
            if body is not None:
                lines += [r"\fitformula{" + body + "}", ""]
            else:
                names, rows = _matrix_rows(block, result.labels, lang)
                lines += _tex_table((corner, *names), rows, first_column_header=True)
        elif block.kind == "table":
            lines += _tex_table(block.header, block.rows)
    lines += [r"\end{document}", ""]
    return "\n".join(lines)


# --- CSV -----------------------------------------------------------------------------------------


def _csv_number(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def matrices_csv(result: Walkthrough) -> str:
    """Every matrix (and both histograms) in one long CSV: ``matrix,row,column,value``.

    Rows and columns are rating labels; values have full precision and a decimal point.
    """
    labels = [str(int(label)) for label in result.labels]
    lines = ["matrix,row,column,value"]
    for name, attribute in CSV_MATRICES:
        matrix = getattr(result, attribute)
        for r, row_label in enumerate(labels):
            for c, column_label in enumerate(labels):
                lines.append(f"{name},{row_label},{column_label},{_csv_number(matrix[r, c])}")
    for name, attribute in CSV_VECTORS:
        for r, row_label in enumerate(labels):
            lines.append(f"{name},{row_label},,{_csv_number(getattr(result, attribute)[r])}")
    return "\n".join(lines) + "\n"


# --- Python --------------------------------------------------------------------------------------


def _py_list(name: str, values: Any) -> list[str]:
    body = ", ".join(str(int(v)) for v in values)
    wrapped = textwrap.wrap(body, width=92, break_on_hyphens=False) or [""]
    if len(wrapped) == 1:
        return [f"{name} = [{wrapped[0]}]"]
    return [f"{name} = [", *(f"    {line}" for line in wrapped), "]"]


def _py_table(values: Any) -> list[str]:
    rows = [", ".join(str(int(v)) for v in row) for row in np.asarray(values)]
    return ["table = [", *(f"    [{row}]," for row in rows), "]"]


def python_snippet(result: Walkthrough, lang: str, source: Source | None = None) -> str:
    """A short script that recomputes kappa with qwk_explained and with scikit-learn."""
    source = source or Source()

    def comment(key: str, **params: Any) -> list[str]:
        text = t(lang, key, **params)
        return [f"# {line}" for line in textwrap.wrap(text, width=96, break_on_hyphens=False)]

    name = result.weights_name
    labels = ", ".join(str(int(label)) for label in result.labels)
    kappa_text = (t(lang, "common.undefined") if result.kappa is None
                  else format_number(result.kappa, lang))
    use_vectors = (not source.from_table and result.actual is not None
                   and result.predicted is not None and result.n <= MAX_SNIPPET_ITEMS)
    lines = [*comment("checker.ws.py_intro"), *comment("checker.ws.py_expected", kappa=kappa_text),
             "import numpy as np", "from sklearn.metrics import cohen_kappa_score", ""]
    if name != "custom":
        weights = f'"{name}"'
    else:  # a custom matrix is written out
        weights = "[" + ", ".join(
            "[" + ", ".join(repr(float(v)) for v in row) + "]" for row in result.weights) + "]"
    if use_vectors:
        scale_args = f'scale="{source.scale}"'
        if source.min_rating is not None:
            scale_args += f", min_rating={int(source.min_rating)}"
        if source.max_rating is not None:
            scale_args += f", max_rating={int(source.max_rating)}"
        lines += ["from qwk_explained import walkthrough", ""]
        lines += _py_list("actual", result.actual) + _py_list("predicted", result.predicted)
        lines += [f"labels = [{labels}]", ""]
        lines += [f"result = walkthrough(actual, predicted, weights={weights}, {scale_args})",
                  'print("qwk_explained:", result.kappa)', ""]
    else:
        lines += ["from qwk_explained import walkthrough_from_table", ""]
        lines += comment("checker.ws.py_table")
        lines += _py_table(result.observed) + [f"labels = [{labels}]", ""]
        lines += [f"result = walkthrough_from_table(table, weights={weights}, labels=labels)",
                  'print("qwk_explained:", result.kappa)', ""]
        lines += comment("checker.ws.py_expand")
        lines += ["counts = np.asarray(table)",
                  "rows, cols = np.indices(counts.shape)",
                  "actual = np.repeat(np.asarray(labels)[rows.ravel()], counts.ravel())",
                  "predicted = np.repeat(np.asarray(labels)[cols.ravel()], counts.ravel())", ""]
    if name != "custom":
        spelled = SKLEARN_WEIGHTS[name]
        sklearn_weights = "None" if spelled is None else f'"{spelled}"'
        lines += comment("checker.ws.py_labels")
        lines += ["kappa = cohen_kappa_score(actual, predicted, labels=labels, "
                  f"weights={sklearn_weights})",
                  'print("scikit-learn:", kappa)']
    else:
        lines += comment("checker.ws.py_custom")
    return "\n".join(lines) + "\n"
