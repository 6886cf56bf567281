"""The checker's grids: one real text field per cell, its mark beside it.

Streamlit's data editor draws a grid on a canvas: on a touch screen the first tap only selects a
cell and a second one opens its editor (32 taps for a 4 x 4 matrix), and its toolbar covered
cells and the help text. A text field opens the keyboard on the first tap, on every device, and
Tab, Enter and the arrow keys move between fields on a desktop (``assets/grid.js``).

The component reports what was typed exactly as the data editor did (``edited_rows`` relative to
the rows it was drawn with, in its state), so :class:`qwk_app.editor.Editor` replays it into the
checker's cells, with the same defences against edits no browser sends. The mark of each checked
value is drawn in its field's cell, so no second grid of marks is needed.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from .text import tr

_ASSETS = Path(__file__).resolve().parent / "assets"
_COMPONENT = st.components.v2.component(
    "qwk_answer_grid",
    js=(_ASSETS / "grid.js").read_text(encoding="utf-8"),
    css=(_ASSETS / "grid.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the page's font and colours; every rule is under .qwk-cells
)


def draw(*, key: str, title: str, columns: list[str], rows: list[list[str]],
         cells: list[list[str]], row_names: list[str], column_names: list[str],
         marks: list[list[str]], histograms: bool) -> None:
    """Draw one grid of fields under the widget ``key`` (a new key is a new, empty record of
    edits).

    ``columns`` are the keys its edits name the columns by (the ratings, as the data editor's
    were); ``rows`` the texts it is drawn with (the base its edits are relative to); ``cells``
    the texts the checker holds now (shown when the browser mounts the grid afresh); ``marks``
    one per cell ("" where nothing was checked). A screen reader names each field by the grid's
    ``title``, its row and its column (the histograms' rows by their rater).
    """
    label = "checker.cell_label_histograms" if histograms else "checker.cell_label_matrix"
    labels = [[tr(label, grid=title, row=row, column=column) for column in column_names]
              for row in row_names]
    _COMPONENT(data={"grid": key, "title": title, "rows": rows, "cells": cells,
                     "rowNames": row_names, "columnNames": column_names,
                     "columns": columns, "labels": labels, "marks": marks},
               key=key, on_edited_rows_change=_taken_at_the_next_run)


def _taken_at_the_next_run() -> None:
    """Nothing to do here: :func:`qwk_app.checker.take_edits` replays the edits at the start of
    the run. A callback is what makes ``edited_rows`` part of the widget's state."""
