"""When the intervals and tests of one kappa disagree, and why: codes, never sentences.

A page that shows the large-sample (Wald) interval beside a bootstrap interval, or the z test of
chance agreement beside the confidence interval, owes the reader an explanation whenever they
tell different stories. :func:`compare_intervals` decides whether the two intervals disagree and
names the reasons that apply to these data (``uncertainty.reason_<code>`` in the locales), and
:func:`interval_versus_test` whether the test of kappa = 0 and the interval contradict each other,
which is the SE versus SE0 lesson.

The reasons are the classic ones (Efron and Tibshirani 1993, ch. 14; Cicchetti and Fleiss
1977): a small sample for the number of ratings, a skewed sampling distribution (kappa ± z·SE
is symmetric by construction), kappa close to 1 (the distribution is squeezed against its upper
bound and the Wald interval runs past it), and resamples without a defined kappa.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from qwk_explained.core.resampling import Bootstrap, Interval
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough

#: Why two intervals of the same kappa differ (``uncertainty.reason_<code>``).
Reason = Literal["small_sample", "skewed", "near_one", "undefined_resamples", "approximation"]
#: Two intervals disagree when an end moves by more than this share of the Wald interval's width.
DISAGREEMENT = 0.1
#: A bootstrap distribution this skewed (in absolute value) is visibly asymmetric.
SKEWED = 0.5
#: Resamples without a defined kappa worth mentioning, as a share of all resamples.
UNDEFINED_SHARE = 0.01


@dataclass(frozen=True)
class IntervalComparison:
    """The Wald interval (unclipped) against the bootstrap's (BCa when it exists, else
    percentile), whether they disagree, and why."""

    wald: Interval
    bootstrap: Interval
    method: Literal["bca", "percentile"]
    disagree: bool
    reasons: tuple[Reason, ...]


def compare_intervals(result: Walkthrough, stats: KappaStatistics,
                      boot: Bootstrap | None) -> IntervalComparison | None:
    """Whether kappa ± z·SE and the bootstrap interval disagree, and the reasons that apply.

    ``None`` when either interval is missing (undefined kappa, no standard error, no defined
    resample).

    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> found = compare_intervals(result, result.statistics(), result.bootstrap(2000))
    >>> found.disagree, found.reasons[0]
    (True, 'small_sample')
    """
    if boot is None or stats.ci_low is None or stats.ci_high is None or not stats.se:
        return None
    method: Literal["bca", "percentile"] = "bca" if boot.bca is not None else "percentile"
    other = boot.bca or boot.percentile
    if other is None:
        return None
    wald = Interval(stats.ci_low, stats.ci_high)
    gap = max(abs(wald.low - other.low), abs(wald.high - other.high))
    disagree = gap > DISAGREEMENT * (wald.high - wald.low)
    reasons: list[Reason] = []
    if disagree:
        if result.n < 2 * result.size**2:
            reasons.append("small_sample")
        if boot.skewness is not None and abs(boot.skewness) >= SKEWED:
            reasons.append("skewed")
        if wald.high > 1:
            reasons.append("near_one")
        if boot.undefined > UNDEFINED_SHARE * boot.resamples:
            reasons.append("undefined_resamples")
        if not reasons:
            reasons.append("approximation")
    return IntervalComparison(wald, other, method, disagree, tuple(reasons))


#: How the test of kappa = 0 and the interval relate: ``agree``, or which one says what.
IntervalVersusTest = Literal["agree", "interval_excludes_zero", "test_rejects"]


def interval_versus_test(stats: KappaStatistics,
                         alpha: float | None = None) -> IntervalVersusTest | None:
    """Whether the z test of kappa = 0 (with SE0) and the interval (with SE) tell the same story
    at level alpha (``1 - confidence`` by default): an interval that leaves 0 out while the test
    does not reject, or the reverse, is the SE versus SE0 lesson on the reader's own numbers.

    >>> from qwk_explained import walkthrough
    >>> stats = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]
    ...                     ).statistics(0.9)
    >>> interval_versus_test(stats)
    'interval_excludes_zero'
    """
    if stats.p_value is None or stats.ci_low is None or stats.ci_high is None:
        return None
    alpha = 1 - stats.confidence if alpha is None else alpha
    excludes = not stats.ci_low <= 0 <= stats.ci_high
    rejects = stats.p_value < alpha
    if excludes == rejects:
        return "agree"
    return "interval_excludes_zero" if excludes else "test_rejects"
