"""Property tests of the core (hypothesis): random rating vectors, negative ratings included, on
the range scale (optionally widened by declared bounds) and the observed scale.

The reference is ``sklearn.metrics.cohen_kappa_score`` given the walkthrough's own labels (weights
then sit at the same positions); it is imported here only, the package never imports sklearn.
Invariants: O and E sum to n, E's margins are the histograms, the histograms are O's margins, the
named weights are symmetric with a zero diagonal, kappa is symmetric in the raters, invariant to
scaling custom weights, 1 for identical non-constant vectors, within [-1, 1], and every array of the
result is read-only. The fast path equals the walkthrough, NaN exactly when kappa is undefined.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwk_explained import (
    WEIGHTINGS,
    Walkthrough,
    quadratic_weighted_kappa,
    walkthrough,
    walkthrough_from_table,
)
from qwk_explained.core import counting
from qwk_explained.core.steps import NO_CHANCE_DISAGREEMENT, SINGLE_CATEGORY

SKLEARN_WEIGHTS = {"quadratic": "quadratic", "linear": "linear", "unweighted": None}
TOLERANCE = 1e-9
ARRAY_FIELDS = ("labels", "observed", "actual_hist", "predicted_hist", "weights", "expected",
                "observed_norm", "expected_norm", "weighted_observed", "weighted_expected",
                "actual", "predicted")

PROPERTIES = settings(max_examples=250, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rating_pairs(draw, max_span: int = 12, max_items: int = 40):
    """Two rating vectors of the same length on a few neighbouring (possibly negative) ratings,
    the second often copying the first so that agreement is not only chance agreement."""
    start = draw(st.integers(-1000, 1000))
    span = draw(st.integers(1, max_span))
    n = draw(st.integers(1, max_items))
    ratings = st.integers(start, start + span - 1)
    actual = draw(st.lists(ratings, min_size=n, max_size=n))
    predicted = draw(st.lists(ratings, min_size=n, max_size=n))
    agree = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    predicted = [a if same else p for a, p, same in zip(actual, predicted, agree, strict=True)]
    return np.array(actual, dtype=np.int64), np.array(predicted, dtype=np.int64)


@st.composite
def scales(draw, actual, predicted):
    """Keyword arguments for the scale: range or observed, declared bounds widening it or not."""
    scale = draw(st.sampled_from(["range", "observed"]))
    kwargs = {"scale": scale}
    low = int(min(actual.min(), predicted.min()))
    high = int(max(actual.max(), predicted.max()))
    room = 50 - (high - low + 1)
    if draw(st.booleans()):
        kwargs["min_rating"] = low - draw(st.integers(0, min(room, 5)))
    if draw(st.booleans()):
        used = low - kwargs.get("min_rating", low)
        kwargs["max_rating"] = high + draw(st.integers(0, min(room - used, 5)))
    return kwargs


def sklearn_kappa(actual, predicted, labels, weights) -> float:
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # UndefinedMetricWarning on 0/0, then NaN
        return cohen_kappa_score(actual, predicted, labels=labels,
                                 weights=SKLEARN_WEIGHTS[weights])


# --- against scikit-learn -----------------------------------------------------------------------


@PROPERTIES
@given(data=st.data(), pair=rating_pairs())
def test_kappa_equals_sklearn_for_every_weighting_and_scale(data, pair):
    actual, predicted = pair
    kwargs = data.draw(scales(actual, predicted))
    for weights in WEIGHTINGS:
        result = walkthrough(actual, predicted, weights=weights, **kwargs)
        expected = sklearn_kappa(actual, predicted, result.labels, weights)
        if result.kappa is None:
            assert math.isnan(expected)
            assert result.undefined_reason in (SINGLE_CATEGORY, NO_CHANCE_DISAGREEMENT)
            assert result.denominator == 0
        else:
            assert result.undefined_reason is None
            assert result.kappa == pytest.approx(expected, abs=TOLERANCE)


@PROPERTIES
@given(data=st.data(), pair=rating_pairs(max_span=50, max_items=80))
def test_fast_path_equals_walkthrough(data, pair):
    actual, predicted = pair
    kwargs = data.draw(scales(actual, predicted))
    kwargs["scale"] = "range"
    bounds = {k: v for k, v in kwargs.items() if k != "scale"}
    result = walkthrough(actual, predicted, **kwargs)
    for a, b in ((actual, predicted), (actual.tolist(), predicted.tolist()),
                 (actual.astype(np.int32), predicted.astype(np.int32))):
        fast = quadratic_weighted_kappa(a, b, **bounds)
        if result.kappa is None:
            assert math.isnan(fast)
        else:
            assert fast == pytest.approx(result.kappa, abs=TOLERANCE)


@settings(max_examples=150, deadline=None)
@given(pair=rating_pairs(max_span=50, max_items=60), block=st.integers(1, 9),
       scale=st.sampled_from(["range", "observed"]))
def test_block_by_block_counting_equals_a_plain_count(pair, block, scale):
    """count_pairs reads long vectors block by block; tiny blocks exercise every branch."""
    actual, predicted = pair
    with mock.patch.object(counting, "_BLOCK", block):
        result = walkthrough(actual, predicted, scale=scale)
        fast = quadratic_weighted_kappa(actual, predicted)
    position = {int(label): i for i, label in enumerate(result.labels)}
    counts = Counter(zip(actual.tolist(), predicted.tolist(), strict=True))
    expected = np.zeros_like(result.observed)
    for (a, b), count in counts.items():
        expected[position[a], position[b]] = count
    np.testing.assert_array_equal(result.observed, expected)
    reference = walkthrough(actual, predicted, scale="range").kappa
    assert (math.isnan(fast) and reference is None) or fast == pytest.approx(reference)


# --- invariants ---------------------------------------------------------------------------------


@PROPERTIES
@given(data=st.data(), pair=rating_pairs(), weights=st.sampled_from(WEIGHTINGS))
def test_matrix_invariants(data, pair, weights):
    actual, predicted = pair
    kwargs = data.draw(scales(actual, predicted))
    result = walkthrough(actual, predicted, weights=weights, **kwargs)
    n = len(actual)
    assert result.n == n
    assert result.observed.sum() == n
    assert result.expected.sum() == pytest.approx(n)
    np.testing.assert_array_equal(result.actual_hist, result.observed.sum(axis=1))
    np.testing.assert_array_equal(result.predicted_hist, result.observed.sum(axis=0))
    np.testing.assert_allclose(result.expected.sum(axis=1), result.actual_hist, atol=1e-9)
    np.testing.assert_allclose(result.expected.sum(axis=0), result.predicted_hist, atol=1e-9)
    assert result.observed_norm.sum() == pytest.approx(1.0)
    assert result.expected_norm.sum() == pytest.approx(1.0)
    w = result.weights
    np.testing.assert_array_equal(w, w.T)
    assert (np.diag(w) == 0).all() and (w >= 0).all() and (w <= 1).all()
    assert np.array_equal(result.actual, actual) and np.array_equal(result.predicted, predicted)
    assert (np.diff(result.labels) > 0).all()
    if kwargs["scale"] == "range":
        assert np.array_equal(result.labels, np.arange(result.labels[0], result.labels[-1] + 1))
    else:
        assert set(result.labels.tolist()) == set(actual.tolist()) | set(predicted.tolist())
    if result.kappa is not None:
        assert -1 - 1e-12 <= result.kappa <= 1 + 1e-12
        assert result.kappa == pytest.approx(1 - result.numerator / result.denominator)


@PROPERTIES
@given(data=st.data(), pair=rating_pairs(), weights=st.sampled_from(WEIGHTINGS))
def test_swapping_the_raters_keeps_kappa(data, pair, weights):
    actual, predicted = pair
    kwargs = data.draw(scales(actual, predicted))
    forward = walkthrough(actual, predicted, weights=weights, **kwargs)
    backward = walkthrough(predicted, actual, weights=weights, **kwargs)
    np.testing.assert_array_equal(forward.observed, backward.observed.T)
    if forward.kappa is None:
        assert backward.kappa is None
    else:
        assert backward.kappa == pytest.approx(forward.kappa, abs=1e-12)


@PROPERTIES
@given(data=st.data(), pair=rating_pairs(max_span=6),
       factor=st.floats(1e-3, 1e3, allow_nan=False))
def test_scaling_custom_weights_keeps_kappa(data, pair, factor):
    actual, predicted = pair
    size = walkthrough(actual, predicted).size
    # Zero or at least 1e-6: scaled by 1e-3..1e3 every weight stays a normal float. A subnormal
    # weight such as 5e-324 times 0.5 underflows to 0: the scaled matrix is then not a multiple
    # of the first one (all zeros: kappa undefined), and the property does not apply.
    cells = st.one_of(st.just(0.0), st.floats(1e-6, 10))
    matrix = np.array(data.draw(st.lists(st.lists(cells, min_size=size, max_size=size),
                                         min_size=size, max_size=size)), dtype=np.float64)
    matrix = matrix.reshape(size, size)
    plain = walkthrough(actual, predicted, weights=matrix)
    scaled = walkthrough(actual, predicted, weights=matrix * factor)
    assert plain.weights_name == "custom"
    if plain.kappa is None:
        assert scaled.kappa is None
    else:
        assert scaled.kappa == pytest.approx(plain.kappa, rel=1e-9, abs=1e-9)


@PROPERTIES
@given(pair=rating_pairs(), weights=st.sampled_from(WEIGHTINGS),
       scale=st.sampled_from(["range", "observed"]))
def test_identical_vectors(pair, weights, scale):
    actual, _ = pair
    result = walkthrough(actual, actual.copy(), weights=weights, scale=scale)
    if len(set(actual.tolist())) > 1:
        assert result.kappa == pytest.approx(1.0, abs=1e-12)
        assert quadratic_weighted_kappa(actual, actual) == pytest.approx(1.0, abs=1e-12)
    else:  # one rating: nothing to disagree about
        assert result.kappa is None
        assert result.undefined_reason == SINGLE_CATEGORY
        assert math.isnan(quadratic_weighted_kappa(actual, actual))


@PROPERTIES
@given(pair=rating_pairs(), weights=st.sampled_from(WEIGHTINGS))
def test_result_arrays_are_read_only(pair, weights):
    actual, predicted = pair
    for result in (walkthrough(actual, predicted, weights=weights),
                   walkthrough_from_table(walkthrough(actual, predicted).observed,
                                          weights=weights)):
        for name in ARRAY_FIELDS:
            array = getattr(result, name)
            if array is None:
                continue
            assert not array.flags.writeable, name
            with pytest.raises(ValueError):
                array[...] = 0
    assert actual.flags.writeable and predicted.flags.writeable  # the caller's arrays are not


@PROPERTIES
@given(pair=rating_pairs(max_span=50, max_items=60))
def test_kappa_stays_within_minus_one_and_one_on_extreme_data(pair):
    actual, predicted = pair
    mirrored = actual.max() + actual.min() - actual  # reverse the scale
    for weights in WEIGHTINGS:
        for other in (predicted, mirrored):
            kappa = walkthrough(actual, other, weights=weights).kappa
            assert kappa is None or -1 - 1e-12 <= kappa <= 1 + 1e-12


# --- fixed cases --------------------------------------------------------------------------------


def test_walkthrough_leaves_the_callers_arrays_writeable():
    """Regression: walkthrough used to setflags(write=False) on the caller's own int64 array."""
    actual, predicted = np.array([1, 2, 3]), np.array([1, 2, 2])
    result = walkthrough(actual, predicted)
    actual[0] = 3
    assert not result.actual.flags.writeable
    assert isinstance(result, Walkthrough)


def test_read_only_inputs_are_fine():
    """The app passes read-only arrays (it caches parsed vectors)."""
    actual, predicted = np.array([1, 2, 3]), np.array([1, 2, 2])
    actual.setflags(write=False)
    predicted.setflags(write=False)
    assert walkthrough(actual, predicted).kappa == pytest.approx(
        quadratic_weighted_kappa(actual, predicted))


def test_fast_path_accepts_non_contiguous_and_small_integer_arrays():
    rng = np.random.default_rng(5)
    big = rng.integers(-3, 4, size=(200_003, 2))
    actual, predicted = big[:, 0], big[:, 1]  # strided views
    expected = walkthrough(np.ascontiguousarray(actual), np.ascontiguousarray(predicted)).kappa
    assert quadratic_weighted_kappa(actual, predicted) == pytest.approx(expected)
    assert walkthrough(actual, predicted).kappa == pytest.approx(expected)
    small = quadratic_weighted_kappa(actual.astype(np.int8), predicted.astype(np.int16))
    assert small == pytest.approx(expected)


def test_long_vectors_with_a_negative_rating_after_the_first_block():
    """count_pairs guesses a window from the first block; a later negative rating must not break
    it (the window for non-negative ratings starts at 0)."""
    n = 3 * counting._BLOCK
    actual = np.full(n, 2, dtype=np.int64)
    predicted = np.full(n, 3, dtype=np.int64)
    actual[-1], predicted[-2] = -5, 40
    result = walkthrough(actual, predicted)
    assert result.labels.tolist() == list(range(-5, 41))
    assert result.observed.sum() == n
    assert quadratic_weighted_kappa(actual, predicted) == pytest.approx(result.kappa)


@pytest.mark.parametrize("scale", ["range", "observed"])
def test_long_vectors_match_sklearn(scale):
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(11)
    actual = rng.integers(1, 7, 300_000)
    predicted = np.clip(actual + rng.integers(-2, 3, actual.size), 1, 8)
    predicted[::7] = rng.integers(1, 9, predicted[::7].size)
    result = walkthrough(actual, predicted, scale=scale)
    expected = cohen_kappa_score(actual, predicted, labels=result.labels, weights="quadratic")
    assert result.kappa == pytest.approx(expected, abs=1e-9)
    assert quadratic_weighted_kappa(actual, predicted) == pytest.approx(
        walkthrough(actual, predicted).kappa, abs=1e-12)


def test_wide_observed_scale_with_few_ratings():
    """Observed scale: 3 ratings far apart (a span beyond 50) take the slower path, same result."""
    actual = np.array([0, 1000, -7, 0, 1000])
    predicted = np.array([0, -7, -7, 1000, 1000])
    result = walkthrough(actual, predicted, scale="observed", weights="linear")
    assert result.labels.tolist() == [-7, 0, 1000]
    assert result.kappa == pytest.approx(sklearn_kappa(actual, predicted, result.labels, "linear"))


@PROPERTIES
@given(data=st.data(), pair=rating_pairs(max_span=6))
def test_custom_weights_give_the_definition(data, pair):
    """Any matrix the app's editor accepts (non-negative, asymmetric, a non-zero diagonal):
    kappa = 1 - sum(w O) / sum(w E), with O counted and E = outer(histograms) / n computed here
    directly, or undefined exactly when sum(w E) is 0."""
    actual, predicted = np.asarray(pair[0]), np.asarray(pair[1])
    low = min(actual.min(), predicted.min())
    size = int(max(actual.max(), predicted.max()) - low + 1)
    cells = st.one_of(st.just(0.0), st.floats(1e-6, 10))
    matrix = np.array(data.draw(st.lists(st.lists(cells, min_size=size, max_size=size),
                                         min_size=size, max_size=size)),
                      dtype=np.float64).reshape(size, size)
    observed = np.zeros((size, size))
    np.add.at(observed, (actual - low, predicted - low), 1)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / len(actual)
    num, den = (matrix * observed).sum(), (matrix * expected).sum()
    result = walkthrough(actual, predicted, weights=matrix)
    if den == 0:
        assert result.kappa is None and result.undefined_reason is not None
    else:
        assert result.kappa == pytest.approx(1 - num / den, rel=1e-9, abs=1e-9)
