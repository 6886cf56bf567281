"""Words for a kappa value: the Landis and Koch (1977) interpretation bands.

Landis and Koch proposed these bands as a rough guide, not a test: "poor" below 0 (less agreement
than chance), then slight, fair, moderate, substantial and almost perfect in steps of 0.2. The
module returns a *code*; the name of each band lives in the locales under ``common.band.<code>``,
so the app and the CLI say the same thing in every language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

#: Decimals every number is shown with (sentences, tables, formulas, charts). Bands are read
#: from kappa rounded to them, so a kappa printed as 0.2 is "slight", never "fair".
DECIMALS = 4


#: The Landis and Koch bands, lowest first (``common.band.<code>`` in the locales).
BandCode = Literal["poor", "slight", "fair", "moderate", "substantial", "almost_perfect"]


@dataclass(frozen=True)
class Band:
    """One interpretation band: ``low < kappa <= high`` (the first band is open below)."""

    code: BandCode
    low: float
    high: float


#: Landis and Koch (1977), Biometrics 33(1), p. 165. Upper bounds are inclusive (0.20 is slight).
LANDIS_KOCH_BANDS: tuple[Band, ...] = (
    Band("poor", -math.inf, 0.0),
    Band("slight", 0.0, 0.2),
    Band("fair", 0.2, 0.4),
    Band("moderate", 0.4, 0.6),
    Band("substantial", 0.6, 0.8),
    Band("almost_perfect", 0.8, 1.0),
)

BAND_CODES: tuple[BandCode, ...] = get_args(BandCode)


def landis_koch(kappa: float | None) -> BandCode | None:
    """The Landis and Koch band code for ``kappa``, or ``None`` when kappa is undefined.

    Kappa is rounded to the decimals shown everywhere else first, so the band always matches the
    number the reader sees (a kappa printed as 0.2 is "slight", never "fair").

    >>> [landis_koch(k) for k in (-0.1392, 0.0, 0.2, 0.21, 0.6, 0.8)]
    ['poor', 'slight', 'slight', 'fair', 'moderate', 'substantial']
    >>> landis_koch(0.81), landis_koch(1.0)
    ('almost_perfect', 'almost_perfect')
    >>> landis_koch(None) is None, landis_koch(float("nan")) is None
    (True, True)
    """
    if kappa is None or math.isnan(kappa):
        return None
    value = round(float(kappa), DECIMALS)
    if value < 0:
        return "poor"
    for band in LANDIS_KOCH_BANDS[1:]:
        if value <= band.high:
            return band.code
    return LANDIS_KOCH_BANDS[-1].code
