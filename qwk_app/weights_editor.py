"""The sidebar's editor of a weight matrix of one's own (the ``custom`` weighting).

Three session values make it: ``w``, the matrix every page computes with (the last one that
passed the checks, as a link writes it: :func:`qwk_app.state.settings` reads it); ``weights_typed``,
the text in the editor, kept as typed even when it is not a matrix, so the learner can fix it;
and ``weights_start``, the named weighting the editor was filled from. A text that fails a check
leaves ``w`` alone: the pages keep showing the last valid matrix, and the reason is shown under
the editor, in the learner's language.

The editor is a text area rather than a grid of cells: one row of w per line, the weights
separated by spaces, so a whole matrix can be pasted, and a decimal comma (``0,25``) reads as a
decimal point does, as a Spanish or Turkish teacher writes it.
"""

from __future__ import annotations

import re

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from qwk_explained.core.errors import InputError
from qwk_explained.core.types import WEIGHTINGS, Weighting
from qwk_explained.present.i18n import t
from qwk_explained.teaching.custom_weights import (
    MAX_TEXT,
    check_weights,
    notes,
    starting_weights,
    weights_text,
)

from . import state
from .state import Session
from .text import show_error, tr

#: The canonical keys (see the module's docstring); their widgets are ``<key>_input``.
MATRIX, TYPED, START = "w", "weights_typed", "weights_start"
#: The scale's size when no result has been computed yet (the example's 0 to 4).
DEFAULT_SIZE = 5
#: Weights on one line are separated by spaces, tabs or semicolons.
_SEPARATORS = re.compile(r"[\s;]+")


def size(session: Session) -> int | None:
    """The number of ratings of the scale last computed, if any (the editor's size)."""
    last = session.get(state.LAST_VALID)
    return None if last is None else len(last.labels)


def editor_text(matrix: NDArray[np.float64]) -> str:
    """A matrix as the editor shows it: one row per line, the weights separated by spaces.

    >>> print(editor_text(np.array([[0.0, 0.25], [0.25, 0.0]])))
    0  0.25
    0.25  0
    """
    return "\n".join("  ".join(row.split(",")) for row in weights_text(matrix).split(";"))


def read_typed(text: str, scale_size: int | None) -> NDArray[np.float64]:
    """The editor's text as a matrix, checked against a scale of ``scale_size`` ratings (its own
    number of rows when no scale is known yet). Raises the problem's :class:`InputError`.

    >>> read_typed("0 0,5\\n0.5 0", 2).tolist()
    [[0.0, 0.5], [0.5, 0.0]]
    """
    if len(text) > MAX_TEXT:  # more than a 50 x 50 matrix can take: not read cell by cell
        raise InputError("weights_too_long", count=len(text), limit=MAX_TEXT)
    rows = [[_decimal_point(cell) for cell in _SEPARATORS.split(line.strip())]
            for line in text.splitlines() if line.strip()]
    return check_weights(rows, len(rows) if scale_size is None else scale_size)


def _decimal_point(cell: str) -> str:
    """A weight with one decimal comma written with a point (``0,25`` -> ``0.25``)."""
    return cell.replace(",", ".") if cell.count(",") == 1 and "." not in cell else cell


def fill(session: Session) -> None:
    """Fill the editor (and ``w``) with the chosen starting weighting on the current scale."""
    kind: Weighting = state.checked(session.get(f"{START}_input"), WEIGHTINGS) or "quadratic"
    matrix = starting_weights(kind, size(session) or DEFAULT_SIZE)
    session[START] = kind
    session[MATRIX] = weights_text(matrix)
    state.set_value(TYPED, editor_text(matrix), session=session)


def choose(session: Session) -> None:
    """The weighting radio's ``on_change``: keep the choice if it is one (a forged value is
    dropped); choosing ``custom`` for the first time fills the editor from the start chosen."""
    state.WEIGHTS.commit(session)
    if state.WEIGHTS.get(session) == "custom" and not isinstance(session.get(MATRIX), str):
        fill(session)


def typed(session: Session) -> None:
    """The editor's ``on_change``: keep the text as typed, and the matrix when it is one."""
    text = session.get(f"{TYPED}_input")
    if not isinstance(text, str):
        return
    session[TYPED] = text
    try:
        session[MATRIX] = weights_text(read_typed(text, size(session)))
    except InputError:
        pass  # shown under the editor by draw(); the pages keep the last valid matrix


def draw(session: Session) -> None:
    """The editor, under the weighting radio when ``custom`` is chosen: the start, the matrix
    and, right below it, the reason it is not one, or what is unusual about it."""
    if state.settings(session).weights != "custom":
        return
    # A matrix from a link arrives without a typed text: show it as the editor writes it.
    if not isinstance(session.get(TYPED), str):
        state.set_value(TYPED, editor_text(np.asarray(state.settings(session).weighting())),
                        session=session)
    lang = state.lang()
    n = size(session)
    st.selectbox(tr("weights_editor.start"), options=WEIGHTINGS, key=state.bind(START),
                 on_change=fill, args=(session,), help=tr("weights_editor.start_help"),
                 format_func=lambda kind: t(lang, f"common.weights.{kind}"))
    st.button(tr("weights_editor.fill"), on_click=fill, args=(session,), key="weights_fill")
    label = (tr("weights_editor.label") if n is None
             else tr("weights_editor.label_size", size=n))
    text = st.text_area(label, key=state.bind(TYPED), on_change=typed, args=(session,),
                        help=tr("weights_editor.help"), max_chars=MAX_TEXT)
    try:
        checked = read_typed(str(text), n)
    except InputError as error:
        show_error(error)
        st.caption(tr("weights_editor.kept"))
        return
    for note in notes(checked):
        st.caption(tr(f"weights_note.{note}"))
