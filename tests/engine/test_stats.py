"""Standard errors, z, p-value and confidence interval of kappa (``kappa_statistics``).

Sources:

* SAS PROC FREQ (AGREE option) printout for the table [[0, 4, 1], [0, 8, 0], [0, 1, 5]], as
  statsmodels reproduces it in ``statsmodels/stats/tests/test_inter_rater.py``
  (``TestUnweightedCohens``/``TestWeightedCohens``, "comparison to printout of a SAS example"). SAS
  weighs kappa with Cicchetti-Allison weights by default, our ``"linear"``. The values are given to
  4 decimals. (The SAS documentation's own Getting Started example, the skin condition study, is in
  the reference corpus only as data, its output being an image; it is checked against statsmodels
  below instead.)
* R package statpsych, ``ci.kappa`` help page example: ci.kappa(.05, 31, 12, 4, 58) gives Cohen's
  kappa 0.676, SE 0.0734, 95% CI [0.532, 0.820].
* R package irr, ``kappa2`` on the ``anxiety`` data (raters 2 and 3), as recorded in statsmodels'
  ``test_cohens_kappa_irr``: kappa, z and p for unweighted, "equal" (linear) and "squared"
  (quadratic) weights. irr drops the unused rating 5, i.e. our ``scale="observed"``.
* statsmodels.stats.inter_rater.cohens_kappa (Fleiss, Cohen and Everitt 1969 variances) on several
  tables, for every weighting, to full precision.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from statsmodels.stats.inter_rater import cohens_kappa

from qwk_explained import InputError, kappa_statistics, walkthrough, walkthrough_from_table

SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
SKIN_CONDITION = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]  # SAS PROC FREQ
# R irr's anxiety data set: 20 subjects, 3 raters (columns), ratings 1..6.
ANXIETY = np.array([
    3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3,
    3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4,
    2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2,
]).reshape(20, 3, order="F")

STATSMODELS_WT = {"unweighted": None, "linear": "linear", "quadratic": "quadratic"}


def _random_tables():
    rng = np.random.default_rng(20240601)
    tables = []
    for size in (2, 3, 4, 5, 6, 8):
        table = rng.integers(0, 12, size=(size, size)) + np.diag(rng.integers(0, 30, size))
        tables.append(table)
    return tables


TABLES = [SAS_TABLE, SKIN_CONDITION, [[31, 12], [4, 58]], [[20, 20], [10, 50]],
          [[46, 0, 0], [6, 32, 6], [0, 0, 10]], [[1, 2], [3, 4]], *_random_tables()]


# --- published values ---------------------------------------------------------------------------


@pytest.mark.parametrize(("weights", "published"), [
    # kappa, ASE, 95% lower, 95% upper, ASE under H0, Z, two-sided p
    ("unweighted", (0.4842, 0.1380, 0.2137, 0.7547, 0.1484, 3.2626, 0.0011)),
    ("linear", (0.4701, 0.1457, 0.1845, 0.7558, 0.1426, 3.2971, 0.0010)),
])
def test_sas_proc_freq_printout(weights, published):
    """SAS PROC FREQ printout reproduced in statsmodels' test_inter_rater.py (4 decimals)."""
    stats = walkthrough_from_table(SAS_TABLE, weights=weights).statistics()
    ours = (stats.kappa, stats.se, stats.ci_low, stats.ci_high, stats.se0, stats.z, stats.p_value)
    assert ours == pytest.approx(published, abs=5e-5)


def test_statpsych_ci_kappa_help_example():
    """R statpsych ci.kappa(.05, 31, 12, 4, 58): Cohen's kappa 0.676, SE 0.0734, CI [.532, .820]."""
    stats = walkthrough_from_table([[31, 12], [4, 58]], weights="unweighted").statistics(0.95)
    assert round(stats.kappa, 3) == 0.676
    assert round(stats.se, 4) == 0.0734
    assert (round(stats.ci_low, 3), round(stats.ci_high, 3)) == (0.532, 0.820)


@pytest.mark.parametrize(("weights", "kappa", "z", "p_value"), [
    ("unweighted", -0.006289308, -0.0604067, 0.9518317),
    ("linear", 0.1459075, 1.282472, 0.1996772),
    ("quadratic", 0.2520325, 1.437451, 0.1505898),
])
def test_r_irr_kappa2_anxiety(weights, kappa, z, p_value):
    """R irr kappa2(anxiety[, 2:3], weight) as recorded in statsmodels' test_cohens_kappa_irr."""
    result = walkthrough(ANXIETY[:, 1], ANXIETY[:, 2], weights=weights, scale="observed")
    assert result.labels.tolist() == [1, 2, 3, 4, 6]
    stats = result.statistics()
    assert stats.kappa == pytest.approx(kappa, abs=1e-6)
    assert stats.z == pytest.approx(z, abs=1e-5)
    assert stats.p_value == pytest.approx(p_value, abs=1e-6)


# --- statsmodels, full precision ------------------------------------------------------------------


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{len(t)}x{len(t)}-{int(np.sum(t))}")
def test_matches_statsmodels(table, weights):
    """kappa, SE, SE under H0, z, two-sided p and the 95% CI equal statsmodels.cohens_kappa."""
    expected = cohens_kappa(np.asarray(table), wt=STATSMODELS_WT[weights])
    stats = walkthrough_from_table(table, weights=weights).statistics(0.95)
    assert stats.kappa == pytest.approx(expected.kappa, rel=1e-10, abs=1e-12)
    assert stats.se == pytest.approx(expected.std_kappa, rel=1e-9, abs=1e-12)
    assert stats.se0 == pytest.approx(expected.std_kappa0, rel=1e-9, abs=1e-12)
    assert stats.z == pytest.approx(expected.z_value, rel=1e-9, abs=1e-12)
    assert stats.p_value == pytest.approx(expected.pvalue_two_sided, rel=1e-8, abs=1e-15)
    assert stats.ci_low == pytest.approx(expected.kappa_low, rel=1e-9, abs=1e-12)
    assert stats.ci_high == pytest.approx(expected.kappa_upp, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("confidence", [0.90, 0.95, 0.99])
@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_confidence_interval_at_other_levels(weights, confidence):
    """CI = kappa -/+ z_(1 - alpha/2) * ASE, with statsmodels' ASE and scipy's normal quantile."""
    for table in (SAS_TABLE, SKIN_CONDITION):
        expected = cohens_kappa(np.asarray(table), wt=STATSMODELS_WT[weights])
        half = norm.ppf(0.5 + confidence / 2) * expected.std_kappa
        stats = walkthrough_from_table(table, weights=weights).statistics(confidence)
        assert stats.confidence == confidence
        assert stats.z_critical == pytest.approx(norm.ppf(0.5 + confidence / 2), rel=1e-12)
        assert stats.ci_low == pytest.approx(expected.kappa - half, rel=1e-9)
        assert stats.ci_high == pytest.approx(expected.kappa + half, rel=1e-9)


def test_ninety_percent_interval_is_inside_the_ninety_five():
    result = walkthrough_from_table(SKIN_CONDITION)
    wide, narrow = result.statistics(0.95), result.statistics(0.90)
    assert wide.ci_low < narrow.ci_low < result.kappa < narrow.ci_high < wide.ci_high
    assert narrow.se == wide.se and narrow.z == wide.z and narrow.p_value == wide.p_value


def test_z_and_p_value_relation():
    """z = kappa / SE0 and p = 2 (1 - Phi(|z|)) (two-sided)."""
    for table in TABLES:
        stats = walkthrough_from_table(table).statistics()
        assert stats.z == pytest.approx(stats.kappa / stats.se0)
        assert stats.p_value == pytest.approx(2 * norm.sf(abs(stats.z)), rel=1e-9, abs=1e-300)


def test_p_o_and_p_e_are_agreement_proportions():
    """Unweighted: P_o is the diagonal share, P_e the chance diagonal share, kappa their ratio."""
    result = walkthrough_from_table(SAS_TABLE, weights="unweighted")
    stats = result.statistics()
    table = np.asarray(SAS_TABLE)
    n = table.sum()
    assert stats.p_o == pytest.approx(np.trace(table) / n)
    assert stats.p_e == pytest.approx((table.sum(1) @ table.sum(0)) / n**2)
    assert (stats.p_o - stats.p_e) / (1 - stats.p_e) == pytest.approx(stats.kappa)


# --- custom weights, degenerate tables, bad input -----------------------------------------------


def test_custom_weights_match_statsmodels_and_ignore_the_scale_of_the_weights():
    """A custom disagreement matrix with maximum 1 is what statsmodels' 2-D weights mean; our
    statistics convert with a = 1 - w / max(w), so multiplying w by 7 changes nothing."""
    weights = np.array([[0, 0.3, 1, 1], [0.3, 0, 0.5, 1], [1, 0.5, 0, 0.2], [1, 1, 0.2, 0]])
    expected = cohens_kappa(np.asarray(SKIN_CONDITION), weights=weights)
    stats = walkthrough_from_table(SKIN_CONDITION, weights=weights).statistics()
    scaled = walkthrough_from_table(SKIN_CONDITION, weights=7 * weights).statistics()
    assert stats.kappa == pytest.approx(expected.kappa, rel=1e-10)
    assert stats.se == pytest.approx(expected.std_kappa, rel=1e-9)
    assert stats.se0 == pytest.approx(expected.std_kappa0, rel=1e-9)
    for name in ("kappa", "se", "se0", "z", "p_value", "ci_low", "ci_high", "p_o", "p_e"):
        assert getattr(scaled, name) == pytest.approx(getattr(stats, name), rel=1e-9)


def test_vectors_and_table_give_the_same_statistics():
    result = walkthrough(ANXIETY[:, 0], ANXIETY[:, 1], weights="linear")
    from_table = walkthrough_from_table(result.observed, weights="linear")
    assert result.statistics() == from_table.statistics()
    assert kappa_statistics(result, 0.9) == result.statistics(0.9)


def test_perfect_agreement_has_zero_standard_error():
    stats = walkthrough_from_table([[5, 0, 0], [0, 3, 0], [0, 0, 2]]).statistics()
    expected = cohens_kappa(np.array([[5, 0, 0], [0, 3, 0], [0, 0, 2]]), wt="quadratic")
    assert stats.kappa == 1.0
    assert stats.se == pytest.approx(0.0, abs=1e-7) and expected.std_kappa == pytest.approx(
        0.0, abs=1e-7)
    assert stats.ci_low == pytest.approx(1.0, abs=1e-6)
    assert stats.se0 == pytest.approx(expected.std_kappa0)
    assert stats.z > 0 and stats.p_value < 0.05


@pytest.mark.parametrize("result", [
    walkthrough([3, 3, 3], [3, 3, 3]),                       # one rating: undefined
    walkthrough([3, 3, 3], [3, 3, 3], min_rating=1, max_rating=5),  # no chance disagreement
    walkthrough_from_table([[0, 0], [0, 9]], weights="linear"),
])
def test_undefined_kappa_has_no_statistics(result):
    assert result.kappa is None
    stats = result.statistics(0.9)
    assert stats.kappa is None and stats.confidence == 0.9
    assert [stats.se, stats.se0, stats.z, stats.p_value, stats.ci_low, stats.ci_high,
            stats.p_o, stats.p_e] == [None] * 8


def test_all_zero_custom_weights_have_no_statistics():
    result = walkthrough_from_table([[1, 2], [3, 4]], weights=[[0, 0], [0, 0]])
    assert result.kappa is None
    assert result.statistics().se is None


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, "0.9", None, math.nan, math.inf, True])
def test_bad_confidence(confidence):
    result = walkthrough_from_table(SAS_TABLE)
    with pytest.raises(InputError) as caught:
        result.statistics(confidence)
    assert caught.value.code == "bad_confidence"
    assert caught.value.params == {"value": str(confidence)}


# --- a variance that is exactly 0 --------------------------------------------------------------


@st.composite
def _ratings(draw: st.DrawFn) -> tuple[list[int], int]:
    size = draw(st.integers(2, 6))
    n = draw(st.integers(5, 60))
    return draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n)), size


@settings(max_examples=300, deadline=None)
@given(drawn=_ratings(), weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_perfect_agreement_has_a_standard_error_of_exactly_zero(drawn, weights):
    """Teaching audit, defect 3: 6.7 % of perfect-agreement inputs got SE = 1e-8 from rounding
    and printed an "interval from 1 to 1". The variance is the spread of one term over the
    occupied cells, 0 exactly when that term is the same everywhere (exact arithmetic agrees)."""
    actual, size = drawn
    assume(len(set(actual)) > 1)
    same = walkthrough(actual, actual, weights=weights, min_rating=0, max_rating=size - 1)
    assert same.statistics().se == 0.0


@settings(max_examples=200, deadline=None)
@given(drawn=_ratings())
def test_perfect_reversal_has_a_standard_error_of_exactly_zero(drawn):
    """Every rating paired with its mirror image on a symmetric histogram: quadratic kappa is
    -1, the largest disagreement the margins allow, and its standard error is exactly 0."""
    half, size = drawn
    actual = half + [size - 1 - a for a in half]
    assume(len(set(actual)) > 1)
    result = walkthrough(actual, [size - 1 - a for a in actual], min_rating=0,
                         max_rating=size - 1)
    stats = result.statistics()
    assert stats.kappa == pytest.approx(-1.0) and stats.se == 0.0


@settings(max_examples=300, deadline=None)
@given(drawn=_ratings(), constant=st.integers(0, 5),
       weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_a_constant_rater_has_no_z(drawn, constant, weights):
    """Teaching audit, defect 3: 23 % of constant-rater inputs printed "z = 0 / 0 = 0, p = 1".
    Under chance agreement nothing varies when one rater is constant: SE0 is exactly 0 and
    neither z nor p exists."""
    actual, size = drawn
    predicted = [min(constant, size - 1)] * len(actual)
    result = walkthrough(actual, predicted, weights=weights, min_rating=0, max_rating=size - 1)
    stats = result.statistics()
    assume(stats.kappa is not None)
    assert stats.se0 == 0.0 and stats.z is None and stats.p_value is None


def test_the_audits_diagonal_table_has_no_interval():
    """The audit's example: the diagonal table 5, 5, 1, 8, 7, 4 printed "from 1 to 1"."""
    stats = walkthrough_from_table(np.diag([5, 5, 1, 8, 7, 4])).statistics()
    assert (stats.kappa, stats.se) == (1.0, 0.0)
    constant = walkthrough_from_table([[0, 0, 0, 3], [0, 0, 0, 4], [0, 0, 0, 7], [0, 0, 0, 1]])
    assert constant.statistics().z is None
