"""The formulas as plain text (``qwk_explained.present.formula_text``), for the terminal.

Sources of truth: the LaTeX of ``present.formulas`` (every formula of every step, of the verdict
and of the statistics, for random ratings in every language), read back as text: no TeX may
show through, and every number of the LaTeX must be in the text, as often, in the same order;
and a few formulas worked out by hand.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import walkthrough
from qwk_explained.present import formula_text, formulas
from qwk_explained.present.blocks import Formula
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.outline import statistics_blocks
from qwk_explained.teaching.cells import default_cell

_LATEX_NUMBER = re.compile(r"[0-9]+(?:(?:\{[,.]\}|\.)[0-9]+)*")
_TEXT_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]+)*")
_EXPONENT = re.compile(r"\^\{[^{}]*\}|\^[0-9]")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def _every_formula(result, lang):
    cell = default_cell(result)
    stats = result.statistics()
    blocks = [block for step in STEPS for block in step.blocks(result, cell, lang, stats)]
    blocks += statistics_blocks(result, stats, lang, derivations=True)
    return [block.latex for block in blocks if isinstance(block, Formula)]


def _latex_numbers(latex):
    return [n.replace("{", "").replace("}", "")
            for n in _LATEX_NUMBER.findall(_EXPONENT.sub("", latex))]


ratings = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30)


@settings(max_examples=40, deadline=None)
@given(pairs=ratings, lang=st.sampled_from(list(LANGUAGES)),
       weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
       scale=st.sampled_from(["range", "observed"]))
def test_every_formula_reads_as_text_with_all_its_numbers(pairs, lang, weights, scale):
    actual, predicted = zip(*pairs, strict=True)
    result = walkthrough(list(actual), list(predicted), weights=weights, scale=scale)
    for latex in _every_formula(result, lang):
        text = formula_text.text(latex)
        # No TeX shows through: no command, group, script or alignment mark (the set braces of
        # #{k : ...} and a plain-text subscript, z_(1 − α/2), excepted).
        assert not re.search(r"\\|[\^&]|_(?!\()|\{", text.replace("#{k", "")), (latex, text)
        assert _TEXT_NUMBER.findall(text.translate(_SUBSCRIPTS)) == _latex_numbers(latex), \
            (latex, text)


@pytest.mark.parametrize(("latex", "text"), [
    (r"E_{4,0} = \frac{h^{a}_{4} \, h^{p}_{0}}{n} = \frac{5 \cdot 4}{10} = 2",
     "E[4, 0] = hᵃ[4] × hᵖ[0] / n = 5 × 4 / 10 = 2"),
    (r"w_{ij} = \frac{|i-j|}{N-1}", "w[i, j] = |i − j| / (N − 1)"),
    (r"w_{ij} = \begin{cases} 0 & i = j \\ 1 & i \neq j \end{cases}",
     "w[i, j] = 0 (i = j), 1 (i ≠ j)"),
    (r"\kappa = 1 - \frac{0{,}45}{0{,}395} = 1 - 1{,}1392 = -0{,}1392",
     "κ = 1 − 0,45 / 0,395 = 1 − 1,1392 = −0,1392"),
    (r"z = \frac{\kappa}{\mathrm{SE}_0} = \frac{-0.1392}{0.0993} = -1.4015",
     "z = κ / SE₀ = −0.1392 / 0.0993 = −1.4015"),
    (r"\kappa \pm z_{0{,}975} \cdot \mathrm{SE}", "κ ± z₀,₉₇₅ × SE"),
])
def test_formulas_worked_out_by_hand(latex, text):
    assert formula_text.text(latex) == text


def test_a_long_sum_wraps_to_the_width_and_keeps_every_term():
    """The seed's den has ten terms: at 40 columns each line fits, breaks fall before a + or
    the =, and joined back it is the one equation."""
    result = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")
    latex = formulas.denominator_plugged(result, "en")
    lines = formula_text.lines(latex, 40)
    assert len(lines) > 2 and all(len(line) <= 40 for line in lines)
    assert all(line.startswith(("    + ", "    = ")) for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == formula_text.text(latex)


def test_equations_set_side_by_side_stay_apart():
    result = walkthrough("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")
    assert formula_text.equations(formulas.normalization_cell(result, 4, 0, "es")) == [
        "O[4, 0] / n = 4 / 10 = 0,4", "E[4, 0] / n = 2 / 10 = 0,2"]
