"""Words for a kappa value and how far to trust its interval: bands, and the shown interval.

Landis and Koch proposed their bands as a rough guide, not a test: "poor" below 0 (less agreement
than chance), then slight (0 to 0.20, 0 included), fair, moderate, substantial and almost perfect
in steps of 0.2. They wrote them for unweighted kappa; for a weighted kappa they are rougher
still, and every surface says so. A kappa of exactly 0 keeps their band, "slight"; that it is
agreement exactly at the level of chance is a separate sentence (:func:`at_chance`), not a band
they never defined. The module returns *codes*; the name of each band lives in the locales under
``common.band.<code>``, so the app and the CLI say the same thing in every language.

:func:`shown_interval` decides what becomes of the confidence interval kappa ± z·SE before it is
shown: SE is the asymptotic (large-sample) standard error of Fleiss, Cohen and Everitt (1969), so
the interval is clipped to [-1, 1], flagged when there are fewer than 2k² items, k being the
number of ratings in use (the smallest sample for which Cicchetti and Fleiss (1977) and Cicchetti
(1981) found the large-sample approximation valid; it concerns the z test just as much), and
withheld when a rater is constant (kappa is 0 by construction) or SE is 0 (a zero-width interval
claims a certainty no sample gives).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast, get_args

if TYPE_CHECKING:
    from qwk_explained.core.stats import KappaStatistics
    from qwk_explained.core.steps import Walkthrough

#: Decimals every number is shown with (sentences, tables, formulas, charts). Bands are read
#: from kappa rounded to them, so a kappa printed as 0.2 is "slight", never "fair".
DECIMALS = 4


#: The Landis and Koch bands, lowest first (``common.band.<code>`` in the locales).
BandCode = Literal["poor", "slight", "fair", "moderate", "substantial", "almost_perfect"]


@dataclass(frozen=True)
class ScaleBand:
    """One band of an interpretation scale: ``low < kappa <= high`` by default.

    ``None`` leaves a side open; ``low_inclusive``/``high_inclusive`` say whether the bound itself
    belongs to the band, as each author wrote it. ``code`` names it in the locales.
    """

    code: str
    low: float | None
    high: float | None
    low_inclusive: bool = False
    high_inclusive: bool = True

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in this band, bounds included or not as the author wrote."""
        if self.low is not None and (value < self.low or (value == self.low
                                                         and not self.low_inclusive)):
            return False
        return self.high is None or value < self.high or (value == self.high
                                                          and self.high_inclusive)


#: Landis and Koch (1977), Biometrics 33(1), p. 165: below 0 is poor, 0 to 0.20 slight (upper
#: bounds inclusive: 0.20 is slight), and so on in steps of 0.2. The one table of these bands:
#: the theory page's list of interpretation scales shows it too.
LANDIS_KOCH_BANDS: tuple[ScaleBand, ...] = (
    ScaleBand("poor", None, 0.0, high_inclusive=False),
    ScaleBand("slight", 0.0, 0.2, low_inclusive=True),
    ScaleBand("fair", 0.2, 0.4),
    ScaleBand("moderate", 0.4, 0.6),
    ScaleBand("substantial", 0.6, 0.8),
    ScaleBand("almost_perfect", 0.8, 1.0),
)

BAND_CODES: tuple[BandCode, ...] = get_args(BandCode)


def landis_koch(kappa: float | None) -> BandCode | None:
    """The Landis and Koch band code for ``kappa``, or ``None`` when kappa is undefined.

    Kappa is rounded to the decimals shown everywhere else first, so the band always matches the
    number the reader sees (a kappa printed as 0.2 is "slight", never "fair").

    >>> [landis_koch(k) for k in (-0.1392, -0.00001, 0.0, 0.2, 0.21, 0.6, 0.8)]
    ['poor', 'slight', 'slight', 'slight', 'fair', 'moderate', 'substantial']
    >>> landis_koch(0.81), landis_koch(1.0)
    ('almost_perfect', 'almost_perfect')
    >>> landis_koch(None) is None, landis_koch(float("nan")) is None
    (True, True)
    """
    if kappa is None or math.isnan(kappa):
        return None
    value = round(float(kappa), DECIMALS) + 0.0  # -0.00001 prints as 0: slight, not poor
    code = next((band.code for band in LANDIS_KOCH_BANDS if band.contains(value)),
                LANDIS_KOCH_BANDS[-1].code)  # above 1 only through rounding noise
    return cast(BandCode, code)


def at_chance(kappa: float | None) -> bool:
    """Whether kappa, as shown, is 0: agreement exactly at the level of chance (said beside the
    band, which Landis and Koch call "slight" from 0 on).

    >>> at_chance(0.0), at_chance(-0.00001), at_chance(0.0001), at_chance(None)
    (True, True, False, False)
    """
    return kappa is not None and not math.isnan(kappa) and round(float(kappa), DECIMALS) == 0


# --- how many items the large-sample approximation needs -----------------------------------------


def ratings_in_use(result: Walkthrough) -> int:
    """k: the ratings given by at least one of the two raters (a rating on the scale that
    nobody used adds nothing to the sampling distribution of kappa)."""
    return int(((result.actual_hist + result.predicted_hist) > 0).sum())


def min_items(result: Walkthrough) -> int:
    """2k², the sample from which Cicchetti and Fleiss (1977) found the large-sample
    approximation of weighted kappa's distribution valid (k ratings in use)."""
    return 2 * ratings_in_use(result) ** 2


def small_sample(result: Walkthrough) -> bool:
    """Whether there are fewer than 2k² items: the interval and the z test are rough guides."""
    return result.n < min_items(result)


# --- the confidence interval as it is shown ---------------------------------------------------

#: Why no interval is shown: a rater gave every item the same rating, or the standard error is 0.
Withheld = Literal["constant_rater", "se_zero"]


@dataclass(frozen=True)
class ShownInterval:
    """The confidence interval as it may honestly be shown.

    ``low``/``high`` are kappa ± z·SE clipped to [-1, 1] (``None`` when withheld); ``clipped``
    says whether the clip changed them; ``small_sample`` flags fewer than ``min_items`` = 2k²
    items (k ratings in use), too few for the large-sample standard error to be more than a
    rough guide; it is never set on a withheld interval.
    """

    low: float | None
    high: float | None
    clipped: bool
    withheld: Withheld | None
    small_sample: bool
    min_items: int


def shown_interval(result: Walkthrough, stats: KappaStatistics) -> ShownInterval | None:
    """What to show of the interval (``None`` when kappa or its standard error is undefined).

    >>> from qwk_explained import walkthrough
    >>> shown_interval(walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    ...                walkthrough([0, 1, 2, 3, 4], [0, 1, 2, 3, 4]).statistics()).withheld
    'se_zero'
    """
    if stats.se is None or stats.ci_low is None or stats.ci_high is None:
        return None
    needed = min_items(result)
    constant = min((result.actual_hist > 0).sum(), (result.predicted_hist > 0).sum()) < 2
    withheld: Withheld | None = ("constant_rater" if constant
                                 else "se_zero" if stats.se == 0 else None)
    if withheld is not None:
        return ShownInterval(None, None, False, withheld, False, needed)
    low, high = max(stats.ci_low, -1.0), min(stats.ci_high, 1.0)
    clipped = (low, high) != (stats.ci_low, stats.ci_high)
    return ShownInterval(low, high, clipped, None, small_sample(result), needed)
