"""The followed cell links every step, and items move from one cell of O to another.

Sources of truth: the engine (``qwk_explained.walkthrough``; ``teaching.cells.move_item`` and
``items_in_cell``) formatted by ``present.numbers``; the formulas of ``present.formulas`` (the
charts' explanations must say the same arithmetic); the seeds' worked example (actual rating 4,
predicted 0: E = 5 · 4 / 10 = 2 on the Spanish seed).
"""

from __future__ import annotations

import re
from html import unescape

import numpy as np
import pytest

from qwk_app import links, widgets
from qwk_explained import walkthrough
from qwk_explained.present import charts, formula_text, formulas
from qwk_explained.present.catalogue import FIGURES
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.cells import items_in_cell, move_item
from tests.app.helpers import assert_clean, chart_html, open_app

SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}
MATRICES = tuple(name for name in FIGURES if name != "histograms")


def seed():
    return walkthrough(SEED["actual"], SEED["predicted"])


# --- the charts ---------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_linked_cell_is_outlined_in_every_matrix_and_its_two_bars(lang):
    """?cell=4,0: every matrix outlines (4, 0), the histogram marks bar 4 of the actual
    ratings and bar 0 of the predicted ones; step 1 lists the cell's items, step 3 writes
    h^a_4 and h^p_0; the link keeps the cell."""
    at = open_app(lang=lang, cell="4,0", **SEED)
    assert_clean(at)
    for which in MATRICES:
        html = chart_html(at, which)
        assert re.findall(r'class="qwk-cell[^"]*qwk-followed[^"]*" data-cell="([^"]+)"',
                          html) == ["4,0"], which
    bars = chart_html(at, "histograms")
    assert sorted(re.findall(r'qwk-followed" data-bar="([^"]+)"', bars)) == ["a:4", "p:0"]
    result = seed()
    items = t(lang, "step_by_step.item_separator").join(
        str(k) for k in items_in_cell(result, 4, 0))
    shown = [m.value for m in at.markdown]
    assert t(lang, "step_by_step.cell_items", count=4, items=items) in shown
    shown = [f.value.strip("$\n") for f in at.latex]  # st.latex wraps its source in $$
    assert formulas.histogram_cell(result, 4, lang, "a") in shown
    assert formulas.histogram_cell(result, 0, lang, "p") in shown
    assert at.query_params["cell"] == "4,0"
    assert at.selectbox(key="cell_row_input").value == 4


def _tips(html: str) -> dict[str, str]:
    """Each cell's explanation, as the browser reads it from the cell's ``data-tip``."""
    found = re.findall(r'data-cell="([0-9]+,[0-9]+)"[^>]*data-tip="([^"]*)"', html)
    return {cell: unescape(tip) for cell, tip in found}


def test_each_cell_explains_its_arithmetic():
    """Hovering E's cell (4, 0) shows 5 · 4 / 10 = 2; w's cell its formula with the positions;
    w·O's cell its product; the numbers are the engine's. The explanations wait in attributes,
    not as elements (the browser draws one when its cell is hovered or focused)."""
    result = seed()
    expected = charts.walkthrough_chart(result, "expected", "en")
    assert "qwk-tip" not in expected
    assert ("h<sup>a</sup><sub>4</sub> · h<sup>p</sup><sub>0</sub> / n = 5 · 4 / 10 = 2"
            in _tips(expected)["4,0"])
    weights = charts.walkthrough_chart(result, "weights", "en")
    assert "(4−0)²/(5−1)² = 16/16 = 1" in _tips(weights)["4,0"]
    product = charts.walkthrough_chart(result, "weighted_observed", "es")
    assert "w<sub>4,0</sub> · O<sub>4,0</sub> / n = 1 · 0,4 = 0,4" in _tips(product)["4,0"]
    for lang in LANGUAGES:
        tips = _tips(charts.walkthrough_chart(result, "expected", lang))
        assert len(tips) == result.size ** 2
        assert t(lang, "charts.cell", row=4, col=0) in tips["4,0"]


def _numbers(text: str) -> list[str]:
    # Every matrix holds non-negative values: a minus is always a subtraction here.
    return re.findall(r"[0-9]+(?:[.,][0-9]+)?", text)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("ratings", [SEED, {"actual": "1,5,9,1,5", "predicted": "1,9,9,5,5"}])
def test_every_hover_says_the_arithmetic_of_its_cell_formula(lang, ratings):
    """A chart's cell explains itself in HTML, written for speed beside the formula that steps
    and documents show (``FIGURES[name].cell``): both hold the same numbers, the same result."""
    result = walkthrough(ratings["actual"], ratings["predicted"], scale="observed")
    for name in MATRICES:
        for i in range(result.size):
            for j in range(result.size):
                tip = re.sub(r"<su[bp]>[^<]*</su[bp]>", "", charts._tip(result, name, i, j, lang))
                formula = formula_text.text(FIGURES[name].cell(result, i, j, lang))
                said = _numbers(re.sub(r"\[[^\]]*\]", "", formula))
                shown = _numbers(tip)
                assert said[-1] == shown[-1], (name, i, j)
                assert not [n for n in set(said) if said.count(n) > shown.count(n)], \
                    (name, i, j, tip, formula)


def test_cell_numbers_fit_a_ten_rating_scale():
    """Ten ratings (the random generator's maximum): 3 decimals, never a non-zero shown as 0."""
    assert charts.cell_decimals(5) == 4 and charts.cell_decimals(10) == 3
    assert charts.cell_text(0.0004, "en", 3) == "<0.001"
    assert charts.cell_text(0.0004, "tr", 3) == "<0,001"
    assert charts.cell_text(0.0, "en", 3) == "0"
    rng = np.random.default_rng(3)
    actual, predicted = rng.integers(0, 10, 60), rng.integers(0, 10, 60)
    result = walkthrough(actual, predicted, min_rating=0, max_rating=9)
    cells = re.findall(r'<span class="qwk-value">([^<]*)</span>',
                       charts.walkthrough_chart(result, "expected_norm", "en"))
    assert len(cells) == 100
    assert all(len(text) <= 6 for text in cells)


def test_changed_cells_are_the_cells_whose_value_changed():
    before = seed()
    after = walkthrough("4,4,3,4,4,4,1,1,2,2", SEED["predicted"])
    changed = charts.changed_cells(before, after, "observed")
    assert changed is not None
    assert {tuple(c) for c in np.argwhere(changed)} == {(1, 1), (2, 1)}
    other_scale = walkthrough("4,4,3,4,4,4,1,1,2,9", "0,2,1,0,0,0,1,1,2,9")
    assert charts.changed_cells(before, other_scale, "observed") is None


# --- clicks and moves ---------------------------------------------------------------------------

def test_a_click_follows_the_clicked_cell_and_ignores_anything_else():
    result = seed()
    session: dict = {}
    clicked = widgets.follow_click(result, session=session)
    clicked("4,0")
    assert session["cell"] == (4, 0)
    for bad in ("9,9", "x", "4", "-1,0", "<b>"):
        clicked(bad)
        assert session["cell"] == (4, 0)
    assert links.cell_from_trigger("2,3", 5) == (2, 3)


def test_in_move_mode_a_click_moves_one_item_of_the_followed_cell_there():
    """Move mode: the followed cell (4, 0) gives one item to the clicked cell (4, 1); both
    vectors are the engine's move, the moved item is followed, and undo puts it back."""
    result = seed()
    session: dict = {"cell": (4, 0), widgets.CLICK_ACTION_KEY: "move", **SEED}
    widgets.follow_click(result, session=session)("4,1")
    moved = move_item(result, (4, 0), (4, 1))
    assert session["actual"] == ", ".join(map(str, moved.actual.tolist()))
    assert session["predicted"] == ", ".join(map(str, moved.predicted.tolist()))
    assert session["cell"] == (4, 1)
    after = walkthrough(session["actual"], session["predicted"])
    assert after.observed[4, 0] == result.observed[4, 0] - 1
    assert after.observed[4, 1] == result.observed[4, 1] + 1
    from qwk_app import state

    state.undo(session=session)
    assert (session["actual"], session["predicted"]) == (SEED["actual"], SEED["predicted"])
    # While the texts are not the result shown (being fixed, or an upload), a click only follows.
    widgets.follow_click(result, movable=False, session=session)("4,1")
    assert (session["actual"], session["predicted"]) == (SEED["actual"], SEED["predicted"])
    assert session["cell"] == (4, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_nudge_moves_one_item_and_every_step_follows(lang):
    """User flow: with cell (4, 0) followed, "Predicted +1" -> one item now in (4, 1): kappa is
    the engine's for the new vectors, the link follows the item, undo is offered."""
    at = open_app(lang=lang, cell="4,0", **SEED)
    at.button(key="move_predicted_up").click().run()
    assert_clean(at)
    moved = move_item(seed(), (4, 0), (4, 1))
    after = walkthrough(moved.actual, moved.predicted)
    assert next(m.value for m in at.metric if m.label == t(lang, "common.kappa")) == (
        format_number(after.kappa, lang))
    assert at.query_params["cell"] == "4,1"
    assert at.query_params["predicted"] == ",".join(map(str, moved.predicted.tolist()))
    assert [b for b in at.button if b.key == "undo_move"]
    assert at.button(key="move_predicted_down").disabled is False
    at.button(key="undo_move").click().run()
    assert at.query_params["predicted"] == SEED["predicted"]


def test_nudges_off_the_scale_or_from_an_empty_cell_are_disabled():
    at = open_app(lang="en", cell="4,4", **SEED)  # empty cell, last row and column
    for name in ("predicted_down", "predicted_up", "actual_down", "actual_up"):
        assert at.button(key=f"move_{name}").disabled
    at = open_app(lang="en", cell="4,0", **SEED)
    assert at.button(key="move_predicted_down").disabled  # no rating below 0
    assert not at.button(key="move_actual_down").disabled


# --- num and den in full --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_num_and_den_are_written_out_in_full_and_fit_a_phone(lang):
    """Every non-zero term, then the total; each line within a phone's width."""
    rng = np.random.default_rng(11)
    for size in (3, 5, 10):
        actual, predicted = rng.integers(0, size, 40), rng.integers(0, size, 40)
        result = walkthrough(actual, predicted)
        for latex, values in ((formulas.numerator_plugged(result, lang), result.observed_norm),
                              (formulas.denominator_plugged(result, lang),
                               result.expected_norm)):
            assert latex.count(r"\cdot") == int(np.count_nonzero(result.weights * values))
            assert r"\dots" not in latex
            lines = latex.split(r"\\")
            assert all(formulas.text_width(line) <= formulas.LINE_WIDTH for line in lines), latex


def test_a_move_is_said_in_a_toast_and_undo_waits_in_its_place():
    """Layout (the review's second click that landed on another row): after a move nothing is
    inserted above the matrices. Undo is always in the row of nudges, greyed out until an item
    moved; what moved is said once, in a toast (the locale's sentence, the engine's item)."""
    at = open_app(lang="en", cell="4,0", **SEED)
    assert at.button(key="undo_move").disabled
    assert not at.toast
    at.button(key="move_predicted_up").click().run()
    moved = move_item(seed(), (4, 0), (4, 1))
    said = t("en", "undo.move", item=moved.item, source="4, 0", target="4, 1")
    assert [toast.value for toast in at.toast] == [said]
    assert said not in [info.value for info in at.info]
    assert at.button(key="undo_move").disabled is False
    at.run()  # any other rerun: the toast is not repeated
    assert not at.toast
