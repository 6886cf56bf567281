"""The checker page's state: the data, the learner's grids and values, and checking them.

Everything lives under ``checker_*`` keys of a session mapping (``st.session_state`` in the app,
a plain dict in the tests), so the page survives a language switch, another page, and a rerun:

- ``checker_mode`` (vectors or table), ``checker_table`` and ``checker_first`` (the rating of the
  table's first row: a textbook table with ratings 1 to 3 is labelled 1 to 3, as on paper);
- ``checker_cells``: every typed cell, ``{grid: {"i,j" or "k": text}}`` keyed by rating labels,
  so a value stays with its ratings when the table changes size;
- ``checker_answer_<quantity>`` for num, den and kappa.

A grid is drawn by a data editor that reports its edits relative to the rows it was drawn from
(its *base*); :func:`apply_grid_edits` replays them onto the cells at the start of every run,
and :func:`paste` or a change of scale draws a fresh editor (a new *version*) from the cells.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

import numpy as np

from qwk_explained.core.steps import Walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.core.types import Quantity, Weighting
from qwk_explained.teaching.checking import Answer, CheckedAnswer

from .state import Session

Mode = Literal["vectors", "table"]
MODES: tuple[Mode, ...] = get_args(Mode)
#: The grids of the page, in the order of the calculation, and the quantities each holds.
Grid = Literal["observed", "weights", "histograms", "expected", "observed_norm", "expected_norm"]
GRIDS: tuple[Grid, ...] = get_args(Grid)
GRID_ROWS: dict[Grid, tuple[Quantity, ...]] = {
    "histograms": ("actual_hist", "predicted_hist")}
#: The three values typed in one field each.
SCALARS: tuple[Quantity, ...] = ("numerator", "denominator", "kappa")
#: Why a pasted matrix could not fill a grid (``checker.paste.<code>`` in the locales).
PasteProblem = Literal["empty", "shape"]

#: Shown until a table is typed or linked: the 3 x 3 table whose SAS printout the statistics
#: are tested against.
DEFAULT_TABLE = "0,4,1;0,8,0;0,1,5"
MODE, TABLE, FIRST = "checker_mode", "checker_table", "checker_first"
CELLS, BASES, LABELS = "checker_cells", "checker_grid_bases", "checker_grid_labels"
PASTE_PROBLEM = "checker_paste_problem"
#: Lowest and highest first rating of a table (any integer rating, within reason).
FIRST_RANGE = (-1000, 1000)


def answer_key(quantity: Quantity) -> str:
    return f"checker_answer_{quantity}"


def paste_key(grid: Grid) -> str:
    return f"checker_paste_{grid}"


def editor_key(grid: Grid, version: int) -> str:
    return f"checker_grid_{grid}_{version}"


def init(session: Session, url: Mapping[str, Any]) -> None:
    """The page's state on first use: mode, table and first rating from the first URL."""
    if MODE not in session:
        table, mode = url.get("table"), url.get("mode")
        session[MODE] = mode if mode in MODES else ("table" if table is not None else "vectors")
        session[TABLE] = str(table) if table is not None else DEFAULT_TABLE
        session[FIRST] = first_rating(url.get("first"))
    session.setdefault(CELLS, {})
    session.setdefault(BASES, {})
    session.setdefault(PASTE_PROBLEM, {})
    for quantity in SCALARS:
        session.setdefault(answer_key(quantity), "")


def first_rating(value: Any) -> int:
    """The first rating of a table from a URL value; 0 for anything that is not a whole number
    within :data:`FIRST_RANGE`."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return 0
    return number if FIRST_RANGE[0] <= number <= FIRST_RANGE[1] else 0


def canonical_table(table: np.ndarray) -> str:
    """A table as it goes into a link: ``0,4,1;0,8,0;0,1,5``."""
    return ";".join(",".join(str(int(v)) for v in row) for row in table)


def table_result(text: str, first: int, weights: Weighting) -> tuple[Walkthrough, str]:
    """The walkthrough of a typed table whose rows are the ratings first, first + 1, ... and the
    table as it goes into a link. Raises the table's :class:`InputError`."""
    counts = parse_table(text)
    labels = np.arange(first, first + counts.shape[0])
    return walkthrough_from_table(counts, weights=weights, labels=labels), canonical_table(counts)


# --- the grids ------------------------------------------------------------------------------------


def grid_rows(grid: Grid, labels: list[int]) -> list[str]:
    """The row keys of a grid: the ratings of a matrix, the two histograms' names."""
    if grid in GRID_ROWS:
        return list(GRID_ROWS[grid])
    return [str(label) for label in labels]


def _cell_key(grid: Grid, row: str, column: str) -> str:
    # A matrix cell is "i,j" (ratings); a histogram bar is "<histogram>:k".
    return f"{row}:{column}" if grid in GRID_ROWS else f"{row},{column}"


def _base(session: Session, grid: Grid) -> dict[str, Any]:
    bases: dict[str, dict[str, Any]] = session[BASES]
    if grid not in bases:
        bases[grid] = {"version": 0, "cells": dict(session[CELLS].get(grid, {}))}
    return bases[grid]


def sync_labels(session: Session, labels: list[int]) -> None:
    """A new scale draws every grid afresh (its rows and columns changed); the typed cells stay,
    keyed by their ratings."""
    if session.get(LABELS) != labels:
        session[LABELS] = labels
        for grid in GRIDS:
            _redraw(session, grid)


def _redraw(session: Session, grid: Grid) -> None:
    base = _base(session, grid)
    session[BASES][grid] = {"version": base["version"] + 1,
                            "cells": dict(session[CELLS].get(grid, {}))}


def editor_rows(session: Session, grid: Grid,
                labels: list[int]) -> tuple[int, list[list[str]]]:
    """The version of a grid's editor and the rows of text it is drawn with ("" when empty)."""
    base = _base(session, grid)
    columns = [str(label) for label in labels]
    rows = [[base["cells"].get(_cell_key(grid, row, column), "") for column in columns]
            for row in grid_rows(grid, labels)]
    return base["version"], rows


def apply_grid_edits(session: Session, labels: list[int]) -> None:
    """Replay every editor's edits onto its base, into the canonical cells (idempotent)."""
    columns = [str(label) for label in labels]
    for grid in GRIDS:
        base = _base(session, grid)
        delta = session.get(editor_key(grid, base["version"])) or {}
        cells = dict(base["cells"])
        rows = grid_rows(grid, labels)
        for index, change in (delta.get("edited_rows") or {}).items():
            if not 0 <= int(index) < len(rows):
                continue
            for column, value in change.items():
                if str(column) not in columns:
                    continue
                key = _cell_key(grid, rows[int(index)], str(column))
                text = "" if value is None else str(value).strip()
                if text:
                    cells[key] = text
                else:
                    cells.pop(key, None)
        session[CELLS] = {**session[CELLS], grid: cells}


def clear(session: Session, grid: Grid) -> None:
    """Empty a grid."""
    session[CELLS] = {**session[CELLS], grid: {}}
    session[PASTE_PROBLEM] = {**session[PASTE_PROBLEM], grid: None}
    _redraw(session, grid)


_SEPARATORS = ("\t", ";")


def split_pasted(text: str) -> list[list[str]]:
    """A pasted matrix as rows of cells: rows on lines; cells separated by tabs (a spreadsheet),
    semicolons, spaces, or else commas (``0,25 0,5`` keeps its decimal commas)."""
    rows = []
    for line in text.strip().splitlines():
        line = line.strip().strip("[]")
        if not line:
            continue
        separator = next((mark for mark in _SEPARATORS if mark in line), None)
        if separator is not None:
            cells = line.split(separator)
        elif len(line.split()) > 1:
            cells = line.split()
        else:
            cells = line.split(",")
        rows.append([cell.strip().strip("[],") for cell in cells if cell.strip().strip("[],")])
    return rows


def paste(session: Session, grid: Grid, labels: list[int],
          text: str) -> PasteProblem | None:
    """Fill a grid from a pasted matrix (its rows are the ratings, or the two histograms);
    the problem, if it does not fit the grid, is also kept for the page to show."""
    rows = split_pasted(text)
    expected = grid_rows(grid, labels)
    problem: PasteProblem | None = None
    if not rows:
        problem = "empty"
    elif len(rows) != len(expected) or any(len(row) != len(labels) for row in rows):
        problem = "shape"
    session[PASTE_PROBLEM] = {**session[PASTE_PROBLEM], grid: problem}
    if problem is not None:
        return problem
    cells = {_cell_key(grid, row_key, str(label)): value
             for row_key, row in zip(expected, rows, strict=True)
             for label, value in zip(labels, row, strict=True)}
    session[CELLS] = {**session[CELLS], grid: cells}
    _redraw(session, grid)
    return None


# --- what gets checked ----------------------------------------------------------------------------


#: The quantity of each matrix grid, and of each row of the histograms' grid.
_QUANTITY: dict[str, Quantity] = {
    "observed": "observed", "weights": "weights", "expected": "expected",
    "observed_norm": "observed_norm", "expected_norm": "expected_norm",
    "actual_hist": "actual_hist", "predicted_hist": "predicted_hist"}
_MATRIX_KEY = re.compile(r"^(-?\d+),(-?\d+)$")
_BAR_KEY = re.compile(r"^(actual_hist|predicted_hist):(-?\d+)$")


def answers(session: Session, result: Walkthrough) -> list[Answer]:
    """Every value the learner typed that belongs to the current scale."""
    position = {int(label): k for k, label in enumerate(result.labels)}
    found = []
    for grid, cells in session.get(CELLS, {}).items():
        for key, text in cells.items():
            located = _locate(grid, key, position)
            if located is not None and str(text).strip():
                found.append(Answer(*located, str(text)))
    for quantity in SCALARS:
        text = str(session.get(answer_key(quantity), "")).strip()
        if text:
            found.append(Answer(quantity, None, text))
    return found


def _locate(grid: str, key: str,
            position: Mapping[int, int]) -> tuple[Quantity, tuple[int, ...]] | None:
    """The quantity and positions of a stored cell (``None``: off the current scale)."""
    if grid == "histograms":
        bar = _BAR_KEY.match(key)
        k = None if bar is None else position.get(int(bar[2]))
        return None if bar is None or k is None else (_QUANTITY[bar[1]], (k,))
    cell = _MATRIX_KEY.match(key)
    if cell is None or grid not in _QUANTITY:
        return None
    i, j = position.get(int(cell[1])), position.get(int(cell[2]))
    return None if i is None or j is None else (_QUANTITY[grid], (i, j))


# --- showing the verdicts -------------------------------------------------------------------------

#: The mark of each verdict in a grid (``?``: not a number).
MARKS = {"right": "✓", "rounding": "≈", "right_other_convention": "✓", "wrong": "✗"}
UNREADABLE = "?"


def in_grid(grid: Grid, checked: Sequence[CheckedAnswer]) -> list[CheckedAnswer]:
    """The checked values that belong to one grid."""
    quantities = GRID_ROWS[grid] if grid in GRID_ROWS else (_QUANTITY[grid],)
    return [answer for answer in checked if answer.quantity in quantities]


def marks(grid: Grid, labels: list[int], checked: Sequence[CheckedAnswer]) -> list[list[str]]:
    """A grid of marks for the checked cells (empty where nothing was typed)."""
    rows = grid_rows(grid, labels)
    table = [["" for _ in labels] for _ in rows]
    for answer in in_grid(grid, checked):
        if answer.cell is None:
            continue
        row = rows.index(answer.quantity) if grid in GRID_ROWS else answer.cell[0]
        column = answer.cell[-1]
        table[row][column] = MARKS[answer.verdict] if answer.verdict else UNREADABLE
    return table


def groups(checked: Sequence[CheckedAnswer]) -> list[list[CheckedAnswer]]:
    """The values that need a word, grouped by what is said about them (twenty cells with E not
    divided by n get one message): wrong ones, unreadable ones, and right ones with a remark (an
    ambiguous reading, num and den from counts). Groups keep the order of the calculation."""
    found: dict[tuple[Any, ...], list[CheckedAnswer]] = {}
    for answer in checked:
        remark = answer.reading is not None or answer.note is not None
        if answer.verdict in ("right", "rounding") and not remark:
            continue
        problem = None if answer.problem is None else (answer.problem.code,
                                                       answer.problem.params.get("text"))
        # A reading or a problem quotes the text typed, so those group by text too.
        reading = None if answer.reading is None else (answer.reading, answer.text)
        key = (answer.verdict, answer.diagnoses, answer.note, reading, problem)
        found.setdefault(key, []).append(answer)
    return list(found.values())
