"""The class pages in AppTest, in every language: a teacher starts a class, students join and
answer, the teacher's view counts them; and what a student's session can never open. Checked
against the class's own database (a SQLite file per test) and the engine's kappa."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from qwk_app.text import escape_markdown
from qwk_class import codes
from qwk_class.classroom import ClassData, Classroom, Started
from qwk_class.store import DATABASE_ENV, Store
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from tests.app.helpers import assert_clean, open_app

LANGS = list(LANGUAGES)


@pytest.fixture
def room(tmp_path, monkeypatch) -> Classroom:
    """The database the app's pages use in this test (QWK_CLASS_DB), opened here as well."""
    url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    monkeypatch.setenv(DATABASE_ENV, url)
    store = Store(url)
    store.migrate()
    return Classroom(store)


def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "success",
                                               "warning", "error", "code", "metric")
                     for e in at.get(kind) if hasattr(e, "value"))


def _start(lang: str) -> AppTest:
    at = open_app("teach", lang=lang)
    assert_clean(at)
    at.button(key="class_start_current").click().run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("lang", LANGS)
def test_a_teacher_starts_a_class_and_sees_its_link_and_code(room: Classroom,
                                                             lang: str) -> None:
    at = _start(lang)
    code, key = at.query_params["class"], at.query_params["key"]
    state = room.teacher(code, key)  # the key in the teacher's own address opens the class
    assert state.activity is None
    shown = _texts(at)
    assert codes.show_code(code) in shown
    link = next(e.value for e in at.get("code") if "/join?" in e.value)
    assert link.endswith(f"/join?class={code}") and key not in link
    assert t(lang, "classroom.keep_key") in shown
    assert at.get("image"), "no QR code"


@pytest.mark.parametrize("lang", LANGS)
def test_a_student_joins_guesses_and_the_teacher_counts_it(room: Classroom, lang: str) -> None:
    teacher = _start("en")
    code, key = teacher.query_params["class"], teacher.query_params["key"]
    student = open_app("join", lang=lang, **{"class": code})
    assert_clean(student)
    assert student.text_input(key="class_code_input").value == codes.show_code(code)
    student.text_input(key="class_nickname_input").input("<b>Ana</b>")
    student.button(key="class_join").click().run()
    assert_clean(student)
    token = student.query_params["me"]
    assert room.student(code, token).nickname == "<b>Ana</b>"
    assert t(lang, "classroom.wait") in _texts(student)
    teacher.button(key="class_open_guess").click().run()
    student.run()
    student.text_input(key="class_guess_input").input("0" + ("," if lang in ("es", "tr")
                                                             else ".") + "5")
    student.button(key="class_guess_send").click().run()
    assert_clean(student)
    assert room.summary(code, key).guesses == [0.5]
    teacher.run()
    assert t("en", "classroom.guesses_in", count=1, students="1") in _texts(teacher)
    teacher.button(key="class_reveal").click().run()
    student.run()
    kappa = room.summary(code, key).kappa
    assert kappa is not None
    from qwk_explained.present.numbers import format_number
    assert t(lang, "classroom.revealed_student", kappa=format_number(kappa, lang)) \
        in _texts(student)


EXAMPLE = ClassData("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")  # kappa = -0.139...


def _student_in(room: Classroom, lang: str, activity: str = "check") -> tuple[Started, AppTest]:
    """A class on the README's example with ``activity`` open, and a student who joined it."""
    started = room.start(EXAMPLE, "t")
    room.open(started.code, started.key, activity)
    student = open_app("join", lang=lang, **{"class": started.code})
    student.text_input(key="class_nickname_input").input("Ben")
    student.button(key="class_join").click().run()
    return started, student


@pytest.mark.parametrize("lang", LANGS)
def test_a_student_checks_values_and_gets_the_checkers_verdict(room: Classroom,
                                                               lang: str) -> None:
    started, student = _student_in(room, lang)
    student.text_input(key="class_check_kappa").input("0.79")
    student.button(key="class_check_send").click().run()
    assert_clean(student)
    summary = room.summary(started.code, started.key)
    assert summary.checks == 1 and summary.steps[7].wrong == 1
    student.text_input(key="class_check_kappa").input("abc")
    student.button(key="class_check_send").click().run()
    assert_clean(student)
    assert student.error, "an unreadable value gets a message"
    assert room.summary(started.code, started.key).checks == 1  # the bad one stored nothing


@pytest.mark.parametrize("lang", LANGS)
def test_a_value_too_coarse_is_neither_right_nor_wrong_for_the_student(room: Classroom,
                                                                       lang: str) -> None:
    started, student = _student_in(room, lang)
    student.text_input(key="class_check_kappa").input("-0.1")
    student.button(key="class_check_send").click().run()
    assert_clean(student)
    shown = _texts(student)
    assert t(lang, "checker.summary_too_coarse", count=1) in shown
    assert escape_markdown(t(lang, "checker.too_coarse.decimals", count=2)) in shown
    assert t(lang, "checker.summary_all_right", count=1) not in shown
    step = room.summary(started.code, started.key).steps[7]
    assert (step.right, step.too_coarse, step.wrong) == (0, 1, 0)
    student.text_input(key="class_check_kappa").input("-0.14")
    student.button(key="class_check_send").click().run()
    assert t(lang, "checker.summary_all_right", count=1) in _texts(student)
    step = room.summary(started.code, started.key).steps[7]
    assert (step.right, step.too_coarse, step.wrong) == (1, 0, 0)


@pytest.mark.parametrize("lang", LANGS)
def test_a_student_practises_with_a_choice_and_digits_enough(room: Classroom, lang: str) -> None:
    started, student = _student_in(room, lang, "practice")
    questions = EXAMPLE.exercise().questions
    compare = next(i for i, q in enumerate(questions) if q.kind == "compare")
    kappa = next(i for i, q in enumerate(questions) if q.kind == "kappa")
    choice = student.radio(key=f"class_practice_{compare}_input")
    assert choice.value is None and list(choice.options) == [
        t(lang, "practice.prediction_a"), t(lang, "practice.prediction_b")]
    student.button(key=f"class_practice_{compare}_send").click().run()
    assert t(lang, "practice.problem_no_choice") in _texts(student)
    student.radio(key=f"class_practice_{compare}_input").set_value(
        questions[compare].correct_choice)
    student.button(key=f"class_practice_{compare}_send").click().run()
    assert t(lang, "practice.right") in _texts(student)
    student.text_input(key=f"class_practice_{kappa}_input").input(
        "0,6" if lang == "es" else "0.6")  # kappa is 0.5714...: too few digits to judge
    student.button(key=f"class_practice_{kappa}_send").click().run()
    assert_clean(student)
    assert t(lang, "checker.too_coarse.decimals", count=2) in _texts(student)
    assert room.summary(started.code, started.key).practice == {compare: (1, 1)}


@pytest.mark.parametrize("lang", LANGS)
def test_the_teachers_view_of_a_check_and_of_practice(room: Classroom, lang: str) -> None:
    at = _start(lang)
    code, key = at.query_params["class"], at.query_params["key"]
    student, _ = room.join(code, "Cem", "s")
    at.button(key="class_open_check").click().run()
    room.submit_check(student, {"kappa": "0.5", "numerator": "0.45"}, "en")
    at.run()
    assert_clean(at)
    assert at.dataframe, "the per-step table"
    assert at.get("vega_lite_chart") or at.get("arrow_vega_lite_chart"), "first wrong steps"
    at.button(key="class_open_practice").click().run()
    room.submit_practice(student, 0, "1", "en")
    at.run()
    assert_clean(at)
    assert room.teacher(code, key).activity == "practice"


def test_a_students_token_never_opens_the_teachers_view(room: Classroom) -> None:
    started = room.start(ClassData("1,2,3", "1,2,2"), "t")
    room.open(started.code, started.key, "guess")
    _, token = room.join(started.code, "Eve", "s")
    for params in ({"class": started.code, "key": token}, {"class": started.code, "me": token},
                   {"class": started.code}, {"class": started.code, "key": "x" * 32}):
        at = open_app("teach", lang="en", **params)
        assert_clean(at)
        assert at.query_params.get("key") in (None, []), params
        assert not at.dataframe and not at.button(key="class_start_current").disabled
        assert codes.show_code(started.code) not in _texts(at)


def test_a_student_of_one_class_cannot_open_another(room: Classroom) -> None:
    first = room.start(ClassData("1,2,3", "1,2,2"), "t")
    second = room.start(ClassData("1,2,3", "1,2,2"), "t")
    _, token = room.join(first.code, "Eve", "s")
    at = open_app("join", lang="en", **{"class": second.code, "me": token})
    assert_clean(at)
    assert t("en", "classroom.errors.not_student") in _texts(at)
    assert at.text_input(key="class_nickname_input").value in ("", None)


def test_the_share_box_never_carries_a_secret(room: Classroom) -> None:
    """The sidebar's share link of any page, opened with a class's secrets in its address."""
    at = open_app("checker", lang="en", key="k" * 32, me="m" * 24, **{"class": "ABCDEFGHJK"})
    assert_clean(at)
    shared = [e.value for e in at.sidebar.get("code")]
    assert shared and all("k" * 32 not in s and "m" * 24 not in s for s in shared)
