"""The class pages' glue: the process's one :class:`qwk_class.classroom.Classroom`, who is asking
(teacher or student, from the session and its first URL), and the figures of the teacher's view.

The class logic and its storage live in :mod:`qwk_class`, which knows nothing of Streamlit; the
pages (``pages/teach.py``, ``pages/join.py``) only lay out what this module hands them.

A teacher's session holds the class code and the teacher's key (``class_code``, ``class_key``);
a student's the code and their own token (``class_code``, ``class_token``). Both also go into the
session's own URL (``?class=...&key=...`` for the teacher, ``?class=...&me=...`` for a student),
so a reload, or a reconnection to another server after one has gone down, finds the class again;
the link students are given carries the code alone (:func:`join_link`).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from typing import Any

import streamlit as st

from qwk_class import codes
from qwk_class.classroom import ClassError, Classroom, Student, guess_bins
from qwk_class.store import DATABASE_ENV, Store, default_url
from qwk_explained.present.numbers import format_number

from . import ROOT, frame, state
from .text import tr

#: Session keys of the class this session is in, and how it is in it.
CODE, KEY, TOKEN = "class_code", "class_key", "class_token"
#: URL parameters: the class code (in every class link), the teacher's key (the teacher's own
#: link only) and a student's token (that student's own link only).
CODE_PARAM = "class"
KEY_PARAM, TOKEN_PARAM = state.SECRET_PARAMS
#: Seconds between two refreshes of the teacher's view, and of a waiting student's page.
TEACHER_REFRESH_S = 2.0
STUDENT_REFRESH_S = 4.0


def database_url() -> str:
    """``QWK_CLASS_DB``, else the SQLite file in the checkout."""
    return os.environ.get(DATABASE_ENV) or default_url(ROOT)


@st.cache_resource(show_spinner=False)
def _classroom(url: str) -> Classroom:
    store = Store(url)
    store.migrate()
    room = Classroom(store)
    room.sweep()  # classes that expired while no server ran
    return room


def room() -> Classroom:
    """The process's classroom (one pool of database connections shared by every session)."""
    return _classroom(database_url())


def source() -> str:
    """Who is asking, for the rate limits: the client's address. Behind the project's nginx
    (a proxy on this machine) it is the address nginx received the request from."""
    peer = st.context.ip_address
    peer = peer if isinstance(peer, str) else ""  # no address at all in a test's session
    forwarded = st.context.headers.get("X-Real-Ip", "")
    forwarded = forwarded if isinstance(forwarded, str) else ""
    try:
        if forwarded and (not peer or ipaddress.ip_address(peer).is_loopback):
            return forwarded[:64]
    except ValueError:
        pass
    return peer[:64] or "unknown"


def url_class() -> tuple[str | None, str | None, str | None]:
    """The class code, teacher's key and student's token of this session's first URL, each
    checked (``None`` when absent or not well formed)."""
    return (codes.read_code(state.url_value(CODE_PARAM)),
            codes.read_key(state.url_value(KEY_PARAM)),
            codes.read_key(state.url_value(TOKEN_PARAM)))


def adopt_url(*, teacher: bool) -> None:
    """On a session's first run, take the class from its URL (a reload, a reconnection)."""
    code, key, token = url_class()
    session = st.session_state
    if code is not None and CODE not in session:
        session[CODE] = code
    secret = key if teacher else token
    if secret is not None and (KEY if teacher else TOKEN) not in session:
        session[KEY if teacher else TOKEN] = secret


def keep_in_url(*, teacher: bool) -> None:
    """Put this session's class (and its own secret) into its own address bar."""
    session = st.session_state
    if CODE in session:
        state.share(CODE_PARAM, session[CODE])
    secret = session.get(KEY if teacher else TOKEN)
    if secret is not None:
        state.share(KEY_PARAM if teacher else TOKEN_PARAM, secret)


def leave() -> None:
    """Forget the class in this session (after a delete, or to join another)."""
    for key in (CODE, KEY, TOKEN):
        st.session_state.pop(key, None)


def me() -> Student | None:
    """The student this session is, or ``None`` (not joined, or the class is gone)."""
    session = st.session_state
    if CODE not in session or TOKEN not in session:
        return None
    try:
        return room().student(session[CODE], session[TOKEN])
    except ClassError:
        return None


def join_link(code: str) -> tuple[str, bool]:
    """The link students open (the class code alone), and whether other devices can open it."""
    base = frame.public_base()
    return f"{base.url}/join?{CODE_PARAM}={code}", base.reachable


# --- charts of the teacher's view -------------------------------------------------------------
# Vega-Lite specifications (``st.vega_lite_chart``): drawn in the browser by the library Streamlit
# ships, no plotting package on the server. Every label is written here, in the teacher's
# language; the axes only order them.

#: The colours of the charts: a bar, the bar of the revealed kappa, no mistake, a first mistake.
BAR, REVEALED, NONE_WRONG, FIRST_WRONG = "#4c78a8", "#d62728", "#54a24b", "#e45756"


def _bars(rows: list[dict[str, Any]], x_title: str, y_title: str) -> dict[str, Any]:
    return {
        "data": {"values": rows},
        "mark": {"type": "bar", "tooltip": True},
        "height": 260,
        "encoding": {
            "x": {"field": "label", "type": "nominal", "sort": None, "title": x_title,
                  "axis": {"labelAngle": 0, "labelOverlap": "greedy"}},
            "y": {"field": "count", "type": "quantitative", "title": y_title,
                  "axis": {"tickMinStep": 1, "format": "d"}},
            "color": {"field": "colour", "type": "nominal", "scale": None, "legend": None},
        },
    }


def guess_chart(guesses: Sequence[float], kappa: float | None, lang: str,
                revealed: bool) -> dict[str, Any]:
    """How many guesses fall in each tenth of [-1, 1] (each bar named by its lower end); once
    revealed, the tenth that holds the true kappa in another colour."""
    bins = guess_bins(guesses)
    truth = None if not revealed or kappa is None else guess_bins([kappa])
    rows = [{"label": format_number(low, lang, 1), "count": count,
             "colour": REVEALED if truth is not None and truth[k][1] else BAR}
            for k, (low, count) in enumerate(bins)]
    return _bars(rows, tr("classroom.guess_axis"), tr("classroom.students_axis"))


def first_wrong_chart(first_wrong: dict[int, int], lang: str) -> dict[str, Any]:
    """Students by the step of their first wrong value (0: none wrong, drawn first)."""
    rows = [{"label": tr("classroom.all_right_bar") if step == 0 else
             tr("classroom.step_bar", number=format_number(step, lang)),
             "count": first_wrong[step], "colour": NONE_WRONG if step == 0 else FIRST_WRONG}
            for step in sorted(first_wrong)]
    return _bars(rows, tr("classroom.first_wrong_axis"), tr("classroom.students_axis"))
