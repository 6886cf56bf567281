"""A language switch keeps every setting and everything typed, on every page, in any order, as a
browser drives it (reliability report, H1).

The browser keeps the *label* a radio or select box shows and sends it back with each rerun until
the server sets another one (Streamlit 1.67); after a switch, that is the old language's label
(:class:`tests.app.helpers.Browser` sends what a browser sends). Before the fix, the second switch
put "Quadratic" into the weighting and "Every rating from the lowest to the highest" into the
scale: every page said "Unknown scale", the title was a raw locale key, the share link carried
the labels, and the pitfalls page crashed.

Sources of truth: the settings' codes (``qwk_explained.core.types``, ``qwk_app.state``), the locale
files (titles, labels), the address bar (``at.query_params``, what the share box links to).
"""

from __future__ import annotations

import pytest

from qwk_app import practice, state
from qwk_app.inputs import RATINGS_SUBMIT
from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.exercises import make_exercise
from tests.app.helpers import PAGE_SLUGS, Browser, assert_clean, open_app

#: Every language, twice, starting with a switch away from English.
TWICE = [*(code for code in LANGUAGES if code != "en"), "en"] * 2
SETTINGS = {"weights": "linear", "scale": "observed"}
ACTUAL, PREDICTED = "0, 1, 2, 2, 1, 3", "0, 2, 2, 1, 1, 3"


def titles(lang: str, page: str) -> set[str]:
    """Every title the page may show in ``lang`` (it follows the weighting on some pages)."""
    strings = load(lang)
    return {text for key, text in strings.items()
            if key.startswith(f"{page}.title") and isinstance(text, str)} | {
        t(lang, f"nav.{page}")}


def assert_settings_kept(at, page: str, lang: str, *, quiet: bool = True) -> None:
    """The session, the sidebar, the title and the link still hold the codes (and, ``quiet``,
    no message says a setting is unknown: no error at all)."""
    assert_clean(at)
    session = at.session_state
    assert (session["weights"], session["scale"]) == ("linear", "observed")
    assert at.selectbox(key="lang").value == lang
    radios = {radio.key: radio for radio in at.radio}
    if "weights_input" in radios:
        assert radios["weights_input"].value == "linear"
        assert radios["weights_input"].options[radios["weights_input"].index] == t(
            lang, "common.weights.linear")
    if "scale_mode_input" in radios:
        assert radios["scale_mode_input"].value == "observed"
    assert at.title[0].value in titles(lang, page), at.title[0].value
    link = dict(at.query_params)
    assert (link["lang"], link["weights"], link["scale"]) == (lang, "linear", "observed")
    if quiet:
        assert not [error.value for error in at.error], [error.value for error in at.error]


@pytest.mark.parametrize("page", PAGE_SLUGS)
def test_every_language_twice_keeps_the_settings_and_the_link(page):
    """Reproduces H1 on every page: switch through all four languages twice."""
    at = open_app(page, lang="en", actual=ACTUAL.replace(" ", ""),
                  predicted=PREDICTED.replace(" ", ""), **SETTINGS)
    browser = Browser(at)
    for lang in TWICE:
        browser.pick("lang", lang)
        assert_settings_kept(at, page, lang)
        fields = {field.key: field.value for field in at.text_input}
        for name, typed in (("actual", ACTUAL), ("predicted", PREDICTED)):
            if f"{name}_input" in fields:
                assert fields[f"{name}_input"] == typed.replace(" ", "")


def test_walkthrough_keeps_the_open_tab_the_click_mode_and_the_typed_text():
    at = open_app("walkthrough", lang="en", **SETTINGS)
    browser = Browser(at)
    at.text_input(key="actual_input").input(ACTUAL)
    at.text_input(key="predicted_input").input(PREDICTED)
    at.button(key=RATINGS_SUBMIT).click()  # the rating form sent, as the browser sends it
    browser.run()
    browser.pick("cell_click_action", "move")
    at.session_state["input_tab"] = "random"
    browser.run()
    for lang in TWICE:
        browser.pick("lang", lang)
        assert_settings_kept(at, "walkthrough", lang)
        assert at.text_input(key="actual_input").value == ACTUAL
        assert at.text_input(key="predicted_input").value == PREDICTED
        assert at.session_state["cell_click_action"] == "move"
        assert at.button_group(key="cell_click_action").value == "move"
        assert at.session_state["input_tab"] == "random"
        assert at.session_state["input_tab_input"] == t(lang, "inputs.tab_random")


def test_checker_keeps_its_mode_table_and_answers():
    at = open_app("checker", lang="en", table="1,2;3,4", **SETTINGS)
    browser = Browser(at)
    at.text_input(key="checker_answer_kappa_input").input("0,1")
    browser.run()
    for lang in TWICE:
        browser.pick("lang", lang)
        assert_settings_kept(at, "checker", lang, quiet=False)  # 0,1 is a wrong kappa
        assert at.session_state["checker_mode"] == "table"
        assert at.radio(key="checker_mode_input").value == "table"
        assert at.text_area(key="checker_table_input").value == "1,2;3,4"
        assert at.text_input(key="checker_answer_kappa_input").value == "0,1"
        assert at.query_params["mode"] == "table"


def test_practice_keeps_the_level_the_progress_and_the_chosen_prediction():
    """Before the fix the level radio sent the old language's label after a switch, its
    on_change read no level and reloaded the exercise: the answers given were lost."""
    exercise = make_exercise(12345, "hard")
    at = open_app("practice", lang="en", seed=12345, level="hard", **SETTINGS)
    browser = Browser(at)
    for index, question in enumerate(exercise.questions[:-1]):
        assert question.kind != "compare"
        at.text_input(key="practice_answer_input").input(str(question.answer))
        at.button(key="practice_check").click()
        browser.run()
        at.button(key="practice_next").click()
        browser.run()
        assert at.session_state[practice.INDEX] == index + 1
    browser.pick("practice_choice_input", "b")
    for lang in TWICE:
        browser.pick("lang", lang)
        assert_clean(at)
        assert at.session_state[practice.LEVEL] == "hard"
        assert at.radio(key=practice.LEVEL_INPUT).value == "hard"
        assert at.session_state[practice.INDEX] == len(exercise.questions) - 1
        assert len(at.session_state[practice.RESULTS]) == len(exercise.questions) - 1
        assert at.session_state[practice.CHOICE] == "b"
        assert at.radio(key="practice_choice_input").value == "b"
        assert (at.query_params["seed"], at.query_params["level"]) == ("12345", "hard")
    at.button(key="practice_check").click()
    browser.run()
    assert_clean(at)
    assert at.session_state[practice.PROBLEM] is None, "the choice was read as a choice"
    assert len(at.session_state[practice.RESULTS]) == len(exercise.questions)


#: A forged value for each choice widget (the page is in Spanish): another language's label,
#: another spelling, markup.
FORGED = {"weights_input": ["Quadratic", "Cuadratica", "<b>linear</b>", ""],
          "scale_mode_input": ["Every rating from the lowest to the highest", "Explicit", "x"],
          "lang": ["xx", "Spanish", "EN"],
          "cell_click_action": ["Move", "delete"],
          "checker_mode_input": ["Table", "vectors "],
          "practice_level_input": ["Easy", "hard "]}


@pytest.mark.parametrize("key", sorted(FORGED))
def test_a_forged_choice_is_never_kept(key):
    """A websocket client sends any string as a choice's value: the setting stays as it was,
    the widget shows it again, no message, no error box."""
    page = {"checker_mode_input": "checker", "practice_level_input": "practice"}.get(
        key, "walkthrough")
    at = open_app(page, lang="es", seed=7, level="medium", **SETTINGS)
    browser = Browser(at)
    canonical = {"weights_input": "weights", "scale_mode_input": "scale",
                 "checker_mode_input": "checker_mode",
                 "practice_level_input": "practice_level", "lang": "language"}.get(key, key)
    before = {name: at.session_state[name] for name in (canonical, "weights", "scale", "min",
                                                       "max")}
    for value in FORGED[key]:
        browser.send(key, value)
        assert_clean(at)
        assert at.session_state[canonical] == before[canonical]
        assert not [error.value for error in at.error]
        assert dict(at.query_params)["weights"] == "linear"
    assert state.settings(at.session_state) == state.settings(before)
