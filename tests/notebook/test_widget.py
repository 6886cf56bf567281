"""The live widget driven from Python, as a notebook's kernel drives it.

Sources of truth: the engine (every kappa the widget shows is ``walkthrough(...).kappa``), the
app's error messages (``present.i18n.message`` of the parser's ``InputError``), and what a
learner does: edit a vector and see kappa change, constant ratings give no kappa, a bad value
keeps what was typed and says what to fix in the chosen language.
"""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest
import traitlets
from hypothesis import given
from hypothesis import strategies as st

from qwk_explained import walkthrough
from qwk_explained.core.errors import InputError
from qwk_explained.notebook import explore
from qwk_explained.notebook.widget import KappaExplorer
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import BY_NAME
from tests import ROOT
from tests.hostile import HOSTILE, HOSTILE_TEXT, PYTHON_VALUES, assert_translated

LANGS = tuple(LANGUAGES)
SEED = BY_NAME["seed_es"]
WIDGET_DIR = ROOT / "qwk_explained" / "notebook"


@pytest.fixture
def widget() -> KappaExplorer:
    return explore(list(SEED.actual), list(SEED.predicted), lang="es")


def test_the_widget_starts_with_the_walkthroughs_kappa(widget):
    assert isinstance(widget, KappaExplorer)
    assert widget.kappa == pytest.approx(walkthrough(SEED.actual, SEED.predicted).kappa)
    assert widget.actual == list(SEED.actual) and widget.predicted == list(SEED.predicted)
    assert widget.actual_text == ", ".join(map(str, SEED.actual))
    assert widget.errors == {} and not widget.stale
    assert widget.weights == "quadratic" and widget.lang == "es"


def test_editing_the_text_of_a_vector_changes_kappa(widget):
    widget.actual_text = "3, 4, 3, 4, 4, 4, 1, 1, 2, 1"
    expected = walkthrough([3, 4, 3, 4, 4, 4, 1, 1, 2, 1], SEED.predicted).kappa
    assert widget.kappa == pytest.approx(expected)
    assert widget.actual == [3, 4, 3, 4, 4, 4, 1, 1, 2, 1]
    # What was typed stays as typed: the field is the learner's, not reformatted.
    widget.predicted_text = "0 2 1 0 0 0 1 1 2 1 "
    assert widget.predicted_text == "0 2 1 0 0 0 1 1 2 1 "


def test_setting_the_ratings_from_python_updates_the_field_and_kappa(widget):
    widget.predicted = [4, 4, 3, 4, 4, 4, 1, 1, 2, 2]
    assert widget.predicted_text == "4, 4, 3, 4, 4, 4, 1, 1, 2, 2"
    expected = walkthrough(SEED.actual, [4, 4, 3, 4, 4, 4, 1, 1, 2, 2]).kappa
    assert widget.kappa == pytest.approx(expected)
    assert format_number(expected, "es") in widget._view


def test_changing_the_weighting_recomputes_kappa(widget):
    widget.weights = "linear"
    assert widget.kappa == pytest.approx(
        walkthrough(SEED.actual, SEED.predicted, weights="linear").kappa)
    assert t("es", "common.weights.linear") in widget._labels["weightings"].values()


def test_constant_ratings_give_no_kappa(widget):
    widget.actual = [2] * 10
    widget.predicted = [2] * 10
    assert widget.kappa is None and widget.errors == {} and not widget.stale
    assert t("es", "undefined.single_category") in widget._view


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_value_keeps_the_text_and_says_what_to_fix_in_the_language(lang):
    widget = explore(list(SEED.actual), list(SEED.predicted), lang=lang)
    before = widget.kappa
    widget.actual_text = "4, x, 3"
    expected = message(lang, InputError("not_integer", token="x", position=2))
    assert widget.errors == {"actual": expected}
    assert widget.actual_text == "4, x, 3"
    assert widget.kappa == before and widget.stale  # the view keeps the last valid ratings
    assert t(lang, "walkthrough.stale") == widget._labels["stale"]


def test_a_length_mismatch_belongs_to_the_pair_and_is_retranslated_on_a_language_switch(widget):
    widget.actual_text = "4, 4, 3"
    english = message("en", InputError("length_mismatch", n_actual=3, n_predicted=10))
    spanish = message("es", InputError("length_mismatch", n_actual=3, n_predicted=10))
    assert widget.errors == {"pair": spanish}
    widget.lang = "en"
    assert widget.errors == {"pair": english}
    assert widget._labels["actual"] == t("en", "inputs.actual_label")
    widget.actual_text = ", ".join(map(str, SEED.actual))
    assert widget.errors == {} and not widget.stale


def test_bad_text_given_to_explore_is_shown_not_raised():
    widget = explore("4, 4, 3.5", "1, 2, 3", lang="tr")
    assert widget.errors["actual"] == message(
        "tr", InputError("not_integer_decimal", token="3.5", position=3))
    assert widget.kappa is None and widget._view == ""
    assert widget.actual_text == "4, 4, 3.5"


def test_kappa_and_the_messages_are_read_only(widget):
    with pytest.raises(traitlets.TraitError):
        widget.kappa = 1.0
    with pytest.raises(traitlets.TraitError):
        widget.errors = {}


def test_unknown_settings_are_the_engines_input_errors():
    with pytest.raises(InputError) as weights:
        explore([1, 2], [2, 1], weights="cubic")
    assert weights.value.code == "unknown_weights"
    with pytest.raises(InputError) as lang:
        explore([1, 2], [2, 1], lang="fr")
    assert lang.value.code == "unknown_language"


def test_the_view_shows_o_w_e_and_kappa_as_html_without_script(widget):
    view = widget._view
    for caption in ("steps.observed_chart", "steps.weights_chart", "steps.expected_chart"):
        assert t("es", caption) in view
    assert 'class="qwk-kappa"' in view and format_number(widget.kappa, "es") in view
    assert "<math" in view
    assert not re.search(r"<script|\son\w+=|javascript:", view, flags=re.IGNORECASE)


def test_the_view_ships_in_the_package_and_needs_no_network():
    script = (WIDGET_DIR / "explorer.js").read_text("utf-8")
    style = (WIDGET_DIR / "explorer.css").read_text("utf-8")
    assert "export default { render }" in script
    for text in (script, style):
        assert not re.search(r"https?://|\bimport\s*\(|\bfetch\s*\(|@import", text)
    assert str(KappaExplorer._esm) == script and str(KappaExplorer._css) == style
    # The JS reads and writes exactly the traits the Python class syncs.
    synced = set(KappaExplorer.class_trait_names(sync=True))
    used = set(re.findall(r"model\.(?:get|set)\(\s*[`\"']([a-z_]+)", script))
    used |= {f"{field}_text" for field in ("actual", "predicted")}
    assert used <= synced


@pytest.mark.parametrize("lang", LANGS)
def test_without_the_extra_the_error_says_what_to_install(lang, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_anywidget(name, *args, **kwargs):
        if name == "anywidget" or name.startswith("plotly"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "qwk_explained.notebook.widget", raising=False)
    monkeypatch.delitem(sys.modules, "qwk_explained.present.figures", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_anywidget)
    with pytest.raises(ImportError) as widget:
        explore([1, 2], [2, 1], lang=lang)
    assert str(widget.value) == t(lang, "notebook.needs_extra", missing="anywidget")
    with pytest.raises(ImportError) as figures:
        walkthrough([1, 2], [2, 1]).figures(lang)
    assert 'pip install "qwk-explained[notebook]"' in str(figures.value)


# --- review finding L6: the traits say what the docs say ------------------------------------------


@pytest.mark.parametrize("bad", [[1, 2, 10**30], [True, False, True], [[1, 2], [3]], "x",
                                 {1: 2}, None])
def test_ratings_set_from_python_must_be_ratings(widget, bad):
    """L6: ``w.actual = [1, 2, 10**30]`` was kept in the trait (the docs say "the last ratings
    that parsed") while kappa kept the old ones; ``[True, False, True]`` passed the trait."""
    before, kappa = list(widget.actual), widget.kappa
    with pytest.raises(traitlets.TraitError) as raised:
        widget.actual = bad
    assert str(raised.value)  # the engine's sentence in the widget's language
    assert widget.actual == before and widget.kappa == kappa
    assert widget.actual_text == ", ".join(map(str, before))


def test_the_trait_error_is_the_engines_sentence_in_the_widgets_language(widget):
    with pytest.raises(traitlets.TraitError) as raised:
        widget.actual = [1, 2, 10**30]
    assert str(raised.value) == message("es", InputError(
        "value_too_large", token="1000000000000000000…", position=3, limit=10**9))


def test_an_array_or_a_tuple_set_from_python_is_read_as_ratings(widget):
    widget.predicted = np.array([4, 4, 3, 4, 4, 4, 1, 1, 2, 2], dtype=np.int8)
    assert widget.predicted == [4, 4, 3, 4, 4, 4, 1, 1, 2, 2]
    widget.predicted = tuple(SEED.predicted)
    assert widget.predicted == list(SEED.predicted)


@pytest.mark.parametrize("bad", [{1: 2}, {1, 2}, [[1, 2], [3]], [True, 2]])
def test_explore_refuses_what_walkthrough_refuses(bad):
    """L6: ``explore({1: 2}, [1])`` silently used the dict's keys."""
    with pytest.raises(InputError) as raised:
        explore(bad, [1, 2])
    assert_translated(raised.value)


def test_the_lists_are_not_sent_to_the_view():
    """L6: 1e6 ratings synced about 12 MB of widget state: each list went twice, as numbers and
    as the field's text. The view only shows the text."""
    synced = set(KappaExplorer.class_trait_names(sync=True))
    assert {"actual_text", "predicted_text"} <= synced
    assert not {"actual", "predicted"} & synced


@HOSTILE
@given(actual=PYTHON_VALUES, predicted=st.one_of(PYTHON_VALUES, HOSTILE_TEXT),
       weights=st.one_of(st.sampled_from(["linear", "quadratic"]), PYTHON_VALUES),
       lang=st.one_of(st.sampled_from(LANGS), PYTHON_VALUES))
def test_hostile_arguments_to_explore(actual, predicted, weights, lang):
    """Any argument: a widget, or the project's own error in every language; a widget's errors
    are the engine's sentences."""
    try:
        widget = explore(actual, predicted, weights=weights, lang=lang)
    except Exception as error:  # noqa: BLE001 - the property is about which errors escape
        assert_translated(error)
    else:
        assert set(widget.errors) <= {"actual", "predicted", "pair"}
        assert all(isinstance(text, str) and text for text in widget.errors.values())


def test_the_walkthrough_is_computed_once_per_change_from_the_parsed_vectors(monkeypatch):
    """L6: explore() of 1e6 ratings took seconds in the kernel: the walkthrough was computed once
    per trait the constructor set (three times) and each time from the traits' lists of Python
    ints. Now once at construction and once per change, from the vectors the fields parsed to."""
    from qwk_explained.notebook import widget as widget_module

    calls: list[tuple[object, object]] = []
    real = widget_module.walkthrough
    monkeypatch.setattr(widget_module, "walkthrough", lambda a, p, **k: calls.append((a, p))
                        or real(a, p, **k))
    example = next(iter(BY_NAME.values()))
    w = explore(example.actual, example.predicted)
    assert len(calls) == 1
    assert all(isinstance(v, np.ndarray) for v in calls[0])
    w.lang = "tr"
    w.weights = "linear"
    assert len(calls) == 3
    assert w.kappa == walkthrough(example.actual, example.predicted, weights="linear").kappa


@pytest.mark.parametrize("empty", [[], "", ()])
def test_an_empty_field_at_construction_is_its_message(empty) -> None:
    """An empty vector gives the field's text its default value, so no change is observed: the
    constructor still reads it (it raised KeyError when the first walkthrough looked it up)."""
    widget = explore(empty, [1, 2])
    assert widget.errors == {"actual": t("en", "errors.empty")}
    assert widget.kappa is None
