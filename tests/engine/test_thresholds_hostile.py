"""Cut points for continuous scores at their trust boundaries, fed what an attacker sends.

Sources of truth: the README ("every input problem raises InputError") and the four locale files
(each error's sentence exists in every language: :func:`tests.hostile.assert_translated`). The
boundaries are those issue 22 opened: scores typed as text (``parse_scores``), a two-column file
(``parse_scored_csv``), the API (``optimize_thresholds``, ``apply_thresholds``,
``quantile_cuts``) called with any Python value, and the page's state, which reads whatever the
two text fields hold and must keep it.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from qwk_app import thresholds as page
from qwk_explained.core import limits
from qwk_explained.core.scores import parse_scored_csv, parse_scores
from qwk_explained.core.thresholds import apply_thresholds, optimize_thresholds, quantile_cuts
from tests.hostile import HOSTILE, HOSTILE_TEXT, PYTHON_VALUES, assert_translated

#: Numbers as a model writes them, and as an attacker does: exponents far beyond a double's,
#: NaN and infinities spelled every way, decimal commas.
SCORE_WORDS = st.sampled_from(["0.5", "-1.25", "2,75", "1e308", "1e309", "-1e999", "1e-999",
                               "4.9e-324", "nan", "NaN", "-inf", "Infinity", "1e" + "9" * 40,
                               "0x1p3", "1_0", ".5", "5.", "+3", "９.５", "1/2", ""])
SCORE_TEXT = st.one_of(
    HOSTILE_TEXT,
    st.builds(lambda parts, separator: separator.join(parts),
              st.lists(st.one_of(SCORE_WORDS, st.floats(-1e6, 1e6).map(repr)), max_size=12),
              st.sampled_from([", ", ";", "\n", " ", "\t", "; ", "、"])),
)


def _outcome(function, *args, **kwargs):
    """A result, or the project's own error in every language; no numpy warning either."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the property is about which errors escape
            assert_translated(error)
            return None


@HOSTILE
@given(text=SCORE_TEXT)
@example(text="1e" + "9" * 5000)
@example(text="0.5, 1e400, 2")
def test_hostile_text_into_the_score_reader(text: str) -> None:
    scores = _outcome(parse_scores, text)
    if scores is not None:
        assert scores.dtype == np.float64 and scores.size >= 1
        assert np.isfinite(scores).all()
        assert np.abs(scores).max() <= limits.MAX_ABS_SCORE


@HOSTILE
@given(rows=st.lists(st.lists(st.one_of(SCORE_WORDS, HOSTILE_TEXT, st.integers(-5, 5).map(str)),
                              max_size=3), max_size=8),
       delimiter=st.sampled_from([",", ";", "\t", " "]),
       newline=st.sampled_from(["\n", "\r\n", "\r"]),
       prefix=st.sampled_from(["", "\ufeff", "actual,score\n", '"a";"b"\n']),
       as_bytes=st.sampled_from([None, "utf-8", "cp1252", "utf-16"]))
def test_hostile_files_into_the_two_column_reader(rows, delimiter, newline, prefix,
                                                  as_bytes) -> None:
    text = prefix + newline.join(delimiter.join(row) for row in rows)
    data: str | bytes = text if as_bytes is None else text.encode(as_bytes, errors="replace")
    columns = _outcome(parse_scored_csv, data)
    if columns is not None:
        assert len(columns.actual) == len(columns.scores) >= 1
        assert columns.actual.dtype == np.int64 and np.isfinite(columns.scores).all()


SCORES = st.one_of(PYTHON_VALUES, SCORE_TEXT,
                   st.lists(st.floats(-10, 10, allow_nan=False), min_size=1, max_size=8))
RATINGS = st.one_of(PYTHON_VALUES, st.lists(st.integers(0, 4), min_size=1, max_size=8))


@HOSTILE
@given(actual=RATINGS, scores=SCORES, low=st.one_of(st.none(), PYTHON_VALUES),
       high=st.one_of(st.none(), PYTHON_VALUES),
       folds=st.one_of(st.sampled_from([0, 2, 5]), PYTHON_VALUES),
       seed=st.one_of(st.just(0), PYTHON_VALUES),
       weights=st.one_of(st.just("quadratic"), PYTHON_VALUES))
def test_hostile_arguments_to_the_optimizer(actual, scores, low, high, folds, seed,
                                            weights) -> None:
    result = _outcome(optimize_thresholds, actual, scores, min_rating=low, max_rating=high,
                      folds=folds, seed=seed, weights=weights)
    if result is not None:
        assert list(result.cuts) == sorted(result.cuts)
        assert all(math.isfinite(cut) for cut in result.cuts)


@HOSTILE
@given(scores=SCORES, cuts=st.one_of(PYTHON_VALUES, st.lists(st.floats(), max_size=5)),
       low=st.one_of(st.just(0), PYTHON_VALUES))
@example(scores=[0.5], cuts=np.array([1 + 2j]), low=0)  # complex cuts: a ComplexWarning before
@example(scores=[0.5], cuts=np.array([], dtype=complex), low=0)
def test_hostile_arguments_to_apply_thresholds(scores, cuts, low) -> None:
    ratings = _outcome(apply_thresholds, scores, cuts, min_rating=low)
    if ratings is not None:
        assert ratings.dtype == np.int64


@HOSTILE
@given(actual=RATINGS, scores=SCORES)
def test_hostile_arguments_to_quantile_cuts(actual, scores) -> None:
    cuts = _outcome(quantile_cuts, actual, scores)
    if cuts is not None:
        assert list(cuts) == sorted(cuts)


@HOSTILE
@given(actual=st.one_of(HOSTILE_TEXT, st.just("0 1 2 3 4")), scores=SCORE_TEXT)
def test_the_page_keeps_whatever_was_typed_and_says_what_is_wrong(actual: str,
                                                                  scores: str) -> None:
    """The two fields hold anything: the page's state reads them without raising, each problem
    is the project's own error, and neither text is changed."""
    session: dict = {}
    page.start(session)
    page.current(session)  # the first run shows the example
    for key, text in ((page.ACTUAL, actual), (page.SCORES, scores)):
        session[f"{key}_input"] = text
        page.typed(session, key)
    data, errors, stale = page.current(session)
    assert session[page.ACTUAL] == actual and session[page.SCORES] == scores
    assert data is not None  # the example read first stays on screen while the input is bad
    assert stale == bool(errors)
    for error in errors.values():
        assert_translated(error)
