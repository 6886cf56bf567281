"""Teach a class: start a class session, show students the link and the QR, open activities and
watch the class's answers arrive.

Layout only: the class logic is :mod:`qwk_class.classroom`, the glue :mod:`qwk_app.classroom`.
The view of the answers refreshes itself every couple of seconds (a fragment), in the teacher's
language whatever languages the students use. The true kappa stays hidden until the teacher
reveals it, so the view can be projected from the start.
"""

from __future__ import annotations

import streamlit as st

from qwk_app import charts, classroom, compute, frame, links, state
from qwk_app.frame import page_guard
from qwk_app.text import num, percent, show_error, tr
from qwk_class.classroom import (
    ACTIVITIES,
    ClassData,
    ClassError,
    ClassState,
    Summary,
)
from qwk_class.codes import show_code
from qwk_class.export import check_csv
from qwk_explained.core.errors import QwkError
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.teaching.exercises import LEVELS, random_seed

page_guard()

session = st.session_state
classroom.adopt_url(teacher=True)
ICONS = {"guess": ":material/casino:", "check": ":material/fact_check:",
         "practice": ":material/school:"}


def _current_data() -> ClassData | None:
    """The data on the teacher's screen (the shared ratings and settings), if valid."""
    outcome = compute.current()
    result = outcome.result
    if outcome.stale or result is None or result.actual is None or result.predicted is None:
        return None
    settings = state.settings()
    return ClassData(state.vector_text(result.actual), state.vector_text(result.predicted),
                     settings.weights, settings.scale, settings.min_rating,
                     settings.max_rating, random_seed(), _level())


def _level():
    level = session.get("class_level_input")
    return level if level in LEVELS else LEVELS[0]


def _start(origin: str) -> None:
    data = (_current_data() if origin == "current"
            else ClassData.from_practice(random_seed(), _level()))
    if data is None:
        session["class_problem"] = ClassError("no_data")
        return
    try:
        started = classroom.room().start(data, classroom.source())
    except QwkError as problem:
        session["class_problem"] = problem
        return
    session[classroom.CODE], session[classroom.KEY] = started.code, started.key


def _act(action, *args) -> None:
    try:
        action(session[classroom.CODE], session[classroom.KEY], *args)
    except QwkError as problem:
        session["class_problem"] = problem


def _use_current() -> None:
    data = _current_data()
    if data is None:
        session["class_problem"] = ClassError("no_data")
        return
    _act(classroom.room().replace_data, data)


def _delete() -> None:
    _act(classroom.room().delete)
    if session.get("class_problem") is None:
        classroom.leave()
        session["class_deleted"] = True


def _start_form() -> None:
    st.markdown(tr("classroom.teach_intro"))
    if session.pop("class_deleted", False):
        st.success(tr("classroom.deleted"), icon=":material/delete:")
    lang = state.lang()  # format_func runs again outside the script (in tests)
    st.radio(tr("classroom.level_label"), LEVELS, key="class_level_input", horizontal=True,
             format_func=lambda level: t(lang, f"practice.level.{level}"),
             help=tr("classroom.level_help"))
    left, right = st.columns(2)
    left.button(tr("classroom.start_current"), key="class_start_current", type="primary",
                on_click=_start, args=("current",), icon=":material/play_arrow:",
                help=tr("classroom.start_current_help"), width="stretch")
    right.button(tr("classroom.start_practice"), key="class_start_practice",
                 on_click=_start, args=("practice",), icon=":material/shuffle:",
                 help=tr("classroom.start_practice_help"), width="stretch")
    st.caption(tr("classroom.lifetime_note", count=round(classroom.room().lifetime / 3600, 1)))


def _header(class_state: ClassState) -> None:
    link, reachable = classroom.join_link(class_state.code)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        st.markdown(tr("classroom.join_at"))
        st.code(link, language=None, wrap_lines=True)
        charts.copy_button(link, key="class_copy")
        st.markdown(tr("classroom.or_code"))
        st.markdown(f"# `{show_code(class_state.code)}`")
        if not reachable:
            st.warning(tr("share.local_only", variable=links.PUBLIC_URL_ENV),
                       icon=":material/wifi_off:")
    with right:
        image = frame.qr_png(link, scale=12)
        if image is not None:
            st.image(image, caption=tr("share.qr_caption"), width="stretch",
                     alt=tr("share.qr_alt", link=link))


def _controls(class_state: ClassState) -> None:
    columns = st.columns(len(ACTIVITIES) + 1)
    for column, activity in zip(columns, ACTIVITIES, strict=False):
        is_open = class_state.activity == activity
        column.button(tr(f"classroom.activity.{activity}"), key=f"class_open_{activity}",
                      type="primary" if is_open else "secondary", icon=ICONS[activity],
                      on_click=_act, args=(classroom.room().open, activity),
                      disabled=is_open, width="stretch")
    columns[-1].button(tr("classroom.close_activity"), key="class_close",
                       on_click=_act, args=(classroom.room().open, None),
                       icon=":material/stop_circle:", disabled=class_state.activity is None,
                       width="stretch")


def _guess(summary: Summary) -> None:
    count = len(summary.guesses)
    st.markdown(tr("classroom.guesses_in", count=count, students=num(summary.state.students)))
    revealed = summary.state.revealed
    st.vega_lite_chart(classroom.guess_chart(summary.guesses, summary.kappa, state.lang(),
                                             revealed), width="stretch")
    if not revealed:
        st.button(tr("classroom.reveal"), key="class_reveal", type="primary",
                  icon=":material/visibility:", on_click=_act,
                  args=(classroom.room().reveal,))
        return
    if summary.kappa is None:
        st.info(tr("classroom.kappa_undefined"))
        return
    close = sum(abs(guess - summary.kappa) <= 0.1 for guess in summary.guesses)
    st.success(tr("classroom.revealed", kappa=num(summary.kappa), close=num(close),
                  count=count), icon=":material/visibility:")


def _check(summary: Summary) -> None:
    st.markdown(tr("classroom.checks_in", count=summary.checks,
                   students=num(summary.state.students)))
    if not summary.checks:
        return
    rows = []
    for step in STEPS:
        counts = summary.steps.get(step.number)
        if counts is None:
            continue
        rows.append({tr("classroom.step_column"): step.heading(state.lang()),
                     tr("classroom.right_column"): counts.right,
                     tr("classroom.coarse_column"): counts.too_coarse,
                     tr("classroom.wrong_column"): counts.wrong})
    st.dataframe(rows, hide_index=True, width="stretch")
    if summary.mistakes:
        st.markdown(tr("classroom.mistakes_heading"))
        st.markdown("\n".join(
            "- " + tr("classroom.mistake_count", mistake=tr(f"classroom.mistake.{code}"),
                      count=count) for code, count in summary.mistakes[:6]))
    st.markdown(tr("classroom.first_wrong_heading"))
    st.vega_lite_chart(classroom.first_wrong_chart(summary.first_wrong, state.lang()),
                       width="stretch")
    code, key, lang = session[classroom.CODE], session[classroom.KEY], state.lang()
    st.download_button(tr("classroom.export"), key="class_export", icon=":material/download:",
                       data=lambda: check_csv(*classroom.room().check_submissions(code, key),
                                              lang),
                       file_name=f"class-{code}.csv", mime="text/csv",
                       help=tr("classroom.export_help"))


def _practice(summary: Summary) -> None:
    exercise = summary.state.data.exercise()
    st.markdown(tr("classroom.practice_set", seed=str(exercise.seed),
                   level=tr(f"practice.level_in_sentence.{exercise.level}")))
    rows = []
    for index, question in enumerate(exercise.questions):
        answered, right = summary.practice.get(index, (0, 0))
        cell = ({} if question.cell is None else
                {"row": num(question.cell[0]), "col": num(question.cell[1])})
        rows.append({tr("classroom.question_column"): tr("classroom.question_name",
                                                         number=num(index + 1),
                                                         name=tr(f"practice.short.{question.kind}",
                                                                 **cell)),
                     tr("classroom.answered_column"): answered,
                     tr("classroom.right_column"): right,
                     tr("classroom.score_column"): percent(right / answered, 0) if answered
                     else "—"})
    st.dataframe(rows, hide_index=True, width="stretch")


@st.fragment(run_every=classroom.TEACHER_REFRESH_S)
def _live() -> None:
    show_error(session.pop("class_problem", None))  # from a button inside this fragment
    try:
        summary = classroom.room().summary(session[classroom.CODE], session[classroom.KEY])
    except ClassError as problem:
        show_error(problem)
        return
    class_state = summary.state
    st.metric(tr("classroom.students_joined"), num(class_state.students))
    if class_state.activity is None:
        st.info(tr("classroom.none_open"), icon=":material/hourglass_empty:")
    elif class_state.activity == "guess":
        _guess(summary)
    elif class_state.activity == "check":
        _check(summary)
    else:
        _practice(summary)
    if summary.nicknames:
        with st.expander(tr("classroom.nicknames", count=len(summary.nicknames))):
            # Text cells: a nickname is shown as typed, never read as markup.
            st.dataframe({tr("classroom.nickname_column"): summary.nicknames},
                         hide_index=True, width="stretch")


def _class_view(current: ClassState) -> None:
    classroom.keep_in_url(teacher=True)
    # While nobody answers, joining is what the room needs to see; once an activity is open,
    # the answers are, and the join block folds away (students still join from it).
    with st.expander(tr("classroom.how_to_join"), icon=":material/qr_code_2:",
                     expanded=current.activity is None):
        _header(current)
        st.warning(tr("classroom.keep_key"), icon=":material/key:")
    _controls(current)
    _live()
    st.divider()
    with st.expander(tr("classroom.manage"), icon=":material/settings:"):
        st.markdown(tr("classroom.data_now", count=current.data.result().n,
                       round=num(current.round)))
        st.button(tr("classroom.use_current"), key="class_use_current", on_click=_use_current,
                  icon=":material/sync:", help=tr("classroom.use_current_help"))
        st.caption(tr("classroom.expires", count=round(
            max(0.0, current.expires_at - classroom.room().now()) / 3600, 1)))
        confirm = st.checkbox(tr("classroom.delete_confirm"), key="class_delete_confirm")
        st.button(tr("classroom.delete"), key="class_delete", on_click=_delete,
                  disabled=not confirm, icon=":material/delete_forever:")


def _teacher_class() -> ClassState | None:
    """The class this session teaches, or ``None`` (none yet, or its link is not a teacher's:
    then it is forgotten, and the address bar loses the key)."""
    if classroom.CODE not in session or classroom.KEY not in session:
        return None
    try:
        return classroom.room().teacher(session[classroom.CODE], session[classroom.KEY])
    except ClassError as refused:
        show_error(refused)
        classroom.leave()
        return None


st.title(tr("classroom.teach_title"))
show_error(session.pop("class_problem", None))
current = _teacher_class()
if current is None:
    _start_form()
else:
    _class_view(current)
