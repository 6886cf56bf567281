"""Published values of kappa, reproduced through ``walkthrough``, ``walkthrough_from_table`` and the
fast path. Every test names its source.

Sources:

* Artstein and Poesio (2008), "Inter-coder agreement for computational linguistics", Computational
  Linguistics 34(4), Tables 1 and 4, as scikit-learn encodes them in
  ``sklearn/metrics/tests/test_classification.py::test_cohen_kappa`` (checked against the installed
  copy): kappa 0.348 (3 decimals), 0.8013, and 0.9315 / 0.9412 / 0.9541 (unweighted / linear /
  quadratic, 4 decimals).
* The five seed documents the project grew from; the facts each test needs (vectors, printed
  matrices, quoted results) are copied into the test, which names its document: seed 000, a
  Spanish Kaggle notebook on the PetFinder ratings 0..4; seed 001, a Chinese note running Ben
  Hamner's reference code; seed 002, a Spanish course note (Inteligencia Artificial 2012) on the
  kappa coefficient of two binary classifiers; seed 003, an English notebook from the PANDA
  competition; seed 004, a Turkish note computing QWK with scikit-learn.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from qwk_explained import quadratic_weighted_kappa, walkthrough, walkthrough_from_table

EXACT = 1e-12


def hamner_qwk(rater_a, rater_b, min_rating=None, max_rating=None):
    """Ben Hamner's reference ``quadratic_weighted_kappa`` (github.com/benhamner/Metrics), as the
    seeds 000 and 001 transcribe it: the scale runs from the smallest to the largest rating."""
    rater_a, rater_b = [int(x) for x in rater_a], [int(x) for x in rater_b]
    assert len(rater_a) == len(rater_b)
    if min_rating is None:
        min_rating = min(rater_a + rater_b)
    if max_rating is None:
        max_rating = max(rater_a + rater_b)
    num_ratings = int(max_rating - min_rating + 1)
    conf_mat = [[0 for _ in range(num_ratings)] for _ in range(num_ratings)]
    for a, b in zip(rater_a, rater_b, strict=True):
        conf_mat[a - min_rating][b - min_rating] += 1
    hist_a = [0] * num_ratings
    hist_b = [0] * num_ratings
    for r in rater_a:
        hist_a[r - min_rating] += 1
    for r in rater_b:
        hist_b[r - min_rating] += 1
    num_scored_items = float(len(rater_a))
    numerator = denominator = 0.0
    for i in range(num_ratings):
        for j in range(num_ratings):
            expected_count = hist_a[i] * hist_b[j] / num_scored_items
            d = pow(i - j, 2.0) / pow(num_ratings - 1, 2.0)
            numerator += d * conf_mat[i][j] / num_scored_items
            denominator += d * expected_count / num_scored_items
    return 1.0 - numerator / denominator


def exact_qwk(actual, predicted) -> Fraction:
    """Quadratic weighted kappa in exact rational arithmetic: 1 - sum (a-b)^2 / mean over all pairs.

    An independent oracle: the (N-1)^2 of the weights cancels, and so does the scale's start."""
    n = len(actual)
    observed = sum(Fraction((a - b) ** 2) for a, b in zip(actual, predicted, strict=True))
    expected = sum(Fraction((a - b) ** 2) for a in actual for b in predicted) / n
    return 1 - observed / expected


# --- Artstein and Poesio (2008), via scikit-learn's test_cohen_kappa --------------------------

# Table 1: rows = coder A, columns = coder B (2 categories).
AP_TABLE1 = [[20, 20], [10, 50]]
AP_Y1 = np.array([0] * 40 + [1] * 60)
AP_Y2 = np.array([0] * 20 + [1] * 20 + [0] * 10 + [1] * 50)
# Table 4 (3 categories) and sklearn's weighting example built on it.
AP_TABLE4_Y1 = np.array([0] * 46 + [1] * 44 + [2] * 10)
AP_TABLE4_Y2 = np.array([0] * 52 + [1] * 32 + [2] * 16)
AP_WEIGHTED_Y2 = np.array([0] * 50 + [1] * 40 + [2] * 10)


def test_artstein_poesio_table1_vectors_and_table():
    """Artstein and Poesio (2008) Table 1 (sklearn test_cohen_kappa): kappa = 0.348."""
    from_vectors = walkthrough(AP_Y1, AP_Y2, weights="unweighted")
    from_table = walkthrough_from_table(AP_TABLE1, weights="unweighted")
    assert from_vectors.observed.tolist() == AP_TABLE1
    assert round(from_vectors.kappa, 3) == 0.348
    assert from_table.kappa == pytest.approx(from_vectors.kappa, abs=EXACT)
    # sklearn checks the symmetry and the perfect self-agreement on the same vectors.
    assert walkthrough(AP_Y2, AP_Y1, weights="unweighted").kappa == pytest.approx(
        from_vectors.kappa, abs=EXACT)
    assert walkthrough(AP_Y1, AP_Y1, weights="unweighted").kappa == pytest.approx(1.0)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_artstein_poesio_table1_two_categories_all_weightings_agree(weights):
    """With 2 categories every weighting is plain kappa: Table 1 gives 0.348 for all of them."""
    assert round(walkthrough(AP_Y1, AP_Y2, weights=weights).kappa, 3) == 0.348
    if weights == "quadratic":
        assert round(quadratic_weighted_kappa(AP_Y1, AP_Y2), 3) == 0.348


def test_artstein_poesio_table4_multiclass():
    """Artstein and Poesio (2008) Table 4 (sklearn test_cohen_kappa): unweighted kappa = 0.8013."""
    result = walkthrough(AP_TABLE4_Y1, AP_TABLE4_Y2, weights="unweighted")
    assert result.observed.tolist() == [[46, 0, 0], [6, 32, 6], [0, 0, 10]]
    assert round(result.kappa, 4) == 0.8013
    table = walkthrough_from_table(result.observed, weights="unweighted")
    assert table.kappa == pytest.approx(result.kappa, abs=EXACT)


@pytest.mark.parametrize(("weights", "published"),
                         [("unweighted", 0.9315), ("linear", 0.9412), ("quadratic", 0.9541)])
def test_artstein_poesio_weighting_example(weights, published):
    """sklearn test_cohen_kappa weighting example on Table 4's marginals: 0.9315, 0.9412, 0.9541."""
    result = walkthrough(AP_TABLE4_Y1, AP_WEIGHTED_Y2, weights=weights)
    assert result.observed.tolist() == [[46, 0, 0], [4, 40, 0], [0, 0, 10]]
    assert round(result.kappa, 4) == published
    assert walkthrough_from_table(result.observed, weights=weights).kappa == pytest.approx(
        result.kappa, abs=EXACT)
    assert walkthrough(AP_TABLE4_Y1, AP_WEIGHTED_Y2, weights=weights, scale="observed").kappa == (
        pytest.approx(result.kappa, abs=EXACT))
    if weights == "quadratic":
        assert round(quadratic_weighted_kappa(AP_TABLE4_Y1, AP_WEIGHTED_Y2), 4) == published


# --- Seed 000 (Spanish Kaggle notebook, PetFinder ratings 0..4) -------------------------------

SEED000_ACTUALS = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1]
SEED000_PREDS = [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]


def test_seed000_worked_example():
    """Seed 000: N = 5 (ratings 0..4), w = (i-j)^2/16, histograms as the notebook describes them
    ("3 valores con calificación 1, 1 con 2, 1 con 3, 5 con 4"), kappa equal to Ben Hamner's."""
    result = walkthrough(SEED000_ACTUALS, SEED000_PREDS)
    assert result.labels.tolist() == [0, 1, 2, 3, 4]  # data min..max, which is the notebook's 0..4
    assert result.actual_hist.tolist() == [0, 3, 1, 1, 5]
    assert result.predicted_hist.tolist() == [4, 4, 2, 0, 0]
    assert result.observed.tolist() == [
        [0, 0, 0, 0, 0],
        [0, 3, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 1, 0, 0, 0],
        [4, 0, 1, 0, 0],
    ]
    i, j = np.indices((5, 5))
    assert np.array_equal(result.weights, (i - j) ** 2 / 16)
    assert result.observed_norm.sum() == pytest.approx(1.0)
    assert result.expected_norm.sum() == pytest.approx(1.0)
    assert result.kappa == pytest.approx(hamner_qwk(SEED000_ACTUALS, SEED000_PREDS), abs=EXACT)
    assert result.kappa == pytest.approx(-0.13924050632911378, abs=EXACT)
    assert Fraction(result.kappa).limit_denominator(1000) == Fraction(-11, 79)
    assert exact_qwk(SEED000_ACTUALS, SEED000_PREDS) == Fraction(-11, 79)
    assert quadratic_weighted_kappa(SEED000_ACTUALS, SEED000_PREDS) == pytest.approx(
        result.kappa, abs=EXACT)


def test_seed000_perfect_agreement_is_one():
    """Seed 000, "¿Qué pasa si los datos reales y las predicciones coinciden con el 100%?": 1.0."""
    ratings = [4, 4, 3, 4, 4, 4, 1, 1, 2, 0]
    assert walkthrough(ratings, ratings).kappa == 1.0
    assert quadratic_weighted_kappa(ratings, ratings) == 1.0


def test_seed000_false_claim_all_zero_versus_all_four_is_zero_not_minus_one():
    """Seed 000 claims that all actuals 0 and all predictions 4 score -1. They score 0: the
    marginals are fixed, so the observed table *is* the chance table (O = E) and kappa = 1 - 1."""
    actual, predicted = [0] * 10, [4] * 10
    for kwargs in ({}, {"min_rating": 0, "max_rating": 4}):
        result = walkthrough(actual, predicted, **kwargs)
        assert np.allclose(result.observed, result.expected)
        assert result.kappa == 0.0
        assert quadratic_weighted_kappa(actual, predicted, **kwargs) == 0.0
    assert hamner_qwk(actual, predicted) == 0.0


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_a_pair_that_really_gives_minus_one(weights):
    """Complete disagreement at the two ends of the scale: [0, 4] vs [4, 0] gives kappa = -1."""
    assert walkthrough([0, 4], [4, 0], weights=weights).kappa == pytest.approx(-1.0)
    assert walkthrough([0, 4], [4, 0], weights=weights, min_rating=0, max_rating=4).kappa == (
        pytest.approx(-1.0))
    assert quadratic_weighted_kappa([0, 4, 0, 4], [4, 0, 4, 0]) == pytest.approx(-1.0)


# --- Seed 001 (Chinese note, Ben Hamner's code) -----------------------------------------------

SEED001_A = [0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]
SEED001_B = [2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]


def test_seed001_twenty_items():
    """Seed 001 runs Ben Hamner's code on these 20 items without printing the result; its own
    (transcribed) code and an exact rational computation both give 171/196 = 0.87244897959..."""
    result = walkthrough(SEED001_A, SEED001_B)
    assert result.n == 20
    assert result.labels.tolist() == [0, 1, 2, 3, 4, 5]
    assert result.kappa == pytest.approx(hamner_qwk(SEED001_A, SEED001_B), abs=EXACT)
    assert exact_qwk(SEED001_A, SEED001_B) == Fraction(171, 196)
    assert result.kappa == pytest.approx(171 / 196, abs=EXACT)
    assert quadratic_weighted_kappa(SEED001_A, SEED001_B) == pytest.approx(171 / 196, abs=EXACT)


# --- Seed 002 (Spanish note: kappa of two binary classifiers) ---------------------------------


def binary_kappa_formula_12(table) -> float:
    """Seed 002, formula (12): kappa = 2 (P(A∩B) - P(A)P(B)) / (P(A) + P(B) - 2 P(A)P(B)), with A
    "classifier A says positive" (row 0) and B "classifier B says positive" (column 0)."""
    (tp, fn), (fp, tn) = table
    n = tp + fn + fp + tn
    p_a, p_b, p_ab = (tp + fn) / n, (tp + fp) / n, tp / n
    return 2 * (p_ab - p_a * p_b) / (p_a + p_b - 2 * p_a * p_b)


@pytest.mark.parametrize("table", [AP_TABLE1, [[31, 12], [4, 58]], [[10, 0], [0, 5]],
                                   [[3, 7], [8, 2]], [[1, 1], [1, 1]], [[45, 15], [25, 15]]])
def test_seed002_binary_formula_equals_unweighted_kappa(table):
    """Seed 002, formula (12), equals Cohen's kappa on a 2x2 table (and, with two categories,
    the linear and quadratic weighted kappas)."""
    expected = binary_kappa_formula_12(table)
    for weights in ("unweighted", "linear", "quadratic"):
        assert walkthrough_from_table(table, weights=weights).kappa == pytest.approx(
            expected, abs=EXACT)


def test_seed002_special_cases():
    """Seed 002: independent classifiers (P(A∩B) = P(A)P(B)) give 0, identical ones give 1."""
    independent = [[6, 14], [24, 56]]  # P(A) = 0.2, P(B) = 0.3, P(A∩B) = 0.06
    assert binary_kappa_formula_12(independent) == pytest.approx(0.0, abs=EXACT)
    assert walkthrough_from_table(independent, weights="unweighted").kappa == pytest.approx(
        0.0, abs=EXACT)
    assert walkthrough_from_table([[7, 0], [0, 13]], weights="unweighted").kappa == 1.0


# --- Seed 003 (English notebook, PANDA competition) --------------------------------------------

SEED003_ACTUAL = [2, 2, 2, 3, 4, 5, 5, 5, 5, 5]
SEED003_PRED = [2, 2, 2, 3, 2, 1, 1, 1, 1, 3]


def test_seed003_matrices_and_kappa():
    """Seed 003 prints C (= O), the histograms [0,3,1,1,5] and [4,4,2,0,0], E = outer / 10, the
    5x5 weights (0.0625, 0.25, 0.5625, 1) and kappa = -0.13924050632911378 (three methods)."""
    result = walkthrough(SEED003_ACTUAL, SEED003_PRED)
    assert result.labels.tolist() == [1, 2, 3, 4, 5]
    assert result.observed.tolist() == [
        [0, 0, 0, 0, 0],
        [0, 3, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 1, 0, 0, 0],
        [4, 0, 1, 0, 0],
    ]
    assert result.actual_hist.tolist() == [0, 3, 1, 1, 5]
    assert result.predicted_hist.tolist() == [4, 4, 2, 0, 0]
    np.testing.assert_allclose(result.expected, [
        [0, 0, 0, 0, 0],
        [1.2, 1.2, 0.6, 0, 0],
        [0.4, 0.4, 0.2, 0, 0],
        [0.4, 0.4, 0.2, 0, 0],
        [2, 2, 1, 0, 0],
    ], atol=EXACT)
    # The notebook's two spelled-out cells: E_{2,2} = 10 * 30% * 40% = 1.2, E_{5,2} = 2.
    assert result.expected[1, 1] == pytest.approx(1.2)
    assert result.expected[4, 1] == pytest.approx(2.0)
    np.testing.assert_array_equal(result.weights, [
        [0, 0.0625, 0.25, 0.5625, 1],
        [0.0625, 0, 0.0625, 0.25, 0.5625],
        [0.25, 0.0625, 0, 0.0625, 0.25],
        [0.5625, 0.25, 0.0625, 0, 0.0625],
        [1, 0.5625, 0.25, 0.0625, 0],
    ])
    assert result.kappa == pytest.approx(-0.13924050632911378, abs=EXACT)
    assert quadratic_weighted_kappa(SEED003_ACTUAL, SEED003_PRED) == pytest.approx(
        -0.13924050632911378, abs=EXACT)
    assert exact_qwk(SEED003_ACTUAL, SEED003_PRED) == Fraction(-11, 79)


def test_seed003_weight_matrix_example_cells():
    """Seed 003: predicting grade 2 as 1 costs (2-1)^2/(5-1)^2 = 0.0625, as 4 costs 0.25."""
    result = walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    assert result.weights[2, 1] == 0.0625
    assert result.weights[2, 4] == 0.25


def test_seed003_kappa_from_the_printed_matrices():
    """Seed 003, "Method 1": 1 - sum(w * C) / sum(w * E) with its printed C and E."""
    result = walkthrough(SEED003_ACTUAL, SEED003_PRED)
    kappa = 1 - (result.weights * result.observed).sum() / (result.weights * result.expected).sum()
    assert kappa == pytest.approx(-0.13924050632911378, abs=EXACT)


# --- Seed 004 (Turkish note, scikit-learn) -----------------------------------------------------


def test_seed004_sklearn_quadratic_score():
    """Seed 004: cohen_kappa_score(y_true, y_pred, weights='quadratic') = 0.9538461538461538."""
    y_true = [0, 1, 2, 2, 3, 4, 4, 4, 3, 2, 1, 0]
    y_pred = [0, 2, 2, 2, 3, 4, 4, 3, 3, 2, 1, 0]
    assert walkthrough(y_true, y_pred).kappa == pytest.approx(0.9538461538461538, abs=EXACT)
    assert walkthrough(y_true, y_pred, scale="observed").kappa == pytest.approx(
        0.9538461538461538, abs=EXACT)
    assert quadratic_weighted_kappa(y_true, y_pred) == pytest.approx(0.9538461538461538, abs=EXACT)
    assert exact_qwk(y_true, y_pred) == Fraction(62, 65)
