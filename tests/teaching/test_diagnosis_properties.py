"""Property tests of the checker's diagnoses: make each classic mistake, check it is named.

Source of truth: a learner simulated with numpy and rational arithmetic, independently of
``qwk_explained.teaching`` (``bench.learners``: it builds the scale, O, w, the histograms, E, O/n,
E/n, num, den and kappa the way a student does on paper, with one mistake in it), and the engine's
``walkthrough`` for the right values. For every
code and at least a thousand random pairs of rating vectors (every weighting, scales with and
without a rating nobody used, labels that do not start at 0), the learner's whole calculation is
submitted, written to four significant figures as a student would. Wherever the mistaken value
differs from the right one by more than rounding (beyond the band careful hand rounding gives the
right value: inside it, it is the right value), the code must be among the diagnoses in at least
95% of the cases. Right answers (3 or 4 significant figures, kappa to 2 decimals, kappa from
the learner's own accepted num and den to 2 or 3 significant figures, num and den from counts)
must never be marked wrong. (The checker's rule for hand rounding itself is tested in
``test_grading_properties.py``.)

Run as a module (``python -m tests.teaching.test_diagnosis_properties [pairs]``) to print the
measured rates.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from bench import learners
from qwk_explained import walkthrough
from qwk_explained.teaching.checking import (
    CheckedAnswer,
    answers_from_mapping,
    check_answers,
    target,
)
from qwk_explained.teaching.mistakes import CODES, mistake_model

PAIRS = 1000
#: Where each mistake shows, i.e. the quantities on which it must be named. (A mistake can change
#: other quantities under another name: counts typed into the E/n grid of a learner who mixed
#: counts and shares are "counts_not_shares" there.)
SHOWS_IN: dict[str, tuple[str, ...]] = {
    "transposed": ("observed", "actual_hist", "predicted_hist", "expected", "observed_norm",
                   "expected_norm"),
    "expected_not_divided_by_n": ("expected", "expected_norm", "denominator", "kappa"),
    "counts_not_shares": ("observed_norm", "expected_norm", "numerator", "denominator"),
    "mixed_counts_and_shares": ("numerator", "denominator", "kappa"),
    "linear_weights": ("weights", "numerator", "denominator", "kappa"),
    "quadratic_weights": ("weights", "numerator", "denominator", "kappa"),
    "unweighted": ("weights", "numerator", "denominator", "kappa"),
    "weights_not_normalized": ("weights", "numerator", "denominator"),
    "weights_divided_by_N_squared": ("weights", "numerator", "denominator"),
    "weights_divided_by_N_minus_1": ("weights", "numerator", "denominator"),
    "num_den_swapped": ("numerator", "denominator", "kappa"),
    "forgot_one_minus": ("kappa",),
    "sign": ("kappa",),
    "observed_scale": ("weights", "numerator", "denominator", "kappa"),
    "range_scale": ("weights", "numerator", "denominator", "kappa"),
}
MATRICES = ("observed", "weights", "expected", "observed_norm", "expected_norm")


# --- the data -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    actual: np.ndarray
    predicted: np.ndarray
    weighting: str
    scale: str
    mixed_side: str  # which of O, E a learner who mixes conventions leaves as counts

    @property
    def data(self) -> learners.Data:
        return learners.Data(tuple(int(x) for x in self.actual),
                             tuple(int(x) for x in self.predicted), self.weighting, self.scale)


def cases(count: int, seed: int = 20261123) -> Iterator[Case]:
    """Random rating pairs: N = 3..6 ratings from a random first label, 6..30 items, predictions
    near the actual ratings; half of them leave a rating inside the range unused."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        size, n = int(rng.integers(3, 7)), int(rng.integers(6, 31))
        start = int(rng.integers(-2, 3))
        actual = rng.integers(0, size, n)
        predicted = np.clip(actual + rng.choice([-2, -1, 0, 0, 0, 1, 1, 2], n), 0, size - 1)
        if rng.random() < 0.5 and size >= 4:  # nobody uses rating 1 (inside the range)
            actual[actual == 1], predicted[predicted == 1] = 2, 2
        actual, predicted = actual + start, predicted + start
        weighting = ("quadratic", "linear", "unweighted")[made % 3]
        scale = "range" if rng.random() < 0.6 else "observed"
        if walkthrough(actual, predicted, weights=weighting, scale=scale).kappa is None:
            continue
        made += 1
        yield Case(actual, predicted, weighting, scale, "O" if rng.random() < 0.5 else "E")


def applies(code: str, case: Case) -> bool:
    """Whether a learner of ``case`` can make this mistake at all."""
    return learners.applies(code, case.data)


def learner(case: Case, mistake: str | None = None) -> dict[str, Any]:
    """The whole calculation as a student does it, exactly, with ``mistake`` made (or none)."""
    return learners.learner(case.data, learners.EXACT, mistake, case.mixed_side)


def sig(value: float, figures: int = 4) -> str:
    """A value as a student writes it to ``figures`` significant figures (trailing zeros kept)."""
    if float(value).is_integer() and abs(value) < 10_000:
        return str(int(value))
    return f"{value:#.{figures}g}"


def submission(work: dict[str, Any], write: Callable[[str, float], str] = lambda q, v: sig(v),
               only: tuple[str, ...] | None = None, labels: np.ndarray | None = None,
               ) -> dict[str, Any]:
    """The learner's work as the checker's JSON answers (cells keyed by rating labels), keeping
    only the cells of ratings on ``labels`` (the right scale)."""
    on_scale = set(map(int, work["labels"] if labels is None else labels))
    names = [int(x) for x in work["labels"]]
    answers: dict[str, Any] = {}
    for quantity in only or tuple(work):
        if quantity == "labels":
            continue
        value = work[quantity]
        if quantity in MATRICES:
            answers[quantity] = {f"{a},{b}": write(quantity, value[i, j])
                                 for i, a in enumerate(names) for j, b in enumerate(names)
                                 if a in on_scale and b in on_scale}
        elif quantity in ("actual_hist", "predicted_hist"):
            answers[quantity] = {str(a): write(quantity, value[i]) for i, a in enumerate(names)
                                 if a in on_scale}
        elif np.isfinite(value):
            answers[quantity] = write(quantity, value)
    return answers


def value_at(work: dict[str, Any], answer: CheckedAnswer, labels: np.ndarray) -> float:
    """The learner's value for the cell the checker names (by rating labels)."""
    value = work[answer.quantity]
    if answer.cell is None:
        return float(value)
    names = [int(x) for x in work["labels"]]
    index = tuple(names.index(int(labels[k])) for k in answer.cell)
    return float(value[index])


def differs(mistaken: float, right: float) -> bool:
    """Different beyond rounding: not the same to four significant figures."""
    return (sig(mistaken) != sig(right)
            and abs(mistaken - right) > 1e-3 * max(abs(mistaken), abs(right)))


def beyond_the_band(model: Any, answer: CheckedAnswer, mistaken: float) -> bool:
    """Whether a careful learner could not produce the mistaken value without the mistake: it
    lies beyond the band of the right value (what writing every intermediate to 3 figures can
    move it by) and the reach of a 4-figure writing. Inside, the value is the right value for
    the checker too, and naming a mistake there would call a careful learner wrong."""
    goal = target(model, answer.quantity, answer.cell)
    if goal.value is None:
        return True
    return abs(mistaken - goal.value) > goal.band + 1.5e-3 * abs(mistaken)


# --- measuring ------------------------------------------------------------------------------------


@dataclass
class Rates:
    named: Counter[str]
    cases: Counter[str]
    alone: Counter[str]  # named with no other mistake beside it
    kappa_alone_named: Counter[str]
    kappa_alone_cases: Counter[str]


def measure(count: int = PAIRS) -> Rates:
    rates = Rates(Counter(), Counter(), Counter(), Counter(), Counter())
    for case in cases(count):
        result = walkthrough(case.actual, case.predicted, weights=case.weighting,
                             scale=case.scale)
        model = mistake_model(result)
        right = learner(case)
        for code in CODES:
            if not applies(code, case):
                continue
            work = learner(case, code)
            # What the mistake changes, and the sums kappa is judged with.
            shown = tuple(dict.fromkeys((*SHOWS_IN[code], "numerator", "denominator", "kappa")))
            answers = answers_from_mapping(result, submission(work, only=shown,
                                                              labels=result.labels))
            for answer in check_answers(result, answers, model=model):
                if answer.quantity not in SHOWS_IN[code]:
                    continue
                mistaken = value_at(work, answer, result.labels)
                if (differs(mistaken, value_at(right, answer, result.labels))
                        and beyond_the_band(model, answer, mistaken)):
                    rates.cases[code] += 1
                    rates.named[code] += code in answer.diagnoses
                    rates.alone[code] += answer.diagnoses == (code,)
            # The learner who types only kappa.
            if ("kappa" in SHOWS_IN[code] and np.isfinite(work["kappa"])
                    and differs(work["kappa"], right["kappa"])):
                alone = answers_from_mapping(result, {"kappa": sig(work["kappa"])})
                (answer,) = check_answers(result, alone, model=model)
                if not beyond_the_band(model, answer, work["kappa"]):
                    continue
                rates.kappa_alone_cases[code] += 1
                rates.kappa_alone_named[code] += code in answer.diagnoses
    return rates


#: Ways a student writes a right calculation: each must never be marked wrong.
RIGHT_WRITINGS: dict[str, Callable[[str, float], str]] = {
    "4 significant figures": lambda q, v: sig(v, 4),
    "3 significant figures": lambda q, v: sig(v, 3),
    "kappa to 2 decimals": lambda q, v: f"{v:.2f}" if q == "kappa" else sig(v, 4),
}


def _own_sums(figures: int) -> Callable[[dict[str, Any]], dict]:
    """num and den rounded to ``figures``, kappa from them, to 4 figures and to 2 decimals: what
    a student who works from their own rounded sums writes."""
    def write(work: dict[str, Any]) -> dict[str, Any]:
        num, den = sig(work["numerator"], figures), sig(work["denominator"], figures)
        kappa = 1 - float(num) / float(den)
        return {"numerator": num, "denominator": den, "kappa": f"{kappa:.2f}",
                "kappa_4": sig(kappa, 4)}
    return write


OWN_SUMS = {"kappa from num and den to 3 figures": _own_sums(3),
            "kappa from num and den to 2 figures": _own_sums(2)}


def rejections(count: int = PAIRS) -> tuple[Counter[str], Counter[str]]:
    """How often right answers get the verdict ``wrong``, per way of writing them."""
    wrong, total = Counter(), Counter()
    for case in cases(count, seed=7):
        result = walkthrough(case.actual, case.predicted, weights=case.weighting,
                             scale=case.scale)
        model = mistake_model(result)
        work = learner(case)
        for name, write in RIGHT_WRITINGS.items():
            checked = check_answers(result, answers_from_mapping(
                result, submission(work, write)), model=model)
            total[name] += len(checked)
            wrong[name] += sum(answer.wrong for answer in checked)
        counts = {"numerator": sig(work["numerator"] * result.n),
                  "denominator": sig(work["denominator"] * result.n), "kappa": sig(work["kappa"])}
        checked = check_answers(result, answers_from_mapping(result, counts), model=model)
        total["num and den from counts"] += len(checked)
        wrong["num and den from counts"] += sum(answer.wrong for answer in checked)
        for name, write in OWN_SUMS.items():
            typed = write(work)
            for kappa in ("kappa", "kappa_4"):
                answers = {"numerator": typed["numerator"], "denominator": typed["denominator"],
                           "kappa": typed[kappa]}
                checked = check_answers(result, answers_from_mapping(result, answers),
                                        model=model)
                *sums, answer = checked
                if not all(a.accepted for a in sums):
                    # A sum too coarse to grade vouches for no kappa (teaching audit, defect 1).
                    assert answer.note != "from_your_sums"
                    continue
                total[name] += 1
                wrong[name] += answer.wrong
    return wrong, total


# --- the tests ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rates() -> Rates:
    return measure()


#: The tests of the measured rates share a worker of a parallel run, so that ``rates`` (half a
#: minute) is measured once, not once per worker.
ONE_MEASURE = pytest.mark.xdist_group("diagnosis_rates")


@pytest.mark.slow
@ONE_MEASURE
@pytest.mark.parametrize("code", CODES)
def test_each_mistake_is_named_where_it_shows(rates: Rates, code: str) -> None:
    """At least 95% of the values the mistake changes beyond rounding are diagnosed with it."""
    assert rates.cases[code] >= 200, f"too few cases to measure {code}"
    assert rates.named[code] / rates.cases[code] >= 0.95, (code, rates.named[code],
                                                            rates.cases[code])


@pytest.mark.slow
@ONE_MEASURE
@pytest.mark.parametrize("code", [code for code in CODES if "kappa" in SHOWS_IN[code]])
def test_a_kappa_typed_alone_names_the_mistake(rates: Rates, code: str) -> None:
    """A learner who types only kappa: the mistake behind it is still named. (A scale mistake
    needs a rating nobody used and changes kappa in fewer pairs: at least 80 cases, once those
    within the right value's band, which are the right value, are left out.)"""
    assert rates.kappa_alone_cases[code] >= 80
    ratio = rates.kappa_alone_named[code] / rates.kappa_alone_cases[code]
    assert ratio >= 0.95, (code, ratio)


@pytest.mark.slow
def test_right_answers_are_never_marked_wrong() -> None:
    wrong, total = rejections()
    assert all(total[name] > 0 for name in [*RIGHT_WRITINGS, *OWN_SUMS])
    assert {name: count for name, count in wrong.items() if count} == {}


def _report(count: int) -> None:
    rates = measure(count)
    print(f"{'code':30} {'named':>7} {'cases':>7} {'rate':>7} {'only it':>8}   kappa typed alone")
    for code in CODES:
        cases_, named = rates.cases[code], rates.named[code]
        alone = rates.kappa_alone_cases[code]
        alone_text = (f"{rates.kappa_alone_named[code]}/{alone} "
                      f"({rates.kappa_alone_named[code] / alone:.1%})" if alone else "-")
        print(f"{code:30} {named:7d} {cases_:7d} {named / max(cases_, 1):7.1%} "
              f"{rates.alone[code] / max(cases_, 1):8.1%}   {alone_text}")
    wrong, total = rejections(count)
    print(f"\n{'right answers written as':40} {'wrong':>7} {'checked':>8} {'rate':>7}")
    for name in total:
        print(f"{name:40} {wrong[name]:7d} {total[name]:8d} {wrong[name] / total[name]:7.2%}")


if __name__ == "__main__":
    _report(int(sys.argv[1]) if len(sys.argv) > 1 else PAIRS)
