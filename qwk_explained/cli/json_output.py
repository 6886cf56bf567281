"""``--json``: every number of the walkthrough as one JSON object, plain numbers in any language."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.resampling import Bootstrap, Interval, exact_permutation_test
from qwk_explained.core.stats import KappaStatistics, KappaTest
from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.cells import ITEMS_SHOWN, first_items

#: Keys of the ``--json`` object, in order; the app and tests rely on exactly these.
JSON_KEYS = (
    "labels", "n", "observed", "actual_hist", "predicted_hist", "weights", "expected",
    "observed_norm", "expected_norm", "numerator", "denominator", "kappa", "undefined_reason",
    "se", "se0", "z", "p_value", "p_value_exact", "ci_low", "ci_high", "cost", "signed_cost",
    "influence", "bootstrap", "kappa0_test",
)


def plain(value: Any) -> Any:
    """A JSON-safe scalar: Python int/float, ``None`` for missing or non-finite values."""
    if value is None:
        return None
    if isinstance(value, np.integer | int) and not isinstance(value, bool):
        return int(value)
    number = float(value)
    return number if math.isfinite(number) else None


def matrix(values: NDArray[Any] | None) -> list[list[Any]] | None:
    """A matrix as nested lists of plain numbers, ``null`` for NaN (or the whole matrix)."""
    if values is None:
        return None
    return [[plain(value) for value in row] for row in values.tolist()]


def interval(bounds: Interval | None) -> list[float] | None:
    """An interval as ``[low, high]``."""
    return None if bounds is None else [float(bounds.low), float(bounds.high)]


def influence_json(result: Walkthrough) -> dict[str, Any]:
    """Kappa without one item and with one prediction moved, per cell (matrices indexed like
    O), and the cells whose fix pays most, first, with their first item numbers."""
    found = result.influence
    ranked = found.ranked()
    listed = first_items(result, [entry.cell for entry in ranked], ITEMS_SHOWN)
    labels = result.labels
    moved_to = [[None if i == j else int(labels[found.moved_to[i, j]])
                 for j in range(result.size)] for i in range(result.size)]
    return {
        "without": matrix(found.without),
        "moved": matrix(found.moved),
        "moved_to": moved_to,
        "ranked": [{
            "cell": [int(labels[entry.cell[0]]), int(labels[entry.cell[1]])],
            "count": entry.count,
            "items": listed[entry.cell] if result.actual is not None else None,
            "moved_to": int(labels[entry.moved_to]),
            "kappa_moved": plain(entry.kappa_moved),
            "gain": plain(entry.gain),
            "kappa_without": plain(entry.kappa_without),
        } for entry in ranked],
    }


def bootstrap_json(boot: Bootstrap | None) -> dict[str, Any] | None:
    """The bootstrap's settings, intervals and spread (``null`` when kappa is undefined)."""
    if boot is None:
        return None
    return {"resamples": boot.resamples, "seed": boot.seed, "confidence": boot.confidence,
            "percentile": interval(boot.percentile), "bca": interval(boot.bca),
            "se": plain(boot.se), "undefined_resamples": boot.undefined}


def kappa_test_json(test: KappaTest | None) -> dict[str, Any] | None:
    """The z test of kappa = kappa0, when one was asked for."""
    if test is None:
        return None
    return {"kappa0": test.kappa0, "se": plain(test.se), "uses_se0": test.uses_se0,
            "z": plain(test.z), "p_value": plain(test.p_value),
            "p_greater": plain(test.p_greater)}


def result_json(result: Walkthrough, stats: KappaStatistics, boot: Bootstrap | None = None,
                test: KappaTest | None = None) -> dict[str, Any]:
    """Every number of the walkthrough as plain JSON types (matrices as nested lists), with
    where kappa is lost, the bootstrap and the test against kappa0; ``p_value_exact`` is the
    exact permutation test's, for a few items (``null`` beyond
    :data:`~qwk_explained.core.resampling.EXACT_MAX_ITEMS`, or without a z test)."""
    exact = exact_permutation_test(result) if stats.z is not None else None
    costs = result.cost_map
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
        "cost": None if costs is None else matrix(costs.cost),
        "signed_cost": None if costs is None else matrix(costs.signed),
        "influence": influence_json(result),
        "bootstrap": bootstrap_json(boot),
        "kappa0_test": kappa_test_json(test),
    }
    return {key: payload[key] for key in JSON_KEYS}
