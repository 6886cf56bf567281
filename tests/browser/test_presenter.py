"""One step on one projected screen, and matrices as large as their column, in a real browser.

A teacher presents on a projector (1280 x 720 CSS px at 150 %, a 1920 x 1080 beamer): every
step of the walkthrough, in every language, fits the screen whole with the buttons under it; a
student's phone (390 px) and a desktop show each matrix as wide as its column allows.

Sources of truth: the step catalogue (seven steps) and the locale files; the page's own layout,
measured (bounding boxes once formulas and charts are drawn).
"""

from __future__ import annotations

import pytest

from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import PHONE, SEED_ACTUAL, SEED_PREDICTED, App, expect

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1280, "height": 720}
SEED_LINK = f"/?actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}"
#: The smallest number a presented matrix may write, in CSS px: its type shrinks to fit, but not
#: below three quarters of presenter mode's chart type (0.9 x 22 px).
SMALLEST_PRESENTED_PX = 14.5

#: Everything measured on one presented step, in CSS px of the viewport.
MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, width: r.width}; };
  const main = document.querySelector('[data-testid="stMain"]');
  const step = document.querySelector('.st-key-presented_step');
  const shown = e => e.offsetParent !== null && !e.closest('details:not([open])');
  const matrices = [...step.querySelectorAll('.qwk-matrix')].filter(shown);
  return {
    scroll: main.scrollHeight - main.clientHeight,
    sideways: document.documentElement.scrollWidth - window.innerWidth,
    step: box(step),
    buttons: [...document.querySelectorAll(
      '[class*="st-key-present_prev"] button, [class*="st-key-present_next"] button')].map(box),
    below: box(document.querySelector('.st-key-present_next_below button')),
    charts: [...step.querySelectorAll('.qwk-chart')].filter(shown).map(box),
    hidden: matrices.filter(m => m.classList.contains('qwk-compact')).length,
    smallest: Math.min(...matrices.flatMap(m => [...m.querySelectorAll('.qwk-value')])
                         .map(v => parseFloat(getComputedStyle(v).fontSize))),
    cut: [...step.querySelectorAll('.katex-display')].filter(shown)
           .filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.textContent.slice(0, 40)),
  };
}"""


def fitted(app: App) -> None:
    """Settled, and two frames later: the charts fit themselves in the frame after drawing."""
    app.settle(formulas=True)
    app.page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_presented_step_fits_one_projected_screen(new_app, app_url: str, lang: str):
    """Projector, presenter mode, the seven steps in turn (a clicker's PageDown): each step's
    heading, explanation, formulas and charts lie on the screen whole with previous and next
    above and below them; nothing scrolls, no formula is cut, every matrix writes its numbers
    at a readable size (the review measured 2.3 to 2.9 screens a step)."""
    app = new_app(app_url, PROJECTOR, device_scale_factor=1.5)
    app.open(f"{SEED_LINK}&lang={lang}&present=1")
    for number, step in enumerate(STEPS, start=1):
        if number > 1:
            app.page.keyboard.press("PageDown")
            app.wait_for_query(step=str(number))
        expect(app.page.get_by_role("heading", name=step.heading(lang))).to_be_visible()
        fitted(app)
        seen = app.page.evaluate(MEASURE)
        where = (lang, number, seen)
        assert seen["scroll"] <= 1 and seen["sideways"] <= 1, where
        assert all(0 <= b["top"] and b["bottom"] <= PROJECTOR["height"]
                   for b in seen["buttons"]), where
        assert len(seen["buttons"]) == 4, where
        assert 0 <= seen["step"]["top"] and seen["step"]["bottom"] <= seen["below"]["top"]
        assert all(c["bottom"] <= seen["below"]["top"] for c in seen["charts"]), where
        assert len(seen["charts"]) == len(step.figures), where
        assert seen["hidden"] == 0 and not seen["cut"], where
        if step.figures and step.slug != "histograms":
            assert seen["smallest"] >= SMALLEST_PRESENTED_PX, where
    app.assert_clean()


def test_a_matrix_grows_with_its_column_and_fits_a_phone(app: App):
    """Walkthrough, not presenting: on a 1280 px desktop O's numbers grow to about twice the
    text (the review's matrix sat at 230 px in a 930 px column, its right half empty); on a
    390 px phone the same matrix fills its narrower column and nothing runs off the screen."""
    app.open(f"{SEED_LINK}&lang=en", formulas=True)
    measure = """() => [...document.querySelectorAll('.qwk-matrix:not(.qwk-dense)')]
        .filter(m => m.offsetParent !== null).map(m => ({
          grid: m.querySelector('.qwk-grid').getBoundingClientRect().width,
          column: m.querySelector('.qwk-scroll').clientWidth,
          compact: m.classList.contains('qwk-compact'),
          font: parseFloat(getComputedStyle(m.querySelector('.qwk-value')).fontSize)}))"""
    frames = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
    app.page.evaluate(frames)
    wide = app.page.evaluate(measure)
    observed = wide[0]
    assert observed["grid"] >= 0.4 * observed["column"] and observed["font"] >= 24, observed
    assert all(m["grid"] <= m["column"] + 1 for m in wide), wide
    app.page.set_viewport_size(PHONE)
    app.page.wait_for_function(
        """() => { const m = document.querySelector('.qwk-matrix');
                   return m.querySelector('.qwk-scroll').clientWidth < 400; }""")
    app.page.evaluate(frames)
    narrow = app.page.evaluate(measure)
    phone = narrow[0]
    assert phone["grid"] < observed["grid"], (phone, observed)
    assert 0.9 * phone["column"] <= phone["grid"] <= phone["column"] + 1, phone
    assert all(m["compact"] or m["grid"] <= m["column"] + 1 for m in narrow), narrow
    assert app.page.evaluate(
        "() => document.documentElement.scrollWidth - window.innerWidth") <= 1
    app.assert_clean()
