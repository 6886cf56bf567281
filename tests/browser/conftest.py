"""Browser tests: the real app served by ``streamlit run`` (``qwk_app.server``), driven by Debian's
Chromium.

One server and one browser serve every warm test (each test gets its own browser context, so its
own Streamlit session); the cold deep-link tests start a fresh, never-visited server each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the ``browser`` fixture then skips, or fails in CI, with the reason
    sync_playwright = None

from qwk_app.server import serving
from tests.browser.helpers import (
    CHROMIUM,
    DESKTOP,
    HEALTH_TIMEOUT_S,
    LAUNCH_ARGS,
    App,
    skip_or_fail,
)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Base URL of one real app server shared by all warm tests."""
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


@pytest.fixture
def new_app(browser: Any) -> Iterator[Callable[..., App]]:
    """Factory: a fresh browser context (a new Streamlit session) on a given server."""
    contexts: list[Any] = []

    def make(base_url: str, viewport: dict[str, int] | None = None) -> App:
        context = browser.new_context(viewport=viewport or DESKTOP, locale="en-US")
        contexts.append(context)
        return App(context.new_page(), base_url)

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def app(new_app: Callable[..., App], app_url: str) -> App:
    """A fresh session on the shared warm server, 1280 x 800."""
    return new_app(app_url)
