"""Sampling statistics of weighted kappa: standard errors, z, p-value, confidence interval.

Formulas of Fleiss, Cohen and Everitt (1969), as SAS PROC FREQ prints them (AGREE option). SAS
writes weighted kappa with *agreement* weights a_ij (1 on the diagonal); our disagreement weights w
convert as a = 1 - w / max(w), which leaves kappa unchanged. With p = O/n, row margins p_i. and
column margins p_.j: P_o = sum a p, P_e = sum a p_i. p_.j, abar_i = sum_j p_.j a_ij and abar_j =
sum_i p_i. a_ij;

    var(kappa)    = [sum p_ij (a_ij - (abar_i + abar_j)(1 - kappa))^2 - (kappa - P_e (1 - kappa))^2]
                    / (n (1 - P_e)^2)
    var_0(kappa)  = [sum p_i. p_.j (a_ij - (abar_i + abar_j))^2 - P_e^2] / (n (1 - P_e)^2)

The first is the asymptotic variance (for the confidence interval), the second the variance under
the null hypothesis of chance agreement (for the z test). Each bracket is the variance of one
term over the cells (the subtracted square is the term's mean), so it is 0 exactly when the term
is the same in every occupied cell: that is decided structurally (:func:`_variance`), never left to
floating-point noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from .errors import InputError


class CountedTable(Protocol):
    """What the statistics need of a result: the counts, their margins and the weights.

    A :class:`~qwk_explained.core.steps.Walkthrough` is one. The statistics are a step *after*
    the walkthrough, so they ask for the fields they read instead of importing the class.
    """

    @property
    def n(self) -> int: ...
    @property
    def kappa(self) -> float | None: ...
    @property
    def weights(self) -> NDArray[np.float64]: ...
    @property
    def observed_norm(self) -> NDArray[np.float64]: ...
    @property
    def actual_hist(self) -> NDArray[np.int64]: ...
    @property
    def predicted_hist(self) -> NDArray[np.int64]: ...


@dataclass(frozen=True)
class KappaStatistics:
    """Inference for one kappa; every field but ``confidence`` is ``None`` when kappa is undefined.

    Attributes
    ----------
    kappa : float or None
        The weighted kappa the statistics are about.
    se, se0 : float or None
        Asymptotic standard error (for the confidence interval) and standard error under the
        null hypothesis of chance agreement (for the z test).
    z, p_value : float or None
        ``kappa / se0`` and its two-sided p-value; ``None`` when ``se0`` is 0 (nothing varies under
        chance agreement).
    confidence : float
        Level of the confidence interval, e.g. 0.95.
    ci_low, ci_high : float or None
        ``kappa -/+ z_(1 - alpha/2) * se`` (:attr:`z_critical` is that z).
    p_o, p_e : float or None
        Observed and chance-expected *agreement* (agreement weights ``a = 1 - w / max(w)``), so
        that ``kappa = (p_o - p_e) / (1 - p_e)``.
    """

    kappa: float | None
    se: float | None
    se0: float | None
    z: float | None
    p_value: float | None
    confidence: float
    ci_low: float | None
    ci_high: float | None
    p_o: float | None
    p_e: float | None

    @property
    def z_critical(self) -> float:
        """The normal quantile z_(1 - alpha/2) of the interval's level: 1.96 for 95 %.

        >>> round(KappaStatistics(None, None, None, None, None, 0.95, None, None, None,
        ...                       None).z_critical, 4)
        1.96
        """
        return z_critical(self.confidence)


#: Terms that differ by less than this, relative to their size, are equal: what floating-point
#: arithmetic leaves of a spread that is exactly 0.
_SAME = 1e-9


def _variance(weights: NDArray[np.float64], terms: NDArray[np.float64]) -> float:
    """The variance of ``terms`` over the cells, each cell weighing ``weights`` (they sum to 1).

    Both variances of kappa have this form: var = sum p t^2 - (sum p t)^2 (the subtracted square
    is the mean of the terms). It is 0 exactly when the terms are the same in every cell that
    weighs anything: perfect agreement, perfect reversal, a constant rater. That is decided from
    the terms themselves, not from the difference of two nearly equal sums, whose rounding
    left a variance of 1e-16 (an "interval from 1 to 1") or of -1e-17 (a "z = 0 / 0") on such
    tables; otherwise the deviations from the mean are summed (two passes, no cancellation).
    """
    occupied = weights > 0
    values = terms[occupied]
    mean = float((weights[occupied] * values).sum())
    deviations = values - mean
    if np.abs(deviations).max() <= _SAME * max(1.0, float(np.abs(values).max())):
        return 0.0
    return float((weights[occupied] * deviations**2).sum())


def z_critical(confidence: float) -> float:
    """z_(1 - alpha/2) for a two-sided interval of level ``confidence`` (alpha = 1 - level)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def kappa_statistics(result: CountedTable, confidence: float = 0.95) -> KappaStatistics:
    r"""Standard errors, z test and confidence interval of a weighted kappa.

    Parameters
    ----------
    result : Walkthrough
        The computed steps (any object with ``n``, ``kappa``, ``weights``, ``observed_norm``,
        ``actual_hist`` and ``predicted_hist`` will do, see :class:`CountedTable`).
    confidence : float, default=0.95
        Level of the confidence interval, strictly between 0 and 1.

    Returns
    -------
    KappaStatistics
        Kappa, both standard errors, z, the two-sided p-value, the interval and P_o, P_e. Every
        field but ``confidence`` is ``None`` when kappa is undefined (0/0), or when every weight
        is 0 (nothing can disagree).

    Raises
    ------
    InputError
        ``bad_confidence`` when ``confidence`` is not a number strictly between 0 and 1.

    See Also
    --------
    qwk_explained.Walkthrough.statistics : The same, as a method of the result.

    Notes
    -----
    The large-sample formulas of Fleiss, Cohen and Everitt (1969), as SAS PROC FREQ prints them.
    They are written with *agreement* weights, 1 on the diagonal; the disagreement weights
    :math:`w` convert as below, which leaves kappa unchanged. With :math:`p_{ij} = O_{ij}/n` and
    the margins :math:`p_{i\cdot} = h^a_i/n`, :math:`p_{\cdot j} = h^p_j/n`:

    .. math::

        a_{ij} = 1 - \frac{w_{ij}}{\max w}, \qquad
        P_o = \sum_{i,j} a_{ij}\, p_{ij}, \qquad
        P_e = \sum_{i,j} a_{ij}\, p_{i\cdot}\, p_{\cdot j}, \qquad
        \kappa = \frac{P_o - P_e}{1 - P_e},

        \bar a_{i\cdot} = \sum_j p_{\cdot j}\, a_{ij}, \qquad
        \bar a_{\cdot j} = \sum_i p_{i\cdot}\, a_{ij},

        \operatorname{Var}(\kappa) = \frac{\sum_{i,j} p_{ij} \left[a_{ij} - (\bar a_{i\cdot}
        + \bar a_{\cdot j})(1 - \kappa)\right]^2 - \left[\kappa - P_e (1 - \kappa)\right]^2}
        {n\,(1 - P_e)^2},

        \operatorname{Var}_0(\kappa) = \frac{\sum_{i,j} p_{i\cdot}\, p_{\cdot j} \left[a_{ij}
        - (\bar a_{i\cdot} + \bar a_{\cdot j})\right]^2 - P_e^2}{n\,(1 - P_e)^2}.

    Then :math:`\mathrm{SE} = \sqrt{\operatorname{Var}(\kappa)}` gives the interval
    :math:`\kappa \pm z_{1-\alpha/2}\,\mathrm{SE}`, and
    :math:`\mathrm{SE}_0 = \sqrt{\operatorname{Var}_0(\kappa)}` the test of chance agreement
    :math:`z = \kappa / \mathrm{SE}_0`, :math:`p = 2\,(1 - \Phi(|z|))`. Both are asymptotic: with
    a handful of items they are rough guides.

    References
    ----------
    .. [1] J. L. Fleiss, J. Cohen and B. S. Everitt (1969), "Large sample standard errors of kappa
       and weighted kappa", Psychological Bulletin 72(5), 323-327.
    .. [2] J. Cohen (1968), "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220.

    Examples
    --------
    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> stats = kappa_statistics(result)
    >>> round(stats.kappa, 4), round(stats.se, 4), round(stats.se0, 4)
    (-0.1392, 0.0741, 0.0993)
    >>> round(stats.z, 4), round(stats.p_value, 4)
    (-1.4015, 0.1611)
    >>> round(stats.ci_low, 4), round(stats.ci_high, 4)
    (-0.2846, 0.0061)
    >>> kappa_statistics(walkthrough([2, 2, 2], [2, 2, 2])).se is None  # kappa is 0/0
    True
    """
    if not (isinstance(confidence, int | float) and 0 < confidence < 1):
        raise InputError("bad_confidence", value=str(confidence))
    top = float(result.weights.max()) if result.weights.size else 0.0
    if result.kappa is None or top <= 0:
        return KappaStatistics(kappa=result.kappa, se=None, se0=None, z=None, p_value=None,
                               confidence=confidence, ci_low=None, ci_high=None, p_o=None,
                               p_e=None)
    n = result.n
    agreement = 1.0 - result.weights / top
    p = result.observed_norm
    rows = result.actual_hist / n
    cols = result.predicted_hist / n
    p_o = float((agreement * p).sum())
    p_e = float(rows @ agreement @ cols)
    kappa = (p_o - p_e) / (1.0 - p_e)
    abar_rows = agreement @ cols  # abar_i.
    abar_cols = rows @ agreement  # abar_.j
    margin_sum = abar_rows[:, None] + abar_cols[None, :]
    scale = n * (1.0 - p_e) ** 2
    var = _variance(p, agreement - margin_sum * (1.0 - kappa)) / scale
    var0 = _variance(np.outer(rows, cols), agreement - margin_sum) / scale
    se = math.sqrt(var)
    se0 = math.sqrt(var0)
    z = result.kappa / se0 if se0 > 0 else None
    p_value = math.erfc(abs(z) / math.sqrt(2.0)) if z is not None else None
    half = z_critical(confidence) * se
    return KappaStatistics(
        kappa=result.kappa,
        se=se,
        se0=se0,
        z=z,
        p_value=p_value,
        confidence=confidence,
        ci_low=result.kappa - half,
        ci_high=result.kappa + half,
        p_o=p_o,
        p_e=p_e,
    )


@dataclass(frozen=True)
class KappaTest:
    """The z test of "kappa = kappa0" against "kappa differs from kappa0".

    Attributes
    ----------
    kappa0 : float
        The value tested.
    kappa : float or None
        The estimate.
    se : float or None
        The standard error used: SE0 when ``kappa0`` is 0 (chance agreement: the raters are
        independent under the null hypothesis, given the margins), SE otherwise (the raters are
        not independent when kappa is kappa0 > 0, so only the large-sample SE describes kappa's
        spread).
    uses_se0 : bool
        Whether ``se`` is SE0.
    z : float or None
        ``(kappa - kappa0) / se``; ``None`` when kappa or that standard error is undefined or 0.
    p_value : float or None
        Two-sided.
    p_greater : float or None
        One-sided, for "kappa > kappa0" (the question "is agreement at least 0.6?").
    """

    kappa0: float
    kappa: float | None
    se: float | None
    uses_se0: bool
    z: float | None
    p_value: float | None
    p_greater: float | None


def check_kappa0(kappa0: object) -> float:
    """``kappa0`` as a float in [-1, 1], else ``bad_kappa_null``."""
    if (isinstance(kappa0, bool) or not isinstance(kappa0, int | float | np.floating)
            or not -1.0 <= float(kappa0) <= 1.0):
        raise InputError("bad_kappa_null", value=str(kappa0))
    return float(kappa0)


def kappa_test(result: CountedTable, kappa0: float) -> KappaTest:
    r"""Test the hypothesis kappa = kappa0 with the large-sample z statistic.

    Parameters
    ----------
    result : Walkthrough
        The computed steps.
    kappa0 : float
        The value to test, between -1 and 1; 0 is the classic test of chance agreement.

    Returns
    -------
    KappaTest
        z, the two-sided p-value and the one-sided one for kappa > kappa0.

    Raises
    ------
    InputError
        ``bad_kappa_null`` when ``kappa0`` is not a number between -1 and 1.

    Notes
    -----
    .. math::

        z = \frac{\kappa - \kappa_0}{\mathrm{SE}_{\kappa_0}}, \qquad
        \mathrm{SE}_{\kappa_0} = \begin{cases} \mathrm{SE}_0 & \kappa_0 = 0 \\
        \mathrm{SE} & \kappa_0 \neq 0 \end{cases}

    Under kappa = 0 the raters are independent given their margins, and SE0 is kappa's standard
    error under exactly that hypothesis; a kappa0 other than 0 says nothing that fixes the
    table's cells, so the test uses the large-sample SE (Fleiss, Levin and Paik 2003, section
    18.1), as the interval does: kappa0 lies outside the interval at level 1 - alpha exactly
    when this two-sided p-value is below alpha.

    References
    ----------
    .. [1] J. L. Fleiss, B. Levin and M. C. Paik (2003), *Statistical Methods for Rates and
       Proportions*, 3rd ed., Wiley, chapter 18.

    Examples
    --------
    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> test = kappa_test(result, 0)
    >>> test.uses_se0, round(test.z, 4) == round(result.statistics().z, 4)
    (True, True)
    >>> round(kappa_test(result, 0.6).z, 2)
    -9.97
    """
    kappa0 = check_kappa0(kappa0)
    stats = kappa_statistics(result)
    uses_se0 = kappa0 == 0
    se = stats.se0 if uses_se0 else stats.se
    if result.kappa is None or se is None or se <= 0:
        return KappaTest(kappa0, result.kappa, se, uses_se0, None, None, None)
    z = (result.kappa - kappa0) / se
    return KappaTest(kappa0, result.kappa, se, uses_se0, z,
                     math.erfc(abs(z) / math.sqrt(2.0)), 0.5 * math.erfc(z / math.sqrt(2.0)))
