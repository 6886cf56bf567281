"""No user text is ever rendered as HTML or markdown: it shows exactly as typed, as plain text.

Streamlit renders the body of st.markdown, st.caption, st.error/warning/info/success, headings and
widget labels as markdown (raw HTML only with unsafe_allow_html). So (1) the code never uses raw
HTML at all, and (2) every piece of user text that reaches a markdown body (tokens quoted in error
messages, values from a shared link, file names) arrives escaped: HTML tags, links, images,
emphasis and math from a user stay literal characters. Source of truth: CommonMark's backslash
escapes (any ASCII punctuation preceded by a backslash is that literal character).
"""

from __future__ import annotations

import re

import pytest

from qwk_app import references, state
from qwk_app.text import escape_markdown
from qwk_explained import InputError, parse_vector
from qwk_explained.present.i18n import error_message
from qwk_explained.present.languages import LANGUAGES
from tests import ROOT
from tests.app.helpers import PAGE_SLUGS, assert_clean, enter_text, open_app, open_tab, type_ratings

PAYLOADS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "**bold** [link](javascript:alert(1))",
    "$\\href{javascript:alert(1)}{x}$",
    "![p](https://example.com/p.png)",
    "[a](https://example.com)",
)
URL_KEYS = (*state.URL_KEYS, *state.PAGE_URL_KEYS)
#: Element kinds whose text Streamlit renders as markdown.
MARKDOWN_KINDS = ("markdown", "caption", "error", "warning", "info", "success", "exception",
                  "title", "header", "subheader", "toast")
WIDGET_KINDS = ("text_area", "text_input", "number_input", "selectbox", "radio", "button",
                "file_uploader", "slider", "pills", "segmented_control", "checkbox", "toggle")


# --- the code -------------------------------------------------------------------------------------

RAW_HTML = re.compile(r"unsafe_allow_html|st\.html\s*\(|components\.html|components\.v1|"
                      r"st\.components|\.html\s*\(|components\.iframe")


#: The only raw HTML the app draws, each built without any user text: the page's own styles (the
#: uploader's translated words written by ``frame.css_string``), and the light charts'
#: component, whose HTML comes from ``qwk_explained.present.charts`` (numbers, rating labels and
#: translated words, all escaped).
ALLOWED_RAW_HTML = {
    "qwk_app/frame.py": "st.html(page_style(presenter=presenter))",
    "qwk_app/charts.py": "_COMPONENT = st.components.v2.component(",
    "qwk_app/answer_grid.py": "_COMPONENT = st.components.v2.component(",
}


def test_the_app_never_renders_raw_html():
    """Static check: no unsafe_allow_html, st.html or components anywhere in the app code but
    the two known places, so no user text can reach raw HTML (the markdown path is checked
    below, the charts' escaping in test_the_charts_escape_every_text)."""
    files = [ROOT / "app.py", *[path for folder in ("pages", "qwk_app", "qwk_explained")
                                for path in sorted((ROOT / folder).rglob("*.py"))]]
    hits = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for path in files
            for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
            if RAW_HTML.search(line)
            and ALLOWED_RAW_HTML.get(str(path.relative_to(ROOT))) != line.strip()]
    assert not hits, hits


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_charts_escape_every_text(payload):
    """Whatever text a chart is given (a title, axis and legend names, a rating label), it is
    written as text: no tag, attribute or entity of it survives into the HTML."""
    from qwk_explained.present import charts

    matrix = charts.matrix_html([[1, 0], [0, 1]], [payload, 1], title=payload, x_title=payload,
                                y_title=payload, kind="counts", lang="en", full_label=payload,
                                integer=True)
    bars = charts.histogram_html([payload, 1], [1, 1], [1, 1], title=payload, x_title=payload,
                                 y_title=payload, actual_name=payload, predicted_name=payload,
                                 lang="en", full_label=payload)
    for html in (matrix, bars):
        assert "<script" not in html and "<img" not in html
        assert payload not in html or not any(c in payload for c in "<>\"&")


# --- what reaches a markdown body -----------------------------------------------------------------

def _unescaped(body: str, pattern: str) -> list[str]:
    """Matches of ``pattern`` whose first character is not backslash-escaped in ``body``."""
    found = []
    for match in re.finditer(pattern, body):
        slashes = len(body[: match.start()]) - len(body[: match.start()].rstrip("\\"))
        if slashes % 2 == 0:
            found.append(match.group())
    return found


def assert_inert(body: str) -> None:
    """No HTML tag, link, image, emphasis, math or autolink that a user could have written."""
    for pattern in (r"<\s*[A-Za-z/!?]", r"\]\(", r"\*\*bold", r"\$\\+href", r"javascript:",
                    r"https?:", r"!\["):
        assert not _unescaped(body, pattern), (pattern, body)


#: The theory page's reference lists: links the app writes itself, to fixed addresses in the code
#: (``qwk_explained.teaching.sources``), so no user text can reach them.
APP_LINKS = {text for lang in LANGUAGES
             for text in (references.references_markdown(lang), references.sources_markdown(lang))}


def markdown_bodies(at) -> list[str]:
    bodies = [el.value for kind in MARKDOWN_KINDS for el in at.get(kind)
              if isinstance(getattr(el, "value", None), str) and el.value not in APP_LINKS]
    for metric in at.metric:
        bodies.extend([metric.label, metric.proto.help])
    for kind in WIDGET_KINDS:
        for widget in at.get(kind):
            bodies.extend([getattr(widget, "label", "") or "", getattr(widget, "help", "") or ""])
    return bodies


def unescape(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_escape_markdown_keeps_every_character_and_neutralises_markup(payload):
    """CommonMark: a backslash before ASCII punctuation is that character, so the escaped text
    shows exactly the payload, and none of its markup survives."""
    escaped = escape_markdown(payload)
    assert unescape(escaped) == payload
    assert_inert(escaped)


@pytest.fixture(scope="module")
def walkthrough_app():
    return open_app("walkthrough", lang="en")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_typed_as_a_vector_is_shown_as_plain_text(walkthrough_app, payload):
    """User flow: type markup into a vector -> the engine's message quotes it escaped (it reads
    exactly as the engine's plain message), and the field keeps it verbatim."""
    at = walkthrough_app
    type_ratings(at, payload)
    assert_clean(at)
    assert at.text_input(key="actual_input").value == payload
    with pytest.raises(InputError) as raised:
        parse_vector(payload)
    messages = [e.value for e in at.error]
    plain = error_message("en", raised.value)
    assert plain in [unescape(m) for m in messages]
    for body in markdown_bodies(at):
        assert_inert(body)


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("page", PAGE_SLUGS)
def test_payload_in_every_url_parameter_of_every_page(page, payload):
    """A shared link whose every parameter is markup: no traceback, nothing rendered."""
    at = open_app(page, **dict.fromkeys(URL_KEYS, payload))
    assert_clean(at)
    for body in markdown_bodies(at):
        assert_inert(body)
    for area in at.text_input:
        if area.key in ("actual_input", "predicted_input"):
            assert area.value == payload


@pytest.mark.parametrize("page", PAGE_SLUGS)
def test_payload_in_every_text_field_of_every_page(page):
    """Every text field of every page gets markup typed in: kept verbatim, rendered nowhere."""
    at = open_app(page, lang="en")
    # The page's own fields first: bad vectors (typed last) may hide fields that need a result.
    fields = [("text_input", w.key) for w in at.text_input] + \
        [("text_input", w.key) for w in at.text_input]
    for index, (kind, key) in enumerate(fields):
        payload = PAYLOADS[index % len(PAYLOADS)]
        if key not in {w.key for w in at.get(kind)}:
            continue
        enter_text(at, kind, key, payload)
        assert_clean(at)
        assert getattr(at, kind)(key=key).value == payload
        for body in markdown_bodies(at):
            assert_inert(body)


def test_markup_in_an_uploaded_file_name_and_cells_is_not_rendered(walkthrough_app):
    """An upload: its file name and a bad cell are quoted in messages, escaped."""
    at = open_tab(walkthrough_app, "upload")
    name = "**bold** [a](https:x).csv"
    at.file_uploader(key="upload_first").set_value((name, b"a,p\n1,2\n2,1\n", "text/csv")).run()
    assert_clean(at)
    for body in markdown_bodies(at):
        assert_inert(body)
    cell = b"a,p\n1,2\n<img src=x>,1\n"
    at.file_uploader(key="upload_first").set_value(("x.csv", cell, "text/csv")).run()
    assert_clean(at)
    assert at.error
    for body in markdown_bodies(at):
        assert_inert(body)
