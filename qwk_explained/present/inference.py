"""Sentences about a kappa value: its Landis and Koch band and its confidence interval, honestly.

Every surface that reports kappa (the walkthrough, the worksheets, the command line) takes these
sentences from here, so that each says the same: the band with its caveat for a weighted kappa,
the standard error as the asymptotic (large-sample) one, the interval clipped to [-1, 1] with a
note, flagged for a small sample, and withheld with the reason when it would mislead (see
:func:`qwk_explained.teaching.interpret.shown_interval`).
"""

from __future__ import annotations

from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.interpret import landis_koch, shown_interval

from .i18n import t
from .numbers import format_number, format_percent


def band_name(lang: str, result: Walkthrough) -> str | None:
    """The name of kappa's Landis and Koch band (``None`` when kappa is undefined)."""
    band = landis_koch(result.kappa)
    return None if band is None else t(lang, f"common.band.{band}")


def band_caveat(lang: str, result: Walkthrough) -> str | None:
    """Landis and Koch wrote their bands for unweighted kappa: said whenever kappa is weighted."""
    if result.kappa is None or result.weights_name == "unweighted":
        return None
    return t(lang, "common.band_caveat_weighted")


def interval_sentences(lang: str, result: Walkthrough, stats: KappaStatistics) -> list[str]:
    """The standard error and the interval as a sentence, then each note that applies to it."""
    shown = shown_interval(result, stats)
    if shown is None or stats.se is None:
        return []
    level = format_percent(stats.confidence, lang, decimals=2)
    se = format_number(stats.se, lang)
    if shown.withheld is not None or shown.low is None or shown.high is None:
        sentences = [t(lang, "interval.se_only", se=se),
                     t(lang, f"interval.withheld_{shown.withheld}")]  # withheld: never None here
    else:
        sentences = [t(lang, "interval.shown", se=se, level=level,
                       low=format_number(shown.low, lang), high=format_number(shown.high, lang))]
        if shown.clipped and stats.ci_low is not None and stats.ci_high is not None:
            sentences.append(t(lang, "interval.clipped", low=format_number(stats.ci_low, lang),
                               high=format_number(stats.ci_high, lang)))
    if shown.small_sample:
        sentences.append(t(lang, "interval.small_sample", n=format_number(result.n, lang),
                           size=format_number(result.size, lang),
                           min_items=format_number(shown.min_items, lang)))
    return sentences
