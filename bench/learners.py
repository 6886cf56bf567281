"""Simulated learners who compute weighted kappa by hand, for measuring the checker.

Independent of ``qwk_explained.teaching`` (numpy and plain arithmetic only; the engine gives only
the data's scale), modelled on the teaching audit's generator: a learner sets up the scale, counts
O, writes the weights, the histograms' shares, E and E/n to a number of significant figures
(rounded or truncated), multiplies and sums by hand (each product written down or not), writes
num and den (or not) and forms kappa = 1 - num/den; optionally with one classic mistake in it.
:func:`writing` then writes a value as a learner types it: to so many significant figures or
decimals, rounded or truncated, with the decimal mark of a language.

Used by ``python -m bench.grading_audit`` and by the property tests of the checker.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: The classic mistakes a learner can make, as the checker names them.
MISTAKES = (
    "transposed", "expected_not_divided_by_n", "counts_not_shares", "mixed_counts_and_shares",
    "linear_weights", "quadratic_weights", "unweighted", "weights_not_normalized",
    "weights_divided_by_N_squared", "weights_divided_by_N_minus_1", "num_den_swapped",
    "forgot_one_minus", "sign", "observed_scale", "range_scale",
)


@dataclass(frozen=True)
class Data:
    """Two raters' ratings and the settings they are scored with."""

    actual: tuple[int, ...]
    predicted: tuple[int, ...]
    weighting: str = "quadratic"
    scale: str = "range"
    #: The ends of the scale when they are fixed (a practice exercise: 0..N-1).
    bounds: tuple[int, int] | None = None

    def as_json(self) -> dict[str, Any]:
        """The data as a line of ``qwk-explained check --batch`` takes it."""
        line: dict[str, Any] = {"actual": list(self.actual), "predicted": list(self.predicted),
                                "weights": self.weighting, "scale": self.scale}
        if self.bounds is not None:
            line["min_rating"], line["max_rating"] = self.bounds
        return line


def random_data(rng: np.random.Generator, weighting: str | None = None) -> Data:
    """N = 2..8 ratings from a random first label, n = 5..60 items, predictions near the actual
    ratings (sometimes far, sometimes constant); a rating inside the range left unused in a
    quarter of the cases; any weighting and scale."""
    size, n = int(rng.integers(2, 9)), int(rng.integers(5, 61))
    start = int(rng.integers(-2, 4))
    actual = rng.integers(0, size, n)
    spread = rng.choice([1, 2, 3])
    predicted = np.clip(actual + rng.integers(-spread, spread + 1, n), 0, size - 1)
    if rng.random() < 0.05:
        predicted[:] = rng.integers(0, size)
    if rng.random() < 0.25 and size >= 4:
        actual[actual == 1], predicted[predicted == 1] = 2, 2
    kind = weighting or str(rng.choice(["quadratic", "linear", "unweighted"]))
    scale = "range" if rng.random() < 0.7 else "observed"
    return Data(tuple(int(x) for x in actual + start), tuple(int(x) for x in predicted + start),
                kind, scale)


# --- writing numbers ------------------------------------------------------------------------------


def _decimal(value: float) -> Decimal:
    # Twelve figures drop binary noise: 1.4 / 10 is 0.13999999999999999, which a learner
    # truncating to 3 figures writes 0.140, not 0.139.
    return Decimal(f"{float(value):.12g}")


def to_figures(value: float, figures: int, truncate: bool = False) -> float:
    """``value`` rounded (half up) or truncated to ``figures`` significant figures."""
    if value == 0 or not math.isfinite(value):
        return float(value)
    exponent = math.floor(math.log10(abs(value))) - figures + 1
    quantum = Decimal(1).scaleb(exponent)
    mode = ROUND_DOWN if truncate else ROUND_HALF_UP
    return float(_decimal(value).quantize(quantum, rounding=mode))


def writing(value: float, *, figures: int | None = None, decimals: int | None = None,
            truncate: bool = False, mark: str = ".") -> str:
    """``value`` as a learner types it: to ``figures`` significant figures or ``decimals``
    decimals, rounded or truncated, trailing zeros kept, with the decimal ``mark``."""
    number = _decimal(value)
    mode = ROUND_DOWN if truncate else ROUND_HALF_UP
    if decimals is not None:
        text = f"{number.quantize(Decimal(1).scaleb(-decimals), rounding=mode):f}"
    elif value == 0:
        text = "0"
    else:
        assert figures is not None
        exponent = math.floor(math.log10(abs(value))) - figures + 1
        text = f"{number.quantize(Decimal(1).scaleb(exponent), rounding=mode):f}"
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]  # "-0.000" is 0
    return text.replace(".", mark)


# --- a calculation on paper -----------------------------------------------------------------------


@dataclass(frozen=True)
class Habits:
    """How a learner writes intermediates: to ``figures`` significant figures (0: exactly, in
    rational arithmetic), rounded or ``truncate``-d; E/n from the shares (``via_shares``) or
    as E / n; each product written (``products``); num and den written before dividing
    (``sums``)."""

    figures: int = 3
    truncate: bool = False
    via_shares: bool = True
    products: bool = False
    sums: bool = False


#: The exact calculation (rational arithmetic): the values every rounding is measured from.
EXACT = Habits(figures=0)


def random_habits(rng: np.random.Generator, figures: int = 3) -> Habits:
    return Habits(figures, bool(rng.random() < 0.3), bool(rng.random() < 0.5),
                  bool(rng.random() < 0.5), bool(rng.random() < 0.5))


def _scale(data: Data, scale: str) -> NDArray[np.int64]:
    used = np.union1d(data.actual, data.predicted)
    if scale == "observed":
        return used
    low, high = data.bounds or (int(used.min()), int(used.max()))
    return np.arange(low, high + 1)


def learner(data: Data, habits: Habits = Habits(), mistake: str | None = None,
            mixed_side: str = "E") -> dict[str, Any]:
    """The whole calculation as a learner does it on paper, with ``mistake`` made (or none):
    every intermediate written as ``habits`` say. Returns the learner's values (matrices indexed
    by positions on their own scale, ``labels``)."""
    scale = {"observed_scale": "observed", "range_scale": "range"}.get(mistake or "", data.scale)
    labels = _scale(data, scale)
    size = labels.size
    where = {int(label): k for k, label in enumerate(labels)}
    exact = habits.figures == 0
    number = Fraction if exact else float
    observed = np.array([[number(0)] * size for _ in range(size)], dtype=object)
    for a, p in zip(data.actual, data.predicted, strict=True):
        observed[where[a], where[p]] += 1
    if mistake == "transposed":
        observed = observed.T
    n = observed.sum()

    def w(values: Any) -> Any:
        if exact:
            return values
        return np.vectorize(lambda x: to_figures(float(x), habits.figures, habits.truncate),
                            otypes=[object])(values)

    kind = {"linear_weights": "linear", "quadratic_weights": "quadratic",
            "unweighted": "unweighted"}.get(mistake or "", data.weighting)
    distance = np.array([[number(abs(i - j)) for j in range(size)] for i in range(size)],
                        dtype=object)
    if kind == "unweighted" or size < 2:
        weights = np.where(distance > 0, number(1), number(0))
    else:
        power = 2 if kind == "quadratic" else 1
        divisor = {"weights_not_normalized": 1.0, "weights_divided_by_N_squared": size**power,
                   "weights_divided_by_N_minus_1": size - 1}.get(mistake or "",
                                                                 (size - 1) ** power)
        weights = w(distance**power / number(divisor))
    actual_hist, predicted_hist = observed.sum(axis=1), observed.sum(axis=0)
    divide = number(1) if mistake == "expected_not_divided_by_n" else n
    if habits.via_shares:
        shares = np.outer(w(actual_hist / n), w(predicted_hist / n))
        expected = w(shares * n * n / divide)
        expected_norm = w(shares * n / divide)
    else:
        expected = w(np.outer(actual_hist, predicted_hist) / divide)
        expected_norm = w(expected / n)
    observed_norm = w(observed / n)
    o_used, e_used = observed_norm, expected_norm
    if mistake == "counts_not_shares":
        observed_norm, expected_norm = observed, expected
        o_used, e_used = observed, expected
    elif mistake == "mixed_counts_and_shares":
        if mixed_side == "O":
            o_used = observed
        else:
            e_used = expected

    def total(products: Any) -> Any:
        return (w(products) if habits.products else products).sum()

    numerator, denominator = total(weights * o_used), total(weights * e_used)
    if habits.sums:
        numerator, denominator = w(numerator), w(denominator)
    if mistake == "num_den_swapped":
        numerator, denominator = denominator, numerator
    kappa = 1 - numerator / denominator if denominator else math.nan
    if mistake == "forgot_one_minus":
        kappa = numerator / denominator if denominator else math.nan
    elif mistake == "sign":
        kappa = -kappa

    def real(values: Any) -> Any:
        return np.asarray(values, dtype=np.float64) if isinstance(values, np.ndarray) else float(
            values)

    return {"labels": labels, "observed": real(observed), "weights": real(weights),
            "expected": real(expected), "observed_norm": real(observed_norm),
            "expected_norm": real(expected_norm), "actual_hist": real(actual_hist),
            "predicted_hist": real(predicted_hist), "numerator": real(numerator),
            "denominator": real(denominator), "kappa": real(kappa)}


def applies(mistake: str, data: Data) -> bool:
    """Whether a learner of ``data`` can make ``mistake`` at all (and it changes something)."""
    used = np.union1d(data.actual, data.predicted)
    gap = used.size < used.max() - used.min() + 1
    if mistake in ("linear_weights", "quadratic_weights", "unweighted"):
        # On two ratings every weighting is the same.
        return not mistake.startswith(data.weighting) and _scale(data, data.scale).size > 2
    if mistake in ("weights_not_normalized", "weights_divided_by_N_squared"):
        return data.weighting != "unweighted"
    if mistake == "weights_divided_by_N_minus_1":
        return data.weighting == "quadratic"
    if mistake == "observed_scale":
        return data.scale == "range" and gap
    if mistake == "range_scale":
        return data.scale == "observed" and gap
    return True
