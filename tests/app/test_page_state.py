"""The pages' state and text modules without a page: the data editor's replay, the theory page's
2 x 2 counts and caveat, and the pitfalls page's table text (a plain dict is the session)."""

from __future__ import annotations

import pytest

from qwk_app import pitfalls, theory
from qwk_app.editor import Editor
from qwk_explained import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching import conventions
from qwk_explained.teaching.theory import DEFAULT_TABLE

# --- the data editor ------------------------------------------------------------------------------

COLUMNS = ("actual", "predicted")


def test_an_editor_replays_its_edits_on_its_base_every_run():
    """Edits are relative to the rows the editor was drawn with; replaying twice gives the same
    rows (the editor reports every edit since it was drawn)."""
    editor, session = Editor("table"), {}
    key, rows = editor.rows(session, lambda: [[1, 2], [3, 4]])
    assert (key, rows) == ("table_0", [[1, 2], [3, 4]])
    assert editor.replay(session, COLUMNS) is None, "nothing edited yet"
    session[key] = {"edited_rows": {"1": {"predicted": 9}}, "added_rows": [{"actual": 5}],
                    "deleted_rows": [0]}
    expected = [[3, 9], [5, None]]
    assert editor.replay(session, COLUMNS) == expected
    assert editor.replay(session, COLUMNS) == expected


def test_an_editor_ignores_edits_that_name_no_row_or_column():
    editor, session = Editor("grid"), {}
    key, _ = editor.rows(session, lambda: [[1, 2]])
    session[key] = {"edited_rows": {"7": {"actual": 0}, "x": {"actual": 0},
                                    "0": {"nope": 3, "actual": 8}}}
    assert editor.replay(session, COLUMNS) == [[8, 2]]


def test_a_change_from_code_draws_a_new_editor_from_the_new_state():
    """After :meth:`Editor.redraw` (an example, a paste, undo) the old widget's edits are not
    replayed, and the next draw reads the state again under a new key."""
    editor, session = Editor("table"), {}
    key, _ = editor.rows(session, lambda: [[1, 2]])
    session[key] = {"edited_rows": {"0": {"actual": 7}}}
    editor.redraw(session)
    assert editor.replay(session, COLUMNS) is None
    new_key, rows = editor.rows(session, lambda: [[4, 4]])
    assert (new_key, rows) == ("table_1", [[4, 4]])


def test_state_changed_while_the_editor_was_not_drawn_gives_a_new_widget():
    """Streamlit dropped the widget (another tab was open) and the state moved on meanwhile: the
    editor is drawn again from the state, under a new key, so it does not show its old rows."""
    editor, session = Editor("table"), {}
    editor.rows(session, lambda: [[1, 2]])
    key, rows = editor.rows(session, lambda: [[3, 3]])  # no widget state under "table_0"
    assert (key, rows) == ("table_1", [[3, 3]])


# --- the theory page ------------------------------------------------------------------------------


@pytest.mark.parametrize(("link", "counts", "problem"), [
    (None, DEFAULT_TABLE, None),
    ("15,10;5,20", (15, 10, 5, 20), None),
    ("1,2,3;4,5,6;7,8,9", DEFAULT_TABLE, "shape"),
])
def test_the_counts_come_from_the_link_or_the_default(link, counts, problem):
    """The link's ``?table=`` arrives as ``url_table`` in the session (read once)."""
    session: dict = {} if link is None else {"url_table": link}
    assert theory.init_table(session) == problem
    assert theory.counts(session) == counts
    assert theory.init_table(session) is None, "filled once"


def test_a_table_link_that_cannot_be_read_is_reported_and_the_default_used():
    session: dict = {"url_table": "1,x;2,3"}
    problem = theory.init_table(session)
    assert problem is not None and problem != "shape"
    assert theory.counts(session) == DEFAULT_TABLE


def test_an_emptied_count_counts_zero_and_a_table_round_trips_through_its_link():
    session = {theory.key(cell): 4 for cell in theory.CELLS}
    session[theory.key("n01")] = None
    assert theory.counts(session) == (4, 0, 4, 4)
    assert theory.table_link((15, 10, 5, 20)) == "15,10;5,20"


@pytest.mark.parametrize(("quadratic", "unweighted", "caveat"), [
    (0.61, 0.4, "higher"), (0.2, 0.4, "lower"), (0.12341, 0.12339, "equal"),
    (None, 0.3, "undefined"), (0.3, None, "undefined"),
])
def test_the_caveat_compares_the_kappas_as_printed(quadratic, unweighted, caveat):
    assert theory.caveat(quadratic, unweighted) == caveat


# --- the pitfalls page ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pitfalls_table_has_one_cell_per_convention_in_every_column(lang):
    """Unused rating 2 on 0..3: the table's columns line up, each row's kappa is the
    convention's, and the reason names the unused rating in the reader's language."""
    result = walkthrough([0, 1, 3, 3], [0, 1, 3, 1])
    comparison = conventions.compare(result.actual, result.predicted, "quadratic")
    analysis = pitfalls.Analysis(
        "quadratic", comparison, conventions.sklearn_check(result.actual, result.predicted,
                                                           "quadratic"),
        conventions.sklearn_check(pitfalls.CONSTANT.actual, pitfalls.CONSTANT.predicted,
                                  "quadratic"),
        conventions.seed_claim((pitfalls.CLAIMED.actual, pitfalls.CLAIMED.predicted),
                               (pitfalls.OPPOSITE.actual, pitfalls.OPPOSITE.predicted),
                               "quadratic"))
    columns = pitfalls.table(analysis, lang)
    assert {len(cells) for cells in columns.values()} == {len(comparison.rows)}
    ours = columns[t(lang, "pitfalls.column_ours")]
    for row, shown in zip(comparison.rows, ours, strict=True):
        assert shown == pitfalls.kappa_text(row, lang)
    assert t(lang, "pitfalls.column_reason") in columns


def test_a_reason_counts_what_its_plural_follows():
    assert pitfalls.reason_params({"unused": (2,), "low": 0}, "en")["count"] == 1
    assert pitfalls.reason_params({"size": 7}, "tr") == {"size": "7", "count": 7}


def test_sklearn_text_says_what_each_call_returned():
    run = conventions.SklearnRun(value=float("nan"), warnings=(), labels_given=False)
    assert pitfalls.sklearn_text(run, "en") == t("en", "pitfalls.sklearn_nan")
    assert pitfalls.sklearn_text(None, "en") == ""
    raised = conventions.SklearnRun(value=None, warnings=(), labels_given=True, raised="ValueError")
    assert pitfalls.sklearn_text(raised, "es") == t("es", "pitfalls.raises", error="ValueError")
