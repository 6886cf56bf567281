"""The store on real SQLite and real PostgreSQL: the schema is created and migrated once, answers
are upserted, every value travels as a bound parameter. Checked against the databases themselves
(their catalogues and PRAGMAs), not against a mock."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from qwk_class import store as store_module
from qwk_class.store import SCHEMA_VERSION, Store, schema_version, submissions
from tests.classroom import all_at_once


def test_migration_creates_every_table_once(store: Store) -> None:
    assert store.migrate() == SCHEMA_VERSION  # a second start changes nothing
    assert store.version() == SCHEMA_VERSION
    names = set(sa.inspect(store.engine).get_table_names())
    assert {"schema_version", "classes", "students", "submissions", "attempts"} <= names
    with store.read() as db:
        assert db.execute(sa.select(sa.func.count()).select_from(schema_version)).scalar() == 1


def test_servers_starting_together_migrate_once(store: Store) -> None:
    """Three servers on one database start at the same moment (the lecture set)."""
    others = [Store(store.url.render_as_string(hide_password=False)) for _ in range(3)]
    errors = all_at_once(Store.migrate, others)
    for one in others:
        one.close()
    assert not errors
    assert store.version() == SCHEMA_VERSION


def test_a_newer_schema_is_refused(store: Store) -> None:
    with store.write() as db:
        db.execute(schema_version.update().values(version=SCHEMA_VERSION + 1))
    try:
        with pytest.raises(RuntimeError, match="newer"):
            store.migrate()
    finally:  # the next test shares this PostgreSQL database
        with store.write() as db:
            db.execute(schema_version.update().values(version=SCHEMA_VERSION))


def test_an_upsert_keeps_one_row_per_student_and_question(store: Store) -> None:
    from qwk_class.classroom import ClassData, Classroom

    room = Classroom(store)
    started = room.start(ClassData("1,2,3", "1,2,2"), "test")
    student, _ = room.join(started.code, "Ana", "test")
    row = {"student_id": student.id, "round": 1, "question": "guess",
           "class_code": started.code, "submitted_at": 1.0, "revision": 1}
    for payload in ("a", "b", "c"):
        with store.write() as db:
            store.upsert_submission(db, {**row, "payload": payload, "graded": payload})
    with store.read() as db:
        found = db.execute(sa.select(submissions.c.payload, submissions.c.revision)).all()
    assert [tuple(r) for r in found] == [("c", 3)]


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path) -> None:
    opened = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    with opened.read() as db:
        assert db.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert db.exec_driver_sql("PRAGMA busy_timeout").scalar() == store_module.SQLITE_BUSY_MS
        assert db.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    opened.close()


def test_the_default_database_is_a_file_in_the_checkout(tmp_path) -> None:
    url = store_module.default_url(tmp_path)
    assert url == f"sqlite:///{tmp_path}/.cache/classes.sqlite3"
    opened = Store(url)
    assert opened.migrate() == SCHEMA_VERSION
    assert (tmp_path / ".cache" / "classes.sqlite3").exists()
    opened.close()
