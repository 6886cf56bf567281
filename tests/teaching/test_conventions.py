"""Each implementation convention (``qwk_explained.teaching.conventions``), checked against its
real source.

Sources of truth: scikit-learn's ``cohen_kappa_score`` run live (with and without ``labels=``);
the seed notebooks' ``quadratic_kappa(actuals, preds, N=5)`` copied verbatim below and executed;
hand computations (all 0 against all 4 gives 0, the opposite-ends pair gives -1, E without /n
gives 1 - (num/den)/n).
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sklearn_metrics

from qwk_explained import walkthrough
from qwk_explained.teaching import conventions
from qwk_explained.teaching.examples import BY_NAME, EXAMPLES

WEIGHTINGS = ("quadratic", "linear", "unweighted")


def seed_quadratic_kappa(actuals, preds, N=5):  # noqa: N803 - the seed's own code, verbatim
    """The seed notebooks' function, unchanged apart from the imports."""
    confusion_matrix = sklearn_metrics.confusion_matrix
    w = np.zeros((N, N))
    O = confusion_matrix(actuals, preds)  # noqa: E741, N806
    for i in range(len(w)):
        for j in range(len(w)):
            w[i][j] = float(((i - j) ** 2) / (N - 1) ** 2)

    act_hist = np.zeros([N])
    for item in actuals:
        act_hist[item] += 1

    pred_hist = np.zeros([N])
    for item in preds:
        pred_hist[item] += 1

    E = np.outer(act_hist, pred_hist)  # noqa: N806
    E = E / E.sum()  # noqa: N806
    O = O / O.sum()  # noqa: E741, N806

    num = 0
    den = 0
    for i in range(len(w)):
        for j in range(len(w)):
            num += w[i][j] * O[i][j]
            den += w[i][j] * E[i][j]
    return (1 - (num / den))


def sklearn_kappa(actual, predicted, weights, labels=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sklearn_metrics.cohen_kappa_score(actual, predicted, labels=labels,
                                                 weights=conventions.SKLEARN_WEIGHTS[weights])


def test_rows_follow_the_conventions_in_order():
    """Invariant: one row per convention of the ``Convention`` type, in the table's order, and
    every weighting has its scikit-learn spelling."""
    comparison = conventions.compare(BY_NAME["unused_rating"].actual,
                                     BY_NAME["unused_rating"].predicted)
    assert tuple(row.code for row in comparison.rows) == conventions.CONVENTIONS
    assert all(row.reason in conventions.REASONS for row in comparison.rows)
    assert tuple(conventions.SKLEARN_WEIGHTS) == WEIGHTINGS


pairs = st.integers(min_value=1, max_value=30).flatmap(
    lambda n: st.tuples(st.lists(st.integers(-2, 6), min_size=n, max_size=n),
                        st.lists(st.integers(-2, 6), min_size=n, max_size=n)))


@settings(max_examples=120, deadline=None)
@given(pairs, st.sampled_from(WEIGHTINGS))
def test_range_and_observed_rows_equal_sklearn(pair, weights):
    """scikit-learn: range = labels= the full range; observed = no labels=."""
    actual, predicted = pair
    comparison = conventions.compare(actual, predicted, weights)
    low, high = min(actual + predicted), max(actual + predicted)
    for code, labels in (("range", list(range(low, high + 1))), ("observed", None)):
        row = comparison.row(code)
        expected = sklearn_kappa(actual, predicted, weights, labels)
        if row.kappa is None:
            assert row.status == "undefined" and np.isnan(expected)
        else:
            assert row.kappa == pytest.approx(expected, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_seed_code_replay_matches_the_seed_code(pair):
    """The seed's quadratic_kappa, executed: the same value, or the same IndexError."""
    actual, predicted = pair
    run = conventions.seed_quadratic_kappa(actual, predicted)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn's "single label" notice
            expected = seed_quadratic_kappa(np.array(actual), np.array(predicted))
    except IndexError:
        assert run.status == "error" and run.raises == "IndexError"
        return
    if np.isnan(expected):
        assert run.kappa is None
    else:
        assert run.kappa == pytest.approx(float(expected), abs=1e-9)
        if run.reason == "seed_ok":
            assert run.kappa == pytest.approx(walkthrough(actual, predicted).kappa)


def test_all_zero_against_all_four_is_zero_not_minus_one():
    """Hand computation: O/n and E/n both put 1 in cell (0, 4), so kappa = 1 - 1/1 = 0."""
    example = BY_NAME["all_zero_all_four"]
    comparison = conventions.compare(example.actual, example.predicted)
    for code in ("range", "observed", "fixed_n"):
        assert comparison.row(code).kappa == 0
    assert sklearn_kappa(example.actual, example.predicted, "quadratic") == 0
    seed = comparison.row("seed_code")
    assert (seed.status, seed.reason, seed.raises) == ("error", "seed_matrix_small", "IndexError")
    assert seed.params == {"rows": 2, "size": 5, "ratings": (0, 4)}


def test_full_disagreement_is_minus_one_and_the_claim_check():
    """Hand computation: num = 1, den = 0.5 (E spreads over four corners), kappa = -1."""
    zeros, opposite = BY_NAME["all_zero_all_four"], BY_NAME["full_disagreement"]
    assert conventions.compare(opposite.actual, opposite.predicted).row("range").kappa == -1
    check = conventions.seed_claim((zeros.actual, zeros.predicted),
                                   (opposite.actual, opposite.predicted))
    assert (check.claimed.kappa, check.opposite.kappa, check.cell) == (0.0, -1.0, (0, 4))
    assert check.claimed.observed_norm[0, 4] == 1 == check.claimed.expected_norm[0, 4]
    assert check.opposite.numerator == 1 and check.opposite.denominator == 0.5


def test_unused_rating_range_and_observed_differ():
    """scikit-learn: observed equals sklearn without labels=, range equals it with labels=."""
    example = BY_NAME["unused_rating"]
    comparison = conventions.compare(example.actual, example.predicted)
    observed, full = comparison.row("observed"), comparison.row("range")
    assert comparison.unused == (2,) and observed.reason == "observed_gap"
    assert observed.params == {"unused": (2,)}
    assert round(observed.kappa, 4) != round(full.kappa, 4)
    assert observed.kappa == pytest.approx(sklearn_kappa(example.actual, example.predicted,
                                                         "quadratic"))
    assert full.kappa == pytest.approx(sklearn_kappa(example.actual, example.predicted,
                                                     "quadratic", [0, 1, 2, 3]))
    assert full.params == {"low": 0, "high": 3, "size": 4}


@pytest.mark.parametrize(("name", "weights", "reason"), [
    ("unused_rating", "unweighted", "observed_gap_unweighted"),
    ("full_disagreement", "quadratic", "observed_gap_even"),
    ("seed_es", "quadratic", "observed_same"),
    ("constant", "quadratic", "undefined"),
])
def test_observed_row_says_why_it_matches_or_not(name, weights, reason):
    example = BY_NAME[name]
    row = conventions.compare(example.actual, example.predicted, weights).row("observed")
    assert row.reason == reason


def test_observed_gap_same_by_coincidence():
    """Uneven gaps can still give an equal value: the reason must not claim a general rule."""
    # Perfect agreement: 1 either way.
    row = conventions.compare([0, 0, 1, 3], [0, 0, 1, 3]).row("observed")
    assert row.kappa == 1 and row.reason == "observed_gap_same"


def test_fixed_scale_rows():
    """Ratings 1..5 do not fit on 0..4 (the seed's N = 5); negatives fall below; 0..4 matches."""
    seed_en = BY_NAME["seed_en"]
    row = conventions.compare(seed_en.actual, seed_en.predicted).row("fixed_n")
    assert (row.status, row.reason, row.raises) == ("error", "fixed_above", "IndexError")
    assert row.params == {"rating": 5, "top": 4, "size": 5}
    below = conventions.compare([-1, 0, 2], [0, 1, 2]).row("fixed_n")
    assert (below.reason, below.params["rating"]) == ("fixed_below", -1)
    inside = conventions.compare([1, 2, 3, 2], [1, 3, 3, 2], "linear")
    assert inside.row("fixed_n").kappa == pytest.approx(inside.row("range").kappa)


def test_mixed_out_of_range_ratings_report_the_one_that_stops_the_code():
    """Teaching audit, defect 11: for [-1, 7, 2, 3] the fixed-N row said np.zeros(5)[rating]
    "does not even stop" (it looked at -1) while the seed-code row said it stops with an
    IndexError. A loop over the ratings does stop, at 7: both rows now agree."""
    compared = conventions.compare([-1, 7, 2, 3], [0, 1, 2, 3])
    fixed, seed = compared.row("fixed_n"), compared.row("seed_code")
    assert (fixed.reason, fixed.raises, fixed.params["rating"]) == ("fixed_above", "IndexError",
                                                                     7)
    assert seed.raises == "IndexError"
    far = conventions.compare([-1, -9, 2, 3], [0, 1, 2, 3]).row("fixed_n")
    assert (far.reason, far.params["rating"]) == ("fixed_far_below", -9)


def test_seed_code_on_its_own_example_and_on_negatives():
    seed = BY_NAME["seed_es"]
    row = conventions.compare(seed.actual, seed.predicted).row("seed_code")
    assert row.reason == "seed_ok" and row.kappa == pytest.approx(-0.139240506)
    # -1 wraps to histogram position 4 but stays row 0 of O: 0.9659 instead of 0.9589.
    actual, predicted = [-1, -1, 0, 1, 2, 3], [-1, 0, 0, 1, 2, 3]
    negative = conventions.seed_quadratic_kappa(actual, predicted)
    assert negative.reason == "seed_negative" and negative.params["position"] == 4
    assert negative.kappa == pytest.approx(0.965909091)
    assert walkthrough(actual, predicted).kappa == pytest.approx(0.958904110)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_unnormalized_e_by_hand(example):
    """Hand formula: counts in O (sum n), outer product in E (sum n^2): 1 - (num/den)/n."""
    result = walkthrough(example.actual, example.predicted)
    row = conventions.compare(example.actual, example.predicted).row("e_unnormalized")
    if result.kappa is None:
        assert row.status == "undefined"
        return
    assert row.kappa == pytest.approx(1 - (result.numerator / result.denominator) / result.n)
    assert row.params["n_squared"] == result.n ** 2


def test_scale_errors_become_rows_not_exceptions():
    comparison = conventions.compare([0, 500], [1, 2])
    for code in ("range", "e_unnormalized"):
        row = comparison.row(code)
        assert row.status == "error" and row.problem.code == "too_many_ratings"


# --- scikit-learn, live ---------------------------------------------------------------------------


def test_sklearn_check_values_and_the_undefined_case():
    example = BY_NAME["unused_rating"]
    check = conventions.sklearn_check(example.actual, example.predicted)
    assert check.available and check.version
    assert check.with_labels.labels_given and not check.without_labels.labels_given
    assert check.with_labels.value == pytest.approx(0.696969697)
    assert check.without_labels.value == pytest.approx(0.710144928)
    constant = BY_NAME["constant"]
    undefined = conventions.sklearn_check(constant.actual, constant.predicted)
    assert undefined.without_labels.is_nan
    assert "UndefinedMetricWarning" in undefined.without_labels.warnings


def test_sklearn_compressed_samples_give_the_same_value(monkeypatch):
    """Large inputs go to sklearn as weighted distinct pairs: the same number."""
    example = BY_NAME["seed_zh"]
    plain = conventions.sklearn_check(example.actual, example.predicted, "linear")
    monkeypatch.setattr(conventions, "SKLEARN_COMPRESS_ABOVE", 3)
    packed = conventions.sklearn_check(example.actual, example.predicted, "linear")
    assert packed.without_labels.value == pytest.approx(plain.without_labels.value, abs=1e-12)
    assert packed.with_labels.value == pytest.approx(plain.with_labels.value, abs=1e-12)


def test_sklearn_missing_or_failing_never_raises(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.metrics", None)
    assert conventions.sklearn_check([1, 2], [2, 1]) == conventions.SklearnCheck(False)


def test_sklearn_error_is_reported_by_name():
    def broken(*args, **kwargs):
        raise ValueError("nope")

    run = conventions._call(broken, np.array([1]), np.array([1]), "quadratic", None)
    assert run.raised == "ValueError" and run.value is None


def test_importing_conventions_does_not_import_sklearn():
    code = "import sys, qwk_explained.teaching.conventions; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
