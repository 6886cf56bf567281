r"""Check a hand calculation of weighted kappa, value by value, and name every mistake that fits.

A learner types values for any of the quantities of the calculation (:data:`QUANTITIES`): cells of
O, w, E, O/n and E/n, bars of the two histograms, num, den and kappa. Each value gets a
:data:`Verdict`:

- ``right``: the exact value (``1/16`` for 0.0625, ``2`` for 2);
- ``rounding``: right to the digits the learner wrote (``0.45`` for 0.4502), or kappa worked out
  correctly from the learner's own accepted num and den;
- ``right_other_convention``: num and den from the counts O and E instead of the shares O/n and
  E/n, a valid convention under which kappa is the same;
- ``wrong``: anything else, with the list of mistakes (:data:`.mistakes.Code`) that explain it.

Closeness is judged relative to the size of the quantity: a value is right to its digits when it
lies within half a unit of its last digit of the reference (or within a rounding to four
significant figures, so that rounded intermediate steps never turn a right answer wrong), and it
must carry at least :data:`MIN_FIGURES` significant figures (kappa: or :data:`KAPPA_DECIMALS`
decimals), otherwise it is too coarse to tell. A wrong value is compared with what every
combination of at most two classic mistakes gives (:mod:`.mistakes`); the mistakes of all the
simplest combinations that reproduce it are named.

>>> from qwk_explained import walkthrough
>>> result = walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
>>> typed = [Answer("kappa", None, "-0,14"), Answer("denominator", None, "3.95"),
...          Answer("expected", (4, 0), "20")]
>>> for answer in check_answers(result, typed):  # in the order of the calculation
...     print(answer.quantity, answer.verdict, answer.diagnoses)
expected wrong ('expected_not_divided_by_n',)
denominator right_other_convention ('expected_not_divided_by_n', 'counts_not_shares')
kappa rounding ()
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
    Candidate,
    Code,
    KappaForm,
    MistakeModel,
    kappa_form,
    mistake_model,
    other_scale,
)
from .typed_numbers import AnswerError, Reading, TypedNumber, parse_answer, read_number

__all__ = [
    "ACCEPTED", "CELL_QUANTITIES", "CODES", "HISTOGRAMS", "KAPPA_DECIMALS", "MIN_FIGURES",
    "NOTES", "QUANTITIES", "VERDICTS", "Answer", "AnswerError", "CheckedAnswer", "Code",
    "Judgement", "Note", "Quantity", "SubmissionError", "Verdict", "answers_from_mapping",
    "cell_labels", "check_answers", "first_wrong", "hint_params", "judge", "parse_answer",
    "precise_enough", "reference",
]

#: What a checked value can be (see the module's docstring).
Verdict = Literal["right", "rounding", "right_other_convention", "wrong"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
#: Verdicts that count as right (a grade, the score of the practice page).
ACCEPTED: frozenset[Verdict] = frozenset({"right", "rounding", "right_other_convention"})
#: Remarks on a verdict: a value right to its digits but with too few of them; a kappa typed
#: where kappa is undefined; a kappa right for the learner's own num and den.
Note = Literal["too_few_digits", "kappa_undefined", "from_your_sums"]
NOTES: tuple[Note, ...] = get_args(Note)

#: Quantities that are matrices (checked cell by cell) and histograms (bar by bar).
CELL_QUANTITIES: tuple[Quantity, ...] = ("observed", "weights", "expected", "observed_norm",
                                         "expected_norm")
HISTOGRAMS: tuple[Quantity, ...] = ("actual_hist", "predicted_hist")
#: Fewest significant figures that let a rounded value be told from a wrong one.
MIN_FIGURES = 2
#: Kappa lives on [-1, 1] and is customarily given to 2 decimals: that is always enough.
KAPPA_DECIMALS = 2
#: A value right to four significant figures is right, however many digits it is written with:
#: the learner may have rounded an intermediate step.
RELATIVE_FLOOR = 5e-4

_RANK: dict[Verdict, int] = {"right": 0, "rounding": 1, "right_other_convention": 2}


class SubmissionError(QwkError, ValueError):
    """A submission that cannot be checked: unknown quantity, wrong shape, a cell off the scale
    (locale keys under ``checker.errors.``)."""

    namespace = "checker.errors"


# --- one value ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """The verdict on one reading of a typed value and the mistakes that explain it."""

    verdict: Verdict
    diagnoses: tuple[Code, ...] = ()
    note: Note | None = None

    def rank(self) -> int:
        """Lower is better: right, rounding, the other convention, a named mistake, nothing."""
        if self.verdict in _RANK:
            return _RANK[self.verdict]
        return 3 if self.diagnoses else 4


def _ordered(codes: Iterable[Code]) -> tuple[Code, ...]:
    found = set(codes)
    return tuple(code for code in CODES if code in found)


def precise_enough(number: TypedNumber, quantity: Quantity) -> bool:
    """Whether ``number`` carries enough digits to be judged: exact, at least MIN_FIGURES
    significant figures, or for kappa at least KAPPA_DECIMALS decimals."""
    if number.exact or number.significant >= MIN_FIGURES:
        return True
    return quantity == "kappa" and number.decimals >= KAPPA_DECIMALS


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _close(number: TypedNumber, target: float, spread: float = 0.0) -> bool:
    """Whether the typed value stands for ``target`` to the digits written (or to 4 figures)."""
    allowed = max(number.half_unit * (1 + 1e-9), RELATIVE_FLOOR * abs(target))
    return abs(number.value - target) <= allowed + spread + 1e-12 * max(1.0, abs(target))


def judge(number: TypedNumber, quantity: Quantity, correct: float | None,
          mistakes: Iterable[Candidate], own: Iterable[Candidate] = ()) -> Judgement:
    """The verdict on ``number`` for a quantity whose right value is ``correct``.

    ``mistakes`` are the values classic mistakes give (:func:`.mistakes.candidates`); ``own`` the
    kappas formed from the learner's own accepted num and den, the right form without codes.
    """
    if correct is None:
        return Judgement("wrong", note="kappa_undefined")
    if _same(number.value, correct):
        return Judgement("right")
    precise = precise_enough(number, quantity)
    near = _close(number, correct)
    if near and precise:
        return Judgement("rounding")
    mistakes = list(mistakes)
    for candidate in own:
        if not candidate.codes and (_same(number.value, candidate.value) or (
                precise and _close(number, candidate.value, candidate.spread))):
            return Judgement("rounding", note="from_your_sums")
        mistakes.append(candidate)
    possible = [candidate for candidate in mistakes if candidate.codes
                and math.isfinite(candidate.value) and not _same(candidate.value, correct)]
    # A value a mistake gives exactly ("1" for a weight of 1) is that mistake even when written
    # with one digit, unless a decimal with too few digits is also the right value rounded
    # ("0.04" for 0.037): then it says too little to name a mistake.
    whole = number.exact or float(number.value).is_integer()
    fits = [candidate for candidate in possible if _same(number.value, candidate.value)]
    if near and not (whole or precise):
        fits = []
    if not fits and near:
        return Judgement("wrong", note="too_few_digits")
    if not fits and precise:
        # A mistake whose value is the right one to these digits explains nothing.
        fits = [candidate for candidate in possible
                if _close(number, candidate.value, candidate.spread)
                and not _close(replace(number, value=candidate.value), correct,
                               candidate.spread)]
    if not fits:
        return Judgement("wrong")
    fewest = min(candidate.cost for candidate in fits)
    best = [candidate for candidate in fits if candidate.cost == fewest]
    codes = _ordered(code for candidate in best for code in candidate.codes)
    if any(candidate.convention for candidate in best):
        return Judgement("right_other_convention", codes)
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
    """One checked value. ``verdict`` is ``None`` when the text is not a number (``problem``
    says why); ``given`` is the number read, under ``reading`` when the text was ambiguous."""

    quantity: Quantity
    cell: tuple[int, ...] | None
    text: str
    number: TypedNumber | None
    correct: float | None
    verdict: Verdict | None
    diagnoses: tuple[Code, ...] = ()
    reading: Reading | None = None
    note: Note | None = None
    problem: AnswerError | None = None

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


def _judge_readings(readings: Sequence[TypedNumber], quantity: Quantity, correct: float | None,
                    mistakes: Sequence[Candidate], own: Sequence[Candidate] = (),
                    ) -> tuple[TypedNumber, Judgement]:
    """The best reading of an ambiguous text ("1,714"), judged; the first one on a tie."""
    judged = [(number, judge(number, quantity, correct, mistakes, own)) for number in readings]
    return min(judged, key=lambda pair: pair[1].rank())


def _own_kappa(form: KappaForm, num: TypedNumber, den: TypedNumber) -> tuple[float, float] | None:
    """Kappa in ``form`` from the learner's num and den, and how far their rounding can move it
    (``None`` when a divisor could be 0 within its rounding: kappa is then unbounded)."""
    divisor = num if form in ("1-y/x", "y/x-1") else den
    if (divisor.value - divisor.half_unit) * (divisor.value + divisor.half_unit) <= 0:
        return None
    value = kappa_form(form, num.value, den.value)
    corners = [kappa_form(form, x, y)
               for x in (num.value - num.half_unit, num.value + num.half_unit)
               for y in (den.value - den.half_unit, den.value + den.half_unit)]
    if value is None or any(corner is None for corner in corners):
        return None
    # Each form is monotone in num and in den away from 0, so the corners bound it.
    return value, max(abs(corner - value) for corner in corners if corner is not None)


def _usable(answer: CheckedAnswer) -> bool:
    return answer.accepted or answer.note == "too_few_digits"


def _own_kappas(num: CheckedAnswer | None, den: CheckedAnswer | None) -> list[Candidate]:
    """Kappas formed from the learner's own num and den, when both are right to their digits
    (accepted, or only too coarse: that is said on num or den, not repeated on kappa)."""
    if num is None or den is None or not (_usable(num) and _usable(den)):
        return []
    if num.number is None or den.number is None:
        return []
    own = []
    for codes, form in KAPPA_FORMS:
        found = _own_kappa(form, num.number, den.number)
        if found is not None:
            own.append(Candidate(found[0], codes, spread=found[1]))
    return own


def _check_one(model: MistakeModel, answer: Answer, group: str,
               own: Sequence[Candidate] = ()) -> CheckedAnswer:
    correct = reference(model.result, answer.quantity, answer.cell)
    try:
        readings = read_number(answer.text, group)
    except AnswerError as problem:
        return CheckedAnswer(answer.quantity, answer.cell, answer.text, None, correct, None,
                             problem=problem)
    mistakes = model.candidates(answer.quantity, answer.cell)
    number, judgement = _judge_readings(readings, answer.quantity, correct, mistakes, own)
    return CheckedAnswer(answer.quantity, answer.cell, answer.text, number, correct,
                         judgement.verdict, judgement.diagnoses,
                         number.reading if len(readings) > 1 else None, judgement.note)


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
    in different conventions (one from counts, one from shares) are a mistake together.
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
    """The earliest wrong value in the order of the calculation, or ``None``."""
    wrong = [answer for answer in checked if answer.wrong]
    return min(wrong, key=_order) if wrong else None


def cell_labels(result: Walkthrough, cell: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """Positions on the scale as the rating labels the learner sees (``(0, 1)`` -> ``(1, 2)``
    for a scale 1..3)."""
    return None if cell is None else tuple(int(result.labels[k]) for k in cell)


def hint_params(result: Walkthrough) -> dict[str, int]:
    """The numbers the diagnosis sentences quote: n, N, N - 1, the right and the off-by-one
    divisor of the weights, the size of the scale in the other convention."""
    size = result.size
    quadratic = result.weights_name == "quadratic"
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
                                  choices=", ".join(QUANTITIES))
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
