"""The step-by-step page's state machine (``qwk_app.shown_step``,
``qwk_app.step_by_step``), on a plain dict, without Streamlit.

Sources of truth: the step catalogue (seven steps), the rating vectors themselves (which items
fall in a cell, what a click on a cell means), the engine (``qwk_explained.walkthrough`` on the
modified vectors for "what if"), and the locale files for every line of text.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_app import shown_step, step_by_step, widgets
from qwk_app.state import Settings
from qwk_explained import InputError, walkthrough
from qwk_explained.present.catalogue import STEPS

ACTUAL = "4, 4, 3, 4, 4, 4, 1, 1, 2, 1"
PREDICTED = "0, 2, 1, 0, 0, 0, 1, 1, 2, 1"
SETTINGS = Settings("quadratic", "range", None, None)


def seed():
    return walkthrough(ACTUAL, PREDICTED)


def session_with(**values):
    """A session as ``state.init_session`` leaves it: the typed vectors, no upload, and any
    page value of the first URL under ``url_<key>``."""
    session = {"actual": ACTUAL, "predicted": PREDICTED, "upload": None}
    session.update({f"url_{key}": value for key, value in values.items()})
    return session


# --- the step -------------------------------------------------------------------------------------


def test_there_are_seven_steps_as_in_the_catalogue():
    assert shown_step.TOTAL == len(STEPS) == 7


@pytest.mark.parametrize(("link", "step"), [("3", 3), (" 7 ", 7), ("1", 1), ("6", 6)])
def test_step_from_the_link_is_shown_and_stored(link, step):
    session = session_with(step=link)
    assert shown_step.current_step(session) == (step, False)
    assert session[shown_step.STEP_KEY] == step


@pytest.mark.parametrize("stored", [None, 0, 8, -1, "3", 2.0, True])
def test_a_step_outside_1_to_7_in_the_session_becomes_1(stored):
    """Invariant: whatever the session holds, the step shown is 1..7 (True is no step 1)."""
    session = session_with()
    if stored is not None:
        session[shown_step.STEP_KEY] = stored
    step = shown_step.current_step(session).number
    assert step == session[shown_step.STEP_KEY] == 1 and type(step) is int


def test_the_session_keeps_the_step_between_runs():
    session = session_with(step="4")
    shown_step.current_step(session)
    shown_step.move(session, 1)
    assert shown_step.current_step(session) == (5, False), "the link is not read a second time"


@pytest.mark.parametrize("bad", ["abc", "0", "99", "", "3.5", "٣", "-2"])
def test_a_bad_step_in_the_link_shows_step_1_and_is_reported_once(bad):
    """User flow: a link with a step that does not exist warns on the first run only."""
    session = session_with(step=bad)
    session[shown_step.STEP_KEY] = 5  # a stale value: the link wins on the first run
    assert shown_step.current_step(session) == (1, True)
    assert "url_step" not in session
    assert shown_step.current_step(session) == (1, False)


@pytest.mark.parametrize(("start", "delta", "end"), [
    (1, -1, 1), (1, 1, 2), (6, 1, 7), (7, 1, 7), (7, -1, 6), (2, -1, 1),
])
def test_previous_and_next_stay_within_the_steps(start, delta, end):
    session = {shown_step.STEP_KEY: start}
    shown_step.move(session, delta)
    assert session[shown_step.STEP_KEY] == end


def test_moving_from_a_broken_step_starts_from_step_1():
    session = {shown_step.STEP_KEY: "junk"}
    shown_step.move(session, 1)
    assert session[shown_step.STEP_KEY] == 2


def test_next_seven_times_reaches_the_last_step_and_stays():
    session: dict = {}
    for _ in range(10):
        shown_step.move(session, 1)
    assert session[shown_step.STEP_KEY] == shown_step.TOTAL


# --- the followed cell ----------------------------------------------------------------------------


def selectors(session):
    prefix = step_by_step.CELL_PREFIX
    return session[f"{prefix}_row_input"], session[f"{prefix}_col_input"]


def test_follow_stores_rating_labels_and_the_selectors_follow():
    """Against the labels: on a 1..3 scale, positions (2, 0) are ratings (3, 1); the selectors
    show the followed cell on the next run (``keep_cell``, which the page's picker calls)."""
    session: dict = {}
    result = walkthrough([1, 2, 3], [1, 2, 3])
    widgets.follow(session, result.labels, (2, 0))
    assert session[widgets.CELL_KEY] == (3, 1)
    assert widgets.keep_cell(session, result, prefix=step_by_step.CELL_PREFIX) == (2, 0)
    assert selectors(session) == (3, 1)


def test_cell_from_the_link_is_followed_once():
    session = session_with(cell="4,0")
    assert widgets.cell_from_link(session, seed().labels) is False
    assert session["cell"] == (4, 0)
    session["cell"] = (1, 1)
    assert widgets.cell_from_link(session, seed().labels) is False
    assert session["cell"] == (1, 1), "the link is read once"


@pytest.mark.parametrize("bad", ["9,9", "4", "a,b", "4,0,1", "", "-1,0"])
def test_a_bad_cell_in_the_link_keeps_the_cell_and_is_reported_once(bad):
    session = session_with(cell=bad)
    session["cell"] = (3, 1)
    assert widgets.cell_from_link(session, seed().labels) is True
    assert session["cell"] == (3, 1)
    assert widgets.cell_from_link(session, seed().labels) is False


def test_the_cell_is_kept_by_its_ratings_when_the_scale_widens():
    """Cell (4, 0) on 0..4 is at positions (4, 0); on -1..4 the same ratings are at (5, 1)."""
    session: dict = {"cell": (4, 0)}
    assert widgets.keep_cell(session, seed(), prefix=step_by_step.CELL_PREFIX) == (4, 0)
    wider = walkthrough(ACTUAL, PREDICTED, min_rating=-1)
    assert widgets.keep_cell(session, wider, prefix=step_by_step.CELL_PREFIX) == (5, 1)
    assert session["cell"] == (4, 0)


def test_the_cell_is_reset_when_its_ratings_leave_the_scale():
    """Against the engine's default cell: the first off-diagonal cell with items."""
    session: dict = {"cell": (4, 0)}
    widgets.keep_cell(session, seed(), prefix=step_by_step.CELL_PREFIX)
    narrower = walkthrough([1, 2, 3, 3], [1, 3, 3, 2])
    cell = widgets.keep_cell(session, narrower, prefix=step_by_step.CELL_PREFIX)
    assert cell == (1, 2)
    assert session["cell"] == (2, 3) and selectors(session) == (2, 3)


@pytest.mark.parametrize("stored", [None, "4,0", (4,), (4, 0, 1), [4, 0]])
def test_a_missing_or_broken_cell_becomes_the_default_cell(stored):
    """Against the vectors: item 3 (actual 3, predicted 1) is the first disagreement in O."""
    session: dict = {} if stored is None else {"cell": stored}
    assert widgets.keep_cell(session, seed(), prefix=step_by_step.CELL_PREFIX) == (3, 1)
    assert session["cell"] == (3, 1) and selectors(session) == (3, 1)


# --- what if one item had another prediction ------------------------------------------------------


@pytest.mark.parametrize(("cell", "item", "rating"), [
    ((4, 0), 1, 4),  # items 1, 4, 5, 6 are (4, 0): item 1, and the rating that would agree is 4
    ((3, 1), 3, 3),  # item 3 is the only (3, 1)
    ((2, 2), 9, 2),
    ((0, 4), 1, 4),  # an empty cell: item 1
])
def test_the_experiment_starts_from_an_item_of_the_followed_cell(cell, item, rating):
    """Against the vectors: the first item of the cell, and its actual rating as the new one."""
    session: dict = {}
    step_by_step.choose(session, seed(), cell)
    assert (session[step_by_step.ITEM_KEY], session[step_by_step.RATING_KEY]) == (item, rating)


def test_a_chosen_item_and_rating_are_kept():
    session = {step_by_step.ITEM_KEY: 2, step_by_step.RATING_KEY: 3}
    step_by_step.choose(session, seed(), (4, 0))
    assert (session[step_by_step.ITEM_KEY], session[step_by_step.RATING_KEY]) == (2, 3)


@pytest.mark.parametrize("item", [0, 11, "2", None, True])
def test_an_item_off_the_data_starts_again_from_the_cell_and_its_rating(item):
    """The data got shorter (11 of 10 items): back to an item of the cell, with its rating."""
    session = {step_by_step.ITEM_KEY: item, step_by_step.RATING_KEY: 0}
    step_by_step.choose(session, seed(), (3, 1))
    assert (session[step_by_step.ITEM_KEY], session[step_by_step.RATING_KEY]) == (3, 3)


def test_a_rating_off_the_scale_becomes_the_items_actual_rating():
    session = {step_by_step.ITEM_KEY: 2, step_by_step.RATING_KEY: 9}
    step_by_step.choose(session, seed(), (4, 0))
    assert session[step_by_step.RATING_KEY] == 4


def test_the_experiment_is_the_engine_on_the_modified_vectors():
    session = session_with()
    session.update({step_by_step.ITEM_KEY: 2, step_by_step.RATING_KEY: 4})
    tried = step_by_step.experiment(session, seed(), SETTINGS)
    after = walkthrough(ACTUAL, "0, 4, 1, 0, 0, 0, 1, 1, 2, 1")
    assert tried.change.after.kappa == pytest.approx(after.kappa)
    assert tried.delta == pytest.approx(after.kappa - seed().kappa)
    assert not tried.same and tried.undefined() == []
    assert (tried.change.old_prediction, tried.change.new_prediction) == (2, 4)


def test_the_same_rating_changes_nothing():
    session = session_with()
    session.update({step_by_step.ITEM_KEY: 2, step_by_step.RATING_KEY: 2})
    tried = step_by_step.experiment(session, seed(), SETTINGS)
    assert tried.same and tried.delta is None


def test_an_undefined_kappa_is_named_with_its_reason():
    """den = 0 before (everyone says 2 on 1..3); after one change kappa is defined."""
    result = walkthrough([2, 2, 2], [2, 2, 2], min_rating=1, max_rating=3)
    session = {"actual": "2,2,2", "upload": None, step_by_step.ITEM_KEY: 1,
               step_by_step.RATING_KEY: 3}
    settings = Settings("quadratic", "range", 1, 3)
    tried = step_by_step.experiment(session, result, settings)
    assert tried.undefined() == [("before", "no_chance_disagreement")]
    assert tried.delta is None and tried.change.after.kappa is not None
    session[step_by_step.RATING_KEY] = 2
    same = step_by_step.experiment(session, result, settings)
    assert same.undefined() == [("before", "no_chance_disagreement")], "'after' is not said twice"


def test_a_rating_the_settings_do_not_allow_is_an_input_error():
    """A stale result on 1..4 while the settings now say 1..3: rating 4 does not fit."""
    result = walkthrough([1, 2, 3], [1, 2, 3], min_rating=1, max_rating=4)
    session = {"actual": "1,2,3", "upload": None, step_by_step.ITEM_KEY: 1,
               step_by_step.RATING_KEY: 4}
    with pytest.raises(InputError):
        step_by_step.experiment(session, result, Settings("quadratic", "range", 1, 3))
    session[step_by_step.RATING_KEY] = 3
    assert step_by_step.experiment(session, result, Settings("quadratic", "range", 1, 3)).change


def test_applying_writes_both_vectors_and_reports_the_change_once():
    """User flow: apply keeps the actual text as typed and writes the new predicted ratings;
    both widgets follow, any upload is dropped, and the change is reported on one run."""
    session = session_with()
    session.update({"actual": "4 4 3 4 4 4 1 1 2 1", "editor_version": 3,
                    step_by_step.ITEM_KEY: 2, step_by_step.RATING_KEY: 4})
    step_by_step.apply(session, step_by_step.experiment(session, seed(), SETTINGS))
    assert session["actual"] == session["actual_input"] == "4 4 3 4 4 4 1 1 2 1"
    assert session["predicted"] == session["predicted_input"] == "0, 4, 1, 0, 0, 0, 1, 1, 2, 1"
    assert session["upload"] is None and session["editor_version"] == 4
    assert step_by_step.applied(session) == (2, 4)
    assert step_by_step.applied(session) is None


def test_applying_to_uploaded_ratings_writes_them_out_as_text():
    """An upload has no typed text: both vectors become text, the upload is dropped."""
    actual = np.array([4, 4, 3, 4, 4, 4, 1, 1, 2, 1])
    session = {"actual": "", "predicted": "",
               "upload": {"actual": actual, "predicted": None, "digest": "x"},
               step_by_step.ITEM_KEY: 10, step_by_step.RATING_KEY: 3}
    step_by_step.apply(session, step_by_step.experiment(session, seed(), SETTINGS))
    assert session["actual"] == ACTUAL
    assert session["predicted"] == "0, 2, 1, 0, 0, 0, 1, 1, 2, 3"
    assert session["upload"] is None and step_by_step.applied(session) == (10, 3)
