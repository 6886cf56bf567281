"""Practice: predict one quantity of QWK at a time on a generated exercise, with feedback.

The exercise comes from ``qwk_explained.exercises`` (seed + level, shared in the URL). Progress
through the questions, the answers given and the session's score live in canonical session keys
(``practice_*``), so they survive a language switch and a visit to another page.
"""

import pandas as pd
import streamlit as st

from qwk_app import render, state
from qwk_app.frame import page_guard
from qwk_app.text import escape_markdown, num, tr
from qwk_explained import Walkthrough
from qwk_explained.present import formulas
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import language
from qwk_explained.teaching.exercises import (
    CHOICES,
    DEFAULT_LEVEL,
    LEVELS,
    MAX_SEED,
    Exercise,
    Question,
    agreements,
    check_answer,
    exercise_walkthrough,
    make_exercise,
    matching_items,
    parse_level,
    parse_seed,
    random_seed,
)

page_guard()

SEED = "practice_seed"
LEVEL = "practice_level"
INDEX = "practice_index"  # the question on screen
RESULTS = "practice_results"  # {question index: "correct" | "wrong"} for the exercise on screen
SCORE = "practice_score"  # (correct, attempted) over the whole session
PROBLEM = "practice_problem"  # why the last typed answer could not be read
NOTICES = "practice_notices"  # problems with ?seed= / ?level=, shown while their fallback is on
ANSWER = "practice_answer"  # typed answer (canonical copy of the text input)
CHOICE = "practice_choice"  # A or B for the compare question
#: Terms of num and den written out in the worked step (then "+ ..." and the total); the heatmap
#: beside the sum shows every term, so the formula stays one readable line.
MAX_TERMS = 4


@st.cache_resource(max_entries=256, show_spinner=False)
def _exercise(seed: int, level: str) -> Exercise:
    return make_exercise(seed, level)


@st.cache_resource(max_entries=256, show_spinner=False)
def _walk(seed: int, level: str, which: str) -> Walkthrough:
    return exercise_walkthrough(_exercise(seed, level), which)


def _load(seed: int, level: str) -> None:
    """Show exercise (seed, level) from its first question; the session's score is kept."""
    session = st.session_state
    session[SEED], session[LEVEL] = seed, level
    session[INDEX], session[RESULTS], session[PROBLEM] = 0, {}, None
    session[NOTICES] = []
    session["practice_level_input"] = level
    state.set_value(ANSWER, "")
    state.set_value(CHOICE, None)


def _shown(text: object) -> str:
    """A value from the URL, shortened and escaped: quoted in a message exactly as it came."""
    value = " ".join(str(text).split())
    return escape_markdown(value if len(value) <= 20 else value[:19] + "…")


def _start() -> None:
    """On the first visit: the exercise from the link (?seed=&level=), else a new one."""
    session = st.session_state
    session.setdefault(SCORE, (0, 0))
    if SEED in session:
        return
    notices: list[tuple[str, str]] = []
    url_seed, url_level = state.url_value("seed"), state.url_value("level")
    level = DEFAULT_LEVEL
    if url_level is not None:
        level = parse_level(url_level) or DEFAULT_LEVEL
        if parse_level(url_level) is None:
            notices.append(("practice.bad_level", _shown(url_level)))
    seed = None if url_seed is None else parse_seed(url_seed)
    if url_seed is not None and seed is None:
        notices.append(("practice.bad_seed", _shown(url_seed)))
    _load(random_seed() if seed is None else seed, level)
    session[NOTICES] = notices


def _new_exercise() -> None:
    session = st.session_state
    _load(random_seed(avoid=session[SEED]), session[LEVEL])


def _change_level() -> None:
    _load(st.session_state[SEED], st.session_state["practice_level_input"])


def _reset_score() -> None:
    st.session_state[SCORE] = (0, 0)


def _next_question() -> None:
    session = st.session_state
    session[INDEX] += 1
    session[PROBLEM] = None
    state.set_value(ANSWER, "")
    state.set_value(CHOICE, None)


def _check() -> None:
    """Grade the answer on screen; an unreadable one is explained and not counted."""
    session = st.session_state
    index = session[INDEX]
    if index in session[RESULTS]:
        return
    question = _exercise(session[SEED], session[LEVEL]).questions[index]
    if question.kind == "compare":
        text = session.get(f"{CHOICE}_input")
        session[CHOICE] = text
    else:
        text = session.get(f"{ANSWER}_input", "")
        session[ANSWER] = text
    verdict = check_answer(question, text, language(state.lang()).group)
    if not verdict.readable:
        session[PROBLEM] = verdict.problem
        return
    session[PROBLEM] = None
    session[RESULTS] = {**session[RESULTS], index: verdict.status}
    correct, attempted = session[SCORE]
    session[SCORE] = (correct + int(verdict.correct), attempted + 1)


# --- rendering ------------------------------------------------------------------------------------


def _cell_params(question: Question) -> dict[str, str]:
    if question.cell is None:
        return {}
    return {"row": str(question.cell[0]), "col": str(question.cell[1])}


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


def _generic(kind: str) -> list[str]:
    if kind == "observed":
        return [formulas.observed_generic()]
    if kind == "expected":
        return [formulas.histograms_generic(), formulas.expected_generic()]
    if kind == "numerator":
        return [formulas.weights_generic("quadratic"), formulas.numerator_generic()]
    if kind == "denominator":
        return [formulas.weights_generic("quadratic"), formulas.denominator_generic()]
    return [formulas.kappa_generic()]


def _worked_step(exercise: Exercise, question: Question) -> None:
    """The formula of the step with the exercise's numbers plugged in."""
    lang = state.lang()
    first = _walk(exercise.seed, exercise.level, "predicted")
    st.markdown(tr("practice.worked_step"))
    if question.kind == "observed":
        items = matching_items(exercise, question.cell)
        if items:
            st.markdown(tr("practice.observed_items", items=", ".join(map(str, items)),
                           **_cell_params(question)))
        else:
            st.markdown(tr("practice.observed_no_items", **_cell_params(question)))
        st.latex(formulas.observed_cell(first, *question.cell, lang))
    elif question.kind == "expected":
        i, j = question.cell
        st.latex(formulas.histogram_cell(first, i, lang, "a"))
        st.latex(formulas.histogram_cell(first, j, lang, "p"))
        st.latex(formulas.expected_cell(first, i, j, lang))
    elif question.kind == "numerator":
        st.latex(formulas.numerator_plugged(first, lang, max_terms=MAX_TERMS))
        render.chart(first, "weighted_observed")
    elif question.kind == "denominator":
        st.latex(formulas.denominator_plugged(first, lang, max_terms=MAX_TERMS))
        render.chart(first, "weighted_expected")
    elif question.kind == "kappa":
        st.latex(formulas.kappa_plugged(first, lang))
    else:
        second = _walk(exercise.seed, exercise.level, "alternative")
        for name, result in (("prediction_a", first), ("prediction_b", second)):
            st.caption(tr(f"practice.{name}"))
            st.latex(formulas.kappa_plugged(result, lang))
        higher = question.correct_choice
        lower = "b" if higher == "a" else "a"
        which = {"a": "predicted", "b": "alternative"}
        if agreements(exercise, which[higher]) <= agreements(exercise, which[lower]):
            st.markdown(tr(f"practice.compare_lesson_{higher}",
                           matches_a=num(agreements(exercise, "predicted")),
                           matches_b=num(agreements(exercise, "alternative"))))


def _correct_answer(question: Question) -> str:
    if question.kind == "compare":
        choice = tr(f"practice.prediction_{question.correct_choice}")
        return tr("practice.correct_choice", choice=choice)
    return tr("practice.correct_answer", answer=num(question.answer))


def _answer_area(question: Question, answered: bool) -> None:
    """The answer field and the check button; once answered, a read-only copy of the answer.

    The copy is a separate widget: a keyed widget that turns disabled loses its value in the run
    where it is disabled (Streamlit 1.67), and the learner should still see what they typed.
    """
    lang = state.lang()
    session = st.session_state
    canonical = CHOICE if question.kind == "compare" else ANSWER
    if answered:
        key = f"{canonical}_done"
        session[key] = session.get(canonical)
    elif question.kind == "compare":
        key = f"{CHOICE}_input"
        if key not in session:
            session[key] = session.get(CHOICE)
    else:
        key = state.bind(ANSWER)
    if question.kind == "compare":
        st.radio(tr("practice.your_choice"), CHOICES, key=key, horizontal=True,
                 disabled=answered, format_func=lambda c: t(lang, f"practice.prediction_{c}"),
                 on_change=None if answered else state.commit(CHOICE))
    else:
        st.text_input(tr("practice.your_answer"), key=key, disabled=answered,
                      on_change=None if answered else state.commit(ANSWER),
                      help=tr("practice.answer_help"),
                      placeholder=tr("practice.answer_placeholder"))
    problem = session.get(PROBLEM)
    if problem and not answered:
        code = "no_choice" if question.kind == "compare" else problem
        st.error(tr(f"practice.problem_{code}"), icon=":material/error:")
    st.button(tr("practice.check"), key="practice_check", on_click=_check, disabled=answered,
              type="primary")


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


def _page() -> None:
    _start()
    session = st.session_state
    seed, level = session[SEED], session[LEVEL]
    state.share("seed", seed)
    state.share("level", level)
    lang = state.lang()

    st.title(tr("practice.title"))
    st.markdown(tr("practice.intro"))
    st.caption(tr("practice.settings_note"))
    for key, value in session.get(NOTICES, []):
        st.warning(tr(key, value=value, max=str(MAX_SEED), level=tr(f"practice.level.{level}")),
                   icon=":material/link_off:")

    controls = st.columns([3, 2, 2], vertical_alignment="bottom")
    if "practice_level_input" not in session:
        session["practice_level_input"] = level
    controls[0].radio(tr("practice.level_label"), LEVELS, key="practice_level_input",
                      horizontal=True, on_change=_change_level, help=tr("practice.level_help"),
                      format_func=lambda name: t(lang, f"practice.level.{name}"))
    controls[1].button(tr("practice.new_exercise"), key="practice_new", on_click=_new_exercise,
                       icon=":material/casino:")
    correct, attempted = session[SCORE]
    with controls[2]:
        st.metric(tr("practice.score"),
                  tr("practice.score_value", correct=num(correct), attempted=num(attempted)),
                  help=tr("practice.score_help"))
        st.button(tr("practice.reset_score"), key="practice_reset", on_click=_reset_score,
                  icon=":material/restart_alt:")

    exercise = _exercise(seed, level)
    total = len(exercise.questions)
    index = min(session[INDEX], total - 1)
    question = exercise.questions[index]
    results: dict[int, str] = session[RESULTS]

    st.subheader(tr("practice.exercise_heading", seed=str(seed),
                    level=tr(f"practice.level_in_sentence.{level}")))
    st.markdown(tr("practice.exercise_text", n=num(exercise.n), size=num(exercise.size),
                   top=num(exercise.size - 1)))
    _vectors_table(exercise, with_alternative=question.kind == "compare")
    _history(exercise, results, index)

    st.subheader(tr("practice.question_heading", number=num(index + 1), total=num(total)))
    st.markdown(tr(f"practice.ask.{question.kind}", **_cell_params(question)))
    for formula in _generic(question.kind):
        st.latex(formula)
    answered = index in results
    _answer_area(question, answered)
    if not answered:
        return
    if results[index] == "correct":
        st.success(tr("practice.right"), icon=":material/check_circle:")
    else:
        st.error(tr("practice.wrong"), icon=":material/cancel:")
    st.markdown(_correct_answer(question))
    _worked_step(exercise, question)
    if index + 1 < total:
        st.button(tr("practice.next"), key="practice_next", on_click=_next_question,
                  icon=":material/arrow_forward:")
    else:
        right = sum(status == "correct" for status in results.values())
        st.info(tr("practice.finished", correct=num(right), total=num(total)),
                icon=":material/flag:")
        st.button(tr("practice.new_exercise"), key="practice_new_end", on_click=_new_exercise,
                  icon=":material/casino:")


_page()
