"""The isolation the shared browser contexts promise (``tests/browser/conftest.py``): a test's tab
starts as in a new browser, whatever the tests before it stored, and two people in one test are
two browsers. Source of truth: Chromium's own storage, cookie jar and permissions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.helpers import App

pytestmark = pytest.mark.browser

_STORE = """() => { localStorage.setItem('qwk-left', '1');
                    sessionStorage.setItem('qwk-left', '1'); }"""
_STORED = """() => [localStorage.getItem('qwk-left'), sessionStorage.getItem('qwk-left')]"""
_CLIPBOARD = """() => navigator.permissions.query({name: 'clipboard-read'}).then(p => p.state)"""


def test_what_a_test_leaves_is_forgotten_before_the_next(_screens: Any,
                                                          new_app: Callable[..., App],
                                                          app_url: str) -> None:
    """Storage, a cookie and a granted permission left in a shared context are gone once the
    test's tabs are forgotten; the context itself (its HTTP cache) stays for the next test."""
    # Streamlit's health probe: a page of the app's origin without a session behind it.
    probe = app_url + "/_stcore/health"
    left = new_app(app_url)
    left.page.goto(probe)
    context = left.page.context
    left.page.evaluate(_STORE)
    context.add_cookies([{"name": "qwk-left", "value": "1", "url": app_url}])
    context.grant_permissions(["clipboard-read"], origin=app_url)
    assert left.page.evaluate(_STORED) == ["1", "1"] and context.cookies()
    assert left.page.evaluate(_CLIPBOARD) == "granted"

    _screens.forget(context)
    assert context.pages == [] and context.cookies() == []
    page = context.new_page()  # the next test's tab: same context, nothing of the last one
    page.goto(probe)
    assert page.evaluate(_STORED) == [None, None]
    assert page.evaluate(_CLIPBOARD) != "granted"


def test_two_people_in_one_test_are_two_browsers(new_app: Callable[..., App],
                                                 app_url: str) -> None:
    teacher, student = new_app(app_url), new_app(app_url)
    assert teacher.page.context is not student.page.context
    phone = new_app(app_url, {"width": 390, "height": 844}, has_touch=True)
    assert phone.page.context not in (teacher.page.context, student.page.context)
    assert phone.page.viewport_size == {"width": 390, "height": 844}
