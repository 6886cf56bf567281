r"""Check a hand calculation of weighted kappa, value by value, and name every mistake that fits.

A learner types values for any of the quantities of the calculation (:data:`QUANTITIES`): cells of
O, w, E, O/n and E/n, bars of the two histograms, num, den and kappa. Each value gets a
:data:`Verdict`:

- ``right``: the exact value (``1/16`` for 0.0625, ``2`` for 2), or "undefined" for a kappa that
  is 0/0;
- ``rounding``: right, but not exact (``0.876`` for 0.87662), or kappa worked out correctly from
  the learner's own accepted num and den;
- ``right_other_convention``: num and den from the counts O and E instead of the shares O/n and
  E/n, a valid convention under which kappa is the same;
- ``too_coarse``: right to the digits written, but too few of them to tell a rounded answer from
  a mistake; neither right nor wrong, it is not graded (:data:`GRADED`), and
  :attr:`CheckedAnswer.needed` says how many digits to write;
- ``wrong``: anything else, with the list of mistakes (:data:`.mistakes.Code`) that explain it;
- ``unreadable``: not a number (:attr:`CheckedAnswer.problem` says why); not graded either.

**The rule.** A value is right when it lies within the error that legitimate hand calculation
produces. A careful learner writes every intermediate (w, O/n, the histograms' shares, E, E/n, each
product, num and den) to three significant figures, rounded or truncated, and carries on from what
they wrote; the errors this introduces are carried through each step's formula by interval
arithmetic with the data's own numbers (:mod:`.hand_rounding`), which gives the quantity's *band*
around the exact value: 0 for what comes from whole numbers in one step (O, w, the histograms, O/n),
small for E/n, num and den, larger for kappa (1 - num/den divides two rounded sums). A typed number
stands for every value it can be a rounding *or a truncation* of (``0.876`` for anything in [0.8755,
0.877), ``-0.14`` for [-0.15, -0.135]); it is right when that interval meets the band. So a writing
with more digits, each consistent with the true value, is never judged worse than a coarser one, and
a truncated writing is as right as a rounded one. A whole number typed for a count (O, the
histograms) is that count, and a bare "0" means nothing at all: neither is a rounding.

A value must also carry enough digits to be judged (:func:`coarsest_unit`): at least two significant
figures (kappa: two decimals), and more where a classic mistake lies so close to the right value
that a coarser writing could stand for either. The requirement depends on the quantity and the data,
never on the writing, so more digits never make a value too coarse. A kappa is also right when it
equals 1 - num'/den' of the num' and den' the learner typed, to the digits written for kappa,
provided both of those were accepted.

A wrong value is compared with what every combination of at most two classic mistakes gives
(:mod:`.mistakes`), each with its own band; the mistakes of all the simplest combinations that
explain it are named. The bands stay far below the factors that separate those mistakes from the
right value (n, N², (N - 1)², a transposition, a missing "1 -"), and a mistake closer than that is
still named whenever the value lies outside the right band.

**Why.** The previous rule, "right to the digits written" (within half a unit of the last digit
written, or of a rounding to four significant figures), judged how a number is written rather than
whether a careful learner could have obtained it. ``python -m bench.grading_audit`` reruns the
teaching audit's kind of learner work and grades it with both rules side by side (1,000 random
datasets per group, seed 19): a right kappa written to 3 decimals from w, O/n and E/n written to 3
figures was rejected in 41.1 % of the datasets, now 0 %; num and den to 3 figures 22.9 % and
33.5 %, now 0 %; a kappa truncated to 3 decimals 45.3 %, now 0 %; "undefined" for a 0/0 kappa
100 %, now 0 %. A kappa wrong by 0.1 beside num and den written to one figure was accepted "from
your own num and den" in 72.8 %, now 0 %; right values written to one figure were counted wrong in
99.5 %, now "too coarse" in 99.5 %. Every classic mistake is named in 99.3 % (kappa typed alone)
and 99.6 % (num and den) of the values it changes, and none is accepted where its value lies beyond
the right value's band; inside the band (0.7 % of mistaken kappas: a weighting or scale mistake
that moves kappa less than hand rounding can) the value is one a careful learner also obtains, and
is right. A right kappa to 2 decimals is "too coarse" in 0.4 % of the datasets: there a classic
mistake lies within reach of two decimals, and the checker asks for three.

>>> from qwk_explained import walkthrough
>>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
>>> typed = [Answer("kappa", None, "-0,14"), Answer("denominator", None, "3.95"),
...          Answer("expected", (4, 0), "20"), Answer("weights", (4, 1), "0.6")]
>>> for answer in check_answers(result, typed):  # in the order of the calculation
...     print(answer.quantity, answer.verdict, answer.diagnoses, answer.needed)
weights too_coarse () Precision(kind='figures', count=2)
expected wrong ('expected_not_divided_by_n',) None
denominator right_other_convention ('expected_not_divided_by_n', 'counts_not_shares') None
kappa rounding () None
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from qwk_explained.core.errors import QwkError
from qwk_explained.core.parse import shorten
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import QUANTITIES, Quantity

from .cells import label_positions, read_cell
from .mistakes import (
    CODES,
    KAPPA_FORMS,
    WEIGHTING_CODES,
    Candidate,
    Code,
    MistakeModel,
    kappa_form,
    mistake_model,
    other_scale,
)
from .typed_numbers import (
    AnswerError,
    Reading,
    TypedNumber,
    parse_answer,
    read_number,
    reads_as_undefined,
)

__all__ = [
    "ACCEPTED", "CELL_QUANTITIES", "CODES", "COUNTS", "GRADED", "HISTOGRAMS", "KAPPA_DECIMALS",
    "MIN_FIGURES", "NOTES", "QUANTITIES", "VERDICTS", "Answer", "AnswerError", "Candidate",
    "CheckedAnswer", "Code", "Judgement", "Note", "Precision", "Quantity", "SubmissionError",
    "Target", "Verdict", "answers_from_mapping", "cell_labels", "check_answers", "coarsest_unit",
    "first_wrong", "graded", "hint_params", "judge", "parse_answer", "reach", "reference", "target",
]

#: What a checked value can be (see the module's docstring).
Verdict = Literal["right", "rounding", "right_other_convention", "too_coarse", "wrong",
                  "unreadable"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
#: Verdicts that count as right (a grade, the score of the practice page).
ACCEPTED: frozenset[Verdict] = frozenset({"right", "rounding", "right_other_convention"})
#: Verdicts that are graded: a value too coarse to judge, or not a number, is neither right nor
#: wrong and counts in no grade.
GRADED: frozenset[Verdict] = ACCEPTED | {"wrong"}
#: Remarks on a verdict: a number typed where kappa is undefined; "undefined" typed where kappa
#: has a value; a kappa right for the learner's own num and den.
Note = Literal["kappa_undefined", "kappa_defined", "from_your_sums"]
NOTES: tuple[Note, ...] = get_args(Note)

#: Quantities that are matrices (checked cell by cell) and histograms (bar by bar).
CELL_QUANTITIES: tuple[Quantity, ...] = ("observed", "weights", "expected", "observed_norm",
                                         "expected_norm")
HISTOGRAMS: tuple[Quantity, ...] = ("actual_hist", "predicted_hist")
#: Fewest significant figures that let a rounded value be told from an ordinary slip.
MIN_FIGURES = 2
#: Kappa lives on [-1, 1] and is customarily given to 2 decimals: that is enough, unless a
#: classic mistake lies closer.
KAPPA_DECIMALS = 2
#: No digit requirement beyond this many significant figures: a mistake closer to the right value
#: than that cannot be told from it by writing more digits, only by the other values.
MAX_FIGURES = 5
_RANK: dict[Verdict, int] = {"right": 0, "rounding": 1, "right_other_convention": 2,
                             "too_coarse": 3}


class SubmissionError(QwkError, ValueError):
    """A submission that cannot be checked: unknown quantity, wrong shape, a cell off the scale
    (locale keys under ``checker.errors.``)."""

    namespace = "checker.errors"


# --- how many digits a value needs ----------------------------------------------------------------


@dataclass(frozen=True)
class Precision:
    """The fewest digits to write for a value to be judged: ``count`` significant figures
    (``figures``), or ``count`` decimals for kappa (``decimals``)."""

    kind: Literal["figures", "decimals"]
    count: int


@dataclass(frozen=True)
class Target:
    """What a typed value is judged against: the right ``value`` (``None``: kappa is 0/0), its
    ``band`` (how far legitimate hand rounding moves it), the coarsest last-digit ``unit`` a
    writing may have (a power of ten), and the same as ``needed`` digits."""

    value: float | None
    band: float
    unit: float
    needed: Precision | None


def _figure_unit(value: float, figures: int) -> float:
    """The unit of the ``figures``-th significant figure of ``value`` (0.001 for 0.0437 at 2)."""
    return 10.0 ** (math.floor(math.log10(abs(value))) - figures + 1)


def _floor_unit(quantity: Quantity, value: float) -> float:
    """Two significant figures; for kappa, which lives on [-1, 1], two decimals."""
    if quantity == "kappa":
        return 10.0 ** -KAPPA_DECIMALS
    return _figure_unit(value, MIN_FIGURES) if value != 0 else math.inf


def coarsest_unit(quantity: Quantity, value: float, band: float,
                  mistakes: Iterable[Candidate]) -> float:
    """The coarsest last-digit unit (a power of ten) a writing of ``value`` may have and still be
    told from every single classic mistake: two significant figures (kappa: two decimals),
    finer where a mistake lies close. A unit is fine when no writing on its grid that is
    consistent with the right value (its :func:`reach` within ``band``) is also consistent with a
    mistake within that mistake's band, and every finer unit is fine too. A mistake within twice
    the two bands of the right value is the right value for a careful learner as well, and a
    combination of two mistakes that lands near it (den/num - 1 is close to 1 - num/den for a
    small kappa) would ask for digits no teacher asks for: both are left to the verdict.

    >>> coarsest_unit("weights", 0.0625, 0.0, [])
    0.001
    >>> forgot = frozenset({"forgot_one_minus"})
    >>> coarsest_unit("kappa", 0.5, 0.001, [Candidate(0.51, forgot, 0.001)])  # "0.50" is both
    0.001
    >>> coarsest_unit("kappa", 0.5, 0.001, [Candidate(0.53, forgot, 0.001)])
    0.01
    """
    unit = _floor_unit(quantity, value)
    if not math.isfinite(unit):
        return unit
    near = [(candidate.value, candidate.spread) for candidate in mistakes
            if candidate.cost == 1 and not candidate.convention
            and math.isfinite(candidate.value) and not _same(candidate.value, value)
            and abs(candidate.value - value) > 2 * (band + candidate.spread)]
    finest = max(_figure_unit(value, MAX_FIGURES), 10.0 ** -12) if value != 0 else 10.0 ** -12
    chosen, step = unit, unit
    while step >= finest * (1 - 1e-9):
        if not _separates(step, value, band, near):
            chosen = step / 10
        step /= 10
    return max(chosen, finest)


def _separates(unit: float, value: float, band: float,
               near: Sequence[tuple[float, float]]) -> bool:
    """Whether every writing with last-digit ``unit`` that is consistent with ``value`` (within
    ``band``) stays clear of every ``(mistake, its band)`` in ``near``."""
    reach_out = band + 2 * unit
    near = [(mistake, spread) for mistake, spread in near
            if abs(mistake - value) - spread <= reach_out]
    if not near:
        return True
    for k in range(math.floor((value - reach_out) / unit), math.ceil((value + reach_out) / unit)
                   + 1):
        written = k * unit
        low, high = _reach_of(written, unit / 2, unit)
        if not _meets(low, high, value, band):
            continue
        if any(_meets(low, high, mistake, spread) for mistake, spread in near):
            return False
    return True


def _needed(quantity: Quantity, value: float, unit: float) -> Precision | None:
    if not math.isfinite(unit):
        return None
    if quantity == "kappa":
        return Precision("decimals", max(round(-math.log10(unit)), 0))
    leading = math.floor(math.log10(abs(value))) if value != 0 else 0
    return Precision("figures", max(leading - round(math.log10(unit)) + 1, 1))


def target(model: MistakeModel, quantity: Quantity, cell: tuple[int, ...] | None = None) -> Target:
    """The right value of ``quantity`` (at positions ``cell``), its band and the digits a
    writing of it needs, for the result of ``model``."""
    value = reference(model.result, quantity, cell)
    if value is None:
        return Target(None, 0.0, math.inf, None)
    band = model.band(quantity, cell)
    unit = coarsest_unit(quantity, value, band, model.candidates(quantity, cell))
    return Target(value, band, unit, _needed(quantity, value, unit))


# --- one value ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """The verdict on one reading of a typed value and the mistakes that explain it."""

    verdict: Verdict
    diagnoses: tuple[Code, ...] = ()
    note: Note | None = None

    def rank(self) -> int:
        """Lower is better: right, rounding, the other convention, too coarse, a named mistake,
        nothing."""
        if self.verdict in _RANK:
            return _RANK[self.verdict]
        return 4 if self.diagnoses else 5


def _ordered(codes: Iterable[Code]) -> tuple[Code, ...]:
    found = set(codes)
    return tuple(code for code in CODES if code in found)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _unit(number: TypedNumber) -> float:
    """The unit of the last digit written (0 for an exact fraction; for a fraction of rounded
    numbers, twice its rounding)."""
    if number.exact:
        return 0.0
    if _written_in_digits(number):
        return 10.0 ** -number.decimals
    return 2.0 * number.half_unit


def _written_in_digits(number: TypedNumber) -> bool:
    """Whether the number is written in digits (``0.876``, ``25%``), which can be truncated,
    rather than a fraction of rounded numbers (``0.45/2``), which is only a rounding."""
    return math.isclose(number.half_unit, 0.5 * 10.0 ** -number.decimals, rel_tol=1e-9)


def reach(number: TypedNumber) -> tuple[float, float]:
    """Every value ``number`` can be a rounding or a truncation of (truncating goes towards 0):
    ``0.876`` stands for [0.8755, 0.877], ``-0.14`` for [-0.15, -0.135], ``0`` for [-1, 1].

    >>> reach(read_number("0.876")[0]), reach(read_number("-0.14")[0])
    ((0.8755, 0.877), (-0.15, -0.135))
    """
    if number.exact:
        return number.value, number.value
    half = number.half_unit
    return _reach_of(number.value, half, 2.0 * half if _written_in_digits(number) else half)


def _reach_of(value: float, half: float, away: float) -> tuple[float, float]:
    """[value - half, value + away] for a positive value, the mirror image for a negative one,
    [-away, away] for 0: rounding moves half a unit either way, truncating a unit away from 0."""
    if value > 0:
        return value - half, value + away
    if value < 0:
        return value - away, value + half
    return -away, away


def _meets(low: float, high: float, value: float, band: float) -> bool:
    """Whether [low, high] comes within ``band`` of ``value`` (with a hair for binary noise)."""
    distance = max(low - value, value - high, 0.0)
    return distance <= band * (1 + 1e-9) + 1e-12 * max(1.0, abs(value))


def _precise(number: TypedNumber, quantity: Quantity, value: float, unit: float) -> bool:
    """Whether ``number`` carries the digits :func:`coarsest_unit` asks for (``unit``) to be
    judged against ``value``. Where that is only the rule of two significant figures, two of the
    writing itself are as good as two of the value ("0.10" for 0.0996)."""
    written = _unit(number)
    if written == 0.0:
        return True
    allowed = unit
    if number.value != 0 and unit >= _floor_unit(quantity, value):
        allowed = max(unit, _floor_unit(quantity, number.value))
    return written <= allowed * (1 + 1e-9)


def judge(number: TypedNumber, quantity: Quantity, goal: Target,
          mistakes: Iterable[Candidate], own: Iterable[Candidate] = ()) -> Judgement:
    """The verdict on ``number`` for ``quantity`` whose right value, band and digits are
    ``goal``.

    ``mistakes`` are the values classic mistakes give, each with its band
    (:func:`.mistakes.candidates`); ``own`` the kappas formed from the learner's own accepted num
    and den (the right form without codes), which must match to the digits written.
    """
    if goal.value is None:
        return Judgement("wrong", note="kappa_undefined")
    if _same(number.value, goal.value):
        return Judgement("right")
    low, high = reach(number)
    precise = _precise(number, quantity, goal.value, goal.unit)
    mistakes = list(mistakes)
    # A value a mistake gives exactly ("0.6" for 3/5) is that mistake, not another one whose
    # value the same digits could stand for; a whole number a mistake gives ("1" for a weight
    # of 1, "9" for num from counts) is that mistake even when it could also be the right
    # value in too few digits, but a decimal with too few digits ("0.5" for 0.45) says too
    # little to name one.
    exact = [candidate for candidate in mistakes if candidate.codes
             and math.isfinite(candidate.value) and not _same(candidate.value, goal.value)
             and _same(number.value, candidate.value)]
    whole = number.decimals <= 0 and float(number.value).is_integer()
    if _meets(low, high, goal.value, goal.band) and (precise or not (exact and whole)):
        return Judgement("rounding" if precise else "too_coarse")
    for candidate in own:
        if not exact and _meets(low, high, candidate.value, 0.0):
            if not candidate.codes:
                return (Judgement("rounding", note="from_your_sums") if precise
                        else Judgement("too_coarse"))
            mistakes.append(candidate)
    fits = exact or [candidate for candidate in mistakes if candidate.codes
                     and math.isfinite(candidate.value)
                     and not _same(candidate.value, goal.value)
                     and _meets(low, high, candidate.value, candidate.spread)]
    if not fits:
        return Judgement("wrong")
    fewest = min(candidate.cost for candidate in fits)
    best = [candidate for candidate in fits if candidate.cost == fewest]
    codes = _ordered(code for candidate in best for code in candidate.codes)
    if any(candidate.convention for candidate in best):
        convention = next(candidate for candidate in best if candidate.convention)
        if exact or _precise(number, quantity, convention.value,
                             _floor_unit(quantity, convention.value)):
            return Judgement("right_other_convention", codes)
        return Judgement("too_coarse")
    return Judgement("wrong", codes)


# --- a submission --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One value as the learner typed it: ``cell`` holds positions on the scale, ``(i, j)`` for a
    matrix (row i = actual rating), ``(k,)`` for a histogram bar, ``None`` for num, den, kappa."""

    quantity: Quantity
    cell: tuple[int, ...] | None
    text: str


@dataclass(frozen=True)
class CheckedAnswer:
    """One checked value. ``number`` is the number read (``None`` when the text is not one:
    ``problem`` says why, or when it says "undefined": ``undefined``), under ``reading`` when
    the text was ambiguous; ``needed`` the digits to write when it is too coarse."""

    quantity: Quantity
    cell: tuple[int, ...] | None
    text: str
    number: TypedNumber | None
    correct: float | None
    verdict: Verdict
    diagnoses: tuple[Code, ...] = ()
    reading: Reading | None = None
    note: Note | None = None
    problem: AnswerError | None = None
    needed: Precision | None = None
    undefined: bool = False

    @property
    def given(self) -> float | None:
        """The number read from the text."""
        return None if self.number is None else self.number.value

    @property
    def accepted(self) -> bool:
        return self.verdict in ACCEPTED

    @property
    def wrong(self) -> bool:
        return self.verdict == "wrong"


def graded(checked: Iterable[CheckedAnswer]) -> list[CheckedAnswer]:
    """The values that count in a grade: right or wrong, not too coarse and not unreadable."""
    return [answer for answer in checked if answer.verdict in GRADED]


def reference(result: Walkthrough, quantity: Quantity,
              cell: tuple[int, ...] | None = None) -> float | None:
    """The right value of ``quantity`` (at positions ``cell``); ``None`` for an undefined kappa."""
    if quantity in CELL_QUANTITIES:
        if cell is None or len(cell) != 2:
            raise ValueError(f"{quantity} needs a cell (i, j), not {cell!r}")
        i, j = result.check_cell(int(cell[0]), int(cell[1]))
        return float(getattr(result, quantity)[i, j])
    if quantity in HISTOGRAMS:
        if cell is None or len(cell) != 1:
            raise ValueError(f"{quantity} needs a rating (k,), not {cell!r}")
        k, _ = result.check_cell(int(cell[0]), 0)
        return float(getattr(result, quantity)[k])
    if quantity == "numerator":
        return result.numerator
    if quantity == "denominator":
        return result.denominator
    if quantity == "kappa":
        return result.kappa
    raise ValueError(f"unknown quantity {quantity!r}; expected one of {QUANTITIES}")


def _judge_readings(readings: Sequence[TypedNumber], quantity: Quantity, goal: Target,
                    mistakes: Sequence[Candidate], own: Sequence[Candidate] = (),
                    ) -> tuple[TypedNumber, Judgement]:
    """The best reading of an ambiguous text ("1,714"), judged; the first one on a tie."""
    judged = [(number, judge(number, quantity, goal, mistakes, own)) for number in readings]
    return min(judged, key=lambda pair: pair[1].rank())


#: Quantities that are counts: a whole number typed for them is exact, never a rounding.
COUNTS: tuple[Quantity, ...] = ("observed", "actual_hist", "predicted_hist")


def _as_meant(readings: Sequence[TypedNumber], quantity: Quantity) -> list[TypedNumber]:
    """The readings as the learner means them. A whole number typed for a count ("3" items), or
    a bare "0" for anything (nothing at all, not 0.3 rounded to a whole number), is exact. A
    whole number written with trailing zeros ("10", "200") may carry fewer significant figures
    than its digits: "10" may be 14.3 to one figure, so it is judged both ways."""
    found = []
    for number in readings:
        whole = not number.exact and number.decimals == 0 and float(number.value).is_integer()
        if whole and (quantity in COUNTS or number.value == 0):
            found.append(replace(number, half_unit=0.0))
            continue
        found.append(number)
        if not whole:
            continue
        digits = str(int(abs(number.value)))
        for zeros in range(1, len(digits) - len(digits.rstrip("0")) + 1):
            found.append(replace(number, half_unit=0.5 * 10.0**zeros,
                                 significant=number.significant - zeros, decimals=-zeros))
    return found


def _own_kappas(num: CheckedAnswer | None, den: CheckedAnswer | None) -> list[Candidate]:
    """Kappas formed from the learner's own num and den, in every form the checker knows, when
    both were accepted (a value too coarse to judge says too little to build on)."""
    if num is None or den is None or not (num.accepted and den.accepted):
        return []
    if num.number is None or den.number is None:
        return []
    own = []
    for codes, form in KAPPA_FORMS:
        value = kappa_form(form, num.number.value, den.number.value)
        if value is not None and math.isfinite(value):
            own.append(Candidate(value, codes))
    return own


def _check_one(model: MistakeModel, answer: Answer, group: str,
               own: Sequence[Candidate] = ()) -> CheckedAnswer:
    goal = target(model, answer.quantity, answer.cell)
    if answer.quantity == "kappa" and reads_as_undefined(answer.text):
        if goal.value is None:
            return CheckedAnswer(answer.quantity, None, answer.text, None, None, "right",
                                 undefined=True)
        return CheckedAnswer(answer.quantity, None, answer.text, None, goal.value, "wrong",
                             note="kappa_defined", undefined=True)
    try:
        readings = read_number(answer.text, group)
    except AnswerError as problem:
        return CheckedAnswer(answer.quantity, answer.cell, answer.text, None, goal.value,
                             "unreadable", problem=problem)
    mistakes = model.candidates(answer.quantity, answer.cell)
    number, judgement = _judge_readings(_as_meant(readings, answer.quantity), answer.quantity,
                                        goal, mistakes, own)
    return CheckedAnswer(answer.quantity, answer.cell, answer.text, number, goal.value,
                         judgement.verdict, judgement.diagnoses,
                         number.reading if len(readings) > 1 else None, judgement.note,
                         needed=goal.needed if judgement.verdict == "too_coarse" else None)


def _conventions(num: CheckedAnswer, den: CheckedAnswer) -> tuple[CheckedAnswer, CheckedAnswer]:
    """num and den judged together. Both from counts: one convention, which also explains den n
    times too large better than E left undivided. One from shares and one from counts: kappa
    from them is off by a factor n, so the counts one is the mistake (den n times too large is
    also what E not divided by n gives). A sum of 0 is the same in both conventions."""
    if num.correct == 0 or den.correct == 0:
        return num, den
    if num.verdict == den.verdict == "right_other_convention":
        return num, replace(den, diagnoses=("counts_not_shares",))
    if num.verdict in ("right", "rounding") and den.verdict == "right_other_convention":
        codes = _ordered(("mixed_counts_and_shares", "expected_not_divided_by_n"))
        return num, replace(den, verdict="wrong", diagnoses=codes)
    if den.verdict in ("right", "rounding") and num.verdict == "right_other_convention":
        return replace(num, verdict="wrong", diagnoses=("mixed_counts_and_shares",)), den
    return num, den


def _order(answer: Answer | CheckedAnswer) -> tuple[int, tuple[int, ...]]:
    return QUANTITIES.index(answer.quantity), answer.cell or ()


def check_answers(result: Walkthrough, answers: Iterable[Answer], group: str = ",",
                  model: MistakeModel | None = None) -> tuple[CheckedAnswer, ...]:
    """Check every answer, in the order of the calculation (O, w, histograms, E, O/n, E/n, num,
    den, kappa; cells row by row).

    ``group`` is the grouping mark of the learner's language (how ``1,714`` may be read).
    Kappa is also right when it follows from the learner's own accepted num and den; num and den
    in different conventions (one from counts, one from shares) are a mistake together. A text
    that is not a number gets the verdict ``unreadable`` and the others are checked all the same.
    """
    model = model or mistake_model(result)
    pending = sorted(answers, key=_order)
    checked = [_check_one(model, answer, group) for answer in pending
               if answer.quantity != "kappa"]
    sums = {answer.quantity: index for index, answer in enumerate(checked)
            if answer.quantity in ("numerator", "denominator")}
    num = checked[sums["numerator"]] if "numerator" in sums else None
    den = checked[sums["denominator"]] if "denominator" in sums else None
    if num is not None and den is not None:
        num, den = _conventions(num, den)
        checked[sums["numerator"]], checked[sums["denominator"]] = num, den
    own = _own_kappas(num, den)
    checked += [_check_one(model, answer, group, own) for answer in pending
                if answer.quantity == "kappa"]
    return tuple(checked)


def first_wrong(checked: Iterable[CheckedAnswer]) -> CheckedAnswer | None:
    """The earliest wrong value in the order of the calculation, or ``None`` (a value too coarse
    to judge is never the first wrong one)."""
    wrong = [answer for answer in checked if answer.wrong]
    return min(wrong, key=_order) if wrong else None


def cell_labels(result: Walkthrough, cell: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """Positions on the scale as the rating labels the learner sees (``(0, 1)`` -> ``(1, 2)``
    for a scale 1..3)."""
    return None if cell is None else tuple(int(result.labels[k]) for k in cell)


def hint_params(result: Walkthrough, codes: Iterable[Code] = ()) -> dict[str, int]:
    """The numbers the diagnosis sentences quote: n, N, N - 1, the right and the off-by-one
    divisor of the weights, the size of the scale in the other convention.

    The divisors are those of the weighting the learner used: with ``linear_weights`` among
    ``codes`` (linear weights where quadratic ones were asked for) a divisor of N is "5 instead
    of 4", not the quadratic "25 instead of 16", which would not explain the value.
    """
    size = result.size
    named = set(codes)
    used = [kind for kind, code in WEIGHTING_CODES.items() if code in named]
    quadratic = (used[0] if used else result.weights_name) == "quadratic"
    params = {
        "n": result.n, "size": size, "span": size - 1,
        "factor": (size - 1) ** 2 if quadratic else size - 1,
        "wrong_divisor": size**2 if quadratic else size,
    }
    moved = other_scale(result)
    params["other_size"] = size if moved is None else int(moved[1].size)
    return params


# --- answers written as data (the command line's JSON) --------------------------------------------

_BAR_KEY = re.compile(r"^\s*([+-]?\d+)\s*$")


def _value_text(value: Any, quantity: Quantity, where: str, group: str = ",") -> str | None:
    """A JSON value as the learner wrote it: text as is; a number (never ambiguous in JSON) with
    the decimal mark the learner's language cannot take for a grouping mark."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise SubmissionError("bad_value", quantity=quantity, cell=where)
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, float) and math.isnan(value) and quantity == "kappa":
        return "NaN"  # JSON's NaN for a kappa of 0/0: an answer, judged as one
    if isinstance(value, float) and not math.isfinite(value):
        raise SubmissionError("bad_value", quantity=quantity, cell=where)
    return repr(value).replace(".", ",") if group == "." else repr(value)


def _position(result: Walkthrough, label: str, quantity: Quantity, key: str) -> int:
    labels = [int(x) for x in result.labels]
    if int(label) not in labels:
        raise SubmissionError("bad_cell", quantity=quantity, cell=key)
    return labels.index(int(label))


def answers_from_mapping(result: Walkthrough, answers: Any, group: str = ",") -> list[Answer]:
    """The answers of a submission written as data, for :func:`check_answers`.

    Any subset of the quantities: a matrix as a full nested list (rows = actual ratings) or an
    object of cells keyed ``"i,j"`` by rating labels; a histogram as a list or an object keyed by
    rating; num, den and kappa as one value. Values are numbers or text as typed (``"0,25"``,
    ``"1/16"``); ``null`` or an empty text skips a cell. ``group`` is the grouping mark of the
    learner's language, as for :func:`check_answers`. Raises :class:`SubmissionError`.
    """
    if not isinstance(answers, Mapping):
        raise SubmissionError("not_an_object")
    size = result.size
    found: list[Answer] = []
    for name, value in answers.items():
        if name not in QUANTITIES:
            raise SubmissionError("unknown_quantity", quantity=shorten(str(name), 40),
                                  choices=QUANTITIES)
        quantity: Quantity = name
        if quantity in CELL_QUANTITIES:
            found += _matrix_answers(result, quantity, value, size, group)
        elif quantity in HISTOGRAMS:
            found += _histogram_answers(result, quantity, value, size, group)
        else:
            text = _value_text(value, quantity, "", group)
            if text is not None:
                found.append(Answer(quantity, None, text))
    return found


def _matrix_answers(result: Walkthrough, quantity: Quantity, value: Any, size: int,
                    group: str) -> list[Answer]:
    found = []
    if isinstance(value, Mapping):
        for key, cell_value in value.items():
            ratings = read_cell(key)
            cell = None if ratings is None else label_positions(result.labels, ratings)
            if cell is None:
                raise SubmissionError("bad_cell", quantity=quantity, cell=shorten(str(key), 40))
            text = _value_text(cell_value, quantity, str(key), group)
            if text is not None:
                found.append(Answer(quantity, cell, text))
        return found
    if (not isinstance(value, list) or len(value) != size
            or not all(isinstance(row, list) and len(row) == size for row in value)):
        raise SubmissionError("bad_shape", quantity=quantity, size=size)
    labels = [int(x) for x in result.labels]
    for i, row in enumerate(value):
        for j, cell_value in enumerate(row):
            text = _value_text(cell_value, quantity, f"{labels[i]},{labels[j]}", group)
            if text is not None:
                found.append(Answer(quantity, (i, j), text))
    return found


def _histogram_answers(result: Walkthrough, quantity: Quantity, value: Any, size: int,
                       group: str) -> list[Answer]:
    labels = [int(x) for x in result.labels]
    if isinstance(value, Mapping):
        pairs = []
        for key, bar_value in value.items():
            match = _BAR_KEY.match(str(key))
            if match is None:
                raise SubmissionError("bad_cell", quantity=quantity, cell=shorten(str(key), 40))
            pairs.append((_position(result, match[1], quantity, str(key)), bar_value))
    elif isinstance(value, list) and len(value) == size:
        pairs = list(enumerate(value))
    else:
        raise SubmissionError("bad_shape", quantity=quantity, size=size)
    found = []
    for k, bar_value in pairs:
        text = _value_text(bar_value, quantity, str(labels[k]), group)
        if text is not None:
            found.append(Answer(quantity, (k,), text))
    return found
