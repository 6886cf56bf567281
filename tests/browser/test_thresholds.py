"""From scores to ratings in a real browser: a cut point moved by hand, and every number following.

User flows: a teacher on a projector (1280 x 720 at scale 1.5) drags a cut point across the scores
chart with the mouse, in each language; a student on a phone (390 x 844, touch) drags one with a
finger; a keyboard user moves one with the arrow keys. After each move, the cut points the chart
draws are those the server holds, and kappa, the slider and step 7 agree with them.

Sources of truth: the engine (``apply_thresholds``, ``walkthrough``) on the bundled example, for
the cut points read back from the chart; ``present.numbers`` for how kappa is written; the locale
files for labels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from qwk_explained.core.steps import walkthrough
from qwk_explained.core.thresholds import apply_thresholds
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import scored_example
from tests.browser.helpers import PHONE, RUN_TIMEOUT_MS, App, expect

pytestmark = pytest.mark.browser

ACTUAL, SCORES = scored_example()
PROJECTOR = {"viewport": {"width": 1280, "height": 720}, "device_scale_factor": 1.5}
TOUCH_PHONE = {"viewport": PHONE, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


@pytest.fixture
def screen(new_app: Callable[..., App], app_url: str) -> Callable[..., App]:
    """Factory: a fresh session on the warm server with a given screen (context options)."""
    return functools.partial(new_app, app_url)


def cuts_drawn(app: App) -> list[float]:
    return [float(value) for value in app.page.locator(".qwk-cut").evaluate_all(
        "cuts => cuts.map(c => c.dataset.value)")]


def screen_x(app: App, value: float) -> tuple[float, float]:
    """Where on the screen the chart draws ``value``, and the height of the chart's middle."""
    return app.page.locator("svg[data-low]").evaluate(
        """(svg, value) => { const d = svg.dataset, box = svg.getBoundingClientRect();
            const x = +d.left + (value - d.low) / (d.high - d.low) * (d.right - d.left);
            return [box.left + x / d.width * box.width, box.top + box.height / 2]; }""", value)


def after_move(app: App, before: list[float]) -> list[float]:
    """Wait until the server has redrawn the chart with other cut points; return them."""
    app.page.wait_for_function(
        "before => JSON.stringify([...document.querySelectorAll('.qwk-cut')]"
        ".map(c => +c.dataset.value)) !== JSON.stringify(before)", arg=before,
        timeout=RUN_TIMEOUT_MS)
    app.settle(formulas=True)
    return cuts_drawn(app)


def assert_everything_follows(app: App, cuts: list[float], lang: str) -> None:
    """Kappa, step 7 and the slider of each cut say what the engine says for these cuts."""
    kappa = walkthrough(ACTUAL, apply_thresholds(SCORES, cuts), min_rating=0, max_rating=4).kappa
    written = format_number(kappa, lang)
    expect(app.metric(t(lang, "thresholds.kappa_now"))).to_have_text(written)
    last_formula = app.each_in_view(".katex-html", "e => e.innerText")[-1]  # step 7, below
    assert written in last_formula.replace("\n", "")
    app.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_teacher_drags_a_cut_point_on_the_projector(screen, lang: str) -> None:
    app = screen(**PROJECTOR)
    app.open(f"/thresholds?lang={lang}", formulas=True)
    before = cuts_drawn(app)
    assert before == [0.5, 1.5, 2.5, 3.5]
    app.page.locator("svg[data-low]").scroll_into_view_if_needed()
    start, middle = screen_x(app, before[1])
    target, _ = screen_x(app, 2.0)
    mouse = app.page.mouse
    mouse.move(start, middle)
    mouse.down()
    for step in range(1, 6):
        mouse.move(start + (target - start) * step / 5, middle)
    mouse.up()
    cuts = after_move(app, before)
    assert cuts[0::2] == [0.5, 2.5] and cuts[3] == 3.5
    assert abs(cuts[1] - 2.0) < 0.02  # where it was let go, to a pixel's width
    assert_everything_follows(app, cuts, lang)
    # The projector shows the whole chart: nothing scrolls sideways.
    assert app.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


def test_a_student_drags_a_cut_point_with_a_finger_on_a_phone(screen) -> None:
    app = screen(**TOUCH_PHONE)
    app.open("/thresholds?lang=es", formulas=True)
    before = cuts_drawn(app)
    app.page.locator("svg[data-low]").scroll_into_view_if_needed()
    start, middle = screen_x(app, before[2])
    target, _ = screen_x(app, 2.1)
    touch = app.page.context.new_cdp_session(app.page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                            "touchPoints": [{"x": start, "y": middle}]})
    for step in range(1, 6):
        touch.send("Input.dispatchTouchEvent", {
            "type": "touchMove", "touchPoints": [{"x": start + (target - start) * step / 5,
                                                  "y": middle}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cuts = after_move(app, before)
    assert cuts[:2] == [0.5, 1.5] and cuts[3] == 3.5
    assert abs(cuts[2] - 2.1) < 0.05  # a phone's pixel is a wider step of the scores
    assert_everything_follows(app, cuts, "es")
    assert app.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


#: Records whether the sidebar's share box (drawn by the frame after the whole page) is ever
#: marked stale, as everything Streamlit is rerunning is until it is drawn again.
WATCH_SHARE_BOX = """() => {
  const box = document.querySelector('[data-testid="stSidebar"] [data-testid="stCode"]')
    .closest('[data-testid="stElementContainer"]');
  window.__shareBoxStale = false;
  new MutationObserver(() => {
    if (box.dataset.stale === 'true') window.__shareBoxStale = true;
  }).observe(box, {attributes: true, attributeFilter: ['data-stale']});
}"""


def test_the_arrow_keys_move_a_focused_cut_point(screen) -> None:
    """A focused cut point moves one step per arrow key, and only what a move changes reruns
    (kappa, the chart, the steps: a fragment), not the data's inputs, the sidebar and its share
    box (issue 22: a move at n = 100,000 settles within 400 ms)."""
    app = screen(**PROJECTOR)
    app.open("/thresholds?lang=tr", formulas=True)
    before = cuts_drawn(app)
    app.page.evaluate(WATCH_SHARE_BOX)
    app.page.locator('.qwk-cut[data-cut="0"]').focus()
    app.page.keyboard.press("ArrowRight")
    cuts = after_move(app, before)
    assert app.page.evaluate("window.__shareBoxStale") is False
    low, high = (float(app.page.locator("svg[data-low]").get_attribute(name))
                 for name in ("data-low", "data-high"))
    assert cuts[0] == pytest.approx(0.5 + (high - low) / 200)
    assert cuts[1:] == before[1:]
    assert_everything_follows(app, cuts, "tr")
