"""Small widgets several pages share, and the followed cell that links every step.

One cell (i, j) is followed through the steps: it is outlined in every matrix, its two histogram
bars are marked, and each step works out its arithmetic. It is kept by its rating labels under
:data:`CELL_KEY` in the session (and ``?cell=4,0`` in links), and chosen with two selectors, by a
click on any cell of any chart (:func:`follow_click`), or by moving an item, which follows the
item.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, get_args

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_label
from qwk_explained.teaching.cells import default_cell, move_item

from . import links, state
from .state import Session, UndoAction
from .text import tr

Labels = Sequence[int] | NDArray[np.int64]
#: Where the followed cell is kept (rating labels), the same on every page.
CELL_KEY = "cell"
#: How a click on a cell of O is read: follow that cell, or move one item of the followed cell
#: there.
ClickAction = Literal["follow", "move"]
CLICK_ACTIONS: tuple[ClickAction, ...] = get_args(ClickAction)
CLICK_ACTION_KEY = "cell_click_action"
#: The choice of what a click does, shown by a segmented control under the same key.
CLICK_ACTION: state.Choice[ClickAction] = state.Choice(CLICK_ACTION_KEY, CLICK_ACTIONS, "follow",
                                                      widget=CLICK_ACTION_KEY)


def keep_cell(session: Session, result: Walkthrough, *, store: str = CELL_KEY,
              prefix: str = "cell") -> Cell:
    """The cell stored under ``store`` (rating labels) as positions (i, j) on ``result``'s scale.

    The cell is kept by its ratings, not its positions: on a wider scale it is still the cell
    "actual 4, predicted 0". When either rating is off the scale the default cell (the first
    off-diagonal cell with items) replaces it. The two selectors (``<prefix>_row_input``,
    ``<prefix>_col_input``) are set to it whenever they differ, so a cell followed by a click
    or a link shows in them at once.
    """
    labels = [int(x) for x in result.labels]
    stored = session.get(store)
    if not (isinstance(stored, tuple) and len(stored) == 2
            and stored[0] in labels and stored[1] in labels):
        i, j = default_cell(result)
        stored = (labels[i], labels[j])
        session[store] = stored
    for widget, value in ((f"{prefix}_row_input", stored[0]), (f"{prefix}_col_input", stored[1])):
        if session.get(widget) != value:
            session[widget] = value
    return labels.index(stored[0]), labels.index(stored[1])


def rating_select(container: Any, label: str, labels: list[int], **kwargs: Any) -> Any:
    """A selector of one rating of the scale: ratings written as the language writes numbers
    (a minus sign, not a hyphen), and Streamlit's own "Choose an option" in the language."""
    lang = state.lang()  # bound now: format_func may run outside the script (tests)
    return container.selectbox(label, labels, placeholder=tr("common.choose"),
                               format_func=lambda value: format_label(value, lang),
                               **kwargs)


def cell_picker(result: Walkthrough, *, store: str = CELL_KEY, prefix: str = "cell",
                widths: tuple[int, ...] = (1, 1, 2)) -> Cell:
    """Two selectors (actual rating i, predicted rating j) for a cell; returns its positions.

    The chosen cell is kept as rating labels under ``store`` in the session, so it is remembered
    across pages and reruns while those ratings stay on the scale (:func:`keep_cell`). ``widths``
    are the column widths of the two selectors (and of any room left beside them).
    """
    session = st.session_state
    cell = keep_cell(session, result, store=store, prefix=prefix)
    labels = [int(x) for x in result.labels]
    row_key, col_key = f"{prefix}_row_input", f"{prefix}_col_input"

    def _picked() -> None:
        row, col = (state.checked(session.get(key), labels) for key in (row_key, col_key))
        if row is not None and col is not None:
            session[store] = (row, col)

    columns = st.columns(list(widths))
    rating_select(columns[0], tr("steps.cell_row"), labels, key=row_key, on_change=_picked)
    rating_select(columns[1], tr("steps.cell_col"), labels, key=col_key, on_change=_picked)
    return cell


def follow(session: Session, labels: Labels, cell: Cell) -> None:
    """Follow ``cell`` (positions): store its rating labels, the one place every page reads."""
    session[CELL_KEY] = (int(labels[cell[0]]), int(labels[cell[1]]))


def cell_from_link(session: Session, labels: Labels) -> bool:
    """Follow the cell of a shared link's ``?cell=4,0`` (read once, on the first valid result).

    Returns ``True`` when the link names no cell of this scale (the stored cell is then kept).
    """
    link = state.url_value("cell", session=session)
    if link is None:
        return False
    cell = links.parse_cell(link, labels)
    if cell is None:
        return True
    follow(session, labels, cell)
    return False


def follow_click(result: Walkthrough, *, movable: bool = True,
                 session: Session | None = None) -> Callable[[str], None]:
    """A chart's click handler: follow the clicked cell, or move an item there (move mode).

    Runs before the page reruns, with the result the chart was drawn from. ``movable`` is
    ``False`` when the rating texts are not that result (an upload, a problem being fixed): a
    move would then overwrite what is being typed, so a click only follows.
    """
    store = st.session_state if session is None else session

    def clicked(value: str) -> None:
        cell = links.cell_from_trigger(value, result.size)
        if cell is None:
            return
        if movable and CLICK_ACTION.get(store) == "move":
            labels = [int(x) for x in result.labels]
            source = store.get(CELL_KEY)
            if isinstance(source, tuple) and source[0] in labels and source[1] in labels:
                move(result, (labels.index(source[0]), labels.index(source[1])), cell,
                     session=store)
                return
        follow(store, result.labels, cell)

    return clicked


def follow_only(result: Walkthrough, *, session: Session | None = None) -> Callable[[str], None]:
    """A click handler that follows the clicked cell and never moves an item (a row of the list
    of fixes names a cell to look at, not where to put an item)."""
    store = st.session_state if session is None else session

    def clicked(value: str) -> None:
        cell = links.cell_from_trigger(value, result.size)
        if cell is not None:
            follow(store, result.labels, cell)

    return clicked


def move(result: Walkthrough, source: Cell, target: Cell, *,
         session: Session | None = None) -> bool:
    """Move one item of cell ``source`` to ``target`` in both rating texts (undoable); follow it.

    Returns ``False`` when nothing moved (the source cell is empty, or the same as the target).
    """
    store = st.session_state if session is None else session
    moved = move_item(result, source, target)
    if moved is None:
        return False
    labels = [int(x) for x in result.labels]
    state.remember("move", session=store, item=moved.item,
                   source=f"{labels[source[0]]}, {labels[source[1]]}",
                   target=f"{labels[target[0]]}, {labels[target[1]]}")
    state.set_vectors(state.vector_text(moved.actual), state.vector_text(moved.predicted),
                      session=store)
    follow(store, result.labels, target)
    store[_JUST_MOVED] = True
    return True


#: Set by :func:`move` for the next run: it says what moved once (a toast, not a notice above
#: the matrices, which would push them under the pointer before a second click).
_JUST_MOVED = "_qwk_just_moved"


#: The four nudges: (row step, column step, icon); a nudge moves one item to the next rating.
_NUDGES = (("predicted_down", 0, -1, ":material/arrow_back:"),
           ("predicted_up", 0, 1, ":material/arrow_forward:"),
           ("actual_down", -1, 0, ":material/arrow_upward:"),
           ("actual_up", 1, 0, ":material/arrow_downward:"))


def _nudge(result: Walkthrough, source: Cell, target: Cell) -> None:
    """:func:`move` as a button's callback, which returns nothing."""
    move(result, source, target)


def move_controls(result: Walkthrough, cell: Cell, *, editable: bool) -> None:
    """Direct manipulation of O: nudge one item of the followed cell to a neighbouring rating,
    or switch clicks on O to moving items there. ``editable`` is ``False`` for an uploaded file
    or while the typed ratings have a problem (the texts are not the result shown)."""
    i, j = cell
    count = int(result.observed[i, j])
    lang = state.lang()  # bound now: format_func may run outside the script (tests)
    st.segmented_control(tr("move.click_action"), CLICK_ACTIONS,
                         key=CLICK_ACTION.show(st.session_state),
                         format_func=lambda action: t(lang, f"move.click_{action}"),
                         help=tr("move.click_help"), disabled=not editable)
    *columns, undo = st.columns(len(_NUDGES) + 1)
    for column, (name, row_step, col_step, icon) in zip(columns, _NUDGES, strict=True):
        target = (i + row_step, j + col_step)
        possible = editable and count > 0 and all(0 <= k < result.size for k in target)
        column.button(tr(f"move.{name}"), key=f"move_{name}", icon=icon, width="stretch",
                      disabled=not possible, on_click=_nudge, args=(result, cell, target),
                      help=tr("move.nudge_help"))
    # Undo is always there (greyed out until an item moved) and what moved is said in a toast:
    # nothing appears above the matrices after a move, so they stay under the pointer.
    replaced = state.last_replaced()
    moved = replaced is not None and replaced.action == "move"
    undo.button(tr("undo.button"), key="undo_move", on_click=state.undo, icon=":material/undo:",
                width="stretch", disabled=not moved)
    if st.session_state.pop(_JUST_MOVED, False) and replaced is not None and moved:
        st.toast(tr("undo.move", **replaced.params), icon=":material/history:")
    if not editable:
        st.caption(tr("move.not_editable"))


def undo_offer(key: str, actions: tuple[UndoAction, ...]) -> None:
    """Right after one of ``actions`` replaced the ratings (an example, a random draw, an upload,
    a moved item): say what it did, and offer to put back what was there."""
    replaced = state.last_replaced()
    if replaced is None or replaced.action not in actions:
        return
    params = {name: tr(f"presets.{value}") if name == "example" else value
              for name, value in replaced.params.items()}
    text, button = st.columns([4, 1], vertical_alignment="center")
    text.info(tr(f"undo.{replaced.action}", **params), icon=":material/history:")
    button.button(tr("undo.button"), key=key, on_click=state.undo, icon=":material/undo:",
                  width="stretch")
