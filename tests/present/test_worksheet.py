"""The worked solution as files: Markdown, LaTeX, CSV of every matrix, a Python snippet.

Sources of truth: the engine's Walkthrough (every number in the files), scikit-learn's
``cohen_kappa_score`` (the snippet is run in a fresh interpreter and must print the engine's kappa
twice), the locales (every heading and sentence in the reader's language), and LaTeX's own rules
(a complete document, balanced braces; compiled by pdflatex or, for Chinese, xelatex in every
language: skipped without TeX locally, a failure in CI).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from qwk_explained import walkthrough, walkthrough_from_table
from qwk_explained.present import worksheet
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_latex, format_number
from tests import ROOT

SEED = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")
TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
FROM_TABLE = worksheet.Source(from_table=True)


def _rows(matrix, lang, integer=False):
    """Markdown rows of a matrix as the worksheet writes them (label, then the cells)."""
    out = []
    for label, row in zip(TABLE.labels, matrix, strict=True):
        cells = [format_number(int(v) if integer else float(v), lang) for v in row]
        out.append("| " + " | ".join([str(int(label)), *cells]) + " |")
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_markdown_holds_every_step_in_the_readers_language(lang):
    """Headings, sentences and numbers in ``lang``; every matrix of the engine, row by row."""
    text = worksheet.markdown(TABLE, lang, FROM_TABLE)
    title = t(lang, "checker.ws.title", kappa_name=t(lang, "common.kappa_name.quadratic"))
    assert text.startswith(f"# {title}\n")
    for step in STEPS:  # the seven steps, numbered as on every surface
        assert f"## {step.heading(lang)}" in text
    assert f"## {t(lang, 'checker.ws.stats_heading')}" in text
    assert t(lang, "checker.ws.data_table", count=19) in text
    for matrix, integer in ((TABLE.observed, True), (TABLE.weights, False),
                            (TABLE.expected, False), (TABLE.observed_norm, False),
                            (TABLE.expected_norm, False), (TABLE.weighted_observed, False),
                            (TABLE.weighted_expected, False)):
        for row in _rows(matrix, lang, integer):
            assert row in text
    stats = TABLE.statistics()
    kappa = format_number(TABLE.kappa, lang)
    assert f"| {t(lang, 'common.kappa')} | {kappa} |" in text
    assert f"| {t(lang, 'common.standard_error')} | {format_number(stats.se, lang)} |" in text
    assert format_latex(TABLE.kappa, lang) in text  # in the plugged-in formula
    assert "checker.ws." not in text and "steps." not in text


def test_markdown_of_vectors_lists_the_data_and_long_vectors_do_not():
    text = worksheet.markdown(SEED, "es")
    assert t("es", "cli.value_line", label=t("es", "common.actual_ratings"),
             value="4, 4, 3, 4, 4, 4, 1, 1, 2, 1") in text
    assert "\u22120,1392" in text
    big = walkthrough(np.arange(300) % 4, (np.arange(300) + 1) % 4)
    text = worksheet.markdown(big, "en")
    assert t("en", "checker.ws.data_long", count=300) in text


def test_undefined_kappa_worksheets_say_so():
    """Kappa 0/0: the files explain it instead of showing a number, and never crash."""
    flat = walkthrough([2, 2, 2], [2, 2, 2])
    text = worksheet.markdown(flat, "tr")
    assert t("tr", "undefined.single_category") in text
    assert t("tr", "cli.statistics_need_kappa") in text
    assert r"\end{document}" in worksheet.latex_document(flat, "tr")
    assert "print(" in worksheet.python_snippet(flat, "tr")


def _balanced(tex: str) -> bool:
    depth = 0
    for char in re.sub(r"\\[{}%]|%[^\n]*", "", tex):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_latex_is_a_complete_document(lang):
    """documentclass, amsmath, one document body, balanced braces, numbers as the language."""
    tex = worksheet.latex_document(TABLE, lang, FROM_TABLE)
    assert tex.startswith("% ")
    assert re.search(r"^\\documentclass", tex, re.MULTILINE)
    assert r"\usepackage{amsmath,amssymb}" in tex
    assert tex.count(r"\begin{document}") == tex.count(r"\end{document}") == 1
    assert tex.rstrip().endswith(r"\end{document}")
    assert _balanced(tex)
    assert format_latex(TABLE.kappa, lang) in tex
    assert r"O = \begin{bmatrix} 0 & 4 & 1 \\ 0 & 8 & 0 \\ 0 & 1 & 5 \end{bmatrix}" in tex
    heading = t(lang, "steps.step_heading", number=1, title=t(lang, "steps.observed_title"))
    assert r"\section*{" + worksheet.latex_escape(heading) + "}" in tex
    if lang == "zh":
        assert r"\documentclass[UTF8,11pt]{ctexart}" in tex
        assert t("zh", "checker.ws.tex_compile_cjk") in tex.splitlines()[0]
    else:
        assert r"\usepackage[utf8]{inputenc}" in tex


def test_latex_escapes_prose_and_uses_tables_for_large_matrices():
    escaped = worksheet.latex_escape("50% & a_b #1 {x} ~")
    assert escaped == r"50\% \& a\_b \#1 \{x\} \textasciitilde{}"
    assert worksheet.latex_escape("see **this**") == r"see \textbf{this}"
    big = walkthrough_from_table(np.eye(10, dtype=int) + 1)
    tex = worksheet.latex_document(big, "en", FROM_TABLE)
    assert r"\begin{bmatrix}" not in tex.split(r"\section*{Step 2")[0].split("Step 1")[1]
    assert r"\begin{tabular}{l|rrrrrrrrrr}" in tex
    assert _balanced(tex)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


#: The engine each language's worksheet names in its first line: Chinese needs xelatex (ctexart).
TEX_ENGINES = {lang: "xelatex" if lang == "zh" else "pdflatex" for lang in LANGUAGES}
#: Worksheets that exercise every kind of block: vectors with an interval and the small-sample
#: note, a textbook table labelled 1 to 3 with a clipped interval, a 10 x 10 table (tabular).
COMPILED = {
    "seed": (SEED, worksheet.Source()),
    "table": (walkthrough_from_table([[5, 1, 0], [0, 6, 0], [0, 0, 7]], labels=[1, 2, 3]),
              FROM_TABLE),
    "wide": (walkthrough_from_table(np.eye(10, dtype=int) * 3 + 1), FROM_TABLE),
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_latex_compiles_in_every_language(lang, tmp_path):
    """The real check: the TeX engine turns every worksheet into a PDF without a single error, in
    every language, Chinese included. Without TeX the test is skipped locally, but fails in CI
    (``CI=true``): ``make test`` installs the TeX Live packages (see APT_PACKAGES)."""
    engine = TEX_ENGINES[lang]
    if shutil.which(engine) is None:
        reason = f"{engine} is not installed (make test installs it)"
        if _in_ci():
            pytest.fail(f"{reason}: the LaTeX worksheets must compile in CI", pytrace=False)
        pytest.skip(reason)
    for name, (result, source) in COMPILED.items():
        tex = worksheet.latex_document(result, lang, source)
        assert engine in tex.splitlines()[0], "the first line names the engine to use"
        path = tmp_path / f"{name}_{lang}.tex"
        path.write_text(tex, encoding="utf-8")
        run = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", path.name],
                             cwd=tmp_path, capture_output=True, timeout=300, check=False)
        log = (tmp_path / f"{name}_{lang}.log").read_text(encoding="utf-8", errors="replace")
        assert run.returncode == 0, log[-3000:]
        assert "! " not in log and (tmp_path / f"{name}_{lang}.pdf").stat().st_size > 1000


def test_csv_has_every_matrix_with_full_precision():
    """matrix,row,column,value: 7 matrices of N x N and 2 histograms of N, values exact."""
    rows = list(csv.DictReader(io.StringIO(worksheet.matrices_csv(SEED))))
    size = SEED.size
    assert len(rows) == 7 * size * size + 2 * size
    labels = [int(x) for x in SEED.labels]
    for name, attribute in worksheet.CSV_MATRICES:
        matrix = getattr(SEED, attribute)
        cells = [r for r in rows if r["matrix"] == name]
        assert len(cells) == size * size
        for cell in cells:
            i, j = labels.index(int(cell["row"])), labels.index(int(cell["column"]))
            assert float(cell["value"]) == matrix[i, j]
    hist = [int(r["value"]) for r in rows if r["matrix"] == "actual_hist"]
    assert hist == SEED.actual_hist.tolist()
    assert all(r["column"] == "" for r in rows if r["matrix"].endswith("_hist"))


def _run_snippets(snippets: dict[str, str], tmp_path: Path) -> dict[str, list[str]]:
    """Run each snippet in one fresh interpreter (runpy); return the lines each printed."""
    for name, code in snippets.items():
        (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    driver = (
        "import contextlib, io, json, runpy, sys, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "out = {}\n"
        "for name in sys.argv[1:]:\n"
        "    buffer = io.StringIO()\n"
        "    with contextlib.redirect_stdout(buffer):\n"
        "        runpy.run_path(name + '.py', run_name='__main__')\n"
        "    out[name] = buffer.getvalue().splitlines()\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", driver, *snippets], cwd=tmp_path, check=True,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_python_snippets_run_and_print_the_same_kappa_as_the_engine(tmp_path):
    """The exported script recomputes kappa with qwk_explained and scikit-learn: both equal the
    engine's, for a table, for vectors (linear, observed scale, explicit bounds) and for a long
    vector pair written as its table."""
    long_a = np.arange(2500) % 5
    long_p = (np.arange(2500) * 7 + 1) % 5
    linear = walkthrough(SEED.actual, SEED.predicted, weights="linear")
    cases = {
        "table": (TABLE, worksheet.python_snippet(TABLE, "es", FROM_TABLE)),
        "linear": (linear, worksheet.python_snippet(linear, "zh")),
        "observed": (walkthrough([1, 5, 5, 3, 1], [1, 5, 3, 3, 5], scale="observed",
                                 weights="unweighted"), None),
        "bounds": (walkthrough([1, 2, 2, 3], [1, 3, 2, 3], min_rating=0, max_rating=6), None),
        "long": (walkthrough(long_a, long_p), None),
    }
    sources = {"observed": worksheet.Source(scale="observed"),
               "bounds": worksheet.Source(min_rating=0, max_rating=6)}
    snippets = {}
    for name, (result, code) in cases.items():
        snippets[name] = code or worksheet.python_snippet(result, "tr", sources.get(name))
    assert "walkthrough_from_table" in snippets["long"] and "np.repeat" in snippets["long"]
    assert "min_rating=0, max_rating=6" in snippets["bounds"]
    assert 'scale="observed"' in snippets["observed"] and "weights=None" in snippets["observed"]
    printed = _run_snippets(snippets, tmp_path)
    for name, (result, _) in cases.items():
        ours, theirs = printed[name]
        assert ours.startswith("qwk_explained: ") and theirs.startswith("scikit-learn: ")
        assert float(ours.split(": ")[1]) == pytest.approx(result.kappa, abs=1e-12), name
        assert float(theirs.split(": ")[1]) == pytest.approx(result.kappa, abs=1e-12), name


def test_the_script_of_an_undefined_kappa_says_what_it_prints(tmp_path):
    """Teaching audit, defect 13: the script for a 0/0 kappa said "Both lines should print kappa
    = Undefined"; they print None and nan (with a warning). It says so now, in every language."""
    flat = walkthrough([2, 2, 2], [2, 2, 2], min_rating=1, max_rating=3)
    snippets = {lang: worksheet.python_snippet(flat, lang, worksheet.Source(
        min_rating=1, max_rating=3)) for lang in LANGUAGES}
    for lang, code in snippets.items():
        comments = " ".join(line[2:] for line in code.splitlines() if line.startswith("# "))
        assert " ".join(t(lang, "checker.ws.py_expected_undefined").split()) in comments
    printed = _run_snippets({"undefined": snippets["en"]}, tmp_path)
    assert printed["undefined"] == ["qwk_explained: None", "scikit-learn: nan"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_python_snippet_comments_are_translated(lang):
    code = worksheet.python_snippet(TABLE, lang, FROM_TABLE)
    comments = " ".join(line[2:] for line in code.splitlines() if line.startswith("# "))
    for key in ("checker.ws.py_table", "checker.ws.py_expand", "checker.ws.py_labels"):
        assert " ".join(t(lang, key).split()) in comments
    assert format_number(TABLE.kappa, lang) in comments
    compile(code, "snippet.py", "exec")


def test_custom_weights_snippet_skips_scikit_learn():
    custom = walkthrough_from_table(TABLE.observed, weights=np.ones((3, 3)) - np.eye(3))
    code = worksheet.python_snippet(custom, "en", FROM_TABLE)
    assert "cohen_kappa_score(" not in code
    assert t("en", "checker.ws.py_custom") in code.replace("\n# ", " ")


def test_the_worksheet_and_a_notebook_explain_a_scale_with_gaps_alike():
    """One outline: on a scale with gaps (1, 2, 5) both say the weights use positions, and both
    say why normalizing changes nothing."""
    gapped = walkthrough_from_table(TABLE.observed, labels=[1, 2, 5])
    written = worksheet.markdown(gapped, "en", FROM_TABLE)
    shown = gapped.explain("en").markdown
    for key in ("steps.weights_positions", "steps.normalization_why"):
        assert t("en", key) in written and t("en", key) in shown
