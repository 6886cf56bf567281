"""Check a hand calculation of weighted kappa, step by step, and name the likely mistake.

A learner types their own value for some steps (one cell of O, w or E, the numerator, the
denominator, kappa). :func:`check` compares each value with the reference
:class:`~qwk_explained.steps.Walkthrough` within a rounding tolerance; a wrong value is then
compared with the values that common mistakes produce (E not divided by n, unnormalized weights,
rows and columns swapped, counts instead of proportions, ``num/den`` instead of ``1 - num/den``, the
other weighting, the other rating scale, a percentage instead of a proportion). The first mistake
that reproduces the learner's value is reported as a :class:`Diagnosis` code; its sentence lives
in the locales under ``checker.hint.<code>`` (see :func:`qwk_explained.present.feedback.hint`).

:func:`parse_answer` reads a number the way people type it: decimal comma or point (``0,25`` and
``0.25``), a fraction (``1/16``), a percentage (``25%``), full-width digits.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from qwk_explained.core.errors import QwkError
from qwk_explained.core.steps import Walkthrough, walkthrough_from_table
from qwk_explained.core.types import WEIGHTINGS, Cell

#: Steps a learner can check, in the order they are computed (the "first wrong step" follows it).
STEPS = ("observed", "weights", "expected", "numerator", "denominator", "kappa")
#: Steps whose value is one cell of a matrix.
CELL_STEPS = ("observed", "weights", "expected")
#: Default rounding tolerance: a value rounded to 2 decimals is still accepted.
DEFAULT_TOLERANCE = 0.005
#: A wrong value within this many tolerances of the reference is "close" (a rounding slip).
CLOSE_FACTOR = 10.0
#: Every diagnosis code (``checker.hint.<code>`` in the locales).
HINT_CODES = (
    "swapped", "divided_by_n", "e_not_divided", "observed_not_expected", "weights_not_normalized",
    "counts_not_proportions", "num_den_swapped", "ratio_not_one_minus", "ratio_inverted", "sign",
    "weighting_quadratic", "weighting_linear", "weighting_unweighted", "scale_observed",
    "scale_range", "percent", "close", "kappa_undefined",
)
#: Longest piece of the learner's text repeated in a message.
_SHOWN = 20


# --- parsing ---------------------------------------------------------------------------------


class AnswerError(QwkError, ValueError):
    """A typed answer that is not a number (locale keys under ``checker.parse.``)."""

    namespace = "checker.parse"


_PLAIN = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
# "1,234,567" and "1,234.5" (English grouping), "1.234.567" and "1.234,5" (Spanish, Turkish).
_GROUPED = {",": re.compile(r"^[+-]?[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?$"),
            ".": re.compile(r"^[+-]?[1-9][0-9]{0,2}(?:\.[0-9]{3})+(?:,[0-9]+)?$")}
_MINUS_SIGNS = {ord(c): "-" for c in "\u2212\u2012\u2013\u2014\ufe63\uff0d"}
_THIN_SPACES = {ord(c): None for c in "\u00a0\u2009\u202f\u2007"}


def _decimal_text(token: str, thousands: str) -> str | None:
    """``token`` with a decimal point and no grouping, or ``None`` if it is no number."""
    if _GROUPED[thousands].match(token):
        # Written with the language's thousands separator (1,234 in English; 1.234 in Spanish).
        token = token.replace(thousands, "")
        return token.replace(",", ".")
    if "," in token and "." in token:
        # Both marks in another language's style: the last one is the decimal mark.
        last = max(token.rfind(","), token.rfind("."))
        mark = token[last]
        other = "." if mark == "," else ","
        token = token.replace(other, "")
        return token.replace(",", ".") if mark == "," else token
    if token.count(",") == 1:
        # A single comma is a decimal mark in every language the app speaks ("0,25").
        return token.replace(",", ".")
    return token if "," not in token else None


def _plain_number(token: str, thousands: str) -> float | None:
    text = _decimal_text(token, thousands)
    if text is None or not _PLAIN.match(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def parse_answer(text: str, thousands: str = ",") -> float:
    """Read one number typed by a learner; raise :class:`AnswerError` when it is not one.

    Accepts a decimal comma or point, a fraction ``a/b``, a trailing or leading percent sign
    (``25%``, Turkish ``%25``) and full-width characters. One comma is always a decimal mark
    (``0,25``); grouped thousands use ``thousands``, the learner's language's grouping mark
    (``1,234`` in English, ``1.234`` in Spanish).

    >>> parse_answer("0,25"), parse_answer("0.25"), parse_answer("1/16"), parse_answer("-13,92%")
    (0.25, 0.25, 0.0625, -0.1392)
    >>> parse_answer("1.234", "."), parse_answer("1,234", ","), parse_answer("1,5", ",")
    (1234.0, 1234.0, 1.5)
    """
    if not isinstance(text, str):
        raise AnswerError("empty")
    # Narrow and no-break spaces group thousands in French-style numbers (1 234,5); drop them
    # before NFKC turns them into ordinary spaces, which stay an error inside a number.
    cleaned = unicodedata.normalize("NFKC", text.translate(_THIN_SPACES))
    cleaned = cleaned.translate(_MINUS_SIGNS).strip()
    if not cleaned:
        raise AnswerError("empty")
    shown = cleaned if len(cleaned) <= _SHOWN else cleaned[: _SHOWN - 1] + "…"
    percent = False
    if cleaned.endswith("%") or cleaned.startswith("%"):
        percent, cleaned = True, cleaned.strip("%").strip()
    parts = [part.strip() for part in cleaned.split("/")]
    if len(parts) > 2 or any(not part or " " in part for part in parts):
        raise AnswerError("not_a_number", text=shown)
    values = [number for part in parts if (number := _plain_number(part, thousands)) is not None]
    if len(values) != len(parts):
        raise AnswerError("not_a_number", text=shown)
    value = values[0]
    if len(values) == 2:
        if values[1] == 0:
            raise AnswerError("division_by_zero", text=shown)
        value = value / values[1]
    if percent:
        value = value / 100.0
    if not math.isfinite(value):
        raise AnswerError("not_a_number", text=shown)
    return round(value, 12) + 0.0  # "+ 0.0" turns -0.0 into 0.0


# --- reference values ------------------------------------------------------------------------


def reference(result: Walkthrough, step: str, cell: Cell | None = None) -> float | None:
    """The reference value of ``step`` (at positions ``cell`` for O, w and E); ``None`` when
    kappa is undefined."""
    if step in CELL_STEPS:
        i, j = _cell(result, cell)
        matrix = {"observed": result.observed, "weights": result.weights,
                  "expected": result.expected}[step]
        return float(matrix[i, j])
    if step == "numerator":
        return result.numerator
    if step == "denominator":
        return result.denominator
    if step == "kappa":
        return result.kappa
    raise ValueError(f"unknown step {step!r}; expected one of {STEPS}")


def _cell(result: Walkthrough, cell: Cell | None) -> Cell:
    if cell is None:
        raise ValueError("a cell (i, j) is needed for the steps O, w and E")
    i, j = int(cell[0]), int(cell[1])
    if not (0 <= i < result.size and 0 <= j < result.size):
        raise IndexError(f"cell ({i}, {j}) outside the {result.size} x {result.size} matrices")
    return i, j


# --- tolerance and verdicts --------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """How far a typed value may be from the reference: absolute (``0.005``) or relative
    (``0.01`` = 1 % of the reference)."""

    value: float = DEFAULT_TOLERANCE
    relative: bool = False

    def bound(self, expected: float, scale: float = 1.0) -> float:
        """The largest accepted distance from ``expected``; ``scale`` widens it for a value that
        is a multiple of a rounded one (100 x a proportion rounded to 2 decimals)."""
        value = max(float(self.value), 0.0)
        if self.relative:
            return value * abs(expected) + 1e-12
        return value * max(abs(scale), 1.0) + 1e-12

    def accepts(self, given: float, expected: float, scale: float = 1.0) -> bool:
        return abs(given - expected) <= self.bound(expected, scale)


@dataclass(frozen=True)
class Diagnosis:
    """The likely mistake: ``codes`` (one or two keys under ``checker.hint.``) and the numbers its
    sentence mentions."""

    codes: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """One checked value: right or wrong, the reference, and the likely mistake if wrong."""

    step: str
    cell: Cell | None
    given: float
    expected: float | None
    correct: bool
    diagnosis: Diagnosis | None = None


@dataclass(frozen=True)
class _Candidate:
    value: float
    codes: tuple[str, ...]
    scale: float = 1.0
    params: Mapping[str, Any] = field(default_factory=dict)


# --- what common mistakes produce ----------------------------------------------------------------


def _weights_factor(result: Walkthrough) -> float | None:
    """How much larger unnormalized weights are: (N-1)^2 (quadratic) or N-1 (linear)."""
    size = result.size
    if size < 3:  # N - 1 = 1: normalizing changes nothing
        return None
    if result.weights_name == "quadratic":
        return float((size - 1) ** 2)
    if result.weights_name == "linear":
        return float(size - 1)
    return None


def other_weightings(result: Walkthrough) -> dict[str, Walkthrough]:
    """The same table with each other named weighting (quadratic, linear, unweighted)."""
    if result.weights_name not in WEIGHTINGS:
        return {}
    return {name: walkthrough_from_table(result.observed, weights=name, labels=result.labels)
            for name in WEIGHTINGS if name != result.weights_name}


def other_scale(result: Walkthrough) -> tuple[str, Walkthrough] | None:
    """The same data on the other rating scale, as a learner might have set it up.

    If some rating on the scale was used by nobody, the ``"observed"`` scale leaves it out (N
    smaller); if the ratings used are not consecutive, the ``"range"`` scale adds the missing ones
    (N larger). Returns ``(scale name, walkthrough)`` or ``None`` when both scales agree.
    """
    if result.weights_name not in ("quadratic", "linear", "unweighted"):
        return None
    used = (result.actual_hist + result.predicted_hist) > 0
    labels = result.labels
    if not used.all():
        keep = np.flatnonzero(used)
        if keep.size == 0:
            return None
        table = result.observed[np.ix_(keep, keep)]
        return "observed", walkthrough_from_table(table, weights=result.weights_name,
                                                  labels=labels[keep])
    full = np.arange(labels[0], labels[-1] + 1, dtype=np.int64)
    if full.size == labels.size or full.size > 50:
        return None
    positions = np.searchsorted(full, labels)
    table = np.zeros((full.size, full.size), dtype=np.int64)
    table[np.ix_(positions, positions)] = result.observed
    return "range", walkthrough_from_table(table, weights=result.weights_name, labels=full)


def _moved_cell(result: Walkthrough, other: Walkthrough, cell: Cell) -> Cell | None:
    """Cell (i, j) of ``result`` in ``other`` (found by rating label), or ``None``."""
    labels = other.labels.tolist()
    a, b = int(result.labels[cell[0]]), int(result.labels[cell[1]])
    if a in labels and b in labels:
        return labels.index(a), labels.index(b)
    return None


def _candidates(result: Walkthrough, step: str, cell: Cell | None,
                expected: float) -> Iterator[_Candidate]:
    """Values that well-known mistakes give for ``step``, most specific first."""
    n, size = result.n, result.size
    factor = _weights_factor(result)
    if step == "observed":
        i, j = _cell(result, cell)
        yield _Candidate(float(result.observed[j, i]), ("swapped",))
        yield _Candidate(float(result.observed_norm[i, j]), ("divided_by_n",), params={"n": n})
    elif step == "expected":
        i, j = _cell(result, cell)
        outer = float(result.actual_hist[i] * result.predicted_hist[j])
        yield _Candidate(outer, ("e_not_divided",), params={"n": n})
        yield _Candidate(float(result.expected[j, i]), ("swapped",))
        outer_swapped = float(result.actual_hist[j] * result.predicted_hist[i])
        yield _Candidate(outer_swapped, ("e_not_divided", "swapped"), params={"n": n})
        yield _Candidate(float(result.expected_norm[i, j]), ("divided_by_n",), params={"n": n})
        yield _Candidate(float(result.observed[i, j]), ("observed_not_expected",))
    elif step == "weights":
        i, j = _cell(result, cell)
        if factor is not None:
            yield _Candidate(expected * factor, ("weights_not_normalized",), factor,
                             {"size": size, "factor": _whole(factor)})
    elif step in ("numerator", "denominator"):
        yield _Candidate(expected * n, ("counts_not_proportions",), n, {"n": n})
        if factor is not None:
            yield _Candidate(expected * factor, ("weights_not_normalized",), factor,
                             {"size": size, "factor": _whole(factor)})
            yield _Candidate(expected * factor * n,
                             ("weights_not_normalized", "counts_not_proportions"), factor * n,
                             {"size": size, "factor": _whole(factor), "n": n})
        partner = result.denominator if step == "numerator" else result.numerator
        yield _Candidate(partner, ("num_den_swapped",))
    elif step == "kappa" and result.denominator > 0:
        yield _Candidate(result.numerator / result.denominator, ("ratio_not_one_minus",))
        if result.numerator > 0:
            yield _Candidate(1.0 - result.denominator / result.numerator, ("ratio_inverted",))
        yield _Candidate(-expected, ("sign",))
    yield from _alternative_candidates(result, step, cell)
    if step in ("weights", "numerator", "denominator", "kappa"):
        yield _Candidate(expected * 100.0, ("percent",), 100.0)


def _alternative_candidates(result: Walkthrough, step: str,
                            cell: Cell | None) -> Iterator[_Candidate]:
    if step not in ("weights", "numerator", "denominator", "kappa"):
        return
    alternatives: list[tuple[tuple[str, ...], Walkthrough, dict[str, Any]]] = [
        ((f"weighting_{name}",), other, {}) for name, other in other_weightings(result).items()]
    scaled = other_scale(result)
    if scaled is not None:
        name, other = scaled
        alternatives.append(((f"scale_{name}",), other,
                             {"size": other.size, "expected_size": result.size}))
    for codes, other, params in alternatives:
        if step == "weights":
            moved = _moved_cell(result, other, _cell(result, cell))
            if moved is None:
                continue
            value: float | None = float(other.weights[moved])
        else:
            value = reference(other, step)
        if value is not None:
            yield _Candidate(value, codes, params=params)


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def diagnose(result: Walkthrough, step: str, given: float, cell: Cell | None = None,
             tolerance: Tolerance | None = None) -> Diagnosis | None:
    """The mistake that most likely produced the wrong value ``given``, or ``None``."""
    tolerance = tolerance or Tolerance()
    expected = reference(result, step, cell)
    if expected is None:
        return Diagnosis(("kappa_undefined",))
    for candidate in _candidates(result, step, cell, expected):
        value = candidate.value
        if not math.isfinite(value):
            continue
        # A "mistake" that gives the right value (a symmetric cell, n = 1) says nothing.
        if tolerance.accepts(value, expected, candidate.scale):
            continue
        if tolerance.accepts(given, value, candidate.scale):
            return Diagnosis(candidate.codes, dict(candidate.params))
    if abs(given - expected) <= CLOSE_FACTOR * tolerance.bound(expected):
        return Diagnosis(("close",))
    return None


def check_value(result: Walkthrough, step: str, given: float, cell: Cell | None = None,
                tolerance: Tolerance | None = None) -> Verdict:
    """Compare one typed value with the reference; diagnose it if it is wrong."""
    tolerance = tolerance or Tolerance()
    if step in CELL_STEPS:
        cell = _cell(result, cell)
    else:
        cell = None
    expected = reference(result, step, cell)
    correct = expected is not None and tolerance.accepts(given, expected)
    diagnosis = None if correct else diagnose(result, step, given, cell, tolerance)
    return Verdict(step, cell, float(given), expected, correct, diagnosis)


def check(result: Walkthrough, answers: Iterable[tuple[str, Cell | None, float]],
          tolerance: Tolerance | None = None) -> list[Verdict]:
    """Check several answers ``(step, cell, value)``; verdicts come back in step order."""
    order = {step: index for index, step in enumerate(STEPS)}
    verdicts = [check_value(result, step, value, cell, tolerance)
                for step, cell, value in answers]
    return sorted(verdicts, key=lambda verdict: order[verdict.step])


def first_wrong(verdicts: Sequence[Verdict]) -> Verdict | None:
    """The earliest wrong step (in the order of the calculation), or ``None`` if all are right."""
    order = {step: index for index, step in enumerate(STEPS)}
    wrong = [verdict for verdict in verdicts if not verdict.correct]
    return min(wrong, key=lambda verdict: order[verdict.step]) if wrong else None
