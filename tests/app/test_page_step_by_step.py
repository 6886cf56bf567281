"""The step-by-step page (/step_by_step), driven with AppTest like a learner would, in every
language.

Sources of truth: the engine (``qwk_explained.walkthrough`` on the same vectors, formatted by
``qwk_explained.present.numbers`` and ``qwk_explained.present.formulas``), the rating vectors
themselves (which items fall in a cell), and the locale files for every word.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from qwk_app.inputs import RATINGS_SUBMIT
from qwk_explained import parse_vector, walkthrough
from qwk_explained.present import formulas
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number, format_percent
from tests.app.helpers import assert_clean, chart_html, open_app, type_ratings

ACTUAL = "4,4,3,4,4,4,1,1,2,1"
PREDICTED = "0,2,1,0,0,0,1,1,2,1"
SEED = {"actual": ACTUAL, "predicted": PREDICTED}


def heading(lang: str, number: int) -> str:
    return STEPS[number - 1].heading(lang)


def texts(at) -> list[str]:
    """Every heading and paragraph on the page (current step, summaries, cell details)."""
    return [e.value for e in (*at.subheader, *at.markdown, *at.caption)]


def progress(at) -> str:
    return at.get("progress")[0].proto.text


def shown_step(at, lang: str) -> int:
    """The step the page shows, checked three ways: progress text, heading, URL."""
    steps = [n for n in range(1, 8) if heading(lang, n) in [s.value for s in at.subheader]]
    assert len(steps) == 1, steps
    step = steps[0]
    assert progress(at) == t(lang, "step_by_step.progress", step=str(step), total="7")
    assert at.query_params["step"] == str(step)
    assert at.session_state["shown_step"] == step
    later = [heading(lang, n) for n in range(step + 1, 8)]
    assert not [text for text in texts(at) if any(h in text for h in later)], "later steps shown"
    return step


def pick_cell(at, row: int, col: int):
    at.selectbox(key="step_by_step_cell_row_input").set_value(row)
    at.selectbox(key="step_by_step_cell_col_input").set_value(col)
    return at.run()


def latex_shown(at) -> list[str]:
    """The LaTeX shown on the page, without the ``$$`` fences AppTest keeps."""
    return [f.value.strip().removeprefix("$$").removesuffix("$$").strip() for f in at.latex]


def metric(at, label: str):
    return next(m for m in at.metric if m.label == label)


def in_page_order(node):
    """Every element under ``node`` in the order the page shows them."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from in_page_order(child)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_link_opens_step_3_and_buttons_move_through_the_steps(lang):
    """User flow: ?step=3 shows step 3 only; next and previous move and update the URL."""
    at = open_app("step_by_step", lang=lang, step=3, **SEED)
    assert_clean(at)
    assert at.title[0].value == t(lang, "step_by_step.title")
    assert shown_step(at, lang) == 3
    assert at.text_input(key="actual_input").value == ACTUAL
    at.button(key="step_next").click().run()
    assert shown_step(at, lang) == 4
    at.button(key="step_prev").click().run()
    at.button(key="step_prev").click().run()
    assert shown_step(at, lang) == 2
    at.button(key="step_prev").click().run()
    assert shown_step(at, lang) == 1
    assert at.button(key="step_prev").disabled
    assert_clean(at)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_next_and_previous_below_the_step_move_like_the_ones_above(lang):
    """User flow (UX review): a reader at the end of a step moves on without scrolling back up.
    The second pair has keys of its own and sits after the step and the followed cell."""
    at = open_app("step_by_step", lang=lang, step=6, **SEED)
    assert [(b.key, b.label) for b in at.button if b.key != RATINGS_SUBMIT][:4] == [
        ("step_prev", t(lang, "step_by_step.previous")),
        ("step_next", t(lang, "step_by_step.next")),
        ("step_prev_bottom", t(lang, "step_by_step.previous")),
        ("step_next_bottom", t(lang, "step_by_step.next"))]
    shown = [(e.type, getattr(e, "key", None) or getattr(e, "value", None))
             for e in in_page_order(at.main)]
    assert (shown.index(("subheader", heading(lang, 6)))
            < shown.index(("subheader", t(lang, "step_by_step.cell_heading")))
            < shown.index(("button", "step_prev_bottom"))), "below the step and the cell"
    at.button(key="step_next_bottom").click().run()
    assert shown_step(at, lang) == 7
    assert at.button(key="step_next_bottom").disabled and at.button(key="step_next").disabled
    at.button(key="step_prev_bottom").click().run()
    at.button(key="step_prev").click().run()
    assert shown_step(at, lang) == 5
    for _ in range(4):
        at.button(key="step_prev_bottom").click().run()
    assert shown_step(at, lang) == 1
    assert at.button(key="step_prev_bottom").disabled and at.button(key="step_prev").disabled
    assert not at.button(key="step_next_bottom").disabled
    assert_clean(at)


def test_the_bad_step_warning_is_shown_once():
    """User flow: the link's problem is said on arrival, not again after every click."""
    at = open_app("step_by_step", lang="tr", step="abc", **SEED)
    assert t("tr", "step_by_step.bad_step", total="7") in [w.value for w in at.warning]
    at.button(key="step_next_bottom").click().run()
    assert shown_step(at, "tr") == 2
    assert t("tr", "step_by_step.bad_step", total="7") not in [w.value for w in at.warning]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_and_page_switches_keep_step_vectors_and_cell(lang):
    """User flow: step 5, cell (4, 0); switch language, go to the walkthrough and come back."""
    at = open_app("step_by_step", lang=lang, step=5, **SEED)
    pick_cell(at, 4, 0)
    assert at.query_params["cell"] == "4,0"
    codes = list(LANGUAGES)
    other = codes[(codes.index(lang) + 1) % len(codes)]
    at.selectbox(key="lang").set_value(other).run()
    assert_clean(at)
    assert shown_step(at, other) == 5
    assert at.session_state["cell"] == (4, 0)
    assert at.selectbox(key="step_by_step_cell_row_input").value == 4
    assert (at.query_params["actual"], at.query_params["predicted"]) == (ACTUAL, PREDICTED)
    assert at.query_params["cell"] == "4,0" and at.query_params["lang"] == other
    at.switch_page("pages/walkthrough.py").run()
    assert "step" not in at.query_params
    at.switch_page("pages/step_by_step.py").run()
    assert_clean(at)
    assert shown_step(at, other) == 5
    assert at.query_params["cell"] == "4,0"
    assert at.text_input(key="predicted_input").value == PREDICTED


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("bad", ["abc", "0", "99"])
def test_bad_step_in_the_link_explains_and_shows_step_1(lang, bad):
    at = open_app("step_by_step", lang=lang, step=bad, **SEED)
    assert_clean(at)
    assert t(lang, "step_by_step.bad_step", total="7") in [w.value for w in at.warning]
    assert shown_step(at, lang) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_chosen_cell_lists_its_items_and_its_arithmetic(lang):
    """Against the vectors (items) and the engine (O, w, E, shares), at the last step."""
    at = open_app("step_by_step", lang=lang, step=7, **SEED)
    pick_cell(at, 4, 0)
    assert_clean(at)
    a, p = np.array(parse_vector(ACTUAL)), np.array(parse_vector(PREDICTED))
    items = [str(k + 1) for k in range(len(a)) if a[k] == 4 and p[k] == 0]
    assert items == ["1", "4", "5", "6"]
    listed = t(lang, "step_by_step.item_separator").join(items)
    assert t(lang, "step_by_step.cell_items", count=4, items=listed) in texts(at)
    engine = walkthrough(ACTUAL, PREDICTED)
    shown = latex_shown(at)
    for expected in (formulas.observed_cell(engine, 4, 0, lang),
                     formulas.weights_cell(engine, 4, 0, lang),
                     formulas.expected_cell(engine, 4, 0, lang)):
        assert expected in shown
    share_num = engine.weights[4, 0] * engine.observed[4, 0] / engine.n / engine.numerator
    share_den = engine.weights[4, 0] * engine.expected[4, 0] / engine.n / engine.denominator
    for name, share in (("num", share_num), ("den", share_den)):
        said = t(lang, f"step_by_step.share_{name}_text", share=format_percent(share, lang))
        assert said in texts(at)


def test_cell_with_many_items_is_capped_at_50():
    at = open_app("step_by_step", lang="en", step=1, actual=",".join(["2"] * 60 + ["1"]),
                  predicted=",".join(["1"] * 61))
    pick_cell(at, 2, 1)
    listed = ", ".join(str(k) for k in range(1, 51))
    assert t("en", "step_by_step.cell_items_more", count=60, items=listed, more="10") in texts(at)
    pick_cell(at, 1, 2)
    assert t("en", "step_by_step.cell_no_items", row=1, col=2) in texts(at)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_o_outlines_the_chosen_cell_and_its_cells_can_be_clicked(lang):
    """Step 1's O is the walkthrough's chart: it outlines the chosen cell (data-cell holds the
    positions: rating 3 of 0..4 is position 3), and its cells are buttons (a click follows the
    cell through :func:`qwk_app.widgets.follow_click`, as on the walkthrough)."""
    at = open_app("step_by_step", lang=lang, step=1, **SEED)
    pick_cell(at, 3, 1)
    assert_clean(at)
    html = chart_html(at, "observed")
    assert re.findall(r'class="qwk-cell[^"]*qwk-followed[^"]*" data-cell="([^"]+)"',
                      html) == ["3,1"]
    chart = next(element for element in at.get("bidi_component")
                 if element.proto.id.endswith("-chart_observed"))
    assert json.loads(chart.proto.json)["clickable"] is True
    assert not at.get("plotly_chart"), "no plotly figure on step 1 any more"


def test_cell_from_the_link_is_followed_and_a_bad_one_is_explained():
    at = open_app("step_by_step", lang="en", step=4, cell="4,0", **SEED)
    assert at.session_state["cell"] == (4, 0)
    assert formulas.expected_cell(walkthrough(ACTUAL, PREDICTED), 4, 0, "en") in latex_shown(at)
    at = open_app("step_by_step", lang="es", step=4, cell="9,9", **SEED)
    assert_clean(at)
    assert t("es", "step_by_step.bad_cell") in [w.value for w in at.warning]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_if_shows_the_engines_kappa_and_apply_shares_the_new_vector(lang):
    """Against the engine on the modified vectors; apply shares the new predicted text."""
    at = open_app("step_by_step", lang=lang, step=7, **SEED)
    at.number_input(key="whatif_item").set_value(2)
    at.selectbox(key="whatif_rating").set_value(4)
    at.run()
    assert_clean(at)
    before = walkthrough(ACTUAL, PREDICTED)
    after = walkthrough(ACTUAL, "0,4,1,0,0,0,1,1,2,1")
    assert metric(at, t(lang, "step_by_step.whatif_kappa_now")).value == format_number(
        before.kappa, lang)
    changed = metric(at, t(lang, "step_by_step.whatif_kappa_after"))
    assert changed.value == format_number(after.kappa, lang)
    assert changed.delta == format_number(after.kappa - before.kappa, lang)
    assert t(lang, "step_by_step.whatif_current", item="2", actual=4, predicted=2) in texts(at)
    at.button(key="whatif_apply").click().run()
    assert_clean(at)
    assert at.session_state["predicted"] == "0, 4, 1, 0, 0, 0, 1, 1, 2, 1"
    assert at.text_input(key="predicted_input").value == "0, 4, 1, 0, 0, 0, 1, 1, 2, 1"
    assert at.session_state["actual"] == ACTUAL, "the actual text is kept as typed"
    assert at.query_params["predicted"] == "0,4,1,0,0,0,1,1,2,1"
    assert metric(at, t(lang, "common.kappa")).value == format_number(after.kappa, lang)
    assert at.success[0].value == t(lang, "step_by_step.whatif_applied", item="2", rating=4)
    at.switch_page("pages/walkthrough.py").run()
    assert at.text_input(key="predicted_input").value == "0, 4, 1, 0, 0, 0, 1, 1, 2, 1"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undefined_kappa_in_what_if_is_explained_not_a_number(lang):
    """Both raters always say 2 on a 1..3 scale: den = 0, so kappa is undefined before."""
    at = open_app("step_by_step", lang=lang, step=7, actual="2,2,2", predicted="2,2,2", min=1,
                  max=3)
    assert_clean(at)
    assert metric(at, t(lang, "step_by_step.whatif_kappa_now")).value == t(lang, "common.undefined")
    reason = t(lang, "undefined.no_chance_disagreement")
    warnings = [element.value for element in at.warning]
    assert t(lang, "step_by_step.whatif_undefined_before", reason=reason) in warnings
    at.selectbox(key="whatif_rating").set_value(3).run()
    after = walkthrough([2, 2, 2], [3, 2, 2], min_rating=1, max_rating=3)
    changed = metric(at, t(lang, "step_by_step.whatif_kappa_after"))
    assert changed.value == format_number(after.kappa, lang) and not changed.delta


def test_bad_input_keeps_the_learner_on_the_same_step():
    """Bad ratings (their message and kept text: test_bad_ratings.py) change no step: the
    learner stays on step 4 with the last valid ratings and can still move on."""
    at = open_app("step_by_step", lang="tr", step=4, **SEED)
    type_ratings(at, "4, 4, x")
    assert_clean(at)
    assert shown_step(at, "tr") == 4
    assert at.button(key="step_next").disabled is False


def test_nothing_valid_yet_explains_what_is_missing():
    at = open_app("step_by_step", lang="zh", step=2, actual="", predicted="1,2")
    assert_clean(at)
    assert t("zh", "step_by_step.nothing_yet") in [i.value for i in at.info]
    assert at.error, "the empty field says what is missing"
    assert at.query_params["step"] == "2"
