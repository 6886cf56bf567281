"""Interpretation bands (the documented import path; the code is in :mod:`.teaching.interpret`)."""

from __future__ import annotations

from .teaching.interpret import BAND_CODES, LANDIS_KOCH_BANDS, landis_koch

__all__ = ["BAND_CODES", "LANDIS_KOCH_BANDS", "landis_koch"]
