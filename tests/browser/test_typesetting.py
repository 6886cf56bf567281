"""How the text is set on screen, as Chromium draws it: Chinese in a sans-serif CJK face, the
matrices' vertical title upright in Chinese, titles and headings broken between words on a
phone, the agreement slider's value as the language writes a percentage, the uploader's words in
the reader's language.

Sources of truth: the faces Chromium really used for each glyph (DevTools'
``CSS.getPlatformFontsForNode``), compared with ``qwk_explained.present.typography``; the
browser's own word segmentation (``Intl.Segmenter``, ICU's dictionaries: Chinese words too) for
where a line may break; ``numbers.format_percent`` for the slider; the locale files for every word.
The screenshots go to ``screenshots/`` (git-ignored).
"""

from __future__ import annotations

from typing import Any

import pytest

from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.present.numbers import format_percent
from qwk_explained.present.typography import CJK_SANS_SERIF
from tests.browser.helpers import (
    PHONE,
    SCREENSHOTS,
    SEED_ACTUAL,
    SEED_PREDICTED,
    SLUGS,
    App,
    expect,
    page_path,
)

pytestmark = pytest.mark.browser

SEED = f"actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}"
#: Han characters (the CJK Unified Ideographs block).
HAN = r"[\u4e00-\u9fff]"


def _faces(app: App, selector: str) -> dict[str, int]:
    """The faces Chromium drew the text of the first ``selector`` with: name -> glyphs."""
    session = app.page.context.new_cdp_session(app.page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"nothing matches {selector}"
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    session.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}


def test_chinese_is_set_in_a_sans_serif_cjk_face(app: App):
    """The page's title, a chart's title and its vertical axis title, a paragraph and the
    sidebar's links: every Han glyph in a face of ``CJK_SANS_SERIF`` (the test machine has
    WenQuanYi Micro Hei and, as the fallback it picked before, AR PL's serif faces)."""
    app.open(f"/?lang=zh&{SEED}")
    assert app.page.evaluate("document.documentElement.lang") == "zh"
    for selector in ('[data-testid="stMain"] h1', ".qwk-matrix .qwk-title span",
                     ".qwk-ytitle span",
                     '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p',
                     '[data-testid="stSidebarNavLink"] [data-testid="stMarkdownContainer"] p'):
        faces = _faces(app, selector)
        han = app.page.locator(selector).first.evaluate(
            f"e => (e.textContent.match(/{HAN}/g) || []).length")
        assert han, (selector, "no Han character to check")
        assert sum(count for face, count in faces.items() if face in CJK_SANS_SERIF) >= han, \
            (selector, faces)
        assert not [face for face in faces if face.startswith("AR PL")], (selector, faces)
    app.assert_clean()


def test_the_page_speaks_the_readers_language(app: App):
    """``<html lang>`` follows the language picked, so screen readers use its voice."""
    app.open(f"/?lang=es&{SEED}")
    assert app.page.evaluate("document.documentElement.lang") == "es"
    app.choose_language("tr")
    app.page.wait_for_function("document.documentElement.lang === 'tr'")


_GLYPHS = """e => [...e.textContent].map((_, k) => {
  const range = document.createRange();
  range.setStart(e.firstChild, k); range.setEnd(e.firstChild, k + 1);
  const box = range.getBoundingClientRect(); return [box.top, box.left];
}).filter(([top]) => top !== 0)"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_vertical_axis_title_is_upright_where_the_language_sets_it_so(app: App, lang: str):
    """Chinese: each glyph upright (no turn, mixed orientation), reading top to bottom. Other
    languages: the title turned to read bottom to top, as before."""
    app.open(f"/?lang={lang}&{SEED}")
    title = app.page.locator(".qwk-matrix .qwk-ytitle span").first
    assert title.inner_text().strip() == t(lang, "steps.axis_actual")
    style = title.evaluate("e => [getComputedStyle(e).writingMode, getComputedStyle(e).transform,"
                           " getComputedStyle(e).textOrientation]")
    tops = [top for top, _ in title.evaluate(_GLYPHS)]
    assert style[0] == "vertical-rl" and len(tops) > 1
    if language(lang).upright_in_vertical_text:
        assert style[1] == "none" and style[2] in ("mixed", "upright")
        assert tops == sorted(tops) and tops[0] < tops[-1]
    else:
        assert style[1] != "none"
        assert tops == sorted(tops, reverse=True)
    if lang == "zh":
        SCREENSHOTS.mkdir(exist_ok=True)
        app.page.locator(".qwk-matrix").first.screenshot(path=str(SCREENSHOTS / "upright-zh.png"))


#: For each title and heading of the page: its text, and where each of its lines starts and ends
#: in that text (characters), as laid out; the word boundaries of ``Intl.Segmenter``.
_LINES = """([lang]) => {
  const segmenter = new Intl.Segmenter(lang, {granularity: 'word'});
  return [...document.querySelectorAll('[data-testid="stMain"] :is(h1, h2, h3)')]
    .filter(h => h.getBoundingClientRect().width > 0).map(h => {
      const nodes = []; const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
      let text = ''; const starts = []; let lastTop = null;
      for (const node of nodes) {
        for (let k = 0; k < node.data.length; k++) {
          const range = document.createRange(); range.setStart(node, k); range.setEnd(node, k + 1);
          const box = range.getClientRects()[0];
          if (box && box.width > 0) {
            if (lastTop !== null && box.top > lastTop + box.height / 2) starts.push(text.length);
            lastTop = box.top;
          }
          text += node.data[k];
        }
      }
      const bounds = [...segmenter.segment(text)].map(s => s.index);
      return {text, starts, bounds};
    });
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_titles_and_headings_break_only_between_words_on_a_phone(new_app, app_url: str,
                                                                   lang: str):
    """On a 390 px phone, every line of every title and heading starts at a word boundary (no
    "implementacione/s", no "结/果"), and no line holds a single character."""
    app = new_app(app_url, PHONE)
    broken: list[Any] = []
    for slug in SLUGS:
        app.open(f"{page_path(slug)}?lang={lang}&{SEED}")
        for heading in app.page.evaluate(_LINES, [lang]):
            text, starts = heading["text"], heading["starts"]
            lines = [text[a:b].strip() for a, b in zip([0, *starts], [*starts, len(text)],
                                                       strict=True)]
            inside = [k for k in starts if k not in heading["bounds"]]
            if inside or [line for line in lines if len(line) == 1]:
                broken.append((slug, lines))
    assert not broken, broken
    SCREENSHOTS.mkdir(exist_ok=True)
    app.page.screenshot(path=str(SCREENSHOTS / f"headings-phone-{lang}.png"))
    app.assert_clean()


def _open_tab(app: App, lang: str, slug: str) -> None:
    app.page.get_by_role("tab", name=t(lang, f"inputs.tab_{slug}"), exact=True).click()
    app.settle()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_agreement_slider_writes_a_percentage_as_the_language_does(app: App, lang: str):
    """"60 %" in Spanish, "%60" in Turkish, "60%" in English and Chinese: never "0.60"."""
    app.open(f"/?lang={lang}&{SEED}")
    _open_tab(app, lang, "random")
    slider = app.page.locator('[data-testid="stSlider"]').first
    expect(slider.locator('[data-testid="stSliderThumbValue"]')).to_have_text(
        format_percent(0.6, lang, 0))
    ticks = slider.locator('[data-testid="stSliderTickBar"]').inner_text().splitlines()
    assert [tick for tick in ticks if tick.strip()] == [format_percent(0, lang, 0),
                                                         format_percent(1, lang, 0)]
    assert slider.get_by_role("slider").get_attribute("aria-valuetext") == \
        format_percent(0.6, lang, 0)
    app.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_uploader_speaks_the_readers_language(app: App, lang: str):
    """The button says ``inputs.upload_button`` (its accessible name too), a file dragged over it
    ``inputs.upload_drop``; Streamlit's English hint and a file's English size are hidden."""
    app.open(f"/?lang={lang}&{SEED}")
    _open_tab(app, lang, "upload")
    button = app.page.get_by_role("button", name=t(lang, "inputs.upload_button"), exact=True)
    expect(button).to_have_count(2)
    expect(button.first).to_be_visible()
    zone = app.page.locator('[data-testid="stFileUploaderDropzone"]').first
    assert "Upload" not in zone.inner_text()
    expect(app.page.locator('[data-testid="stFileUploaderDropzoneInstructions"]').first) \
        .to_be_hidden()
    dragged = app.page.evaluate_handle(
        "() => { const d = new DataTransfer(); "
        "d.items.add(new File(['1,2'], 'r.csv', {type: 'text/csv'})); return d; }")
    zone.dispatch_event("dragenter", {"dataTransfer": dragged})
    # While a file is over it, Streamlit adds a box holding only its English sentence.
    overlay = zone.evaluate_handle(
        """zone => new Promise(done => { const find = () => [...zone.children].find(
             child => child.tagName === 'DIV' && child.children.length === 1
                      && child.firstElementChild.tagName === 'SPAN');
           const look = () => find() ? done(find()) : requestAnimationFrame(look); look(); })""")
    said = overlay.evaluate("""box => [getComputedStyle(box, '::after').content,
                                       box.firstElementChild.getBoundingClientRect().width]""")
    assert said == ['"' + t(lang, "inputs.upload_drop") + '"', 0]
    zone.dispatch_event("dragleave", {"dataTransfer": dragged})
    app.page.locator('input[type="file"]').first.set_input_files(files=[{
        "name": "r.csv", "mimeType": "text/csv", "buffer": b"4,0\n4,2\n3,1\n1,1\n"}])
    app.settle()  # the upload reruns the page, which draws the uploader again
    chip = app.page.locator('[data-testid="stFileChip"]').first
    expect(chip).to_contain_text("r.csv")
    expect(chip.locator('[data-testid="stFileChipName"] + div')).to_be_hidden()
    SCREENSHOTS.mkdir(exist_ok=True)
    app.page.locator('[data-testid="stFileUploader"]').first.screenshot(
        path=str(SCREENSHOTS / f"uploader-{lang}.png"))
    app.assert_clean()


def test_the_notebook_heatmaps_y_title_is_upright_and_left_of_its_ticks(new_app, app_url: str):
    """The plotly figure a notebook shows, drawn by plotly.js in Chromium: in Chinese the y title
    is an unturned column of glyphs, left of the rating labels and beside the matrix."""
    from qwk_explained import walkthrough
    from qwk_explained.present.figures import walkthrough_figure

    result = walkthrough(SEED_ACTUAL, SEED_PREDICTED)
    html = walkthrough_figure(result, "observed", "zh").to_html(include_plotlyjs=True,
                                                                 full_html=True)
    app = new_app(app_url)
    app.page.set_content(html)
    app.page.wait_for_selector(".annotation-text")
    shown = app.page.evaluate(r"""() => {
      const note = document.querySelector('.annotation-text');
      const ticks = [...document.querySelectorAll('.ytick text')]
        .map(t => t.getBoundingClientRect());
      const plot = document.querySelector('.heatmaplayer').getBoundingClientRect();
      const box = note.getBoundingClientRect();
      return {lines: [...note.querySelectorAll('tspan.line')].map(l => l.textContent),
              turned: [...document.querySelectorAll('.annotation *')].some(e =>
                /rotate\(\s*-?[1-9]/.test(e.getAttribute('transform') || '')),
              right: box.right, tickLeft: Math.min(...ticks.map(t => t.left)),
              top: box.top, bottom: box.bottom, plotTop: plot.top, plotBottom: plot.bottom,
              left: box.left};
    }""")
    assert shown["lines"] == list(t("zh", "steps.axis_actual")) and not shown["turned"]
    assert 0 <= shown["left"] and shown["right"] <= shown["tickLeft"]
    assert shown["plotTop"] <= shown["top"] and shown["bottom"] <= shown["plotBottom"]
    SCREENSHOTS.mkdir(exist_ok=True)
    app.page.screenshot(path=str(SCREENSHOTS / "notebook-heatmap-zh.png"))
