"""LaTeX formulas: the plugged-in numbers are read back and checked against the Walkthrough.

Sources of truth: the Walkthrough itself (every number a formula shows must be the number the
engine computed, rounded like the text: counts as integers, others to 4 decimals), the seeds'
worked example (actual = [2,2,2,3,4,5,5,5,5,5], predicted = [2,2,2,3,2,1,1,1,1,3]: E = 1.2 at
ratings (2, 2), kappa = -0.1392), and KaTeX syntax invariants (balanced braces, no Python-isms).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest

from qwk_explained import walkthrough, walkthrough_from_table
from qwk_explained.core.types import WEIGHTS_NAMES
from qwk_explained.present import formulas as f
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.interpret import shown_interval

SEED_ACTUAL = [2, 2, 2, 3, 4, 5, 5, 5, 5, 5]
SEED_PREDICTED = [2, 2, 2, 3, 2, 1, 1, 1, 1, 3]

# A number as format_latex writes it: decimal mark and thousands separator per language, braced.
_NUMBER = {
    "point": re.compile(r"-?\d+(?:\{,\}\d{3})*(?:\.\d+)?"),
    "comma": re.compile(r"-?\d+(?:\{\.\}\d{3})*(?:\{,\}\d+)?"),
}


def numbers(latex: str, lang: str) -> list[float]:
    """Every number in a formula, in order (subscripts included), parsed back to floats."""
    comma = LANGUAGES[lang].decimal == ","
    found = _NUMBER["comma" if comma else "point"].findall(latex)
    if comma:
        return [float(t.replace("{.}", "").replace("{,}", ".")) for t in found]
    return [float(t.replace("{,}", "")) for t in found]


_LAYOUT = re.compile(r"\\begin\{(?:aligned|gathered)\} | \\end\{(?:aligned|gathered)\}")


def flat(latex: str) -> str:
    """A formula wrapped over lines (for a phone) as one line: what it says, not how it is set."""
    text = _LAYOUT.sub("", latex).replace(r" \\ &\quad ", " ").replace(r" \\ ", r"\qquad ")
    return text.lstrip("&")


def last_number(latex: str, lang: str) -> float:
    return numbers(flat(latex).rsplit("=", 1)[1], lang)[-1]


def rounded(value: float) -> float:
    """To 4 decimals as by hand, half away from 0 (0.00605 -> 0.0061, not the float's 0.006)."""
    exact = Decimal(repr(float(value)))
    return float(exact.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


@pytest.fixture(scope="module")
def seed():
    return walkthrough(SEED_ACTUAL, SEED_PREDICTED)


def cases():
    rng = np.random.default_rng(7)
    return [
        walkthrough(SEED_ACTUAL, SEED_PREDICTED),
        walkthrough([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], weights="linear"),
        walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 2, 4], weights="unweighted"),
        walkthrough([3, 3, 3], [3, 3, 3]),  # kappa undefined
        walkthrough_from_table([[1000, 20], [3, 4000]], weights=[[0, 0.5], [0.75, 0]],
                               labels=[-1, 7]),
        walkthrough(rng.integers(0, 12, 200), rng.integers(0, 12, 200)),
    ]


# --- the seed's worked example -----------------------------------------------------------------


def test_expected_cell_matches_seed_example(seed):
    # Seed: hist_actual(2) = 3, hist_predicted(2) = 4, n = 10, so E at ratings (2, 2) is 1.2.
    latex = f.expected_cell(seed, 1, 1, "en")
    assert latex.startswith("E_{2,2} =")
    assert r"\frac{3 \cdot 4}{10}" in latex
    assert latex.endswith("= 1.2")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_decimal_mark_follows_the_language(seed, lang):
    """A decimal comma (Spanish, Turkish) is braced, {,}, so LaTeX sets no space after it; a
    decimal point (English, Chinese) is written as it is."""
    if LANGUAGES[lang].decimal == ",":
        assert f.expected_cell(seed, 1, 1, lang).endswith("= 1{,}2")
        assert flat(f.kappa_plugged(seed, lang)).endswith("= -0{,}1392")
        for latex in (f.numerator_plugged(seed, lang), f.denominator_plugged(seed, lang),
                      f.normalization_cell(seed, 4, 0, lang)):
            assert not re.search(r"\d\.\d", latex), latex
    else:
        assert f.expected_cell(seed, 1, 1, lang).endswith("= 1.2")
        assert "{,}" not in f.kappa_plugged(seed, lang)


def test_kappa_plugged_seed(seed):
    latex = f.kappa_plugged(seed, "en")
    assert latex == r"\kappa = 1 - \frac{0.45}{0.395} = 1 - 1.1392 = -0.1392"


def test_observed_cell_uses_rating_labels(seed):
    # Position (4, 0) is actual rating 5, predicted rating 1: four items.
    assert f.observed_cell(seed, 4, 0, "en") == "O_{5,1} = 4"


def test_out_of_range_cell_raises(seed):
    with pytest.raises(IndexError):
        f.observed_cell(seed, 5, 0)


# --- each step's numbers against the Walkthrough -----------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", range(len(cases())))
def test_cell_formulas_match_walkthrough(case, lang):
    result = cases()[case]
    for i in range(result.size):
        for j in range(result.size):
            assert last_number(f.observed_cell(result, i, j, lang), lang) == result.observed[i, j]
            # Unweighted kappa writes (i ≠ j) after the weight.
            weight = flat(f.weights_cell(result, i, j, lang)).split(r"\quad (")[0]
            assert last_number(weight, lang) == rounded(result.weights[i, j])
            expected = flat(f.expected_cell(result, i, j, lang))
            assert last_number(expected, lang) == rounded(result.expected[i, j])
            # 3 · 4 / 10: the histogram counts and n, as plugged in.
            fraction = numbers(expected.split(r"\frac")[2], lang)
            assert fraction[:3] == [result.actual_hist[i], result.predicted_hist[j], result.n]
            observed_part, expected_part = flat(f.normalization_cell(result, i, j, lang)).split(
                r"\qquad")
            assert last_number(observed_part, lang) == rounded(result.observed_norm[i, j])
            assert last_number(expected_part, lang) == rounded(result.expected_norm[i, j])


def test_quadratic_weight_plugged_in_from_positions():
    # Labels equal positions: no evaluation bar, just the numbers.
    result = walkthrough([0, 1, 2, 3, 4], [4, 3, 2, 1, 0])
    assert f.weights_cell(result, 4, 0, "en") == (
        r"w_{4,0} = \frac{(4-0)^2}{(5-1)^2} = \frac{16}{16} = 1"
    )
    assert f.weights_cell(result, 1, 2, "es") == (
        r"w_{1,2} = \frac{(1-2)^2}{(5-1)^2} = \frac{1}{16} = 0{,}0625"
    )


def test_weights_use_positions_not_labels():
    # Ratings 1, 2, 5 with 3 and 4 unused (scale="observed"): 5 sits at position 2, so
    # w_{5,1} = (2-0)^2/(3-1)^2 = 1, not (5-1)^2/(5-1)^2. This is the sklearn pitfall.
    result = walkthrough([1, 2, 5], [5, 2, 1], scale="observed")
    latex = flat(f.weights_cell(result, 2, 0, "en"))
    assert latex.startswith("w_{5,1} = ")
    assert r"\Big|_{i=2,\ j=0}" in latex
    assert r"\frac{(2-0)^2}{(3-1)^2} = \frac{4}{4} = 1" in latex


def test_linear_and_unweighted_cells():
    linear = walkthrough([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], weights="linear")
    assert f.weights_cell(linear, 3, 1) == r"w_{3,1} = \frac{|3-1|}{5-1} = \frac{2}{4} = 0.5"
    plain = walkthrough([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], weights="unweighted")
    assert f.weights_cell(plain, 3, 1) == r"w_{3,1} = 1\quad (3 \neq 1)"
    assert f.weights_cell(plain, 2, 2) == r"w_{2,2} = 0\quad (2 = 2)"


def test_weights_generic_kinds():
    assert f.weights_generic("quadratic") == r"w_{ij} = \frac{(i-j)^2}{(N-1)^2}"
    assert f.weights_generic("linear") == r"w_{ij} = \frac{|i-j|}{N-1}"
    assert r"\begin{cases}" in f.weights_generic("unweighted")
    assert f.weights_generic("custom").startswith("w_{ij}")
    with pytest.raises(ValueError):
        f.weights_generic("cubic")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_histograms_add_up_to_n(seed, lang):
    latex = f.histogram_plugged(seed, lang)
    values = numbers(latex, lang)
    size = seed.size
    assert values[:size] == list(seed.actual_hist)
    assert values[size:2 * size] == list(seed.predicted_hist)
    assert values[-1] == seed.n == 10
    # One bar: h^a at rating 2 is the row of O at position 1.
    assert f.histogram_cell(seed, 1, lang) == r"h^{a}_{2} = \sum_j O_{2,j} = 0 + 3 + 0 + 0 + 0 = 3"
    assert last_number(f.histogram_cell(seed, 0, lang, "p"), lang) == seed.predicted_hist[0]


def test_share_latex_plugs_in_the_numbers_in_each_language(seed):
    """A cell's share of num and den: w O / n over num, its number as each language writes it."""
    assert f.numerator_share_latex(seed, 4, 0, "en") == (
        r"\frac{w_{5,1}\, O_{5,1} / n}{\text{num}} = \frac{1 \cdot 0.4}{0.45} = 88.9\%")
    assert "0{,}395" in f.denominator_share_latex(seed, 4, 0, "es")
    assert f.numerator_share_latex(seed, 4, 0, "tr").endswith(r"\%88{,}9")
    perfect = walkthrough([1, 2, 3], [1, 2, 3])
    assert f.numerator_share_latex(perfect, 0, 1) is None  # num = 0: no share to show
    constant = walkthrough([2, 2], [2, 2], min_rating=1, max_rating=3)
    assert f.denominator_share_latex(constant, 1, 1) is None  # den = 0


def test_long_sums_are_cut_with_dots():
    result = walkthrough(list(range(20)), list(range(19, -1, -1)))
    latex = flat(f.histogram_plugged(result, "en", max_terms=8))
    assert latex.count(r"\dots") == 2 and latex.endswith("= 20")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numerator_and_denominator_terms(seed, lang):
    for plugged, values, total in ((f.numerator_plugged, seed.observed_norm, seed.numerator),
                                   (f.denominator_plugged, seed.expected_norm, seed.denominator)):
        products = seed.weights * values
        count = int(np.count_nonzero(products))
        # Every term shown: the terms are the non-zero w * O/n (or w * E/n) and add up to the total.
        full = plugged(seed, lang, max_terms=100)
        body = full.split("=", 1)[1].rsplit("=", 1)[0]
        terms = body.split(" + ")
        assert len(terms) == count
        pairs = [numbers(term, lang) for term in terms]
        assert all(len(pair) == 2 for pair in pairs)
        assert sum(a * b for a, b in pairs) == pytest.approx(total, abs=1e-3)
        assert last_number(full, lang) == rounded(total)
        # Cut after max_terms: exactly that many products, then \dots, then the total.
        short = plugged(seed, lang, max_terms=2)
        assert short.count(r"\cdot") == min(2, count)
        assert (r"+ \dots =" in short) == (count > 2)
        assert last_number(short, lang) == rounded(total)


def test_numerator_all_zero_has_no_terms():
    perfect = walkthrough([1, 2, 3, 1], [1, 2, 3, 1])
    assert f.numerator_plugged(perfect) == r"\text{num} = 0"
    assert f.kappa_plugged(perfect).endswith("= 1")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undefined_kappa_shows_no_number(lang):
    result = walkthrough([3, 3, 3], [3, 3, 3])
    latex = f.kappa_plugged(result, lang)
    assert r"\frac{0}{0}" in latex
    tail = latex.rsplit("=", 1)[1]
    assert tail.strip() == f.UNDEFINED
    assert numbers(tail, lang) == []
    stats = result.statistics()
    for plugged in (f.ci_plugged, f.z_plugged, f.p_value_plugged):
        assert plugged(stats, lang).endswith(f.UNDEFINED)


# --- matrices ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_matrix_latex_values(seed, lang):
    latex = f.matrix_latex(seed.expected, lang, name="E")
    assert latex.startswith(r"E = \begin{bmatrix}") and latex.endswith(r"\end{bmatrix}")
    rows = latex.split(r"\begin{bmatrix}")[1].split(r"\end{bmatrix}")[0].split(r"\\")
    assert len(rows) == seed.size
    assert numbers(latex, lang) == [rounded(v) for v in seed.expected.ravel()]
    counts = f.matrix_latex(seed.observed, lang, integer=True)
    assert numbers(counts, lang) == list(seed.observed.ravel())


def test_matrix_latex_too_large_is_none():
    assert f.matrix_latex(np.zeros((9, 9)), "en") is None
    assert f.matrix_latex(np.zeros((9, 9)), "en", max_size=9) is not None


# --- statistics --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_statistics_formulas_match_kappa_statistics(seed, lang):
    stats = seed.statistics()
    ci = f.ci_plugged(stats, lang)
    values = numbers(ci, lang)
    # z_{0.975}, kappa, 1.96, SE, low, high
    assert values == [0.975, rounded(stats.kappa), 1.96, rounded(stats.se),
                      rounded(stats.ci_low), rounded(stats.ci_high)]
    if LANGUAGES[lang].decimal == ",":  # and the list separator a semicolon
        assert r"\left[-0{,}2846;\ 0{,}0061\right]" in ci
    z = f.z_plugged(stats, lang)
    assert numbers(z.split("=", 2)[2], lang) == [rounded(stats.kappa), rounded(stats.se0),
                                                  rounded(stats.z)]
    p = f.p_value_plugged(stats, lang)
    assert numbers(p, lang)[-2:] == [rounded(abs(stats.z)), rounded(stats.p_value)]
    se = f.se_plugged(stats, lang)
    assert numbers(se, lang) == [rounded(stats.p_o), rounded(stats.p_e), rounded(stats.se),
                                 0, rounded(stats.se0)]  # the 0 is the subscript of SE_0


def test_ci_level_follows_confidence(seed):
    assert r"z_{0.995}" in f.ci_plugged(seed.statistics(confidence=0.99), "en")


# --- KaTeX validity ----------------------------------------------------------------------------


def all_formulas() -> list[str]:
    out = [f.observed_generic(), f.histograms_generic(), f.expected_generic(),
           f.normalization_generic(), f.normalization_identity(), f.numerator_generic(),
           f.denominator_generic(), f.kappa_generic(), f.agreement_generic(), f.se_generic(),
           f.se_generic(null=True), f.ci_generic(), f.z_generic()]
    out += [f.weights_generic(kind) for kind in WEIGHTS_NAMES]
    for lang in LANGUAGES:
        for result in cases():
            stats = result.statistics()
            for i in range(min(result.size, 4)):
                for j in range(min(result.size, 4)):
                    out += [cell(result, i, j, lang) for cell in
                            (f.observed_cell, f.weights_cell, f.expected_cell,
                             f.normalization_cell)]
                out += [f.histogram_cell(result, i, lang), f.histogram_cell(result, i, lang, "p")]
            out += [f.histogram_plugged(result, lang),
                    f.numerator_plugged(result, lang), f.denominator_plugged(result, lang),
                    f.kappa_plugged(result, lang), f.ci_plugged(stats, lang),
                    f.z_plugged(stats, lang),
                    f.p_value_plugged(stats, lang), f.se_plugged(stats, lang),
                    f.ci_plugged(stats, lang, shown_interval(result, stats))]
            for matrix in (result.observed, result.weights, result.expected_norm):
                latex = f.matrix_latex(matrix, lang, name="O")
                if latex is not None:
                    out.append(latex)
    return out


def balanced(latex: str) -> bool:
    depth = 0
    text = latex.replace(r"\{", "").replace(r"\}", "")
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_every_formula_is_balanced_and_free_of_python_isms():
    formulas = all_formulas()
    assert len(formulas) > 500
    for latex in formulas:
        assert balanced(latex), latex
        assert latex.count(r"\left") == latex.count(r"\right"), latex
        assert latex.count(r"\begin{") == latex.count(r"\end{"), latex
        for word in ("None", "nan", "NaN", "inf", "True", "False", "array", "np."):
            assert word not in latex, (word, latex)
        assert not re.search(r"\d[eE][+-]?\d", latex), latex  # no scientific notation


def test_formulas_hold_no_words():
    # The only \text{} allowed are the symbols num, den and ?: formulas are the same in every
    # language, so any word here would escape translation.
    for latex in all_formulas():
        assert set(re.findall(r"\\text\{([^}]*)\}", latex)) <= {"num", "den", "?"}, latex


def test_formulas_render_in_streamlit_katex(tmp_path: Path):
    """Render every formula with the KaTeX that Streamlit ships (strict mode), when node exists."""
    import streamlit

    node = shutil.which("node")
    bundles = sorted((Path(streamlit.__file__).parent / "static").rglob("katex.*.js"))
    if node is None or not bundles:
        pytest.skip("node or Streamlit's KaTeX bundle not available")
    (tmp_path / "katex.mjs").write_bytes(bundles[0].read_bytes())
    (tmp_path / "formulas.json").write_text(json.dumps(all_formulas()), encoding="utf-8")
    script = tmp_path / "check.mjs"
    script.write_text(
        "import katex from './katex.mjs';\n"
        "import fs from 'fs';\n"
        "const items = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));\n"
        "const bad = [];\n"
        "for (const s of items) {\n"
        "  try { katex.renderToString(s, {displayMode: true, throwOnError: true,"
        " strict: 'error'}); }\n"
        "  catch (e) { bad.push(s + ' -> ' + e.message); }\n"
        "}\n"
        "console.log(JSON.stringify(bad));\n",
        encoding="utf-8",
    )
    done = subprocess.run([node, str(script), str(tmp_path / "formulas.json")],
                          capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0 and "katex" in done.stderr.lower() and "export" in done.stderr:
        pytest.skip("this KaTeX bundle is not a standalone module")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
