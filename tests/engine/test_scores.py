"""Reading continuous scores: typed text, arrays and two-column files (rating, score).

Sources of truth: Python's ``float`` for every accepted token; the careful (line by line) reader
for the C readers (numpy's, pandas'); hand-written cases for the decimal-comma rule and for each
error code with its position or line. Adversarial inputs (hypothesis): any text, any bytes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwk_explained import InputError
from qwk_explained.core import limits, scores
from qwk_explained.core.plain import PANDAS_FROM_BYTES

PROPERTIES = settings(max_examples=200, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(("text", "expected"), [
    ("0.4, 2.75 3", [0.4, 2.75, 3.0]),
    ("0.5,1.25", [0.5, 1.25]),
    ("0,5; 1,25", [0.5, 1.25]),          # semicolons separate: commas are decimal commas
    ("0,5\n1,25\n-2,5e1", [0.5, 1.25, -25.0]),  # one per line, as a spreadsheet copies them
    ("0,5", [0.0, 5.0]),                  # nothing else separates: the comma does
    ("1,5, 2", [1.0, 5.0, 2.0]),          # a comma before a space separates, so all do
    ("[1.5 -2 .25 3.]", [1.5, -2.0, 0.25, 3.0]),
    ("１．５、２", [1.5, 2.0]),           # full-width digits and punctuation
    ("1e-3 +2E2", [0.001, 200.0]),
])
def test_typed_scores(text: str, expected: list[float]) -> None:
    assert scores.parse_scores(text).tolist() == expected


@pytest.mark.parametrize(("text", "code", "position"), [
    ("1.5, nan", "score_not_finite", 2),
    ("1.5 -inf 2", "score_not_finite", 2),
    ("NA 1", "score_not_finite", 1),
    ("1 2 abc", "score_not_number", 3),
    ("1_0", "score_not_number", 1),
    ("0x1p3", "score_not_number", 1),
    ("1 1e400", "score_too_large", 2),
    ("2e9", "score_too_large", 1),
])
def test_a_bad_token_is_named_with_its_position(text: str, code: str, position: int) -> None:
    with pytest.raises(InputError) as caught:
        scores.parse_scores(text)
    assert caught.value.code == code
    assert caught.value.params["position"] == position


@pytest.mark.parametrize("text", ["", "  ,;\n", None])
def test_no_scores_is_scores_empty(text) -> None:
    with pytest.raises(InputError) as caught:
        scores.parse_scores(text)  # type: ignore[arg-type]
    assert caught.value.code == "scores_empty"


@PROPERTIES
@given(st.text())
def test_any_text_gives_finite_scores_or_an_input_error(text: str) -> None:
    try:
        values = scores.parse_scores(text)
    except InputError:
        return
    assert values.dtype == np.float64 and np.isfinite(values).all()
    assert (np.abs(values) <= limits.MAX_ABS_SCORE).all()


@PROPERTIES
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30))
def test_typed_floats_read_back_exactly(values: list[float]) -> None:
    assert scores.parse_scores(" ".join(repr(v) for v in values)).tolist() == values


@pytest.mark.parametrize(("values", "expected"), [
    (np.array([1, 2], dtype=np.int8), [1.0, 2.0]),
    (np.array([0.5, 1.5], dtype=np.float32), [0.5, 1.5]),
    (["1.5", 2, 3.25], [1.5, 2.0, 3.25]),
])
def test_arrays_and_lists(values, expected) -> None:
    assert scores.as_scores(values).tolist() == expected


@pytest.mark.parametrize(("values", "code"), [
    ([1.0, math.nan], "score_not_finite"),
    (np.array([1.0, np.inf]), "score_not_finite"),
    ([True, False], "score_not_number"),
    ([None, 1.0], "score_not_number"),
    ([[1.0], [2.0]], "not_a_vector"),
    ([[1.0], [2.0, 3.0]], "not_a_vector"),
    ([], "scores_empty"),
    ([10**400], "score_too_large"),
    (np.ma.masked_array([1.0, 2.0], mask=[False, True]), "masked_values"),  # never counted
])
def test_bad_arrays(values, code: str) -> None:
    with pytest.raises(InputError) as caught:
        scores.as_scores(values)
    assert caught.value.code == code


# --- Two-column files ---------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "header"), [
    ("rating,score\n4,3.6\n1,1.2\n", ("rating", "score")),
    ("rating;score\r\n4;3,6\r\n1;1,2\r\n", ("rating", "score")),
    ("4\t3,6\n1\t1.2\n", None),
    ("4 3.6\n1 1.2\n", None),
    ("\ufeff\"actual\";\"puntuación\"\n4;3,6\n\n1;1,2\n", ("actual", "puntuación")),
    ("4.0,3.6\n1,1.2\n", None),
])
def test_two_column_files(data: str, header) -> None:
    for content in (data, data.encode("utf-8")):
        read = scores.parse_scored_csv(content)
        assert read.header == header
        assert read.actual.tolist() == [4, 1] and read.actual.dtype == np.int64
        assert read.scores.tolist() == [3.6, 1.2]


@pytest.mark.parametrize(("data", "code", "params"), [
    ("1,0.5\n2\n", "scores_csv_ragged", {"line": 2, "count": 1}),
    ("a,b\n1,0.5\n2,0.7,9\n", "scores_csv_ragged", {"line": 3, "count": 3}),
    ("1\n2\n", "scores_csv_columns", {"count": 1}),
    ("1,2,3\n", "scores_csv_columns", {"count": 3}),
    ("1,0.5\n2.5,0.7\n", "csv_bad_cell", {"line": 2, "token": "2.5"}),
    ("1,0.5\n2,nan\n", "scores_csv_bad_cell", {"line": 2, "token": "nan"}),
    ("r;s\n1;0,5\n2;x\n", "scores_csv_bad_cell", {"line": 3, "token": "x"}),
    ("header only\n", "scores_empty", {}),
    ("", "scores_empty", {}),
    (b"\x00\x01binary", "csv_not_text", {}),
])
def test_a_bad_file_names_its_line(data, code: str, params: dict) -> None:
    with pytest.raises(InputError) as caught:
        scores.parse_scored_csv(data)
    assert caught.value.code == code
    assert {key: caught.value.params[key] for key in params} == params


@PROPERTIES
@given(st.lists(st.tuples(st.integers(-5, 9), st.floats(-1e5, 1e5, allow_nan=False)),
                min_size=1, max_size=40),
       st.sampled_from([",", ";", "\t"]), st.booleans())
def test_the_c_reader_and_the_careful_reader_agree(rows, delimiter: str, header: bool) -> None:
    comma = delimiter != ","
    lines = [f"{a}{delimiter}{repr(s).replace('.', ',') if comma else repr(s)}" for a, s in rows]
    text = ("actual" + delimiter + "score\n" if header else "") + "\n".join(lines) + "\n"
    fast = scores._parse_plain(text.encode())
    careful = scores._parse_careful(text.encode())
    assert careful.actual.tolist() == [a for a, _ in rows]
    assert careful.scores.tolist() == [s for _, s in rows]
    if fast is not None:  # "1e-05" and the like leave the plain grammar: both must then agree
        assert fast.actual.tolist() == careful.actual.tolist()
        assert fast.scores.tolist() == careful.scores.tolist()
        assert fast.header == careful.header


def test_a_large_plain_file_goes_through_the_c_reader() -> None:
    rng = np.random.default_rng(0)
    actual = rng.integers(0, 5, 200_000)
    values = np.round(rng.normal(2, 1, 200_000), 3)
    body = "\n".join(f"{a};{str(v).replace('.', ',')}" for a, v in zip(actual, values, strict=True))
    data = ("rating;score\n" + body + "\n").encode()
    assert len(data) > PANDAS_FROM_BYTES
    read = scores._parse_plain(data)
    assert read is not None
    assert (read.actual == actual).all() and (read.scores == values).all()


@PROPERTIES
@given(st.binary(max_size=200))
def test_any_bytes_give_two_columns_or_an_input_error(data: bytes) -> None:
    try:
        read = scores.parse_scored_csv(data)
    except InputError:
        return
    assert len(read.actual) == len(read.scores) > 0
    assert np.isfinite(read.scores).all()
