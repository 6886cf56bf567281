"""The practice exercise generator and answer checker (``qwk_explained.teaching.exercises``).

Sources of truth: the engine (``qwk_explained.walkthrough``) for every answer, scikit-learn's
``cohen_kappa_score`` as an independent check of the kappas, the practice page's level table
(easy, medium, hard: scale sizes and item counts) for the sizes, and pinned vectors for the
promise that a shared ``?seed=`` link never changes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from qwk_explained import walkthrough
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.exercises import (
    CHOICES,
    KINDS,
    LEVEL_BOUNDS,
    LEVELS,
    MAX_SEED,
    MIN_KAPPA_GAP,
    Question,
    _comparable,
    _fallback,
    _interesting,
    agreements,
    check_answer,
    compare_lesson,
    exercise_walkthrough,
    make_exercise,
    parse_level,
    parse_seed,
    random_seed,
)

SEEDS = range(150)


def engine(actual, predicted, size):
    return walkthrough(actual, predicted, min_rating=0, max_rating=size - 1)


# --- generation ----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_exercise_and_different_seeds_differ(level):
    """Determinism (the shared-link promise): same seed and level -> equal exercises."""
    exercises = [make_exercise(seed, level) for seed in range(40)]
    assert exercises == [make_exercise(seed, level) for seed in range(40)]
    assert len({(e.actual, e.predicted) for e in exercises}) >= 38


def test_pinned_exercise_never_changes():
    """A link shared today must show the same exercise tomorrow (only random() is drawn)."""
    exercise = make_exercise(12345, "medium")
    assert exercise.size == 5
    assert exercise.actual == (3, 4, 4, 3, 4, 1, 4, 4)
    assert exercise.predicted == (4, 4, 4, 1, 4, 2, 4, 4)
    assert exercise.alternative == (4, 4, 3, 3, 3, 2, 3, 4)
    assert [(q.kind, q.cell) for q in exercise.questions] == [
        ("observed", (2, 1)), ("expected", (4, 1)), ("numerator", None),
        ("denominator", None), ("kappa", None), ("compare", None)]


@pytest.mark.parametrize("level", LEVELS)
def test_sizes_and_item_counts_follow_the_level_table(level):
    """The practice page's levels: easy N=3, 5-8 items; medium N=4-5, 8-14; hard N=5-6, 14-20."""
    bounds = LEVEL_BOUNDS[level]
    sizes, counts = set(), set()
    for seed in SEEDS:
        exercise = make_exercise(seed, level)
        sizes.add(exercise.size)
        counts.add(exercise.n)
        for vector in (exercise.actual, exercise.predicted, exercise.alternative):
            assert len(vector) == exercise.n
            assert all(0 <= rating < exercise.size for rating in vector)
    assert sizes == set(range(bounds.sizes[0], bounds.sizes[1] + 1))
    assert min(counts) >= bounds.items[0] and max(counts) <= bounds.items[1]
    assert len(counts) > (bounds.items[1] - bounds.items[0]) // 2  # the range is really used
    assert LEVEL_BOUNDS["easy"].sizes == (3, 3) and LEVEL_BOUNDS["hard"].items == (14, 20)


@pytest.mark.parametrize("level", LEVELS)
def test_answers_are_the_engines_values_and_kappa_is_defined(level):
    """Every answer equals the engine's value; kappas also match scikit-learn."""
    for seed in SEEDS:
        exercise = make_exercise(seed, level)
        first = engine(exercise.actual, exercise.predicted, exercise.size)
        second = engine(exercise.actual, exercise.alternative, exercise.size)
        assert first.kappa is not None and second.kappa is not None
        by_kind = {q.kind: q for q in exercise.questions}
        assert tuple(q.kind for q in exercise.questions) == KINDS
        assert by_kind["observed"].answer == first.observed[by_kind["observed"].cell]
        assert by_kind["expected"].answer == first.expected[by_kind["expected"].cell]
        assert by_kind["numerator"].answer == first.numerator
        assert by_kind["denominator"].answer == first.denominator
        assert by_kind["kappa"].answer == first.kappa
        labels = list(range(exercise.size))
        sk_first = cohen_kappa_score(exercise.actual, exercise.predicted, weights="quadratic",
                                     labels=labels)
        sk_second = cohen_kappa_score(exercise.actual, exercise.alternative,
                                      weights="quadratic", labels=labels)
        assert by_kind["kappa"].answer == pytest.approx(sk_first, abs=1e-12)
        compare = by_kind["compare"]
        assert compare.kappas == pytest.approx((sk_first, sk_second), abs=1e-12)
        assert compare.correct_choice == ("a" if sk_first > sk_second else "b")
        assert exercise_walkthrough(exercise).kappa == first.kappa
        assert exercise_walkthrough(exercise, "alternative").kappa == second.kappa


@pytest.mark.parametrize("level", LEVELS)
def test_exercises_are_interesting(level):
    """Invariant: some items off and on the diagonal, two ratings per rater, a clear comparison."""
    choices = set()
    for seed in SEEDS:
        exercise = make_exercise(seed, level)
        result = exercise_walkthrough(exercise)
        diagonal = int(result.observed.trace())
        assert 0 < diagonal < exercise.n
        assert diagonal == agreements(exercise)
        assert len(set(exercise.actual)) >= 2 and len(set(exercise.predicted)) >= 2
        assert exercise.alternative != exercise.predicted
        kappa_a, kappa_b = exercise.questions[-1].kappas
        assert abs(kappa_a - kappa_b) >= MIN_KAPPA_GAP
        choices.add(exercise.questions[-1].correct_choice)
        observed = exercise.questions[0]
        items = [k for k, pair in enumerate(zip(exercise.actual, exercise.predicted, strict=True))
                 if pair == observed.cell]
        assert len(items) == observed.answer
    assert choices == set(CHOICES), "both A and B win sometimes"


def test_fallback_exercise_is_valid_for_every_size_and_item_count():
    """The never-fails path still obeys the rules (defined, interesting, comparable)."""
    for bounds in LEVEL_BOUNDS.values():
        for size in range(bounds.sizes[0], bounds.sizes[1] + 1):
            for n in range(bounds.items[0], bounds.items[1] + 1):
                actual, predicted, alternative = _fallback(size, n)
                assert _interesting(actual, predicted, size)
                assert _comparable(actual, predicted, alternative, size)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, MAX_SEED), level=st.sampled_from(LEVELS))
def test_any_seed_gives_a_defined_kappa(seed, level):
    """Property over the whole seed range: kappa defined, answers finite."""
    exercise = make_exercise(seed, level)
    assert exercise_walkthrough(exercise).kappa is not None
    assert all(q.answer == q.answer for q in exercise.questions)  # no NaN


def test_bad_level_or_seed_is_refused():
    with pytest.raises(ValueError):
        make_exercise(1, "extreme")
    with pytest.raises(ValueError):
        make_exercise(MAX_SEED + 1, "easy")
    with pytest.raises(ValueError):
        make_exercise(-1, "easy")


# --- seeds and levels from a URL -----------------------------------------------------------------


def test_parse_seed_and_level():
    """URL text: whole numbers 0..MAX_SEED and the three level names, nothing else."""
    assert parse_seed("12345") == 12345 and parse_seed(" 0 ") == 0
    assert parse_seed(str(MAX_SEED)) == MAX_SEED
    for bad in ("abc", "", "-5", "1.5", "1e3", str(MAX_SEED + 1), "9" * 40, None, True):
        assert parse_seed(bad) is None, bad
    assert parse_level("hard") == "hard"
    for bad in ("Hard", "extreme", "", None):
        assert parse_level(bad) is None


def test_random_seed_is_in_range_and_avoids_the_current_one():
    seeds = {random_seed(avoid=3) for _ in range(200)}
    assert 3 not in seeds and all(0 <= seed <= MAX_SEED for seed in seeds)


# --- answers -------------------------------------------------------------------------------------

EXERCISE = make_exercise(12345, "medium")
KAPPA = EXERCISE.questions[4]  # 0.662


@pytest.mark.parametrize(("text", "value"), [
    ("0.662", 0.662), ("0,662", 0.662), ("331/500", 0.662), (" 0,66 ", 0.66), ("+0.66", 0.66),
    ("０，６６２", 0.662), ("66.2%", 0.662),
])
def test_answers_read_comma_point_and_fractions(text, value):
    """Answers go through the checker's reader: comma or point, fractions, full-width digits."""
    attempt = check_answer(EXERCISE, KAPPA, text, ".")
    assert attempt.checked.given == pytest.approx(value) and attempt.correct


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty"), ("   ", "empty"), ("abc", "not_a_number"), ("0.2.5", "not_a_number"),
    ("1/0", "division_by_zero"), ("3/0,0", "division_by_zero"), ("inf", "not_a_number"),
])
def test_unreadable_answers_say_why(text, code):
    attempt = check_answer(EXERCISE, KAPPA, text)
    assert (attempt.status, attempt.problem, attempt.readable) == ("unreadable", code, False)
    assert not attempt.graded


def test_undefined_is_an_answer_and_wrong_where_kappa_has_a_value():
    """"NaN" for a kappa that has a value is a wrong answer, with the reason, not unreadable."""
    attempt = check_answer(EXERCISE, KAPPA, "nan")
    assert (attempt.status, attempt.checked.note) == ("wrong", "kappa_defined")


def test_an_answer_too_coarse_to_judge_is_not_scored():
    """Teaching audit, defect 5: num written to 2 decimals was scored wrong in 39-93 % of the
    exercises. A right value with too few digits is sent back with how many to write."""
    numerator = EXERCISE.questions[2]
    attempt = check_answer(EXERCISE, numerator, f"{numerator.answer:.1g}")
    assert (attempt.status, attempt.graded, attempt.readable) == ("too_coarse", False, True)
    assert attempt.checked.needed is not None


def test_closeness_is_relative_to_the_size_of_the_quantity():
    """Teaching audit, defect 2: a numerator of 0.0437 is not "0.04" nor "0"; two significant
    figures are enough; kappa rounded to two decimals is always enough."""
    for seed in range(40):
        exercise = make_exercise(seed, "hard")
        numerator = exercise.questions[2]
        assert not check_answer(exercise, numerator, "0").correct
        assert check_answer(exercise, numerator, f"{numerator.answer:#.2g}").correct
        assert not check_answer(exercise, numerator, f"{numerator.answer * 1.2:#.3g}").correct
        kappa = exercise.questions[4]
        assert check_answer(exercise, kappa, f"{kappa.answer:.2f}").correct
        assert not check_answer(exercise, kappa, f"{kappa.answer + 0.02:.2f}").correct


@pytest.mark.parametrize("level", LEVELS)
def test_kappa_from_the_learners_own_rounded_sums_is_never_wrong(level):
    """Teaching audit, defect 2: num and den rounded to 2 or 3 significant figures, then
    1 - num/den: marked wrong in 56-76% of exercises before. Sums rounded to 2 decimals count
    only where that leaves enough digits to judge them (defect 1: too coarse sums vouch for no
    kappa)."""
    for seed in range(150):
        exercise = make_exercise(seed, level)
        numerator, denominator, kappa = exercise.questions[2:5]
        for rounded in (lambda v: f"{v:#.3g}", lambda v: f"{v:#.2g}", lambda v: f"{v:.2f}"):
            sums = {"numerator": rounded(numerator.answer),
                    "denominator": rounded(denominator.answer)}
            judged = [check_answer(exercise, question, sums[question.kind])
                      for question in (numerator, denominator)]
            own = 1 - float(sums["numerator"]) / float(sums["denominator"])
            for typed in (f"{own:.2f}", f"{own:#.4g}"):
                attempt = check_answer(exercise, kappa, typed, ",", sums)
                if not all(attempt.correct for attempt in judged):
                    assert attempt.checked.note != "from_your_sums", (level, seed, sums)
                elif attempt.status == "too_coarse":
                    # Two decimals cannot tell this kappa from a mistake next to it (0.99 for
                    # 0.9889 and 0.9994): with the decimals asked for, it is right.
                    more = f"{own:.{attempt.checked.needed.count}f}"
                    assert check_answer(exercise, kappa, more, ",", sums).correct, (seed, more)
                else:
                    assert attempt.correct, (level, seed, sums, typed)


@pytest.mark.parametrize("level", LEVELS)
def test_every_answer_rounded_as_a_learner_would_is_accepted_in_every_language(level):
    """User flow: the engine's value to three significant figures, typed in es and en style; a
    value 5% off is not accepted (wrong, or too coarse to judge: "1" for 0.905)."""
    for seed in range(60):
        exercise = make_exercise(seed, level)
        for question in exercise.questions:
            if question.kind == "compare":
                continue
            # Three figures, trailing zeros kept ("0.800"), with a point and with a comma.
            written = f"{question.answer:#.3g}".rstrip(".")
            for text, group in ((written, ","), (written.replace(".", ","), ".")):
                assert check_answer(exercise, question, text, group).correct, (seed, text)
            if question.answer:
                wrong = format_number(question.answer * 1.05 + 0.05, "en", group=False)
                assert check_answer(exercise, question, wrong).status in ("wrong", "too_coarse")


def test_a_wrong_answer_gets_the_checkers_diagnosis():
    """E typed without the division by n: the practice answer names the mistake."""
    expected = EXERCISE.questions[1]
    result = exercise_walkthrough(EXERCISE)
    i, j = expected.cell
    outer = int(result.actual_hist[i] * result.predicted_hist[j])
    attempt = check_answer(EXERCISE, expected, str(outer))
    assert attempt.status == "wrong"
    assert attempt.checked.diagnoses == ("expected_not_divided_by_n",)


def test_compare_answers_are_letters():
    exercise = make_exercise(1, "easy")
    question = Question("compare", None, 1.0, kappas=(0.2, 0.6))
    assert question.correct_choice == "b"
    assert check_answer(exercise, question, "b").correct
    assert check_answer(exercise, question, " B ").correct
    assert check_answer(exercise, question, "a").status == "wrong"
    assert check_answer(exercise, question, None).problem == "empty"
    assert check_answer(exercise, question, "c").problem == "not_a_choice"


# --- the lesson of the comparison -----------------------------------------------------------------


def test_the_audits_example_is_decided_by_the_chance_term():
    """Teaching audit, defect 3, easy seed 2: A = (0,0,1,0,2,0,2) kappa 0.417, B = (2,0,1,1,1,1,1)
    kappa 0; both num 0.1429, den 0.245 against 0.143: the chance term decided."""
    exercise = make_exercise(2, "easy")
    assert exercise.actual == (0, 0, 1, 1, 1, 1, 1)
    lesson = compare_lesson(exercise)
    assert (lesson.lesson, lesson.higher) == ("chance", "a")
    assert lesson.numerators == pytest.approx((1 / 7, 1 / 7))
    assert lesson.denominators[0] == pytest.approx(0.245, abs=5e-4)
    assert lesson.denominators[1] == pytest.approx(0.143, abs=5e-4)


@pytest.mark.parametrize("level", LEVELS)
def test_the_lesson_names_the_real_reason(level):
    """Invariant: kappa = 1 - num/den, so with num not smaller the higher kappa has the larger
    den (chance); "nearness" only when num is smaller and exact matches are not more."""
    for seed in range(200):
        exercise = make_exercise(seed, level)
        lesson = compare_lesson(exercise)
        higher = exercise.questions[-1].correct_choice
        which = {"a": "predicted", "b": "alternative"}
        lower = "b" if higher == "a" else "a"
        first = exercise_walkthrough(exercise, which[higher])
        second = exercise_walkthrough(exercise, which[lower])
        if first.numerator >= second.numerator - 1e-12:
            assert lesson.lesson == "chance" and first.denominator > second.denominator
        elif agreements(exercise, which[higher]) <= agreements(exercise, which[lower]):
            assert lesson.lesson == "nearness"
        else:
            assert lesson is None
