"""The practice page's state: which exercise, which question, what was typed, and the score.

An exercise is named by its seed and level (``?seed=12345&level=medium``). Progress lives under
``practice_*`` keys of a session mapping (``st.session_state`` in the app, a dict in the tests),
so it survives a language switch and a visit to another page:

- ``practice_seed``, ``practice_level``, ``practice_index`` (the question on screen);
- ``practice_results`` ``{question: "correct" | "wrong"}`` and ``practice_typed``
  ``{question: text}`` for the exercise on screen (the typed num and den make a kappa worked out
  from them right);
- ``practice_score`` ``(correct, attempted)`` over the whole session;
- ``practice_problem`` (why the last text could not be read, or ``too_coarse``: it had too few
  digits to be judged), ``practice_notices`` (problems with the link's seed or level),
  ``practice_answer`` and ``practice_choice`` (the fields' values).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from qwk_explained.core.parse import shorten
from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.exercises import (
    CHOICES,
    DEFAULT_LEVEL,
    LEVELS,
    Attempt,
    Exercise,
    Kind,
    Level,
    Which,
    check_answer,
    exercise_walkthrough,
    make_exercise,
    parse_seed,
    random_seed,
)
from qwk_explained.teaching.exercises import Choice as Letter
from qwk_explained.teaching.mistakes import MistakeModel, mistake_model

from . import state
from .state import Session

SEED, LEVEL, INDEX = "practice_seed", "practice_level", "practice_index"
RESULTS, TYPED, SCORE = "practice_results", "practice_typed", "practice_score"
PROBLEM, NOTICES = "practice_problem", "practice_notices"
ANSWER, CHOICE = "practice_answer", "practice_choice"
LEVEL_INPUT = "practice_level_input"
#: The level of the exercise on screen, and its radio.
LEVEL_CHOICE: state.Choice[Level] = state.Choice(LEVEL, LEVELS, DEFAULT_LEVEL, widget=LEVEL_INPUT)
#: The prediction chosen as the answer to a comparison (none until one is chosen).
LETTER: state.Choice[Letter | None] = state.Choice(CHOICE, CHOICES, None)
#: Longest piece of a link's value quoted back in a message.
SHOWN = 20


@lru_cache(maxsize=256)
def exercise(seed: int, level: Level) -> Exercise:
    """The exercise for a seed and level (pure, so shared by every session)."""
    return make_exercise(seed, level)


@lru_cache(maxsize=256)
def walk(seed: int, level: Level, which: Which = "predicted") -> Walkthrough:
    return exercise_walkthrough(exercise(seed, level), which)


@lru_cache(maxsize=256)
def _model(seed: int, level: Level) -> MistakeModel:
    return mistake_model(walk(seed, level))


def load(session: Session, seed: int, level: Level) -> None:
    """Show exercise (seed, level) from its first question; the session's score is kept."""
    session[SEED] = seed
    LEVEL_CHOICE.set(session, level)
    session[INDEX], session[RESULTS], session[TYPED], session[PROBLEM] = 0, {}, {}, None
    session[NOTICES] = []
    state.set_value(ANSWER, "", session=session)
    state.set_value(CHOICE, None, session=session)


def shown(text: object, escape: Callable[[str], str]) -> str:
    """A value from the URL, shortened and escaped: quoted in a message exactly as it came."""
    value = " ".join(str(text).split())
    return escape(shorten(value, SHOWN))


def start(session: Session, url_seed: Any, url_level: Any,
          escape: Callable[[str], str]) -> None:
    """On the first visit: the exercise from the link (``?seed=&level=``), else a new one. A bad
    seed or level is kept as a notice (key, the value as it came) while its fallback is shown."""
    session.setdefault(SCORE, (0, 0))
    if SEED in session:
        return
    notices: list[tuple[str, str]] = []
    level = DEFAULT_LEVEL
    if url_level is not None:
        parsed = LEVEL_CHOICE.read(url_level)
        if parsed is None:
            notices.append(("practice.bad_level", shown(url_level, escape)))
        level = parsed or DEFAULT_LEVEL
    seed = None if url_seed is None else parse_seed(url_seed)
    if url_seed is not None and seed is None:
        notices.append(("practice.bad_seed", shown(url_seed, escape)))
    load(session, random_seed() if seed is None else seed, level)
    session[NOTICES] = notices


def new_exercise(session: Session) -> None:
    load(session, random_seed(avoid=session[SEED]), LEVEL_CHOICE.get(session))


def change_level(session: Session) -> None:
    """The level radio's ``on_change``: the exercise at the new level, from its first question.
    A value that is no level, or the level on screen, changes nothing (the progress stays)."""
    level = LEVEL_CHOICE.read(session.get(LEVEL_INPUT))
    if level is not None and level != LEVEL_CHOICE.get(session):
        load(session, session[SEED], level)


def reset_score(session: Session) -> None:
    session[SCORE] = (0, 0)


def next_question(session: Session) -> None:
    session[INDEX] += 1
    session[PROBLEM] = None
    state.set_value(ANSWER, "", session=session)
    state.set_value(CHOICE, None, session=session)


def answer_key(kind: Kind) -> str:
    """The canonical key of the answer to a question: the choice of a comparison, else the
    typed value."""
    return CHOICE if kind == "compare" else ANSWER


def answer_field(session: Session, kind: Kind, answered: bool) -> str:
    """The widget key of the answer field: the choice of a comparison, else the typed value.

    While the question is open that is the field's mirror of its canonical value. Once it is
    answered the field is drawn disabled, as a separate widget holding a copy of the answer: a
    keyed widget that turns disabled loses its value in the run where it is disabled (Streamlit
    1.67), and the learner should still see what they typed.
    """
    canonical = answer_key(kind)
    if not answered:
        return LETTER.show(session) if kind == "compare" else state.bind(canonical,
                                                                          session=session)
    copy = f"{canonical}_done"
    session[copy] = LETTER.get(session) if kind == "compare" else session.get(canonical)
    return copy


def commit_answer(session: Session, kind: Kind) -> None:
    """The answer field's ``on_change``: its value becomes the answer (a choice only when it is
    one of the two predictions)."""
    if kind == "compare":
        LETTER.commit(session)
    else:
        session[ANSWER] = session.get(f"{ANSWER}_input")


def problem(session: Session, kind: Kind) -> str | None:
    """Why the last answer was not scored: it could not be read (``practice.problem_<code>``),
    or it had too few digits to judge (``too_coarse``); a comparison has only one problem, no
    choice made."""
    code = session.get(PROBLEM)
    if not code:
        return None
    return "no_choice" if kind == "compare" else str(code)


def current(session: Session) -> tuple[Exercise, int]:
    """The exercise on screen and the index of its question on screen."""
    shown_exercise = exercise(session[SEED], LEVEL_CHOICE.get(session))
    return shown_exercise, min(session[INDEX], len(shown_exercise.questions) - 1)


def _sums(session: Session, ex: Exercise) -> dict[Kind, str]:
    """The learner's typed num and den of this exercise, for the kappa question."""
    typed: dict[int, str] = session.get(TYPED, {})
    return {question.kind: typed[index] for index, question in enumerate(ex.questions)
            if question.kind in ("numerator", "denominator") and index in typed}


def attempt(session: Session, index: int, text: str | None,
            group: str) -> Attempt:
    """The checker's verdict on ``text`` as the answer to question ``index`` (pure: the same
    text always gets the same verdict, so the page recomputes it instead of storing it)."""
    ex = exercise(session[SEED], LEVEL_CHOICE.get(session))
    return check_answer(ex, ex.questions[index], text, group, _sums(session, ex),
                        _model(session[SEED], LEVEL_CHOICE.get(session)))


def check(session: Session, group: str) -> None:
    """Grade the answer on screen; an unreadable one, or one with too few digits to judge, is
    explained and not counted (the question stays open)."""
    ex, index = current(session)
    if index in session[RESULTS]:
        return
    kind = ex.questions[index].kind
    commit_answer(session, kind)
    text = LETTER.get(session) if kind == "compare" else session.get(ANSWER)
    result = attempt(session, index, None if text is None else str(text), group)
    if not result.graded:
        session[PROBLEM] = result.problem or result.status
        return
    session[PROBLEM] = None
    session[RESULTS] = {**session[RESULTS], index: result.status}
    session[TYPED] = {**session.get(TYPED, {}), index: "" if text is None else str(text)}
    correct, attempted = session[SCORE]
    session[SCORE] = (correct + int(result.correct), attempted + 1)
