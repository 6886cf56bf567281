"""Every page in every language, in a real browser: it loads clean, inside the frame, draws, and
cuts nothing off.

Each page is opened from its own link, checked (no traceback, no console error, the translated
navigation and heading), then photographed at 1280 x 800, the whole page at 1280 wide, and
390 x 844 (a phone) into ``screenshots/``. A screenshot must not be blank, and Chinese text must
be drawn with a font that has its glyphs (no tofu boxes). Sources of truth: the locale files;
Chromium's own report of the fonts it used (DevTools ``CSS.getPlatformFontsForNode``).

Nothing is cut off: every button, tab, metric label and sidebar label shows its whole text, at
1280 x 800 and at 390 x 844. Translations are longer than English (Spanish and Turkish by a
third), and Streamlit clips a label that does not fit with an ellipsis. An element fails when its
text is wider than its box (``scrollWidth`` beyond ``clientWidth`` on a box that hides its
overflow), or when it ends in an ellipsis. Source of truth: the browser's own layout (Chromium).
The same visit checks both (a page load is the costly part of a browser test).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import DESKTOP, PHONE, SCREENSHOTS, SLUGS, App, page_path, page_titles

pytestmark = pytest.mark.browser

#: A screenshot with fewer distinct colours, or less ink than this share of pixels, is blank.
MIN_COLOURS = 64
MIN_INK_SHARE = 0.02
#: Tallest full-page screenshot (a walkthrough in Chinese is about 7000 px).
MAX_FULL_HEIGHT = 16000
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
#: Families that carry the Han glyphs on Linux desktops (the Makefile installs the first).
CJK_FONT = re.compile(r"WenQuanYi|CJK|Noto Sans SC|Noto Serif SC|Droid Sans Fallback|AR PL",
                      re.IGNORECASE)


#: What a reader must be able to read in full, by kind.
WATCHED = {
    "button": '[data-testid="stMain"] button',
    "tab": '[role="tab"]',
    "metric label": '[data-testid="stMetricLabel"]',
    "sidebar label": '[data-testid="stSidebar"] [data-testid="stWidgetLabel"], '
                     '[data-testid="stSidebar"] [role="radiogroup"] label, '
                     '[data-testid="stSidebarNavLink"]',
}

#: The text of ``element`` (a watched ``kind``) when its box clips it, else null.
_CUT_OFF = """
(element, kind) => {
  const box = element.getBoundingClientRect();
  // Not on screen: hidden, or in a sidebar that slid away on a phone.
  if (box.width === 0 || box.height === 0 || box.right <= 0 || box.left >= innerWidth) return null;
  const text = element.innerText.trim();
  if (!text) return null;  // an icon-only button
  let clipped = /(…|\\.\\.\\.)$/.test(text);
  // Each piece of text must lie inside every box between it and the element that hides what
  // overflows it (overflow hidden or clip, or an ellipsis).
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
  return clipped ? `${kind}: "${text.replace(/\\s+/g, ' ')}" (${Math.round(box.width)} px)` : null;
}
"""


def cut_off(app: App) -> list[str]:
    return [cut for kind, selector in WATCHED.items()
            for cut in app.each_in_view(selector, f"e => ({_CUT_OFF})(e, {json.dumps(kind)})")]


def ink(path: Path) -> tuple[int, float]:
    """Distinct colours, and the share of pixels unlike the most common (background) colour."""
    with Image.open(path) as image:
        pixels = image.convert("RGB")
        colours = pixels.getcolors(maxcolors=1 << 24) or []
    total = sum(count for count, _ in colours)
    background = max(count for count, _ in colours)
    return len(colours), 1 - background / total


def assert_not_blank(path: Path) -> None:
    colours, share = ink(path)
    assert colours >= MIN_COLOURS and share >= MIN_INK_SHARE, (
        f"{path.name} looks blank: {colours} colours, {share:.1%} of pixels not background")


def glyph_fonts(app: App, selector: str) -> list[dict]:
    """The fonts Chromium really used for the text of each element matching ``selector``."""
    session = app.page.context.new_cdp_session(app.page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        nodes = session.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})
        fonts: list[dict] = []
        for node in nodes["nodeIds"]:
            fonts.extend(session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
        return fonts
    finally:
        session.detach()


def assert_han_glyphs(app: App, selector: str) -> None:
    """Every Han character in these elements was drawn by a font that has it (no tofu)."""
    texts = app.page.locator(selector).all_text_contents()
    han = sum(len(CJK.findall(text)) for text in texts)
    assert han, f"no Chinese text in {selector}: {texts}"
    fonts = glyph_fonts(app, selector)
    drawn = sum(f["glyphCount"] for f in fonts
                if CJK_FONT.search(f.get("familyName") or f.get("postScriptName") or ""))
    # Each Han character is one glyph; Latin letters ("kappa") come from Streamlit's own font.
    assert drawn >= han, f"{selector}: {han} Han characters, CJK fonts drew {drawn}: {fonts}"


def assert_han_drawn_in_svg(app: App, selector: str) -> None:
    """Chart text is SVG, which DevTools reports no fonts for: draw its Han characters on a canvas
    with the element's own font stack. Tofu boxes all look alike, real glyphs all differ."""
    element = app.page.locator(selector).first
    text = element.text_content() or ""
    chars = sorted(set(CJK.findall(text)) | {"观", "测"})  # at least two to compare
    family = element.evaluate("e => getComputedStyle(e).fontFamily")
    drawings = app.page.evaluate(
        """([family, chars]) => chars.map(ch => {
            const canvas = document.createElement('canvas');
            canvas.width = canvas.height = 48;
            const pen = canvas.getContext('2d');
            pen.font = `32px ${family}`;
            pen.fillText(ch, 4, 38);
            return pen.getImageData(0, 0, 48, 48).data.join(','); })""", [family, chars])
    assert all(re.search(r"[1-9]", d) for d in drawings), f"{selector}: a Han glyph drew nothing"
    assert len(set(drawings)) == len(chars), (
        f"{selector}: {len(chars)} Han characters drawn as {len(set(drawings))} shapes (tofu) "
        f"with font-family {family}")


def wait_for_phone_layout(app: App) -> None:
    """After the resize: the sidebar has slid away and every chart fits the narrow screen."""
    app.page.wait_for_function(
        """() => { const bar = document.querySelector('[data-testid="stSidebar"]');
            const charts = [...document.querySelectorAll('.js-plotly-plot .main-svg')];
            return (!bar || bar.getBoundingClientRect().right <= 0)
                && charts.every(c => c.getBoundingClientRect().width <= innerWidth); }""")
    app.settle()


def full_height(app: App) -> int:
    return int(app.page.evaluate(
        """() => document.querySelector('[data-testid="stMainBlockContainer"]').scrollHeight"""))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_page_in_language(app: App, slug: str, lang: str):
    """Every page x language: clean load in the frame, translated nav, screenshots with ink, and
    no label cut off on a desktop or a phone."""
    app.open(f"{page_path(slug)}?lang={lang}")
    assert app.heading() in page_titles(slug, lang)
    assert app.language_box().input_value() == LANGUAGES[lang].name
    assert app.nav_titles() == [t(lang, f"nav.{s}") for s in SLUGS]
    app.wait_for_query(lang=lang)
    app.assert_clean()
    if lang == "zh":
        assert_han_glyphs(app, '[data-testid="stMain"] h1')
        assert_han_glyphs(app, '[data-testid="stSidebar"] [data-testid="stWidgetLabel"] p')
        if app.page.locator(".js-plotly-plot .gtitle").count():
            assert_han_drawn_in_svg(app, ".js-plotly-plot .gtitle")
    desktop_cut = cut_off(app)

    SCREENSHOTS.mkdir(exist_ok=True)
    shots = []
    desktop = SCREENSHOTS / f"{slug}-{lang}-{DESKTOP['width']}x{DESKTOP['height']}.png"
    app.page.screenshot(path=desktop)
    shots.append(desktop)

    # The whole page: the main area scrolls inside the window, so grow the window to fit it.
    height = min(full_height(app) + 100, MAX_FULL_HEIGHT)
    app.page.set_viewport_size({"width": DESKTOP["width"], "height": height})
    app.settle()
    full = SCREENSHOTS / f"{slug}-{lang}-{DESKTOP['width']}-full.png"
    app.page.screenshot(path=full)
    shots.append(full)

    app.page.set_viewport_size(PHONE)
    wait_for_phone_layout(app)
    phone_cut = cut_off(app)
    phone = SCREENSHOTS / f"{slug}-{lang}-{PHONE['width']}x{PHONE['height']}.png"
    app.page.screenshot(path=phone)
    shots.append(phone)

    for shot in shots:
        assert_not_blank(shot)
    app.assert_clean()
    assert (desktop_cut, phone_cut) == ([], []), (
        f"cut off at {DESKTOP['width']} x {DESKTOP['height']}: {desktop_cut}; "
        f"at {PHONE['width']} x {PHONE['height']}: {phone_cut}")
