"""A weight matrix of one's own: the checks, the notes and the link's text.

Sources of truth: the rules of issue 21 (square, the scale's size, finite, at least one positive
weight; a non-zero diagonal is a note, not an error), the engine (a matrix the check accepts is
one ``walkthrough`` accepts, and gives the same kappa), and hostile input at the trust boundary
(anything a data editor or a link can send: text, None, NaN, infinities, huge and nested values).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import InputError, walkthrough
from qwk_explained.present.i18n import LANGUAGES, message
from qwk_explained.teaching.custom_weights import (
    check_weights,
    notes,
    parse_weights_text,
    starting_weights,
    weights_text,
)

ACTUAL, PREDICTED = [0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 1, 0]


@pytest.mark.parametrize(("cells", "code", "params"), [
    ([[0, 1], [1, 0], [1, 1]], "weights_not_square", {"rows": 3, "columns": 2}),
    ([[0, 1, 2], [1, 0]], "weights_not_square", {"rows": 2, "columns": 3}),
    ([], "weights_not_square", {"rows": 0, "columns": 0}),
    ([[0, 1], [1, 0]], "weights_wrong_size", {"given": 2, "size": 3}),
    ([[0, 1, None], [1, 0, 1], [1, 1, 0]], "weights_not_number",
     {"row": 1, "column": 3, "value": ""}),
    ([[0, 1, 1], [1, 0, "x"], [1, 1, 0]], "weights_not_number",
     {"row": 2, "column": 3, "value": "x"}),
    ([[0, 1, 1], [1, 0, 1], [float("inf"), 1, 0]], "weights_not_number",
     {"row": 3, "column": 1, "value": "inf"}),
    ([[0, 1, 1], [1, 0, 1], [1, -0.5, 0]], "weights_negative",
     {"row": 3, "column": 2, "value": "-0.5"}),
    ([[0, 0, 0], [0, 0, 0], [0, 0, 0]], "weights_all_zero", {}),
])
def test_each_problem_has_its_reason(cells, code, params):
    with pytest.raises(InputError) as caught:
        check_weights(cells, 3)
    assert (caught.value.code, caught.value.params) == (code, params)
    for lang in LANGUAGES:
        assert "{" not in message(lang, caught.value)


@pytest.mark.parametrize("kind", ["quadratic", "linear", "unweighted"])
def test_starting_from_a_named_weighting_gives_its_kappa(kind):
    named = walkthrough(ACTUAL, PREDICTED, weights=kind)
    matrix = check_weights(starting_weights(kind, named.size), named.size)
    custom = walkthrough(ACTUAL, PREDICTED, weights=matrix)
    assert custom.kappa == pytest.approx(named.kappa) and custom.weights_name == "custom"
    assert notes(matrix) == ()


def test_notes_name_what_is_unusual():
    diagonal = np.array([[1.0, 1, 4], [1, 0, 1], [4, 1, 0]])
    assert notes(diagonal) == ("diagonal",)
    # The note is true: perfect agreement on a rating with a positive diagonal weight is < 1.
    assert walkthrough([0, 1, 2, 0], [0, 1, 2, 0], weights=diagonal).kappa < 1
    asymmetric = np.array([[0.0, 1, 4], [2, 0, 1], [4, 1, 0]])
    assert notes(asymmetric) == ("asymmetric",)
    assert walkthrough(ACTUAL, PREDICTED, weights=asymmetric).kappa != pytest.approx(
        walkthrough(PREDICTED, ACTUAL, weights=asymmetric).kappa)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
    st.lists(st.integers(), max_size=2)), min_size=0, max_size=4), min_size=0, max_size=4),
    st.integers(1, 4))
def test_anything_an_editor_sends_is_checked_or_refused_with_a_code(cells, size):
    try:
        matrix = check_weights(cells, size)
    except InputError as error:
        assert error.code.startswith("weights_")
        return
    assert matrix.shape == (size, size) and np.isfinite(matrix).all() and (matrix >= 0).all()
    result = walkthrough([0, size - 1], [size - 1, 0], weights=matrix, min_rating=0)
    assert result.kappa is None or math.isfinite(result.kappa)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.lists(
    st.lists(st.floats(0, 1e6, allow_nan=False), min_size=n, max_size=n), min_size=n,
    max_size=n)))
def test_link_text_reads_back_exactly(rows):
    matrix = np.array(rows, dtype=np.float64)
    if not (matrix > 0).any():
        return
    text = weights_text(matrix)
    assert np.array_equal(parse_weights_text(text, len(rows)), matrix)
    assert " " not in text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.integers(1, 5))
def test_any_link_text_is_read_or_refused_with_a_code(text, size):
    try:
        matrix = parse_weights_text(text, size)
    except InputError as error:
        assert error.code.startswith("weights_")
        return
    assert matrix.shape == (size, size)


def test_a_huge_link_text_is_refused_without_reading_every_cell():
    with pytest.raises(InputError) as caught:
        parse_weights_text(";".join(["1," * 60 + "1"] * 60), 5)
    assert caught.value.code == "weights_not_square"
