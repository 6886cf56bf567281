"""One cell of the QWK matrices and the "what if" experiment (``qwk_explained.teaching.cells``).

Sources of truth: the rating vectors themselves (which items fall in a cell), the engine
(``qwk_explained.walkthrough`` on the modified vectors for "what if"), and invariants (the shares
of all cells add up to 100 %, item lists partition the items like O counts them).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import InputError, walkthrough
from qwk_explained.teaching import cells

SEED_ACTUAL = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1]
SEED_PREDICTED = [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]

pairs = st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(st.lists(st.integers(-2, 4), min_size=n, max_size=n),
                        st.lists(st.integers(-2, 4), min_size=n, max_size=n)))


def seed():
    return walkthrough(SEED_ACTUAL, SEED_PREDICTED)


# --- items in a cell ------------------------------------------------------------------------------


def test_items_in_cell_are_the_one_based_positions_of_that_pair():
    """Against the vectors: items 1, 4, 5, 6 are rated 4 by the actual rater and 0 predicted."""
    result = seed()
    assert cells.items_in_cell(result, 4, 0).tolist() == [1, 4, 5, 6]
    assert cells.items_in_cell(result, 0, 0).tolist() == []
    with pytest.raises(IndexError):
        cells.items_in_cell(result, 5, 0)


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_item_lists_partition_the_items_and_count_like_o(pair):
    """Invariant: every item is in exactly one cell, and each cell lists O_ij items."""
    actual, predicted = pair
    result = walkthrough(actual, predicted)
    seen = []
    for i in range(result.size):
        for j in range(result.size):
            items = cells.items_in_cell(result, i, j)
            assert len(items) == result.observed[i, j]
            for k in items:
                assert (actual[k - 1], predicted[k - 1]) == (result.labels[i], result.labels[j])
            seen.extend(items.tolist())
    assert sorted(seen) == list(range(1, len(actual) + 1))


def test_capped_lists_at_most_the_limit_and_counts_the_rest():
    assert cells.capped(np.arange(1, 61)) == (list(range(1, 51)), 10)
    assert cells.capped([3, 5]) == ([3, 5], 0)


# --- shares of num and den ------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(pairs, st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_shares_add_up_to_100_percent_over_all_cells(pair, weights):
    """Invariant: sum over cells of w O / n / num = 1 (same for den), None when the total is 0."""
    result = walkthrough(*pair, weights=weights)
    num, den = cells.share_matrices(result)
    if result.numerator > 0:
        assert num.sum() == pytest.approx(1.0)
    else:
        assert num is None
    if result.denominator > 0:
        assert den.sum() == pytest.approx(1.0)
    else:
        assert den is None and result.kappa is None


def test_cell_share_is_the_weighted_cell_over_the_total():
    """Against the engine's own matrices: w_ij O_ij / n over num, w_ij E_ij / n over den."""
    result = seed()
    share_num, share_den = cells.cell_shares(result, 4, 0)
    weight, n = result.weights[4, 0], result.n
    assert share_num == pytest.approx(weight * result.observed[4, 0] / n / result.numerator)
    assert share_den == pytest.approx(weight * result.expected[4, 0] / n / result.denominator)
    assert share_num == pytest.approx(0.4 / 0.45)


# --- what if --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(pairs, st.data(), st.sampled_from(["quadratic", "linear", "unweighted"]),
       st.sampled_from(["range", "observed"]))
def test_what_if_equals_the_walkthrough_of_the_modified_vectors(pair, data, weights, scale):
    """Against the engine: moving item k gives exactly walkthrough(actual, predicted')."""
    actual, predicted = pair
    result = walkthrough(actual, predicted, weights=weights, scale=scale)
    k = data.draw(st.integers(0, len(actual) - 1))
    new = data.draw(st.sampled_from([int(x) for x in result.labels]))
    change = cells.what_if(result, k, new, weights=weights, scale=scale)
    modified = list(predicted)
    modified[k] = new
    direct = walkthrough(actual, modified, weights=weights, scale=scale)
    assert change.predicted.tolist() == modified
    assert np.array_equal(change.after.observed, direct.observed)
    assert change.after.kappa == direct.kappa
    assert (change.actual_rating, change.old_prediction, change.new_prediction) == (
        actual[k], predicted[k], new)
    if result.kappa is None or direct.kappa is None:
        assert change.change is None
    else:
        assert change.change == pytest.approx(direct.kappa - result.kappa)
    assert result.predicted.tolist() == predicted  # the original result is untouched


def test_what_if_keeps_a_fixed_scale_and_rejects_a_rating_outside_it():
    result = walkthrough([2, 2, 2], [2, 2, 2], min_rating=1, max_rating=3)
    assert result.kappa is None
    change = cells.what_if(result, 0, 3, min_rating=1, max_rating=3)
    assert change.after.labels.tolist() == [1, 2, 3]
    assert change.after.kappa == walkthrough([2, 2, 2], [3, 2, 2], min_rating=1,
                                             max_rating=3).kappa
    assert change.change is None  # undefined before: no difference to show
    with pytest.raises(InputError):
        cells.what_if(result, 0, 9, min_rating=1, max_rating=3)
    with pytest.raises(IndexError):
        cells.what_if(result, 3, 1)
