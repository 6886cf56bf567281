r"""How far legitimate hand rounding can move each quantity of a weighted kappa calculation.

A learner who works on paper, as textbooks and the reference notebooks do, writes every
intermediate to three significant figures (:data:`FIGURES`) and carries on from the written
number: the weights w, the shares O/n, the histograms' shares h/n, E and E/n, each product
w·O/n and w·E/n, and num and den before dividing them. Rounding a value x to three figures moves
it by at most

.. math::

    \rho(x) = \tfrac12\, 10^{\lfloor \log_{10} |x| \rfloor - 2}

(half a unit in its third significant figure; ``rho(0) = 0``) either way; truncating it, by up to
2ρ(x), always towards 0. A value worked out exactly from the data's whole numbers (w, O/n, h/n,
E = h^a h^p / n) moves by exactly what rounding, or truncating, it to three figures does
(:func:`written_errors`; keeping more figures moves it less); one worked out from written numbers
by up to ρ, or 2ρ. This module carries those errors through each step's formula by interval
arithmetic, with the data's own numbers, so that the *band* of a quantity is the most a careful
learner's value can differ from the exact one:

- O, w, the histograms and O/n come from whole numbers in one step: band 0 (the answer's own
  digits are its only rounding);
- E = n (h^a_i/n)(h^p_j/n) from written shares a and p: n (a δp + p δa + δa δp); E/n the same
  without n, or E written and divided by n (δE / n), whichever is larger;
- num = Σ w·O/n: each product from written factors, itself written,
  ``w δo + o δw + δw δo + ρ(w o)`` summed over the cells; den the same with E/n, its band and
  its writing (a value that is still exact when written moves only by what writing it does);
- kappa = 1 - num/den: num and den written once more, the ratio at the worst ends of their
  intervals (it is monotone in each while den stays away from 0).

A learner either rounds or truncates (:data:`HABITS`); every quantity here is at least 0, so
a truncating learner's num and den are both low, and their ratio moves less than either: the
band of kappa is the larger of the two habits' bands, each worked out on its own. A cell with
no item or a zero weight adds nothing, so the band is tight where the numbers are small. The
bound is a worst case (it keeps the products of two errors too): the errors of a real
calculation partly cancel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from numpy.typing import NDArray

#: Significant figures a careful learner keeps in every intermediate step.
FIGURES = 3


def rounding_errors(values: NDArray[np.float64], figures: int = FIGURES) -> NDArray[np.float64]:
    """The most rounding each of ``values`` to ``figures`` significant figures can move it: ρ.

    >>> rounding_errors(np.array([0.0625, 12.3, 0.0])).tolist()
    [5e-05, 0.05, 0.0]
    """
    size = np.abs(np.asarray(values, dtype=np.float64))
    out = np.zeros_like(size)
    nonzero = size > 0
    out[nonzero] = 0.5 * 10.0 ** (np.floor(np.log10(size[nonzero])) - figures + 1)
    return out


#: How a learner writes a number to three figures: rounded (either way) or truncated (towards 0).
Habit = Literal["rounding", "truncating"]
HABITS: tuple[Habit, ...] = get_args(Habit)


def written_errors(values: NDArray[np.float64], habit: Habit = "rounding",
                   figures: int = FIGURES) -> NDArray[np.float64]:
    """How far writing exact ``values`` to ``figures`` significant figures moves each one, in
    the learner's ``habit`` (keeping more figures moves it less).

    >>> written_errors(np.array([0.0625, 1 / 9, 2 / 3, 0.29])).round(7).tolist()
    [0.0, 0.0001111, 0.0003333, 0.0]
    >>> written_errors(np.array([2 / 3]), "truncating").round(7).tolist()
    [0.0006667]
    """
    size = np.abs(np.asarray(values, dtype=np.float64))
    out = np.zeros_like(size)
    nonzero = size > 0
    unit = 10.0 ** (np.floor(np.log10(size[nonzero])) - figures + 1)
    scaled = size[nonzero] / unit
    if habit == "truncating":
        # A hair above: 0.29 / 0.001 is 289.99999999999997, which truncates to 289, not 290.
        written = np.floor(scaled * (1 + 1e-12)) * unit
    else:
        written = np.round(scaled) * unit
    error = np.abs(written - size[nonzero])
    # Binary noise is no rounding: 1/10 is written 0.100 exactly.
    out[nonzero] = np.where(error <= 1e-12 * size[nonzero], 0.0, error)
    return out


def _then_written(values: NDArray[np.float64], error: NDArray[np.float64],
                  habit: Habit) -> NDArray[np.float64]:
    """The error of ``values`` (each already off by up to ``error``) once written to three
    figures: exactly what writing does to a value that is still exact, else up to half a unit
    in its third figure (rounding) or a whole one (truncating)."""
    unit = 2.0 if habit == "truncating" else 1.0
    return error + np.where(error == 0, written_errors(values, habit),
                            unit * rounding_errors(values))


def _product(a: NDArray[np.float64], da: NDArray[np.float64], b: NDArray[np.float64],
             db: NDArray[np.float64]) -> NDArray[np.float64]:
    """How far a b can move when a and b (both >= 0) move by da and db."""
    return a * db + b * da + da * db


@dataclass(frozen=True)
class Bands:
    """The band of every quantity of one calculation (same shapes as the quantities).

    ``expected_norm`` is the band of E/n before the learner writes it down; ``numerator`` and
    ``denominator`` those of num and den before they are written; :meth:`ratio` gives kappa's.
    """

    expected: NDArray[np.float64]
    expected_norm: NDArray[np.float64]
    numerator: float
    denominator: float


def bands(weights: NDArray[np.float64], observed: NDArray[np.int64] | NDArray[np.float64],
          habit: Habit = "rounding") -> Bands:
    """The bands of E, E/n, num and den for counts ``observed`` (rows: actual ratings) and
    disagreement ``weights``, for a learner with ``habit``.

    >>> from qwk_explained import walkthrough
    >>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    >>> b = bands(result.weights, result.observed)  # num: every product is exact at 3 figures
    >>> round(b.numerator, 6), round(b.denominator, 6)
    (0.0, 0.00067)
    """
    counts = np.asarray(observed, dtype=np.float64)
    n = float(counts.sum())
    w = np.abs(np.asarray(weights, dtype=np.float64))
    actual, predicted = counts.sum(axis=1) / n, counts.sum(axis=0) / n
    shares = _product(actual[:, None], written_errors(actual, habit)[:, None],
                      predicted[None, :], written_errors(predicted, habit)[None, :])
    expected = n * np.outer(actual, predicted)
    o, e = counts / n, expected / n
    expected_norm = np.maximum(shares, written_errors(expected, habit) / n)
    dw = written_errors(w, habit)
    num_terms = _then_written(w * o, _product(w, dw, o, written_errors(o, habit)), habit)
    den_terms = _then_written(w * e, _product(w, dw, e, _then_written(e, expected_norm, habit)),
                              habit)
    # A cell with no items or no weight is 0 whatever the learner writes.
    num_terms[(counts == 0) | (w == 0)] = 0.0
    den_terms[(e == 0) | (w == 0)] = 0.0
    return Bands(n * shares, expected_norm, float(num_terms.sum()), float(den_terms.sum()))


def ratio_band(top: float, top_band: float, bottom: float, bottom_band: float,
               habit: Habit = "rounding") -> float:
    """The band of top/bottom (num/den, or den/num) for a learner with ``habit`` whose top and
    bottom are off by up to their bands and who writes both to three figures before dividing;
    ``inf`` when the bottom could be 0 within its band. Rounding moves each either way;
    truncating moves both towards 0, so the ratio moves less.

    >>> round(ratio_band(0.45, 0.0, 0.395, 0.00067), 6)  # kappa's band, adoption-speed data
    0.003384
    """
    top_band = float(_then_written(np.array(top), np.array(top_band), habit))
    bottom_band = float(_then_written(np.array(bottom), np.array(bottom_band), habit))
    if bottom == 0 or abs(bottom) <= bottom_band:
        return math.inf
    ratio = top / bottom
    # Truncating only shrinks each (all of them are >= 0): -1 is the only way either moves.
    ways = (-1,) if habit == "truncating" else (-1, 1)
    corners = [(top + s * top_band) / (bottom + t * bottom_band) for s in ways for t in ways]
    corners += [(top + s * top_band) / bottom for s in ways]
    corners += [top / (bottom + t * bottom_band) for t in ways]
    return max(abs(corner - ratio) for corner in corners)
