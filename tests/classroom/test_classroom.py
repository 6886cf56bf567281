"""What a class does, on real SQLite and real PostgreSQL: who may see and do what, activities,
grading through the checker, the teacher's summary, the flood cap, expiry and deletion.

Grades are checked against the checker itself (``check_answers`` on the same values) and the
engine's kappa; access rules against the class's own keys."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from qwk_class import classroom as cl
from qwk_class.classroom import ClassData, ClassError, Classroom
from qwk_class.store import Store, classes, students, submissions
from qwk_explained.core.errors import QwkError
from qwk_explained.core.steps import walkthrough
from tests.classroom import all_at_once

ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"
DATA = ClassData(ACTUAL, PREDICTED)


def _class(room: Classroom, activity: cl.Activity | None = None):
    started = room.start(DATA, "teacher-host")
    if activity is not None:
        room.open(started.code, started.key, activity)
    return started


def _count(store: Store, table: sa.Table) -> int:
    with store.read() as db:
        return int(db.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def test_only_the_teachers_key_opens_the_teachers_view(room: Classroom) -> None:
    started = _class(room)
    student, token = room.join(started.code, "Ana", "phone")
    assert room.teacher(started.code, started.key).code == started.code
    for code, key in ((started.code, token), (started.code, started.key[:-1] + "A"),
                      (started.code, ""), (started.code, None), ("x" * 10, started.key),
                      (started.code, started.code)):
        with pytest.raises(ClassError) as error:
            room.teacher(code, key)
        assert error.value.code == "not_teacher"
    with pytest.raises(ClassError):
        room.summary(started.code, token)


def test_a_student_belongs_to_one_class_only(room: Classroom) -> None:
    first, second = _class(room, "guess"), _class(room, "guess")
    student, token = room.join(first.code, "Ana", "phone")
    assert room.student(first.code, token) == student
    with pytest.raises(ClassError) as error:
        room.student(second.code, token)
    assert error.value.code == "not_student"
    with pytest.raises(ClassError):
        room.student(first.code, first.key)  # the teacher's key is no student's token
    room.submit_guess(student, "0.5", "en")
    assert room.summary(second.code, second.key).guesses == []
    assert room.summary(first.code, first.key).guesses == [0.5]


def test_a_student_reads_back_their_own_answers_only(room: Classroom) -> None:
    started = _class(room, "guess")
    ana, _ = room.join(started.code, "Ana", "a")
    ben, _ = room.join(started.code, "Ben", "b")
    room.submit_guess(ana, "0,3", "es")
    room.submit_guess(ben, "-0.2", "en")
    assert room.mine(ana, 1)["guess"]["graded"] == {"value": 0.3}
    assert room.mine(ben, 1)["guess"]["payload"] == {"text": "-0.2"}


def test_failed_joins_are_rate_limited_per_source(room: Classroom, clock) -> None:
    started = _class(room)
    for attempt in range(cl.JOIN_FAILURES):
        with pytest.raises(ClassError) as error:
            room.join(f"AAAAA-AAAA{'BCDEFGHJKMNPQRSTUVWXYZ'[attempt]}", "Eve", "attacker")
        assert error.value.code == "no_class"
    with pytest.raises(ClassError) as error:  # now even the right code is refused
        room.join(started.code, "Eve", "attacker")
    assert error.value.code == "too_many_attempts"
    assert room.join(started.code, "Ana", "someone-else")[0].nickname == "Ana"
    clock.now += cl.ATTEMPT_WINDOW + 1
    assert room.join(started.code, "Eve", "attacker")[0].nickname == "Eve"


def test_starting_classes_is_rate_limited_per_source(room: Classroom, clock) -> None:
    for _ in range(cl.CLASS_STARTS):
        room.start(DATA, "one-host")
    with pytest.raises(ClassError) as error:
        room.start(DATA, "one-host")
    assert error.value.code == "too_many_classes"
    clock.now += cl.ATTEMPT_WINDOW + 1
    room.start(DATA, "one-host")


def test_nicknames_are_cleaned_and_unique_in_a_class(room: Classroom) -> None:
    started = _class(room)
    student, _ = room.join(started.code, "  Ana\u202e\u0000  María ", "a")
    assert student.nickname == "Ana María"
    with pytest.raises(ClassError) as error:
        room.join(started.code, "Ana María", "b")
    assert error.value.code == "nickname_taken"
    with pytest.raises(ClassError) as error:
        room.join(started.code, "\u200b \n", "b")
    assert error.value.code == "empty_nickname"


def test_answers_go_only_to_the_open_activity(room: Classroom) -> None:
    started = _class(room)
    student, _ = room.join(started.code, "Ana", "a")
    with pytest.raises(ClassError) as error:
        room.submit_guess(student, "0.5", "en")
    assert error.value.code == "activity_closed"
    room.open(started.code, started.key, "check")
    with pytest.raises(ClassError):
        room.submit_guess(student, "0.5", "en")
    room.open(started.code, started.key, None)
    with pytest.raises(ClassError):
        room.submit_check(student, {"kappa": "0.5"}, "en")


@pytest.mark.parametrize(("text", "code"), [("1.5", "guess_out_of_range"),
                                            ("-1,01", "guess_out_of_range"),
                                            ("abc", "guess_unreadable"), ("", "guess_unreadable"),
                                            ("x" * 5000, "too_long")])
def test_a_bad_guess_gets_a_reason_and_is_not_stored(room: Classroom, text: str,
                                                     code: str) -> None:
    started = _class(room, "guess")
    student, _ = room.join(started.code, "Ana", "a")
    with pytest.raises(ClassError) as error:
        room.submit_guess(student, text, "en")
    assert error.value.code == code
    assert room.summary(started.code, started.key).guesses == []


def test_a_guess_sent_twice_counts_once(room: Classroom, store: Store) -> None:
    started = _class(room, "guess")
    student, _ = room.join(started.code, "Ana", "a")
    assert not room.submit_guess(student, "0,5", "es").replaced
    assert room.submit_guess(student, "0,5", "es").replaced
    assert room.submit_guess(student, "0.6", "en").replaced
    summary = room.summary(started.code, started.key)
    assert summary.guesses == [0.6]
    assert summary.kappa == pytest.approx(walkthrough(ACTUAL, PREDICTED).kappa)
    assert _count(store, submissions) == 1


def test_the_teacher_sees_each_steps_outcomes_and_the_mistakes_by_name(
        room: Classroom) -> None:
    """Three students: one right throughout, one who did not divide E by n, one who forgot the
    "1 -"; the counts are what the checker says of each value."""
    started = _class(room, "check")
    result = walkthrough(ACTUAL, PREDICTED)
    right_e = [[str(v) for v in row] for row in result.expected.tolist()]
    undivided = [[str(v * result.n) for v in row] for row in result.expected.tolist()]
    ratio = result.numerator / result.denominator
    sent = {
        "Ana": {"expected": right_e, "numerator": "0.45", "kappa": "-0.1392"},
        "Ben": {"expected": undivided, "numerator": "0.45", "kappa": "-0.1392"},
        "Cem": {"expected": right_e, "numerator": "0.45", "kappa": f"{ratio:.4f}"},
    }
    for name, answers in sent.items():
        student, _ = room.join(started.code, name, name)
        room.submit_check(student, answers, "en")
    summary = room.summary(started.code, started.key)
    assert summary.checks == 3
    assert (summary.steps[4].right, summary.steps[4].wrong) == (2, 1)
    assert (summary.steps[6].right, summary.steps[6].wrong) == (3, 0)
    assert (summary.steps[7].right, summary.steps[7].wrong) == (2, 1)
    named = dict(summary.mistakes)
    assert named["expected_not_divided_by_n"] == 1
    assert named["forgot_one_minus"] == 1
    assert summary.first_wrong == {0: 1, 4: 1, 7: 1}


def test_a_value_too_coarse_to_judge_is_counted_apart(room: Classroom) -> None:
    started = _class(room, "check")
    student, _ = room.join(started.code, "Ana", "a")
    room.submit_check(student, {"kappa": "-0.1"}, "en")
    step = room.summary(started.code, started.key).steps[7]
    assert (step.right, step.too_coarse, step.wrong) == (0, 1, 0)


@pytest.mark.parametrize("answers", [{"kappa": "abc"}, {"expected": [["1"]]},
                                     {"nonsense": 1}, {}, {"kappa": ["0.5"]}])
def test_a_bad_check_gets_a_reason_and_stores_nothing(room: Classroom, store: Store,
                                                      answers) -> None:
    started = _class(room, "check")
    student, _ = room.join(started.code, "Ana", "a")
    with pytest.raises(Exception) as error:  # the class's, the checker's or the engine's
        room.submit_check(student, answers, "en")
    assert hasattr(error.value, "key")  # a translatable problem, never a crash
    assert _count(store, submissions) == 0


def test_practice_scores_each_question_for_the_class(room: Classroom) -> None:
    started = _class(room, "practice")
    exercise = DATA.exercise()
    first = exercise.questions[0]
    ana, _ = room.join(started.code, "Ana", "a")
    ben, _ = room.join(started.code, "Ben", "b")
    room.submit_practice(ana, 0, str(int(first.answer)), "en")
    room.submit_practice(ben, 0, str(int(first.answer) + 1), "en")
    room.submit_practice(ben, 0, str(int(first.answer)), "en")  # a second try replaces the first
    with pytest.raises(ClassError) as error:
        room.submit_practice(ana, 99, "1", "en")
    assert error.value.code == "bad_question"
    for typed in ("c", ""):  # a comparison takes A or B (a choice on the page)
        with pytest.raises(QwkError) as error:
            room.submit_practice(ana, 5, typed, "en")
        assert error.value.key == "practice.problem_no_choice"
    assert room.summary(started.code, started.key).practice == {0: (2, 2)}


def test_a_practice_answer_too_coarse_says_the_digits_and_is_not_scored(room: Classroom) -> None:
    started = _class(room, "practice")
    kappa = next(i for i, q in enumerate(DATA.exercise().questions) if q.kind == "kappa")
    ana, _ = room.join(started.code, "Ana", "a")
    with pytest.raises(cl.TooCoarse) as error:
        room.submit_practice(ana, kappa, "0.6", "en")  # kappa is 0.5714...
    assert error.value.key == "checker.too_coarse.decimals" and error.value.params == {"count": 2}
    assert room.summary(started.code, started.key).practice == {}
    room.submit_practice(ana, kappa, "0.57", "en")
    assert room.summary(started.code, started.key).practice == {kappa: (1, 1)}


def test_a_flood_from_one_student_is_capped(room: Classroom, clock) -> None:
    started = _class(room, "guess")
    student, _ = room.join(started.code, "Ana", "a")
    other, _ = room.join(started.code, "Ben", "b")
    for _ in range(cl.SUBMISSIONS_PER_WINDOW):
        room.submit_guess(student, "0.5", "en")
    with pytest.raises(ClassError) as error:
        room.submit_guess(student, "0.5", "en")
    assert error.value.code == "too_many_answers"
    room.submit_guess(other, "0.1", "en")  # the class goes on
    clock.now += cl.SUBMISSION_WINDOW
    room.submit_guess(student, "0.4", "en")
    assert sorted(room.summary(started.code, started.key).guesses) == [0.1, 0.4]


def test_classes_expire_and_are_swept(room: Classroom, store: Store, clock) -> None:
    started = _class(room, "guess")
    student, token = room.join(started.code, "Ana", "a")
    room.submit_guess(student, "0.5", "en")
    clock.now += room.lifetime
    for attempt in (lambda: room.teacher(started.code, started.key),
                    lambda: room.student(started.code, token),
                    lambda: room.submit_guess(student, "0.5", "en")):
        with pytest.raises(ClassError) as error:
            attempt()
        assert error.value.code == "expired"
    with pytest.raises(ClassError) as error:
        room.join(started.code, "Ben", "b")
    assert error.value.code == "no_class"
    assert room.sweep() == 1
    assert [_count(store, t) for t in (classes, students, submissions)] == [0, 0, 0]


def test_the_lifetime_comes_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv(cl.LIFETIME_ENV, "2.5")
    assert cl.lifetime_hours() == 2.5
    for bad in ("0", "-1", "nan", "inf", "soon", "1e9"):
        monkeypatch.setenv(cl.LIFETIME_ENV, bad)
        assert cl.lifetime_hours() == cl.DEFAULT_LIFETIME_HOURS


def test_a_teacher_deletes_a_class_at_once(room: Classroom, store: Store) -> None:
    started, other = _class(room, "guess"), _class(room, "guess")
    student, token = room.join(started.code, "Ana", "a")
    room.submit_guess(student, "0.5", "en")
    kept, _ = room.join(other.code, "Ben", "b")
    room.submit_guess(kept, "0.5", "en")
    with pytest.raises(ClassError):
        room.delete(started.code, token)  # not a student's to delete
    room.delete(started.code, started.key)
    with pytest.raises(ClassError):
        room.student(started.code, token)
    assert [_count(store, t) for t in (classes, students, submissions)] == [1, 1, 1]


def test_new_data_starts_a_new_round(room: Classroom) -> None:
    started = _class(room, "guess")
    student, _ = room.join(started.code, "Ana", "a")
    room.submit_guess(student, "0.5", "en")
    state = room.replace_data(started.code, started.key, ClassData("1,2,3,3", "1,2,3,2"))
    assert (state.round, state.activity) == (2, None)
    room.open(started.code, started.key, "guess")
    summary = room.summary(started.code, started.key)
    assert summary.guesses == []
    assert summary.kappa == pytest.approx(walkthrough("1,2,3,3", "1,2,3,2").kappa)


def test_data_too_large_for_a_class_is_refused(room: Classroom) -> None:
    big = ",".join(["1", "2"] * cl.MAX_CLASS_ITEMS)
    with pytest.raises(ClassError) as error:
        room.start(ClassData(big, big), "t")
    assert error.value.code == "too_large"


def test_a_practice_set_is_the_class_data(room: Classroom) -> None:
    data = ClassData.from_practice(4242, "medium")
    exercise = data.exercise()
    assert data.result().kappa == pytest.approx(
        walkthrough(exercise.actual, exercise.predicted, min_rating=0,
                    max_rating=exercise.size - 1).kappa)
    started = room.start(data, "t")
    assert room.teacher(started.code, started.key).data == data


def test_many_students_at_once_are_each_counted_once(room: Classroom, store: Store) -> None:
    """Twenty students submit at the same moment, each twice (a double click): twenty rows."""
    started = _class(room, "guess")
    joined = [room.join(started.code, f"S{k}", f"s{k}")[0] for k in range(20)]

    def send(student) -> None:
        for _ in range(2):
            room.submit_guess(student, "0.25", "en")

    assert not all_at_once(send, joined)
    assert room.summary(started.code, started.key).guesses == [0.25] * 20
    assert _count(store, submissions) == 20


def test_guesses_fall_in_tenths() -> None:
    bins = dict(cl.guess_bins([-1.0, -0.95, 0.0, 0.05, 0.1, 0.999, 1.0]))
    assert len(bins) == 20
    assert (bins[-1.0], bins[0.0], bins[0.1], bins[0.9]) == (2, 2, 1, 2)


def test_the_export_is_what_check_batch_csv_writes(room: Classroom) -> None:
    """The teacher's CSV against the command line itself, run on the same answers as a file."""
    import csv
    import io
    import subprocess
    import sys

    from qwk_class.export import batch_lines, check_csv
    from tests import ROOT

    started = _class(room, "check")
    for name, kappa in (("Ana", "-0.14"), ("=cmd|' /C calc'!A0", "0.79")):
        student, _ = room.join(started.code, name, name)
        room.submit_check(student, {"kappa": kappa, "numerator": "0.45"}, "en")
    data, sent = room.check_submissions(started.code, started.key)
    exported = check_csv(data, sent, "es")
    by_hand = subprocess.run([sys.executable, "-m", "qwk_explained", "check", "--batch", "-",
                              "--csv", "--lang", "es"], input=batch_lines(data, sent),
                             capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert exported == by_hand
    # A spreadsheet in Spanish reads a byte-order mark and semicolons (decimal commas).
    rows = list(csv.DictReader(io.StringIO(exported.lstrip("\ufeff")), delimiter=";"))
    assert [row["id"] for row in rows if row["quantity"] == "kappa"][0] == "Ana"
    assert {row["quantity"] for row in rows} == {"numerator", "kappa"}
    assert len(rows) == 4


def test_a_waiting_page_reads_the_class_version(room: Classroom, clock) -> None:
    started = _class(room)
    before = room.version(started.code)
    room.open(started.code, started.key, "guess")
    assert room.version(started.code) == before + 1
    clock.now += room.lifetime
    assert room.version(started.code) is None
