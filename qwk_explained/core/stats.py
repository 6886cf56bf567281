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
the null hypothesis of chance agreement (for the z test).
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
    """Inference for one kappa; every field is ``None`` when kappa is undefined."""

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


def kappa_statistics(result: CountedTable, confidence: float = 0.95) -> KappaStatistics:
    """Asymptotic SE, SE under H0, z, two-sided p-value and CI of ``result.kappa``."""
    if not (isinstance(confidence, int | float) and 0 < confidence < 1):
        raise InputError("bad_confidence", value=str(confidence))
    empty = KappaStatistics(result.kappa, *[None] * 4, confidence, *[None] * 4)
    top = float(result.weights.max()) if result.weights.size else 0.0
    if result.kappa is None or top <= 0:
        return empty
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
    var = ((p * (agreement - margin_sum * (1.0 - kappa)) ** 2).sum()
           - (kappa - p_e * (1.0 - kappa)) ** 2) / scale
    var0 = ((np.outer(rows, cols) * (agreement - margin_sum) ** 2).sum() - p_e**2) / scale
    # Rounding can leave a true zero variance (perfect agreement) a hair below 0.
    se = math.sqrt(max(float(var), 0.0))
    se0 = math.sqrt(max(float(var0), 0.0))
    z = result.kappa / se0 if se0 > 0 else None
    p_value = math.erfc(abs(z) / math.sqrt(2.0)) if z is not None else None
    half = NormalDist().inv_cdf(0.5 + confidence / 2.0) * se
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
