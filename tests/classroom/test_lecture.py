"""The lecture set for real: app servers started as ``make serve-lecture`` starts them, students
and a teacher speaking Streamlit's websocket protocol as browsers do (``bench.classroom_load``).

On one server and its SQLite file; and on three servers behind nginx sharing a throwaway
PostgreSQL, where one server is killed in the middle of the class: its students reconnect
through nginx to another server, and the class database (read back by the bench, not by the
pages) holds every acknowledged answer exactly once. No timing is asserted: the figures are
the benchmark's job."""

from __future__ import annotations

import subprocess

import pytest

from bench.classroom_load import ACTUAL, PREDICTED, STUDENT_POLL_S, run_class
from bench.load_classroom import Browser
from deploy import nginx, postgres
from deploy.lecture import lecture
from qwk_class.classroom import ClassData, Classroom
from qwk_class.store import Store
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_number
from tests.browser.helpers import skip_or_fail

pytestmark = pytest.mark.slow


def test_the_nginx_configuration_is_one_nginx_accepts(tmp_path) -> None:
    if not nginx.available():
        skip_or_fail("nginx is not installed: `make os-packages` installs it")
    text = nginx.configuration("127.0.0.1:8501", ["127.0.0.1:9001", "127.0.0.1:9002"],
                               tmp_path, None)
    assert "hash $qwk_route consistent" in text
    assert "proxy_set_header Upgrade $http_upgrade" in text
    assert "proxy_read_timeout 86400s" in text
    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / name).mkdir()
    (tmp_path / "nginx.conf").write_text(text)
    checked = subprocess.run([nginx.program(), "-t", "-p", str(tmp_path), "-c",
                              str(tmp_path / "nginx.conf")], capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stderr


def test_a_class_on_one_server_and_its_sqlite_file() -> None:
    report = run_class(6, 1, think=0.3, timeout=60, global_timeout=240, warm=False)
    assert not report.errors, report.table()
    assert not report.lost and report.counted_twice == 0, report.table()
    assert len(report.submit_seconds) == 12 and report.teacher_seconds, report.table()


def test_a_server_killed_mid_class_loses_no_answer_and_counts_none_twice() -> None:
    if not (nginx.available() and postgres.available()):
        skip_or_fail("nginx and PostgreSQL are needed: `make os-packages` installs them")
    report = run_class(9, 3, think=0.5, timeout=60, global_timeout=300, kill_after=3,
                       warm=False)
    print(report.table())  # pytest -s shows what happened: who reconnected, the times
    assert report.killed is not None
    assert not report.errors, report.table()
    assert not report.lost and report.counted_twice == 0, report.table()
    assert report.reconnects >= 1, report.table()  # the killed server's students came back
    assert len(report.submit_seconds) == 18, report.table()


def test_a_students_page_follows_the_teacher_by_runs_of_its_activity_fragment_alone() -> None:
    """Right after the teacher opens an activity, every waiting student's page picks it up at
    once: each must be one run of the activity's fragment, not a run of the whole app (the
    frame, the page, then the fragment), or a hundred of them bury the teacher's view. A Send
    reruns that fragment alone too; a deleted class takes the whole page back to the join form.
    """
    with lecture(1, warm=False) as running:
        store = Store(running.database)
        store.migrate()  # as the server does on its first page run (idempotent)
        room = Classroom(store)
        started = room.start(ClassData(ACTUAL, PREDICTED), "test")
        browser = Browser(0, 60, base=running.url)
        try:
            view = browser.rerun(f"class={started.code}&lang=es", page="join", timeout=60)
            ids = view.widget_ids
            view = browser.rerun(widgets={ids["class_nickname_input"]: "Ana"},
                                 click=ids["class_join"], timeout=60)
            assert not view.problems and not view.fragment_run
            [(fragment, interval)] = view.fragments.items()
            assert interval == STUDENT_POLL_S

            waiting = browser.rerun(fragment=fragment, timeout=60)
            assert waiting.fragment_run and waiting.reruns == 0 and not waiting.widget_ids

            room.open(started.code, started.key, "guess")
            opened = browser.rerun(fragment=fragment, timeout=60)
            assert opened.fragment_run and opened.reruns == 0, "the whole app ran again"
            assert {"class_guess_input", "class_guess_send"} <= set(opened.widget_ids)

            sent = browser.rerun(widgets={opened.widget_ids["class_guess_input"]: "0,5"},
                                 click=opened.widget_ids["class_guess_send"], timeout=60)
            assert sent.fragment_run and sent.reruns == 0 and not sent.problems
            assert any(t("es", "classroom.guess_in", guess=format_number(0.5, "es")) in note
                       for note in sent.notes), sent.notes
            assert room.summary(started.code, started.key).guesses == [0.5]

            room.delete(started.code, started.key)
            gone = browser.rerun(fragment=fragment, timeout=60)
            assert not gone.fragment_run and gone.reruns == 1
            assert "class_join" in gone.widget_ids and gone.problems  # "not in this class"
        finally:
            browser.close()
