"""Browser tests: the real app served by ``streamlit run`` (``qwk_app.server``), driven by Debian's
Chromium.

What a test asks for, cheapest first:

``app``
    A new Streamlit session (a new tab) at 1280 x 800 on the warm server: what most tests want.
``new_app(base_url, viewport=None, **context_options)``
    A new session on any server, for another screen: ``new_app(app_url, PHONE)``, or a touch
    phone ``new_app(app_url, PHONE, device_scale_factor=3, is_mobile=True, has_touch=True)``, or
    a projector ``new_app(app_url, {"width": 1280, "height": 720}, device_scale_factor=1.5)``
    (any option of Playwright's ``browser.new_context``). Called several times in a test (a
    teacher and students), each call is another browser context: several people, not several
    tabs of one.
``app_url``
    The warm server's base URL: one ``streamlit run`` per xdist worker, started once, shared by
    every test that does not need a server of its own.
``cold_server()``
    A fresh server nobody has visited yet, for what only a cold server shows (the first visit
    of a deep link); each takes seconds, so only for those tests.

Why tabs and not a new browser per test: a tab comes from a browser context kept for the next
tests of the same xdist worker that ask for the same screen, so Streamlit's JavaScript bundle
(megabytes) comes from that context's HTTP cache instead of being fetched and compiled again for
every test (about 0.6 s of a 2.8 s page open). Isolation is kept where it matters: each tab is its
own Streamlit session (its own websocket, fresh ``st.session_state``), and after each test its
tabs are closed and the context forgets every cookie, permission and stored value (local and
session storage) the test left, so the next test starts as in a new browser, with the cache alone
warm. A context that cannot be cleaned (a crashed tab) is closed and replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright
except ImportError:  # the ``browser`` fixture then skips, or fails in CI, with the reason
    sync_playwright = None
    PlaywrightError = Exception

from qwk_app.server import serving
from tests.browser.helpers import (
    CHROMIUM,
    DESKTOP,
    HEALTH_TIMEOUT_S,
    LAUNCH_ARGS,
    App,
    skip_or_fail,
)

#: What each page's origin keeps between two visits of the same browser: emptied after each test.
_FORGET_STORAGE = """() => { try { localStorage.clear(); sessionStorage.clear(); }
                             catch (e) { /* about:blank has no storage */ } }"""


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Base URL of one real app server shared by all warm tests (one per xdist worker)."""
    with serving(timeout=HEALTH_TIMEOUT_S) as server:
        yield server.url


@pytest.fixture
def cold_server() -> Iterator[Callable[[], str]]:
    """Factory: each call starts a fresh server nobody has visited yet and returns its base URL;
    every one is stopped when the test ends."""
    with ExitStack() as servers:
        yield lambda: servers.enter_context(serving(timeout=HEALTH_TIMEOUT_S)).url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is missing: install it with `make os-packages`")
    if sync_playwright is None:
        skip_or_fail("playwright is not installed: `pip install -r requirements-dev.txt`")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield instance
        finally:
            instance.close()


class _Screens:
    """The worker's browser contexts, kept per screen (set of context options) between tests."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: dict[tuple[tuple[str, str], ...], list[Any]] = {}

    def tab(self, base_url: str, options: dict[str, Any], busy: list[Any]) -> App:
        """A new tab in a context of this screen that is not ``busy`` (already this test's: two
        people in one test are two browsers, never two tabs of one)."""
        key = tuple(sorted((name, repr(value)) for name, value in options.items()))
        kept = self.contexts.setdefault(key, [])
        free = [context for context in kept if context not in busy]
        if not free:
            kept.append(self.browser.new_context(**options))
            free = kept[-1:]
        busy.append(free[0])
        return App(free[0].new_page(), base_url)

    def forget(self, context: Any) -> None:
        """Close the context's tabs and forget what they stored, as a new browser would not
        have it; a context that cannot be cleaned (a crashed tab) is closed and dropped."""
        try:
            for page in context.pages:
                page.evaluate(_FORGET_STORAGE)
                page.close()
            context.clear_cookies()
            context.clear_permissions()
        except PlaywrightError:
            for kept in self.contexts.values():
                if context in kept:
                    kept.remove(context)
            try:
                context.close()
            except PlaywrightError:
                pass


@pytest.fixture(scope="session")
def _screens(browser: Any) -> Iterator[_Screens]:
    screens = _Screens(browser)
    yield screens
    for kept in screens.contexts.values():
        for context in kept:
            context.close()


@pytest.fixture
def new_app(_screens: _Screens) -> Iterator[Callable[..., App]]:
    """Factory: a new tab (a new Streamlit session) on a given server, with a given screen; see
    the module's docstring."""
    used: list[Any] = []

    def make(base_url: str, viewport: dict[str, int] | None = None, **options: Any) -> App:
        return _screens.tab(
            base_url, {"locale": "en-US", **options, "viewport": viewport or DESKTOP}, used)

    yield make
    for context in used:
        _screens.forget(context)


@pytest.fixture
def app(new_app: Callable[..., App], app_url: str) -> App:
    """A new session (a new tab) on the shared warm server, 1280 x 800."""
    return new_app(app_url)
