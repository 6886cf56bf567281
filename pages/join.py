"""Join a class: a student types the class code (or opens the teacher's link) and a nickname,
then answers what the teacher opens, in their own language.

Layout only: the class logic is :mod:`qwk_class.classroom`, the glue :mod:`qwk_app.classroom`.
A student sees the class's data, the open activity and their own answers, never anyone else's
and never the teacher's view. The activity area is a fragment that reruns alone: every few
seconds (its timer), and when the student presses Send. A class of a hundred students makes a
hundred of those runs at once right after the teacher opens an activity, on the same server as
the teacher's view, so each run is kept cheap: one indexed read of the class's version, the class
and the student's own answers read again only when the version or the answers changed
(:func:`_class_now`, :func:`_mine`), and nothing of the page around the area runs again.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from qwk_app import classroom, state
from qwk_app.checker import SCALARS, split_pasted
from qwk_app.frame import page_guard
from qwk_app.text import escape_markdown, num, show_error, tr
from qwk_class.classroom import ClassData, ClassError, ClassState, Student, checked_values
from qwk_class.codes import show_code
from qwk_explained.core.errors import QwkError
from qwk_explained.present import feedback
from qwk_explained.present.i18n import t
from qwk_explained.teaching.checking import CELL_QUANTITIES, HISTOGRAMS, first_wrong, graded
from qwk_explained.teaching.exercises import CHOICES

page_guard()

session = st.session_state
classroom.adopt_url(teacher=False)
PROBLEM = "class_problem"
#: The class as this session last read it (a :class:`ClassState`), and the student's own
#: answers of one round: ``(student id, round, answers)``.
SEEN, MINE = "class_seen", "class_mine"


def _join() -> None:
    try:
        student, token = classroom.room().join(session.get("class_code_input", ""),
                                               session.get("class_nickname_input", ""),
                                               classroom.source())
    except QwkError as problem:
        session[PROBLEM] = problem
        return
    session[classroom.CODE], session[classroom.TOKEN] = student.code, token


def _join_form() -> None:
    st.markdown(tr("classroom.join_intro"))
    if "class_code_input" not in session:
        session["class_code_input"] = show_code(session[classroom.CODE]) \
            if classroom.CODE in session else ""
    st.text_input(tr("classroom.code_label"), key="class_code_input",
                  placeholder="ABCDE-FGHJK", help=tr("classroom.code_help"))
    # No max_chars: a longer paste would be dropped whole; the class keeps its first
    # MAX_NICKNAME characters and says so by showing the nickname it kept.
    st.text_input(tr("classroom.nickname_label"), key="class_nickname_input",
                  help=tr("classroom.nickname_help"))
    st.button(tr("classroom.join"), key="class_join", type="primary", on_click=_join,
              icon=":material/login:")


def _send(action: str, *args: Any) -> None:
    student = classroom.me()
    if student is None:
        session[PROBLEM] = ClassError("not_student")
        return
    session.pop(MINE, None)  # whatever happens, the answers are read again
    try:
        getattr(classroom.room(), action)(student, *args)
    except QwkError as problem:
        session[PROBLEM] = problem


def _class_now(student: Student) -> ClassState | None:
    """The class as it is now (``None``: gone or expired). One indexed read of its version;
    the class itself is read again only when the teacher changed something."""
    room = classroom.room()
    version = room.version(student.code)
    if version is None:
        return None
    seen = session.get(SEEN)
    if not isinstance(seen, ClassState) or seen.code != student.code or \
            seen.version != version:
        seen = session[SEEN] = room.state(student)
    return seen


def _mine(student: Student, round_: int) -> dict[str, Any]:
    """The student's own answers of ``round_``, read again only after they sent one."""
    kept = session.get(MINE)
    if kept is None or kept[:2] != (student.id, round_):
        kept = session[MINE] = (student.id, round_, classroom.room().mine(student, round_))
    return dict(kept[2])


def _data_table(data: ClassData) -> None:
    result = data.result()
    frame = pd.DataFrame([result.actual.tolist(), result.predicted.tolist()],
                         index=[tr("common.actual_ratings"), tr("common.predicted_ratings")],
                         columns=[str(k) for k in range(1, result.n + 1)])
    st.table(frame)
    labels = [int(v) for v in result.labels]
    st.caption(tr("classroom.data_caption", count=result.n, low=num(labels[0]),
                  high=num(labels[-1]), weights=tr(f"common.in_sentence.weights.{data.weights}")))


def _guess(class_state: ClassState, mine: dict[str, Any]) -> None:
    st.subheader(tr("classroom.activity.guess"))
    given = mine.get("guess")
    if class_state.revealed:
        kappa = class_state.data.result().kappa
        st.success(tr("classroom.revealed_student", kappa=num(kappa)) if kappa is not None
                   else tr("classroom.kappa_undefined"), icon=":material/visibility:")
        if given is not None:
            st.markdown(tr("classroom.your_guess", guess=num(given["graded"]["value"])))
        return
    _data_table(class_state.data)
    st.text_input(tr("classroom.guess_label"), key="class_guess_input",
                  help=tr("classroom.guess_help"), placeholder=num(0.5, 1))
    st.button(tr("classroom.send"), key="class_guess_send", type="primary",
              icon=":material/send:", on_click=lambda: _send(
                  "submit_guess", session.get("class_guess_input", ""), state.lang()))
    if given is not None:
        st.success(tr("classroom.guess_in", guess=num(given["graded"]["value"])),
                   icon=":material/check:")


#: The check form's fields: each matrix and histogram as pasted text, num, den and kappa.
CHECK_FIELDS = (*CELL_QUANTITIES[:2], *HISTOGRAMS, *CELL_QUANTITIES[2:], *SCALARS)


def _answers() -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for quantity in CHECK_FIELDS:
        text = str(session.get(f"class_check_{quantity}", "")).strip()
        if not text:
            continue
        if quantity in CELL_QUANTITIES:
            answers[quantity] = split_pasted(text)
        elif quantity in HISTOGRAMS:
            rows = split_pasted(text)
            answers[quantity] = rows[0] if len(rows) == 1 else rows
        else:
            answers[quantity] = text
    return answers


def _check(class_state: ClassState, mine: dict[str, Any]) -> None:
    st.subheader(tr("classroom.activity.check"))
    _data_table(class_state.data)
    st.markdown(tr("classroom.check_intro"))
    for quantity in CHECK_FIELDS:
        label = tr(f"classroom.field.{quantity}")
        if quantity in CELL_QUANTITIES:
            st.text_area(label, key=f"class_check_{quantity}", height=110,
                         help=tr("classroom.matrix_help"))
        else:
            st.text_input(label, key=f"class_check_{quantity}",
                          help=tr("classroom.row_help") if quantity in HISTOGRAMS else None)
    st.button(tr("classroom.send"), key="class_check_send", type="primary",
              icon=":material/send:",
              on_click=lambda: _send("submit_check", _answers(), state.lang()))
    sent = mine.get("check")
    if sent is None:
        return
    lang = state.lang()
    result = class_state.data.result()
    checked = checked_values(class_state.data, sent["payload"])
    first = first_wrong(checked)
    if first is not None:
        st.warning(feedback.first_wrong_sentence(lang, result, checked), icon=":material/flag:")
        st.markdown(escape_markdown(feedback.joined(lang, feedback.explanation(lang, result,
                                                                                 first))))
    elif graded(checked):
        st.success(tr("checker.summary_all_right", count=len(graded(checked))),
                   icon=":material/check:")
    for sentence in feedback.ungraded_sentences(lang, checked):
        st.info(sentence, icon=":material/more_horiz:")
    for answer in checked:
        if answer.verdict == "too_coarse":
            said = [feedback.verdict_line(lang, answer),
                    *feedback.explanation(lang, result, answer)]
            st.caption(escape_markdown(f"{feedback.symbol(lang, result, answer)}: "
                                       + feedback.joined(lang, said)))


def _practice(class_state: ClassState, mine: dict[str, Any]) -> None:
    exercise = class_state.data.exercise()
    lang = state.lang()  # format_func runs again outside the script (in tests)
    st.subheader(tr("classroom.activity.practice"))
    frame = pd.DataFrame([list(exercise.actual), list(exercise.predicted),
                          list(exercise.alternative)],
                         index=[tr("common.actual_ratings"), tr("practice.prediction_a"),
                                tr("practice.prediction_b")],
                         columns=[str(k) for k in range(1, exercise.n + 1)])
    st.table(frame)
    st.caption(tr("practice.table_caption", n=num(exercise.n)))
    for index, question in enumerate(exercise.questions):
        cell = ({} if question.cell is None else
                {"row": num(question.cell[0]), "col": num(question.cell[1])})
        with st.container(border=True):
            st.markdown(tr("practice.question_heading", number=num(index + 1),
                           total=num(len(exercise.questions))))
            st.markdown(tr(f"practice.ask.{question.kind}", **cell))
            if question.kind == "compare":  # codes as values: the labels change with the language
                st.radio(tr("practice.your_choice"), CHOICES, key=f"class_practice_{index}_input",
                         horizontal=True, index=None,
                         format_func=lambda choice: t(lang, f"practice.prediction_{choice}"))
            else:
                st.text_input(tr("practice.your_answer"), key=f"class_practice_{index}_input",
                              help=tr("practice.answer_help"))
            st.button(tr("classroom.send"), key=f"class_practice_{index}_send",
                      icon=":material/send:", on_click=lambda i=index: _send(
                          "submit_practice", i, session.get(f"class_practice_{i}_input") or "",
                          lang))
            sent = mine.get(f"practice:{index}")
            if sent is not None:
                if sent["graded"]["correct"]:
                    st.success(tr("practice.right"), icon=":material/check_circle:")
                else:
                    st.error(tr("practice.wrong"), icon=":material/cancel:")


def _joined(student: Student) -> None:
    st.markdown(tr("classroom.you_are", nickname=escape_markdown(student.nickname),
                   code=show_code(student.code)))
    _activity(student)


@st.fragment(run_every=classroom.STUDENT_REFRESH_S)
def _activity(student: Student) -> None:
    """What the teacher has open, redrawn alone: on its timer (the teacher may have opened,
    closed or revealed something) and when the student sends an answer."""
    show_error(session.pop(PROBLEM, None))  # from a Send inside this fragment
    try:
        class_state = _class_now(student)
    except ClassError as problem:
        show_error(problem)
        return
    if class_state is None:  # deleted or expired: the whole page says so and offers to join
        st.rerun(scope="app")
    mine = _mine(student, class_state.round)
    if class_state.activity is None:
        st.info(tr("classroom.wait"), icon=":material/hourglass_empty:")
    elif class_state.activity == "guess":
        _guess(class_state, mine)
    elif class_state.activity == "check":
        _check(class_state, mine)
    else:
        _practice(class_state, mine)


st.title(tr("classroom.join_title"))
me = classroom.me()
if me is None:
    show_error(session.pop(PROBLEM, None))
    if classroom.TOKEN in session:  # the class was deleted or expired, or the link is not theirs
        show_error(ClassError("not_student"))
        session.pop(classroom.TOKEN, None)
    _join_form()
else:
    classroom.keep_in_url(teacher=False)
    _joined(me)
