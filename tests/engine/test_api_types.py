"""The Python API and what callers pass it: every bad type is an ``InputError``, never numpy's own.

Sources of truth: the README ("every input problem raises InputError"), the reliability review's
finding L5 (ragged nested lists raised numpy's ``ValueError``; float16 ratings warned on every
call; a masked array's mask was ignored; a complex weight matrix lost its imaginary part with a
``ComplexWarning``; ``True`` was read as the rating 1 and as the bound 1), and the four locale
files (each error's sentence exists in every language: :func:`tests.hostile.assert_translated`).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwk_explained import InputError, quadratic_weighted_kappa, walkthrough, walkthrough_from_table
from tests.hostile import HOSTILE, PYTHON_VALUES, assert_translated


def code_of(function, *args, **kwargs) -> str:
    with pytest.raises(InputError) as raised:
        function(*args, **kwargs)
    return raised.value.code


# --- L5, one case at a time ----------------------------------------------------------------------


@pytest.mark.parametrize("function", [walkthrough, quadratic_weighted_kappa])
@pytest.mark.parametrize("ragged", [[[1, 2], [3]], [1, [2]], [[[1]] * 2, [1]]])
def test_ragged_nested_lists_are_input_errors(function, ragged):
    """L5: numpy's "inhomogeneous shape" ValueError used to escape."""
    assert code_of(function, ragged, [1, 2]) == "not_a_vector"


def test_nesting_deeper_than_numpy_allows_is_an_input_error():
    deep: object = 1
    for _ in range(70):
        deep = [deep]
    assert code_of(walkthrough, deep, [1]) == "not_a_vector"


@pytest.mark.parametrize("function", [walkthrough, quadratic_weighted_kappa])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_small_floats_give_no_numpy_warning(function, dtype):
    """L5: float16 ratings warned "overflow encountered in cast" on every call."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = function(np.array([1, 2, 3, 3], dtype=dtype), np.array([1, 2, 2, 3], dtype=dtype))
    assert getattr(result, "kappa", result) == pytest.approx(walkthrough([1, 2, 3, 3],
                                                                         [1, 2, 2, 3]).kappa)


def test_a_float16_table_gives_no_numpy_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = walkthrough_from_table(np.array([[2, 1], [0, 3]], dtype=np.float16))
    assert result.kappa == walkthrough_from_table([[2, 1], [0, 3]]).kappa


@pytest.mark.parametrize("function", [walkthrough, quadratic_weighted_kappa])
def test_a_mask_that_hides_a_rating_is_refused(function):
    """L5: the mask was silently ignored, so the hidden rating counted."""
    masked = np.ma.masked_array([1, 2, 3], mask=[False, True, False])
    assert code_of(function, masked, [1, 2, 3]) == "masked_values"
    assert code_of(function, [1, 2, 3], masked) == "masked_values"


def test_a_mask_that_hides_nothing_is_honoured():
    unmasked = np.ma.masked_array([1, 2, 3, 3], mask=False)
    assert walkthrough(unmasked, [1, 2, 2, 3]).kappa == walkthrough([1, 2, 3, 3],
                                                                    [1, 2, 2, 3]).kappa


def test_masked_tables_and_weights_are_refused():
    table = np.ma.masked_array([[2, 1], [0, 3]], mask=[[False, True], [False, False]])
    assert code_of(walkthrough_from_table, table) == "masked_values"
    weights = np.ma.masked_array([[0, 1], [1, 0]], mask=[[False, True], [False, False]])
    assert code_of(walkthrough, [1, 2], [1, 2], weights=weights) == "masked_values"


@pytest.mark.parametrize("weights", [
    [[0, 1j], [1, 0]], np.array([[0, 1], [1, 0]], dtype=np.complex64),
    np.array([[0, 1 + 0j], [1, 0]], dtype=object), [["0", "1j"], ["1", "0"]],
])
def test_complex_weights_are_refused(weights):
    """L5: numpy dropped the imaginary part with a ComplexWarning and computed on."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert code_of(walkthrough, [1, 2], [1, 2], weights=weights) == "weights_bad_matrix"


@pytest.mark.parametrize(("ratings", "position"), [
    ([True, False, True], 1), ([1, True, 2], 2), ([1.0, 2.0, False], 3),
    (np.array([True, False]), 1), ([np.bool_(True), 1], 1),
])
def test_booleans_are_refused_as_ratings(ratings, position):
    """L5: True was read as the rating 1."""
    for function in (walkthrough, quadratic_weighted_kappa):
        with pytest.raises(InputError) as raised:
            function(ratings, [1] * len(ratings))
        assert raised.value.code == "not_integer"
        assert raised.value.params["position"] == position


@pytest.mark.parametrize("bound", [True, False, np.bool_(True)])
def test_booleans_are_refused_as_bounds(bound):
    """L5: min_rating=True was read as 1."""
    assert code_of(walkthrough, [1, 2], [1, 2], min_rating=bound) == "not_integer"
    assert code_of(quadratic_weighted_kappa, [1, 2], [1, 2], max_rating=bound) == "not_integer"


def test_booleans_are_refused_in_tables_and_labels():
    assert code_of(walkthrough_from_table, [[True, 2], [3, 4]]) == "table_bad_count"
    assert code_of(walkthrough_from_table, [[1, 2], [3, 4]], labels=[True, 2]) == (
        "table_bad_labels")


@pytest.mark.parametrize("table", [5, None, "", {1, 2}, 2.5])
def test_a_table_that_is_no_table_says_so(table):
    """A number or None used to be "a 0 x 0 table"."""
    code = code_of(walkthrough_from_table, table)
    assert code in {"table_not_a_table", "empty"}


# --- the harness: any object as any argument -----------------------------------------------------

RATINGS = st.one_of(PYTHON_VALUES, st.lists(st.integers(0, 4), min_size=1, max_size=8))


def _outcome(function, *args, **kwargs) -> None:
    """Call with hostile arguments: a result, or the project's own error, translated; no numpy
    warning either (they print in a notebook as if something had broken)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the property is about which errors escape
            assert_translated(error)


@HOSTILE
@given(actual=RATINGS, predicted=RATINGS, weights=st.one_of(PYTHON_VALUES, st.just("linear")),
       scale=st.one_of(st.sampled_from(["range", "observed"]), PYTHON_VALUES),
       low=st.one_of(st.none(), PYTHON_VALUES), high=st.one_of(st.none(), PYTHON_VALUES))
def test_hostile_arguments_to_walkthrough(actual, predicted, weights, scale, low, high):
    _outcome(walkthrough, actual, predicted, weights=weights, scale=scale, min_rating=low,
             max_rating=high)


@HOSTILE
@given(actual=RATINGS, predicted=RATINGS, low=st.one_of(st.none(), PYTHON_VALUES),
       high=st.one_of(st.none(), PYTHON_VALUES))
def test_hostile_arguments_to_quadratic_weighted_kappa(actual, predicted, low, high):
    _outcome(quadratic_weighted_kappa, actual, predicted, min_rating=low, max_rating=high)


@HOSTILE
@given(table=st.one_of(PYTHON_VALUES, st.lists(st.lists(st.one_of(
           st.integers(0, 9), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
           st.text(max_size=2)), min_size=2, max_size=2), min_size=2, max_size=2)),
       weights=st.one_of(PYTHON_VALUES, st.just("quadratic")),
       labels=st.one_of(st.none(), PYTHON_VALUES))
def test_hostile_arguments_to_walkthrough_from_table(table, weights, labels):
    _outcome(walkthrough_from_table, table, weights=weights, labels=labels)
