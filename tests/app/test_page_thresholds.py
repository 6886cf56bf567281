"""The "From scores to ratings" page, driven with AppTest like a learner would, in every language.

Sources of truth: the core (``optimize_thresholds``, ``walkthrough``, ``apply_thresholds``) for
every number shown, the outline of :mod:`qwk_explained.present.thresholds` for the validation's
sentences, the locale files for every word. User flows: the example on a first visit, a cut
point moved with its slider, the three buttons and their table, the cross-validation beside the
in-sample kappa, bad scores typed (a message beside the field, what was typed kept, the last valid
data still shown), a language switch that keeps everything.
"""

from __future__ import annotations

import json

import pytest

from qwk_app.text import escape_markdown
from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.scores import parse_scored_csv, parse_scores
from qwk_explained.core.steps import walkthrough
from qwk_explained.core.thresholds import apply_thresholds, check_scores, optimize_thresholds
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.present.thresholds import optimism_blocks
from qwk_explained.teaching.examples import scored_example
from tests.app.helpers import Browser, assert_clean, open_app

ACTUAL, SCORES = scored_example()
SEARCH = optimize_thresholds(ACTUAL, SCORES)


def scores_chart(at) -> str:
    """The HTML the page sent for the scores chart."""
    for element in at.get("bidi_component"):
        if element.proto.id.endswith("-thresholds_chart"):
            return json.loads(element.proto.json)["html"]
    raise AssertionError("no scores chart on the page")


def metric(at, lang: str, key: str) -> str:
    return next(m.value for m in at.metric if m.label == t(lang, key))


def texts(at) -> str:
    return "\n".join(element.value for element in [*at.markdown, *at.caption])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_example_the_optimizer_and_its_cross_validation_in_each_language(lang: str) -> None:
    at = open_app("thresholds", lang=lang)
    assert_clean(at)
    assert at.title[0].value == t(lang, "thresholds.title")
    rounding = walkthrough(ACTUAL, apply_thresholds(SCORES, [0.5, 1.5, 2.5, 3.5])).kappa
    assert metric(at, lang, "thresholds.kappa_now") == format_number(rounding, lang)
    assert len(at.select_slider) == 4
    assert scores_chart(at).count('class="qwk-cut"') == 4
    at.button(key="thresholds_optimizer").click().run()
    assert_clean(at)
    assert metric(at, lang, "thresholds.kappa_now") == format_number(SEARCH.kappa, lang)
    assert metric(at, lang, "thresholds.kappa_in_sample_label") == format_number(SEARCH.kappa,
                                                                                lang)
    assert metric(at, lang, "thresholds.kappa_cv_label") == format_number(SEARCH.cv_kappa, lang)
    shown = texts(at)
    for block in optimism_blocks(SEARCH, lang):
        assert block.text in shown
    table = at.table[0].value
    assert list(table.index) == [t(lang, "thresholds.start.optimizer")]


def test_a_slider_moves_a_cut_and_every_step_follows() -> None:
    at = open_app("thresholds", lang="en")
    slider = at.select_slider(key="thresholds_cut_1")
    value = min(slider.options, key=lambda option: abs(float(option) - 1.9))
    slider.set_value(float(value)).run()
    assert_clean(at)
    cuts = [0.5, float(value), 2.5, 3.5]
    expected = walkthrough(ACTUAL, apply_thresholds(SCORES, cuts), min_rating=0, max_rating=4)
    assert metric(at, "en", "thresholds.kappa_now") == format_number(expected.kappa, "en")
    before = walkthrough(ACTUAL, apply_thresholds(SCORES, [0.5, 1.5, 2.5, 3.5])).kappa
    assert t("en", "live.changed", before=format_number(before, "en"),
             change="+" + format_number(expected.kappa - before, "en")
             if expected.kappa > before else format_number(expected.kappa - before, "en")) \
        in texts(at)
    # Step 7's kappa is the page's kappa: the walkthrough's renderer drew it.
    assert any(format_number(expected.kappa, "en") in element.value for element in at.latex)


def test_a_slider_cannot_push_a_cut_past_its_neighbour() -> None:
    at = open_app("thresholds", lang="es")
    slider = at.select_slider(key="thresholds_cut_0")
    slider.set_value(float(SCORES.max())).run()  # the right end of every slider
    assert_clean(at)
    assert at.session_state["thresholds_cuts"] == (1.5, 1.5, 2.5, 3.5)
    assert t("es", "thresholds.clamped") in texts(at)


def test_rounding_and_quantiles_fill_the_table() -> None:
    at = open_app("thresholds", lang="tr")
    at.button(key="thresholds_quantiles").click().run()
    at.button(key="thresholds_rounding").click().run()
    assert_clean(at)
    assert list(at.table[0].value.index) == [t("tr", "thresholds.start.quantiles"),
                                             t("tr", "thresholds.start.rounding")]
    assert not any(m.label == t("tr", "thresholds.kappa_cv_label") for m in at.metric)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_scores_get_a_message_and_keep_what_was_typed(lang: str) -> None:
    at = open_app("thresholds", lang=lang)
    typed = "0.5, nan, 1.5"
    at.text_area(key="thresholds_scores_input").input(typed).run()
    assert_clean(at)
    expected = message(lang, InputError("score_not_finite", token="nan", position=2))
    assert expected in [element.value for element in at.error]
    assert at.text_area(key="thresholds_scores_input").value == typed
    assert any(w.value == t(lang, "thresholds.stale") for w in at.warning)
    assert len(at.select_slider) == 4  # the last valid data stay on the page


def core_error(function, *args) -> InputError:
    """The error the core raises for this input: what the page must say."""
    with pytest.raises(InputError) as raised:
        function(*args)
    return raised.value


#: Typed input a learner gets wrong, in the order the issue lists it (NaN and inf, text, a score
#: column shorter than the ratings, fewer distinct scores than ratings, all items in one rating),
#: with huge exponents and an empty field beside them.
BAD_TYPING = [
    ("0 1 2 3 4", "0.5, 1.5, inf, 3, 4", "scores"),
    ("0 1 2 3 4", "0.5, 1e999, 2, 3, 4", "scores"),
    ("0 1 2 3 4", "0.5 1" + "e9" * 3 + " 2", "scores"),
    ("0 1 2 3 4", "0.5 1 two 3 4", "scores"),
    ("0 1 2 3 4", "", "scores"),
    ("0 1 2 3 4", "0.5 1.5 2.5", "pair"),
    ("0 1 2 3 4", "0.5 0.5 0.5 0.7 0.7", "pair"),
    ("2 2 2 2 2", "0.5 1.5 2.5 3.5 4.5", "pair"),
    ("0 1 x 3 4", "0.5 1.5 2.5 3.5 4.5", "actual"),
]


def said(error: InputError, lang: str) -> str:
    """The error as the page writes it: its sentence, what it quotes escaped for markdown."""
    return message(lang, InputError(error.code, **{
        key: escape_markdown(value) if isinstance(value, str) else value
        for key, value in error.params.items()}))


def typed_error(actual: str, scores: str, field: str) -> InputError:
    if field == "actual":
        return core_error(parse_vector, actual)
    if field == "scores":
        return core_error(parse_scores, scores)
    return core_error(check_scores, parse_vector(actual), parse_scores(scores))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_bad_input_the_issue_lists_is_said_in_the_language_and_nothing_is_lost(
        lang: str) -> None:
    """One session through every mistake: each is the core's error in the page's language,
    beside the field; the two texts stay as typed; the last valid data, the cut points moved
    before and the optimizer's table stay on the page."""
    at = open_app("thresholds", lang=lang)
    at.button(key="thresholds_optimizer").click().run()
    for actual, scores, field in BAD_TYPING:
        at.text_area(key="thresholds_actual_input").input(actual)
        at.text_area(key="thresholds_scores_input").input(scores).run()
        assert_clean(at)
        expected = said(typed_error(actual, scores, field), lang)
        assert [element.value for element in at.error] == [expected], (actual, scores)
        assert at.text_area(key="thresholds_actual_input").value == actual
        assert at.text_area(key="thresholds_scores_input").value == scores
        assert any(w.value == t(lang, "thresholds.stale") for w in at.warning)
        assert at.session_state["thresholds_cuts"] == SEARCH.cuts
        assert list(at.table[0].value.index) == [t(lang, "thresholds.start.optimizer")]


#: Files a learner uploads by mistake: one column, text in a score cell, NaN, a missing cell.
BAD_FILES = [b"rating\n1\n2\n", b"1,0.5\n2,high\n", b"1,0.5\n2,nan\n3,2.5\n",
             b"1,0.5\n2\n", b"", "1;0,5\n2;1,5\n".encode("utf-16")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bad_file_is_said_beside_the_uploader_and_the_data_stay(lang: str) -> None:
    at = open_app("thresholds", lang=lang)
    for data in BAD_FILES:
        try:
            columns = parse_scored_csv(data)
            expected = core_error(check_scores, columns.actual, columns.scores)
        except InputError as error:
            expected = error
        at.file_uploader(key="thresholds_upload").set_value(("bad.csv", data, "text/csv")).run()
        assert_clean(at)
        assert [element.value for element in at.error] == [said(expected, lang)], data
        assert metric(at, lang, "thresholds.items") == format_number(len(ACTUAL), lang)
    good = "\n".join(f"{a},{float(s)!r}" for a, s in zip(ACTUAL, SCORES, strict=True)).encode()
    at.file_uploader(key="thresholds_upload").set_value(("good.csv", good + b"\n0,0.25\n",
                                                         "text/csv")).run()
    assert not at.error
    assert metric(at, lang, "thresholds.items") == format_number(len(ACTUAL) + 1, lang)


def test_a_language_switch_keeps_the_cuts_and_the_search() -> None:
    at = open_app("thresholds", lang="en")
    at.button(key="thresholds_optimizer").click().run()
    Browser(at).pick("lang", "zh")  # as a browser switches it (the setting is kept as a code)
    assert_clean(at)
    assert at.session_state["thresholds_cuts"] == SEARCH.cuts
    assert metric(at, "zh", "thresholds.kappa_cv_label") == format_number(SEARCH.cv_kappa, "zh")


def test_another_weighting_recomputes_kappa_and_clears_the_table() -> None:
    at = open_app("thresholds", lang="en")
    at.button(key="thresholds_optimizer").click().run()
    at.radio(key="weights_input").set_value("linear").run()
    assert_clean(at)
    expected = walkthrough(ACTUAL, apply_thresholds(SCORES, SEARCH.cuts), weights="linear")
    assert metric(at, "en", "thresholds.kappa_now") == format_number(expected.kappa, "en")
    assert not at.table


def test_a_large_example_is_shown_as_arrays() -> None:
    at = open_app("thresholds", lang="en")
    at.selectbox(key="thresholds_example_size").set_value(2_000)
    at.button(key="thresholds_example").click().run()
    assert_clean(at)
    assert metric(at, "en", "thresholds.items") == "2,000"
    assert any(t("en", "thresholds.arrays_clear") == b.label for b in at.button)
