r"""Why the kappa formula looks the way it does: the numbers behind the theory page.

Four ideas, each a small pure function the page (and its tests) can check against the engine:

1. **Cohen's kappa** compares the observed agreement P_o with the agreement P_e expected by
   chance: kappa = (P_o - P_e) / (1 - P_e). With two ratings (a 2 x 2 table) and the events
   A = "the actual rater says 1", B = "the predicted rater says 1", the same number is
   2 (P(A and B) - P(A) P(B)) / (P(A) + P(B) - 2 P(A) P(B)) (the Spanish seed note, eq. 12):
   :func:`binary_kappa` computes both.
2. **Weighted kappa** is 1 - (weighted observed disagreement) / (weighted chance disagreement).
   Multiplying w, or both O and E, by a constant cancels in the ratio (:func:`rescaling`), and
   with two ratings every weighting is the plain kappa (:func:`kappa_by_weighting`).
3. **Quadratic weights on the full range** turn the ratio into squared differences of the ratings:
   QWK = 1 - sum (a_k - b_k)^2 / (n (var_a + var_b + (mean_a - mean_b)^2)), population variances,
   which is Lin's (1989) concordance correlation coefficient (:func:`closed_form`).
4. **Interpretation scales** (Landis and Koch 1977, Altman 1991, Fleiss 1981) put words on a value;
   they disagree with each other and were written for unweighted kappa (:func:`band`).

References: Cohen (1960), Educ. Psychol. Meas. 20, 37-46; Cohen (1968), Psychol. Bull. 70,
213-220; Fleiss and Cohen (1973), Educ. Psychol. Meas. 33, 613-619 (quadratic kappa and the
intraclass correlation); Lin (1989), Biometrics 45, 255-268; Feinstein and Cicchetti (1990),
J. Clin. Epidemiol. 43, 543-549 (the kappa paradox).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from qwk_explained.core.errors import InputError
from qwk_explained.core.steps import (
    NO_CHANCE_DISAGREEMENT,
    Walkthrough,
    walkthrough,
    walkthrough_from_table,
)
from qwk_explained.core.tables import as_table
from qwk_explained.core.types import WEIGHTINGS, RatingsLike, UndefinedReason, Weighting
from qwk_explained.core.validate import check_pair, int_ratings

from .interpret import DECIMALS, LANDIS_KOCH_BANDS, ScaleBand, landis_koch

# --- 1. Cohen's kappa with two ratings ------------------------------------------------------------

#: A 2 x 2 table as four counts (n00, n01, n10, n11): rows = actual rating 0/1, columns = predicted.
Counts2x2 = tuple[int, int, int, int]

#: Wikipedia's worked example of Cohen's kappa (20 yes-yes, 5 + 10 disagreements, 15 no-no):
#: P_o = 0.7, P_e = 0.5, kappa = 0.4.
DEFAULT_TABLE: Counts2x2 = (15, 10, 5, 20)

#: The kappa paradox (Feinstein and Cicchetti 1990): both tables agree on 85 of 100 items, but the
#: skewed one puts most items in one rating, so chance alone already agrees often and kappa is low.
PARADOX_TABLES: dict[str, Counts2x2] = {
    "balanced": (40, 9, 6, 45),
    "skewed": (80, 10, 5, 5),
}


@dataclass(frozen=True)
class BinaryKappa:
    """Cohen's kappa of a 2 x 2 table, computed twice: from P_o, P_e and from P(A), P(B), P(A∩B).

    A is "the actual rater gives rating 1", B is "the predicted rater gives rating 1". Both kappas
    are ``None`` when 1 - P_e = P(A) + P(B) - 2 P(A) P(B) = 0, i.e. both raters put every item in
    the same rating: the ratio is 0/0 (``undefined_reason`` then names why, as the engine does).
    """

    counts: Counts2x2
    n: int
    p_a: float
    p_b: float
    p_ab: float
    p_o: float
    p_e: float
    kappa_agreement: float | None
    kappa_events: float | None
    undefined_reason: UndefinedReason | None

    @property
    def table(self) -> list[list[int]]:
        """The counts as the 2 x 2 table [[n00, n01], [n10, n11]]."""
        n00, n01, n10, n11 = self.counts
        return [[n00, n01], [n10, n11]]

    @property
    def events_numerator(self) -> float:
        """2 (P(A∩B) - P(A) P(B)), which equals P_o - P_e."""
        return 2.0 * (self.p_ab - self.p_a * self.p_b)

    @property
    def events_denominator(self) -> float:
        """P(A) + P(B) - 2 P(A) P(B), which equals 1 - P_e."""
        return self.p_a + self.p_b - 2.0 * self.p_a * self.p_b

    @property
    def kappa_max(self) -> float | None:
        """The largest kappa the two raters' rating frequencies allow (Cohen 1960).

        With the margins fixed, the raters can agree on at most min(p_i, q_i) of the items in
        each rating, so the best P_o is the sum of those minimums, below 1 whenever the two
        raters use the ratings in different proportions; statsmodels reports it as kappa_max.

        >>> round(binary_kappa(15, 10, 5, 20).kappa_max, 4)
        0.8
        """
        if self.kappa_agreement is None:
            return None
        best = min(self.p_a, self.p_b) + min(1.0 - self.p_a, 1.0 - self.p_b)
        return (best - self.p_e) / (1.0 - self.p_e)


def binary_kappa(n00: Any, n01: Any, n10: Any, n11: Any) -> BinaryKappa:
    """Cohen's kappa of the 2 x 2 table [[n00, n01], [n10, n11]] (rows = actual rating 0/1).

    Raises :class:`InputError` (``table_bad_count``, ``table_empty``) for counts that are not
    whole numbers >= 0, or all zero.

    >>> k = binary_kappa(15, 10, 5, 20)  # Wikipedia's example
    >>> k.p_o, k.p_e, round(k.kappa_agreement, 4), round(k.kappa_events, 4)
    (0.7, 0.5, 0.4, 0.4)
    >>> binary_kappa(9, 0, 0, 0).kappa_events is None
    True
    """
    table = as_table([[n00, n01], [n10, n11]])
    c00, c01, c10, c11 = (int(x) for x in table.ravel())
    n = c00 + c01 + c10 + c11
    p_a = (c10 + c11) / n  # the actual rater says 1: the second row
    p_b = (c01 + c11) / n  # the predicted rater says 1: the second column
    p_ab = c11 / n
    p_o = (c00 + c11) / n
    p_e = p_a * p_b + (1.0 - p_a) * (1.0 - p_b)
    # Exact test for 0/0: 1 - P_e = 0 only when both raters used one and the same rating.
    same_single_rating = (c01 == c10 == 0) and (c00 == 0 or c11 == 0)
    if same_single_rating:
        agreement = events = None
        reason: UndefinedReason | None = NO_CHANCE_DISAGREEMENT
    else:
        agreement = (p_o - p_e) / (1.0 - p_e)
        events = 2.0 * (p_ab - p_a * p_b) / (p_a + p_b - 2.0 * p_a * p_b)
        reason = None
    return BinaryKappa((c00, c01, c10, c11), n, p_a, p_b, p_ab, p_o, p_e, agreement, events,
                       reason)


# --- 2. weighted kappa: weightings and rescaling -------------------------------------------------


def kappa_by_weighting(result: Walkthrough) -> dict[Weighting, float | None]:
    """Kappa of the same observed matrix (same scale) under every named weighting.

    Cheap: it reuses O, so the cost does not depend on the number of items. With two ratings every
    weight matrix is [[0, 1], [1, 0]], so all three values are equal.
    """
    return {
        kind: walkthrough_from_table(result.observed, weights=kind, labels=result.labels).kappa
        for kind in WEIGHTINGS
    }


def binary_by_weighting(k: BinaryKappa) -> dict[Weighting, float | None]:
    """The engine's kappa (O, w, E) of a 2 x 2 table under every weighting: all equal Cohen's.

    >>> binary_by_weighting(binary_kappa(15, 10, 5, 20))
    {'quadratic': 0.4, 'linear': 0.4, 'unweighted': 0.4}
    """
    return kappa_by_weighting(walkthrough_from_table(k.table))


#: The ways :func:`rescaling` writes the ratio: ``shares`` (w, O/n, E/n), ``scaled_weights``
#: (c w, O/n, E/n), ``counts`` (w, O, E).
Rescaling = Literal["shares", "scaled_weights", "counts"]


@dataclass(frozen=True)
class RescaledSums:
    """One way of writing the ratio: which w, O and E; the two sums and the resulting kappa."""

    code: Rescaling
    numerator: float
    denominator: float
    kappa: float | None


def rescaling(result: Walkthrough, factor: float = 7.0) -> tuple[RescaledSums, ...]:
    """The weighted sums written three ways; kappa is the same in all three.

    ``shares``: sum w O/n and sum w E/n (the engine's route); ``scaled_weights``: the same with
    ``factor`` * w (kappa recomputed by the engine with that custom matrix); ``counts``: O and E
    as counts (both sums n times larger).
    """
    scaled = walkthrough_from_table(result.observed, weights=factor * np.asarray(result.weights),
                                    labels=result.labels)
    counts_num = float((result.weights * result.observed).sum())
    counts_den = float((result.weights * result.expected).sum())
    counts_kappa = None if counts_den <= 0 else 1.0 - counts_num / counts_den
    return (
        RescaledSums("shares", result.numerator, result.denominator, result.kappa),
        RescaledSums("scaled_weights", scaled.numerator, scaled.denominator, scaled.kappa),
        RescaledSums("counts", counts_num, counts_den, counts_kappa),
    )


# --- 3. the closed form: Lin's concordance correlation coefficient --------------------------------


@dataclass(frozen=True)
class ClosedForm:
    r"""QWK from the ratings themselves, without any matrix.

    ``sum_squared`` = sum_k (a_k - b_k)^2; ``chance`` = var_a + var_b + (mean_a - mean_b)^2 (the
    mean squared difference expected if the raters were independent); kappa = 1 - sum_squared /
    (n chance) = 2 cov / chance. ``pearson`` and ``bias_factor`` split it as r * C_b (Lin 1989),
    ``None`` when a rater is constant. ``kappa`` is ``None`` when ``chance`` is 0 (0/0).
    """

    n: int
    mean_a: float
    mean_b: float
    var_a: float
    var_b: float
    covariance: float
    sum_squared: float
    mean_gap_squared: float
    chance: float
    kappa: float | None
    pearson: float | None
    bias_factor: float | None

    @property
    def denominator(self) -> float:
        """n (var_a + var_b + (mean_a - mean_b)^2)."""
        return self.n * self.chance


def closed_form(actual: RatingsLike, predicted: RatingsLike) -> ClosedForm:
    """Quadratic weighted kappa on the full range scale, as Lin's concordance correlation.

    Why it works: with w_ij = (i-j)^2/(N-1)^2 the numerator sum w O/n is the mean squared
    difference of the ratings divided by (N-1)^2, and the denominator sum w E/n is the same mean
    under independence, E[(X-Y)^2] = var X + var Y + (E X - E Y)^2, divided by the same (N-1)^2.
    Positions i = rating - min differ from the ratings by a constant, which no difference sees.

    >>> c = closed_form([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> c.sum_squared, round(c.chance, 2), round(c.kappa, 4)
    (72.0, 6.32, -0.1392)
    """
    a = int_ratings(actual)
    b = int_ratings(predicted)
    check_pair(a, b)
    n = len(a)
    # Centre on a common origin first: ratings may be large, their spread is small.
    origin = float(min(a.min(), b.min()))
    x = a.astype(np.float64) - origin
    y = b.astype(np.float64) - origin
    mean_a, mean_b = float(x.mean()), float(y.mean())
    dx, dy = x - mean_a, y - mean_b
    var_a, var_b = float(dx @ dx) / n, float(dy @ dy) / n
    covariance = float(dx @ dy) / n
    diff = x - y
    sum_squared = float(diff @ diff)
    gap = (mean_a - mean_b) ** 2
    chance = var_a + var_b + gap
    kappa = None if chance <= 0 else 1.0 - sum_squared / (n * chance)
    pearson = bias = None
    if var_a > 0 and var_b > 0:
        pearson = covariance / math.sqrt(var_a * var_b)
        bias = 2.0 * math.sqrt(var_a * var_b) / chance
    return ClosedForm(n, mean_a + origin, mean_b + origin, var_a, var_b, covariance, sum_squared,
                      gap, chance, kappa, pearson, bias)


@dataclass(frozen=True)
class ClosedFormCheck:
    """The closed form next to the matrix route, on the full range and on the observed ratings.

    ``matrix`` is the engine's quadratic kappa on the full range scale (``None`` with
    ``matrix_error`` when that scale cannot be built, e.g. too many ratings). ``unused`` lists the
    ratings inside the range that nobody used; when there are some, ``observed_kappa`` (quadratic,
    observed scale) differs from the closed form, and ``positions`` (the closed form on each
    rating's position among the used ratings) equals it again.
    """

    closed: ClosedForm
    matrix: Walkthrough | None
    matrix_error: InputError | None
    unused: tuple[int, ...]
    observed_kappa: float | None
    positions: ClosedForm | None
    #: The ratings either rater used, in order.
    used: tuple[int, ...] = ()

    @property
    def dropping_unused(self) -> Literal["changes", "even", "same"] | None:
        """What leaving out the unused ratings does to quadratic kappa, as shown: it ``changes``
        it; it leaves it the same because the ratings left are ``even``-ly spaced (every distance
        shrinks by one factor, which cancels); or it leaves it the ``same`` by coincidence.
        ``None`` without unused ratings or a value to compare."""
        if not self.unused or self.observed_kappa is None or self.closed.kappa is None:
            return None
        if round(self.observed_kappa, DECIMALS) != round(self.closed.kappa, DECIMALS):
            return "changes"
        return "even" if len(set(np.diff(self.used).tolist())) == 1 else "same"


def check_closed_form(actual: RatingsLike, predicted: RatingsLike) -> ClosedFormCheck:
    """Compute the closed form and both matrix routes for one pair of rating vectors."""
    a = int_ratings(actual)
    b = int_ratings(predicted)
    closed = closed_form(a, b)
    matrix: Walkthrough | None = None
    error: InputError | None = None
    try:
        matrix = walkthrough(a, b, weights="quadratic", scale="range")
    except InputError as problem:
        error = problem
    used = np.union1d(np.unique(a), np.unique(b))
    unused: tuple[int, ...] = ()
    observed_kappa: float | None = None
    positions: ClosedForm | None = None
    if matrix is not None:
        unused = tuple(int(x) for x in np.setdiff1d(matrix.labels, used))
    if unused:
        try:
            observed_kappa = walkthrough(a, b, weights="quadratic", scale="observed").kappa
        except InputError:
            observed_kappa = None
        positions = closed_form(np.searchsorted(used, a), np.searchsorted(used, b))
    return ClosedFormCheck(closed, matrix, error, unused, observed_kappa, positions,
                           tuple(int(x) for x in used))


# --- 4. interpretation scales ---------------------------------------------------------------------


#: An interpretation scale, by its authors (``theory.band.<scale>`` in the locales).
InterpretationScale = Literal["landis_koch", "altman", "fleiss"]

#: Landis and Koch (1977), Biometrics 33, 159-174 (the same bands as :mod:`interpret`); Altman
#: (1991), Practical Statistics for Medical Research, p. 404; Fleiss (1981), Statistical Methods
#: for Rates and Proportions, 2nd ed., p. 218.
INTERPRETATION_SCALES: dict[InterpretationScale, tuple[ScaleBand, ...]] = {
    "landis_koch": LANDIS_KOCH_BANDS,
    "altman": (
        ScaleBand("poor", None, 0.2),
        ScaleBand("fair", 0.2, 0.4),
        ScaleBand("moderate", 0.4, 0.6),
        ScaleBand("good", 0.6, 0.8),
        ScaleBand("very_good", 0.8, 1.0),
    ),
    "fleiss": (
        ScaleBand("poor", None, 0.4, high_inclusive=False),
        ScaleBand("fair_good", 0.4, 0.75, low_inclusive=True),
        ScaleBand("excellent", 0.75, 1.0),
    ),
}


#: Publication year of each interpretation scale, for its citation.
SCALE_YEARS: dict[InterpretationScale, int] = {"landis_koch": 1977, "altman": 1991,
                                               "fleiss": 1981}


def band(scale: InterpretationScale, kappa: float | None) -> str | None:
    """The band code of ``kappa`` on one interpretation scale (``None`` when kappa is undefined).

    Kappa is rounded to the shown decimals first, so the band matches the printed number.

    >>> [band(s, 0.4) for s in INTERPRETATION_SCALES]
    ['fair', 'fair', 'fair_good']
    >>> [band(s, 0.78) for s in INTERPRETATION_SCALES]
    ['substantial', 'good', 'excellent']
    """
    if kappa is None or math.isnan(kappa):
        return None
    if scale == "landis_koch":
        return landis_koch(kappa)
    value = round(float(kappa), DECIMALS)
    for candidate in INTERPRETATION_SCALES[scale]:
        if candidate.contains(value):
            return candidate.code
    return INTERPRETATION_SCALES[scale][-1].code
