"""The cut-point optimizer and ``apply_thresholds``.

Sources of truth: an exhaustive search over every non-decreasing choice of cut positions on small
data (the global optimum, which the coordinate search must reach there or at least not beat);
``sklearn.metrics.cohen_kappa_score`` (labels = the whole scale) as an independent kappa for
coordinate-wise optimality; ``quadratic_weighted_kappa`` and ``walkthrough`` for the reported
kappa. Invariants (hypothesis, adversarial scores: ties, negative, huge, adjacent doubles): cut
points never cross; kappa is at least every start's; kappa is that of the returned cut points;
the result depends on the scores only through their order (quantile start); cross-validation
is the pooled out-of-fold kappa of searches that never saw the held-out part.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from qwk_explained import (
    InputError,
    apply_thresholds,
    optimize_thresholds,
    quadratic_weighted_kappa,
    walkthrough,
)
from qwk_explained.core import limits
from qwk_explained.core.thresholds import quantile_cuts, rounding_cuts, stratified_folds
from qwk_explained.teaching.examples import scored_example

PROPERTIES = settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@st.composite
def scored_items(draw, max_ratings: int = 5, max_items: int = 40):
    """Actual ratings on 2..max_ratings levels (each end used) and scores that follow them with
    noise, often tied, sometimes huge, negative or adjacent doubles."""
    size = draw(st.integers(2, max_ratings))
    n = draw(st.integers(size, max_items))
    actual = draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n))
    actual[0], actual[1] = 0, size - 1
    kind = draw(st.sampled_from(["noisy", "ties", "wild", "adjacent"]))
    if kind == "wild":
        scores = draw(st.lists(st.floats(-1e9, 1e9, allow_nan=False), min_size=n, max_size=n))
    else:
        noise = draw(st.lists(st.floats(-2, 2, allow_nan=False), min_size=n, max_size=n))
        scores = [a + e for a, e in zip(actual, noise, strict=True)]
        if kind == "ties":
            scores = [round(s) / 2 for s in scores]
        elif kind == "adjacent":
            scores = [float(np.nextafter(1.0, 2.0)) if s > 1 else 1.0 for s in scores]
            scores = [s + (i % size) * 1e-15 for i, s in enumerate(scores)]
    scores = np.asarray(scores, dtype=np.float64)
    assume(len(np.unique(scores)) >= size)
    return np.asarray(actual, dtype=np.int64), scores, size


def _sklearn_kappa(actual, predicted, size) -> float:
    return cohen_kappa_score(actual, predicted, labels=list(range(size)), weights="quadratic")


# --- apply_thresholds -------------------------------------------------------------------------

def test_a_score_equal_to_a_cut_goes_up_as_in_optimized_rounder() -> None:
    # OptimizedRounder: pred < coef[0] -> 0, coef[0] <= pred < coef[1] -> 1, ...
    assert apply_thresholds([0.5, 0.49, 1.5, 2.0], [0.5, 1.5]).tolist() == [1, 0, 2, 2]


def test_equal_cuts_leave_the_rating_between_them_empty() -> None:
    assert apply_thresholds([0.0, 1.0, 2.0], [1.0, 1.0], min_rating=3).tolist() == [3, 5, 5]


@pytest.mark.parametrize("cuts", [[2.0, 1.0], [], [[1.0]], [1.0, math.nan], ["a"],
                                  list(range(limits.MAX_RATINGS))])
def test_bad_cuts_are_an_input_error(cuts) -> None:
    with pytest.raises(InputError) as caught:
        apply_thresholds([1.0], cuts)
    assert caught.value.code == "bad_cuts"


@pytest.mark.parametrize(("cuts", "low", "code"), [
    (np.ma.masked_array([1.0, 2.0], mask=[True, False]), 0, "masked_values"),
    ([1.0], "NaN", "not_finite"),
    ([1.0], [1, 2], "not_a_vector"),
    ([1.0], True, "not_integer"),
])
def test_masked_cuts_and_a_bad_lowest_rating_are_input_errors(cuts, low, code) -> None:
    """Found by the hostile properties: a mask was dropped, a bad ``min_rating`` was Python's
    own TypeError or ValueError."""
    with pytest.raises(InputError) as caught:
        apply_thresholds([1.0], cuts, min_rating=low)
    assert caught.value.code == code


def test_rounding_cuts_sit_halfway_between_ratings() -> None:
    assert rounding_cuts(0, 4) == (0.5, 1.5, 2.5, 3.5)
    predicted = apply_thresholds([-3.0, 0.49, 0.5, 3.51, 9.0], rounding_cuts(0, 4))
    assert predicted.tolist() == [0, 0, 1, 4, 4]


# --- The search against exhaustive search and sklearn -------------------------------------------

def _every_cut_choice(scores: np.ndarray, size: int):
    """Every non-decreasing choice of positions, as cut values (midpoints, or beyond the ends)."""
    u = np.unique(scores)
    values = [u[0] - 1.0, *((u[:-1] + u[1:]) / 2), u[-1] + 1.0]
    return itertools.combinations_with_replacement(values, size - 1)


@pytest.mark.parametrize("seed", range(40))
def test_on_small_data_it_reaches_the_exhaustive_optimum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 5))
    n = int(rng.integers(size + 2, 16))
    actual = rng.integers(0, size, n)
    actual[:2] = [0, size - 1]
    scores = np.round(actual + rng.normal(0, 1.3, n), 1)
    if len(np.unique(scores)) < size:
        pytest.skip("too few distinct scores for this draw")
    result = optimize_thresholds(actual, scores, folds=0)
    best = max(quadratic_weighted_kappa(actual, apply_thresholds(scores, cuts),
                                        min_rating=0, max_rating=size - 1)
               for cuts in _every_cut_choice(scores, size))
    assert result.kappa <= best + 1e-12
    # Not a guarantee (a coordinate-wise optimum need not be global), but on these 40 draws the
    # two starts find the global optimum: a change that loses it is a regression.
    assert result.kappa == pytest.approx(best, abs=1e-12)


@PROPERTIES
@given(scored_items(max_ratings=4, max_items=25))
def test_no_single_cut_can_move_between_its_neighbours_to_raise_kappa(data) -> None:
    """Coordinate-wise optimality, checked with sklearn's kappa at every midpoint."""
    actual, scores, size = data
    result = optimize_thresholds(actual, scores, folds=0)
    found = _sklearn_kappa(actual, result.predict(scores), size)
    u = np.unique(scores)
    candidates = [u[0] - 1.0, *((u[:-1] + u[1:]) / 2), u[-1] + 1.0]
    cuts = list(result.cuts)
    for k in range(size - 1):
        low = cuts[k - 1] if k > 0 else -np.inf
        high = cuts[k + 1] if k + 1 < size - 1 else np.inf
        for value in candidates:
            if low <= value <= high:
                moved = [*cuts[:k], value, *cuts[k + 1:]]
                assert _sklearn_kappa(actual, apply_thresholds(scores, moved), size) <= (
                    found + 1e-9)


# --- Properties ---------------------------------------------------------------------------------

@PROPERTIES
@given(scored_items())
def test_cuts_never_cross_and_kappa_is_that_of_the_cuts_returned(data) -> None:
    actual, scores, size = data
    result = optimize_thresholds(actual, scores, folds=0)
    assert len(result.cuts) == size - 1
    assert all(np.isfinite(result.cuts)) and all(np.diff(result.cuts) >= 0)
    assert result.kappa == quadratic_weighted_kappa(actual, apply_thresholds(scores, result.cuts))
    assert result.kappa == quadratic_weighted_kappa(actual, result.predict(scores),
                                                    min_rating=0, max_rating=size - 1)
    assert result.predicted_hist == tuple(np.bincount(result.predict(scores), minlength=size))
    assert result.actual_hist == tuple(np.bincount(actual, minlength=size))


@PROPERTIES
@given(scored_items())
def test_kappa_is_at_least_that_of_every_start(data) -> None:
    actual, scores, size = data
    result = optimize_thresholds(actual, scores, folds=0)
    assert [start.name for start in result.starts] == ["rounding", "quantiles"]
    for start in result.starts:
        own = quadratic_weighted_kappa(actual, apply_thresholds(scores, start.cuts),
                                       min_rating=0, max_rating=size - 1)
        assert start.kappa == own
        assert result.kappa >= start.fitted_kappa >= start.kappa
    assert result.kappa == max(start.fitted_kappa for start in result.starts)


MONOTONE = {
    "affine": lambda x: 3.0 * x - 7.0,
    "cube": lambda x: x**3,
    "exp": lambda x: np.exp(x / 4.0),
    "ranks": lambda x: np.unique(x, return_inverse=True)[1].astype(np.float64),
    "decreasing then negated": lambda x: -(-x * 2.0),
}


@PROPERTIES
@given(scored_items(), st.sampled_from(sorted(MONOTONE)))
def test_a_monotone_transform_of_the_scores_gives_the_same_ratings(data, name) -> None:
    """With the quantile start (rank-based; rounding reads values), the fit depends on the
    scores' order only: the same ratings and kappa. (Not the cross-validated kappa: a held-out
    score between two training scores is placed by their midpoint, a value.)"""
    actual, scores, size = data
    scores = scores.clip(-50, 50)
    transformed = MONOTONE[name](scores)
    assume(len(np.unique(transformed)) == len(np.unique(scores)) >= size)
    assume(np.isfinite(transformed).all() and np.abs(transformed).max() <= limits.MAX_ABS_SCORE)
    plain = optimize_thresholds(actual, scores, folds=0, starts=["quantiles"])
    moved = optimize_thresholds(actual, transformed, folds=0, starts=["quantiles"])
    assert (plain.predict(scores) == moved.predict(transformed)).all()
    assert plain.kappa == moved.kappa


@PROPERTIES
@given(scored_items(max_items=60), st.sampled_from(["linear", "unweighted"]))
def test_other_weightings_report_the_walkthroughs_kappa(data, weights) -> None:
    actual, scores, size = data
    result = optimize_thresholds(actual, scores, weights=weights, folds=0)
    steps = walkthrough(actual, result.predict(scores), weights=weights, min_rating=0,
                        max_rating=size - 1)
    assert result.kappa == pytest.approx(steps.kappa, abs=1e-12)
    assert all(result.kappa >= start.kappa for start in result.starts)


def test_tied_scores_always_share_their_rating() -> None:
    actual = [0, 1, 0, 1, 2, 2, 1]
    scores = [1.0, 1.0, 1.0, 2.0, 3.0, 3.0, 2.0]
    predicted = optimize_thresholds(actual, scores, folds=0).predict(scores)
    assert len({int(p) for p, s in zip(predicted, scores, strict=True) if s == 1.0}) == 1


def test_a_cut_between_adjacent_doubles_still_separates_them() -> None:
    low = 1.0
    high = float(np.nextafter(low, 2.0))
    result = optimize_thresholds([0, 0, 1, 1], [low, low, high, high], folds=0)
    assert low < result.cuts[0] <= high
    assert result.kappa == 1.0


def test_declared_bounds_widen_the_scale_and_the_cuts() -> None:
    actual, scores = [1, 1, 2, 3, 3], [1.1, 1.4, 2.2, 2.9, 3.3]
    result = optimize_thresholds(actual, scores, min_rating=0, max_rating=4, folds=0)
    assert (result.min_rating, result.max_rating, len(result.cuts)) == (0, 4, 4)
    assert set(result.predict(scores).tolist()) <= {0, 1, 2, 3, 4}
    assert result.kappa == 1.0


# --- Cross-validation ---------------------------------------------------------------------------

def test_folds_are_stratified_balanced_and_seeded() -> None:
    actual = np.repeat(np.arange(4), [7, 20, 13, 1])
    parts = stratified_folds(actual, 5, seed=3)
    assert np.bincount(parts).max() - np.bincount(parts).min() <= 1
    for rating in range(4):
        counts = np.bincount(parts[actual == rating], minlength=5)
        assert counts.max() - counts.min() <= 1
    assert (stratified_folds(actual, 5, seed=3) == parts).all()
    assert not (stratified_folds(actual, 5, seed=4) == parts).all()


def test_cv_kappa_is_the_pooled_out_of_fold_kappa_of_searches_that_never_saw_the_part() -> None:
    actual, scores = scored_example(300, seed=5)
    result = optimize_thresholds(actual, scores, folds=4, seed=11)
    parts = stratified_folds(actual, 4, seed=11)
    out_of_fold = np.empty_like(actual)
    fold_kappas = []
    for k in range(4):
        held = parts == k
        fitted = optimize_thresholds(actual[~held], scores[~held], min_rating=0, max_rating=4,
                                     folds=0)
        out_of_fold[held] = fitted.predict(scores[held])
        fold_kappas.append(quadratic_weighted_kappa(actual[held], out_of_fold[held],
                                                    min_rating=0, max_rating=4))
    assert result.cv_kappa == quadratic_weighted_kappa(actual, out_of_fold)
    assert result.fold_kappas == pytest.approx(fold_kappas, abs=1e-15)
    assert result.optimism == result.kappa - result.cv_kappa


def test_folds_zero_skips_cross_validation() -> None:
    actual, scores = scored_example(50, seed=1)
    result = optimize_thresholds(actual, scores, folds=0)
    assert (result.cv_kappa, result.fold_kappas, result.optimism) == (None, (), None)


def test_on_the_bundled_example_tuning_is_visibly_optimistic() -> None:
    """The page's example: the tuned cuts beat rounding in-sample by far, out of fold by less,
    and the gap between in-sample and cross-validated kappa is plain to see."""
    actual, scores = scored_example()
    result = optimize_thresholds(actual, scores)
    rounding = result.starts[0].kappa
    assert result.optimism is not None and result.optimism >= 0.03
    assert result.kappa - rounding >= 0.08
    assert result.cv_kappa is not None and result.cv_kappa > rounding


# --- Bad input ----------------------------------------------------------------------------------

#: Twelve items on three ratings, twelve distinct scores: fine, so the options are what is wrong.
GOOD = ([0, 1, 2] * 4, [k / 10 for k in range(12)])


@pytest.mark.parametrize(("actual", "scores", "options", "code"), [
    ([0, 1, 2], [0.1, 0.2], {}, "scores_length_mismatch"),
    ([0, 1, 2], [0.1, math.nan, 0.3], {}, "score_not_finite"),
    ([0, 1, 2], [0.1, math.inf, 0.3], {}, "score_not_finite"),
    ([0, 1, 2], "0.1, abc, 0.3", {}, "score_not_number"),
    ([0, 1, 2], [0.1, 2e9, 0.3], {}, "score_too_large"),
    ([2, 2, 2], [0.1, 0.2, 0.3], {}, "thresholds_one_rating"),
    ([0, 1, 2], [0.5, 0.5, 0.7], {}, "thresholds_few_scores"),
    ([0, 4, 2], [0.5, 0.6, 0.7], {}, "thresholds_few_scores"),
    (*GOOD, {"weights": "cubic"}, "unknown_weights"),
    (*GOOD, {"folds": 1}, "bad_folds"),
    (*GOOD, {"folds": 21}, "bad_folds"),
    ([0, 1, 2], [0.1, 0.2, 0.3], {"folds": 4}, "bad_folds"),
    (*GOOD, {"folds": True}, "bad_folds"),
    (*GOOD, {"folds": 2.0}, "bad_folds"),
    (*GOOD, {"seed": -1}, "bad_seed"),
    (*GOOD, {"seed": 2**63}, "bad_seed"),
    (*GOOD, {"starts": []}, "bad_starts"),
    (*GOOD, {"starts": "rounding"}, "bad_starts"),
    (*GOOD, {"starts": ["median"]}, "bad_starts"),
    ([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4], {"folds": 2}, "cv_fold_one_rating"),
    ([], [], {}, "empty"),
    ([[0, 1]], [[0.1, 0.2]], {}, "not_a_vector"),
    ([0, 1, 2], [True, False, True], {}, "score_not_number"),
    ([0, 1, 2], [1 + 1j, 2, 3], {}, "score_not_number"),
])
def test_bad_input_is_one_input_error_with_a_code(actual, scores, options, code) -> None:
    with pytest.raises(InputError) as caught:
        optimize_thresholds(actual, scores, **options)
    assert caught.value.code == code


def test_quantile_cuts_copy_the_actual_histogram() -> None:
    actual = [0, 0, 0, 1, 1, 2, 2, 2, 2, 2]
    scores = np.linspace(0, 1, 10)
    predicted = apply_thresholds(scores, quantile_cuts(actual, scores))
    assert np.bincount(predicted).tolist() == [3, 2, 5]


def test_the_widest_scale_keeps_exact_counts() -> None:
    """50 ratings (the limit): positions and pair codes must not overflow a small integer type."""
    rng = np.random.default_rng(4)
    actual = np.concatenate([np.arange(limits.MAX_RATINGS), rng.integers(0, 50, 950)])
    scores = actual + rng.normal(0, 3, len(actual))
    result = optimize_thresholds(actual, scores, folds=2)
    assert len(result.cuts) == limits.MAX_RATINGS - 1
    assert result.kappa == quadratic_weighted_kappa(actual, result.predict(scores))
    assert result.kappa >= max(start.kappa for start in result.starts)
