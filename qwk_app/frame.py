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
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import urlencode

# Imported here, before any session runs a page, never for the first time inside one: while one
# session's thread imports pandas (the table editor, a large upload), plotly in the others finds
# the half-initialised module in sys.modules and fails ("partially initialized module 'pandas'
# has no attribute 'Series'"), seen under the classroom load test.
import pandas  # noqa: F401
import streamlit as st

from qwk_explained.core.types import WEIGHTINGS
from qwk_explained.present.i18n import LANGUAGES, t

from . import state
from .text import show_error, tr

# Everything imported so far (streamlit, pandas, plotly, numpy: about 120,000 objects) lives as
# long as the server. Frozen, the garbage collector stops walking it on every full collection:
# in the classroom load test, time spent collecting went from 0.69 s to 0.47 s.
gc.freeze()

ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = ROOT / "pages"
#: Scale choices in the sidebar: the two conventions, plus a range with explicit ends.
ScaleMode = Literal["range", "observed", "explicit"]
SCALE_MODES: tuple[ScaleMode, ...] = get_args(ScaleMode)


#: The pages, by the file in ``pages/`` that draws each; also its URL path in every language.
PageSlug = Literal["walkthrough", "guided", "checker", "theory", "pitfalls", "practice"]


@dataclass(frozen=True)
class PageSpec:
    slug: PageSlug
    icon: str


PAGES = (
    PageSpec("walkthrough", ":material/calculate:"),
    PageSpec("guided", ":material/footprint:"),
    PageSpec("checker", ":material/fact_check:"),
    PageSpec("theory", ":material/menu_book:"),
    PageSpec("pitfalls", ":material/warning:"),
    PageSpec("practice", ":material/school:"),
)

DEFAULT_PAGE: PageSlug = "walkthrough"

_FRAMED: contextvars.ContextVar[bool] = contextvars.ContextVar("qwk_framed", default=False)


def page_guard() -> None:
    """First line of every page: make sure the page renders inside the frame."""
    if _FRAMED.get():
        return
    run()
    st.stop()


def run() -> None:
    """Render the frame and the current page, then mirror the state into the URL."""
    # No page_title: the browser tab shows the current page's translated title.
    st.set_page_config(page_icon=":material/grid_on:", layout="wide")
    state.init_session()
    current = st.navigation(_pages())
    _sidebar()
    for problem in state.url_problems():
        show_error(problem)
    token = _FRAMED.set(True)
    try:
        current.run()
    finally:
        _FRAMED.reset(token)
    state.write_url()
    _share_link()


def _pages() -> list[st.Page]:
    """The pages, with their translated titles; the URL paths are the file names in every language.

    Streamlit serves the default page at ``/`` and answers its own path with a "page not found"
    dialog, so the walkthrough is the default page under a path nobody links to, and a hidden copy
    of it answers ``/walkthrough`` (the path a reader would guess from the navigation).
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
    return pages


def _sidebar() -> None:
    # format_func runs again outside the script (in tests), so it must not read the session.
    lang = state.lang()
    with st.sidebar:
        st.selectbox(tr("frame.language"), options=list(LANGUAGES), key="lang",
                     format_func=lambda code: LANGUAGES[code].name, help=tr("frame.language_help"),
                     placeholder=tr("common.choose"))
        st.subheader(tr("frame.settings"))
        st.radio(tr("frame.weights"), options=WEIGHTINGS, key=state.bind("weights"),
                 on_change=state.commit("weights"), help=tr("frame.weights_help"),
                 format_func=lambda kind: t(lang, f"common.weights.{kind}"))
        mode_key = "scale_mode_input"
        if mode_key not in st.session_state:
            st.session_state[mode_key] = _scale_mode()
        st.radio(tr("frame.scale"), options=SCALE_MODES, key=mode_key, on_change=_set_scale_mode,
                 help=tr("frame.scale_help"),
                 format_func=lambda mode: t(lang, f"frame.scale_{mode}"))
        if st.session_state[mode_key] == "explicit":
            low, high = st.columns(2)
            low.number_input(tr("frame.min_rating"), step=1, key=state.bind("min"),
                             on_change=state.commit("min"), min_value=-1000, max_value=1000)
            high.number_input(tr("frame.max_rating"), step=1, key=state.bind("max"),
                              on_change=state.commit("max"), min_value=-1000, max_value=1000)


def _scale_mode() -> ScaleMode:
    session = st.session_state
    if session.get("min") is not None or session.get("max") is not None:
        return "explicit"
    return state.settings().scale


def _set_scale_mode() -> None:
    mode = st.session_state["scale_mode_input"]
    if mode == "explicit":
        last = st.session_state.get("last_valid")
        labels = last[0].labels if last is not None else (0, 4)
        state.set_value("scale", "range")
        state.set_value("min", int(labels[0]))
        state.set_value("max", int(labels[-1]))
    else:
        state.set_value("scale", mode)
        state.set_value("min", None)
        state.set_value("max", None)


def _share_link() -> None:
    with st.sidebar:
        st.subheader(tr("frame.share"))
        base = st.context.url or ""
        link = base + "?" + urlencode(st.query_params.to_dict(), safe=",;")
        st.code(link, language=None, wrap_lines=True)
        st.caption(tr("frame.share_help") if state.url_fits() else tr("frame.share_too_long"))
