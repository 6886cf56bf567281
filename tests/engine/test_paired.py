"""The paired comparison of two models on the same items (``compare``).

Sources of truth:

* each model's walkthrough on the shared scale, and counts of the items done by hand in numpy;
* the naive paired bootstrap: item indices resampled (same seed family), scikit-learn's
  ``cohen_kappa_score`` for both models on each resample; the distributions agree (two-sample
  Kolmogorov-Smirnov test);
* the permutation p-value against the full enumeration of the 2^m ways to swap the two
  predictions of the m items where they differ;
* invariants: the same model twice gives a difference of 0 and p = 1; swapping A and B negates
  the difference.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from qwk_explained import InputError, compare, walkthrough
from qwk_explained.core.limits import MAX_RESAMPLES

from .test_core_properties import SKLEARN_WEIGHTS

PROPERTIES = settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
RNG = np.random.default_rng(7)
ACTUAL = RNG.integers(0, 5, 80)
MODEL_A = np.clip(ACTUAL + RNG.choice([0, 0, -1, 1, -2, 2], 80), 0, 4)
MODEL_B = np.where(RNG.random(80) < 0.3, ACTUAL, MODEL_A)  # B fixes some of A's mistakes


@st.composite
def three_columns(draw, max_items: int = 30):
    """Actual ratings and two models that often copy the actual rating or each other."""
    n = draw(st.integers(1, max_items))
    low = draw(st.integers(-3, 3))
    ratings = st.integers(low, low + draw(st.integers(0, 5)))
    actual = draw(st.lists(ratings, min_size=n, max_size=n))
    a = [x if keep else y for x, y, keep in zip(
        actual, draw(st.lists(ratings, min_size=n, max_size=n)),
        draw(st.lists(st.booleans(), min_size=n, max_size=n)), strict=True)]
    b = [x if keep else y for x, y, keep in zip(
        a, draw(st.lists(ratings, min_size=n, max_size=n)),
        draw(st.lists(st.booleans(), min_size=n, max_size=n)), strict=True)]
    return tuple(np.array(column, dtype=np.int64) for column in (actual, a, b))


@PROPERTIES
@given(columns=three_columns(), weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
       scale=st.sampled_from(["range", "observed"]))
def test_each_model_is_its_walkthrough_on_the_shared_scale(columns, weights, scale):
    actual, a, b = columns
    result = compare(actual, a, b, weights=weights, scale=scale, resamples=100)
    every = np.concatenate(columns)
    labels = (np.arange(every.min(), every.max() + 1) if scale == "range"
              else np.unique(every))
    assert result.labels.tolist() == labels.tolist()
    for model, walk in ((a, result.a), (b, result.b)):
        alone = walkthrough(np.concatenate([actual, labels]), np.concatenate([model, labels]),
                            weights=weights, scale=scale)
        assert walk.observed.tolist() == (alone.observed - np.eye(len(labels), dtype=int)).tolist()
    gap_a, gap_b = np.abs(actual - a), np.abs(actual - b)  # by the ratings' values
    assert result.disagreements == int((a != b).sum())
    assert (result.a_closer, result.b_closer) == (int((gap_a < gap_b).sum()),
                                                  int((gap_b < gap_a).sum()))
    if result.kappa_a is None or result.kappa_b is None:
        assert result.difference is None and result.p_value is None and result.interval is None
    else:
        assert result.difference == pytest.approx(result.kappa_b - result.kappa_a)
        assert 0 < result.p_value <= 1


@PROPERTIES
@given(columns=three_columns())
def test_the_same_model_twice_differs_by_zero_with_p_one(columns):
    actual, a, _ = columns
    result = compare(actual, a, a, resamples=100)
    assert result.disagreements == 0
    if result.kappa_a is not None:
        assert result.difference == 0.0
        assert result.p_value == 1.0
        assert result.interval == (0.0, 0.0)


@PROPERTIES
@given(columns=three_columns())
def test_swapping_the_models_negates_the_difference(columns):
    actual, a, b = columns
    forward, backward = compare(actual, a, b, resamples=100), compare(actual, b, a, resamples=100)
    assert (forward.kappa_a, forward.kappa_b) == (backward.kappa_b, backward.kappa_a)
    assert (forward.a_closer, forward.b_closer) == (backward.b_closer, backward.a_closer)
    if forward.difference is not None:
        assert forward.difference == pytest.approx(-backward.difference, abs=1e-12)


def _exact_permutation_p(actual, a, b, labels):
    differ = np.flatnonzero(a != b)
    observed = None
    count = total = 0
    for swaps in itertools.product((False, True), repeat=len(differ)):
        x, y = a.copy(), b.copy()
        chosen = differ[list(swaps)]
        x[chosen], y[chosen] = b[chosen], a[chosen]
        kappa_x = walkthrough(actual, x, min_rating=labels[0], max_rating=labels[-1]).kappa
        kappa_y = walkthrough(actual, y, min_rating=labels[0], max_rating=labels[-1]).kappa
        if kappa_x is None or kappa_y is None:
            continue
        value = kappa_y - kappa_x
        if observed is None:  # the first pattern swaps nothing
            observed = value
        total += 1
        count += abs(value) >= abs(observed) - 1e-12
    return count / total


@pytest.mark.parametrize("case", range(4))
def test_permutation_p_value_agrees_with_full_enumeration(case):
    rng = np.random.default_rng(100 + case)
    actual = rng.integers(0, 4, 14)
    a = np.clip(actual + rng.choice([0, 0, -1, 1, 2], 14), 0, 3)
    b = np.where(rng.random(14) < 0.5, actual, np.clip(a + rng.choice([-1, 1], 14), 0, 3))
    result = compare(actual, a, b, resamples=20_000, seed=case)
    exact = _exact_permutation_p(actual, a, b, result.labels)
    spread = math.sqrt(exact * (1 - exact) / 20_000) + 1 / 20_000
    assert result.p_value == pytest.approx(exact, abs=5 * spread)


def test_paired_bootstrap_agrees_with_naive_index_resampling():
    from sklearn.metrics import cohen_kappa_score

    result = compare(ACTUAL, MODEL_A, MODEL_B, resamples=1000, seed=21)
    labels = result.labels
    rng = np.random.default_rng(21)
    naive = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(1000):
            index = rng.integers(0, len(ACTUAL), len(ACTUAL))
            kappas = [cohen_kappa_score(ACTUAL[index], model[index], labels=labels,
                                        weights=SKLEARN_WEIGHTS["quadratic"])
                      for model in (MODEL_A, MODEL_B)]
            naive.append(kappas[1] - kappas[0])
    naive = np.array(naive)
    ours = result.bootstrap.distribution
    assert scipy_stats.ks_2samp(ours, naive[np.isfinite(naive)]).pvalue > 0.001
    assert ours.std(ddof=1) == pytest.approx(naive.std(ddof=1), rel=0.15)


def test_pairing_narrows_the_interval_of_the_difference():
    """B copies A except where it fixes a mistake: the paired interval is far narrower than the
    two models' separate intervals would suggest (the point the comparison page makes)."""
    result = compare(ACTUAL, MODEL_A, MODEL_B, resamples=2000, seed=1)
    low, high = result.interval
    separate = [walk.bootstrap(2000, seed=1).se for walk in (result.a, result.b)]
    assert high - low < 2 * 1.96 * math.hypot(*separate) / 2
    assert result.bootstrap.bca is not None


def test_seeded_and_reproducible():
    first = compare(ACTUAL, MODEL_A, MODEL_B, resamples=300, seed=8)
    again = compare(ACTUAL, MODEL_A, MODEL_B, resamples=300, seed=8)
    other = compare(ACTUAL, MODEL_A, MODEL_B, resamples=300, seed=9)
    assert first.bootstrap.distribution.tolist() == again.bootstrap.distribution.tolist()
    assert first.p_value == again.p_value
    assert first.bootstrap.distribution.tolist() != other.bootstrap.distribution.tolist()


def test_a_constant_model_has_kappa_zero_and_is_compared():
    result = compare(ACTUAL, np.full(80, 2), MODEL_B, resamples=200)
    assert result.constant == ("a",)
    assert result.kappa_a == 0.0 and result.undefined == ()
    assert result.difference == pytest.approx(result.kappa_b)
    assert result.p_value is not None


def test_undefined_kappa_of_one_model_still_reports_the_other():
    result = compare([3, 3, 3, 3], [3, 3, 3, 3], [3, 2, 3, 3], resamples=100)
    assert result.undefined == ("a",) and result.constant == ("a",)
    assert result.kappa_b == 0.0
    assert result.difference is None and result.interval is None and result.p_value is None


def test_columns_of_different_lengths():
    with pytest.raises(InputError) as caught:
        compare([1, 2, 3], [1, 2, 3], [1, 2])
    assert caught.value.code == "columns_length_mismatch"
    assert caught.value.params == {"n_actual": 3, "n_model_a": 3, "n_model_b": 2}


@pytest.mark.parametrize(("column", "values", "inner"), [
    ("model_a", "1, 2.5, 3", "not_integer_decimal"),
    ("model_b", [1, float("nan"), 3], "not_finite"),
    ("actual", "1, x, 3", "not_integer"),
])
def test_a_column_that_is_not_whole_ratings_is_named(column, values, inner):
    given = {"actual": [1, 2, 3], "a": [1, 2, 3], "b": [1, 2, 3]}
    given[{"model_a": "a", "model_b": "b", "actual": "actual"}[column]] = values
    with pytest.raises(InputError) as caught:
        compare(given["actual"], given["a"], given["b"])
    assert caught.value.code == f"in_{column}"
    assert caught.value.params["message"].code == inner


@pytest.mark.parametrize("resamples", [10, MAX_RESAMPLES + 1])
def test_resamples_out_of_range(resamples):
    with pytest.raises(InputError) as caught:
        compare([1, 2, 3], [1, 2, 3], [1, 2, 2], resamples=resamples)
    assert caught.value.code == "bad_resamples"


def test_too_many_ratings_on_the_shared_scale():
    with pytest.raises(InputError) as caught:
        compare([0, 10], [-25, 10], [0, 35])  # each model alone fits, not both
    assert caught.value.code == "too_many_ratings"


def test_empty_columns():
    with pytest.raises(InputError) as caught:
        compare([], [], [])
    assert caught.value.code == "empty"


def test_paired_intervals_equal_scipy_bootstrap_on_our_distribution():
    """scipy forms the BCa interval of the difference from our resamples with its own item
    jackknife; ours takes the jackknife per cell of the N x N x N table: the same ends."""
    import types

    actual, a, b = ACTUAL[:40], MODEL_A[:40], MODEL_B[:40]
    result = compare(actual, a, b, resamples=3000, seed=2)
    assert result.bootstrap.undefined == 0
    low = int(result.labels[0])

    def difference(index, axis=-1):
        index = np.asarray(index)
        flat = index.reshape(-1, index.shape[-1])
        values = []
        for row in flat:
            kappas = [walkthrough(actual[row], model[row], min_rating=low,
                                  max_rating=int(result.labels[-1])).kappa for model in (a, b)]
            values.append(kappas[1] - kappas[0])
        return np.array(values).reshape(index.shape[:-1])

    previous = types.SimpleNamespace(bootstrap_distribution=result.bootstrap.distribution)
    theirs = scipy_stats.bootstrap((np.arange(len(actual)),), difference, n_resamples=0,
                                   bootstrap_result=previous, method="BCa",
                                   vectorized=True).confidence_interval
    ours = result.bootstrap.bca
    assert (ours.low, ours.high) == pytest.approx((theirs.low, theirs.high), abs=1e-12)
