"""The practice page's state machine, without a running script.

Source of truth: the engine (``make_exercise``, ``parse_seed``) for the exercise the state points
at. Sessions are plain dicts here; the page passes ``st.session_state``.
"""

from __future__ import annotations

from qwk_app import practice
from qwk_explained.teaching.exercises import make_exercise, parse_seed


def identity(text: str) -> str:
    return text


def started(**url):
    session: dict = {}
    practice.start(session, url.get("seed"), url.get("level"), identity)
    return session


def test_practice_starts_from_the_link_or_a_new_exercise():
    session = started(seed="12345", level="medium")
    assert (session[practice.SEED], session[practice.LEVEL]) == (12345, "medium")
    assert session[practice.NOTICES] == [] and session[practice.SCORE] == (0, 0)
    bad = started(seed="x" * 30, level="extreme")
    assert bad[practice.LEVEL] == "easy" and parse_seed(bad[practice.SEED]) is not None
    assert bad[practice.NOTICES] == [("practice.bad_level", "extreme"),
                                     ("practice.bad_seed", "x" * 19 + "…")]


def test_checking_scores_moves_on_and_keeps_the_score_across_exercises():
    session = started(seed="12345", level="medium")
    exercise = make_exercise(12345, "medium")
    session[f"{practice.ANSWER}_input"] = "zwei"
    practice.check(session, ",")
    assert session[practice.PROBLEM] == "not_a_number" and session[practice.SCORE] == (0, 0)
    session[f"{practice.ANSWER}_input"] = str(int(exercise.questions[0].answer))
    practice.check(session, ",")
    assert session[practice.RESULTS] == {0: "correct"} and session[practice.SCORE] == (1, 1)
    practice.check(session, ",")  # a second click does not count twice
    assert session[practice.SCORE] == (1, 1)
    practice.next_question(session)
    assert session[practice.INDEX] == 1 and session[f"{practice.ANSWER}_input"] == ""
    practice.new_exercise(session)
    assert session[practice.SEED] != 12345 and session[practice.SCORE] == (1, 1)
    practice.reset_score(session)
    assert session[practice.SCORE] == (0, 0)


def test_kappa_is_checked_against_the_learners_own_sums():
    """num and den typed earlier (rounded) make 1 - num/den right for the kappa question."""
    session = started(seed="12345", level="medium")
    exercise = make_exercise(12345, "medium")
    numerator, denominator = exercise.questions[2:4]
    session[practice.TYPED] = {2: f"{numerator.answer:#.2g}", 3: f"{denominator.answer:#.2g}"}
    own = 1 - float(session[practice.TYPED][2]) / float(session[practice.TYPED][3])
    attempt = practice.attempt(session, 4, f"{own:.4f}", ",")
    assert attempt.correct and attempt.checked.note in (None, "from_your_sums")
    assert not practice.attempt(session, 4, f"{own + 0.05:.4f}", ",").correct


def test_changing_the_level_keeps_the_seed():
    session = started(seed="42", level="easy")
    session[practice.LEVEL_INPUT] = "hard"
    practice.change_level(session)
    assert (session[practice.SEED], session[practice.LEVEL]) == (42, "hard")
    session[practice.LEVEL_INPUT] = "nonsense"
    practice.change_level(session)
    assert session[practice.LEVEL] == "hard"
