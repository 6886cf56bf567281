r"""The worked solution as files to download: Markdown, LaTeX, CSV of every matrix, Python.

The outline every written walkthrough shares (:func:`.outline.outline`, as a document: a title, the
data, the steps, the statistics) lists the solution as blocks (headings, sentences, formulas,
tables) in the reader's language; :func:`markdown` (:mod:`.markup`) and :func:`latex_document`
render it, so the two printable worksheets hold the same steps as the checker's solution and a
notebook's explanation. Numbers are the language's (``0,25`` in Spanish and Turkish, ``0{,}25``
inside LaTeX).

:func:`matrices_csv` is for machines: one long table ``matrix,row,column,value`` with rating labels
and full-precision numbers written with a decimal point, whatever the language.
:func:`python_snippet` reproduces kappa with this package and with scikit-learn's
``cohen_kappa_score`` (``labels=`` set to the whole scale, since weights come from positions).
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import numpy as np

from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.conventions import SKLEARN_WEIGHTS

from . import markup
from .blocks import Formula, Heading, Metric, Table, Text
from .catalogue import COST_FIGURES, FIGURES
from .i18n import t
from .languages import language
from .numbers import format_number
from .outline import Source, outline

__all__ = ["CSV_MATRICES", "CSV_VECTORS", "MAX_SNIPPET_ITEMS", "Source", "latex_document",
           "latex_escape", "markdown", "matrices_csv", "outline", "python_snippet"]

#: Vectors longer than this go into the Python snippet as their table O instead.
MAX_SNIPPET_ITEMS = 2000

#: The matrices of the CSV export, in the order of the steps: the walkthrough's charts but the
#: histograms and the cost maps, which the JSON of the command line holds (name, attribute).
CSV_MATRICES = tuple((name, name) for name in FIGURES
                     if name not in ("histograms", *COST_FIGURES))
#: The two histograms of the CSV export (one value per rating: the column is left empty).
CSV_VECTORS = (("actual_hist", "actual_hist"), ("predicted_hist", "predicted_hist"))


# --- Markdown ------------------------------------------------------------------------------------


def markdown(result: Walkthrough, lang: str, source: Source | None = None,
             confidence: float = 0.95) -> str:
    """The worksheet as Markdown: pipe tables for matrices, ``$$`` for formulas."""
    return markup.markdown(outline(result, lang, source, confidence))


# --- LaTeX ---------------------------------------------------------------------------------------

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "→": r"$\rightarrow$", "↓": r"$\downarrow$", "·": r"$\cdot$", "−": r"$-$", "κ": r"$\kappa$",
    "≤": r"$\leq$", "≥": r"$\geq$", "×": r"$\times$", "ᵃ": r"$^{a}$", "ᵖ": r"$^{p}$",
}


#: Subscript digits, with a decimal mark between them (z₀.₉₇₅): a LaTeX subscript.
_SUBSCRIPT = re.compile(r"[₀-₉]+(?:[.,][₀-₉]+)?")
_FROM_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉,", "0123456789" + "\x00")


def latex_escape(text: str) -> str:
    r"""Plain text made safe for LaTeX (``50%`` -> ``50\%``); ``**bold**`` becomes ``\textbf``;
    subscript digits (``z₀.₉₇₅``) a subscript in math mode."""
    out = "".join(_TEX_SPECIAL.get(char, char) for char in text)
    out = _SUBSCRIPT.sub(lambda match: "$_{" + match[0].translate(_FROM_SUBSCRIPT).replace(
        "\x00", "{,}") + "}$", out)
    parts = out.split("**")
    if len(parts) % 2 == 1 and len(parts) > 1:
        out = "".join(part if k % 2 == 0 else r"\textbf{" + part + "}"
                      for k, part in enumerate(parts))
    return out


def _tex_table(table: Table) -> list[str]:
    """A table as ``tabular``, its row labels ruled off from the numbers, shrunk to the line
    width when it is wider (a long scale)."""
    columns = "l|" + "r" * len(table.columns)
    lines = [r"\begin{center}", r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
             rf"\begin{{tabular}}{{{columns}}}", r"\hline",
             " & ".join(latex_escape(h) for h in (table.corner, *table.columns)) + r" \\",
             r"\hline"]
    lines += [" & ".join(latex_escape(c) for c in (label, *cells)) + r" \\"
              for label, cells in table.rows]
    lines += [r"\hline", r"\end{tabular}}", r"\end{center}", ""]
    return lines


def latex_document(result: Walkthrough, lang: str, source: Source | None = None,
                   confidence: float = 0.95) -> str:
    """The worksheet as a complete LaTeX document (``article``; ``ctexart`` for Chinese)."""
    blocks = outline(result, lang, source, confidence)
    title = next(block.text for block in blocks if isinstance(block, Heading) and block.level == 1)
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
    for block in blocks:
        if isinstance(block, Heading):
            if block.level > 1:  # the title is \maketitle's
                lines += [r"\section*{" + latex_escape(block.text) + "}", ""]
        elif isinstance(block, Text | Metric):
            lines += [latex_escape(block.text), ""]
        elif isinstance(block, Formula):
            lines += [r"\fitformula{" + block.latex + "}", ""]
        elif isinstance(block, Table):
            if block.caption:
                lines += [r"\textbf{" + latex_escape(block.caption) + "}", ""]
            if block.latex:
                lines += [r"\fitformula{" + block.latex + "}", ""]
            else:
                lines += _tex_table(block)
        else:  # a chart reaches a document as its table (outline.chart_blocks)
            raise TypeError(f"{type(block).__name__} is not written in LaTeX")
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
    for vector, histogram in CSV_VECTORS:
        for r, row_label in enumerate(labels):
            lines.append(f"{vector},{row_label},,{_csv_number(getattr(result, histogram)[r])}")
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
    use_vectors = (not source.from_table and result.actual is not None
                   and result.predicted is not None and result.n <= MAX_SNIPPET_ITEMS)
    # What the lines print: kappa, or for 0/0 None (qwk_explained) and nan (scikit-learn).
    if result.kappa is not None:
        expected = comment("checker.ws.py_expected", kappa=format_number(result.kappa, lang))
    elif name == "custom":  # scikit-learn takes no custom matrix: only one line
        expected = comment("checker.ws.py_expected_undefined_custom")
    else:
        expected = comment("checker.ws.py_expected_undefined")
    lines = [*comment("checker.ws.py_intro"), *expected,
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
