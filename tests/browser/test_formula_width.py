"""Every formula of the Theory page fits the column it is set in, on a projector-sized screen.

The Chinese review found the identity after "unweighted kappa" cut off at the right edge at
1280 px, in every language: a display formula wider than its column is clipped by Streamlit's
box (it scrolls, with nothing to say that it does), and the end of the derivation, the part the
paragraph is about, is lost. Source of truth: Chromium's layout of KaTeX's output.
"""

from __future__ import annotations

from typing import Any

import pytest

from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import App, page_path

pytestmark = pytest.mark.browser

_TOO_WIDE = """
() => [...document.querySelectorAll('[data-testid="stMain"] .katex-display')]
  .filter((display) => display.clientWidth > 0)
  // KaTeX's box takes the column's width and scrolls what does not fit: its scroll width is the
  // typeset width.
  .filter((display) => display.scrollWidth > display.clientWidth + 1)
  .map((display) => `${display.innerText.replace(/\\s+/g, ' ').slice(0, 60)}... `
                    + `(${display.scrollWidth - display.clientWidth} px too wide)`)
"""


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_theory_formula_fits_its_column(app: App, lang: str) -> None:
    app.open(f"{page_path('theory')}?lang={lang}", formulas=True)
    app.assert_clean()
    too_wide: Any = app.page.evaluate(_TOO_WIDE)
    assert too_wide == []
    assert app.page.locator(".katex-error").count() == 0  # KaTeX sets what it cannot parse in red
