"""The exact permutation test of chance agreement (``core.resampling``).

Source of truth: full enumeration. Every permutation of the predicted ratings against the
actual ones (n! of them, each equally likely under the null hypothesis, margins fixed) is scored
here with plain numpy, independently of the engine, and the share of kappas at least as far
from 0 as the observed one is the p-value the test must give, for every weighting (hypothesis).
The teaching audit's example: [0, 1, 2] against [0, 2, 1] has p = 1 (the z test said 0.3865).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from qwk_explained import walkthrough
from qwk_explained.core.resampling import EXACT_MAX_ITEMS, exact_permutation_test


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
