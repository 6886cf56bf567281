"""A class in real browsers: the teacher on a projector (1280 x 720 at 150 %, presenter mode),
two students on phones in Spanish and Chinese. The teacher starts a class, the students join
from its link and answer; the teacher's view counts them by itself (no click), and the
students' pages follow the teacher's reveal by themselves. A server of its own, on a SQLite
file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from qwk_app.server import serving
from qwk_class.store import DATABASE_ENV
from qwk_explained.core.steps import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_number
from tests.browser.helpers import (
    HEALTH_TIMEOUT_S,
    PHONE,
    RUN_TIMEOUT_MS,
    SCREENSHOTS,
    SEED_ACTUAL,
    SEED_PREDICTED,
    App,
)

pytestmark = pytest.mark.browser
PROJECTOR = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def class_url(tmp_path_factory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("classes") / "classes.sqlite3"
    with serving(timeout=HEALTH_TIMEOUT_S, env={DATABASE_ENV: f"sqlite:///{database}"}) as server:
        yield server.url


def _tab(browser: Any, url: str, viewport: dict[str, int], scale: float, lang: str,
         contexts: list[Any]) -> App:
    context = browser.new_context(viewport=viewport, device_scale_factor=scale,
                                  locale={"en": "en-US", "es": "es-ES", "zh": "zh-CN"}[lang],
                                  has_touch=viewport is PHONE, is_mobile=viewport is PHONE)
    contexts.append(context)
    return App(context.new_page(), url)


def _button(app: App, label: str) -> Any:
    return app.page.get_by_role("button", name=label).first


def test_a_class_of_two_students_seen_live_by_the_teacher(browser: Any, class_url: str) -> None:
    contexts: list[Any] = []
    try:
        teacher = _tab(browser, class_url, PROJECTOR, 1.5, "en", contexts)
        teacher.open("/teach?lang=en&present=1")
        _button(teacher, t("en", "classroom.start_current")).click()
        teacher.page.wait_for_function("() => new URLSearchParams(location.search).has('key')",
                                       timeout=RUN_TIMEOUT_MS)
        code = teacher.query()["class"]
        teacher.settle()
        qr = teacher.page.get_by_role("img", name=t("en", "share.qr_alt", link="x")[:10]).first
        assert qr.bounding_box()["width"] >= 300, "the QR must be large on a projector"

        students = []
        for nickname, lang in (("Ana", "es"), ("小李", "zh")):
            student = _tab(browser, class_url, PHONE, 3, lang, contexts)
            student.open(f"/join?class={code}&lang={lang}")
            student.type_into(t(lang, "classroom.nickname_label"), nickname)
            _button(student, t(lang, "classroom.join")).click()
            student.page.get_by_text(t(lang, "classroom.wait")).wait_for(timeout=RUN_TIMEOUT_MS)
            assert "key" not in student.query() and student.query()["me"]
            students.append((student, lang))

        metric = teacher.metric(t("en", "classroom.students_joined"))
        teacher.page.wait_for_function(
            "el => el.innerText.trim() === '2'", arg=metric.element_handle(),
            timeout=RUN_TIMEOUT_MS)  # no click: the view refreshed itself

        _button(teacher, t("en", "classroom.activity.guess")).click()
        for student, lang in students:  # their pages follow the teacher by themselves
            box = student.textbox(t(lang, "classroom.guess_label"))
            box.wait_for(timeout=RUN_TIMEOUT_MS)
            box.fill("0,5" if lang == "es" else "0.5")
            box.press("Enter")
            student.settle()
            _button(student, t(lang, "classroom.send")).click()
            student.settle()
        teacher.page.get_by_text(t("en", "classroom.guesses_in", count=2, students="2")).wait_for(
            timeout=RUN_TIMEOUT_MS)
        teacher.settle()
        SCREENSHOTS.mkdir(exist_ok=True)  # what the room sees, to look at (not compared)
        teacher.page.screenshot(path=SCREENSHOTS / "class_teacher_projector.png")
        students[0][0].page.screenshot(path=SCREENSHOTS / "class_student_phone.png")
        _button(teacher, t("en", "classroom.reveal")).click()
        kappa = walkthrough(SEED_ACTUAL, SEED_PREDICTED).kappa  # what the teacher had on screen
        for student, lang in students:
            shown = t(lang, "classroom.revealed_student", kappa=format_number(kappa, lang))
            student.page.get_by_text(shown).first.wait_for(timeout=RUN_TIMEOUT_MS)
            student.assert_clean()
        teacher.settle()
        teacher.assert_clean()
    finally:
        for context in contexts:
            context.close()
