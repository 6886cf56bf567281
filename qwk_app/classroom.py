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

import plotly.graph_objects as go
import streamlit as st

from qwk_class import codes
from qwk_class.classroom import ClassError, Classroom, Student, guess_bins
from qwk_class.store import DATABASE_ENV, Store, default_url
from qwk_explained.present.languages import language
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


# --- figures of the teacher's view ----------------------------------------------------------------


def _layout(figure: go.Figure, lang: str, x_title: str, y_title: str) -> go.Figure:
    spec = language(lang)
    figure.update_layout(
        separators=spec.decimal + spec.group, height=320, margin={"l": 10, "r": 10, "t": 10,
                                                                  "b": 10},
        xaxis_title=x_title, yaxis_title=y_title, bargap=0.05, showlegend=False,
        yaxis={"rangemode": "tozero", "tickformat": "d", "dtick": 1})
    return figure


def guess_figure(guesses: Sequence[float], kappa: float | None, lang: str,
                 revealed: bool) -> go.Figure:
    """How many guesses fall in each tenth of [-1, 1]; once revealed, the true kappa as a line."""
    bins = guess_bins(guesses)
    names = [format_number(low, lang, 1) for low, _ in bins]
    figure = go.Figure(go.Bar(x=[low + 0.05 for low, _ in bins], y=[n for _, n in bins],
                              width=0.1, customdata=names, marker_color="#4c78a8",
                              hovertemplate="%{customdata}: %{y}<extra></extra>"))
    figure.update_xaxes(range=[-1, 1], dtick=0.2)
    if revealed and kappa is not None:
        figure.add_vline(x=kappa, line_width=4, line_color="#d62728")
    return _layout(figure, lang, tr("classroom.guess_axis"), tr("classroom.students_axis"))


def first_wrong_figure(first_wrong: dict[int, int], lang: str) -> go.Figure:
    """Students by the step of their first wrong value (0: none wrong, drawn as "all right")."""
    steps = sorted(first_wrong)
    labels = [tr("classroom.all_right_bar") if step == 0 else
              tr("classroom.step_bar", number=format_number(step, lang)) for step in steps]
    figure = go.Figure(go.Bar(x=labels, y=[first_wrong[s] for s in steps],
                              marker_color=["#54a24b" if s == 0 else "#e45756" for s in steps],
                              hovertemplate="%{x}: %{y}<extra></extra>"))
    figure.update_xaxes(type="category")
    return _layout(figure, lang, tr("classroom.first_wrong_axis"), tr("classroom.students_axis"))


def config() -> dict[str, Any]:
    """Plotly's toolbar off: a projected chart needs none of it."""
    return {"displayModeBar": False}
