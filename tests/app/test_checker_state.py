"""The checker page's state machine, without a running script.

Sources of truth: the engine (``walkthrough_from_table``, ``check_answers``) for what the state
should point at, and the data editor's own record of edits (``edited_rows`` relative to the rows
it was drawn with) for how a grid is typed into. Sessions are plain dicts here; the pages pass
``st.session_state``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_app import checker, compute, state
from qwk_explained import InputError, walkthrough_from_table
from qwk_explained.teaching.checking import Answer, check_answers

TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], labels=[1, 2, 3])
LABELS = [1, 2, 3]


def fresh(**url):
    """A session as the page leaves it after its first run: every grid drawn."""
    session: dict = {}
    checker.init(session, url)
    checker.take_edits(session, LABELS)
    for grid in checker.GRIDS:
        checker.editor_rows(session, grid, LABELS)
    return session


def type_into(session, grid, cells):
    """The data editor records every edit since it was drawn; the next run replays them."""
    key, _ = checker.editor_rows(session, grid, LABELS)
    session[key] = {"edited_rows": cells}
    checker.take_edits(session, LABELS)


# --- the checker ---------------------------------------------------------------------------------


def test_the_first_url_sets_mode_table_and_first_rating():
    assert fresh()[checker.MODE] == "vectors"
    session = fresh(table="1,2;3,4", first="1")
    assert (session[checker.MODE], session[checker.TABLE], session[checker.FIRST]) == (
        "table", "1,2;3,4", 1)
    assert fresh(mode="table")[checker.TABLE] == checker.DEFAULT_TABLE
    for bad in ("x", "1.5", "99999", None):
        assert checker.first_rating(bad) == 0


def test_a_table_is_labelled_from_its_first_rating():
    quadratic = state.Settings("quadratic", "range", None, None)
    result, canonical = compute.table_result("0 4 1\n0 8 0\n0 1 5", 1, quadratic)
    assert result.labels.tolist() == LABELS and canonical == "0,4,1;0,8,0;0,1,5"
    assert result.kappa == TABLE.kappa
    with pytest.raises(InputError):
        compute.table_result("1,2;3", 0, quadratic)
    # A custom matrix: this table's kappa with it, or its size named when it is not the table's.
    custom = state.Settings("custom", "range", None, None, "0,1,4;1,0,1;4,1,0")
    assert compute.table_result("0 4 1\n0 8 0\n0 1 5", 1, custom)[0].kappa == TABLE.kappa
    with pytest.raises(InputError) as caught:
        compute.table_result("1,2;3,4", 0, custom)
    assert caught.value.code == "weights_wrong_size"


def test_grid_edits_are_replayed_onto_the_cells_by_rating():
    session = fresh()
    type_into(session, "expected", {0: {"2": "65"}, 2: {"3": " 1/4 "}})
    assert session[checker.CELLS]["expected"] == {"1,2": "65", "3,3": "1/4"}
    checker.take_edits(session, LABELS)  # replaying is idempotent
    assert session[checker.CELLS]["expected"] == {"1,2": "65", "3,3": "1/4"}
    # The editor reports every edit since it was drawn: the first cell emptied again.
    type_into(session, "expected", {0: {"2": ""}, 2: {"3": " 1/4 "}})
    assert session[checker.CELLS]["expected"] == {"3,3": "1/4"}
    answers = checker.answers(session, TABLE)
    assert answers == [Answer("expected", (2, 2), "1/4")]


#: Any JSON a forged browser message can carry (the grids' state arrives as JSON).
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=3) | st.sampled_from(["0", "1", "2", "3"]), children,
                      max_size=4),
    max_leaves=20)
EDITS = st.fixed_dictionaries({}, optional={
    "edited_rows": JSON | st.dictionaries(st.sampled_from(["0", "1", "2", "9", "-1", "x"]),
                                          st.dictionaries(st.sampled_from(["1", "2", "3", "7"]),
                                                          JSON, max_size=3), max_size=3),
    "added_rows": JSON, "deleted_rows": JSON})


@settings(max_examples=200, deadline=None)
@given(state=JSON | EDITS)
def test_any_state_a_browser_sends_for_a_grid_leaves_plain_text_cells_on_the_grid(state):
    """Trust boundary: a grid's state is JSON from the browser. Whatever it holds, replaying it
    raises nothing, and the cells kept are text keyed by a cell of the grid (rows 1 to 3 here,
    columns 1 to 3): rows, columns and edits that are not the grid's are left out."""
    session = fresh()
    key, _ = checker.editor_rows(session, "observed", LABELS)
    session[key] = state
    checker.take_edits(session, LABELS)
    cells = session[checker.CELLS].get("observed", {})
    assert all(isinstance(text, str) and text == text.strip() and text for text in
               cells.values())
    assert set(cells) <= {f"{i},{j}" for i in LABELS for j in LABELS}


def test_a_new_scale_redraws_the_grids_and_keeps_cells_by_rating():
    session = fresh()
    type_into(session, "observed", {1: {"2": "8"}})
    before, _ = checker.editor_rows(session, "observed", LABELS)
    checker.take_edits(session, [0, 1, 2, 3])
    key, rows = checker.editor_rows(session, "observed", [0, 1, 2, 3])
    assert key != before and rows[2][2] == "8", "a new editor, the cell at rating (2, 2)"
    wider = walkthrough_from_table(np.eye(4, dtype=int), labels=[0, 1, 2, 3])
    assert checker.answers(session, wider) == [Answer("observed", (2, 2), "8")]
    shifted = walkthrough_from_table(np.eye(2, dtype=int), labels=[5, 6])
    assert checker.answers(session, shifted) == [], "cells off the scale are not checked"


@pytest.mark.parametrize(("text", "rows"), [
    ("0 0,25\n0,25 0", [["0", "0,25"], ["0,25", "0"]]),
    ("0\t0.25\n0.25\t0", [["0", "0.25"], ["0.25", "0"]]),
    ("0;0,25\n0,25;0", [["0", "0,25"], ["0,25", "0"]]),
    ("0,0.25\n0.25,0\n\n", [["0", "0.25"], ["0.25", "0"]]),
    ("[[1, 2], [3, 4]]", [["1", "2", "3", "4"]]),
])
def test_pasted_rows_split_by_tabs_semicolons_spaces_or_commas(text, rows):
    assert checker.split_pasted(text) == rows


def test_paste_fills_a_grid_or_says_why_not():
    session = fresh()
    assert checker.paste(session, "histograms", LABELS, "1 13 5\n0 12 7") is None
    assert session[checker.CELLS]["histograms"] == {
        "actual_hist:1": "1", "actual_hist:2": "13", "actual_hist:3": "5",
        "predicted_hist:1": "0", "predicted_hist:2": "12", "predicted_hist:3": "7"}
    assert checker.paste(session, "observed", LABELS, "1 2\n3 4") == "shape"
    assert checker.paste(session, "observed", LABELS, "  ") == "empty"
    assert session[checker.PASTE_PROBLEM]["observed"] == "empty"
    checker.clear(session, "histograms")
    assert session[checker.CELLS]["histograms"] == {}


def test_marks_and_groups_of_what_is_said():
    session = fresh()
    type_into(session, "expected", {0: {"2": "65", "3": "ab"}, 2: {"2": "78"},
                                    1: {"2": f"{TABLE.expected[1, 1]:.4f}"}})
    checked = check_answers(TABLE, checker.answers(session, TABLE))
    assert checker.marks("expected", LABELS, checked) == [["", "✗", "?"], ["", "≈", ""],
                                                          ["", "✗", ""]]
    groups = checker.groups(checked)
    assert [[a.cell for a in group] for group in groups] == [[(0, 1), (2, 1)], [(0, 2)]]
