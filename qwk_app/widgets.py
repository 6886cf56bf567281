"""Small widgets several pages share."""

from __future__ import annotations

import streamlit as st

from qwk_explained import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.teaching.cells import default_cell

from .state import Session
from .text import tr


def keep_cell(session: Session, result: Walkthrough, *, store: str = "cell",
              prefix: str = "cell") -> Cell:
    """The cell stored under ``store`` (rating labels) as positions (i, j) on ``result``'s scale.

    The cell is kept by its ratings, not its positions: on a wider scale it is still the cell
    "actual 4, predicted 0". When either rating is off the scale the default cell (the first
    off-diagonal cell with items) replaces it. The two selectors (``<prefix>_row_input``,
    ``<prefix>_col_input``) are filled from it when they hold no rating of the scale.
    """
    labels = [int(x) for x in result.labels]
    stored = session.get(store)
    if not (isinstance(stored, tuple) and len(stored) == 2
            and stored[0] in labels and stored[1] in labels):
        i, j = default_cell(result)
        stored = (labels[i], labels[j])
        session[store] = stored
    for widget, value in ((f"{prefix}_row_input", stored[0]), (f"{prefix}_col_input", stored[1])):
        if session.get(widget) not in labels:
            session[widget] = value
    return labels.index(stored[0]), labels.index(stored[1])


def cell_picker(result: Walkthrough, *, store: str = "cell", prefix: str = "cell",
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
        session[store] = (session[row_key], session[col_key])

    columns = st.columns(list(widths))
    columns[0].selectbox(tr("steps.cell_row"), labels, key=row_key, on_change=_picked)
    columns[1].selectbox(tr("steps.cell_col"), labels, key=col_key, on_change=_picked)
    return cell
