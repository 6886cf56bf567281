"""A paired comparison of two models, in words: both kappas, the difference with its interval
and p-value, how often the models disagree, and what that allows one to conclude.

Shared by the app's comparison page, ``qwk-explained compare`` and a notebook (``compare.*`` in
the locales). The verdict is read from the interval *and* the test at the same level, and says
so when they disagree; a constant model (kappa 0 by construction) or an undefined kappa is said
in words before anything else.
"""

from __future__ import annotations

from qwk_explained.core.paired import Comparison, Model, Permutation
from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.steps import Walkthrough

from .i18n import t
from .losses import Sentence
from .numbers import format_count, format_label, format_number, format_p_value, format_percent


def signed(value: float, lang: str) -> str:
    """A difference with its sign always written (``+0.0092``)."""
    text = format_number(value, lang)
    return "+" + text if value > 0 and not text.startswith("+") else text


def model_name(lang: str, model: Model) -> str:
    """"Model A" or "Model B" as the language writes it."""
    return t(lang, f"compare.model_{model}")


def summary_sentences(lang: str, comparison: Comparison) -> list[Sentence]:
    """What each model's kappa is (or why it has none), then the difference."""
    sentences = []
    models: tuple[tuple[Model, Walkthrough], ...] = (("a", comparison.a), ("b", comparison.b))
    for model, walk in models:
        name = model_name(lang, model)
        if walk.kappa is None:
            reason = t(lang, f"undefined.{walk.undefined_reason}")
            sentences.append(Sentence(f"undefined_{model}", t(
                lang, "compare.undefined", model=name, reason=reason)))
            continue
        sentences.append(Sentence(f"kappa_{model}", t(lang, "compare.kappa", model=name,
                                                      kappa=format_number(walk.kappa, lang))))
        if model in comparison.constant:
            rating = format_label(walk.labels[int(walk.predicted_hist.argmax())], lang)
            sentences.append(Sentence(f"constant_{model}", t(
                lang, "compare.constant", model=name, rating=rating)))
    if comparison.difference is None:
        sentences.append(Sentence("no_difference", t(lang, "compare.no_difference")))
    else:
        sentences.append(Sentence("difference", t(
            lang, "compare.difference", difference=signed(comparison.difference, lang))))
    return sentences


def disagreement_sentence(lang: str, comparison: Comparison) -> Sentence:
    """On how many items the models predict differently, and which is closer on those."""
    if not comparison.disagreements:
        return Sentence("same_predictions", t(lang, "compare.same_predictions"))
    return Sentence("disagreements", t(
        lang, "compare.disagreements", different=format_count(comparison.disagreements, lang),
        n=format_count(comparison.n, lang), a_closer=format_count(comparison.a_closer, lang),
        b_closer=format_count(comparison.b_closer, lang)))


def inference_sentences(lang: str, comparison: Comparison) -> list[Sentence]:
    """The paired bootstrap interval, the permutation test, the verdict and why pairing
    matters."""
    boot, permutation = comparison.bootstrap, comparison.permutation
    if boot is None or permutation is None or comparison.difference is None:
        return []
    num = format_number
    level = format_percent(boot.confidence, lang, decimals=2)
    common = {"resamples": format_count(boot.resamples, lang),
              "seed": format_label(boot.seed, lang), "level": level}
    sentences = []
    if boot.percentile is not None and boot.se:
        sentences.append(Sentence("interval", t(
            lang, "compare.interval", low=num(boot.percentile.low, lang),
            high=num(boot.percentile.high, lang), **common)))
        if boot.bca is not None:
            sentences.append(Sentence("bca", t(lang, "compare.bca", low=num(boot.bca.low, lang),
                                               high=num(boot.bca.high, lang))))
    elif boot.percentile is not None:
        sentences.append(Sentence("interval_flat", t(lang, "compare.interval_flat", **common)))
    sentences.append(Sentence("permutation", t(
        lang, "compare.permutation", p=format_p_value(permutation.p_value, lang, name="p"),
        permutations=format_count(permutation.permutations, lang))))
    if boot.undefined or permutation.undefined:
        sentences.append(Sentence("undefined_resamples", t(
            lang, "compare.undefined_resamples", count=boot.undefined + permutation.undefined,
            total=format_count(boot.resamples + permutation.permutations, lang))))
    sentences.append(_verdict(lang, boot, permutation, comparison.difference))
    sentences.append(Sentence("paired_note", t(lang, "compare.paired_note")))
    return sentences


def _verdict(lang: str, boot: Bootstrap, permutation: Permutation, difference: float) -> Sentence:
    """Real, noise, or borderline: the interval and the test read at the same level."""
    alpha = 1 - boot.confidence
    interval = boot.percentile
    excludes = interval is not None and bool(boot.se) and not interval.low <= 0 <= interval.high
    rejects = permutation.p_value < alpha
    params = {"alpha": format_number(alpha, lang),
              "p": format_p_value(permutation.p_value, lang, name="p"),
              "difference": signed(difference, lang)}
    if excludes and rejects:
        key = "compare.verdict_b_better" if difference > 0 else "compare.verdict_a_better"
        return Sentence("verdict_real", t(lang, key, **params))
    if not excludes and not rejects:
        return Sentence("verdict_noise", t(lang, "compare.verdict_noise", **params))
    key = "compare.verdict_interval_only" if excludes else "compare.verdict_test_only"
    return Sentence("verdict_borderline", t(lang, key, **params))


def comparison_sentences(lang: str, comparison: Comparison) -> list[Sentence]:
    """Everything a comparison says, in reading order."""
    return [*summary_sentences(lang, comparison), disagreement_sentence(lang, comparison),
            *inference_sentences(lang, comparison)]
