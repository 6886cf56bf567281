"""Weights of one's own, in a real browser: choose "custom", edit one weight, kappa follows.

Sources of truth: the engine's kappa with the edited matrix, formatted by ``present.numbers``;
the locale files for words; the address bar for the link.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_app.weights_editor import editor_text
from qwk_explained import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.custom_weights import starting_weights, weights_text
from tests.browser.helpers import SEED_ACTUAL, SEED_PREDICTED, App, expect

pytestmark = pytest.mark.browser


def test_editing_a_weight_on_the_walkthrough_changes_kappa(app: App):
    lang = "es"
    app.open(f"/?actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}&lang={lang}")
    sidebar = app.page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text(t(lang, "common.weights.custom"), exact=True).click()
    editor = sidebar.locator("textarea")
    w = starting_weights("quadratic", 5)
    expect(editor).to_have_value(editor_text(w))
    kappa = app.metric(t(lang, "common.kappa"))
    expect(kappa).to_have_text(format_number(walkthrough(SEED_ACTUAL, SEED_PREDICTED).kappa, lang))

    w[4, 0] = 0.5  # actual 4 predicted 0: four of the ten items
    typed = editor_text(w).replace("0.5", "0,5")  # as a Spanish teacher writes a decimal
    editor.fill(typed)
    editor.press("Control+Enter")
    edited = walkthrough(SEED_ACTUAL, SEED_PREDICTED, weights=w).kappa
    assert edited is not None and not np.isclose(edited, 0.0)
    expect(kappa).to_have_text(format_number(edited, lang))
    app.wait_for_query(weights="custom", w=weights_text(w))
    expect(editor).to_have_value(typed)
    app.assert_clean()
