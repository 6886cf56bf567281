"""The walkthrough's charts in the browser: one small component draws every matrix and histogram.

The HTML of each chart is built in Python (:mod:`qwk_explained.present.charts`: numbers, colours,
the followed cell, each cell's arithmetic); the component (``assets/charts.js`` and
``assets/charts.css``, mounted in the page itself, not in an iframe) draws it and does what must
not wait for the server: lighting up the hovered cell in every chart, showing one chart on the
whole screen, hiding the numbers of a matrix too wide for the screen. A click on a cell comes back
as the trigger ``cell`` (``"i,j"``, positions) and calls the caller's function before the rerun.

The same component turns presentation keys into a step's previous and next buttons, holds a
half-typed pair of rating fields in the browser until it is a pair (:func:`hold_ratings`), and draws
the share box's copy button, which must work where the browser's clipboard API does not (plain
http on a classroom network, touch screens with no hover). Each instance also sets the page's
language (``<html lang>``) to the reader's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from qwk_explained.core.parse import BRACKETS, SEPARATORS
from qwk_explained.present.languages import language

from . import state
from .text import tr

_ASSETS = Path(__file__).resolve().parent / "assets"
_COMPONENT = st.components.v2.component(
    "qwk_chart",
    js=(_ASSETS / "charts.js").read_text(encoding="utf-8"),
    css=(_ASSETS / "charts.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the hover lights up cells of the other charts: one document
)


def draw(html: str, *, key: str, on_cell: Callable[[str], None] | None = None,
         on_cut: Callable[[str], None] | None = None) -> None:
    """Draw one chart (HTML from :mod:`qwk_explained.present.charts`) under the widget ``key``.

    With ``on_cell``, its cells are buttons: a click calls ``on_cell("i,j")`` (positions, as the
    browser sent them: untrusted text) before the page reruns. With ``on_cut`` (the scores chart
    of :mod:`qwk_explained.present.score_chart`), its cut points can be dragged or moved with
    the arrow keys: where one is let go calls ``on_cut("k:value")`` (untrusted text too).
    """
    callbacks: dict[str, Any] = {}
    for trigger, handler in (("cell", on_cell), ("cut", on_cut)):
        if handler is not None:
            callbacks[f"on_{trigger}_change"] = _relay(key, trigger, handler)
    lang = state.lang()
    _COMPONENT(data={"kind": "chart", "html": html, "clickable": on_cell is not None,
                     "cuts": on_cut is not None, "decimal": language(lang).decimal,
                     "lang": lang}, key=key, **callbacks)


def _relay(key: str, trigger: str, handler: Callable[[str], None]) -> Callable[[], None]:
    """The component's callback for ``trigger``: the text the browser sent, to ``handler``."""
    def relay() -> None:
        value = (st.session_state.get(key) or {}).get(trigger)
        if isinstance(value, str):
            handler(value)

    return relay


def step_keys(*, next_key: str, previous_key: str, key: str) -> None:
    """Arrow keys, PageUp/PageDown and space press the buttons ``next_key`` and
    ``previous_key`` (widget keys), as a presentation clicker expects; nothing is drawn."""
    _COMPONENT(data={"kind": "keys", "next": next_key, "previous": previous_key}, key=key)


def hold_ratings(fields: tuple[str, str], *, submit: str, pause_ms: int, long_pause_ms: int,
                 key: str) -> None:
    """Decide in the browser when the rating fields' form is sent (its button ``submit``).

    ``fields`` are the two text inputs' widget keys. The browser counts each field's ratings the
    way :func:`qwk_explained.core.parse.parse_vector` splits them (the same pattern, sent from
    here): Enter sends the form at once when both counts agree and after ``long_pause_ms`` when
    they differ (an item half added); typing sends it after ``pause_ms``, or ``long_pause_ms``
    while the counts differ; leaving both fields sends it at once. A half-typed pair then costs
    no server run at all. Nothing is sent while an input method composes (Chinese candidates are
    confirmed with Enter) or when nothing changed since the last send; nothing is drawn.
    """
    _COMPONENT(data={"kind": "hold", "fields": list(fields), "submit": submit,
                     "separators": SEPARATORS.pattern, "brackets": BRACKETS,
                     "pause": pause_ms, "longPause": long_pause_ms, "lang": state.lang()},
               key=key)


def copy_button(text: str, *, key: str) -> None:
    """A button that copies ``text`` and says so; for the share link."""
    _COMPONENT(data={"kind": "copy", "text": text, "label": tr("share.copy"),
                     "done": tr("share.copied"), "failed": tr("share.copy_failed"),
                     "lang": state.lang()}, key=key)
