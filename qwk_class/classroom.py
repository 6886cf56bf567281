"""A class session: the teacher starts it, students join, activities open and close, answers are
graded by the checker and summed up for the teacher.

Who may do what is decided here, from what each caller holds, never from what a page shows:

- the **teacher** holds the class code and the teacher's key (only in the teacher's own link):
  every teacher action and every view of the class's answers asks for both (:meth:`teacher`);
- a **student** holds the class code and their own token (given when they join, kept in their
  own link so a reconnection to another server finds them again): a student can submit and read
  back their own answers, nothing else;
- anyone else can only try to join, and failed tries are counted per source and refused beyond
  :data:`JOIN_FAILURES` in :data:`ATTEMPT_WINDOW` seconds.

Activities (:data:`ACTIVITIES`): *guess* (a guess of kappa before the steps), *check* (values of
the hand calculation, judged by :func:`qwk_explained.teaching.checking.check_answers`) and
*practice* (the questions of one seeded exercise, :mod:`qwk_explained.teaching.exercises`). A
submission is one row per (student, round, question): sending it again, after a reconnection or a
double click, replaces it (an upsert), never counts it twice. A student may send at most
:data:`SUBMISSIONS_PER_WINDOW` answers per :data:`SUBMISSION_WINDOW` seconds.

Classes expire after a lifetime (:data:`DEFAULT_LIFETIME_HOURS`, or ``QWK_CLASS_HOURS``): an
expired class can no longer be opened and its rows are deleted by :meth:`Classroom.sweep`, which
starting a class runs; a teacher can delete a class at once (:meth:`Classroom.delete`).
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal, get_args

import sqlalchemy as sa

from qwk_explained.core.errors import QwkError
from qwk_explained.core.limits import MAX_RATINGS
from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import SCALES, WEIGHTINGS, Scale, Weighting
from qwk_explained.present.catalogue import STEP_OF
from qwk_explained.present.feedback import where
from qwk_explained.present.languages import language
from qwk_explained.teaching.checking import (
    ACCEPTED,
    CheckedAnswer,
    answers_from_mapping,
    check_answers,
    first_wrong,
)
from qwk_explained.teaching.exercises import (
    DEFAULT_LEVEL,
    LEVELS,
    Exercise,
    Kind,
    Level,
    check_answer,
    exercise_walkthrough,
    make_exercise,
)
from qwk_explained.teaching.mistakes import CODES, MistakeModel, mistake_model
from qwk_explained.teaching.typed_numbers import AnswerError, read_number

from . import codes
from .store import Store, attempts, classes, dumps, loads, students, submissions

Activity = Literal["guess", "check", "practice"]
ACTIVITIES: tuple[Activity, ...] = get_args(Activity)
#: Where the data of guess and check comes from: the teacher's data when the class started, or
#: the practice set's exercise.
Origin = Literal["current", "practice"]
ORIGINS: tuple[Origin, ...] = get_args(Origin)
#: How one value of a check submission counts for the teacher.
Outcome = Literal["right", "too_coarse", "wrong"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

LIFETIME_ENV = "QWK_CLASS_HOURS"
DEFAULT_LIFETIME_HOURS = 24.0
#: A class's data is worked by hand: a few dozen items, never an uploaded file's thousands.
MAX_CLASS_ITEMS = 500
MAX_STUDENTS = 400
#: Failed joins (a wrong code) a source may make in :data:`ATTEMPT_WINDOW` seconds, and classes
#: it may start in that time.
JOIN_FAILURES = 20
CLASS_STARTS = 20
ATTEMPT_WINDOW = 600.0
#: A student's answers per window: far more than anyone types, far fewer than a script sends.
SUBMISSIONS_PER_WINDOW = 60
SUBMISSION_WINDOW = 60.0
#: Longest text a student may send in one field, and in one submission altogether.
MAX_FIELD_CHARS = 2_000
MAX_SUBMISSION_CHARS = 20_000
#: Guesses are binned by this width on the teacher's chart.
GUESS_BIN = 0.1


class ClassError(QwkError, ValueError):
    """Something a teacher or a student cannot do now (locale keys under ``classroom.errors.``)."""

    namespace = "classroom.errors"


class PracticeProblem(QwkError, ValueError):
    """A practice answer that cannot be read: the practice page's own sentences
    (``practice.problem_<code>``)."""

    namespace = "practice"


class TooCoarse(QwkError, ValueError):
    """A practice answer with too few digits to judge: the checker's sentence on how many to
    write (``checker.too_coarse.<figures|decimals>``). As on the practice page, it is neither
    right nor wrong and is not stored: the student writes more digits and sends again."""

    namespace = "checker.too_coarse"


# --- the data of a class --------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassData:
    """What the class works on: the ratings of guess and check with their settings, and the
    practice set (seed and level), fixed when the class starts or its data is replaced."""

    actual: str
    predicted: str
    weights: Weighting = "quadratic"
    scale: Scale = "range"
    min_rating: int | None = None
    max_rating: int | None = None
    practice_seed: int = 0
    practice_level: Level = DEFAULT_LEVEL
    origin: Origin = "current"

    @classmethod
    def from_practice(cls, seed: int, level: Level) -> ClassData:
        """The practice set's exercise as the class's data (prediction A, its full scale)."""
        exercise = make_exercise(seed, level)
        return cls(",".join(map(str, exercise.actual)), ",".join(map(str, exercise.predicted)),
                   "quadratic", "range", 0, exercise.size - 1, seed, level, "practice")

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ClassData:
        return cls(**json.loads(text))

    def result(self) -> Walkthrough:
        """The walkthrough guess and check are judged against (computed once per process)."""
        return _prepared(self)[0]

    def model(self) -> MistakeModel:
        return _prepared(self)[1]

    def exercise(self) -> Exercise:
        return make_exercise(self.practice_seed, self.practice_level)


@lru_cache(maxsize=64)
def _prepared(data: ClassData) -> tuple[Walkthrough, MistakeModel]:
    result = walkthrough(data.actual, data.predicted, weights=data.weights, scale=data.scale,
                         min_rating=data.min_rating, max_rating=data.max_rating)
    return result, mistake_model(result)


@lru_cache(maxsize=64)
def _exercise(seed: int, level: Level) -> tuple[Exercise, MistakeModel]:
    exercise = make_exercise(seed, level)
    return exercise, mistake_model(exercise_walkthrough(exercise))


def checked_data(data: ClassData) -> ClassData:
    """``data`` when a class can work on it; raises :class:`ClassError` or the engine's
    InputError (bad ratings) otherwise."""
    if data.weights not in WEIGHTINGS or data.scale not in SCALES or \
            data.origin not in ORIGINS or data.practice_level not in LEVELS:
        raise ClassError("bad_data")
    result = data.result()
    if result.n > MAX_CLASS_ITEMS or result.size > MAX_RATINGS:
        raise ClassError("too_large", limit=MAX_CLASS_ITEMS)
    return data


# --- what the callers get back ------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    """A new class: its code, and the teacher's key (shown once, in the teacher's link)."""

    code: str
    key: str


@dataclass(frozen=True)
class ClassState:
    """The class as anyone in it sees it: what is open, and whether the guess is revealed."""

    code: str
    data: ClassData
    round: int
    activity: Activity | None
    revealed: bool
    version: int
    expires_at: float
    students: int = 0


@dataclass(frozen=True)
class Student:
    """A student in a class: who they are to the class, and their own token's digest."""

    id: int
    code: str
    nickname: str


@dataclass(frozen=True)
class Receipt:
    """A stored answer: what the student sees back (their verdict), and whether it replaced one
    sent before."""

    question: str
    graded: Mapping[str, Any]
    replaced: bool
    #: The checker's values, for the student's feedback (check and practice answers).
    checked: tuple[CheckedAnswer, ...] = ()


@dataclass
class StepCount:
    """How many students' values of one step are right, too coarse or wrong (a student counts
    once per step: wrong if any value is wrong, else too coarse if any is, else right)."""

    right: int = 0
    too_coarse: int = 0
    wrong: int = 0


@dataclass
class Summary:
    """What the teacher's view shows of the current round (language-free: codes and counts)."""

    state: ClassState
    nicknames: list[str]
    guesses: list[float] = field(default_factory=list)
    kappa: float | None = None
    checks: int = 0
    steps: dict[int, StepCount] = field(default_factory=dict)
    #: Mistake code -> number of students whose values it explains.
    mistakes: list[tuple[str, int]] = field(default_factory=list)
    #: Step number of each student's first wrong value -> how many students; 0: none wrong.
    first_wrong: dict[int, int] = field(default_factory=dict)
    #: Practice question index -> (answered, right).
    practice: dict[int, tuple[int, int]] = field(default_factory=dict)


def lifetime_hours() -> float:
    """The lifetime of a class (``QWK_CLASS_HOURS``, a positive number; else 24 hours)."""
    try:
        hours = float(os.environ.get(LIFETIME_ENV, DEFAULT_LIFETIME_HOURS))
    except ValueError:
        return DEFAULT_LIFETIME_HOURS
    return hours if math.isfinite(hours) and 0 < hours <= 24 * 365 else DEFAULT_LIFETIME_HOURS


def outcome(answer: CheckedAnswer) -> Outcome | None:
    """How one checked value counts for the teacher (``None``: not a number, not counted)."""
    if answer.verdict == "unreadable":
        return None
    if answer.verdict in ACCEPTED:
        return "right"
    if answer.verdict == "too_coarse":
        return "too_coarse"
    return "wrong"


# --- the class ----------------------------------------------------------------------------------


class Classroom:
    """Every class of one database, through one :class:`.store.Store`."""

    def __init__(self, store: Store, *, lifetime: float | None = None) -> None:
        self.store = store
        self.lifetime = (lifetime_hours() if lifetime is None else lifetime) * 3600.0

    def now(self) -> float:
        return self.store.clock()

    # --- teacher ------------------------------------------------------------------------------

    def start(self, data: ClassData, source: str) -> Started:
        """Start a class on ``data``; refused beyond :data:`CLASS_STARTS` per source and window."""
        data = checked_data(data)
        self.sweep()
        now = self.now()
        with self.store.write() as db:
            self._limit(db, "start", source, CLASS_STARTS, now, "too_many_classes")
            db.execute(attempts.insert().values(kind="start", source=source[:64], at=now))
            key = codes.new_key()
            for _ in range(5):  # a collision of two 49-bit codes: try another
                code = codes.new_code()
                if db.execute(sa.select(classes.c.code).where(classes.c.code == code)).first():
                    continue
                db.execute(classes.insert().values(
                    code=code, key_hash=codes.digest(key), created_at=now,
                    expires_at=now + self.lifetime, data=data.to_json(), round=1, activity=None,
                    revealed=False, version=1))
                return Started(code, key)
        raise ClassError("busy")

    def teacher(self, code: object, key: object) -> ClassState:
        """The class, for the holder of its teacher's key; raises ``ClassError("not_teacher")``
        for anyone else (the same error whether the code or the key is wrong)."""
        found, typed_key = codes.read_code(code), codes.read_key(key)
        if found is None or typed_key is None:
            raise ClassError("not_teacher")
        with self.store.read() as db:
            row = db.execute(sa.select(classes).where(classes.c.code == found)).first()
            if row is None or not codes.same_digest(typed_key, row.key_hash):
                raise ClassError("not_teacher")
            if row.expires_at <= self.now():
                raise ClassError("expired")
            return self._state(db, row)

    def open(self, code: str, key: str, activity: Activity | None) -> ClassState:
        """Open ``activity`` (closing the one that was open), or close it with ``None``."""
        if activity is not None and activity not in ACTIVITIES:
            raise ClassError("bad_activity")
        return self._change(code, key, activity=activity, revealed=False)

    def reveal(self, code: str, key: str) -> ClassState:
        """Show the class the true kappa of the guess (students see it on their screens)."""
        return self._change(code, key, revealed=True)

    def replace_data(self, code: str, key: str, data: ClassData) -> ClassState:
        """Work on other data from now on: a new round, with every activity closed (answers
        of earlier rounds are kept, but no longer shown)."""
        data = checked_data(data)
        return self._change(code, key, data=data.to_json(), activity=None, revealed=False,
                            round=classes.c.round + 1)

    def _change(self, code: str, key: str, **values: Any) -> ClassState:
        self.teacher(code, key)
        with self.store.write() as db:
            db.execute(classes.update().where(classes.c.code == code).values(
                version=classes.c.version + 1, **values))
            row = db.execute(sa.select(classes).where(classes.c.code == code)).one()
            return self._state(db, row)

    def delete(self, code: str, key: str) -> None:
        """Delete the class and everything its students sent, now."""
        self.teacher(code, key)
        with self.store.write() as db:
            self._delete(db, [code])

    def summary(self, code: str, key: str) -> Summary:
        """The current round of the class, summed up for its teacher."""
        state = self.teacher(code, key)
        with self.store.read() as db:
            names = db.execute(sa.select(students.c.nickname).where(
                students.c.class_code == code).order_by(students.c.joined_at)).scalars().all()
            found = db.execute(sa.select(submissions.c.question, submissions.c.graded).where(
                submissions.c.class_code == code, submissions.c.round == state.round)).all()
        summary = Summary(state, list(names), kappa=state.data.result().kappa)
        mistakes: Counter[str] = Counter()
        for question, graded_text in found:
            graded = loads(graded_text)
            if question == "guess":
                summary.guesses.append(float(graded["value"]))
            elif question == "check":
                summary.checks += 1
                for step, verdict in graded["steps"].items():
                    count = summary.steps.setdefault(int(step), StepCount())
                    setattr(count, verdict, getattr(count, verdict) + 1)
                mistakes.update(graded["mistakes"])
                first = int(graded["first_wrong_step"] or 0)
                summary.first_wrong[first] = summary.first_wrong.get(first, 0) + 1
            elif question.startswith("practice:"):
                index = int(question.split(":", 1)[1])
                answered, right = summary.practice.get(index, (0, 0))
                summary.practice[index] = (answered + 1, right + bool(graded["correct"]))
        summary.mistakes = sorted(mistakes.items(), key=lambda pair: (-pair[1],
                                                                       CODES.index(pair[0])))
        return summary

    def check_submissions(self, code: str, key: str
                          ) -> tuple[ClassData, list[tuple[str, Mapping[str, Any]]]]:
        """The data and every student's check answers of the current round, as sent:
        (nickname, payload), in the order they joined (for the teacher's export)."""
        state = self.teacher(code, key)
        with self.store.read() as db:
            found = db.execute(
                sa.select(students.c.nickname, submissions.c.payload)
                .join(students, students.c.id == submissions.c.student_id)
                .where(submissions.c.class_code == code, submissions.c.round == state.round,
                       submissions.c.question == "check")
                .order_by(students.c.joined_at)).all()
        return state.data, [(nickname, loads(payload)) for nickname, payload in found]

    # --- students -----------------------------------------------------------------------------

    def join(self, code: object, nickname: object, source: str) -> tuple[Student, str]:
        """Join a class under ``nickname``; the student and their token (kept in their link).

        A wrong or expired code counts against ``source`` (the client's address); after
        :data:`JOIN_FAILURES` of them in :data:`ATTEMPT_WINDOW` seconds every try is refused,
        right or wrong, so codes cannot be guessed by trying them.
        """
        name = codes.clean_nickname(nickname)
        found = codes.read_code(code)
        now = self.now()
        with self.store.write() as db:
            self._limit(db, "join_failed", source, JOIN_FAILURES, now, "too_many_attempts")
            row = None if found is None else db.execute(
                sa.select(classes.c.code, classes.c.expires_at).where(
                    classes.c.code == found)).first()
            if row is None or row.expires_at <= now:
                db.execute(attempts.insert().values(kind="join_failed", source=source[:64],
                                                    at=now))
                # Counted, then refused: the failure must be committed with the refusal.
                failure = ClassError("no_class")
            else:
                failure = None
        if failure is not None or found is None:
            raise failure or ClassError("no_class")
        if name is None:
            raise ClassError("empty_nickname")
        token = codes.new_token()
        try:
            with self.store.write() as db:
                joined = db.execute(sa.select(sa.func.count()).select_from(students).where(
                    students.c.class_code == found)).scalar_one()
                if joined >= MAX_STUDENTS:
                    raise ClassError("class_full", limit=MAX_STUDENTS)
                taken = db.execute(sa.select(students.c.id).where(
                    students.c.class_code == found, students.c.nickname == name)).first()
                if taken is not None:
                    raise ClassError("nickname_taken", nickname=name)
                student_id = int(db.execute(students.insert().values(
                    class_code=found, token_hash=codes.digest(token), nickname=name,
                    joined_at=now, window_start=now, window_count=0,
                ).returning(students.c.id)).scalar_one())
        except sa.exc.IntegrityError:  # the same nickname joined at the same moment
            raise ClassError("nickname_taken", nickname=name) from None
        return Student(student_id, found, name), token

    def student(self, code: object, token: object) -> Student:
        """The student holding ``token`` in class ``code``; ``ClassError("not_student")`` else."""
        found, typed = codes.read_code(code), codes.read_key(token)
        if found is None or typed is None:
            raise ClassError("not_student")
        with self.store.read() as db:
            row = db.execute(
                sa.select(students.c.id, students.c.nickname, classes.c.expires_at)
                .join(classes, classes.c.code == students.c.class_code)
                .where(students.c.token_hash == codes.digest(typed),
                       students.c.class_code == found)).first()
        if row is None:
            raise ClassError("not_student")
        if row.expires_at <= self.now():
            raise ClassError("expired")
        return Student(int(row.id), found, row.nickname)

    def state(self, student: Student) -> ClassState:
        """The class as a student sees it (what is open; the data, for the activity)."""
        with self.store.read() as db:
            row = db.execute(sa.select(classes).where(classes.c.code == student.code)).first()
            if row is None:
                raise ClassError("no_class")
            return self._state(db, row, count=False)

    def version(self, code: str) -> int | None:
        """How many changes the teacher has made to the class (``None``: the class is gone); a
        waiting student's page asks this every few seconds, so it is one indexed read."""
        with self.store.read() as db:
            found = db.execute(sa.select(classes.c.version).where(
                classes.c.code == code, classes.c.expires_at > self.now())).scalar()
        return None if found is None else int(found)

    def mine(self, student: Student, round_: int) -> dict[str, Mapping[str, Any]]:
        """The student's own answers of ``round_``, by question: what they typed and what the
        checker found."""
        with self.store.read() as db:
            found = db.execute(sa.select(
                submissions.c.question, submissions.c.payload, submissions.c.graded).where(
                submissions.c.student_id == student.id, submissions.c.round == round_)).all()
        return {question: {"payload": loads(payload), "graded": loads(graded)}
                for question, payload, graded in found}

    def submit_guess(self, student: Student, text: object, lang: str) -> Receipt:
        """A guess of kappa, a number in [-1, 1] as the student's language ``lang`` writes it."""
        state = self._open_for(student, "guess")
        group = language(lang).group
        typed = _field(text)
        try:
            value = read_number(typed, group)[0].value
        except AnswerError as problem:
            raise ClassError("guess_unreadable", problem=problem) from None
        if not -1 <= value <= 1:
            raise ClassError("guess_out_of_range")
        return self._store(student, state, "guess", {"text": typed}, {"value": value})

    def submit_check(self, student: Student, answers: object, lang: str) -> Receipt:
        """Values of the hand calculation (the command line's ``--answers`` JSON), judged by
        the checker. A value that is not a number refuses the whole submission, with the
        value named: the student corrects it and sends again, nothing half-stored."""
        state = self._open_for(student, "check")
        group = language(lang).group
        payload = _bounded(answers)
        data = state.data
        result = data.result()
        checked = check_answers(result, answers_from_mapping(result, payload, group), group,
                                data.model())
        if not checked:
            raise ClassError("nothing_to_check")
        unreadable = next((answer for answer in checked if answer.problem is not None), None)
        if unreadable is not None:
            raise ClassError("value_unreadable", where=where(lang, result, unreadable),
                             problem=unreadable.problem)
        receipt = self._store(student, state, "check", {"answers": payload, "group": group},
                              grade_check(result, checked))
        return replace(receipt, checked=checked)

    def submit_practice(self, student: Student, index: int, text: object,
                        lang: str) -> Receipt:
        """The answer to question ``index`` of the practice set (a number, or A/B to compare)."""
        state = self._open_for(student, "practice")
        group = language(lang).group
        exercise, model = _exercise(state.data.practice_seed, state.data.practice_level)
        if not (isinstance(index, int) and 0 <= index < len(exercise.questions)):
            raise ClassError("bad_question")
        typed = _field(text)
        question = exercise.questions[index]
        sums: dict[Kind, str] = {}
        if question.kind == "kappa":
            earlier = self.mine(student, state.round)
            for other, kind in enumerate(q.kind for q in exercise.questions):
                if kind in ("numerator", "denominator") and f"practice:{other}" in earlier:
                    sums[kind] = str(earlier[f"practice:{other}"]["payload"]["text"])
        attempt = check_answer(exercise, question, typed, group, sums, model)
        if not attempt.readable:  # a comparison's only problem: no prediction chosen
            raise PracticeProblem("problem_no_choice" if question.kind == "compare"
                                  else f"problem_{attempt.problem or 'not_a_number'}")
        needed = attempt.checked.needed if attempt.checked is not None else None
        if attempt.status == "too_coarse" and needed is not None:
            raise TooCoarse(needed.kind, count=needed.count)
        graded = {"correct": attempt.correct, "kind": question.kind,
                  "diagnoses": list(attempt.checked.diagnoses) if attempt.checked else []}
        receipt = self._store(student, state, f"practice:{index}", {"text": typed}, graded)
        return replace(receipt, checked=() if attempt.checked is None else (attempt.checked,))

    # --- shared ---------------------------------------------------------------------------------

    def _open_for(self, student: Student, activity: Activity) -> ClassState:
        state = self.state(student)
        if state.expires_at <= self.now():
            raise ClassError("expired")
        if state.activity != activity:
            raise ClassError("activity_closed")
        return state

    def _store(self, student: Student, state: ClassState, question: str,
               payload: Mapping[str, Any], graded: Mapping[str, Any]) -> Receipt:
        now = self.now()
        with self.store.write() as db:
            # The flood cap and the answer in one transaction: a refused answer is not stored,
            # a stored one is counted.
            fresh = now - students.c.window_start >= SUBMISSION_WINDOW
            allowed = db.execute(students.update().where(
                students.c.id == student.id,
                sa.or_(fresh, students.c.window_count < SUBMISSIONS_PER_WINDOW)).values(
                window_start=sa.case((fresh, now), else_=students.c.window_start),
                window_count=sa.case((fresh, 1), else_=students.c.window_count + 1)))
            if allowed.rowcount != 1:
                raise ClassError("too_many_answers")
            before = db.execute(sa.select(submissions.c.revision).where(
                submissions.c.student_id == student.id, submissions.c.round == state.round,
                submissions.c.question == question)).first()
            self.store.upsert_submission(db, {
                "student_id": student.id, "round": state.round, "question": question,
                "class_code": student.code, "payload": dumps(payload), "graded": dumps(graded),
                "submitted_at": now, "revision": 1})
        return Receipt(question, graded, before is not None)

    def _limit(self, db: sa.Connection, kind: str, source: str, limit: int, now: float,
               error: str) -> None:
        recent = db.execute(sa.select(sa.func.count()).select_from(attempts).where(
            attempts.c.kind == kind, attempts.c.source == source[:64],
            attempts.c.at > now - ATTEMPT_WINDOW)).scalar_one()
        if recent >= limit:
            raise ClassError(error)

    def _state(self, db: sa.Connection, row: Any, *, count: bool = True) -> ClassState:
        joined = db.execute(sa.select(sa.func.count()).select_from(students).where(
            students.c.class_code == row.code)).scalar_one() if count else 0
        return ClassState(row.code, ClassData.from_json(row.data), int(row.round),
                          row.activity, bool(row.revealed), int(row.version),
                          float(row.expires_at), int(joined))

    def _delete(self, db: sa.Connection, found: Sequence[str]) -> None:
        # Children first: the same statements whether or not the database enforces cascades.
        db.execute(submissions.delete().where(submissions.c.class_code.in_(found)))
        db.execute(students.delete().where(students.c.class_code.in_(found)))
        db.execute(classes.delete().where(classes.c.code.in_(found)))

    def sweep(self) -> int:
        """Delete expired classes with their students and answers, and old rate-limit records;
        how many classes went."""
        now = self.now()
        with self.store.write() as db:
            expired = db.execute(sa.select(classes.c.code).where(
                classes.c.expires_at <= now)).scalars().all()
            if expired:
                self._delete(db, list(expired))
            db.execute(attempts.delete().where(attempts.c.at <= now - ATTEMPT_WINDOW))
        return len(expired)


# --- grading ------------------------------------------------------------------------------------


def grade_check(result: Walkthrough, checked: Sequence[CheckedAnswer]) -> dict[str, Any]:
    """What the teacher's view needs of one student's checked values, as JSON: each step's
    outcome, the mistakes named, the step of the first wrong value, the count of right values;
    and each value's verdict, for the student's own feedback."""
    steps: dict[str, Outcome] = {}
    for answer in checked:
        found = outcome(answer)
        if found is None:
            continue
        step = str(STEP_OF[answer.quantity].number)
        before = steps.get(step, "right")
        steps[step] = max(before, found, key=OUTCOMES.index)
    wrong = first_wrong(checked)
    return {
        "steps": steps,
        "mistakes": [code for code in CODES
                     if any(code in answer.diagnoses for answer in checked if answer.wrong)],
        "first_wrong_step": None if wrong is None else STEP_OF[wrong.quantity].number,
        "right": sum(outcome(answer) == "right" for answer in checked),
        "checked": len(checked),
        "values": [{"quantity": answer.quantity, "cell": list(answer.cell or ()),
                    "verdict": outcome(answer), "diagnoses": list(answer.diagnoses)}
                   for answer in checked],
    }


def checked_values(data: ClassData, payload: Mapping[str, Any]) -> tuple[CheckedAnswer, ...]:
    """A stored check submission judged again (for its student's feedback, in any language).

    A student's page redraws that feedback on every rerun of its activity (every few seconds),
    so the judgement is kept per data and submission text (bounded, shared by the sessions)."""
    return _checked(data, dumps(payload))


@lru_cache(maxsize=1024)
def _checked(data: ClassData, payload_text: str) -> tuple[CheckedAnswer, ...]:
    payload = loads(payload_text)
    result = data.result()
    group = str(payload.get("group", ","))
    return check_answers(result, answers_from_mapping(result, payload["answers"], group), group,
                         data.model())


def _field(text: object) -> str:
    if not isinstance(text, str):
        raise ClassError("not_text")
    if len(text) > MAX_FIELD_CHARS:
        raise ClassError("too_long", limit=MAX_FIELD_CHARS)
    return text


def _bounded(answers: object) -> dict[str, Any]:
    """The answers as JSON data, refused when they are not or when they are too long."""
    if not isinstance(answers, Mapping):
        raise ClassError("not_text")
    try:
        text = dumps(answers)
    except (TypeError, ValueError):
        raise ClassError("not_text") from None
    if len(text) > MAX_SUBMISSION_CHARS:
        raise ClassError("too_long", limit=MAX_SUBMISSION_CHARS)
    return dict(json.loads(text))


def guess_bins(guesses: Sequence[float]) -> list[tuple[float, int]]:
    """Guesses counted in bins of :data:`GUESS_BIN` from -1 to 1, each named by its lower end
    (1 falls in the last bin)."""
    bins = int(round(2 / GUESS_BIN))
    counts = [0] * bins
    for value in guesses:
        counts[min(bins - 1, int(math.floor((value + 1) / GUESS_BIN + 1e-9)))] += 1
    return [(round(-1 + k * GUESS_BIN, 10), count) for k, count in enumerate(counts)]

