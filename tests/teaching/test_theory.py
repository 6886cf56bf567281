"""The theory page's maths (qwk_explained.teaching.theory, qwk_explained.present.theory_formulas).

Sources of truth: published worked examples (Wikipedia's 2 x 2 table: P_o = 0.7, P_e = 0.5,
kappa = 0.4; the kappa paradox tables of Feinstein and Cicchetti 1990, both P_o = 0.85), hand
computations written out below, the engine's matrix route (qwk_explained.walkthrough), and
invariants (both binary formulas agree; rescaling cancels; Lin's r * C_b split).
"""

from __future__ import annotations

import math
from typing import get_args

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwk_explained import InputError, walkthrough, walkthrough_from_table
from qwk_explained.present import theory_formulas
from qwk_explained.teaching import theory
from qwk_explained.teaching.examples import BY_NAME, EXAMPLES
from qwk_explained.teaching.interpret import landis_koch

counts = st.integers(min_value=0, max_value=60)
ratings = st.lists(st.integers(min_value=-3, max_value=6), min_size=1, max_size=40)


# --- Cohen's kappa of a 2 x 2 table ---------------------------------------------------------------


def test_wikipedia_example_published_values():
    """Wikipedia, Cohen's kappa: 20 yes-yes, 5 + 10 disagreements, 15 no-no."""
    k = theory.binary_kappa(*theory.DEFAULT_TABLE)
    assert (k.n, k.p_a, k.p_b, k.p_ab) == (50, 0.5, 0.6, 0.4)
    assert k.p_o == pytest.approx(0.7) and k.p_e == pytest.approx(0.5)
    assert k.kappa_agreement == pytest.approx(0.4) and k.kappa_events == pytest.approx(0.4)


def test_paradox_tables_same_agreement_different_kappa():
    """Feinstein and Cicchetti's paradox: P_o = 0.85 in both; kappa by hand:
    balanced P_e = .51*.54 + .49*.46 = .5008, kappa = .3492/.4992; skewed P_e = .1*.15 + .9*.85
    = .78, kappa = .07/.22."""
    balanced = theory.binary_kappa(*theory.PARADOX_TABLES["balanced"])
    skewed = theory.binary_kappa(*theory.PARADOX_TABLES["skewed"])
    assert balanced.p_o == pytest.approx(0.85) == skewed.p_o
    assert balanced.p_e == pytest.approx(0.5008) and skewed.p_e == pytest.approx(0.78)
    assert balanced.kappa_agreement == pytest.approx(0.3492 / 0.4992)
    assert skewed.kappa_agreement == pytest.approx(0.07 / 0.22)


@settings(max_examples=150, deadline=None)
@given(counts, counts, counts, counts)
def test_both_binary_formulas_equal_the_engine(n00, n01, n10, n11):
    """Invariant + engine: (P_o-P_e)/(1-P_e) = 2(P(AB)-P(A)P(B))/(P(A)+P(B)-2P(A)P(B)) = engine."""
    if n00 + n01 + n10 + n11 == 0:
        with pytest.raises(InputError) as raised:
            theory.binary_kappa(n00, n01, n10, n11)
        assert raised.value.code == "table_empty"
        return
    k = theory.binary_kappa(n00, n01, n10, n11)
    engine = walkthrough_from_table([[n00, n01], [n10, n11]], weights="unweighted").kappa
    if engine is None:
        assert k.kappa_agreement is None and k.kappa_events is None
        assert k.undefined_reason == "no_chance_disagreement"
    else:
        assert k.kappa_agreement == pytest.approx(engine, abs=1e-12)
        assert k.kappa_events == pytest.approx(engine, abs=1e-12)
        assert k.events_numerator == pytest.approx(k.p_o - k.p_e, abs=1e-12)
        assert k.events_denominator == pytest.approx(1 - k.p_e, abs=1e-12)
    by_weighting = theory.binary_by_weighting(k)
    assert len(set(by_weighting.values())) == 1, "two ratings: every weighting is Cohen's kappa"


@pytest.mark.parametrize(("table", "defined"), [
    ((9, 0, 0, 0), False), ((0, 0, 0, 4), False), ((0, 5, 0, 0), True), ((3, 0, 0, 3), True)])
def test_undefined_only_when_both_raters_use_one_same_rating(table, defined):
    """Hand cases: all in one diagonal cell is 0/0; both constant but different gives 0/1 = 0."""
    k = theory.binary_kappa(*table)
    assert (k.kappa_agreement is not None) is defined
    if table == (0, 5, 0, 0):
        assert k.kappa_agreement == 0 and k.kappa_events == 0


def test_binary_rejects_bad_counts():
    with pytest.raises(InputError) as raised:
        theory.binary_kappa(1, -2, 3, 4)
    assert raised.value.code == "table_bad_count"
    with pytest.raises(InputError):
        theory.binary_kappa(1, 2.5, 3, 4)


# --- weightings and rescaling ---------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_rescaling_leaves_kappa_unchanged(example):
    """Invariant: c*w, and O, E as counts, give the same kappa; sums scale by c and by n."""
    result = walkthrough(example.actual, example.predicted)
    shares, scaled, as_counts = theory.rescaling(result, 7.0)
    assert scaled.numerator == pytest.approx(7 * shares.numerator)
    assert scaled.denominator == pytest.approx(7 * shares.denominator)
    assert as_counts.numerator == pytest.approx(result.n * shares.numerator)
    assert as_counts.denominator == pytest.approx(result.n * shares.denominator)
    if result.kappa is None:
        assert scaled.kappa is None and as_counts.kappa is None
    else:
        assert scaled.kappa == pytest.approx(result.kappa)
        assert as_counts.kappa == pytest.approx(result.kappa)


def test_kappa_by_weighting_matches_the_engine():
    """Engine: each weighting recomputed from vectors equals the one recomputed from O."""
    example = BY_NAME["seed_zh"]
    result = walkthrough(example.actual, example.predicted)
    for kind, value in theory.kappa_by_weighting(result).items():
        assert value == pytest.approx(walkthrough(example.actual, example.predicted,
                                                  weights=kind).kappa)
    values = theory.kappa_by_weighting(result)
    assert values["quadratic"] > values["unweighted"], "near misses cost little"


# --- the closed form ------------------------------------------------------------------------------


def test_closed_form_by_hand_on_the_spanish_seed():
    """Hand computation: a = 4,4,3,4,4,4,1,1,2,1 (mean 2.8, var 1.76), b = 0,2,1,0,0,0,1,1,2,1
    (mean 0.8, var 0.56), sum (a-b)^2 = 72, kappa = 1 - 72 / (10 * (1.76 + 0.56 + 4)) = -0.1392."""
    example = BY_NAME["seed_es"]
    c = theory.closed_form(example.actual, example.predicted)
    assert (c.mean_a, c.mean_b) == pytest.approx((2.8, 0.8))
    assert (c.var_a, c.var_b) == pytest.approx((1.76, 0.56))
    assert c.sum_squared == 72
    assert c.kappa == pytest.approx(1 - 72 / 63.2)
    assert c.kappa == pytest.approx(walkthrough(example.actual, example.predicted).kappa)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_closed_form_equals_the_matrix_route(data):
    """Engine: quadratic weights on the full range = Lin's CCC = r * C_b (any offset, gaps)."""
    actual = data.draw(ratings)
    predicted = data.draw(st.lists(st.integers(-3, 6), min_size=len(actual),
                                   max_size=len(actual)))
    c = theory.closed_form(actual, predicted)
    engine = walkthrough(actual, predicted, weights="quadratic", scale="range").kappa
    if engine is None:
        assert c.kappa is None
        return
    assert c.kappa == pytest.approx(engine, abs=1e-9)
    a, b = np.asarray(actual, float), np.asarray(predicted, float)
    lin = 2 * np.cov(a, b, bias=True)[0, 1] / (a.var() + b.var() + (a.mean() - b.mean()) ** 2)
    assert c.kappa == pytest.approx(lin, abs=1e-9)
    if c.pearson is not None:
        assert c.pearson * c.bias_factor == pytest.approx(c.kappa, abs=1e-9)


def test_closed_form_with_large_ratings_keeps_precision():
    """Invariant: shifting every rating by 10^8 changes no difference, so no kappa."""
    example = BY_NAME["seed_tr"]
    shift = 10**8
    shifted = theory.closed_form(np.array(example.actual) + shift,
                                 np.array(example.predicted) + shift)
    plain = theory.closed_form(example.actual, example.predicted)
    assert shifted.kappa == pytest.approx(plain.kappa, abs=1e-12)


def test_unused_rating_breaks_equality_with_the_observed_scale():
    """Engine: with rating 2 unused, the observed scale differs; the closed form on positions
    (0, 1, 2 for ratings 0, 1, 3) gives the observed scale's value again."""
    example = BY_NAME["unused_rating"]
    check = theory.check_closed_form(example.actual, example.predicted)
    assert check.unused == (2,)
    assert check.closed.kappa == pytest.approx(check.matrix.kappa)
    observed = walkthrough(example.actual, example.predicted, scale="observed").kappa
    assert check.observed_kappa == pytest.approx(observed)
    assert round(check.observed_kappa, 4) != round(check.closed.kappa, 4)
    assert check.positions.kappa == pytest.approx(observed)


def test_check_without_gap_or_with_too_wide_range():
    seed = BY_NAME["seed_es"]
    check = theory.check_closed_form(seed.actual, seed.predicted)
    assert check.unused == () and check.observed_kappa is None and check.positions is None
    wide = theory.check_closed_form([0, 500, 3], [1, 500, 0])
    assert wide.matrix is None and wide.matrix_error.code == "too_many_ratings"
    assert wide.closed.kappa is not None


def test_constant_ratings_are_undefined_on_both_routes():
    constant = BY_NAME["constant"]
    check = theory.check_closed_form(constant.actual, constant.predicted)
    assert check.closed.kappa is None and check.matrix.kappa is None
    assert check.closed.pearson is None and check.closed.bias_factor is None


# --- interpretation scales ------------------------------------------------------------------------


def test_landis_koch_band_is_the_shared_one():
    """Invariant: the theory page and the rest of the app name the same Landis and Koch band."""
    for value in np.linspace(-1, 1, 401):
        assert theory.band("landis_koch", float(value)) == landis_koch(float(value))
        assert theory.INTERPRETATION_SCALES["landis_koch"][0].contains(-0.01)


@pytest.mark.parametrize(("scale", "value", "code"), [
    ("altman", -0.3, "poor"), ("altman", 0.2, "poor"), ("altman", 0.21, "fair"),
    ("altman", 0.6, "moderate"), ("altman", 0.61, "good"), ("altman", 0.81, "very_good"),
    ("altman", 1.0, "very_good"),
    ("fleiss", 0.39, "poor"), ("fleiss", 0.4, "fair_good"), ("fleiss", 0.75, "fair_good"),
    ("fleiss", 0.76, "excellent"), ("fleiss", 1.0, "excellent"),
    ("landis_koch", 0.0, "slight"), ("landis_koch", 0.0001, "slight"),
    ("landis_koch", -0.0001, "poor"),
])
def test_published_band_boundaries(scale, value, code):
    """Altman (1991): <=0.20 poor ... 0.81-1.00 very good; Fleiss (1981): <0.40 poor,
    0.40-0.75 fair to good, >0.75 excellent; Landis and Koch at exactly 0: no agreement beyond
    chance (teaching audit, defect 12), not slight agreement."""
    assert theory.band(scale, value) == code


def test_band_of_undefined_and_rounding():
    assert theory.band("fleiss", None) is None and theory.band("altman", math.nan) is None
    assert theory.band("fleiss", 0.39996) == "fair_good", "rounded like the number shown (0.4)"


def test_every_scale_covers_minus_one_to_one_without_gaps():
    for scale, bands in theory.INTERPRETATION_SCALES.items():
        for value in np.round(np.linspace(-1, 1, 2001), 4):
            assert sum(b.contains(float(value)) for b in bands) == 1, (scale, value)
        assert scale in theory.SCALE_YEARS


def test_the_scales_are_exactly_the_literal_type():
    """Invariant: the type mypy checks ``band(scale, ...)`` against names every scale, and only
    those (a dict's keys are checked one by one, not for completeness)."""
    names = get_args(theory.InterpretationScale)
    assert tuple(theory.INTERPRETATION_SCALES) == names
    assert tuple(theory.SCALE_YEARS) == names


# --- LaTeX ----------------------------------------------------------------------------------------


def test_binary_plugged_uses_the_languages_numbers():
    lines = theory_formulas.binary_plugged(theory.binary_kappa(*theory.DEFAULT_TABLE), "tr")
    assert r"P_o = \frac{15 + 20}{50} = 0{,}7" in lines[1]
    assert lines[2].endswith("= 0{,}4") and lines[3].endswith("= 0{,}4")
    undefined = theory_formulas.binary_plugged(theory.binary_kappa(9, 0, 0, 0), "en")
    assert undefined[2].endswith(r"\frac{0}{0} = \text{?}")


def test_closed_form_latex_and_pearson():
    c = theory.closed_form(BY_NAME["seed_es"].actual, BY_NAME["seed_es"].predicted)
    text = theory_formulas.closed_form_plugged(c, "es")
    assert text.startswith(r"\kappa_q = 1 - \frac{72}{10 \cdot") and text.endswith("-0{,}1392")
    assert r"\bar a = 2{,}8" in theory_formulas.closed_form_moments(c, "es")
    assert theory_formulas.pearson_plugged(c, "en").endswith("= -0.1392")
    constant = theory.closed_form([2, 2], [2, 2])
    assert theory_formulas.closed_form_plugged(constant).endswith(r"\text{?}")
    assert theory_formulas.pearson_plugged(constant) is None
    negative = theory.closed_form([-3, -1], [-2, -2])
    assert r"- \left(-2\right))^2" in theory_formulas.closed_form_plugged(negative)


def test_rescaling_plugged_and_generic_formulas():
    result = walkthrough(BY_NAME["seed_en"].actual, BY_NAME["seed_en"].predicted)
    text = theory_formulas.rescaling_plugged(theory.rescaling(result, 7), "en")
    assert text.count(r"\frac") == 3 and text.endswith("= -0.1392")
    generic = ("agreement_kappa_generic", "binary_probabilities_generic", "unweighted_identity",
               "rescaling_generic", "quadratic_moments_generic", "closed_form_generic",
               "pearson_generic")
    for formula in (*(getattr(theory_formulas, name)() for name in generic),
                    *theory_formulas.binary_derivation()):
        assert formula.count("{") == formula.count("}"), formula


def test_the_example_of_disagreeing_scales_is_true():
    """Teaching audit, defect 8: "the same value can be 'moderate', 'good' or 'fair to good'" is
    false (Landis-Koch and Altman share their cut points). The page's example, 0.7, is
    substantial, good and fair to good: checked here against the bands themselves."""
    assert [theory.band(scale, 0.7) for scale in theory.INTERPRETATION_SCALES] == [
        "substantial", "good", "fair_good"]
    from qwk_explained.present.i18n import t

    text = t("en", "theory.scales_text")
    for scale, code in (("landis_koch", "substantial"), ("altman", "good"),
                        ("fleiss", "fair_good")):
        assert f'"{t("en", f"theory.band.{scale}.{code}").lower()}"' in text
    # No kappa is "moderate" on one scale and "good" on another (a sweep of every shown value).
    values = [k / 10_000 for k in range(-2_000, 10_001)]
    assert not any(theory.band("landis_koch", k) == "moderate" and theory.band("altman", k) ==
                   "good" for k in values)
