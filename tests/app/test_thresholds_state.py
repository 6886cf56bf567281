"""The "From scores to ratings" page's state machine, without a running script.

Sources of truth: the core (``check_scores``, ``optimize_thresholds``, ``quantile_cuts``,
``walkthrough``) for every number the state holds; ``scored_example`` for the example. Sessions
are plain dicts here; the page passes ``st.session_state``. Hostile values (a forged example
size, a drag message that is no cut, NaN) must leave the state as it was.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_app import thresholds as page
from qwk_explained.core.steps import walkthrough
from qwk_explained.core.thresholds import optimize_thresholds, quantile_cuts, rounding_cuts
from qwk_explained.teaching.examples import scored_example


def started() -> dict:
    session: dict = {}
    page.start(session)
    return session


def shown(session: dict, weights: str = "quadratic"):
    data, errors, stale = page.current(session)
    assert data is not None
    return data, page.cuts(session, data, weights)


def test_a_first_visit_shows_the_example_in_the_fields_with_plain_rounding() -> None:
    session = started()
    actual, scores = scored_example()
    data, errors, stale = page.current(session)
    assert (errors, stale) == ({}, False)
    assert data is not None and data.actual.tolist() == actual.tolist()
    assert data.scores.tolist() == scores.tolist()
    assert page.cuts(session, data, "quadratic") == rounding_cuts(0, 4)


def test_a_large_example_is_kept_as_arrays_and_typing_brings_the_fields_back() -> None:
    session = started()
    session[page.EXAMPLE_SIZE] = 2_000
    page.load_example(session)
    data, _, _ = page.current(session)
    assert data is not None and len(data.actual) == 2_000
    assert session[page.ARRAYS]["name"] == "2000"
    session[f"{page.SCORES}_input"] = session[page.SCORES]
    page.typed(session, page.SCORES)
    data, _, _ = page.current(session)
    assert session[page.ARRAYS] is None and len(data.actual) == 200


@pytest.mark.parametrize("size", ["100000", 10**9, True, None, 2.0])
def test_a_forged_example_size_loads_the_default(size) -> None:
    session = started()
    session[page.EXAMPLE_SIZE] = size
    page.load_example(session)
    assert session[page.EXAMPLE_SIZE] == 200 and session[page.ARRAYS] is None


def test_a_moved_cut_stops_at_its_neighbours() -> None:
    session = started()
    data, cuts = shown(session)
    page.move(session, 1, 0.2)
    assert session[page.CUTS] == (0.5, 0.5, 2.5, 3.5)
    assert session[page.NOTE] == "clamped"
    page.move(session, 1, 1.0)
    assert session[page.CUTS] == (0.5, 1.0, 2.5, 3.5) and session[page.NOTE] is None
    page.move(session, 3, 99.0)  # the last cut has no neighbour above
    assert session[page.CUTS][3] == 99.0


@pytest.mark.parametrize("message", ["1:nan", "9:1.5", "abc", "0:1e999", "-1:2", "1:", ":1",
                                     "1:2:3", "1:0x10", "1 : 2", "1:" + "9" * 500])
def test_a_drag_message_that_is_no_cut_changes_nothing(message: str) -> None:
    session = started()
    _, cuts = shown(session)
    page.dragged(session, message)
    assert session[page.CUTS] == cuts


def test_a_drag_message_moves_its_cut() -> None:
    session = started()
    shown(session)
    page.dragged(session, "2:2.125")
    assert session[page.CUTS] == (0.5, 1.5, 2.125, 3.5)
    session[page.slider_key(0)] = 0.75
    page.slid(session, 0)
    assert session[page.CUTS][0] == 0.75


def test_the_buttons_place_the_cuts_and_keep_one_row_per_method() -> None:
    session = started()
    data, _ = shown(session)
    actual, scores = scored_example()
    page.choose(session, "quantiles", data, "quadratic")
    assert session[page.CUTS] == quantile_cuts(actual, scores)
    page.choose(session, "optimizer", data, "quadratic")
    search = optimize_thresholds(actual, scores)
    assert session[page.CUTS] == search.cuts
    page.choose(session, "optimizer", data, "quadratic")
    tried = session[page.TRIED]
    assert [entry.method for entry in tried] == ["quantiles", "optimizer"]
    assert (tried[1].kappa, tried[1].cv_kappa) == (search.kappa, search.cv_kappa)
    expected = walkthrough(actual, np.searchsorted(quantile_cuts(actual, scores), scores,
                                                   side="right")).kappa
    assert tried[0].kappa == pytest.approx(expected, abs=1e-12)


def test_new_data_or_another_weighting_clears_what_was_tried() -> None:
    session = started()
    data, _ = shown(session)
    page.choose(session, "optimizer", data, "quadratic")
    page.cuts(session, data, "linear")
    assert session[page.TRIED] == [] and session[page.SEARCH] is None
    assert session[page.CUTS] != rounding_cuts(0, 4)  # the cut points themselves stay
    session[f"{page.ACTUAL}_input"] = "0, 1, 2, 3"
    session[f"{page.SCORES}_input"] = "0.1, 1.1, 2.2, 2.9"
    page.typed(session, page.ACTUAL)
    page.typed(session, page.SCORES)
    data, cuts = shown(session, "linear")
    assert cuts == rounding_cuts(0, 3)


def test_an_optimizer_that_cannot_cross_validate_runs_in_sample_and_says_why() -> None:
    session = started()
    session[f"{page.ACTUAL}_input"] = "0, 0, 0, 1, 1, 1"
    session[f"{page.SCORES}_input"] = "0.1, 0.2, 0.7, 0.4, 0.8, 0.9"
    page.typed(session, page.ACTUAL)
    page.typed(session, page.SCORES)
    session[page.FOLDS] = 10
    data, _ = shown(session)
    page.choose(session, "optimizer", data, "quadratic")
    assert session[page.SEARCH_ERROR].code == "bad_folds"
    assert session[page.SEARCH].cv_kappa is None and session[page.SEARCH].folds == 0


@pytest.mark.parametrize(("field", "text", "code"), [
    ("scores", "0.5, nan", "score_not_finite"),
    ("scores", "0.5, high", "score_not_number"),
    ("actual", "1, x", "not_integer"),
])
def test_a_bad_field_keeps_the_last_valid_data_on_screen(field, text, code) -> None:
    session = started()
    before, _ = shown(session)
    key = page.ACTUAL if field == "actual" else page.SCORES
    session[f"{key}_input"] = text
    page.typed(session, key)
    data, errors, stale = page.current(session)
    assert errors[field].code == code and stale and data is before
    assert session[key] == text  # what was typed stays


def test_the_pair_problems_are_the_cores() -> None:
    session = started()
    session[f"{page.SCORES}_input"] = "0.5, 1.5"
    page.typed(session, page.SCORES)
    _, errors, _ = page.current(session)
    assert errors["pair"].code == "scores_length_mismatch"


def test_the_last_change_is_fresh_once_then_kept() -> None:
    session = started()
    data, cuts = shown(session)
    first = page.shown_result(session, data, cuts, "quadratic")
    assert page.last_change(session, data, cuts, "quadratic", first) == (None, False)
    page.move(session, 0, 1.0)
    moved = page.shown_result(session, data, session[page.CUTS], "quadratic")
    before, fresh = page.last_change(session, data, session[page.CUTS], "quadratic", moved)
    assert before is first and fresh
    assert page.last_change(session, data, session[page.CUTS], "quadratic", moved) == (
        first, False)


def test_slider_positions_hold_the_cut_and_span_the_scores() -> None:
    session = started()
    data, _ = shown(session)
    page.move(session, 0, 0.123456789)
    options = page.slider_options(data, session[page.CUTS], 0)
    assert 0.123456789 in options and options == sorted(options)
    assert options[0] <= data.scores.min() and options[-1] >= data.scores.max()
