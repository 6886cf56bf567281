"""Where kappa is lost, how sure it is and the comparison of two models, in words.

Sources of truth: the engine's numbers (each sentence must state them), invariants of the
wording (every sentence renders in every language for any data, with no placeholder left), and
the cases where a sentence would be false (perfect agreement, a fix that does not pay, intervals
that agree): the sentence is then not said.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwk_explained import compare, walkthrough, walkthrough_from_table
from qwk_explained.core.paired import Comparison
from qwk_explained.present import comparison, losses, uncertainty
from qwk_explained.present.i18n import LANGUAGES, load, t
from qwk_explained.teaching.uncertainty import compare_intervals, interval_versus_test

ENGLISH = load("en")
PROPERTIES = settings(max_examples=40, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
ADOPTION = ([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])


def test_key_families_built_from_codes_exist():
    expected = [f"influence.col_{name}" for name in losses.FIX_COLUMNS]
    expected += [f"uncertainty.reason_{reason}" for reason in
                 ("small_sample", "skewed", "near_one", "undefined_resamples", "approximation")]
    expected += [f"uncertainty.intervals_disagree_{method}" for method in ("bca", "percentile")]
    expected += ["uncertainty.interval_excludes_zero", "uncertainty.test_rejects"]
    expected += [f"compare.model_{model}" for model in ("a", "b")]
    expected += [f"errors.in_{column}" for column in ("actual", "model_a", "model_b")]
    assert [key for key in expected if key not in ENGLISH] == []


def _all_sentences(result, lang: str) -> list[str]:
    stats = result.statistics()
    boot = result.bootstrap(200, seed=1)
    texts = [s.text for s in losses.cost_sentences(result, lang)]
    texts += [s.text for s in losses.signed_sentences(result, lang)]
    texts += [s.text for s in losses.influence_sentences(result, lang)]
    texts += ["".join(losses.fix_cells(fix)) for fix in losses.fixes(result, lang)]
    texts += [s.text for s in uncertainty.bootstrap_sentences(lang, result, boot)]
    texts += [s.text for s in uncertainty.disagreement_sentences(lang, result, stats, boot)]
    texts += [s.text for s in uncertainty.se_versus_se0(lang, result, stats)]
    for kappa0 in (0.0, 0.6):
        texts += [s.text for s in uncertainty.kappa0_sentences(lang, result.kappa_test(kappa0),
                                                               boot)]
    return texts


@PROPERTIES
@given(actual=st.lists(st.integers(0, 4), min_size=1, max_size=30), data=st.data())
def test_every_sentence_renders_in_every_language(actual, data):
    n = len(actual)
    predicted = data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    weights = data.draw(st.sampled_from(["quadratic", "linear", "unweighted"]))
    result = walkthrough(actual, predicted, weights=weights)
    for lang in LANGUAGES:
        for text in _all_sentences(result, lang):
            assert text and not re.search(r"\{[a-z_]*\}", text)


@PROPERTIES
@given(actual=st.lists(st.integers(0, 3), min_size=2, max_size=20), data=st.data())
def test_every_comparison_sentence_renders(actual, data):
    n = len(actual)
    a = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    b = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    result = compare(actual, a, b, resamples=100)
    for lang in LANGUAGES:
        for sentence in comparison.comparison_sentences(lang, result):
            assert sentence.text and not re.search(r"\{[a-z_]*\}", sentence.text)


def test_caption_lists_the_costliest_cells_in_order_with_their_items():
    result = walkthrough(*ADOPTION)
    sentences = losses.cost_sentences(result, "en")
    assert [s.name for s in sentences] == ["explain", "costliest", "costliest", "costliest"]
    assert "(numbers 1, 4, 5, 6)" in sentences[1].text and "1.0127" in sentences[1].text
    assert "1.1392" in sentences[0].text


def test_long_item_lists_end_in_an_ellipsis():
    actual = [2] * 20 + [0] * 20
    predicted = [0] * 20 + [0] * 20
    text = losses.cost_sentences(walkthrough(actual, predicted), "en")[1].text
    assert "(numbers 1, 2, 3, 4, 5, 6, 7, 8, …)" in text


def test_a_table_names_cells_without_items():
    result = walkthrough_from_table([[5, 1], [2, 4]])
    texts = [s.text for s in losses.cost_sentences(result, "en")]
    assert not any("number" in text for text in texts)
    assert losses.fixes(result, "en")[0].listed is False


def test_perfect_agreement_has_nothing_to_fix_and_no_cost():
    result = walkthrough([0, 1, 2, 3], [0, 1, 2, 3])
    assert [s.name for s in losses.cost_sentences(result, "en")][-1] == "no_cost"
    assert [s.name for s in losses.influence_sentences(result, "en")] == ["nothing_to_fix"]
    assert losses.fixes(result, "en") == []


def test_undefined_kappa_says_so_everywhere():
    result = walkthrough([2, 2, 2], [2, 2, 2])
    assert [s.name for s in losses.cost_sentences(result, "en")] == ["undefined"]
    assert losses.signed_sentences(result, "en") == []
    assert [s.name for s in losses.influence_sentences(result, "en")] == ["undefined"]


def test_best_fix_sentence_is_the_first_of_the_ranked_fixes():
    result = walkthrough(*ADOPTION)
    best = losses.influence_sentences(result, "en")[-1]
    assert best.name == "best_fix" and "item 2 (rated 4) as 3 instead of 2" in best.text


def test_no_fix_that_pays_is_said_when_every_move_lowers_kappa():
    """Moving a prediction toward the actual rating also moves the chance disagreement: find a
    table where the best single move does not raise kappa, and check the wording."""
    rng = np.random.default_rng(3)
    for _ in range(2000):
        table = rng.integers(0, 4, size=(3, 3))
        if not table.sum():
            continue
        result = walkthrough_from_table(table)
        ranked = result.influence.ranked()
        if result.kappa is not None and ranked and ranked[0].gain <= 0:
            names = [s.name for s in losses.influence_sentences(result, "en")]
            assert names == ["explain", "no_gain"]
            return
    pytest.skip("no such table among the draws")


def test_disagreement_is_explained_only_where_there_is_one():
    small = walkthrough(*ADOPTION)
    stats, boot = small.statistics(), small.bootstrap(2000)
    names = [s.name for s in uncertainty.disagreement_sentences("en", small, stats, boot)]
    assert names[:2] == ["intervals_disagree", "reason_small_sample"]
    rng = np.random.default_rng(0)
    actual = rng.integers(0, 3, 3000)
    large = walkthrough(actual, np.where(rng.random(3000) < 0.7, actual,
                                         rng.integers(0, 3, 3000)))
    boot = large.bootstrap(2000)
    assert not compare_intervals(large, large.statistics(), boot).disagree
    assert uncertainty.disagreement_sentences("en", large, large.statistics(), boot) == []


def test_se_versus_se0_names_the_disagreement_about_zero_when_it_happens():
    result = walkthrough(*ADOPTION)
    stats = result.statistics(0.9)
    assert interval_versus_test(stats) == "interval_excludes_zero"
    names = [s.name for s in uncertainty.se_versus_se0("en", result, stats)]
    assert names == ["se_meaning", "se0_meaning", "se_compared", "interval_excludes_zero"]
    names = [s.name for s in uncertainty.se_versus_se0("en", result, result.statistics(0.95))]
    assert "interval_excludes_zero" not in names and "test_rejects" not in names


@pytest.mark.parametrize(("actual", "predicted"), [([2, 2, 2], [1, 2, 3]),  # a constant rater
                                                    ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])])  # SE = 0
def test_no_se_lesson_where_the_standard_error_is_0_by_construction(actual, predicted):
    """"SE = 0 says how far kappa would move" with "κ ± 1.96 × 0 = ?" under it taught nothing
    true about these numbers (found by the Spanish ledger re-read): the section is left out."""
    result = walkthrough(actual, predicted)
    stats = result.statistics()
    assert uncertainty.se_versus_se0("es", result, stats) == []
    blocks = uncertainty.uncertainty_blocks(result, stats, "es")
    assert t("es", "uncertainty.se_title") not in [getattr(b, "text", None) for b in blocks]


def test_flat_bootstrap_withholds_its_interval():
    result = walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    sentences = uncertainty.bootstrap_sentences("en", result, result.bootstrap(200))
    assert [s.name for s in sentences] == ["bootstrap_flat"]


def test_kappa0_sentences_choose_se0_for_zero_and_se_otherwise():
    result = walkthrough(*ADOPTION)
    zero = uncertainty.kappa0_sentences("en", result.kappa_test(0))[0].text
    other = uncertainty.kappa0_sentences("en", result.kappa_test(0.6))[0].text
    assert "SE₀ = 0.0993" in zero and "SE = 0.0741" in other
    assert "two-sided p < 0.0001" in other


@pytest.mark.parametrize("lang", LANGUAGES)
def test_comparison_verdicts(lang):
    rng = np.random.default_rng(5)
    actual = rng.integers(0, 5, 300)
    a = np.clip(actual + rng.choice([-2, -1, 0, 0, 1, 2], 300), 0, 4)
    better = np.where(rng.random(300) < 0.5, actual, a)
    real = comparison.comparison_sentences(lang, compare(actual, a, better, resamples=500))
    assert "verdict_real" in [s.name for s in real]
    assert t(lang, "compare.verdict_b_better", p="\x00", alpha="\x00").split("\x00")[0] in \
        next(s.text for s in real if s.name == "verdict_real")
    same = comparison.comparison_sentences(lang, compare(actual, a, a, resamples=100))
    assert "same_predictions" in [s.name for s in same]
    assert "verdict_noise" in [s.name for s in same]


def test_comparison_of_an_undefined_model_shows_the_other():
    result: Comparison = compare([3, 3, 3], [3, 3, 3], [3, 2, 3], resamples=100)
    names = [s.name for s in comparison.comparison_sentences("en", result)]
    assert names[:3] == ["undefined_a", "kappa_b", "constant_b"] or names[:2] == [
        "undefined_a", "kappa_b"]
    assert "no_difference" in names and "verdict_real" not in names


def test_cost_formulas_plug_in_the_engines_numbers():
    from qwk_explained.present import formulas

    result = walkthrough(*ADOPTION)
    assert formulas.cost_cell(result, 4, 0, "es").endswith(r"= 1{,}0127 \end{aligned}")
    assert r"(4 - 2) / 10" in formulas.signed_cost_cell(result, 4, 0) and "0.5063" in \
        formulas.signed_cost_cell(result, 4, 0)
    assert formulas.cost_cell(walkthrough([2, 2], [2, 2]), 0, 0).endswith(r"\text{?}")
    negative = formulas.kappa0_test_plugged(result.kappa_test(-0.2))
    assert r"- \left(-0.2\right)" in negative
    assert r"\mathrm{SE}_0" in formulas.kappa0_test_plugged(result.kappa_test(0))
