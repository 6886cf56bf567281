"""``--json``: every number of the walkthrough as one JSON object, plain numbers in any language."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from qwk_explained.core.resampling import exact_permutation_test
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough

#: Keys of the ``--json`` object, in order; the app and tests rely on exactly these.
JSON_KEYS = (
    "labels", "n", "observed", "actual_hist", "predicted_hist", "weights", "expected",
    "observed_norm", "expected_norm", "numerator", "denominator", "kappa", "undefined_reason",
    "se", "se0", "z", "p_value", "p_value_exact", "ci_low", "ci_high",
)


def plain(value: Any) -> Any:
    """A JSON-safe scalar: Python int/float, ``None`` for missing or non-finite values."""
    if value is None:
        return None
    if isinstance(value, np.integer | int) and not isinstance(value, bool):
        return int(value)
    number = float(value)
    return number if math.isfinite(number) else None


def result_json(result: Walkthrough, stats: KappaStatistics) -> dict[str, Any]:
    """Every number of the walkthrough as plain JSON types (matrices as nested lists);
    ``p_value_exact`` is the exact permutation test's, for a few items (``null`` beyond
    :data:`~qwk_explained.core.resampling.EXACT_MAX_ITEMS`, or without a z test)."""
    exact = exact_permutation_test(result) if stats.z is not None else None
    payload: dict[str, Any] = {
        "labels": result.labels.tolist(),
        "n": int(result.n),
        "observed": result.observed.tolist(),
        "actual_hist": result.actual_hist.tolist(),
        "predicted_hist": result.predicted_hist.tolist(),
        "weights": result.weights.tolist(),
        "expected": result.expected.tolist(),
        "observed_norm": result.observed_norm.tolist(),
        "expected_norm": result.expected_norm.tolist(),
        "numerator": plain(result.numerator),
        "denominator": plain(result.denominator),
        "kappa": plain(result.kappa),
        "undefined_reason": result.undefined_reason,
        "se": plain(stats.se),
        "se0": plain(stats.se0),
        "z": plain(stats.z),
        "p_value": plain(stats.p_value),
        "p_value_exact": None if exact is None else plain(exact.p_value),
        "ci_low": plain(stats.ci_low),
        "ci_high": plain(stats.ci_high),
    }
    return {key: payload[key] for key in JSON_KEYS}
