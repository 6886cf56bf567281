"""Parsing and validation: ``parse_vector``, ``parse_csv``, ``parse_table`` and the checks behind
``walkthrough``. Good input in every accepted shape; bad input for every ``InputError`` code the
package raises (``grep 'InputError("' qwk_explained``), with its key params; and arbitrary text and
bytes, which must give valid int64 arrays or an ``InputError``, never another exception.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qwk_explained
from qwk_explained import (
    InputError,
    parse_csv,
    parse_table,
    parse_vector,
    quadratic_weighted_kappa,
    walkthrough,
    walkthrough_from_table,
)
from qwk_explained.core import csvfile, limits
from qwk_explained.core.parse import tokens_to_ints
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.tables import as_table
from qwk_explained.core.validate import as_ratings, check_pair
from qwk_explained.present import i18n

PACKAGE = Path(qwk_explained.__file__).resolve().parent


def raises(code: str, function, *args, **kwargs) -> dict:
    """Call ``function`` expecting ``InputError(code)``; return its params."""
    with pytest.raises(InputError) as caught:
        function(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value.params


# --- good input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("4, 4, 3, 1", [4, 4, 3, 1]),
    ("4 4 3 1", [4, 4, 3, 1]),
    ("4;4;3;1", [4, 4, 3, 1]),
    ("4\n4\r\n3\n\n1\n", [4, 4, 3, 1]),
    ("4\t4\t3\t1", [4, 4, 3, 1]),
    ("4, 4;3\n1", [4, 4, 3, 1]),
    ("[4, 4, 3, 1]", [4, 4, 3, 1]),
    ("(4 4) {3} [1]", [4, 4, 3, 1]),
    ("  ,4,,4 ;; 3 , 1,  ", [4, 4, 3, 1]),
    ("３，４，１", [3, 4, 1]),  # full-width digits and comma (Chinese input)
    ("１２　３", [12, 3]),  # full-width digits, ideographic space
    ("3、4、5", [3, 4, 5]),  # ideographic comma
    ("［１，２］", [1, 2]),  # full-width brackets
    ("3.0, 4.00, 5.", [3, 4, 5]),  # spreadsheets export whole numbers that way
    ("+3 -2 -0 007", [3, -2, 0, 7]),
    ("1000000000 -1000000000", [1_000_000_000, -1_000_000_000]),  # the limit itself is fine
    ("7", [7]),
])
def test_parse_vector_good(text, expected):
    values = parse_vector(text)
    assert values.dtype == np.int64 and values.ndim == 1
    assert values.tolist() == expected


def test_parse_vector_a_million_ratings():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 6, 1_000_000)
    assert np.array_equal(parse_vector(", ".join(map(str, values.tolist()))), values)


@pytest.mark.parametrize(("data", "columns", "header"), [
    ("1,2\n3,4\n", [[1, 3], [2, 4]], None),
    ("actual,predicted\n1,2\n3,4", [[1, 3], [2, 4]], ("actual", "predicted")),
    ("actual;predicted\r\n1;2\r\n3;4\r\n", [[1, 3], [2, 4]], ("actual", "predicted")),
    ("a\tb\n1\t2\n3\t4\n", [[1, 3], [2, 4]], ("a", "b")),
    (b"\xef\xbb\xbfreal,pred\n1,2\n3,4\n", [[1, 3], [2, 4]], ("real", "pred")),  # UTF-8 BOM
    ("real,predicción\n1,2\n".encode(), [[1], [2]], ("real", "predicción")),
    ("calificación\n4\n3\n".encode("cp1252"), [[4, 3]], ("calificación",)),  # Excel, Windows
    ('"actual","predicted"\n"1","2"\n', [[1], [2]], ("actual", "predicted")),
    ("1 2\n3 4\n", [[1, 3], [2, 4]], None),  # space separated
    ("1,2\n\n3,4\n\n", [[1, 3], [2, 4]], None),  # blank lines
    ("3.0,4.0\n1,2\n", [[3, 1], [4, 2]], None),
    ("5\n4\n3\n", [[5, 4, 3]], None),  # one column: one rater
    ("score\n5\n4\n", [[5, 4]], ("score",)),
    ("１，２\n３，４", [[1, 3], [2, 4]], None),  # full-width
    ("-1,2\n3,-4", [[-1, 3], [2, -4]], None),
])
def test_parse_csv_good(data, columns, header):
    parsed = parse_csv(data)
    assert [column.tolist() for column in parsed.columns] == columns
    assert all(column.dtype == np.int64 for column in parsed.columns)
    assert parsed.header == header


@pytest.mark.parametrize(("text", "expected"), [
    ("0,4,1;0,8,0;0,1,5", [[0, 4, 1], [0, 8, 0], [0, 1, 5]]),
    ("0 4 1\n0 8 0\n0 1 5\n", [[0, 4, 1], [0, 8, 0], [0, 1, 5]]),
    ("0\t4\n1\t2", [[0, 4], [1, 2]]),
    ("[[1, 2], [3, 4]]", [[1, 2], [3, 4]]),  # a Python / JSON nested list
    ("[[1 2]\n [3 4]]", [[1, 2], [3, 4]]),  # how numpy prints a matrix
    ("[1, 2];\n[3, 4];", [[1, 2], [3, 4]]),
    ("１，２；３，４", [[1, 2], [3, 4]]),  # full-width
    ("1.0, 2; 3, 4.00", [[1, 2], [3, 4]]),
    ("7", [[7]]),
])
def test_parse_table_good(text, expected):
    table = parse_table(text)
    assert table.dtype == np.int64
    assert table.tolist() == expected


def test_as_ratings_accepts_numpy_and_python_inputs():
    assert as_ratings([1, 2, 3]).tolist() == [1, 2, 3]
    assert as_ratings(np.array([1.0, 2.0])).tolist() == [1, 2]
    assert as_ratings(np.array([1, 2], dtype=np.uint8)).dtype == np.int64
    assert as_ratings(["1", " 2 ", "3.0"]).tolist() == [1, 2, 3]
    assert as_ratings("4 4 3").tolist() == [4, 4, 3]
    assert as_ratings(np.array([1, "2"], dtype=object)).tolist() == [1, 2]


# --- every error code ---------------------------------------------------------------------------


def _raised_codes() -> set[str]:
    codes = set()
    for path in PACKAGE.rglob("*.py"):
        codes |= set(re.findall(r'InputError\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return codes


CORE_CODES = {
    "above_scale", "bad_confidence", "below_scale", "bounds_reversed", "csv_bad_cell",
    "csv_header_only", "csv_not_text", "csv_ragged", "csv_too_many_columns", "empty",
    "length_mismatch", "masked_values", "not_a_vector", "not_finite", "not_integer",
    "not_integer_decimal", "table_bad_count", "table_bad_labels", "table_empty",
    "table_not_a_table", "table_not_square", "too_many_items", "too_many_ratings",
    "unknown_language", "unknown_scale", "unknown_weights", "value_too_large",
    "weights_bad_matrix",
    # Scores and cut points: tested in test_scores.py and test_thresholds.py.
    "bad_cuts", "bad_folds", "bad_starts", "cv_fold_one_rating", "score_not_finite",
    "score_not_number", "score_too_large", "scores_csv_bad_cell", "scores_csv_columns",
    "scores_csv_ragged", "scores_empty", "scores_length_mismatch", "thresholds_few_scores",
    "thresholds_one_rating",
    # Resampling and the comparison of two models (tested in test_resampling.py,
    # test_paired.py and tests/cli/test_cli_uncertainty.py).
    "bad_kappa_null", "bad_resamples", "bad_seed", "columns_length_mismatch", "csv_ragged_three",
}


def test_every_core_error_code_is_tested_here():
    """The codes the engine (and the translation layer) raise are all listed (and tested) here."""
    sources = [*sorted((PACKAGE / "core").glob("*.py")), PACKAGE / "present" / "i18n.py"]
    codes = set()
    for path in sources:
        codes |= set(re.findall(r'InputError\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert codes == CORE_CODES
    assert CORE_CODES <= _raised_codes()


def test_every_error_code_has_an_english_message():
    english = i18n.load("en")
    for code in CORE_CODES:
        assert f"errors.{code}" in english, code


@pytest.mark.parametrize(("text", "position", "token"), [
    ("1, a, 3", 2, "a"), ("1 x", 2, "x"), ("1e3", 1, "1e3"), ("2 0x10", 2, "0x10"),
    ("3.0.0", 1, "3.0.0"), ("--5", 1, "--5"), ("5-", 1, "5-"), ("four", 1, "four"),
    ("1 2 " + "x" * 30, 3, "x" * 19 + "…"),  # long tokens are shortened for the message
])
def test_not_integer(text, position, token):
    assert raises("not_integer", parse_vector, text) == {"token": token, "position": position}


@pytest.mark.parametrize(("text", "position", "token"), [
    ("1, 3.5", 2, "3.5"), ("0.5", 1, "0.5"), ("2 .5", 2, ".5"), ("1 -2.25", 2, "-2.25"),
    ("7 8 9.0001", 3, "9.0001"), ("1.5e2", 1, "1.5e2"),
])
def test_not_integer_decimal(text, position, token):
    assert raises("not_integer_decimal", parse_vector, text) == {"token": token,
                                                                  "position": position}


def test_a_comma_is_always_a_separator():
    """"2,5" is two ratings, not a Spanish decimal: commas separate ratings in every language."""
    assert parse_vector("1; 2,5; 3").tolist() == [1, 2, 5, 3]


@pytest.mark.parametrize("token", ["nan", "NaN", "inf", "-inf", "+inf", "Infinity", "-infinity"])
def test_not_finite(token):
    assert raises("not_finite", parse_vector, f"1 2 {token}") == {"token": token, "position": 3}


def test_not_finite_in_numeric_arrays():
    assert raises("not_finite", as_ratings, np.array([1.0, np.nan]))["position"] == 2
    assert raises("not_finite", walkthrough, [1.0, np.inf], [1, 2])["position"] == 2


@pytest.mark.parametrize(("text", "token"), [
    ("1 1000000001", "1000000001"),
    ("1 -1000000001", "-1000000001"),
    ("1 99999999999999999999999999", "9999999999999999999…"),
    # Longer than Python's 4,300-digit limit for int(): still a number that is too large
    # (regression: found by the robustness test, it crashed the page).
    ("1 " + "9" * 5000, "9999999999999999999…"),
])
def test_value_too_large(text, token):
    assert raises("value_too_large", parse_vector, text) == {
        "token": token, "position": 2, "limit": 1_000_000_000}


def test_value_too_large_in_arrays_and_bounds():
    assert raises("value_too_large", as_ratings, np.array([1, 10**12]))["position"] == 2
    assert raises("value_too_large", as_ratings, [1e300])["token"] == "1e+300"
    big = np.array([3, 2**64 - 1], dtype=np.uint64)  # must not wrap to -1 in the int64 cast
    assert raises("value_too_large", as_ratings, big)["token"] == str(2**64 - 1)
    assert raises("value_too_large", walkthrough, [1, 2], [1, 2], max_rating=10**10)["token"] == (
        "10000000000")
    for huge in (np.array([2**62, 2**62 + 1]), np.array([10**10, 10**10 + 1])):
        assert raises("value_too_large", quadratic_weighted_kappa, huge, huge)["position"] == 1
        assert raises("value_too_large", walkthrough, huge, huge)["position"] == 1


@pytest.mark.parametrize("text", ["", "   ", " , ; \n\t", "[]", "()", "，；"])
def test_empty_vector(text):
    assert raises("empty", parse_vector, text) == {}


def test_empty_elsewhere():
    raises("empty", parse_vector, None)
    raises("empty", parse_vector, b"1 2")  # bytes are for parse_csv
    raises("empty", parse_csv, b"")
    raises("empty", parse_csv, "\n\n  \n")
    raises("csv_header_only", parse_csv, "actual,predicted\n")  # a header alone
    raises("empty", parse_table, "")
    raises("empty", parse_table, " ;\n; [] ")
    raises("empty", check_pair, np.array([], dtype=np.int64), np.array([1]))
    raises("empty", walkthrough, [], [])
    raises("empty", quadratic_weighted_kappa, "", "")


def test_length_mismatch():
    assert raises("length_mismatch", walkthrough, [1, 2, 3], [1, 2]) == {
        "n_actual": 3, "n_predicted": 2}
    assert raises("length_mismatch", quadratic_weighted_kappa, "1 2", "1 2 3") == {
        "n_actual": 2, "n_predicted": 3}


@pytest.mark.parametrize("value", [[[1, 2], [3, 4]], 5, None, np.zeros((2, 2)), {1: 2}])
def test_not_a_vector(value):
    assert raises("not_a_vector", as_ratings, value) == {}


def test_too_many_ratings():
    assert raises("too_many_ratings", walkthrough, [0, 50], [0, 0]) == {"count": 51, "limit": 50}
    assert raises("too_many_ratings", quadratic_weighted_kappa, [0, 50], [0, 0])["count"] == 51
    assert raises("too_many_ratings", walkthrough, [0, 1], [0, 1], min_rating=0,
                  max_rating=50)["count"] == 51
    spread = list(range(0, 5100, 100))  # 51 observed ratings
    assert raises("too_many_ratings", walkthrough, spread, spread, scale="observed")["count"] == 51
    raises("too_many_ratings", parse_table, ";".join(["1"] * 51))
    raises("too_many_ratings", as_table, np.ones((51, 51)))
    # 50 are fine, on both scales.
    assert walkthrough([0, 49], [0, 49]).size == 50
    assert walkthrough(spread[:50], spread[:50], scale="observed").size == 50


def test_too_many_items(monkeypatch):
    """The 10 million limit, lowered to 5 so that the test stays cheap."""
    monkeypatch.setattr(limits, "MAX_ITEMS", 5)
    limit = {"limit": 5}
    assert raises("too_many_items", parse_vector, "1 2 3 4 5 6") == {"count": 6, **limit}
    assert raises("too_many_items", tokens_to_ints, ["1"] * 6) == {"count": 6, **limit}
    assert raises("too_many_items", as_ratings, np.arange(6)) == {"count": 6, **limit}
    assert raises("too_many_items", check_pair, np.arange(6), np.arange(6)) == {"count": 6,
                                                                                 **limit}
    assert raises("too_many_items", walkthrough_from_table, [[3, 0], [0, 3]]) == {"count": 6,
                                                                                   **limit}
    assert raises("too_many_items", quadratic_weighted_kappa, np.arange(6), np.arange(6))["count"]
    assert walkthrough([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]).n == 5


def test_too_many_items_from_a_huge_text(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ITEMS", 2)
    assert raises("too_many_items", parse_vector, " " * 25)["limit"] == 2


@pytest.mark.parametrize(("data", "line", "token"), [
    ("1,2\n3,x\n", 2, "x"),
    ("actual,predicted\n1,2\n3,4.5\n", 3, "4.5"),
    ("a;b\n1;2\nnan;3\n", 3, "nan"),
    ("5\n4\nfour\n", 3, "four"),
    ("score\n5\n4.5\n", 3, "4.5"),
    ("1,2\n1,99999999999\n", 2, "99999999999"),
    ("1,2\n1_0,3\n", 2, "1_0"),
])
def test_csv_bad_cell(data, line, token):
    assert raises("csv_bad_cell", parse_csv, data) == {"line": line, "token": token}


def test_csv_header_mixing_words_and_numbers_is_a_bad_data_row():
    assert raises("csv_bad_cell", parse_csv, "1,predicted\n1,2\n") == {"line": 1,
                                                                       "token": "predicted"}


@pytest.mark.parametrize(("data", "line", "count"), [
    ("1,2\n3\n", 2, 1),
    ("a,b\n1,2\n3,4,5\n", 3, 3),
    ("1;2\n3;4\n5\n", 3, 1),
])
def test_csv_ragged(data, line, count):
    assert raises("csv_ragged", parse_csv, data) == {"line": line, "count": count}


def test_csv_too_many_columns():
    assert raises("csv_too_many_columns", parse_csv, "1,2,3\n4,5,6\n") == {"count": 3}
    assert raises("csv_too_many_columns", parse_csv, "a\tb\tc\n1\t2\t3\n") == {"count": 3}


@pytest.mark.parametrize("data", [b"\x00\x01\x02binary", b"PK\x03\x04\x00\x00zip",
                                  bytes(range(256))])
def test_csv_not_text(data):
    assert raises("csv_not_text", parse_csv, data) == {}


@pytest.mark.parametrize(("text", "rows", "columns"), [
    ("1,2,3;4,5,6", 2, 3),
    ("1,2;3", 2, 1),  # ragged: the row that breaks the square
    ("1;2,3", 2, 1),
    ("1,2", 1, 2),
])
def test_table_not_square(text, rows, columns):
    assert raises("table_not_square", parse_table, text) == {"rows": rows, "columns": columns}


def test_table_not_square_from_python_objects():
    assert raises("table_not_square", as_table, [[1, 2], [3]]) == {"rows": 2, "columns": 1}
    assert raises("table_not_square", as_table, [1, 2]) == {"rows": 1, "columns": 2}
    assert raises("table_not_square", as_table, np.ones((2, 3))) == {"rows": 2, "columns": 3}
    assert raises("table_not_square", as_table, np.ones((2, 2, 2))) == {"rows": 2, "columns": 4}
    raises("table_not_a_table", as_table, 5)
    raises("table_not_square", walkthrough_from_table, [[]])


@pytest.mark.parametrize(("text", "row", "column", "token"), [
    ("1,-2;3,4", 1, 2, "-2"),
    ("1,2;3,4.5", 2, 2, "4.5"),
    ("1,a;3,4", 1, 2, "a"),
    ("1,2;nan,4", 2, 1, "nan"),
    ("1,2;3,99999999999", 2, 2, "99999999999"),
    ("1,2;3," + "9" * 5000, 2, 2, "9999999999999999999…"),  # beyond int()'s 4,300 digits
    ("1,2;3,00000000000000000000005", None, None, None),  # leading zeros: a small count
])
def test_table_bad_count(text, row, column, token):
    if row is None:
        assert parse_table(text).tolist() == [[1, 2], [3, 5]]
        return
    assert raises("table_bad_count", parse_table, text) == {"row": row, "column": column,
                                                            "token": token}


@pytest.mark.parametrize(("table", "row", "column", "token"), [
    ([[1, -1], [0, 1]], 1, 2, "-1"),
    ([[1, 1.5], [0, 1]], 1, 2, "1.5"),
    ([[1, 0], [np.nan, 1]], 2, 1, "nan"),
    ([[1e300, 0], [0, 1]], 1, 1, "1e+300"),  # used to wrap to a negative int64
    (np.array([[1, 0], [0, 2**64 - 1]], dtype=np.uint64), 2, 2, str(2**64 - 1)),
    ([[1, 2], [3, "x"]], 2, 2, "x"),  # the cell at fault, not the first one
    ([[None, 1], [1, 1]], 1, 1, "None"),
    ([[True, False], [False, True]], 1, 1, "True"),
])
def test_table_bad_count_from_python_objects(table, row, column, token):
    assert raises("table_bad_count", as_table, table) == {"row": row, "column": column,
                                                          "token": token}


def test_table_empty():
    assert raises("table_empty", parse_table, "0,0;0,0") == {}
    assert raises("table_empty", walkthrough_from_table, np.zeros((3, 3))) == {}
    raises("table_empty", as_table, [])


@pytest.mark.parametrize("labels", [[2, 1], [1, 1], [1, 2, 3], ["a", "b"], [1.5, 2.5],
                                    [[1, 2]], "x y"])
def test_table_bad_labels(labels):
    assert raises("table_bad_labels", walkthrough_from_table, [[1, 0], [0, 1]],
                  labels=labels) == {"size": 2}


def test_table_labels_good():
    assert walkthrough_from_table([[1, 0], [0, 1]], labels=[-1, 7]).labels.tolist() == [-1, 7]
    assert walkthrough_from_table([[1, 0], [0, 1]], labels="3 5").labels.tolist() == [3, 5]
    assert walkthrough_from_table([[1, 0], [0, 1]], labels=[3.0, 5.0]).labels.tolist() == [3, 5]


@pytest.mark.parametrize("weights", ["cubic", "Quadratic", ""])
def test_unknown_weights(weights):
    assert raises("unknown_weights", walkthrough, [1, 2], [1, 2], weights=weights) == {
        "value": weights, "choices": "quadratic, linear, unweighted"}


@pytest.mark.parametrize("matrix", [
    [[0, 1]], [[0, 1], [1]], [[0, -1], [1, 0]], [[0, np.nan], [1, 0]], [[0, np.inf], [1, 0]],
    [["a", "b"], ["c", "d"]], None, 3,
])
def test_weights_bad_matrix(matrix):
    assert raises("weights_bad_matrix", walkthrough, [1, 2], [1, 2], weights=matrix) == {"size": 2}


@pytest.mark.parametrize("scale", ["ranged", "", None, "Observed"])
def test_unknown_scale(scale):
    assert raises("unknown_scale", walkthrough, [1, 2], [1, 2], scale=scale) == {
        "value": str(scale), "choices": "range, observed"}


@pytest.mark.parametrize("lang", ["fr", "", "EN", None])
def test_unknown_language(lang):
    assert raises("unknown_language", i18n.load, lang)["value"] == str(lang)


def test_bounds_reversed():
    assert raises("bounds_reversed", walkthrough, [1, 2], [1, 2], min_rating=5,
                  max_rating=1) == {"min_rating": 5, "max_rating": 1}
    raises("bounds_reversed", quadratic_weighted_kappa, [1, 2], [1, 2], min_rating=5, max_rating=1)


def test_value_outside_declared_bounds():
    assert raises("below_scale", walkthrough, [0, 2], [1, 2], min_rating=1) == {
        "value": 0, "min_rating": 1}
    assert raises("above_scale", walkthrough, [1, 2], [1, 7], max_rating=5) == {
        "value": 7, "max_rating": 5}
    assert raises("below_scale", quadratic_weighted_kappa, [0, 2], [1, 2], min_rating=1)
    assert raises("above_scale", quadratic_weighted_kappa, [1, 2], [1, 7], max_rating=5)
    assert raises("above_scale", walkthrough, [1, 2], [1, 7], max_rating=5, scale="observed")


@pytest.mark.parametrize(("bound", "code"), [
    ("a", "not_integer"), (0.5, "not_integer_decimal"), (float("nan"), "not_finite"),
    ([1, 2], "not_a_vector"),
])
def test_bad_bounds_are_input_errors(bound, code):
    """Bounds go through the rating grammar: a non-integer bound used to crash with TypeError or
    ValueError, or (0.5) be silently truncated."""
    raises(code, walkthrough, [1, 2], [1, 2], min_rating=bound)
    raises(code, quadratic_weighted_kappa, [1, 2], [1, 2], max_rating=bound)


def test_whole_bounds_in_other_types_are_accepted():
    assert walkthrough([1, 2], [1, 2], min_rating="0", max_rating=3.0).labels.tolist() == [
        0, 1, 2, 3]
    assert walkthrough([1, 2], [1, 2], min_rating=np.int8(0)).labels.tolist() == [0, 1, 2]
    assert rating_scale(np.array([1]), np.array([2]), max_rating=np.float32(4)).tolist() == [
        1, 2, 3, 4]


def test_bad_confidence_code_is_raised_by_statistics():
    assert raises("bad_confidence", walkthrough([1, 2], [1, 2]).statistics, 2) == {"value": "2"}


# --- regressions: numpy's str -> int cast accepted tokens the grammar does not -------------------


@pytest.mark.parametrize(("text", "token"), [("1_0 2", "1_0"), ("٣ 4", "٣"), ("2 ١٢", "١٢")])
def test_only_ascii_digits(text, token):
    """numpy's cast follows Python's int() and took "1_0" as 10 and "٣" (Arabic-Indic) as 3,
    while the same tokens were errors as soon as another token failed: now they always are."""
    assert raises("not_integer", parse_vector, text)["token"] == token


# --- arbitrary input: an int64 array or an InputError, nothing else ------------------------------

CSV_ALPHABET = st.sampled_from(
    list("0123456789 ,;\t\n\r.-+eE[](){}'\"abxnNiIfF\x00") + list("０１２３，；、\ufeff"))
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


def _check_vector(values) -> None:
    assert isinstance(values, np.ndarray) and values.dtype == np.int64 and values.ndim == 1
    assert values.size >= 1
    assert np.abs(values).max() <= limits.MAX_ABS_RATING


def _outcome(function, data):
    try:
        return function(data)
    except InputError as error:
        assert error.code in CORE_CODES
        return None


@FUZZ
@given(st.one_of(st.text(), st.text(CSV_ALPHABET, max_size=60)))
def test_parse_vector_fuzz(text):
    values = _outcome(parse_vector, text)
    if values is not None:
        _check_vector(values)


@FUZZ
@given(st.one_of(st.text(), st.text(CSV_ALPHABET, max_size=80), st.binary(),
                 st.text(CSV_ALPHABET, max_size=80).map(lambda s: s.encode("utf-8"))))
def test_parse_csv_fuzz(data):
    parsed = _outcome(parse_csv, data)
    if parsed is not None:
        assert len(parsed.columns) in (1, 2)
        for column in parsed.columns:
            _check_vector(column)
        assert len({len(column) for column in parsed.columns}) == 1


@FUZZ
@given(st.one_of(st.text(), st.text(CSV_ALPHABET, max_size=60), st.binary()))
def test_parse_table_fuzz(text):
    table = _outcome(parse_table, text)
    if table is not None:
        assert table.dtype == np.int64 and table.ndim == 2
        assert table.shape[0] == table.shape[1] >= 1
        assert (table >= 0).all() and table.sum() > 0


@pytest.mark.parametrize("text", ["\x0c", "\u2028", " \x0b ,; \u3000", "\u2029\n"])
def test_whitespace_of_any_kind_alone_is_empty(text):
    """Invariant: text with no rating in it is reported as empty, whatever whitespace it holds."""
    with pytest.raises(InputError) as raised:
        parse_vector(text)
    assert raised.value.code == "empty"


def test_unicode_whitespace_separates_ratings():
    """Line and paragraph separators pasted from documents separate ratings like newlines."""
    assert parse_vector("\u20281\u20292\x0c3\u2028").tolist() == [1, 2, 3]


# --- the plain CSV readers (pandas, np.loadtxt) agree with the careful one ------------------------

PLAIN_HEADERS = st.sampled_from(["", "actual,predicted\n", "实际;预测\r\n", "a\tb\n", "score\n",
                                 '"real","predicha"\n', "\ufeffgerçek,tahmin\n", "x,1\n"])
PLAIN_NOISE = st.sampled_from(list("0123456789 ,;\t\n\r-+.x") + ["\r\n", "99999999999", ""])


@st.composite
def csv_files(draw) -> str:
    """Mostly well-formed CSV files (so the plain reader answers often), some with one defect."""
    width = draw(st.integers(1, 2))
    delimiter = draw(st.sampled_from([",", ";", "\t", " ", ", "]))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    cells = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(["+3", "007", " 4", "-0"]))
    rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), min_size=1,
                         max_size=8))
    text = draw(PLAIN_HEADERS) + newline.join(delimiter.join(row) for row in rows)
    text += draw(st.sampled_from(["", newline, newline * 2]))
    if draw(st.booleans()):  # one defect somewhere: a stray character, a missing one
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(PLAIN_NOISE) + text[at + draw(st.integers(0, 1)):]
    return text


def _columns(parsed):
    return None if parsed is None else (
        [column.tolist() for column in parsed.columns], parsed.header)


@pytest.mark.parametrize("reader", ["pandas", "numpy"])
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=csv_files(), as_bytes=st.booleans())
def test_plain_reader_agrees_with_the_careful_reader(reader, text, as_bytes):
    """Whenever the fast reader answers, it answers exactly what the careful reader does (same
    columns, same header); when it does not, the careful reader decides (result or message)."""
    data = text.encode("utf-8") if as_bytes else text
    plain = csvfile._parse_csv_plain(data, reader=reader)
    if plain is None:
        return
    careful = _outcome(csvfile._parse_csv_careful, data)
    assert careful is not None, f"plain reader accepted {data!r}, the careful one rejects it"
    assert _columns(plain) == _columns(careful)


@pytest.mark.parametrize("data", [
    b"actual,predicted\n1,2\n3,4\n",
    b"\xef\xbb\xbfactual;predicted\r\n1;2\r\n3;4\r\n",  # BOM, semicolons, CRLF
    "实际\t预测\n1\t2\n-3\t4\n".encode(),  # a header in Chinese, tabs, a negative rating
    b"1, 2\n 3 ,4\n\n5,6",  # spaces, a blank line, no final line break
    b"5\n4\n3\n",  # one column
    b"1 2\n3 4\n",  # space separated
])
def test_plain_files_take_the_fast_path(data):
    for reader in ("pandas", "numpy"):
        plain = csvfile._parse_csv_plain(data, reader=reader)
        assert plain is not None, (reader, data)
        assert _columns(plain) == _columns(csvfile._parse_csv_careful(data))


@pytest.mark.parametrize("data", [
    b"1,2\n3.5,4\n", b"1,2\n3\n", b'"1","2"\n', b"1,2\n1;2\n", b"1,2,3\n", b"1,2\n3,x\n",
    b"1,2\n99999999999,1\n", b"1,2\r3,4\r", b"(1),2\n",
])
def test_files_with_something_to_explain_take_the_careful_path(data):
    """Decimals, ragged rows, quotes, mixed delimiters, words, huge values, old Mac line breaks,
    brackets: the careful reader reads or explains them, line by line."""
    for reader in ("pandas", "numpy"):
        assert csvfile._parse_csv_plain(data, reader=reader) is None


def test_a_large_plain_upload_is_read_by_the_fast_path():
    rng = np.random.default_rng(5)
    actual, predicted = rng.integers(0, 5, 200_000), rng.integers(0, 5, 200_000)
    body = "\n".join(f"{a},{p}" for a, p in zip(actual.tolist(), predicted.tolist(), strict=True))
    plain = csvfile._parse_csv_plain(("actual,predicted\n" + body).encode())
    assert plain is not None
    assert plain.columns[0].tolist() == actual.tolist()
    assert plain.columns[1].tolist() == predicted.tolist()
    assert plain.header == ("actual", "predicted")
