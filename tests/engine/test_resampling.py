"""The bootstrap of kappa (multinomial draws of O's cell counts), the test against kappa0, and
the exact permutation test.

Sources of truth:

* the naive bootstrap: item indices resampled with replacement from the same seed family
  (``numpy.random.default_rng``), ``sklearn.metrics.cohen_kappa_score`` per resample on the same
  labels; the two distributions agree (two-sample Kolmogorov-Smirnov test, quantiles);
* ``scipy.stats.bootstrap``: given our bootstrap distribution (``bootstrap_result``,
  ``n_resamples=0``) it forms its percentile and BCa intervals with its own jackknife over the
  items; ours, whose jackknife is per cell, must be the same;
* the exact probability that a resample is undefined (every drawn item in one cell);
* statsmodels' ``cohens_kappa`` standard error for the test against kappa0, and the identity
  "kappa0 outside the Wald interval exactly when p < alpha".

The exact permutation test of chance agreement, against full enumeration. Every permutation of the
predicted ratings against the actual ones (n! of them, each equally likely under the null
hypothesis, margins fixed) is scored here with plain numpy, independently of the engine, and the
share of kappas at least as far from 0 as the observed one is the p-value the test must give, for
every weighting (hypothesis). The teaching audit's example: [0, 1, 2] against [0, 2, 1] has p = 1
(the z test said 0.3865).
"""

from __future__ import annotations

import math
import types
import warnings
from itertools import permutations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from statsmodels.stats.inter_rater import cohens_kappa

from qwk_explained import InputError, walkthrough, walkthrough_from_table
from qwk_explained.core import resampling
from qwk_explained.core.limits import MAX_RESAMPLES, MAX_SEED, MIN_RESAMPLES
from qwk_explained.core.resampling import EXACT_MAX_ITEMS, exact_permutation_test

from .test_core_properties import SKLEARN_WEIGHTS

RNG = np.random.default_rng(2024)
# 60 items on 0..4, a model that is right two times in three and otherwise off by one or two.
ACTUAL = RNG.integers(0, 5, 60)
PREDICTED = np.clip(ACTUAL + RNG.choice([0, 0, 0, 0, -1, 1, -2, 2], 60), 0, 4)


def naive_bootstrap(actual, predicted, labels, weights, resamples, seed):
    """Resample item indices and call scikit-learn on each resample (what people write)."""
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(seed)
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(resamples):
            index = rng.integers(0, len(actual), len(actual))
            values.append(cohen_kappa_score(actual[index], predicted[index], labels=labels,
                                            weights=SKLEARN_WEIGHTS[weights]))
    values = np.array(values)
    return values[np.isfinite(values)]


@pytest.mark.parametrize("weights", ["quadratic", "unweighted"])
def test_bootstrap_distribution_agrees_with_naive_index_resampling(weights):
    result = walkthrough(ACTUAL, PREDICTED, weights=weights)
    ours = result.bootstrap(1000, seed=11).distribution
    naive = naive_bootstrap(ACTUAL, PREDICTED, result.labels, weights, 1000, seed=11)
    assert scipy_stats.ks_2samp(ours, naive).pvalue > 0.001
    for level in (0.025, 0.5, 0.975):  # each end is known to about 0.012 from 1000 draws
        assert np.quantile(ours, level) == pytest.approx(np.quantile(naive, level), abs=0.05)
    assert ours.std(ddof=1) == pytest.approx(naive.std(ddof=1), rel=0.15)


@pytest.mark.parametrize("confidence", [0.9, 0.95])
@pytest.mark.parametrize("scale", ["range", "observed"])
def test_intervals_equal_scipy_bootstrap_on_our_distribution(confidence, scale):
    """scipy forms the percentile and BCa intervals from our resamples with its own item
    jackknife; our per-cell jackknife and formulas must give the same ends."""
    actual = np.array([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 1, 2, 3, 4, 5, 2, 2, 3, 4, 4, 1, 5, 3, 3])
    predicted = np.array([1, 2, 2, 3, 3, 3, 4, 5, 5, 5, 2, 2, 2, 4, 4, 2, 1, 3, 4, 3, 1, 4, 3, 5])
    result = walkthrough(actual, predicted, scale=scale)
    boot = result.bootstrap(3000, seed=5, confidence=confidence)
    assert boot.undefined == 0

    def kappa(index, axis=-1):
        index = np.asarray(index)
        flat = index.reshape(-1, index.shape[-1])
        values = [walkthrough_from_table(_table(result, row), labels=result.labels).kappa
                  for row in flat]
        return np.array(values).reshape(index.shape[:-1])

    previous = types.SimpleNamespace(bootstrap_distribution=boot.distribution)
    items = (np.arange(len(actual)),)
    for method, ours in (("BCa", boot.bca), ("percentile", boot.percentile)):
        theirs = scipy_stats.bootstrap(items, kappa, n_resamples=0, bootstrap_result=previous,
                                       method=method, confidence_level=confidence,
                                       vectorized=True).confidence_interval
        assert (ours.low, ours.high) == pytest.approx((theirs.low, theirs.high), abs=1e-12)


def _table(result, index):
    size = result.size
    rows = np.searchsorted(result.labels, result.actual[index])
    cols = np.searchsorted(result.labels, result.predicted[index])
    return np.bincount(rows * size + cols, minlength=size * size).reshape(size, size)


def test_same_seed_same_resamples_any_block_size(monkeypatch):
    result = walkthrough(ACTUAL, PREDICTED)
    first = result.bootstrap(500, seed=3).distribution
    assert result.bootstrap(500, seed=3).distribution.tolist() == first.tolist()
    assert result.bootstrap(500, seed=4).distribution.tolist() != first.tolist()
    monkeypatch.setattr(resampling, "_BLOCK_CELLS", 7)  # a block of one resample at a time
    assert result.bootstrap(500, seed=3).distribution.tolist() == first.tolist()


def test_time_and_draws_do_not_depend_on_n():
    """The same table of counts scaled up: n only enters the multinomial's count."""
    small = walkthrough_from_table([[30, 5, 1], [4, 40, 6], [1, 7, 20]])
    large = walkthrough_from_table([[30_000, 5_000, 1_000], [4_000, 40_000, 6_000],
                                    [1_000, 7_000, 20_000]])
    assert small.kappa == pytest.approx(large.kappa)
    spread = large.bootstrap(1000, seed=1).se
    assert spread == pytest.approx(small.bootstrap(1000, seed=1).se / math.sqrt(1000), rel=0.15)


def test_undefined_resamples_are_counted_at_their_exact_rate():
    """Four items in one cell and one in another: a resample without the fifth item has all its
    items in one cell (0/0), with probability 0.8^5."""
    result = walkthrough([1, 1, 1, 1, 2], [1, 1, 1, 1, 2])
    boot = result.bootstrap(20_000, seed=2)
    expected = 0.8**5
    assert boot.undefined / 20_000 == pytest.approx(expected, abs=4 * math.sqrt(
        expected * (1 - expected) / 20_000))
    assert boot.undefined + boot.distribution.size == 20_000
    assert np.isfinite(boot.distribution).all()


def test_no_bootstrap_for_an_undefined_kappa():
    assert walkthrough([2, 2, 2], [2, 2, 2]).bootstrap() is None


def test_perfect_agreement_gives_a_zero_width_distribution():
    """Every defined resample of a perfect agreement is 1 (the surfaces withhold such an
    interval, as they withhold a Wald interval with SE = 0)."""
    boot = walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4]).bootstrap(200)
    assert (boot.percentile.low, boot.percentile.high) == (1.0, 1.0)
    assert boot.se == 0 and boot.skewness is None


def test_p_value_inverts_the_percentile_interval():
    boot = walkthrough(ACTUAL, PREDICTED).bootstrap(2000, seed=9)
    assert boot.p_value(boot.percentile.low - 0.01) < 0.05
    assert boot.p_value(boot.percentile.low + 0.01) > 0.05
    assert boot.p_value(boot.estimate) == pytest.approx(1.0, abs=0.1)
    assert boot.skewness is not None and boot.se > 0


@pytest.mark.parametrize("resamples", [MIN_RESAMPLES - 1, MAX_RESAMPLES + 1, 0, -5, 2.5,
                                       True, "1000", None])
def test_resample_counts_out_of_range(resamples):
    with pytest.raises(InputError) as caught:
        walkthrough(ACTUAL, PREDICTED).bootstrap(resamples)
    assert caught.value.code == "bad_resamples"


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.0, "7", None])
def test_bad_seeds(seed):
    with pytest.raises(InputError) as caught:
        walkthrough(ACTUAL, PREDICTED).bootstrap(200, seed=seed)
    assert caught.value.code == "bad_seed"


@pytest.mark.parametrize("confidence", [0, 1, 1.5, float("nan"), "0.9"])
def test_bad_confidence(confidence):
    with pytest.raises(InputError) as caught:
        walkthrough(ACTUAL, PREDICTED).bootstrap(200, confidence=confidence)
    assert caught.value.code == "bad_confidence"


# --- the test against kappa0 ----------------------------------------------------------------------


def test_kappa0_zero_is_the_classic_test_with_se0():
    result = walkthrough(ACTUAL, PREDICTED)
    test, stats = result.kappa_test(0), result.statistics()
    assert test.uses_se0 and test.se == stats.se0
    assert (test.z, test.p_value) == pytest.approx((stats.z, stats.p_value))


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_kappa0_uses_statsmodels_non_null_standard_error(weights):
    table = np.array([[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]])
    result = walkthrough_from_table(table, weights=weights)
    reference = cohens_kappa(table, wt=weights)
    test = result.kappa_test(0.6)
    assert not test.uses_se0
    z = (reference.kappa - 0.6) / reference.std_kappa
    assert test.z == pytest.approx(z, rel=1e-9)
    assert test.p_value == pytest.approx(2 * scipy_stats.norm.sf(abs(z)), rel=1e-9)
    assert test.p_greater == pytest.approx(scipy_stats.norm.sf(z), rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(table=st.lists(st.lists(st.integers(0, 20), min_size=3, max_size=3), min_size=3,
                      max_size=3),
       kappa0=st.floats(-0.99, 0.99).filter(lambda value: value != 0))
def test_kappa0_outside_the_wald_interval_exactly_when_p_is_small(table, kappa0):
    if sum(map(sum, table)) == 0:
        return
    result = walkthrough_from_table(table)
    stats, test = result.statistics(0.95), result.kappa_test(kappa0)
    if test.z is None:
        assert result.kappa is None or not stats.se
        return
    if abs(abs(test.z) - stats.z_critical) < 1e-9:
        return  # on the boundary: rounding decides
    outside = not stats.ci_low <= kappa0 <= stats.ci_high
    assert outside == (test.p_value < 0.05)


@pytest.mark.parametrize("kappa0", [1.5, -2, float("nan"), "0.6", None, True])
def test_bad_kappa_null(kappa0):
    with pytest.raises(InputError) as caught:
        walkthrough(ACTUAL, PREDICTED).kappa_test(kappa0)
    assert caught.value.code == "bad_kappa_null"



def enumerated_p_value(actual: list[int], predicted: list[int], weights: str | np.ndarray,
                       size: int) -> float:
    """Two-sided p over all n! pairings, kappa = 1 - num/den worked out here."""
    positions = np.arange(size)
    distance = np.abs(positions[:, None] - positions[None, :]).astype(float)
    w = weights if isinstance(weights, np.ndarray) else {
        "quadratic": distance**2 / (size - 1) ** 2, "linear": distance / (size - 1),
        "unweighted": (distance > 0).astype(float)}[weights]
    n = len(actual)
    a, p = np.array(actual), np.array(predicted)
    rows, cols = np.bincount(a, minlength=size), np.bincount(p, minlength=size)
    den = float(rows @ w @ cols) / n**2

    def kappa(order: tuple[int, ...]) -> float:
        return 1 - float(w[a, p[list(order)]].sum()) / n / den

    observed = abs(kappa(tuple(range(n))))
    orders = list(permutations(range(n)))
    extreme = sum(abs(kappa(order)) >= observed - 1e-9 for order in orders)
    return extreme / len(orders)


def test_the_audits_three_items():
    """Teaching audit, defect 7: every pairing of [0, 1, 2] with [0, 2, 1] has |kappa| >= 0.5."""
    test = exact_permutation_test(walkthrough([0, 1, 2], [0, 2, 1]))
    assert test is not None and (test.kappa, test.p_value) == (0.5, 1.0)
    assert enumerated_p_value([0, 1, 2], [0, 2, 1], "quadratic", 3) == 1.0


@settings(max_examples=80, deadline=None)
@given(data=st.data(),
       weights=st.sampled_from(["quadratic", "linear", "unweighted", "square roots"]))
def test_the_exact_test_equals_full_enumeration(data, weights):
    """Every named weighting, and custom weights no small factor makes whole (square roots of
    the distances: counted by value, not by index)."""
    size = data.draw(st.integers(2, 4))
    n = data.draw(st.integers(2, 7))
    actual = data.draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n))
    predicted = data.draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n))
    if weights == "square roots":
        distance = np.abs(np.subtract.outer(np.arange(size), np.arange(size))).astype(float)
        weights = np.sqrt(distance) / np.sqrt(size - 1)
    result = walkthrough(actual, predicted, weights=weights, min_rating=0, max_rating=size - 1)
    assume(result.kappa is not None)
    test = exact_permutation_test(result)
    assert test is not None
    assert test.p_value == pytest.approx(
        enumerated_p_value(actual, predicted, weights, size), abs=1e-12)


def test_large_samples_and_undefined_kappas_have_no_exact_test():
    big = walkthrough([0, 1] * 7, [0, 1] * 7)
    assert big.n > EXACT_MAX_ITEMS and exact_permutation_test(big) is None
    assert exact_permutation_test(big, max_items=14) is not None
    assert exact_permutation_test(walkthrough([2, 2, 2], [2, 2, 2])) is None


def test_twelve_distinct_ratings_are_worked_out_at_once():
    """The largest case offered: 12 items, 12 ratings each used once (12! pairings)."""
    test = exact_permutation_test(walkthrough(list(range(12)), list(range(12))))
    assert test is not None and test.kappa == 1.0 and 0 < test.p_value < 1e-6
