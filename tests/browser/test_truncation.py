"""Nothing is cut off: every button, tab, metric label and sidebar label shows its whole text.

Translations are longer than English (Spanish and Turkish by a third), and Streamlit clips a
label that does not fit with an ellipsis. Each page is opened in each language at 1280 x 800 and
390 x 844; an element fails when its text is wider than its box (``scrollWidth`` beyond
``clientWidth`` on a box that hides its overflow), or when it ends in an ellipsis. Source of
truth: the browser's own layout (Chromium).
"""

from __future__ import annotations

from typing import Any

import pytest

from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import DESKTOP, PHONE, SLUGS, App, page_path

pytestmark = pytest.mark.browser

#: What a reader must be able to read in full, by kind.
WATCHED = {
    "button": '[data-testid="stMain"] button',
    "tab": '[role="tab"]',
    "metric label": '[data-testid="stMetricLabel"]',
    "sidebar label": '[data-testid="stSidebar"] [data-testid="stWidgetLabel"], '
                     '[data-testid="stSidebar"] [role="radiogroup"] label, '
                     '[data-testid="stSidebarNavLink"]',
}

_CUT_OFF = """
(watched) => {
  const cut = [];
  for (const [kind, selector] of Object.entries(watched)) {
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      // Not on screen: hidden, or in a sidebar that slid away on a phone.
      if (box.width === 0 || box.height === 0 || box.right <= 0 || box.left >= innerWidth) continue;
      const text = element.innerText.trim();
      if (!text) continue;  // an icon-only button
      let clipped = /(…|\\.\\.\\.)$/.test(text);
      // Each piece of text must lie inside every box between it and the element that hides
      // what overflows it (overflow hidden or clip, or an ellipsis).
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && !clipped; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const span = range.getBoundingClientRect();
        if (span.width === 0) continue;
        for (let box = node.parentElement; box; box = box.parentElement) {
          const style = getComputedStyle(box);
          if (['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis') {
            const edge = box.getBoundingClientRect();
            if (span.right > edge.right + 1 || span.left < edge.left - 1) clipped = true;
          }
          if (box === element) break;
        }
      }
      const shown = text.replace(/\\s+/g, ' ');
      if (clipped) cut.push(`${kind}: "${shown}" (${Math.round(box.width)} px)`);
    }
  }
  return cut;
}
"""


def cut_off(app: App) -> list[str]:
    result: Any = app.page.evaluate(_CUT_OFF, WATCHED)
    return list(result)


def _phone_layout(app: App) -> None:
    app.page.set_viewport_size(PHONE)
    app.page.wait_for_function(
        """() => { const bar = document.querySelector('[data-testid="stSidebar"]');
            return !bar || bar.getBoundingClientRect().right <= 0; }""")
    app.settle()


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("slug", SLUGS)
def test_no_label_is_cut_off(app: App, slug: str, lang: str) -> None:
    app.open(f"{page_path(slug)}?lang={lang}")
    app.assert_clean()
    desktop = cut_off(app)
    _phone_layout(app)
    phone = cut_off(app)
    assert (desktop, phone) == ([], []), (
        f"cut off at {DESKTOP['width']} x {DESKTOP['height']}: {desktop}; "
        f"at {PHONE['width']} x {PHONE['height']}: {phone}")
