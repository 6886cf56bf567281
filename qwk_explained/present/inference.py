"""Sentences about a kappa value: its Landis and Koch band and its inference, honestly.

Every surface that reports kappa (the walkthrough, the worksheets, the command line) takes these
sentences from here, so that each says the same: the band with its caveat for a weighted kappa
(and, for a kappa of 0, that it is agreement exactly at chance level), the standard error as the
asymptotic (large-sample) one, the interval clipped to [-1, 1] with a note, flagged for a small
sample, and withheld with the reason when it would mislead (see
:func:`qwk_explained.teaching.interpret.shown_interval`); the z test flagged for a small sample
too, with the exact permutation p-value beside it when there are few items.
"""

from __future__ import annotations

from qwk_explained.core.resampling import exact_permutation_test
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.interpret import (
    at_chance,
    landis_koch,
    min_items,
    ratings_in_use,
    shown_interval,
    small_sample,
)

from .i18n import t
from .numbers import format_number, format_p_value, format_percent


def band_name(lang: str, result: Walkthrough) -> str | None:
    """The name of kappa's Landis and Koch band (``None`` when kappa is undefined)."""
    band = landis_koch(result.kappa)
    return None if band is None else t(lang, f"common.band.{band}")


def band_caveat(lang: str, result: Walkthrough) -> str | None:
    """Landis and Koch wrote their bands for unweighted kappa: said whenever kappa is weighted."""
    if result.kappa is None or result.weights_name == "unweighted":
        return None
    return t(lang, "common.band_caveat_weighted")


def chance_sentence(lang: str, result: Walkthrough) -> str | None:
    """For a kappa of 0 (as shown): agreement exactly at the level of chance. Landis and Koch
    still call it "slight" (their band starts at 0): this says what the band does not."""
    return t(lang, "common.kappa_at_chance") if at_chance(result.kappa) else None


def quantile_symbol(stats: KappaStatistics, lang: str) -> str:
    """z with the interval's quantile as a subscript, ``z₀.₉₇₅`` (``z₀,₉₇₅`` where the decimal
    mark is a comma): not the z of the test, which is another number."""
    level = format_number(0.5 + stats.confidence / 2.0, lang, decimals=6)
    return "z" + level.translate(_SUBSCRIPTS)


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def interval_sentences(lang: str, result: Walkthrough, stats: KappaStatistics, *,
                       se_in_table: bool = False) -> list[str]:
    """The standard error and the interval as a sentence, then each note that applies to it
    (never the small-sample note after an interval that is not shown). Under a table that
    already gives the standard error (``se_in_table``), a withheld interval leaves only its
    reason: repeating "SE: 0" after the table reads as a second, contradicting statement."""
    shown = shown_interval(result, stats)
    if shown is None or stats.se is None:
        return []
    level = format_percent(stats.confidence, lang, decimals=2)
    se = format_number(stats.se, lang)
    if shown.withheld is not None or shown.low is None or shown.high is None:
        reason = t(lang, f"interval.withheld_{shown.withheld}")  # withheld: never None here
        return [reason] if se_in_table else [t(lang, "interval.se_only", se=se), reason]
    sentences = [t(lang, "interval.shown", se=se, level=level,
                   low=format_number(shown.low, lang), high=format_number(shown.high, lang))]
    if shown.clipped and stats.ci_low is not None and stats.ci_high is not None:
        sentences.append(t(lang, "interval.clipped", z=quantile_symbol(stats, lang),
                           low=format_number(stats.ci_low, lang),
                           high=format_number(stats.ci_high, lang)))
    if shown.small_sample:
        sentences.append(t(lang, "interval.small_sample", **_sample(lang, result)))
    return sentences


def z_test_sentences(lang: str, result: Walkthrough, stats: KappaStatistics) -> list[str]:
    """The notes that go with the z test and its p-value: fewer than 2k² items make them rough
    guides too (the rule of Cicchetti and Fleiss is about this test in the first place), and
    with few items the exact permutation test gives the p-value the normal curve approximates."""
    if stats.z is None or stats.p_value is None:
        return []
    sentences = []
    if small_sample(result):
        sentences.append(t(lang, "z_test.small_sample", **_sample(lang, result)))
    exact = exact_permutation_test(result)
    if exact is not None:
        sentences.append(t(lang, "z_test.exact", p=format_p_value(exact.p_value, lang, name="p")))
    return sentences


def _sample(lang: str, result: Walkthrough) -> dict[str, str]:
    return {"n": format_number(result.n, lang),
            "used": format_number(ratings_in_use(result), lang),
            "min_items": format_number(min_items(result), lang)}
