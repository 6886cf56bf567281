"""What the browser tests share: the app's pages and links, Chromium's settings, and :class:`App`,
one browser tab on the app with the waits and look-ups the tests need.

Without /usr/bin/chromium the tests are skipped, except in CI (``CI=true``) where they fail: the
browser tests must never silently vanish from a CI run.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the ``browser`` fixture skips (or fails in CI) before a test gets here
    expect = None

from qwk_app.frame import PAGES
from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES
from tests import ROOT

CHROMIUM = Path("/usr/bin/chromium")
AXE_JS = ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "screenshots"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Longest wait for a server to answer its health probe (a cold start imports pandas, numpy...).
HEALTH_TIMEOUT_S = 60
#: Longest wait for a script run to finish (a cold first run imports numpy, pandas...).
RUN_TIMEOUT_MS = 60_000
#: Every page of the app (a listed page whose file is missing makes its tests fail).
SLUGS = tuple(spec.slug for spec in PAGES)
#: The Spanish seed's worked example, as a shared link writes it.
SEED_ACTUAL = "4,4,3,4,4,4,1,1,2,1"
SEED_PREDICTED = "0,2,1,0,0,0,1,1,2,1"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def skip_or_fail(reason: str) -> None:
    """Skip locally; in CI a missing browser dependency is a failure, never a silent skip."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set: browser tests must run in CI)", pytrace=False)
    pytest.skip(reason)


def page_path(slug: str) -> str:
    """The URL path of a page: the default page (walkthrough) is served at "/" by st.navigation."""
    return "/" if slug == "walkthrough" else f"/{slug}"


def page_titles(slug: str, lang: str) -> set[str]:
    """What the page's heading may say: its own ``<slug>.title`` if it has one, or its nav title."""
    titles = {t(lang, f"nav.{slug}")}
    if f"{slug}.title" in load("en"):
        titles.add(t(lang, f"{slug}.title"))
    return titles


# Known harmless console noise, matched precisely (message AND the URL it is about):
# 1. Streamlit's frontend finds the server's base path by probing the page's own path first
#    (GET /checker/_stcore/health and /checker/_stcore/host-config answer 404), then the root.
#    Every deep link to a page other than "/" logs these two 404s.
_BASE_PATH_PROBE = re.compile(r"^https?://[^/]+/[^/?#]+/_stcore/(health|host-config)$")
# 2. Streamlit points the favicon (page_icon=":material/grid_on:") at Google's icon CDN; the test
#    machine has loopback only, so that one request fails. (Online it loads.)
_ICON_CDN = "https://fonts.gstatic.com/s/i/short-term/release/materialsymbolsrounded/"


def benign(message: str, url: str) -> bool:
    if message.startswith("Failed to load resource: the server responded with a status of 404"):
        return bool(_BASE_PATH_PROBE.match(url))
    if message.startswith("Failed to load resource: net::"):
        return url.startswith(_ICON_CDN)
    return False


@dataclass
class App:
    """One browser tab on the app, with the waits and look-ups the tests share."""

    page: Any
    base_url: str
    console_errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if not benign(message.text, url):
            self.console_errors.append(f"console: {message.text} ({url})")

    # navigation and waiting

    def open(self, path: str, *, formulas: bool | None = None) -> None:
        self.page.goto(self.base_url + path)
        self.settle(formulas=formulas)

    def settle(self, *, formulas: bool | None = None) -> None:
        """Wait for the script run to finish, then for formulas, charts and fonts to be drawn.

        ``formulas``: True requires rendered KaTeX, None waits for it only if the page has any.
        """
        page = self.page
        page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=RUN_TIMEOUT_MS)
        page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
            timeout=RUN_TIMEOUT_MS)
        if formulas:
            page.locator(".katex-html").first.wait_for(state="visible")
        # "notRunning" comes as soon as the script is done, while lazily loaded widgets are still
        # grey skeletons: wait for those too.
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="stSkeleton"]')
                && [...document.querySelectorAll('.katex')]
                     .every(k => k.querySelector('.katex-html'))
                && [...document.querySelectorAll('[data-testid="stBidiComponentRegular"]')]
                     .every(c => c.querySelector('.qwk-root > *'))""",
            timeout=RUN_TIMEOUT_MS)
        page.evaluate("async () => { await document.fonts.ready; }")

    def wait_for_query(self, **expected: str) -> dict[str, str]:
        """Wait until the address bar holds these query parameters; return all of them."""
        self.page.wait_for_function(
            """expected => { const q = new URLSearchParams(location.search);
                return Object.entries(expected).every(([k, v]) => q.get(k) === v); }""",
            arg=expected, timeout=RUN_TIMEOUT_MS)
        return self.query()

    def query(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.page.url).query).items()}

    # look-ups

    def heading(self) -> str:
        return self.page.locator('[data-testid="stMain"] h1').first.inner_text().strip()

    def metric(self, label: str) -> Any:
        """The value element of the first metric with this label."""
        box = self.page.locator('[data-testid="stMetric"]').filter(
            has=self.page.locator('[data-testid="stMetricLabel"]', has_text=label))
        return box.first.locator('[data-testid="stMetricValue"]')

    def textbox(self, label: str) -> Any:
        return self.page.get_by_role("textbox", name=label, exact=True)

    def type_into(self, label: str, text: str) -> None:
        """Replace a field's text and press Enter. A rating field's form is then sent at once
        when both lists have the same length, after a longer pause when they differ, and
        without Enter a moment after the last keystroke (``qwk_app.charts.hold_ratings``)."""
        box = self.textbox(label)
        box.fill(text)
        box.press("Enter")

    def choose_language(self, lang: str) -> None:
        current = self.page.locator('[data-testid="stSidebar"] [role="combobox"]').first
        current.click()
        self.page.get_by_role("option", name=LANGUAGES[lang].name, exact=True).click()

    def language_box(self) -> Any:
        return self.page.locator('[data-testid="stSidebar"] [role="combobox"]').first

    def nav_titles(self) -> list[str]:
        # The link's own text also holds the icon's ligature name ("calculate"): read the label.
        labels = self.page.locator(
            '[data-testid="stSidebarNav"] [data-testid="stSidebarNavLink"] '
            '[data-testid="stMarkdownContainer"]')
        return [text.strip() for text in labels.all_inner_texts()]

    def current_nav_title(self) -> str:
        link = self.page.locator('[data-testid="stSidebarNavLink"][aria-current="page"]')
        return link.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()

    def matrix(self, title: str) -> list[list[str]]:
        """The numbers drawn in the cells of the matrix chart titled ``title``, row by row."""
        return self.page.evaluate(
            """title => { const chart = [...document.querySelectorAll('.qwk-matrix')].find(
                    c => c.querySelector('.qwk-title').textContent.trim() === title);
                return [...chart.querySelectorAll('tbody tr')].map(row =>
                    [...row.querySelectorAll('.qwk-value')].map(v => v.textContent)); }""",
            title)

    def each_in_view(self, selector: str, measure: str) -> list[Any]:
        """``measure`` (a JavaScript function of one element, ``null`` to leave it out) on every
        element matching ``selector``, as a reader sees it: the page has the browser skip what
        is off the screen (``content-visibility: auto``, ``qwk_app.frame``), whose text then
        reads as empty and whose scroll-driven styles stay unset, so an element skipped is first
        scrolled to the middle of the screen and drawn. The scroll is put back afterwards."""
        return self.page.evaluate(
            """async ([selector, measure]) => {
                 const main = document.querySelector('[data-testid="stMain"]');
                 const top = main.scrollTop;
                 const frames = () => new Promise(
                   (done) => requestAnimationFrame(() => requestAnimationFrame(done)));
                 const results = [];
                 for (const element of document.querySelectorAll(selector)) {
                   if (element.checkVisibility()
                       && !element.checkVisibility({contentVisibilityAuto: true})) {
                     element.scrollIntoView({block: 'center'});
                     await frames();
                   }
                   const result = (0, eval)(`(${measure})`)(element);
                   if (result !== null) results.push(result);
                 }
                 main.scrollTop = top;
                 await frames();
                 return results; }""",
            [selector, measure])

    # checks

    def assert_clean(self) -> None:
        """No traceback element, no "page not found" dialog, no browser console error."""
        exceptions = self.page.locator('[data-testid="stException"]')
        assert exceptions.count() == 0, exceptions.all_inner_texts()
        dialogs = self.page.get_by_role("dialog")
        assert dialogs.count() == 0, dialogs.all_inner_texts()
        assert not self.console_errors, self.console_errors
