"""User flows in a real browser on one warm server: shared links, typing, language, upload, errors.

Source of truth for every number: the engine (``qwk_explained.walkthrough``) formatted by
``qwk_explained.present.numbers``; for words: the locale files; for state: the address bar.
"""

from __future__ import annotations

import pytest

from qwk_explained import InputError, walkthrough
from qwk_explained.core.parse import parse_vector
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import error_message, load, t
from qwk_explained.present.numbers import format_number
from tests.browser.helpers import SEED_ACTUAL, SEED_PREDICTED, App, expect

pytestmark = pytest.mark.browser

SEED_LINK = f"/?lang=tr&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}"


def observed_cells(result, lang: str) -> list[list[str]]:
    return [[format_number(int(v), lang) for v in row] for row in result.observed]


def test_shared_link_shows_its_kappa(app: App):
    """User flow: a shared Turkish link -> the published seed's kappa -0.1392, in Turkish."""
    app.open(SEED_LINK, formulas=True)
    expected = walkthrough(SEED_ACTUAL, SEED_PREDICTED)
    assert format_number(expected.kappa, "tr") == "\u22120,1392"  # CLDR marks, true minus
    expect(app.metric(t("tr", "common.kappa"))).to_have_text("\u22120,1392")
    assert app.heading() == t("tr", "walkthrough.title")
    expect(app.textbox(t("tr", "inputs.actual_label"))).to_have_value(SEED_ACTUAL)
    expect(app.textbox(t("tr", "inputs.predicted_label"))).to_have_value(SEED_PREDICTED)
    query = app.wait_for_query(lang="tr", actual=SEED_ACTUAL, predicted=SEED_PREDICTED)
    assert query["weights"] == "quadratic"
    app.assert_clean()


def test_typing_new_vectors_updates_kappa_and_heatmap(app: App):
    """User flow: type new actual ratings -> kappa and the O heatmap follow the engine."""
    app.open(f"/?lang=en&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    actual = "0, 2, 1, 0, 0, 0, 1, 1, 2, 2"
    expected = walkthrough(actual, SEED_PREDICTED)
    before = walkthrough(SEED_ACTUAL, SEED_PREDICTED)
    assert format_number(expected.kappa, "en") != format_number(before.kappa, "en")

    app.type_into(t("en", "inputs.actual_label"), actual)
    expect(app.metric(t("en", "common.kappa"))).to_have_text(format_number(expected.kappa, "en"))
    app.settle()
    assert app.matrix(t("en", "steps.observed_chart")) == observed_cells(expected, "en")
    app.wait_for_query(actual=actual.replace(" ", ""))
    app.assert_clean()


def test_language_switch_keeps_numbers_and_translates(app: App):
    """User flow: English -> Español in the sidebar: same kappa and O, Spanish words, lang=es."""
    app.open(f"/?lang=en&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    expected = walkthrough(SEED_ACTUAL, SEED_PREDICTED)
    expect(app.metric(t("en", "common.kappa"))).to_have_text(format_number(expected.kappa, "en"))

    app.choose_language("es")
    expect(app.page.locator('[data-testid="stMain"] h1').first).to_have_text(
        t("es", "walkthrough.title"))
    app.settle()
    expect(app.metric(t("es", "common.kappa"))).to_have_text(format_number(expected.kappa, "es"))
    expect(app.textbox(t("es", "inputs.actual_label"))).to_have_value(SEED_ACTUAL)
    assert app.matrix(t("es", "steps.observed_chart")) == observed_cells(expected, "es")
    expect(app.language_box()).to_have_value("Español")
    app.wait_for_query(lang="es", actual=SEED_ACTUAL, predicted=SEED_PREDICTED)
    app.assert_clean()


def test_csv_upload_shows_its_kappa(app: App):
    """User flow: upload a two-column CSV in the "Upload CSV" tab -> the engine's kappa for it."""
    app.open("/?lang=en")
    rows = [(0, 0), (1, 1), (2, 1), (3, 3), (4, 3), (2, 2), (1, 0), (3, 4)]
    content = "actual,predicted\n" + "\n".join(f"{a},{p}" for a, p in rows) + "\n"
    expected = walkthrough([a for a, _ in rows], [p for _, p in rows])

    app.page.get_by_role("tab", name=t("en", "inputs.tab_upload"), exact=True).click()
    uploader = app.page.locator('input[type="file"]').first
    uploader.set_input_files(files=[{"name": "ratings.csv", "mimeType": "text/csv",
                                     "buffer": content.encode()}])
    expect(app.metric(t("en", "common.kappa"))).to_have_text(
        format_number(expected.kappa, "en"), timeout=30_000)
    expect(app.page.get_by_text(
        t("en", "inputs.upload_loaded", name="ratings.csv", count=len(rows)),
        exact=True)).to_be_visible()
    app.settle()
    app.assert_clean()


def test_bad_input_shows_translated_message_and_keeps_text(app: App):
    """User flow: letters in Spanish -> the engine's error, in Spanish; no traceback; text kept."""
    app.open(f"/?lang=es&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    typed = "4, 4, x, 4"
    with pytest.raises(InputError) as caught:
        parse_vector(typed)
    message = error_message("es", caught.value)

    app.type_into(t("es", "inputs.actual_label"), typed)
    alert = app.page.locator('[data-testid="stAlert"]', has_text=message)
    expect(alert.first).to_be_visible()
    app.settle()
    expect(app.textbox(t("es", "inputs.actual_label"))).to_have_value(typed)
    app.assert_clean()


def test_walkthrough_path_link(app: App):
    """A link written with the page's file name, /walkthrough?..., opens without a dialog."""
    app.open(SEED_LINK.replace("/?", "/walkthrough?"))
    expect(app.metric(t("tr", "common.kappa"))).to_have_text("\u22120,1392")
    app.assert_clean()


def test_step_next_moves_through_steps(app: App):
    """User flow: the step-by-step page's next button advances one step, and the URL's step
    follows."""
    app.open(f"/step_by_step?lang=en&step=1&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    start = int(app.wait_for_query(lang="en")["step"])
    def progress(step: int) -> str:
        return t("en", "step_by_step.progress", step=format_number(step), total=len(STEPS))

    expect(app.page.get_by_text(progress(start), exact=True)).to_be_visible()
    assert "step_by_step.next" in load("en"), "the next button has no step_by_step.next text"
    button = app.page.get_by_role("button", name=t("en", "step_by_step.next"), exact=True).first
    for step in (start + 1, start + 2):
        button.click()
        app.wait_for_query(step=str(step))
        expect(app.page.get_by_text(progress(step), exact=True)).to_be_visible()
        app.settle()
    assert app.query()["actual"] == SEED_ACTUAL
    app.assert_clean()


def test_streamlit_english_apply_hint_is_never_shown(app: App):
    """User flow: typing a table in Spanish without applying it. Streamlit would write "Press
    Ctrl+Enter to apply" under the box, in English whatever the language: it is hidden, and the
    box's help says it in Spanish. Ctrl+Enter then applies the table."""
    app.open("/checker?lang=es&mode=table")
    box = app.page.get_by_role("textbox", name=t("es", "checker.table_label"), exact=True)
    box.fill("3,1; 1,3")
    hint = app.page.locator('[data-testid="InputInstructions"]')
    expect(hint.first).to_be_attached()  # Streamlit drew it for the box being edited...
    expect(hint.first).to_be_hidden()  # ...and it is not shown
    assert "Ctrl+Enter" in t("es", "checker.table_help")
    box.press("Control+Enter")
    app.wait_for_query(table="3,1;1,3")
    app.assert_clean()
