"""The live walkthrough page and the frame, driven with AppTest like a user would.

Source of truth for every number: the engine (``qwk_explained.walkthrough``) formatted by
``qwk_explained.present.numbers``; for words: the locale files.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_explained import walkthrough
from qwk_explained.core.parse import parse_vector
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import about, format_number
from qwk_explained.teaching.examples import BY_NAME
from tests.app.helpers import (
    assert_clean,
    chart_cells,
    open_app,
    open_tab,
    switch_order,
    type_ratings,
)

SPANISH_SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}


def kappa_metric(at, lang):
    return next(m.value for m in at.metric if m.label == t(lang, "common.kappa"))


def observed_texts(at):
    return chart_cells(at, "observed")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_link_shows_that_walkthrough_in_each_language(lang):
    """User flow: open a shared link -> the engine's kappa and O, in that language."""
    at = open_app(lang=lang, **SPANISH_SEED)
    assert_clean(at)
    expected = walkthrough(SPANISH_SEED["actual"], SPANISH_SEED["predicted"])
    assert kappa_metric(at, lang) == format_number(expected.kappa, lang)
    assert at.title[0].value == t(lang, "walkthrough.title")
    cells = observed_texts(at)
    assert cells == [[format_number(int(v), lang) for v in row] for row in expected.observed]
    assert at.text_input(key="actual_input").value == SPANISH_SEED["actual"]


def test_spanish_seed_link_in_spanish_uses_decimal_comma():
    """The Spanish seed's example as a shared link: Spanish labels, -0,1392 (decimal comma), and
    the seven steps."""
    at = open_app(lang="es", **SPANISH_SEED)
    assert kappa_metric(at, "es") == format_number(-0.1392, "es") == "\u22120,1392"
    headers = [h.value for h in at.subheader]
    for step in STEPS:  # the seven steps, numbered as on every surface
        assert step.heading("es") in headers
    assert any("0{,}" in f.value for f in at.latex), "LaTeX numbers use {,} in Spanish"
    assert chart_cells(at, "observed_norm")[4][0] == "0,4", "charts use the decimal comma too"


def test_browser_locale_picks_language_when_url_has_none():
    """Initial language: ?lang= first, else the browser's (st.context.locale), else English."""
    assert open_app(locale="tr-TR").selectbox(key="lang").value == "tr"
    assert open_app(locale="zh-CN", lang="es").selectbox(key="lang").value == "es"
    assert open_app(locale="fr-FR").selectbox(key="lang").value == "en"


def test_editing_text_updates_every_step_and_the_url():
    """User flow: typing new vectors changes kappa, O's cells and the shared URL."""
    at = open_app(lang="en")
    type_ratings(at, "0, 1, 2, 2", "0, 1, 2, 1")
    assert_clean(at)
    expected = walkthrough([0, 1, 2, 2], [0, 1, 2, 1])
    assert kappa_metric(at, "en") == format_number(expected.kappa, "en")
    assert observed_texts(at) == [[str(int(v)) for v in row] for row in expected.observed]
    assert at.query_params["actual"] == "0,1,2,2"
    assert at.query_params["predicted"] == "0,1,2,1"


def test_table_editor_edits_write_back_to_the_text_fields():
    """User flow: change a cell and add a row in the table editor; the vectors follow."""
    at = open_tab(open_app(lang="en", actual="1,2,3", predicted="1,2,2"), "table")
    assert at.data_editor, "the table editor is shown for short vectors"
    at.session_state["editor_0"] = {"edited_rows": {0: {"actual": 3}},
                                    "added_rows": [{"actual": 1, "predicted": 1}],
                                    "deleted_rows": [1]}
    at.run()
    assert_clean(at)
    assert at.text_input(key="actual_input").value == "3, 3, 1"
    assert at.text_input(key="predicted_input").value == "1, 2, 1"
    expected = walkthrough([3, 3, 1], [1, 2, 1])
    assert kappa_metric(at, "en") == format_number(expected.kappa, "en")


def test_table_edits_survive_closing_and_reopening_the_table_tab():
    """Regression: the editor forgot its edits while its tab was closed (Streamlit drops the
    state of a widget that is not drawn), showed the old rows again, and the next edit was
    replayed on the old rows, undoing the first one in the text."""
    at = open_tab(open_app(lang="en", actual="1,2,3", predicted="1,2,2"), "table")
    at.session_state["editor_0"] = {"edited_rows": {0: {"actual": 3}}, "added_rows": [],
                                    "deleted_rows": []}
    at.run()
    assert at.text_input(key="actual_input").value == "3, 2, 3"
    open_tab(at, "examples")
    open_tab(at, "table")
    assert_clean(at)
    assert at.data_editor[0].value["actual"].tolist() == [3, 2, 3]  # the rows of the text
    version = at.session_state["editor_version"]
    at.session_state[f"editor_{version}"] = {"edited_rows": {1: {"predicted": 0}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    assert at.text_input(key="actual_input").value == "3, 2, 3"  # the first edit is kept
    assert at.text_input(key="predicted_input").value == "1, 0, 2"


def test_only_the_open_input_tab_is_built_and_it_stays_open_across_languages():
    """The table editor and the random form cost a rerun only while their tab is open (the
    uploaders are always drawn: one that is not forgets its file); the open tab is the same
    after a language switch (its label changes, the tab does not)."""
    at = open_app(lang="en", actual="1,2,3", predicted="1,2,2")
    assert at.text_input(key="actual_input").value == "1,2,3"
    # The only number field outside the random form is the statistics section's kappa0.
    assert not at.data_editor and [box.key for box in at.number_input] == ["kappa0_input"]
    assert at.get("file_uploader")
    open_tab(at, "table")
    assert at.data_editor and [box.key for box in at.number_input] == ["kappa0_input"]
    at.selectbox(key="lang").set_value("tr").run()
    assert_clean(at)
    assert at.data_editor, "the table tab is still open in Turkish"
    assert at.session_state["input_tab_input"] == t("tr", "inputs.tab_table")
    open_tab(at, "random")
    assert at.number_input(key="random_n") and not at.data_editor
    assert at.text_input(key="actual_input").value == "1,2,3"  # the typed text is always there


@pytest.mark.parametrize("lang", LANGUAGES)
def test_upload_tab_states_the_size_limit_in_the_users_language(lang):
    """The upload cap (server.maxUploadSize) is said before a student hits it: Streamlit's own
    rejection of a larger file is in English only."""
    from streamlit import config

    limit = config.get_option("server.maxUploadSize")
    at = open_tab(open_app(lang=lang), "upload")
    help_text = t(lang, "inputs.upload_help", limit=format_number(limit, lang),
                  count=about(limit * 2**20 // 4))
    assert help_text in [caption.value for caption in at.caption]
    assert format_number(limit, lang) in help_text
    # An "about" count is round (Spanish review, M11: not "aproximadamente 5.242.880 filas").
    assert format_number(about(limit * 2**20 // 4), lang) in help_text
    assert format_number(limit * 2**20 // 4, lang) not in help_text


def test_a_large_upload_is_used_and_cleared_without_losing_the_typed_vectors():
    """User flow: upload 20,000 rows -> the engine's kappa for them, kept out of the text boxes
    and the link (the share box says so); clearing the upload brings back what was typed."""
    rng = np.random.default_rng(11)
    actual, predicted = rng.integers(0, 5, 20_000), rng.integers(0, 5, 20_000)
    data = "actual,predicted\n" + "".join(
        f"{a},{p}\n" for a, p in zip(actual.tolist(), predicted.tolist(), strict=True))
    at = open_tab(open_app(lang="es", **SPANISH_SEED), "upload")
    at.file_uploader(key="upload_first").set_value(("big.csv", data.encode(), "text/csv")).run()
    assert_clean(at)
    assert kappa_metric(at, "es") == format_number(walkthrough(actual, predicted).kappa, "es")
    assert t("es", "inputs.upload_loaded", name="big.csv", count=20_000) in [
        s.value for s in at.success]
    open_tab(at, "examples")
    assert t("es", "inputs.upload_active", name="big.csv", count=20_000) in [
        i.value for i in at.info]
    assert not at.text_input  # 20,000 ratings stay out of the text boxes
    assert at.file_uploader(key="upload_first").value.name == "big.csv"  # kept, tab closed
    assert "actual" not in at.query_params
    assert t("es", "frame.share_too_long") in [c.value for c in at.caption]
    at.button(key="upload_clear").click().run()
    assert_clean(at)
    assert at.text_input(key="actual_input").value == SPANISH_SEED["actual"]
    expected = walkthrough(SPANISH_SEED["actual"], SPANISH_SEED["predicted"])
    assert kappa_metric(at, "es") == format_number(expected.kappa, "es")


@pytest.mark.parametrize("weights", ["linear", "unweighted"])
def test_changing_weights_recomputes_kappa(weights):
    """Settings flow: the weights radio changes kappa to the engine's value for that weighting."""
    at = open_app(lang="en", **SPANISH_SEED)
    at.radio(key="weights_input").set_value(weights).run()
    expected = walkthrough(SPANISH_SEED["actual"], SPANISH_SEED["predicted"], weights=weights)
    assert kappa_metric(at, "en") == format_number(expected.kappa, "en")
    assert at.query_params["weights"] == weights


def test_scale_modes_observed_and_explicit():
    """Settings flow: observed scale and explicit min/max give the engine's kappa and labels."""
    example = BY_NAME["unused_rating"]
    actual, predicted = ",".join(map(str, example.actual)), ",".join(map(str, example.predicted))
    at = open_app(lang="en", actual=actual, predicted=predicted)
    at.radio(key="scale_mode_input").set_value("observed").run()
    observed = walkthrough(example.actual, example.predicted, scale="observed")
    assert kappa_metric(at, "en") == format_number(observed.kappa, "en")
    assert at.query_params["scale"] == "observed"
    at.radio(key="scale_mode_input").set_value("explicit").run()
    at.number_input(key="max_input").set_value(5).run()
    widened = walkthrough(example.actual, example.predicted, min_rating=0, max_rating=5)
    assert kappa_metric(at, "en") == format_number(widened.kappa, "en")
    assert at.query_params["min"] == "0" and at.query_params["max"] == "5"


def test_url_with_explicit_bounds_opens_in_explicit_mode():
    """Shared link with min/max: the sidebar shows the fixed-range mode with those bounds."""
    at = open_app(lang="en", actual="1,2", predicted="2,1", min="0", max="6")
    assert at.radio(key="scale_mode_input").value == "explicit"
    expected = walkthrough([1, 2], [2, 1], min_rating=0, max_rating=6)
    assert kappa_metric(at, "en") == format_number(expected.kappa, "en")


def test_language_switch_keeps_vectors_settings_and_cell():
    """Switching language changes the words, never the user's data or settings."""
    at = open_app(lang="en", actual="0,1,2,2,1", predicted="0,2,2,1,1", weights="linear")
    at.selectbox(key="cell_row_input").set_value(2).run()
    for lang in switch_order("en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert at.title[0].value == t(lang, "walkthrough.title_linear")  # follows the weighting
        assert at.text_input(key="actual_input").value == "0,1,2,2,1"
        assert at.radio(key="weights_input").value == "linear"
        assert at.selectbox(key="cell_row_input").value == 2
        assert at.query_params["lang"] == lang


def test_length_mismatch_and_too_many_ratings():
    """Pair and scale problems are reported (translated), never a traceback."""
    at = open_app(lang="tr", actual="1,2,3", predicted="1,2")
    assert_clean(at)
    # Different lengths are what a list being typed looks like: counted calmly, not an error.
    assert t("tr", "inputs.typing_lengths", n_actual="3", n_predicted="2") in [
        c.value for c in at.caption]
    assert not at.error
    at = open_app(lang="en", actual="0,100", predicted="0,1")
    assert_clean(at)
    assert any("101" in e.value for e in at.error)


def test_undefined_kappa_is_explained_not_shown_as_a_number():
    """Every rating identical: kappa is 0/0; the page says so and shows no number."""
    at = open_app(lang="es", actual="2,2,2", predicted="2,2,2")
    assert_clean(at)
    assert kappa_metric(at, "es") == t("es", "common.undefined")
    warnings = [w.value for w in at.warning]
    assert t("es", "undefined.single_category") in warnings


def test_presets_load_each_example():
    """One-click presets: each loads its vectors and the engine's kappa (or undefined)."""
    at = open_app(lang="en")
    for example in BY_NAME.values():
        at.button_group(key="preset_pick").set_value(example.name).run()
        assert_clean(at)
        assert at.text_input(key="actual_input").value == ", ".join(map(str, example.actual))
        result = walkthrough(example.actual, example.predicted)
        shown = kappa_metric(at, "en")
        if result.kappa is None:
            assert shown == t("en", "common.undefined")
        else:
            assert shown == format_number(result.kappa, "en")


def test_random_generator_is_reproducible():
    """Random example: same seed, same vectors; the page shows their kappa."""
    at = open_tab(open_app(lang="en"), "random")
    at.number_input(key="random_n").set_value(30)
    at.number_input(key="random_seed").set_value(7)
    at.button(key="FormSubmitter:random_form-" + t("en", "inputs.random_generate")).click().run()
    first = at.text_input(key="actual_input").value
    assert len(parse_vector(first)) == 30
    at.button(key="FormSubmitter:random_form-" + t("en", "inputs.random_generate")).click().run()
    assert at.text_input(key="actual_input").value == first
    open_tab(at, "examples")
    open_tab(at, "random")  # the form's values are kept while its tab is closed
    assert_clean(at)
    assert not at.warning
    assert (at.number_input(key="random_n").value, at.number_input(key="random_seed").value) \
        == (30, 7)


def test_every_page_loads_in_every_language():
    """Each page in pages/ runs in every language without exception."""
    from qwk_app.frame import PAGES, PAGES_DIR

    for spec in PAGES:
        if not (PAGES_DIR / f"{spec.slug}.py").exists():
            continue
        for lang in LANGUAGES:
            at = open_app(spec.slug, lang=lang, **SPANISH_SEED)
            assert_clean(at)
