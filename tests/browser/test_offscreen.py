"""What is off the screen costs the browser nothing, and what is drawn is drawn whole.

Issue 23: every rerun, Chromium styled, laid out and painted the whole walkthrough (about 8,500
nodes, most of them KaTeX far below the screen). The page's style (``qwk_app.frame``) has it skip
every element off the screen (``content-visibility: auto``). Skipping brings paint containment,
which clips what overflows an element's box: a heading or a formula reaching over Streamlit's
negative margins lost its bottom (presenter mode's title was cut in half, and a click on it
missed it) until a clip margin let it be drawn. Source of truth: Chromium's own answer to
``checkVisibility({contentVisibilityAuto: true})`` and its layout.
"""

from __future__ import annotations

import pytest

from tests.browser.helpers import SEED_ACTUAL, SEED_PREDICTED, App

pytestmark = pytest.mark.browser

SEED_LINK = f"/?actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}&lang=en"

#: A heading, formula or chart that is not drawn, or that an element box around it clips (beyond
#: that box's clip margin): what it is, and by how many px, or null when it is drawn whole.
_CLIPPED = """
(element) => {
  const what = `${element.tagName} ${element.textContent.slice(0, 40)}`;
  if (!element.checkVisibility({contentVisibilityAuto: true})) return `${what}: not drawn`;
  const r = element.getBoundingClientRect();
  const main = document.querySelector('[data-testid="stMain"]');
  for (let box = element.parentElement; box && box !== main; box = box.parentElement) {
    if (box.dataset.testid !== 'stElementContainer') continue;
    const style = getComputedStyle(box);
    if (style.contain === 'none' && style.contentVisibility === 'visible') continue;
    const c = box.getBoundingClientRect();
    const margin = parseFloat(style.overflowClipMargin) || 0;
    const over = Math.max(c.top - margin - r.top, r.bottom - c.bottom - margin,
                          c.left - margin - r.left, r.right - c.right - margin);
    if (over > 1) return `${what}: ${Math.round(over)} px cut`;
  }
  return null;
}
"""


def skipped(app: App) -> dict[str, int]:
    """How many formulas there are, and how many the browser skips drawing."""
    return app.page.evaluate(
        """() => { const all = [...document.querySelectorAll('.katex-display')];
             return {formulas: all.length,
                     skipped: all.filter(
                       (f) => !f.checkVisibility({contentVisibilityAuto: true})).length}; }""")


@pytest.mark.parametrize("present", [False, True], ids=["page", "presenter"])
def test_offscreen_steps_are_skipped_and_every_heading_and_formula_is_drawn_whole(
        app: App, present: bool):
    """Desktop (1280 x 800), the walkthrough: with the first screen shown, most formulas (those
    of the steps below) are skipped by the browser while kappa is drawn; scrolled to, each
    heading, formula and chart is drawn, and none is cut by the box around it."""
    app.open(SEED_LINK + ("&present=1" if present else ""), formulas=True)
    count = skipped(app)
    if not present:  # one step on the screen: nothing of it is far below
        assert count["skipped"] > count["formulas"] / 2, count
        assert app.page.locator('[data-testid="stMetric"]').first.evaluate(
            "m => m.checkVisibility({contentVisibilityAuto: true})")
    cut = app.each_in_view(
        ":is(h1, h2, h3, .katex-display, .qwk-chart):not(details:not([open]) *)", _CLIPPED)
    assert cut == [], cut
    app.assert_clean()
