"""A browser fuzz test: random sequences of what a user really does, on every page, and never an
error box (reliability report: the four error boxes a browser could reach were found by hand).

Each run draws, with a fixed seed, a sequence of actions from: switching language, clicking an
example or another button of the page (downloads and copying excepted), typing junk into a field
(hostile numbers, markup, a lone sign, thousands of digits) and then putting back what was
there, opening another page, and reloading. After every action the page must have finished its
run without Streamlit's error box (``stException``, "This app has encountered an error").

The suite runs a small seeded sequence (about a minute). A larger run, on demand::

    QWK_BROWSER_FUZZ_ACTIONS=400 QWK_BROWSER_FUZZ_SEED=7 python -m pytest tests/browser/test_fuzz.py

Sources of truth: the page itself (no error box, the field's text restored), the address bar.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import SLUGS, App, page_path

pytestmark = pytest.mark.browser

ACTIONS = int(os.environ.get("QWK_BROWSER_FUZZ_ACTIONS", "30"))
#: A 404 for one of Streamlit's media files (an image a later run replaced).
REPLACED_MEDIA = re.compile(r"status of 404 \(Not Found\) \(https?://[^/]+/media/[0-9a-f]{32}\.(?:png|jpg)\)$")
SEED = int(os.environ.get("QWK_BROWSER_FUZZ_SEED", "18"))
#: What is typed into a field before it is put back.
JUNK = ["x", "0e400", "1e200/1e-200", "9" * 5000, "-", "<b>1</b>", "**2**", "١٢", "１／０",
        "1,2;3", "", " ", "nan", "0e" + "9" * 4301, "[1, 2, 3]", "$x$"]
#: Buttons that leave the page or the browser (a download, the clipboard, full screen) are not
#: clicked.
SKIPPED = ('[data-testid="stDownloadButton"], [data-testid="stElementToolbar"], '
           '[data-testid="stFileUploader"], '
           '[data-testid="stCodeCopyButton"]')
BROKEN = "This app has encountered an error"


def assert_no_error_box(app: App, history: list[str]) -> None:
    exceptions = app.page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, (history, exceptions.all_inner_texts())
    # textContent: innerText leaves out what the browser skips drawing off the screen.
    assert BROKEN not in app.page.locator('[data-testid="stMain"]').text_content(), history


def buttons(app: App) -> list:
    """The enabled, visible buttons of the page a user may click."""
    app.page.evaluate(
        """skipped => document.querySelectorAll('[data-testid="stMain"] button').forEach(b => {
            const box = b.getBoundingClientRect();  // visible as Playwright means it
            const ok = !b.disabled && box.width > 0 && box.height > 0
                && getComputedStyle(b).visibility !== 'hidden' && !b.closest(skipped);
            if (ok) b.setAttribute('data-qwk-fuzz', '1'); else b.removeAttribute('data-qwk-fuzz');
        })""", SKIPPED)
    return app.page.locator("button[data-qwk-fuzz]").all()


def fields(app: App) -> list:
    """The visible text fields of the page, by their label."""
    return app.page.locator('[data-testid="stMain"] input[type="text"][aria-label]:visible, '
                            '[data-testid="stMain"] textarea[aria-label]:visible').all()


def commit(field) -> None:
    """Enter in a text input, Ctrl+Enter in a text area: what applies a field at once."""
    field.press("Enter" if field.evaluate("e => e.tagName") == "INPUT" else "Control+Enter")


def act(app: App, rng: random.Random, history: list[str]) -> None:
    action = rng.choice(["language", "button", "junk", "page", "reload", "button", "junk"])
    if action == "language":
        lang = rng.choice(list(LANGUAGES))
        history.append(f"language {lang}")
        app.choose_language(lang)
    elif action == "page":
        slug = rng.choice(SLUGS)
        history.append(f"page {slug}")
        app.page.locator('[data-testid="stSidebarNav"] a').nth(SLUGS.index(slug)).click()
    elif action == "reload":
        history.append("reload")
        app.page.reload()
    elif action == "button":
        found = buttons(app)
        if not found:
            return
        button = rng.choice(found)
        history.append(f"button {button.inner_text()[:40]!r}")
        try:
            button.click(timeout=5000)
        except PlaywrightTimeoutError:  # hidden meanwhile (a popover closed, a rerun redrew it)
            history.append("  (no longer visible: not clicked)")
    else:
        found = fields(app)
        if not found:
            return
        field = rng.choice(found)
        before, label = field.input_value(), field.get_attribute("aria-label")
        junk = rng.choice(JUNK)
        history.append(f"junk {junk[:20]!r} into {label!r}")
        field.fill(junk)
        commit(field)
        app.settle()
        assert_no_error_box(app, history)
        again = [f for f in fields(app) if f.get_attribute("aria-label") == label]
        if len(again) == 1:  # put back what was there: the page must recover
            again[0].fill(before)
            commit(again[0])
    app.settle()
    assert_no_error_box(app, history)


def test_random_real_actions_never_show_an_error_box(app: App):
    rng = random.Random(SEED)
    history: list[str] = []
    app.open(f"{page_path(rng.choice(SLUGS))}?lang={rng.choice(list(LANGUAGES))}")
    for _ in range(ACTIONS):
        act(app, rng, history)
    # Streamlit drops a run's image files (the share QR code) when the next run ends; actions
    # faster than a browser under load fetches them leave a 404 for an image already replaced on
    # the page. Harmless to a reader (the element shows the new file); every image that stays is
    # checked where it is drawn (the QR codes are decoded in test_live).
    app.console_errors[:] = [error for error in app.console_errors
                             if not REPLACED_MEDIA.search(error)]
    app.assert_clean()
