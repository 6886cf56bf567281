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

from bench.classroom_load import run_class
from deploy import nginx, postgres
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
