"""How sure one can be of a kappa, in words: the bootstrap, the test against kappa0, SE versus
SE0 on the reader's numbers, and why two intervals disagree when they do.

The large-sample interval itself is worded by :mod:`.inference`; this module adds what the
statistics section says around it (``uncertainty.*`` in the locales). Every sentence is about
the reader's own numbers and true for them: a disagreement is explained only where there is one,
with the reasons :mod:`qwk_explained.teaching.uncertainty` finds in the data.
"""

from __future__ import annotations

from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.stats import KappaStatistics, KappaTest
from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.interpret import shown_interval
from qwk_explained.teaching.uncertainty import compare_intervals, interval_versus_test

from . import formulas
from .blocks import Block, Formula, Heading, Text
from .i18n import t
from .inference import z_test_sentences
from .losses import Sentence
from .numbers import format_count, format_label, format_number, format_p_value, format_percent


def bootstrap_sentences(lang: str, result: Walkthrough, boot: Bootstrap | None) -> list[Sentence]:
    """The bootstrap's intervals, or why it shows none; resamples left out, if any."""
    if boot is None or boot.percentile is None:
        return []
    num = format_number
    common = {"resamples": format_count(boot.resamples, lang), "seed": format_label(boot.seed,
                                                                                 lang),
              "level": format_percent(boot.confidence, lang, decimals=2)}
    if not boot.se:
        return [Sentence("bootstrap_flat", t(lang, "uncertainty.bootstrap_flat",
                                             kappa=num(boot.estimate, lang), **common))]
    sentences = [Sentence("bootstrap", t(
        lang, "uncertainty.bootstrap", low=num(boot.percentile.low, lang),
        high=num(boot.percentile.high, lang), se=num(boot.se, lang), **common))]
    if boot.bca is not None:
        sentences.append(Sentence("bca", t(lang, "uncertainty.bca", low=num(boot.bca.low, lang),
                                           high=num(boot.bca.high, lang), **common)))
    else:
        sentences.append(Sentence("bca_unavailable", t(lang, "uncertainty.bca_unavailable")))
    if boot.undefined:
        sentences.append(Sentence("bootstrap_undefined", t(
            lang, "uncertainty.bootstrap_undefined", count=boot.undefined,
            resamples=format_count(boot.resamples, lang))))
    return sentences


def kappa0_sentences(lang: str, test: KappaTest, boot: Bootstrap | None = None
                     ) -> list[Sentence]:
    """The z test of kappa = kappa0 (with SE0 for 0, SE otherwise), and the bootstrap's p for
    the same question when there is a bootstrap."""
    kappa0 = format_number(test.kappa0, lang)
    if test.z is None or test.p_value is None or test.p_greater is None or test.se is None:
        return [Sentence("kappa0_unavailable",
                         t(lang, "uncertainty.kappa0_unavailable", kappa0=kappa0))]
    key = "uncertainty.kappa0_zero" if test.uses_se0 else "uncertainty.kappa0"
    sentences = [Sentence("kappa0", t(
        lang, key, kappa0=kappa0, se=format_number(test.se, lang), z=format_number(test.z, lang),
        p=format_p_value(test.p_value, lang, name="p"),
        p_greater=format_p_value(test.p_greater, lang, name="p")))]
    if boot is not None and boot.se:
        p = boot.p_value(test.kappa0)
        if p is not None:
            key = "uncertainty.kappa0_bootstrap" if p > 0 else "uncertainty.kappa0_bootstrap_none"
            sentences.append(Sentence("kappa0_bootstrap", t(
                lang, key, kappa0=kappa0, p=format_p_value(p, lang, name="p"),
                smallest=format_number(1 / boot.distribution.size, lang, decimals=6))))
    return sentences


def se_versus_se0(lang: str, result: Walkthrough, stats: KappaStatistics) -> list[Sentence]:
    """Why the interval uses SE and the test SE0, on the reader's numbers, and what it means
    here (including, when it happens, that the two disagree about 0). Not where the interval is
    withheld or z cannot be computed (a standard error of 0 by construction): "SE = 0 says how
    far kappa would move" would teach something false about those numbers."""
    if result.kappa is None or stats.se is None or stats.se0 is None or stats.z is None:
        return []
    shown = shown_interval(result, stats)
    if shown is None or shown.withheld is not None:
        return []
    se, se0 = format_number(stats.se, lang), format_number(stats.se0, lang)
    sentences = [
        Sentence("se_meaning", t(lang, "uncertainty.se_meaning", se=se, count=result.n,
                                 kappa=format_number(result.kappa, lang))),
        Sentence("se0_meaning", t(lang, "uncertainty.se0_meaning", se0=se0)),
    ]
    if stats.se0 != stats.se:
        key = "uncertainty.se0_larger" if stats.se0 > stats.se else "uncertainty.se0_smaller"
        sentences.append(Sentence("se_compared", t(lang, key, se=se, se0=se0)))
    relation = interval_versus_test(stats)
    if relation in ("interval_excludes_zero", "test_rejects") and stats.p_value is not None:
        sentences.append(Sentence(relation, t(
            lang, f"uncertainty.{relation}", low=format_number(stats.ci_low, lang),
            high=format_number(stats.ci_high, lang),
            p=format_p_value(stats.p_value, lang, name="p"),
            alpha=format_number(1 - stats.confidence, lang),
            level=format_percent(stats.confidence, lang, decimals=2))))
    return sentences


def disagreement_sentences(lang: str, result: Walkthrough, stats: KappaStatistics,
                           boot: Bootstrap | None) -> list[Sentence]:
    """Where the large-sample and the bootstrap interval disagree: that they do, then why."""
    found = compare_intervals(result, stats, boot)
    if found is None or not found.disagree or boot is None:
        return []
    num = format_number
    sentences = [Sentence("intervals_disagree", t(
        lang, f"uncertainty.intervals_disagree_{found.method}", wald_low=num(found.wald.low, lang),
        wald_high=num(found.wald.high, lang), low=num(found.bootstrap.low, lang),
        high=num(found.bootstrap.high, lang)))]
    params = {"n": format_count(result.n, lang), "size": format_count(result.size, lang),
              "min_items": format_count(2 * result.size**2, lang),
              "skewness": num(boot.skewness, lang),
              "resamples": format_count(boot.resamples, lang)}
    sentences += [Sentence(f"reason_{reason}", t(lang, f"uncertainty.reason_{reason}",
                                                 count=boot.undefined, **params))
                  for reason in found.reasons]
    return sentences


def uncertainty_blocks(result: Walkthrough, stats: KappaStatistics, lang: str,
                       boot: Bootstrap | None = None,
                       test: KappaTest | None = None, *, z_notes: bool = False) -> list[Block]:
    """The statistics section's second half, as blocks for every surface: the bootstrap (with
    why it and the large-sample interval disagree, where they do), the test against kappa0 with
    its z worked out, then SE versus SE0 on the reader's numbers, each with its formula.

    ``z_notes``: a surface that shows no statistics table (the app's walkthrough) gets the z
    test's notes next to a test of kappa0 = 0 (the small-sample caveat, and for a few items the
    exact permutation p-value, margins fixed); the terminal and the worksheets have them in
    their statistics table already."""
    if result.kappa is None:
        return []
    blocks: list[Block] = [Heading(t(lang, "uncertainty.title"), 2, anchor="uncertainty")]
    sentences = [*bootstrap_sentences(lang, result, boot),
                 *disagreement_sentences(lang, result, stats, boot)]
    blocks += [Text(sentence.text, sentence.name, "statistics") for sentence in sentences]
    if test is not None:
        for sentence in kappa0_sentences(lang, test, boot):
            blocks.append(Text(sentence.text, sentence.name, "statistics"))
            if sentence.name == "kappa0":
                blocks.append(Formula(formulas.kappa0_test_plugged(test, lang), "statistics"))
        if z_notes and test.uses_se0:
            blocks += [Text(note, "z_test", "statistics")
                       for note in z_test_sentences(lang, result, stats)]
    teaching = {sentence.name: sentence for sentence in se_versus_se0(lang, result, stats)}
    if not teaching:
        return blocks
    blocks.append(Heading(t(lang, "uncertainty.se_title"), 3, anchor="se-se0"))
    worked = {"se_meaning": formulas.ci_plugged(stats, lang, shown_interval(result, stats)),
              "se0_meaning": formulas.z_plugged(stats, lang)}
    for name, sentence in teaching.items():
        blocks.append(Text(sentence.text, name, "statistics"))
        if name in worked:
            blocks.append(Formula(worked[name], "statistics"))
    return blocks
