"""Weights of one's own in the app: the ``custom`` weighting, its editor, its link.

Sources of truth: kappa computed here directly from the definition, 1 - sum(w O) / sum(w E), with
O counted from the two rating vectors and E = outer(actual histogram, predicted histogram) / n;
each problem's message as the locales word it (:func:`qwk_explained.present.i18n.message`); the
page's own link (the address bar), opened again in a new session.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from qwk_app import state, weights_editor
from qwk_explained import InputError, walkthrough
from qwk_explained.present.i18n import LANGUAGES, message, t
from qwk_explained.teaching.custom_weights import starting_weights
from tests.app.helpers import assert_clean, open_app
from tests.hostile import HOSTILE, HOSTILE_TEXT, assert_translated

ACTUAL, PREDICTED = state.DEFAULTS["actual"], state.DEFAULTS["predicted"]
LOCALES = {"en": "en-GB", "es": "es-ES", "tr": "tr-TR", "zh": "zh-CN"}
EDITOR = "weights_typed_input"


def kappa_by_definition(actual: str, predicted: str, w: np.ndarray) -> float | None:
    """1 - sum(w O) / sum(w E) on the scale from the lowest to the highest rating."""
    a, p = (np.array([int(x) for x in text.split(",")]) for text in (actual, predicted))
    low = min(a.min(), p.min())
    size = max(a.max(), p.max()) - low + 1
    observed = np.zeros((size, size))
    np.add.at(observed, (a - low, p - low), 1)
    expected = np.outer(observed.sum(1), observed.sum(0)) / len(a)
    den = (w * expected).sum()
    return None if den == 0 else 1 - (w * observed).sum() / den


def shown_kappa(at) -> float | None:
    """The kappa of the result the pages show (the summary's metric is this number)."""
    return at.session_state[state.LAST_VALID].kappa


def kappa_metric(at) -> str:
    return next(m.value for m in at.metric if m.label == t(at.session_state["lang"],
                                                         "common.kappa"))


def choose_custom(lang: str):
    at = open_app(locale=LOCALES[lang], lang=lang)
    at.sidebar.radio(key="weights_input").set_value("custom").run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("lang", LANGUAGES)
def test_choose_custom_edit_a_cell_and_share_it(lang):
    at = choose_custom(lang)
    quadratic = walkthrough([int(x) for x in ACTUAL.split(",")],
                            [int(x) for x in PREDICTED.split(",")]).kappa
    # The editor starts from quadratic weights on the scale (5 ratings): the same kappa.
    w = starting_weights("quadratic", 5)
    assert at.sidebar.text_area(key=EDITOR).value == weights_editor.editor_text(w)
    assert at.title[0].value == t(lang, "walkthrough.title_custom")
    assert shown_kappa(at) == pytest.approx(quadratic)

    # Edit one cell (row 5, column 1: actual 4 predicted 0, which these data have 4 times).
    lines = at.sidebar.text_area(key=EDITOR).value.splitlines()
    lines[4] = lines[4].replace("1", "0,5", 1)  # a decimal comma, as a Spanish teacher types it
    at.sidebar.text_area(key=EDITOR).set_value("\n".join(lines)).run()
    assert_clean(at)
    w[4, 0] = 0.5
    edited = kappa_by_definition(ACTUAL, PREDICTED, w)
    assert shown_kappa(at) == pytest.approx(edited) and edited != pytest.approx(quadratic)
    assert at.session_state[state.LAST_VALID].weights_name == "custom"
    assert kappa_metric(at).replace(",", ".").lstrip("−-0") in f"{edited:.4f}"
    assert any(c.value == t(lang, "weights_note.asymmetric") for c in at.sidebar.caption)

    # An invalid edit: its reason under the editor in the learner's language, the text kept,
    # kappa still the last valid matrix's.
    bad = "\n".join(lines).replace("0,5", "-2", 1)
    at.sidebar.text_area(key=EDITOR).set_value(bad).run()
    assert_clean(at)
    reason = message(lang, InputError("weights_negative", row=5, column=1, value="-2"))
    assert [e.value for e in at.sidebar.error] == [reason]
    assert at.sidebar.text_area(key=EDITOR).value == bad
    assert shown_kappa(at) == pytest.approx(edited)

    # The link carries the last valid matrix: opened in a new session, the same kappa.
    params = dict(at.query_params)
    assert params["weights"] == "custom" and params["w"].startswith("0,0.0625,")
    again = open_app(locale=LOCALES[lang], **{k: v[0] if isinstance(v, list) else v
                                               for k, v in params.items()})
    assert_clean(again)
    assert shown_kappa(again) == pytest.approx(edited)
    assert not again.error
    matrix = weights_editor.read_typed(again.sidebar.text_area(key=EDITOR).value, 5)
    assert np.array_equal(matrix, w)


@pytest.mark.parametrize("start", ["linear", "unweighted"])
def test_the_learner_picks_the_start(start):
    at = choose_custom("en")
    at.sidebar.selectbox(key="weights_start_input").set_value(start).run()
    assert_clean(at)
    w = starting_weights(start, 5)
    assert at.sidebar.text_area(key=EDITOR).value == weights_editor.editor_text(w)
    assert shown_kappa(at) == pytest.approx(kappa_by_definition(ACTUAL, PREDICTED, w))


def test_a_matrix_of_another_size_is_named_and_the_page_keeps_the_last_result():
    at = choose_custom("es")
    kappa = shown_kappa(at)
    at.sidebar.text_area(key=EDITOR).set_value("0 1\n1 0").run()
    assert_clean(at)
    wrong = message("es", InputError("weights_wrong_size", given=2, size=5))
    assert [e.value for e in at.sidebar.error] == [wrong]
    assert shown_kappa(at) == pytest.approx(kappa)
    # A rating outside 0..4 makes the scale larger than the kept matrix: said with the data.
    at.session_state["actual"] = ACTUAL.replace("4", "5", 1)
    at.run()
    assert_clean(at)
    assert any(e.value == message("es", InputError("weights_wrong_size", given=5, size=6))
               for e in at.main.error)
    assert shown_kappa(at) == pytest.approx(kappa)


def test_kappa_undefined_with_custom_weights_is_explained():
    # Both raters use only 0 and 1 on a 0..2 scale; w weighs only the pairs with rating 2, which
    # chance never produces: den = 0.
    w = "0,0,1;0,0,1;1,1,0"
    at = open_app(locale="en-GB", lang="en", actual="0,1,0,1", predicted="0,1,1,0",
                  min=0, max=2, weights="custom", w=w)
    assert_clean(at)
    result = at.session_state[state.LAST_VALID]
    assert result.kappa is None and result.undefined_reason == "chance_pairs_free"
    assert kappa_metric(at) == t("en", "common.undefined")
    page = " ".join(m.value for m in at.markdown)
    assert "nan" not in page.lower().split()


@pytest.mark.parametrize(("w", "code"), [
    (None, "weights_custom_missing"), ("0,1;1", "weights_not_square"),
    ("0,-1;1,0", "weights_negative"), ("0,nan;1,0", "weights_not_number"),
    ("0,0;0,0", "weights_all_zero"), ("0,1e999;1,0", "weights_not_number"),
])
def test_a_forged_link_value_gets_a_message(w, code):
    params = {"weights": "custom"} if w is None else {"weights": "custom", "w": w}
    at = open_app(locale="tr-TR", lang="tr", **params)
    assert_clean(at)
    with pytest.raises(InputError) as caught:
        state.link_weights(w)
    assert caught.value.code == code
    assert message("tr", caught.value) in [e.value for e in at.error]
    assert at.session_state["weights"] == "quadratic"
    assert "w" not in dict(at.query_params)


@HOSTILE
@given(HOSTILE_TEXT)
def test_any_link_matrix_is_kept_checked_or_refused_with_a_message(text):
    try:
        kept = state.link_weights(text)
    except InputError as error:
        assert_translated(error)
    else:  # kept the short way, and read back to the same matrix
        assert state.link_weights(kept) == kept
        assert state.Settings("custom", "range", None, None, kept).weighting().shape[0] == (
            kept.count(";") + 1)


@pytest.mark.parametrize("page", ["step_by_step", "checker", "theory", "compare"])
def test_the_other_pages_follow_the_matrix(page):
    w = "0,1,4,9,16;1,0,1,4,9;4,1,0,1,4;9,4,1,0,1;16,9,4,1,0"  # squared distances, not scaled
    at = open_app(page, locale="en-GB", lang="en", weights="custom", w=w)
    assert_clean(at)
    assert not at.error
    assert dict(at.query_params)["w"] == w
    if page != "compare":
        assert at.session_state[state.LAST_VALID].weights_name == "custom"
    if page == "theory":  # the weightings' table has a row for the learner's matrix
        rows = [row for table in at.table for row in table.value.iloc[:, 0].tolist()]
        assert t("en", "common.weights.custom") in rows


@pytest.mark.parametrize("page", ["pitfalls", "thresholds"])
def test_pages_of_named_weightings_say_they_use_quadratic(page):
    w = "0,1,1,1,1;1,0,1,1,1;1,1,0,1,1;1,1,1,0,1;1,1,1,1,0"
    at = open_app(page, locale="zh-CN", lang="zh", weights="custom", w=w)
    assert_clean(at)
    assert t("zh", f"{page}.custom_weights") in [i.value for i in at.info]


@HOSTILE
@given(HOSTILE_TEXT)
def test_anything_typed_in_the_editor_is_a_matrix_or_a_reason(text):
    try:
        matrix = weights_editor.read_typed(text, None)
    except InputError as error:
        assert_translated(error)
    else:
        assert np.isfinite(matrix).all() and (matrix >= 0).all() and (matrix > 0).any()


def test_a_huge_paste_is_refused_before_it_is_read():
    with pytest.raises(InputError) as caught:
        weights_editor.read_typed("0 " * 20_000, 5)
    assert caught.value.code == "weights_too_long"
    assert_translated(caught.value)


def test_the_compare_page_names_a_matrix_of_another_size():
    at = open_app("compare", locale="es-ES", lang="es", weights="custom", w="0,1;1,0")
    assert_clean(at)
    assert at.error and all("{" not in e.value for e in at.error)
    assert dict(at.query_params)["w"] == "0,1;1,0"  # kept: the learner fixes it in the editor
