"""The rating fields, driven with AppTest: a sent form updates the steps, nothing typed is lost.

The fields are one form that the browser sends itself (on Enter, after a typing pause, a longer
one while the lists differ in length: ``tests/browser/test_live.py`` drives that part); here
:func:`tests.app.helpers.type_ratings` sends it as the browser does. Sources of truth: the engine
(``qwk_explained.walkthrough``) formatted by ``present.numbers``; the locale files for every
sentence; Streamlit's own widget message (``set_value`` is what makes a browser replace the text
being typed).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_app.compute import _TRAILING_SIGN, typed_text
from qwk_app.inputs import HALF_PAIR_PAUSE_MS, LIVE_PAUSE_MS, RATINGS_SUBMIT
from qwk_explained import walkthrough
from qwk_explained.core.parse import BRACKETS, SEPARATORS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import BY_NAME
from tests.app.helpers import assert_clean, chart_html, open_app, type_ratings

SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}


def kappa(at, lang: str) -> str:
    return next(m.value for m in at.metric if m.label == t(lang, "common.kappa"))


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def hold_data(at) -> dict:
    """What the page sent to the browser's holder of the rating form."""
    return next(json.loads(c.proto.json) for c in at.get("bidi_component")
                if c.proto.id.endswith("-ratings_hold"))


def test_the_fields_are_one_form_the_browser_sends_and_not_rewritten_on_every_run():
    """The two fields are one form (Enter does not send it: the browser decides, with the
    parser's own separators and the page's pauses); a rerun that changes nothing does not send
    their value back (a browser would then replace the text being typed, caret and all)."""
    at = open_app(lang="en", **SEED)
    form = at.button(key=RATINGS_SUBMIT).proto.form_id
    assert form
    for key in ("actual_input", "predicted_input"):
        assert at.text_input(key=key).proto.form_id == form
    assert hold_data(at) == {"kind": "hold", "fields": ["actual_input", "predicted_input"],
                             "submit": RATINGS_SUBMIT, "separators": SEPARATORS.pattern,
                             "brackets": BRACKETS, "pause": LIVE_PAUSE_MS,
                             "longPause": HALF_PAIR_PAUSE_MS, "lang": "en"}
    assert LIVE_PAUSE_MS < HALF_PAIR_PAUSE_MS
    at.selectbox(key="cell_row_input").set_value(4).run()  # any rerun that is not an edit
    assert_clean(at)
    assert not at.text_input(key="actual_input").proto.set_value
    assert not at.text_input(key="predicted_input").proto.set_value


def test_typed_text_waits_for_the_form_and_both_fields_arrive_in_one_run():
    """Text typed but not sent changes nothing; one send brings both fields' new text at once,
    and the change is said from before both edits (the engine's two kappas)."""
    at = open_app(lang="en", **SEED)
    at.text_input(key="actual_input").input(SEED["actual"] + ", 3").run()
    assert at.session_state["actual"] == SEED["actual"]
    assert not said_changes(at, "en")
    type_ratings(at, SEED["actual"] + ", 3", SEED["predicted"] + ", 2")
    assert_clean(at)
    assert (at.session_state["actual"], at.session_state["predicted"]) == (
        SEED["actual"] + ", 3", SEED["predicted"] + ", 2")
    before = walkthrough(SEED["actual"], SEED["predicted"]).kappa
    after = walkthrough(SEED["actual"] + ",3", SEED["predicted"] + ",2").kappa
    assert kappa(at, "en") == format_number(after, "en")
    assert said_changes(at, "en") == [changed_caption("en", before, after)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typing_updates_kappa_and_says_what_it_was(lang):
    """User flow: a new actual vector -> the engine's kappa, its previous value and the change,
    and the changed cells of O and E marked on that run only."""
    at = open_app(lang=lang, **SEED)
    before = walkthrough(SEED["actual"], SEED["predicted"])
    typed = "4,4,3,4,4,4,1,1,2,2"
    after = walkthrough(typed, SEED["predicted"])
    type_ratings(at, typed)
    assert_clean(at)
    assert kappa(at, lang) == format_number(after.kappa, lang)
    change = after.kappa - before.kappa
    said = t(lang, "live.changed", before=format_number(before.kappa, lang),
             change=("+" if change > 0 else "") + format_number(change, lang))
    assert said in captions(at)
    assert 'data-cell="9,2"' not in chart_html(at, "observed")  # positions on a 0..4 scale
    assert "qwk-changed" in chart_html(at, "observed")
    assert "qwk-changed" in chart_html(at, "expected")
    at.run()  # a rerun for another reason: the change is still said, the cells not marked again
    assert said in captions(at)
    assert "qwk-changed" not in chart_html(at, "observed")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_half_typed_list_is_counted_not_reported_as_an_error(lang):
    """While a list is being typed it is shorter than the other: no error, both lengths said,
    the last complete result still shown; a sign at the end waits for its digits."""
    at = open_app(lang=lang, **SEED)
    type_ratings(at, "4, 4, ")
    assert_clean(at)
    assert not at.error
    assert t(lang, "inputs.typing_lengths", n_actual=format_number(2, lang),
             n_predicted=format_number(10, lang)) in captions(at)
    assert t(lang, "live.typing") in captions(at)
    assert t(lang, "walkthrough.stale") not in [w.value for w in at.warning]
    assert kappa(at, lang) == format_number(walkthrough(SEED["actual"], SEED["predicted"]).kappa,
                                            lang)
    type_ratings(at, "4,4,3,4,4,4,1,1,2,-")
    assert not at.error
    assert t(lang, "inputs.typing_sign") in captions(at)
    assert at.text_input(key="actual_input").value == "4,4,3,4,4,4,1,1,2,-"


def test_a_real_mistake_is_still_an_error():
    """Letters are not unfinished typing: the translated error, and the stale warning."""
    at = open_app(lang="es", **SEED)
    type_ratings(at, "4, x")
    assert at.error
    assert t("es", "walkthrough.stale") in [w.value for w in at.warning]


def test_typed_text_sets_aside_only_a_trailing_sign():
    assert typed_text("4, 4, -") == ("4, 4,", True)
    assert typed_text("4，4，－") == ("4，4，", True)  # full-width, as Chinese keyboards type
    assert typed_text("4, -4") == ("4, -4", False)
    assert typed_text("4, 4") == ("4, 4", False)


@settings(max_examples=300, deadline=None)
@given(head=st.text(alphabet="4-+−＋－ ,;、，；\n\t\u3000x", max_size=12),
       tail=st.text(alphabet="4-+−＋－ ,;、，；\n\t\u3000x", max_size=12))
def test_typed_text_reads_only_the_end_as_a_whole_search_would(head, tail):
    """Only the end of a paste is searched for a trailing sign (a whole scan of megabytes held
    every other session); the answer is the whole text's."""
    text = head + tail
    match = _TRAILING_SIGN.search(text)
    assert typed_text(text) == ((text, False) if match is None
                                else (text[:match.start(1)].rstrip(), True))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_example_says_what_it_replaced_and_undo_puts_it_back(lang):
    """Regression: an example button wiped 30 typed ratings with no way back."""
    at = open_app(lang=lang, **SEED)
    at.button_group(key="preset_pick").set_value("perfect").run()
    example = BY_NAME["perfect"]
    assert at.text_input(key="actual_input").value == ", ".join(map(str, example.actual))
    assert t(lang, "undo.example", example=t(lang, "presets.perfect")) in [
        i.value for i in at.info]
    at.button(key="undo_inputs").click().run()
    assert_clean(at)
    assert at.text_input(key="actual_input").value == SEED["actual"]
    assert at.text_input(key="predicted_input").value == SEED["predicted"]
    assert not [b for b in at.button if b.key == "undo_inputs"]


def test_typing_after_an_example_withdraws_the_undo():
    """Undo would now take back the typing too: it is only offered right after a replacement."""
    at = open_app(lang="en", **SEED)
    at.button_group(key="preset_pick").set_value("perfect").run()
    type_ratings(at, "1, 2, 3, 4, 5")
    assert not [b for b in at.button if b.key == "undo_inputs"]


@pytest.mark.parametrize(("weights", "key"), [("quadratic", "walkthrough.title"),
                                              ("linear", "walkthrough.title_linear"),
                                              ("unweighted", "walkthrough.title_unweighted")])
def test_the_title_follows_the_weighting(weights, key):
    for lang in LANGUAGES:
        at = open_app(lang=lang, weights=weights, **SEED)
        assert at.title[0].value == t(lang, key)


def test_the_pitfalls_examples_can_be_undone_too():
    """The pitfalls page's example buttons replace the typed ratings as well: undo is offered."""
    at = open_app("pitfalls", lang="tr", **SEED)
    at.button(key="pitfalls_load_constant").click().run()
    assert at.text_input(key="actual_input").value != SEED["actual"]
    at.button(key="undo_pitfalls").click().run()
    assert_clean(at)
    assert at.text_input(key="actual_input").value == SEED["actual"]


def changed_caption(lang: str, before: float, after: float) -> str:
    """What the page says after a change from kappa ``before`` to ``after``."""
    change = after - before
    return t(lang, "live.changed", before=format_number(before, lang),
             change=("+" if change > 0 else "") + format_number(change, lang))


def said_changes(at, lang: str) -> list[str]:
    """The captions that say what kappa was before the last change."""
    prefix = t(lang, "live.changed", before="\x00", change="").split("\x00", 1)[0]
    return [c for c in captions(at) if c.startswith(prefix)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_adding_an_item_measures_the_change_from_before_both_edits(lang):
    """User flow: one rating typed at the end of the actual list, then of the predicted list.
    Between the two the lists differ in length (the last result stays, no change said); after
    the second, the change is measured from the seed's kappa (the engine's two values)."""
    at = open_app(lang=lang, **SEED)
    type_ratings(at, SEED["actual"] + ", 3")
    assert_clean(at)
    assert not said_changes(at, lang)
    type_ratings(at, predicted=SEED["predicted"] + ", 2")
    assert_clean(at)
    before = walkthrough(SEED["actual"], SEED["predicted"]).kappa
    after = walkthrough(SEED["actual"] + ",3", SEED["predicted"] + ",2").kappa
    assert kappa(at, lang) == format_number(after, lang)
    assert said_changes(at, lang) == [changed_caption(lang, before, after)]


def test_a_list_retyped_rating_by_rating_is_never_compared_as_a_mixed_pair():
    """User flow: a learner replaces both lists with their own, typing the actual one rating by
    rating. Once it is as long as the old predictions the two make a pair that means nothing:
    its kappa is shown (it is what the fields hold), but no change is said to or from it; when
    the predictions are typed too, the change is measured from the seed (the engine's kappas)."""
    mine_actual, mine_predicted = "1,2,3,4,0,1,2,3,4,0", "1,2,3,3,0,1,2,4,4,1"
    at = open_app(lang="en", **SEED)
    for n in range(1, 11):
        type_ratings(at, mine_actual[:2 * n - 1])
    assert_clean(at)
    mixed = walkthrough(mine_actual, SEED["predicted"]).kappa
    assert kappa(at, "en") == format_number(mixed, "en")
    assert not said_changes(at, "en")
    for n in range(1, 11):
        type_ratings(at, predicted=mine_predicted[:2 * n - 1])
    assert_clean(at)
    before = walkthrough(SEED["actual"], SEED["predicted"]).kappa
    after = walkthrough(mine_actual, mine_predicted).kappa
    assert kappa(at, "en") == format_number(after, "en")
    assert said_changes(at, "en") == [changed_caption("en", before, after)]


def test_another_models_predictions_pasted_at_once_are_a_real_change():
    """A whole predicted list of the same length replaced at once (another model on the same
    items) is what the learner compares: the change is said, from the seed's kappa; also after
    a rating typed at the end of a list and deleted again."""
    other = "0,2,1,0,1,0,1,1,2,2"
    at = open_app(lang="en", **SEED)
    type_ratings(at, SEED["actual"] + ", 3")
    type_ratings(at, SEED["actual"])
    type_ratings(at, predicted=other)
    before = walkthrough(SEED["actual"], SEED["predicted"]).kappa
    after = walkthrough(SEED["actual"], other).kappa
    assert said_changes(at, "en") == [changed_caption("en", before, after)]
