"""Every formula of the Theory page fits the column it is set in, on a projector-sized screen.

The Chinese review found the identity after "unweighted kappa" cut off at the right edge at
1280 px, in every language: a display formula wider than its column is clipped by Streamlit's
box (it scrolls, with nothing to say that it does), and the end of the derivation, the part the
paragraph is about, is lost. Source of truth: Chromium's layout of KaTeX's output.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import PHONE, SCREENSHOTS, SEED_ACTUAL, SEED_PREDICTED, App, page_path

pytestmark = pytest.mark.browser

_TOO_WIDE = """
// KaTeX's box takes the column's width and scrolls what does not fit: its scroll width is the
// typeset width.
(display) => display.clientWidth > 0 && display.scrollWidth > display.clientWidth + 1
  ? `${display.innerText.replace(/\\s+/g, ' ').slice(0, 60)}... `
    + `(${display.scrollWidth - display.clientWidth} px too wide)`
  : null
"""


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_theory_formula_fits_its_column(app: App, lang: str) -> None:
    app.open(f"{page_path('theory')}?lang={lang}", formulas=True)
    app.assert_clean()
    too_wide: Any = app.each_in_view(".katex-display", _TOO_WIDE)
    assert too_wide == []
    assert app.page.locator(".katex-error").count() == 0  # KaTeX sets what it cannot parse in red


#: Each formula shown on the phone: whether it is wider than its box, and what says so (the hint
#: line under it, the shadow on its right edge).
_ON_PHONE = """
(display) => display.clientWidth > 0 && display.checkVisibility({visibilityProperty: true})
  // Shown: not in a folded expander (opening one lays its formulas out again).
  ? {
    formula: display.innerText.replace(/\\s+/g, ' ').slice(0, 60),
    wide: display.scrollWidth > display.clientWidth + 1,
    hint: getComputedStyle(display, '::after').content,
    shadow: getComputedStyle(display).boxShadow,
  } : null
"""


def _phone(new_app: Callable[..., App], browser: Any, app_url: str) -> App:
    context = browser.new_context(viewport=PHONE, device_scale_factor=3, is_mobile=True,
                                  has_touch=True, locale="en-US")
    return App(context.new_page(), app_url)


def _assert_each_fits_or_says_it_scrolls(app: App, lang: str) -> list[str]:
    """Every formula fits its box or shows the translated hint and the edge shadow; one that
    fits shows neither. Returns the wide ones."""
    formulas: list[dict[str, Any]] = app.each_in_view(".katex-display", _ON_PHONE)
    hint = f'"{t(lang, "frame.formula_scrolls")}"'
    for formula in formulas:
        if formula["wide"]:
            assert formula["hint"] == hint and formula["shadow"] != "none", formula
        else:
            assert formula["hint"] in ("none", "normal") and formula["shadow"] == "none", formula
    return [formula["formula"] for formula in formulas if formula["wide"]]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_on_a_phone_the_full_solution_s_wide_formulas_say_they_scroll(
        new_app: Callable[..., App], browser: Any, app_url: str, lang: str) -> None:
    """Phone (390 x 844, touch): the checker's full solution sets w, E/n and the SE wider than the
    screen (the UX review, 2.12); phones hide scrollbars, so each such formula says that it
    scrolls sideways, in the reader's language, and every other formula fits."""
    app = _phone(new_app, browser, app_url)
    try:
        app.open(f"{page_path('checker')}?lang={lang}&actual={SEED_ACTUAL}"
                 f"&predicted={SEED_PREDICTED}")
        app.page.get_by_text(t(lang, "checker.solution"), exact=True).click()
        app.page.locator('[data-testid="stExpanderDetails"] .katex-html').first.wait_for()
        app.settle()
        wide = _assert_each_fits_or_says_it_scrolls(app, lang)
        assert wide, "the review's wide matrices fit now: check that this test still tests"
        SCREENSHOTS.mkdir(exist_ok=True)
        app.page.evaluate("""() => [...document.querySelectorAll('.katex-display')]
            .find((display) => display.scrollWidth > display.clientWidth + 1)
            .scrollIntoView({block: 'center'})""")
        app.page.screenshot(path=str(SCREENSHOTS / f"solution-phone-{lang}.png"))
        app.assert_clean()
    finally:
        app.page.context.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_on_a_phone_each_step_s_formulas_fit_or_say_they_scroll(
        new_app: Callable[..., App], browser: Any, app_url: str, lang: str) -> None:
    """Phone: on the step-by-step page, every step's formulas shown fit or say that they
    scroll."""
    app = _phone(new_app, browser, app_url)
    seen = 0
    try:
        for step in range(1, len(STEPS) + 1):
            app.open(f"{page_path('step_by_step')}?lang={lang}&step={step}"
                     f"&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
            _assert_each_fits_or_says_it_scrolls(app, lang)
            seen += len(app.each_in_view(".katex-display", _ON_PHONE))
        assert seen, "no step showed a formula: nothing was tested"
        app.assert_clean()
    finally:
        app.page.context.close()
