"""The frame around every page: page config, language, shared settings, navigation, the URL.

``app.py`` calls :func:`run`. Each file in ``pages/`` starts with :func:`page_guard`: Streamlit runs
a top-level ``pages/`` folder in its old automatic multipage mode until some session has called
``st.navigation``, so on a freshly started server the first visit to a deep link (``/checker?...``)
runs that page file alone. The guard notices that no frame is around the page, runs the frame
itself (which switches the server to ``st.navigation`` and renders the requested page inside it),
then stops the bare run.
"""

from __future__ import annotations

import contextvars
import gc
import io
import os
from dataclasses import dataclass
from typing import Literal, NoReturn
from urllib.parse import urlencode

# Imported here, before any session runs a page, never for the first time inside one: while one
# session's thread imports pandas (the table editor, a large upload), a library in another that
# looks pandas up in sys.modules finds the half-initialised module and fails ("partially
# initialized module 'pandas' has no attribute 'Series'"; plotly did, under the classroom load
# test, when the app still drew with it).
import pandas  # noqa: F401
import streamlit as st

from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES

from . import ROOT, charts, compute, links, memory, state, weights_editor, wire
from .text import show_error, tr

wire.install()  # widget values no browser sends read as no value, before any session runs
memory.return_freed_memory()  # what a session frees goes back to the system
memory.start_collector()  # and a session Streamlit dropped is freed, even on a quiet server

# Everything imported so far (streamlit, pandas, numpy: about 90,000 objects) lives as
# long as the server. Frozen, the garbage collector stops walking it on every full collection:
# in the classroom load test, time spent collecting went from 0.69 s to 0.47 s.
gc.freeze()

PAGES_DIR = ROOT / "pages"


#: The pages, by the file in ``pages/`` that draws each; also its URL path in every language.
PageSlug = Literal["walkthrough", "step_by_step", "checker", "theory", "pitfalls", "practice",
                   "compare", "thresholds", "teach", "join"]


@dataclass(frozen=True)
class PageSpec:
    slug: PageSlug
    icon: str


PAGES = (
    PageSpec("walkthrough", ":material/calculate:"),
    PageSpec("step_by_step", ":material/footprint:"),
    PageSpec("checker", ":material/fact_check:"),
    PageSpec("theory", ":material/menu_book:"),
    PageSpec("pitfalls", ":material/warning:"),
    PageSpec("practice", ":material/school:"),
    PageSpec("compare", ":material/compare_arrows:"),
    PageSpec("thresholds", ":material/tune:"),
    PageSpec("teach", ":material/co_present:"),
    PageSpec("join", ":material/group_add:"),
)

DEFAULT_PAGE: PageSlug = "walkthrough"
#: Addresses a page had before it was renamed: links shared then still open it (the address bar
#: keeps the old path; the share box gives the new one).
ALIASES: dict[str, PageSlug] = {"guided": "step_by_step"}
#: A setting of the sidebar shared by the pages.
Setting = Literal["weights", "scale"]
#: The sidebar settings each page uses; a page that ignores a setting does not show it (the
#: practice page's exercises bring their own; the pitfalls page compares every scale itself).
PAGE_SETTINGS: dict[PageSlug, tuple[Setting, ...]] = {
    "walkthrough": ("weights", "scale"), "step_by_step": ("weights", "scale"),
    "checker": ("weights", "scale"), "theory": ("weights", "scale"),
    "pitfalls": ("weights",), "practice": (), "compare": ("weights", "scale"),
    # The scale is the actual ratings' range: the cut points make the predicted ratings.
    "thresholds": ("weights",),
    "teach": ("weights", "scale"), "join": (),
}
#: Pages that show links of their own (a class's link and QR): the share box would only repeat
#: the page's address.
OWN_LINKS: tuple[PageSlug, ...] = ("teach", "join")

#: Styles every page needs:
#:
#: - a formula's box scrolls sideways only as a last resort (formulas wrap themselves to fit a
#:   phone) and has room above and below for a tall fraction, which KaTeX draws beyond the box's
#:   line box (the box hid what was taller than itself);
#: - titles and headings break between words, never inside one: on a phone Streamlit's 44 px
#:   title split "implementacione/s" and Chinese "结/果". ``keep-all`` lets Chinese break only at
#:   spaces and punctuation, as between words; smaller on a narrow screen (a title at most 6.5 %
#:   of the screen's width: 13 Han characters on one line of a 360 px phone), the longest word or
#:   run of Han characters fits (one that does not still breaks, Streamlit's ``overflow-wrap``);
#:   balanced, no line is left with one character;
#: - Streamlit's "Press Ctrl+Enter to apply" under a field being typed in is English in every
#:   language and cannot be translated: it is hidden, and the help of each field that needs it
#:   says so in the reader's language (``checker.table_help``; the rating fields apply by
#:   themselves).
_STYLE = """
[data-testid="stMarkdownContainer"] .katex-display {
  overflow-x: auto; overflow-y: hidden; padding: 0.4em 0.15em; margin: 0.2em 0;
}
[data-testid="stMain"] :is(h1, h2, h3) { text-wrap: balance; word-break: keep-all; }
@media (max-width: 640px) {
  [data-testid="stMain"] h1 { font-size: min(1.75rem, 6.5vw); }
  [data-testid="stMain"] h2 { font-size: min(1.5rem, 5.5vw); }
  [data-testid="stMain"] h3 { font-size: 1.25rem; }
}
[data-testid="InputInstructions"] { display: none; }
/* Every rerun the browser styled, laid out and painted the whole page again (thousands of KaTeX
   and chart nodes, most of them far below the screen): it now skips each element off the screen
   (about 60 ms less main-thread work per edit, bench/bench_browser.py), keeping the height each
   had when last drawn. Skipping brings paint containment, which would clip what overflows an
   element's box (a heading's or formula's bottom, over Streamlit's negative margins): the clip
   margin leaves those drawn. Streamlit's fading of stale elements stays: it starts 0.5 s into a
   rerun, so a quick edit never pays for it, and it shows a long rerun is under way. */
[data-testid="stMain"] [data-testid="stElementContainer"] {
  content-visibility: auto; contain-intrinsic-size: auto 2.5em; overflow-clip-margin: 2rem; }
/* Touch screens: Streamlit's grid toolbar (search, download, full screen) stays shown there, over
   the last row of cells and the help text, and a tap meant for a cell opens it. */
@media (hover: none) { [data-testid="stElementToolbar"] { display: none; } }
/* The share QR code shown large: most of the screen's height, whole, centred, its modules sharp. */
.st-key-big_qr img {
  height: 65vh; width: auto !important; max-width: 100%; object-fit: contain; margin: 0 auto;
  display: block; image-rendering: pixelated;
}
"""
#: Presenter mode: type large enough for the back of a room, every chart with it, and one step on
#: one projected screen (1280 x 720 at 150 %): a thin band at the top holding the large QR code's
#: button, the title beside the folded ratings, the four numbers on one line, and each matrix as
#: large as the room the step leaves it (``--qwk-fit-bottom``: from its top down to the buttons
#: under the step; what is folded, and the other pages, keep the usual limit).
_PRESENTER_STYLE = """
html { font-size: 22px; }
[data-testid="stMain"] { font-size: 1rem; }
[data-testid="stHeader"] { background: transparent; }
[data-testid="stHeader"], [data-testid="stHeader"] * { pointer-events: none; }
[data-testid="stHeader"] :is(button, a), [data-testid="stHeader"] :is(button, a) * {
  pointer-events: auto; }
.st-key-share_qr_large { position: fixed; top: 0.35rem; right: 3.4rem; z-index: 999991;
  width: auto; }
.st-key-share_qr_large button { min-height: 0; padding: 0.15rem 0.4rem; }
.st-key-share_qr_large button [data-testid="stMarkdownContainer"] {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
[data-testid="stMainBlockContainer"] { max-width: 100%; padding: 2.6rem 1rem 0.4rem 1rem; }
/* The walkthrough's header rises into the band, beside the sidebar's button. */
[data-testid="stMainBlockContainer"]:has(.st-key-presenter_head) { padding-top: 0.3rem; }
.st-key-presenter_head { padding-left: 2rem; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.5rem; }
[data-testid="stMain"] h1 { font-size: 1.3rem; padding: 0; }
[data-testid="stMain"] h3 { font-size: 1.25rem; padding: 0.2rem 0 0 0; }
[data-testid="stMain"] [data-testid="stExpander"] summary { padding-block: 0.3rem; }
[data-testid="stMetric"] > div { display: flex; flex-wrap: wrap; align-items: baseline;
  column-gap: 0.5em; }
[data-testid="stMetric"] [data-testid="stMetricValue"] { font-size: 1.4rem; }
[data-testid="stMetric"] [data-testid="stMetricLabel"] { min-height: 0; }
[class*="st-key-present_"] button { min-height: 0; padding-block: 0.25rem; }
.st-key-presented_step .katex { font-size: 1em; }
.qwk-chart { font-size: 0.9em; }
.qwk-cell { height: 1.8em; line-height: 1.8em; }
.st-key-presented_step .qwk-chart { --qwk-fit-bottom: 3.6rem; }
.st-key-presented_step [data-testid="stExpander"] .qwk-chart { --qwk-fit-bottom: 0px; }
"""


def css_string(text: str) -> str:
    r"""``text`` as a CSS string literal: everything but letters, digits and spaces is written as
    its code point (``\22`` for a quote), so no text can end the string or the rule.

    >>> print(css_string('Elegir "archivo"'))
    "Elegir \22 archivo\22 "
    """
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


def _uploader_style(button: str, drop: str) -> str:
    """The file uploader in the reader's words, as far as a style reaches.

    Its own texts are English whatever the language, and Streamlit 1.67 offers no option for
    them. The button's "Upload" and the "Drag and drop a file here" shown while a file is dragged
    over it become ``button`` and ``drop`` (generated content, which the button's accessible name
    includes); the "20MB per file • CSV, TXT, TSV" hint and each uploaded file's size ("16.0B",
    written the English way) are hidden, the upload tab stating the limit in the reader's
    language above the uploaders (the file dialog offers only the accepted types). What no style
    reaches is listed in the README.
    """
    zone = '[data-testid="stFileUploaderDropzone"]'
    label = f'{zone} [data-testid="stBaseButton-secondary"] [data-testid="stMarkdownContainer"]'
    dragged = f"{zone} > div:has(> span:only-child)"  # the box shown while a file is over it
    return (f"{label} p, {dragged} > span, [data-testid=\"stFileUploaderDropzoneInstructions\"],"
            f" [data-testid=\"stFileChipName\"] + div {{ display: none; }}\n"
            f"{label}::after {{ content: {css_string(button)}; }}\n"
            f"{dragged}::after {{ content: {css_string(drop)}; }}\n")


def _wide_formula_style(hint: str) -> str:
    """A formula wider than its column says that it scrolls sideways, in the reader's words.

    Such a formula (a matrix of four-decimal numbers, a long fraction, on a 390 px phone) scrolls
    inside its box, and phones draw no scrollbar until it is touched. While it overflows, and
    only then, its right edge carries a shadow and a line under it says ``hint``; the line stays
    at the box's left edge while the formula scrolls. A scroll timeline is active only on a box
    that can scroll, so the animation that sets both does nothing to a formula that fits.
    """
    display = '[data-testid="stMarkdownContainer"] .katex-display'
    return (f"@keyframes qwk-wide-formula {{ from, to {{ --qwk-scroll-hint: {css_string(hint)};"
            " box-shadow: inset -14px 0 12px -12px rgba(49, 51, 63, 0.5); } }\n"
            f"{display} {{ animation: qwk-wide-formula auto linear both;"
            " animation-timeline: scroll(self inline); }\n"
            f"{display}::after {{ content: var(--qwk-scroll-hint, none); display: block;"
            " position: sticky; left: 0; width: max-content; max-width: 100%; white-space: normal;"
            " text-align: start; font-size: 0.8rem; opacity: 0.75; margin-top: 0.3em; }\n")


def page_style(*, presenter: bool) -> str:
    """The page's ``<style>``: what every page needs, the uploader's words and the hint of a
    formula that scrolls in the reader's language, and presenter mode's large type."""
    uploader = _uploader_style(tr("inputs.upload_button"), tr("inputs.upload_drop"))
    wide = _wide_formula_style(tr("frame.formula_scrolls"))
    return f"<style>{_STYLE}{uploader}{wide}{_PRESENTER_STYLE if presenter else ''}</style>"


#: Parameters of a session's own address that no link given to others may carry: presenter mode
#: (the teacher's), a class's teacher key and a student's token (secrets of one browser).
PRIVATE_PARAMS = (state.PRESENTER_PARAM, *state.SECRET_PARAMS)

_FRAMED: contextvars.ContextVar[bool] = contextvars.ContextVar("qwk_framed", default=False)


class PageEnded(Exception):
    """Raised by :func:`end_page`: the page has drawn all it can for now."""


def end_page() -> NoReturn:
    """End the page here, as ``st.stop()`` would, but let the frame finish its run.

    ``st.stop()`` ends the whole run, frame included: a first visit with nothing valid to show
    (``/?min=5&max=1``) then never wrote its address bar or its share box.
    """
    raise PageEnded


def page_guard() -> None:
    """First line of every page: make sure the page renders inside the frame."""
    if _FRAMED.get():
        return
    run()
    st.stop()


def run() -> None:
    """Render the frame and the current page, then mirror the state into the URL."""
    state.init_session()
    presenter = presenting()
    # No page_title: the browser tab shows the current page's translated title. In presenter mode
    # the sidebar starts folded: the projected screen belongs to the steps.
    st.set_page_config(page_icon=":material/grid_on:", layout="wide",
                       initial_sidebar_state="collapsed" if presenter else "auto")
    current = st.navigation(_pages())
    slug = _slug(current.url_path)
    # The page's own path, not its file: "/" and "/walkthrough" draw their widgets apart.
    st.session_state[state.PAGE_KEY] = current.url_path
    st.html(page_style(presenter=presenter))
    _sidebar(PAGE_SETTINGS.get(slug, ("weights", "scale")))
    for problem in state.url_problems():
        show_error(problem)
    # Presenter mode: the share QR code, large, one click away (the sidebar that holds it is
    # folded); filled once the page has put its state into the URL.
    big_qr = st.container() if presenter and slug not in OWN_LINKS else None
    token = _FRAMED.set(True)
    try:
        current.run()
    except PageEnded:
        pass
    finally:
        _FRAMED.reset(token)
    state.write_url()
    if slug not in OWN_LINKS:  # the class pages show links and a large QR of their own
        _share_link(current.url_path)
    if big_qr is not None:
        with big_qr:
            _big_qr_button(current.url_path)


def presenting() -> bool:
    """Whether presenter mode is on (large type, sidebar folded, one step at a time)."""
    return bool(st.session_state.get("presenter"))


def _slug(url_path: str) -> PageSlug:
    """The page file's name for a URL path (the walkthrough is served at "" and "home" too, a
    renamed page at its old path too)."""
    path = url_path.strip("/")
    path = ALIASES.get(path, path)
    return next((spec.slug for spec in PAGES if spec.slug == path), DEFAULT_PAGE)


def _pages() -> list[st.Page]:
    """The pages, with their translated titles; the URL paths are the file names in every language.

    Streamlit serves the default page at ``/`` and answers its own path with a "page not found"
    dialog, so the walkthrough is the default page under a path nobody links to, and a hidden copy
    of it answers ``/walkthrough`` (the path a reader would guess from the navigation). A hidden
    copy of a renamed page answers each of its old paths (:data:`ALIASES`).
    """
    pages = []
    for spec in PAGES:
        path, title = PAGES_DIR / f"{spec.slug}.py", tr(f"nav.{spec.slug}")
        if spec.slug == DEFAULT_PAGE:
            pages.append(st.Page(path, title=title, icon=spec.icon, url_path="home", default=True))
            pages.append(st.Page(path, title=title, icon=spec.icon, url_path=spec.slug,
                                 visibility="hidden"))
        else:
            pages.append(st.Page(path, title=title, icon=spec.icon, url_path=spec.slug))
        pages += [st.Page(path, title=title, icon=spec.icon, url_path=old, visibility="hidden")
                  for old, slug in ALIASES.items() if slug == spec.slug]
    return pages


def _sidebar(settings: tuple[Setting, ...]) -> None:
    # format_func runs again outside the script (in tests), so it must not read the session.
    lang = state.lang()
    session = st.session_state
    with st.sidebar:
        st.selectbox(tr("frame.language"), options=state.LANGUAGE.options,
                     key=state.LANGUAGE.show(session), on_change=state.LANGUAGE.commit,
                     args=(session,), help=tr("frame.language_help"),
                     format_func=lambda code: LANGUAGES[code].name,
                     placeholder=tr("common.choose"))
        st.toggle(tr("presenter.toggle"), key=state.bind("presenter"),
                  on_change=state.commit("presenter"), help=tr("presenter.toggle_help"))
        if presenting():
            st.toggle(tr("presenter.together"), key=state.bind("together"),
                      on_change=state.commit("together"), help=tr("presenter.together_help"))
        if not settings:
            return
        st.subheader(tr("frame.settings"))
        if "weights" in settings:
            st.radio(tr("frame.weights"), options=state.WEIGHTS.options,
                     key=state.WEIGHTS.show(session), on_change=weights_editor.choose,
                     args=(session,), help=tr("frame.weights_help"),
                     format_func=lambda kind: t(lang, f"common.weights.{kind}"))
            weights_editor.draw(session)
        if "scale" in settings:
            _scale_settings(lang)


def _scale_settings(lang: str) -> None:
    session = st.session_state
    mode = state.scale_mode(session)
    with st.sidebar:
        st.radio(tr("frame.scale"), options=state.SCALE_MODE.options,
                 key=state.SCALE_MODE.show(session, mode), on_change=state.set_scale_mode,
                 args=(session,), help=tr("frame.scale_help"),
                 format_func=lambda mode: t(lang, f"frame.scale_{mode}"))
        if mode == "explicit":
            low, high = st.columns(2)
            for column, key in ((low, "min"), (high, "max")):
                column.number_input(tr(f"frame.{key}_rating"), step=1, key=state.bind(key),
                                    on_change=state.commit(key),
                                    min_value=state.RATING_RANGE[0],
                                    max_value=state.RATING_RANGE[1])


def share_link(url_path: str) -> tuple[str, bool]:
    """The link to this view that students can open, and whether other devices can open it.

    Built from the public address (:func:`qwk_app.links.public_base`: ``QWK_PUBLIC_URL``, then
    Streamlit's ``browser.serverAddress``, then the address this page was opened with), the
    page's path and the state in the address bar, less what is the teacher's own (presenter
    mode) or a secret of this browser's (:data:`PRIVATE_PARAMS`: a class's teacher key, a
    student's token). The vectors go the short way (:func:`state.vector_params`), so the QR code
    has coarse modules a phone reads from the back of a room.
    """
    base = public_base()
    path = _slug(url_path)
    params = {k: v for k, v in st.query_params.to_dict().items()
              if k not in (*PRIVATE_PARAMS, *state.VECTOR_PARAMS)}
    params.update(state.vector_params(st.session_state, short=True))
    page = "" if path == DEFAULT_PAGE else path
    return f"{base.url}/{page}?{urlencode(params, safe=',;')}", base.reachable


def public_base() -> links.Base:
    """Where links to this app start, as students can open them (:func:`links.public_base`)."""
    return links.public_base(
        configured=os.environ.get(links.PUBLIC_URL_ENV),
        server_address=st.get_option("browser.serverAddress"),
        server_port=st.get_option("browser.serverPort"),
        base_path=st.get_option("server.baseUrlPath") or "",
        opened=st.context.url)


@compute.cached
def qr_png(link: str, scale: int = 6) -> bytes | None:
    """The link as a QR code (PNG), or ``None`` when it is too long for one.

    Drawn once per link, for every session (:func:`compute.cached`): choosing the best of the
    eight masks is pure Python and costs about 50 ms for a link with 200 ratings, half of the
    walkthrough's whole rerun, and the share box draws the QR code on every rerun of every page:
    thirty students opening the teacher's link, a setting switched back, an undo, a rerun that
    changes nothing the link holds draw a QR code already drawn.
    """
    import segno  # only where a QR code is drawn

    try:
        code = segno.make(link, error="m", micro=False, boost_error=False)
    except segno.DataOverflowError:
        return None
    image = io.BytesIO()
    code.save(image, kind="png", scale=scale, border=2)
    return image.getvalue()


def _big_qr_button(url_path: str) -> None:
    """A button that shows the share link's QR code on most of the screen, for the back row."""
    link, _ = share_link(url_path)
    image = qr_png(link)
    if image is None:
        return

    @st.dialog(tr("share.qr_caption"), width="large")
    def show() -> None:
        with st.container(key="big_qr"):
            st.image(image, width="stretch", alt=tr("share.qr_alt", link=link))
        st.caption(link)

    if st.button(tr("share.qr_large"), key="share_qr_large", icon=":material/qr_code_2:"):
        show()


def _share_link(url_path: str) -> None:
    link, reachable = share_link(url_path)
    with st.sidebar:
        st.subheader(tr("frame.share"))
        st.code(link, language=None, wrap_lines=True)
        charts.copy_button(link, key="share_copy")
        image = qr_png(link)
        if image is None:
            st.caption(tr("share.qr_too_long"))
        else:
            st.image(image, caption=tr("share.qr_caption"), width=220,
                     alt=tr("share.qr_alt", link=link))
        st.caption(tr("frame.share_help") if state.url_fits() else tr("frame.share_too_long"))
        if not reachable:
            st.caption(tr("share.local_only", variable=links.PUBLIC_URL_ENV))
