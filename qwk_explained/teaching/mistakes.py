r"""The classic mistakes of a hand calculation of weighted kappa, and the values each produces.

A learner's wrong value is explained by re-doing the calculation with the mistake in it. The
mistakes, each named by a :data:`Code` (part of the command line's JSON; the locales explain each
under ``checker.diagnosis.<code>``):

- ``transposed``: O or E read with rows and columns swapped (O_ji for O_ij; h^p for h^a);
- ``expected_not_divided_by_n``: E_ij = h^a_i h^p_j, without the division by n;
- ``counts_not_shares``: num and den from the counts O and E instead of the shares O/n and E/n,
  a valid convention (kappa unchanged), but a mistake in the grids of O/n and E/n;
- ``mixed_counts_and_shares``: counts for one of O, E and shares for the other, so that
  kappa = 1 - (num/den)/n or 1 - n num/den;
- ``linear_weights``, ``quadratic_weights``, ``unweighted``: another weighting than asked for;
- ``weights_not_normalized``: (i-j)^2 (or |i-j|) without dividing by (N-1)^2 (or N-1);
- ``weights_divided_by_N_squared``: divided by N^2 instead of (N-1)^2 (linear: N for N-1);
- ``weights_divided_by_N_minus_1``: (i-j)^2 divided by N-1 instead of (N-1)^2;
- ``num_den_swapped``: the other sum typed in its place, or kappa = 1 - den/num;
- ``forgot_one_minus``: kappa = num/den;
- ``sign``: kappa of the right size with the wrong sign;
- ``observed_scale``, ``range_scale``: a rating nobody used dropped from the scale, or kept,
  against the chosen convention (N changes the weights).

:func:`mistake_model` builds, once per result, every "world" a learner could have computed in: the
scale (the chosen one or the other convention) and the weights (the asked weighting or another,
normalized or with a wrong divisor). :func:`candidates` then lists, for one quantity, the values
each combination of at most two mistakes gives, with the codes it needs and its band: how far a
careful learner who made those mistakes can be from it after writing every intermediate to three
significant figures (:mod:`.hand_rounding`). :meth:`MistakeModel.band` gives the same band for the
right value. Which candidate explains a typed value is decided by :mod:`.checking`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, get_args

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.limits import MAX_RATINGS
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Quantity, Weighting

from . import hand_rounding
from .hand_rounding import HABITS, Bands, Habit, ratio_band

#: Every mistake the checker can name, in the order it names them.
Code = Literal[
    "transposed", "expected_not_divided_by_n", "counts_not_shares", "mixed_counts_and_shares",
    "linear_weights", "quadratic_weights", "unweighted", "weights_not_normalized",
    "weights_divided_by_N_squared", "weights_divided_by_N_minus_1", "num_den_swapped",
    "forgot_one_minus", "sign", "observed_scale", "range_scale",
]
CODES: tuple[Code, ...] = get_args(Code)

#: The code for having used each named weighting instead of the one asked for.
WEIGHTING_CODES: dict[Weighting, Code] = {
    "quadratic": "quadratic_weights", "linear": "linear_weights", "unweighted": "unweighted"}
#: Mistakes in the normalization of the weights, and the divisor each uses instead of the right
#: one (``None``: no divisor at all).
Scaling = Literal["normalized", "weights_not_normalized", "weights_divided_by_N_squared",
                  "weights_divided_by_N_minus_1"]
#: At most this many mistakes are combined to explain one value (the counts convention is free).
MAX_MISTAKES = 2

_NONE: frozenset[Code] = frozenset()


@dataclass(frozen=True)
class Candidate:
    """A value some mistakes produce: ``codes`` are all the mistakes it takes.

    ``spread`` is the value's band: how far a learner who made these mistakes, and wrote every
    intermediate to three significant figures, can be from it (:mod:`.hand_rounding`).
    ``convention`` marks num or den computed from counts, a valid convention rather than a
    mistake.
    """

    value: float
    codes: frozenset[Code]
    spread: float = 0.0
    convention: bool = False

    @property
    def cost(self) -> int:
        """How many things went differently (the counts convention counts as one)."""
        return len(self.codes)


@dataclass(frozen=True, eq=False)
class World:
    """One way of setting up the calculation: a scale (labels and counts) and a weight matrix.

    ``codes`` are the mistakes made in setting it up (none for the learner who got it right).
    """

    codes: frozenset[Code]
    labels: NDArray[np.int64]
    observed: NDArray[np.int64]
    weights: NDArray[np.float64]

    @cached_property
    def n(self) -> int:
        return int(self.observed.sum())

    @cached_property
    def expected(self) -> NDArray[np.float64]:
        return np.outer(self.observed.sum(axis=1), self.observed.sum(axis=0)) / self.n

    @cached_property
    def numerator(self) -> float:
        return float((self.weights * self.observed).sum()) / self.n

    @cached_property
    def denominator(self) -> float:
        return float((self.weights * self.expected).sum()) / self.n

    @cached_property
    def habit_bands(self) -> dict[Habit, Bands]:
        """How far hand rounding can move E, E/n, num and den in this world, for a learner who
        rounds and for one who truncates."""
        return {habit: hand_rounding.bands(self.weights, self.observed, habit)
                for habit in HABITS}

    @cached_property
    def bands(self) -> Bands:
        """The larger of the two habits' bands, quantity by quantity."""
        rounding, truncating = (self.habit_bands[habit] for habit in HABITS)
        return Bands(np.maximum(rounding.expected, truncating.expected),
                     np.maximum(rounding.expected_norm, truncating.expected_norm),
                     max(rounding.numerator, truncating.numerator),
                     max(rounding.denominator, truncating.denominator))

    def kappa_band(self, form: KappaForm, num_factor: float = 1.0,
                   den_factor: float = 1.0) -> float:
        """How far kappa in ``form``, from this world's num and den times ``num_factor`` and
        ``den_factor`` (counts instead of shares), can move: the larger of the two habits'."""
        return max(form_band(form, self.numerator * num_factor, found.numerator * num_factor,
                             self.denominator * den_factor, found.denominator * den_factor,
                             habit)
                   for habit, found in self.habit_bands.items())

    @cached_property
    def _positions(self) -> dict[int, int]:
        return {int(label): k for k, label in enumerate(self.labels)}

    def position(self, label: int) -> int | None:
        """Where rating ``label`` sits on this world's scale (``None``: not on it)."""
        return self._positions.get(label)


def _weights(kind: Weighting, scaling: Scaling, size: int) -> NDArray[np.float64] | None:
    """Disagreement weights by positions 0..N-1, normalized or with one of the wrong divisors;
    ``None`` when the combination makes no sense (no divisor for unweighted, N - 1 for linear)."""
    positions = np.arange(size, dtype=np.float64)
    distance = np.abs(positions[:, None] - positions[None, :])
    if kind == "unweighted":
        return (distance > 0).astype(np.float64) if scaling == "normalized" else None
    if size < 2:
        return None
    power = 2 if kind == "quadratic" else 1
    divisors: dict[Scaling, float] = {
        "normalized": float(size - 1) ** power,
        "weights_not_normalized": 1.0,
        "weights_divided_by_N_squared": float(size) ** power,
    }
    if kind == "quadratic":
        divisors["weights_divided_by_N_minus_1"] = float(size - 1)
    if scaling not in divisors:
        return None
    return np.asarray(distance**power / divisors[scaling], dtype=np.float64)


def other_scale(result: Walkthrough) -> tuple[Code, NDArray[np.int64], NDArray[np.int64]] | None:
    """The same data on the other scale convention, as a learner might have set it up.

    If a rating on the scale was used by nobody, the observed convention leaves it out (N
    smaller: ``observed_scale``); if the ratings used are not consecutive, the range convention
    adds the missing ones (N larger: ``range_scale``). Returns ``(code, labels, counts)`` or
    ``None`` when both conventions give the same scale.
    """
    used = (result.actual_hist + result.predicted_hist) > 0
    labels = result.labels
    if not used.all():
        keep = np.flatnonzero(used)
        return "observed_scale", labels[keep], result.observed[np.ix_(keep, keep)]
    full = np.arange(labels[0], labels[-1] + 1, dtype=np.int64)
    if full.size == labels.size or full.size > MAX_RATINGS:
        return None
    positions = np.searchsorted(full, labels)
    counts = np.zeros((full.size, full.size), dtype=np.int64)
    counts[np.ix_(positions, positions)] = result.observed
    return "range_scale", full, counts


@dataclass(frozen=True, eq=False)
class MistakeModel:
    """Every world a learner could have computed ``result`` in, the right one first."""

    result: Walkthrough
    worlds: tuple[World, ...] = field(repr=False)
    _cache: dict[tuple[Quantity, tuple[int, ...] | None], tuple[Candidate, ...]] = field(
        default_factory=dict, repr=False)

    @property
    def right(self) -> World:
        return self.worlds[0]

    def band(self, quantity: Quantity, cell: tuple[int, ...] | None = None) -> float:
        """How far a careful learner's value of ``quantity`` (at positions ``cell``) can be from
        the right one after writing every intermediate to three significant figures: 0 for what
        comes from whole numbers in one step (O, w, the histograms, O/n)."""
        found = self.right.bands
        if quantity == "expected":
            i, j = _matrix_cell(cell)
            return float(found.expected[i, j])
        if quantity == "expected_norm":
            i, j = _matrix_cell(cell)
            return float(found.expected_norm[i, j])
        if quantity == "numerator":
            return found.numerator
        if quantity == "denominator":
            return found.denominator
        if quantity == "kappa":
            return self.right.kappa_band("1-x/y")
        return 0.0

    def candidates(self, quantity: Quantity,
                   cell: tuple[int, ...] | None = None) -> tuple[Candidate, ...]:
        """:func:`candidates`, computed once per quantity and cell: a class's grids ask for the
        same cells again and again."""
        key = (quantity, cell)
        if key not in self._cache:
            self._cache[key] = tuple(candidates(self, quantity, cell))
        return self._cache[key]

    @cached_property
    def outer(self) -> NDArray[np.float64]:
        """h^a_i h^p_j for every cell: E before the division by n."""
        result = self.result
        return np.outer(result.actual_hist, result.predicted_hist).astype(np.float64)


def mistake_model(result: Walkthrough) -> MistakeModel:
    """The right world and the worlds of every scale and weight mistake (at most two of them).

    With a custom weight matrix there is no other weighting and no other scale to move it to:
    only the mistakes made after the weights (transposing, counts, the formula) are looked for.
    """
    right = World(_NONE, result.labels, result.observed, result.weights)
    worlds = [right]
    if result.weights_name == "custom":
        return MistakeModel(result, tuple(worlds))
    asked: Weighting = result.weights_name
    scales = [(_NONE, result.labels, result.observed)]
    moved = other_scale(result)
    if moved is not None:
        code, labels, counts = moved
        scales.append((frozenset({code}), labels, counts))
    for scale_codes, labels, counts in scales:
        for kind in WEIGHTING_CODES:
            kind_codes = _NONE if kind == asked else frozenset({WEIGHTING_CODES[kind]})
            for scaling in get_args(Scaling):
                codes = scale_codes | kind_codes
                if scaling != "normalized":
                    codes = codes | {scaling}
                if not codes or len(codes) > MAX_MISTAKES:
                    continue
                weights = _weights(kind, scaling, len(labels))
                if weights is not None:
                    worlds.append(World(codes, labels, counts, weights))
    return MistakeModel(result, tuple(worlds))


# --- candidates for each quantity -----------------------------------------------------------------


def _within_budget(codes: frozenset[Code]) -> bool:
    return len(codes - {"counts_not_shares"}) <= MAX_MISTAKES


def candidates(model: MistakeModel, quantity: Quantity,
               cell: tuple[int, ...] | None = None) -> Iterator[Candidate]:
    """The values mistakes give for ``quantity`` (at positions ``cell`` for a matrix or a
    histogram), each with the mistakes it takes. The right value itself is not listed."""
    if quantity in ("numerator", "denominator"):
        yield from _sums(model, quantity)
    elif quantity == "kappa":
        yield from _kappas(model)
    elif quantity == "weights":
        yield from _weight_cells(model, _matrix_cell(cell))
    elif quantity in ("actual_hist", "predicted_hist"):
        yield from _histogram(model, quantity, _bar(cell))
    else:
        yield from _count_cells(model, quantity, _matrix_cell(cell))


def _matrix_cell(cell: tuple[int, ...] | None) -> tuple[int, int]:
    if cell is None or len(cell) != 2:
        raise ValueError(f"a matrix cell (i, j) is needed, not {cell!r}")
    return int(cell[0]), int(cell[1])


def _bar(cell: tuple[int, ...] | None) -> int:
    if cell is None or len(cell) != 1:
        raise ValueError(f"a histogram bar (k,) is needed, not {cell!r}")
    return int(cell[0])


def _count_cells(model: MistakeModel, quantity: Quantity,
                 cell: tuple[int, int]) -> Iterator[Candidate]:
    """O, E, O/n and E/n at (i, j): rows and columns swapped, E not divided by n, counts for
    shares. The scale and the weights do not change these cells."""
    result = model.result
    i, j = cell
    n = result.n
    observed = result.observed
    outer = model.outer
    transposed: frozenset[Code] = frozenset({"transposed"})
    undivided: frozenset[Code] = frozenset({"expected_not_divided_by_n"})
    counts: frozenset[Code] = frozenset({"counts_not_shares"})
    if quantity == "observed":
        yield Candidate(float(observed[j, i]), transposed)
        return
    if quantity == "observed_norm":
        for codes, divisor in ((_NONE, float(n)), (counts, 1.0)):
            if codes:
                yield Candidate(float(observed[i, j]) / divisor, codes)
            yield Candidate(float(observed[j, i]) / divisor, codes | transposed)
        return
    # E, or E / n: h^a_i h^p_j divided by n once (E) or twice (E / n). The band of
    # h^a h^p / n^2 from written shares scales with the divisor.
    divisions = 1 if quantity == "expected" else 2
    options: list[tuple[frozenset[Code], float]] = [(_NONE, float(n ** divisions)),
                                                    (undivided, float(n ** (divisions - 1)))]
    if quantity == "expected_norm":
        options += [(counts, float(n)), (counts | undivided, 1.0)]
    shares = model.right.bands.expected / n  # the band of (h^a_i / n)(h^p_j / n)
    for codes, divisor in options:
        scale = float(n) ** 2 / divisor
        if codes:
            yield Candidate(float(outer[i, j]) / divisor, codes, float(shares[i, j]) * scale)
        yield Candidate(float(outer[j, i]) / divisor, codes | transposed,
                        float(shares[j, i]) * scale)


def _histogram(model: MistakeModel, quantity: Quantity, bar: int) -> Iterator[Candidate]:
    """A bar of h^a read from the columns of O (h^p), or the other way round."""
    result = model.result
    other = result.predicted_hist if quantity == "actual_hist" else result.actual_hist
    yield Candidate(float(other[bar]), frozenset({"transposed"}))


def _weight_cells(model: MistakeModel, cell: tuple[int, int]) -> Iterator[Candidate]:
    """The weight of the same two ratings in every world (where both are on its scale)."""
    result = model.result
    i, j = cell
    a, b = int(result.labels[i]), int(result.labels[j])
    for world in model.worlds:
        p, q = world.position(a), world.position(b)
        if p is None or q is None:
            continue
        if world.codes:
            yield Candidate(float(world.weights[p, q]), world.codes)
    if result.weights_name == "custom":
        # Named weights are symmetric: only a custom matrix can be read the wrong way round.
        yield Candidate(float(result.weights[j, i]), frozenset({"transposed"}))


def _sums(model: MistakeModel, quantity: Quantity) -> Iterator[Candidate]:
    """num or den in every world, from shares or counts, with E divided by n or not, or the other
    sum typed in its place."""
    n = model.result.n
    counts: frozenset[Code] = frozenset({"counts_not_shares"})
    undivided: frozenset[Code] = frozenset({"expected_not_divided_by_n"})
    swapped: frozenset[Code] = frozenset({"num_den_swapped"})
    for world in model.worlds:
        x, y = world.numerator, world.denominator
        bx, by = world.bands.numerator, world.bands.denominator
        options: list[tuple[float, float, frozenset[Code]]]
        if quantity == "numerator":
            options = [(x, bx, _NONE), (x * n, bx * n, counts), (y, by, swapped),
                       (y * n, by * n, swapped | counts)]
        else:
            # E not divided by n makes den n times larger, exactly like den from counts.
            options = [(y, by, _NONE), (y * n, by * n, counts), (y * n, by * n, undivided),
                       (y * n * n, by * n * n, undivided | counts), (x, bx, swapped),
                       (x * n, bx * n, swapped | counts)]
        for value, band, codes in options:
            every = world.codes | codes
            if every and _within_budget(every):
                yield Candidate(value, every, band, convention=every == counts)
    if model.result.weights_name == "custom":
        # Asymmetric custom weights are the only ones a transposed O or E changes.
        right = model.right
        matrix = right.observed if quantity == "numerator" else right.expected
        band = right.bands.numerator if quantity == "numerator" else right.bands.denominator
        yield Candidate(float((right.weights.T * matrix).sum()) / n, frozenset({"transposed"}),
                        band)


#: How kappa is formed from x = num and y = den.
KappaForm = Literal["1-x/y", "x/y", "1-y/x", "x/y-1", "-x/y", "y/x-1"]
#: Every form of kappa the checker knows, with the mistakes each takes (the right one first).
KAPPA_FORMS: tuple[tuple[frozenset[Code], KappaForm], ...] = (
    (_NONE, "1-x/y"),
    (frozenset({"forgot_one_minus"}), "x/y"),
    (frozenset({"num_den_swapped"}), "1-y/x"),
    (frozenset({"sign"}), "x/y-1"),
    (frozenset({"sign", "forgot_one_minus"}), "-x/y"),
    (frozenset({"sign", "num_den_swapped"}), "y/x-1"),
)


def form_band(form: KappaForm, x: float, bx: float, y: float, by: float,
              habit: Habit = "rounding") -> float:
    """How far kappa in ``form`` can move when num ``x`` and den ``y`` are off by up to ``bx``
    and ``by`` and written to three figures before dividing (:func:`.hand_rounding.ratio_band`
    of the ratio the form divides)."""
    if form in ("1-y/x", "y/x-1"):
        return ratio_band(y, by, x, bx, habit)
    return ratio_band(x, bx, y, by, habit)


def kappa_form(form: KappaForm, x: float, y: float) -> float | None:
    """Kappa as the learner formed it from num ``x`` and den ``y``; ``None`` on division by 0."""
    if form in ("1-x/y", "x/y", "x/y-1", "-x/y"):
        if y == 0:
            return None
        ratio = x / y
        return {"1-x/y": 1 - ratio, "x/y": ratio, "x/y-1": ratio - 1, "-x/y": -ratio}[form]
    if x == 0:
        return None
    ratio = y / x
    return 1 - ratio if form == "1-y/x" else ratio - 1


def _kappas(model: MistakeModel) -> Iterator[Candidate]:
    """Kappa in every world whose weights are normalized (a common factor of the weights cancels
    in num/den), from shares, from mixed counts and shares, and in every wrong form."""
    n = model.result.n
    mixed: frozenset[Code] = frozenset({"mixed_counts_and_shares"})
    undivided: frozenset[Code] = frozenset({"expected_not_divided_by_n"})
    for world in model.worlds:
        if world.codes & {"weights_not_normalized", "weights_divided_by_N_squared",
                          "weights_divided_by_N_minus_1"}:
            continue
        x, y = world.numerator, world.denominator
        # (num, den) as the learner combined them; E not divided by n and mixing counts with
        # shares both give den n times too large, so either explains that value.
        pairs: list[tuple[frozenset[Code], float, float]] = [
            (_NONE, 1.0, 1.0), (undivided, 1.0, n), (mixed, 1.0, n), (mixed, n, 1.0),
            (undivided | mixed, 1.0, n * n)]
        for pair_codes, num_factor, den_factor in pairs:
            num, den = x * num_factor, y * den_factor
            for form_codes, form in KAPPA_FORMS:
                codes = world.codes | pair_codes | form_codes
                if not codes or not _within_budget(codes):
                    continue
                value = kappa_form(form, num, den)
                if value is not None:
                    yield Candidate(value, codes,
                                    world.kappa_band(form, num_factor, den_factor))
