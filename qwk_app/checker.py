"""The checker page's state: the data, the learner's grids and values, and checking them.

Everything lives under ``checker_*`` keys of a session mapping (``st.session_state`` in the app,
a plain dict in the tests), so the page survives a language switch, another page, and a rerun:

- ``checker_mode`` (vectors or table), ``checker_table`` and ``checker_first`` (the rating of the
  table's first row: a textbook table with ratings 1 to 3 is labelled 1 to 3, as on paper);
- ``checker_cells``: every typed cell, ``{grid: {"i,j" or "k": text}}`` keyed by rating labels,
  so a value stays with its ratings when the table changes size;
- ``checker_answer_<quantity>`` for num, den and kappa.

A grid is drawn as text fields (:mod:`qwk_app.answer_grid`, widget
:class:`qwk_app.editor.Editor` ``checker_grid_<grid>``) that report their edits as a data editor
does, relative to the rows they were drawn from; :func:`take_edits` replays them onto the
cells at the start of every run, and :func:`paste`, :func:`clear` or a change of scale draws a
fresh editor from the cells.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from qwk_explained.core.errors import InputError
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Quantity, is_quantity
from qwk_explained.present import feedback, worksheet
from qwk_explained.teaching.cells import read_cell
from qwk_explained.teaching.checking import Answer, CheckedAnswer

from . import compute, state
from .compute import Outcome
from .editor import Editor
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
#: The data mode: the shared vectors, or a typed table.
MODE_CHOICE: state.Choice[Mode] = state.Choice(MODE, MODES, "vectors")
CELLS, LABELS = "checker_cells", "checker_grid_labels"
PASTE_PROBLEM = "checker_paste_problem"


def answer_key(quantity: Quantity) -> str:
    return f"checker_answer_{quantity}"


def paste_key(grid: Grid) -> str:
    return f"checker_paste_{grid}"


def editor(grid: Grid) -> Editor:
    """The data editor of one grid (its widget: ``checker_grid_<grid>_<version>``)."""
    return Editor(f"checker_grid_{grid}")


def init(session: Session, url: Mapping[str, Any]) -> None:
    """The page's state on first use: mode, table and first rating from the first URL."""
    if MODE not in session:
        table = url.get("table")
        if not MODE_CHOICE.set(session, url.get("mode")):
            session[MODE] = "table" if table is not None else "vectors"
        session[TABLE] = str(table) if table is not None else DEFAULT_TABLE
        session[FIRST] = first_rating(url.get("first"))
    session.setdefault(CELLS, {})
    session.setdefault(PASTE_PROBLEM, {})
    for quantity in SCALARS:
        session.setdefault(answer_key(quantity), "")


def first_rating(value: Any) -> int:
    """The first rating of a table from a URL value; 0 for anything that is not a whole number
    within :data:`qwk_app.state.RATING_RANGE`."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return 0
    low, high = state.RATING_RANGE
    return number if low <= number <= high else 0


# --- the data -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Data:
    """What the learner's values are checked against, in the mode chosen."""

    #: The walkthrough of the data, ``None`` until the input is valid.
    result: Walkthrough | None
    #: How the worksheets describe where the data came from.
    source: worksheet.Source = field(default_factory=worksheet.Source)
    #: What goes into the link besides the mode (the table as typed or read, its first rating).
    link: dict[str, Any] = field(default_factory=dict)
    #: Why the typed table cannot be read.
    error: InputError | None = None


def data(session: Session, outcome: Outcome | None) -> Data:
    """The data of the session's mode: the shared vectors' ``outcome`` (only while it is valid
    and current: checking against an older result would mark right values wrong), or the typed
    table read from its first rating (the session's weighting applies to both)."""
    settings = state.settings(session)
    if MODE_CHOICE.get(session) == "vectors":
        if outcome is None or outcome.result is None or outcome.stale:
            return Data(None)
        source = worksheet.Source(scale=settings.scale, min_rating=settings.min_rating,
                                  max_rating=settings.max_rating)
        return Data(outcome.result, source)
    text, first = str(session[TABLE]), int(session[FIRST])
    source = worksheet.Source(from_table=True)
    try:
        result, canonical = compute.table_result(text, first, settings)
    except InputError as error:
        typed = ";".join(line.strip() for line in text.splitlines() if line.strip())
        return Data(None, source=source, link={"table": typed, "first": first or None},
                    error=error)
    return Data(result, source, {"table": canonical, "first": first or None})


# --- the grids ------------------------------------------------------------------------------------


def grid_rows(grid: Grid, labels: list[int]) -> list[str]:
    """The row keys of a grid: the ratings of a matrix, the two histograms' names."""
    if grid in GRID_ROWS:
        return list(GRID_ROWS[grid])
    return [str(label) for label in labels]


def _cell_key(grid: Grid, row: str, column: str) -> str:
    # A matrix cell is "i,j" (ratings); a histogram bar is "<histogram>:k".
    return f"{row}:{column}" if grid in GRID_ROWS else f"{row},{column}"


def cell_rows(session: Session, grid: Grid, labels: list[int]) -> list[list[str]]:
    """The typed texts of a grid, row by row ("" where nothing was typed)."""
    cells = session[CELLS].get(grid, {})
    return [[cells.get(_cell_key(grid, row, str(label)), "") for label in labels]
            for row in grid_rows(grid, labels)]


def take_edits(session: Session, labels: list[int]) -> None:
    """At the start of a run: every grid's edits into the cells (on the scale the grids were
    drawn with), then, when the scale is new, every grid drawn afresh (its rows and columns
    changed; the typed cells stay, keyed by their ratings)."""
    drawn = session.get(LABELS) or labels
    columns = [str(label) for label in drawn]
    for grid in GRIDS:
        rows = editor(grid).replay(session, columns)
        if rows is None or len(rows) != len(grid_rows(grid, drawn)):
            continue  # a grid has fixed rows: added or deleted ones come from no browser
        cells = dict(session[CELLS].get(grid, {}))
        for row, texts in zip(grid_rows(grid, drawn), rows, strict=True):
            for column, value in zip(columns, texts, strict=True):
                text = "" if value is None else str(value).strip()
                if text:
                    cells[_cell_key(grid, row, column)] = text
                else:
                    cells.pop(_cell_key(grid, row, column), None)
        session[CELLS] = {**session[CELLS], grid: cells}
    if session.get(LABELS) != labels:
        session[LABELS] = labels
        for grid in GRIDS:
            editor(grid).redraw(session)


def editor_rows(session: Session, grid: Grid, labels: list[int]) -> tuple[str, list[list[str]]]:
    """The widget key of a grid's editor and the rows of text it is drawn with ("" when
    empty)."""
    return editor(grid).rows(session, lambda: cell_rows(session, grid, labels))


def clear(session: Session, grid: Grid) -> None:
    """Empty a grid."""
    session[CELLS] = {**session[CELLS], grid: {}}
    session[PASTE_PROBLEM] = {**session[PASTE_PROBLEM], grid: None}
    editor(grid).redraw(session)


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
    editor(grid).redraw(session)
    return None


def paste_box(session: Session, grid: Grid, labels: list[int]) -> None:
    """The fill button's ``on_click``: paste the grid's box into it, and empty the box once its
    matrix is in the grid (a problem keeps the text there to be corrected)."""
    if paste(session, grid, labels, str(session.get(paste_key(grid), ""))) is None:
        session[paste_key(grid)] = ""


# --- what gets checked ----------------------------------------------------------------------------


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


def _locate(grid: Grid, key: str,
            position: Mapping[int, int]) -> tuple[Quantity, tuple[int, ...]] | None:
    """The quantity and positions of a stored cell (``None``: off the current scale)."""
    if grid == "histograms":
        bar = _BAR_KEY.match(key)
        k = None if bar is None else position.get(int(bar[2]))
        row = None if bar is None else bar[1]
        return (row, (k,)) if is_quantity(row) and k is not None else None
    ratings = read_cell(key)
    if ratings is None or grid not in GRIDS or not is_quantity(grid):
        return None
    i, j = position.get(ratings[0]), position.get(ratings[1])
    return None if i is None or j is None else (grid, (i, j))


# --- showing the verdicts -------------------------------------------------------------------------


def in_grid(grid: Grid, checked: Sequence[CheckedAnswer]) -> list[CheckedAnswer]:
    """The checked values that belong to one grid."""
    quantities = GRID_ROWS.get(grid) or ((grid,) if is_quantity(grid) else ())
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
        table[row][column] = feedback.mark(answer)
    return table


def groups(checked: Sequence[CheckedAnswer]) -> list[list[CheckedAnswer]]:
    """The values that need a word, grouped by what is said about them (twenty cells with E not
    divided by n get one message): wrong ones, ones too coarse to judge, unreadable ones, and
    right ones with a remark (an ambiguous reading, num and den from counts). Groups keep the
    order of the calculation."""
    found: dict[tuple[Any, ...], list[CheckedAnswer]] = {}
    for answer in checked:
        remark = answer.reading is not None or answer.note is not None
        if answer.verdict in ("right", "rounding") and not remark:
            continue
        problem = None if answer.problem is None else (answer.problem.code,
                                                       answer.problem.params.get("text"))
        # A reading or a problem quotes the text typed, so those group by text too.
        reading = None if answer.reading is None else (answer.reading, answer.text)
        key = (answer.verdict, answer.diagnoses, answer.note, reading, problem, answer.needed)
        found.setdefault(key, []).append(answer)
    return list(found.values())
