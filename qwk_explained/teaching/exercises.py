"""Practice exercises: seeded rating vectors, the questions to ask about them, and answer checking.

An exercise is fully determined by its ``seed`` and ``level``, so a link such as
``/practice?seed=12345&level=medium`` shows everyone the same vectors and the same questions. Every
exercise uses the full range scale 0..N-1 and quadratic weights (what the Kaggle competitions
score), whatever the app's settings are, so that the answers behind a shared link never change.

The learner predicts one quantity at a time, in the order of the computation: a cell of the
observed matrix O, a cell of the expected matrix E, the numerator, the denominator, kappa, and
finally which of two prediction vectors for the same actual ratings has the higher kappa. Every
answer comes from :func:`qwk_explained.walkthrough`, the same engine the rest of the app uses.

Answers are typed text judged by the checker (:func:`.checking.check_answers`): read as the learner
wrote them (``0.25``, ``0,25``, fractions such as ``3/10``), right within the error careful hand
rounding produces, a kappa worked out from the learner's own accepted num and den is right, num
and den from counts are right with that convention, a value with too few digits to judge is sent
back (it does not count), and a wrong answer comes with the mistakes that explain it.

Generation draws only ``random.Random.random()`` from a string-seeded generator: Python
guarantees that sequence across versions, so an exercise does not change with numpy or Python.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import Quantity

from .checking import Answer, CheckedAnswer, check_answers
from .mistakes import MistakeModel, mistake_model

#: Difficulty levels, easiest first; each is also the locale key ``practice.level.<name>``.
Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)
DEFAULT_LEVEL: Level = "easy"


@dataclass(frozen=True)
class LevelBounds:
    """Inclusive bounds of N (ratings on the scale) and of n (items)."""

    sizes: tuple[int, int]
    items: tuple[int, int]


LEVEL_BOUNDS: dict[Level, LevelBounds] = {
    "easy": LevelBounds(sizes=(3, 3), items=(5, 8)),
    "medium": LevelBounds(sizes=(4, 5), items=(8, 14)),
    "hard": LevelBounds(sizes=(5, 6), items=(14, 20)),
}

#: Seeds are 0..MAX_SEED: six digits at most, short enough to read out in class.
MAX_SEED = 999_999
#: Kinds of question, in the order they are asked.
Kind = Literal["observed", "expected", "numerator", "denominator", "kappa", "compare"]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: The quantity of the checker each numeric question asks for.
QUANTITY: dict[Kind, Quantity] = {"observed": "observed", "expected": "expected",
                                  "numerator": "numerator", "denominator": "denominator",
                                  "kappa": "kappa"}
#: The two candidates of a "which prediction has the higher kappa?" question.
Choice = Literal["a", "b"]
CHOICES: tuple[Choice, ...] = get_args(Choice)
#: Which prediction a walkthrough is computed for: A (``predicted``) or B (``alternative``).
Which = Literal["predicted", "alternative"]
#: Two kappas to compare differ by at least this much, so rounding cannot decide the answer.
MIN_KAPPA_GAP = 0.05

_ATTEMPTS = 500
T = TypeVar("T")


# --- data ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """One quantity to predict.

    ``cell`` is (i, j), row i = actual rating, column j = predicted rating, for ``observed`` and
    ``expected``; ``None`` otherwise. ``answer`` is the engine's value; for ``compare`` it is the
    index in :data:`CHOICES` of the prediction with the higher kappa, and ``kappas`` holds the
    kappa of prediction A and of prediction B.
    """

    kind: Kind
    cell: tuple[int, int] | None
    answer: float
    kappas: tuple[float, float] | None = None

    @property
    def correct_choice(self) -> Choice | None:
        """``"a"`` or ``"b"`` for a compare question, else ``None``."""
        return CHOICES[int(self.answer)] if self.kind == "compare" else None


@dataclass(frozen=True)
class Exercise:
    """Actual ratings, prediction A (``predicted``), prediction B (``alternative``, used by the
    compare question only) on the scale 0..size-1, and the questions in the order they are asked."""

    seed: int
    level: Level
    size: int
    actual: tuple[int, ...]
    predicted: tuple[int, ...]
    alternative: tuple[int, ...]
    questions: tuple[Question, ...]

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.actual)


#: What became of one typed answer: right (any accepted verdict), wrong, too coarse to judge
#: (right to the digits written, but too few of them: not graded, the learner writes more), or
#: not readable.
Status = Literal["correct", "wrong", "too_coarse", "unreadable"]
#: Why a typed answer could not be read (``practice.problem_<code>`` in the locales): the
#: reader's own code (:class:`.typed_numbers.AnswerError`) or, for a comparison, no choice.
Problem = Literal["empty", "not_a_number", "division_by_zero", "too_long", "out_of_range",
                  "not_a_choice"]
PROBLEMS: tuple[Problem, ...] = get_args(Problem)


@dataclass(frozen=True)
class Attempt:
    """The outcome of one typed answer to a practice question.

    ``checked`` is the checker's verdict on a numeric answer (with the mistakes that explain a
    wrong one); ``problem`` says why a text could not be read.
    """

    status: Status
    checked: CheckedAnswer | None = None
    problem: Problem | None = None

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    @property
    def readable(self) -> bool:
        return self.status != "unreadable"

    @property
    def graded(self) -> bool:
        """Whether the answer counts in the score: right or wrong, not too coarse to judge and
        not unreadable."""
        return self.status in ("correct", "wrong")


# --- seeds and levels from text (a URL) ----------------------------------------------------------


def parse_seed(text: object) -> int | None:
    """A seed from text such as ``"12345"``; ``None`` unless it is a whole number 0..MAX_SEED.

    >>> parse_seed("12345"), parse_seed(" 7 "), parse_seed("abc"), parse_seed("10000000")
    (12345, 7, None, None)
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 0 <= text <= MAX_SEED else None
    cleaned = unicodedata.normalize("NFKC", str(text)).strip()
    if not re.fullmatch(r"[0-9]{1,7}", cleaned):
        return None
    value = int(cleaned)
    return value if value <= MAX_SEED else None


def parse_level(text: object) -> Level | None:
    """A level name (``"easy"``, ``"medium"``, ``"hard"``), or ``None`` for anything else."""
    cleaned = str(text).strip()
    return next((level for level in LEVELS if level == cleaned), None)


def random_seed(avoid: int | None = None) -> int:
    """A fresh seed for a new exercise (never ``avoid``, the one on screen)."""
    while True:
        seed = secrets.randbelow(MAX_SEED + 1)
        if seed != avoid:
            return seed


# --- generation ----------------------------------------------------------------------------------


def _below(rng: random.Random, bound: int) -> int:
    """An integer 0..bound-1 from ``random()`` alone (the one method with a guaranteed sequence)."""
    return min(int(rng.random() * bound), bound - 1)


def _between(rng: random.Random, low: int, high: int) -> int:
    return low + _below(rng, high - low + 1)


def _pick(rng: random.Random, options: Sequence[T]) -> T:
    return options[_below(rng, len(options))]


def _step(rng: random.Random, near_only: bool) -> int:
    # Graders who miss usually miss by one rating, sometimes by two.
    if near_only:
        return -1 if rng.random() < 0.5 else 1
    u = rng.random()
    if u < 0.15:
        return -2
    if u < 0.5:
        return -1
    if u < 0.85:
        return 1
    return 2


def _predict(rng: random.Random, actual: tuple[int, ...], size: int, agreement: float,
             style: str) -> tuple[int, ...]:
    """A prediction per item: the actual rating with probability ``agreement``, else a miss.

    ``near``: misses by exactly one rating; ``ordinal``: by one or two; ``far``: to the rating
    farthest away on the scale (few misses, but each one costs a lot under quadratic weights).
    """
    predicted = []
    for rating in actual:
        if rng.random() < agreement:
            predicted.append(rating)
        elif style == "far":
            predicted.append(0 if rating >= (size - 1) / 2 else size - 1)
        else:
            moved = rating + _step(rng, style == "near")
            predicted.append(min(max(moved, 0), size - 1))
    return tuple(predicted)


def exercise_walkthrough(exercise: Exercise, which: Which = "predicted") -> Walkthrough:
    """Every step for the actual ratings against prediction A (``"predicted"``) or B
    (``"alternative"``), on the exercise's scale 0..N-1 with quadratic weights."""
    return _walk(exercise.actual, _prediction(exercise, which), exercise.size)


def _prediction(exercise: Exercise, which: Which) -> tuple[int, ...]:
    if which == "predicted":
        return exercise.predicted
    if which == "alternative":
        return exercise.alternative
    raise ValueError(f"which must be 'predicted' or 'alternative', not {which!r}")


def _walk(actual: tuple[int, ...], predicted: tuple[int, ...], size: int) -> Walkthrough:
    return walkthrough(list(actual), list(predicted), weights="quadratic", scale="range",
                       min_rating=0, max_rating=size - 1)


def _interesting(actual: tuple[int, ...], predicted: tuple[int, ...], size: int) -> bool:
    """Defined kappa, both raters use two ratings or more, some items on and off the diagonal."""
    if len(set(actual)) < 2 or len(set(predicted)) < 2:
        return False
    agree = sum(a == p for a, p in zip(actual, predicted, strict=True))
    if agree == 0 or agree == len(actual):
        return False
    return _walk(actual, predicted, size).kappa is not None


def _comparable(actual: tuple[int, ...], first: tuple[int, ...], second: tuple[int, ...],
                size: int) -> bool:
    if second == first or len(set(second)) < 2:
        return False
    k1, k2 = _walk(actual, first, size).kappa, _walk(actual, second, size).kappa
    return k1 is not None and k2 is not None and abs(k1 - k2) >= MIN_KAPPA_GAP


def _fallback(size: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A valid exercise built without chance, in case the draws keep failing (never seen in tests
    over thousands of seeds, but a page must always get an exercise)."""
    actual = tuple(k % size for k in range(n))
    predicted = tuple(a if k % 3 else min(a + 1, size - 1) for k, a in enumerate(actual))
    alternative = tuple(size - 1 - a if k % 2 == 0 else a for k, a in enumerate(actual))
    return actual, predicted, alternative


def _vectors(rng: random.Random, size: int, n: int
             ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    for _ in range(_ATTEMPTS):
        actual = tuple(_below(rng, size) for _ in range(n))
        predicted = _predict(rng, actual, size, 0.35 + 0.35 * rng.random(), "ordinal")
        if not _interesting(actual, predicted, size):
            continue
        # Prediction B is drawn in another style, so the comparison teaches something: many
        # near misses can beat a few far ones, and exact matches are not all that counts.
        style = _pick(rng, ["near", "far", "ordinal"])
        agreement = {"near": 0.2, "far": 0.5, "ordinal": 0.3}[style] + 0.35 * rng.random()
        for _ in range(20):
            alternative = _predict(rng, actual, size, agreement, style)
            if _comparable(actual, predicted, alternative, size):
                return actual, predicted, alternative
    return _fallback(size, n)


def _cell(rng: random.Random, candidates: list[tuple[int, int]], size: int,
          prefer: float) -> tuple[int, int]:
    """One of ``candidates`` with probability ``prefer`` (if any), else any cell of the matrix."""
    if candidates and rng.random() < prefer:
        return _pick(rng, candidates)
    return _below(rng, size), _below(rng, size)


def make_exercise(seed: int, level: Level = DEFAULT_LEVEL) -> Exercise:
    """The exercise for ``seed`` (0..MAX_SEED) and ``level``: the same arguments always give the
    same vectors and questions.

    >>> exercise = make_exercise(12345, "medium")
    >>> exercise == make_exercise(12345, "medium"), [q.kind for q in exercise.questions]
    (True, ['observed', 'expected', 'numerator', 'denominator', 'kappa', 'compare'])
    """
    if level not in LEVEL_BOUNDS:
        raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")
    if parse_seed(seed) is None:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}, not {seed!r}")
    bounds = LEVEL_BOUNDS[level]
    rng = random.Random(f"qwk-practice:{level}:{seed}")
    size = _between(rng, *bounds.sizes)
    n = _between(rng, *bounds.items)
    actual, predicted, alternative = _vectors(rng, size, n)
    first = _walk(actual, predicted, size)
    second = _walk(actual, alternative, size)
    cells = [(i, j) for i in range(size) for j in range(size)]
    # The most instructive cells are off the diagonal: items where the raters disagree for O,
    # and for E any cell whose two histogram bars are both non-zero.
    misses = [(i, j) for i, j in cells if i != j and first.observed[i, j] > 0]
    observed_cell = _cell(rng, misses, size, prefer=0.75)
    chance = [(i, j) for i, j in cells
              if i != j and first.expected[i, j] > 0 and (i, j) != observed_cell]
    expected_cell = _cell(rng, chance, size, prefer=0.85)
    if first.kappa is None or second.kappa is None:  # _vectors and _fallback rule this out
        raise RuntimeError(f"exercise {level}/{seed} has an undefined kappa")
    questions = (
        Question("observed", observed_cell, float(first.observed[observed_cell])),
        Question("expected", expected_cell, float(first.expected[expected_cell])),
        Question("numerator", None, first.numerator),
        Question("denominator", None, first.denominator),
        Question("kappa", None, first.kappa),
        Question("compare", None, 0.0 if first.kappa > second.kappa else 1.0,
                 kappas=(first.kappa, second.kappa)),
    )
    return Exercise(seed=int(seed), level=level, size=size, actual=actual, predicted=predicted,
                    alternative=alternative, questions=questions)


def agreements(exercise: Exercise, which: Which = "predicted") -> int:
    """How many items prediction A (``"predicted"``) or B (``"alternative"``) rates exactly like the
    actual rater: the diagonal of O, the only thing unweighted accuracy looks at."""
    return sum(a == p for a, p in zip(exercise.actual, _prediction(exercise, which),
                                      strict=True))


# --- answers -------------------------------------------------------------------------------------


def check_answer(exercise: Exercise, question: Question, text: str | None, group: str = ",",
                 sums: Mapping[Kind, str] | None = None,
                 model: MistakeModel | None = None) -> Attempt:
    """Judge ``text`` as the answer to ``question`` of ``exercise``.

    A number goes through the checker (:func:`.checking.check_answers`) against prediction A's
    walkthrough; ``group`` is the grouping mark of the learner's language, ``sums`` the learner's
    earlier answers for num and den (a kappa worked out from accepted ones is right). A compare
    question takes the letter of the prediction with the higher kappa.

    >>> exercise = make_exercise(12345, "medium")
    >>> kappa = exercise.questions[4]
    >>> round(kappa.answer, 4), [check_answer(exercise, kappa, s).status
    ...                          for s in ("0,66", "0.662", "0.7", "0.5", "abc")]
    (0.662, ['correct', 'correct', 'too_coarse', 'wrong', 'unreadable'])
    """
    if question.kind == "compare":
        choice = unicodedata.normalize("NFKC", str(text or "")).strip().casefold()
        if choice not in CHOICES:
            return Attempt("unreadable", problem="empty" if not choice else "not_a_choice")
        return Attempt("correct" if choice == question.correct_choice else "wrong")
    answers = [Answer(QUANTITY[question.kind], question.cell, text or "")]
    if question.kind == "kappa":
        answers += [Answer(QUANTITY[kind], None, typed) for kind, typed in (sums or {}).items()
                    if kind in ("numerator", "denominator") and typed.strip()]
    result = exercise_walkthrough(exercise)
    checked = check_answers(result, answers, group, model or mistake_model(result))
    mine = next(answer for answer in checked if answer.quantity == QUANTITY[question.kind])
    if mine.problem is not None:
        known = [problem for problem in PROBLEMS if problem == mine.problem.code]
        return Attempt("unreadable", mine, known[0] if known else "not_a_number")
    if mine.verdict == "too_coarse":
        return Attempt("too_coarse", mine)
    return Attempt("correct" if mine.accepted else "wrong", mine)


# --- the lesson of the comparison ---------------------------------------------------------------

#: Why the prediction with the higher kappa won: with equal or larger weighted disagreement, only
#: the chance term can have decided (``chance``); with fewer or equal exact matches but a smaller
#: weighted disagreement, nearness did (``nearness``).
Lesson = Literal["chance", "nearness"]


@dataclass(frozen=True)
class CompareLesson:
    """The reason the comparison came out as it did, with the numbers that show it."""

    lesson: Lesson
    higher: Choice
    lower: Choice
    numerators: tuple[float, float]  # num of the higher and of the lower prediction
    denominators: tuple[float, float]
    matches: tuple[int, int]  # exact matches of the higher and of the lower prediction


def compare_lesson(exercise: Exercise) -> CompareLesson | None:
    """What the compare question teaches, or ``None`` when the higher kappa has both fewer
    misses and a smaller weighted disagreement (nothing surprising to explain).

    kappa = 1 - num/den: the prediction with the higher kappa has the smaller num/den. When its
    num is not smaller, its den must be larger: the disagreement expected by chance from the two
    histograms decided, not the misses (audit example: easy exercise 2).

    >>> compare_lesson(make_exercise(2, "easy")).lesson
    'chance'
    """
    question = exercise.questions[-1]
    higher = question.correct_choice or "a"
    lower: Choice = "b" if higher == "a" else "a"
    which: dict[Choice, Which] = {"a": "predicted", "b": "alternative"}
    results = {choice: exercise_walkthrough(exercise, which[choice]) for choice in CHOICES}
    numerators = (results[higher].numerator, results[lower].numerator)
    denominators = (results[higher].denominator, results[lower].denominator)
    matches = (agreements(exercise, which[higher]), agreements(exercise, which[lower]))
    # A hair of tolerance: equal sums computed in another order differ in the last bit.
    if numerators[0] >= numerators[1] - 1e-12:
        lesson: Lesson = "chance"
    elif matches[0] <= matches[1]:
        lesson = "nearness"
    else:
        return None
    return CompareLesson(lesson, higher, lower, numerators, denominators, matches)
