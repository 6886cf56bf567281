"""Practice: predict one quantity of QWK at a time on a generated exercise, with feedback.

Layout only: the state (exercise, question, typed answers, score) lives in :mod:`qwk_app.practice`;
answers are judged by the checker (:mod:`qwk_explained.teaching.checking`), so a wrong answer
gets the same diagnosis as on the checker page.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qwk_app import practice, render, state
from qwk_app.frame import page_guard
from qwk_app.text import escape_markdown, num, tr
from qwk_explained.present import feedback
from qwk_explained.present.blocks import Block, Formula
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import language
from qwk_explained.present.outline import worked_blocks
from qwk_explained.teaching.exercises import (
    CHOICES,
    LEVELS,
    MAX_SEED,
    Attempt,
    Exercise,
    Question,
    compare_lesson,
)

page_guard()


def _check() -> None:
    practice.check(st.session_state, language(state.lang()).group)


def _cell_params(question: Question) -> dict[str, str]:
    if question.cell is None:
        return {}
    return {"row": num(question.cell[0]), "col": num(question.cell[1])}


def _vectors_table(exercise: Exercise, with_alternative: bool) -> None:
    rows = [exercise.actual, exercise.predicted]
    names = [tr("common.actual_ratings"), tr("practice.prediction_a")]
    if with_alternative:
        rows.append(exercise.alternative)
        names.append(tr("practice.prediction_b"))
    frame = pd.DataFrame([list(row) for row in rows], index=names,
                         columns=[str(k) for k in range(1, exercise.n + 1)])
    # A static table: twenty one-digit columns fit the page, where a data grid would scroll.
    st.table(frame)
    st.caption(tr("practice.table_caption", n=num(exercise.n)))


def _blocks(exercise: Exercise, question: Question) -> tuple[list[Block], list[Block]]:
    """The step of the quantity asked, as every surface writes it
    (:func:`~qwk_explained.present.outline.worked_blocks`): its generic formulas, then its
    result with prediction A's numbers (every term of a sum), the cell's items and its chart."""
    first = practice.walk(exercise.seed, exercise.level)
    quantity = "kappa" if question.kind == "compare" else question.kind
    return worked_blocks(first, question.cell or (0, 0), state.lang(), quantity)


def _worked_step(exercise: Exercise, question: Question) -> None:
    """The formula of the step with the exercise's numbers plugged in; for the comparison, kappa
    worked out for both predictions and why one is higher."""
    st.markdown(tr("practice.worked_step"))
    if question.kind != "compare":
        render.blocks(_blocks(exercise, question)[1], question.cell)
        return
    for name, variant in (("prediction_a", "predicted"), ("prediction_b", "alternative")):
        result = practice.walk(exercise.seed, exercise.level, variant)
        st.caption(tr(f"practice.{name}"))
        render.blocks([block for block in worked_blocks(result, (0, 0), state.lang(), "kappa")[1]
                       if isinstance(block, Formula)])
    _lesson(exercise)


def _lesson(exercise: Exercise) -> None:
    """Why the comparison came out this way: nearness of the misses, or the chance term."""
    lesson = compare_lesson(exercise)
    if lesson is None:
        return
    letters = {"a": "A", "b": "B"}
    st.markdown(tr(f"practice.compare_lesson_{lesson.lesson}",
                   higher=letters[lesson.higher], lower=letters[lesson.lower],
                   num_higher=num(lesson.numerators[0]), num_lower=num(lesson.numerators[1]),
                   den_higher=num(lesson.denominators[0]),
                   den_lower=num(lesson.denominators[1]),
                   matches_higher=num(lesson.matches[0]), matches_lower=num(lesson.matches[1])))


def _correct_answer(question: Question) -> str:
    if question.kind == "compare":
        choice = tr(f"practice.prediction_{question.correct_choice}")
        return tr("practice.correct_choice", choice=choice)
    return feedback.exact_sentence(state.lang(), question.answer)


def _too_coarse(exercise: Exercise, index: int) -> None:
    """Why the answer on screen was not scored: too few digits, and how many to write."""
    lang = state.lang()
    session = st.session_state
    outcome = practice.attempt(session, index, session.get(practice.ANSWER),
                               language(lang).group)
    if outcome.checked is None:
        return
    said = [feedback.verdict_line(lang, outcome.checked),
            *feedback.explanation(lang, practice.walk(exercise.seed, exercise.level),
                                  outcome.checked)]
    st.warning(escape_markdown(feedback.joined(lang, said)), icon=":material/more_horiz:")


def _answer_area(exercise: Exercise, index: int, question: Question, answered: bool) -> None:
    """The answer field and the check button; once answered, a read-only copy of the answer."""
    lang = state.lang()
    session = st.session_state
    key = practice.answer_field(session, question.kind, answered)
    on_change = None if answered else practice.commit_answer
    if question.kind == "compare":
        st.radio(tr("practice.your_choice"), CHOICES, key=key, horizontal=True,
                 disabled=answered, format_func=lambda c: t(lang, f"practice.prediction_{c}"),
                 on_change=on_change, args=(session, question.kind))
    else:
        st.text_input(tr("practice.your_answer"), key=key, disabled=answered, on_change=on_change,
                      args=(session, question.kind), help=tr("practice.answer_help"),
                      placeholder=tr("practice.answer_placeholder"))
    problem = practice.problem(session, question.kind)
    if problem == "too_coarse" and not answered:
        _too_coarse(exercise, index)
    elif problem is not None and not answered:
        st.error(tr(f"practice.problem_{problem}"), icon=":material/error:")
    st.button(tr("practice.check"), key="practice_check", on_click=_check, disabled=answered,
              type="primary")


def _verdict(exercise: Exercise, index: int, status: str) -> None:
    """Right or wrong, and what the checker says about the answer (the mistakes it names)."""
    session = st.session_state
    lang = state.lang()
    if status == "correct":
        st.success(tr("practice.right"), icon=":material/check_circle:")
    else:
        st.error(tr("practice.wrong"), icon=":material/cancel:")
    outcome: Attempt = practice.attempt(session, index, session[practice.TYPED].get(index),
                                        language(lang).group)
    if outcome.checked is not None:
        said = feedback.explanation(lang, practice.walk(exercise.seed, exercise.level),
                                    outcome.checked)
        if said:
            st.info(escape_markdown(feedback.joined(lang, said)), icon=":material/lightbulb:")


def _history(exercise: Exercise, results: dict[int, str], current: int) -> None:
    done = [index for index in range(current) if index in results]
    if not done:
        return
    with st.expander(tr("practice.history")):
        for index in done:
            question = exercise.questions[index]
            prompt = tr(f"practice.short.{question.kind}", **_cell_params(question))
            st.markdown(tr(f"practice.history_{results[index]}", number=num(index + 1),
                           question=prompt, answer=_correct_answer(question)))


def _controls() -> None:
    session = st.session_state
    lang = state.lang()
    controls = st.columns([3, 2, 2], vertical_alignment="bottom")
    controls[0].radio(tr("practice.level_label"), LEVELS,
                      key=practice.LEVEL_CHOICE.show(session),
                      horizontal=True, on_change=practice.change_level, args=(session,),
                      help=tr("practice.level_help"),
                      format_func=lambda name: t(lang, f"practice.level.{name}"))
    controls[1].button(tr("practice.new_exercise"), key="practice_new",
                       on_click=practice.new_exercise, args=(session,), icon=":material/casino:")
    correct, attempted = session[practice.SCORE]
    with controls[2]:
        st.metric(tr("practice.score"),
                  tr("practice.score_value", correct=num(correct), attempted=num(attempted)),
                  help=tr("practice.score_help"))
        st.button(tr("practice.reset_score"), key="practice_reset", on_click=practice.reset_score,
                  args=(session,), icon=":material/restart_alt:")


def _page() -> None:
    session = st.session_state
    practice.start(session, state.url_value("seed"), state.url_value("level"), escape_markdown)
    seed, level = session[practice.SEED], practice.LEVEL_CHOICE.get(session)
    state.share("seed", seed)
    state.share("level", level)

    st.title(tr("practice.title"))
    st.markdown(tr("practice.intro"))
    st.caption(tr("practice.settings_note"))
    for key, value in session.get(practice.NOTICES, []):
        st.warning(tr(key, value=value, max=str(MAX_SEED), level=tr(f"practice.level.{level}")),
                   icon=":material/link_off:")
    _controls()

    exercise, index = practice.current(session)
    total = len(exercise.questions)
    question = exercise.questions[index]
    results: dict[int, str] = session[practice.RESULTS]
    st.subheader(tr("practice.exercise_heading", seed=str(seed),
                    level=tr(f"practice.level_in_sentence.{level}")))
    st.markdown(tr("practice.exercise_text", n=num(exercise.n), size=num(exercise.size),
                   top=num(exercise.size - 1)))
    _vectors_table(exercise, with_alternative=question.kind == "compare")
    _history(exercise, results, index)

    st.subheader(tr("practice.question_heading", number=num(index + 1), total=num(total)))
    st.markdown(tr(f"practice.ask.{question.kind}", **_cell_params(question)))
    render.blocks(_blocks(exercise, question)[0])
    answered = index in results
    _answer_area(exercise, index, question, answered)
    if not answered:
        return
    _verdict(exercise, index, results[index])
    st.markdown(_correct_answer(question))
    _worked_step(exercise, question)
    if index + 1 < total:
        st.button(tr("practice.next"), key="practice_next", on_click=practice.next_question,
                  args=(session,), icon=":material/arrow_forward:")
    else:
        right = sum(status == "correct" for status in results.values())
        st.info(tr("practice.finished", correct=num(right), total=num(total)),
                icon=":material/flag:")
        st.button(tr("practice.new_exercise"), key="practice_new_end",
                  on_click=practice.new_exercise, args=(session,), icon=":material/casino:")


_page()
