"""Honest statistics and sentences: every defect of the teaching audit that is not the checker's.

Sources of truth: the teaching audit's own cases ([0,1,2,3,4,4] vs [0,1,2,3,4,3]: CI 0.8797 to
1.0381; perfect agreement with n = 5: SE = 0; all-0 vs all-4: SE = SE0 = 0, kappa 0); statsmodels'
``cohens_kappa`` for kappa_max (0.80, 0.94, 0.773); Cicchetti and Fleiss (1977) and Cicchetti
(1981) for the 2N² items the large-sample standard error needs; numpy's own behaviour for a
negative index (``np.zeros(5)[-7]`` raises IndexError); the locales for every sentence.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa

from qwk_explained import cli, walkthrough, walkthrough_from_table
from qwk_explained.present import formulas, inference, worksheet
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number, format_p_value
from qwk_explained.teaching import conventions, theory
from qwk_explained.teaching.interpret import landis_koch, shown_interval
from tests.app.helpers import assert_clean, open_app
from tests.cli.helpers import flat

#: z with the 95 % interval's quantile as its subscript, as each language writes 0.975.
Z975 = {"en": "z₀.₉₇₅", "zh": "z₀.₉₇₅", "es": "z₀,₉₇₅", "tr": "z₀,₉₇₅"}

CLIPPED = walkthrough([0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4, 3])
PERFECT = walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
OPPOSITE = walkthrough([0, 0, 0, 0], [4, 4, 4, 4])
LARGE = walkthrough_from_table([[20, 5, 1], [4, 18, 3], [0, 2, 17]])  # n = 70 >= 2N² = 18


def test_the_interval_is_clipped_to_the_values_kappa_can_take():
    """Audit, defect 4: [0,1,2,3,4,4] vs [0,1,2,3,4,3] gives kappa ± z·SE = 0.8797 to 1.0381."""
    stats = CLIPPED.statistics()
    assert round(stats.ci_low, 4) == 0.8797 and round(stats.ci_high, 4) == 1.0381
    shown = shown_interval(CLIPPED, stats)
    assert (shown.low, shown.high, shown.clipped) == (stats.ci_low, 1.0, True)
    assert shown.small_sample and shown.min_items == 50
    latex = formulas.ci_plugged(stats, "en", shown)
    # kappa ± z·SE, cut at the ends of the scale, then what is left (over lines on a phone).
    assert r"\left[0.8797,\ 1.0381\right] \cap \left[-1,\ 1\right]" in latex
    assert re.search(r"= \\left\[0\.8797,\\ 1\\right\]( \\end\{aligned\})?$", latex)


@pytest.mark.parametrize(("result", "reason"), [(PERFECT, "se_zero"),
                                                (OPPOSITE, "constant_rater")])
def test_a_zero_standard_error_or_a_constant_rater_withholds_the_interval(result, reason):
    """Audit, defect 4: perfect agreement with n = 5 printed "95% CI from 1 to 1"; all-0 vs
    all-4 printed "from 0 to 0" next to "z cannot be computed"."""
    stats = result.statistics()
    shown = shown_interval(result, stats)
    assert shown.withheld == reason and shown.low is None
    assert formulas.ci_plugged(stats, "es", shown).endswith(formulas.UNDEFINED)
    sentences = inference.interval_sentences("es", result, stats)
    assert t("es", f"interval.withheld_{reason}") in sentences


def test_a_large_enough_sample_is_not_flagged():
    shown = shown_interval(LARGE, LARGE.statistics())
    assert not shown.small_sample and not shown.clipped and shown.withheld is None
    assert len(inference.interval_sentences("en", LARGE, LARGE.statistics())) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_line_says_all_of_it_in_each_language(lang, capsys):
    """All-0 vs all-4: Landis and Koch's "slight" with, apart, agreement exactly at chance; the
    interval withheld with its reason, never "from 0 to 0" and with no small-sample note after
    it, nor the standard error the table above it already gives (es review, W8); the band's
    caveat for a weighted kappa."""
    status = cli.main(["--actual", "0,0,0,0", "--predicted", "4,4,4,4", "--lang", lang])
    out = flat(capsys.readouterr().out)
    assert status == 0
    assert t(lang, "common.band.slight") in out and flat(t(lang, "common.kappa_at_chance")) in out
    assert flat(t(lang, "interval.withheld_constant_rater")) in out
    assert flat(t(lang, "interval.small_sample", n="4", used="2", min_items="8")) not in out
    assert flat(t(lang, "interval.se_only", se=format_number(0, lang))) not in out
    assert flat(t(lang, "common.band_caveat_weighted")) in out
    cli.main(["--actual", "0,1,2,3,4,4", "--predicted", "0,1,2,3,4,3", "--lang", lang])
    out = flat(capsys.readouterr().out)
    assert flat(t(lang, "interval.clipped", z=Z975[lang], low=format_number(0.8797, lang),
                  high=format_number(1.0381, lang))) in out
    assert flat(t(lang, "interval.small_sample", n="6", used="5", min_items="50")) in out


def test_unweighted_kappa_needs_no_caveat_for_its_bands():
    plain = walkthrough([0, 1, 2, 2], [0, 1, 2, 1], weights="unweighted")
    assert inference.band_caveat("en", plain) is None
    assert inference.band_caveat("en", walkthrough([0, 1, 2, 2], [0, 1, 2, 1])) is not None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_worksheet_shows_the_clipped_interval_and_its_notes(lang):
    text = worksheet.markdown(CLIPPED, lang)
    assert t(lang, "checker.ws.interval", low=format_number(0.8797, lang), high="1") in text
    assert t(lang, "interval.clipped", z=Z975[lang], low=format_number(0.8797, lang),
             high=format_number(1.0381, lang)) in text
    withheld = worksheet.markdown(PERFECT, lang)
    assert t(lang, "checker.ws.interval_withheld") in withheld
    assert t(lang, "interval.withheld_se_zero") in withheld
    assert t(lang, "common.standard_error") in text


def test_landis_and_koch_keep_slight_at_zero_and_chance_is_said_apart():
    """Teaching audit, defect 6: Landis and Koch (1977) call 0.00-0.20 "slight"; a band "no
    agreement beyond chance" was theirs in name only, and the theory page could not mark it.
    Kappa = 0 keeps their band, and a separate sentence says it is agreement at chance level."""
    assert OPPOSITE.kappa == 0 and landis_koch(OPPOSITE.kappa) == "slight"
    assert theory.band("landis_koch", 0.0) == "slight"
    for lang in LANGUAGES:
        assert inference.chance_sentence(lang, OPPOSITE) == t(lang, "common.kappa_at_chance")
        assert inference.chance_sentence(lang, walkthrough([0, 1], [0, 1])) is None


def test_an_all_zero_weight_matrix_gets_its_own_reason():
    """Audit, defect 13: zero custom weights were said to mean "every item in one rating"."""
    result = walkthrough([0, 1, 2], [0, 2, 1], weights=np.zeros((3, 3)))
    assert result.kappa is None and result.undefined_reason == "zero_weights"
    assert walkthrough([2, 2], [2, 2], min_rating=0, max_rating=3).undefined_reason == (
        "no_chance_disagreement")
    for lang in LANGUAGES:
        assert t(lang, "undefined.zero_weights") != t(lang, "undefined.no_chance_disagreement")


@pytest.mark.parametrize("counts", [(15, 10, 5, 20), *theory.PARADOX_TABLES.values()])
def test_kappa_max_equals_statsmodels(counts):
    """Audit, defect 6: the denominator is the largest agreement above chance only if the margins
    allow perfect agreement; kappa_max is the reachable maximum (statsmodels: 0.80, 0.94, 0.773)."""
    ours = theory.binary_kappa(*counts).kappa_max
    assert ours == pytest.approx(cohens_kappa(np.reshape(counts, (2, 2))).kappa_max, abs=1e-12)


def test_ratings_below_minus_n_stop_with_an_index_error():
    """Audit, defect 8: np.zeros(5)[-7] raises IndexError; np.zeros(5)[-3] counts silently."""
    with pytest.raises(IndexError):
        np.zeros(5)[-7]
    far = conventions.compare([-7, 0, 1, 2], [0, 0, 1, 2]).row("fixed_n")
    assert (far.reason, far.raises) == ("fixed_far_below", "IndexError")
    near = conventions.compare([-3, 0, 1, 2], [0, 0, 1, 2]).row("fixed_n")
    assert (near.reason, near.raises) == ("fixed_below", None)


def test_corrected_sentences_say_what_the_audit_asked():
    """Audit, defects 9 and 10, in English (the source the translations follow): the random
    slider is a probability with clipping; one miss by two costs as much as four misses by one."""
    assert "Probability" in t("en", "inputs.random_agreement_help")
    assert "end of the scale" in t("en", "inputs.random_agreement_help")
    why = t("en", "theory.why_quadratic_text")
    assert "one miss by two ratings costs as much as four misses by one" in why
    assert "a few large mistakes weigh more" not in why
    assert "1 − Pₑ" in t("en", "theory.cohen_text") and "κₘₐₓ" in t("en", "theory.cohen_text")


def _as_in_prose(label: str, lang: str) -> str:
    """A band label as a sentence quotes it: first letter lower case (Turkish I/İ kept apart)."""
    turkish = {"I": "ı", "İ": "i"} if lang == "tr" else {}
    return turkish.get(label[0], label[0].lower()) + label[1:]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_example_of_disagreeing_scales_can_happen(lang):
    """Audit, defect 8 (and the Chinese review's finding 3): the value the theory page quotes,
    κ = 0.7, really falls in the three bands the sentence names, each as its table names it."""
    text = t(lang, "theory.scales_text")
    assert format_number(0.7, lang) in text
    for scale in theory.INTERPRETATION_SCALES:
        label = t(lang, f"theory.band.{scale}.{theory.band(scale, 0.7)}")
        assert _as_in_prose(label, lang) in text, (scale, label)


# --- on the pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_walkthrough_reports_the_interval_with_its_notes(lang):
    """The kappa step: band, its caveat for a weighted kappa, the asymptotic SE and the notes."""
    at = open_app(lang=lang, actual="0,1,2,3,4,4", predicted="0,1,2,3,4,3")
    assert_clean(at)
    stats = CLIPPED.statistics()
    captions = [c.value for c in at.caption]
    assert t(lang, "common.band_caveat_weighted") in captions
    assert t(lang, "interval.clipped", z=Z975[lang], low=format_number(stats.ci_low, lang),
             high=format_number(stats.ci_high, lang)) in captions
    assert t(lang, "interval.small_sample", n="6", used="5", min_items="50") in captions
    latex = [f.value for f in at.latex]
    assert any(r"\cap" in formula for formula in latex)


def test_the_paradox_section_shows_kappa_max():
    at = open_app("theory", lang="es")
    assert_clean(at)
    shown = {m.value for m in at.metric if m.label == t("es", "theory.metric_kappa_max")}
    expected = {format_number(theory.binary_kappa(*counts).kappa_max, "es")
                for counts in theory.PARADOX_TABLES.values()}
    assert shown == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_z_test_carries_the_small_sample_note_and_the_exact_p_value(lang, capsys):
    """Teaching audit, defect 7: for [0, 1, 2] against [0, 2, 1] the tool printed p = 0.3865
    with no caveat, though the rule of Cicchetti and Fleiss concerns the z test; the exact
    permutation p-value is 1 (every pairing has |kappa| >= 0.5). The interval's quantile is
    written z₀.₉₇₅, not z, which is the test's statistic (defect 13)."""
    status = cli.main(["--actual", "0,1,2", "--predicted", "0,2,1", "--lang", lang])
    out = flat(capsys.readouterr().out)
    assert status == 0
    assert flat(t(lang, "z_test.small_sample", n="3", used="3", min_items="18")) in out
    assert flat(t(lang, "z_test.exact", p=format_p_value(1.0, lang, name="p"))) in out
    assert f"{Z975[lang]}·SE" in out
    text = worksheet.markdown(walkthrough([0, 1, 2], [0, 2, 1]), lang)
    assert t(lang, "z_test.exact", p=format_p_value(1.0, lang, name="p")) in text


def test_the_sample_rule_counts_the_ratings_in_use():
    """Teaching audit, defect 7: "2N² = 50" for all-0 against all-4, which use 2 ratings. With
    ratings 0, 1 and 4 in use on the scale 0..4, k = 3 and the rule asks for 18 items."""
    gappy = walkthrough([0, 0, 4, 4, 1, 1, 0], [0, 1, 4, 4, 0, 1, 0])
    assert gappy.size == 5
    shown = shown_interval(gappy, gappy.statistics())
    assert shown.min_items == 18 and shown.small_sample
    assert t("en", "interval.small_sample", n="7", used="3", min_items="18") in (
        inference.interval_sentences("en", gappy, gappy.statistics()))


def test_no_small_sample_note_follows_a_withheld_interval():
    """Teaching audit, defect 7: "no interval is shown" was followed by "this interval is only a
    rough guide" for the presets perfect agreement, complete disagreement, all 0 against all 4."""
    for result in (PERFECT, OPPOSITE, walkthrough([0, 1, 2, 3, 4], [4, 3, 2, 1, 0])):
        sentences = inference.interval_sentences("en", result, result.statistics())
        assert not any("rough guide" in sentence for sentence in sentences), result


def test_custom_weights_with_a_block_of_zeros_get_their_own_undefined_reason():
    """Teaching audit, defect 12: W = [[0,0,1],[0,0,1],[1,1,0]] with [0,1,0,1] against
    [1,0,0,1] was said to mean "both raters put every item in the same rating"; they used two
    ratings, and every pair chance makes from them has weight 0."""
    weights = [[0, 0, 1], [0, 0, 1], [1, 1, 0]]
    result = walkthrough([0, 1, 0, 1], [1, 0, 0, 1], weights=weights, min_rating=0,
                         max_rating=2)
    assert result.kappa is None and result.undefined_reason == "chance_pairs_free"
    for lang in LANGUAGES:
        assert t(lang, "undefined.chance_pairs_free") not in (
            t(lang, "undefined.no_chance_disagreement"), t(lang, "undefined.zero_weights"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_one_rating_scale_has_no_sentence_about_its_two_ends(lang, capsys):
    """Teaching audit, defect 10: with everyone giving the same rating (N = 1, w = [[0]]) the
    page said the largest penalty, 1, is for the two ends of the scale, and the terminal that a
    disagreement between the two extreme ratings costs 1, then that every weight is 0."""
    single = walkthrough([3, 3, 3], [3, 3, 3])
    assert single.size == 1
    text = worksheet.markdown(single, lang)
    assert t(lang, "steps.weights_kind_quadratic") not in text
    assert t(lang, "steps.weights_single") in text
    cli.main(["--actual", "3,3,3", "--predicted", "3,3,3", "--lang", lang])
    out = flat(capsys.readouterr().out)
    assert flat(t(lang, "steps.weights_kind_quadratic")) not in out
    assert flat(t(lang, "steps.weights_single")) in out
    at = open_app("walkthrough", lang=lang, actual="3,3,3", predicted="3,3,3")
    assert_clean(at)
    shown = [m.value for m in at.markdown]
    assert t(lang, "steps.weights_kind_quadratic") not in shown
