"""Class sessions against real databases: a SQLite file in a temporary folder, and a throwaway
PostgreSQL cluster (Debian's ``initdb``/``pg_ctl`` on a free loopback port) shared by the tests
of one worker. Every test starts from empty tables (a fresh SQLite file, or the worker's own
cluster emptied), so tests can run in parallel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from deploy import postgres
from qwk_class.classroom import Classroom
from qwk_class.store import Store, attempts, classes, students, submissions
from tests.browser.helpers import skip_or_fail


@pytest.fixture(scope="session")
def cluster() -> Iterator[postgres.Cluster]:
    if not postgres.available():
        skip_or_fail("PostgreSQL is not installed: `make os-packages` installs it")
    with postgres.running() as running:
        yield running


TABLES = (submissions, students, attempts, classes)


class Clock:
    """A clock the test moves by hand (expiry, rate-limit windows)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path, clock: Clock) -> Iterator[Store]:
    """A migrated, empty store on SQLite (a new file) or on PostgreSQL (the worker's cluster,
    every table emptied), with the test's clock."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    else:
        url = request.getfixturevalue("cluster").url
    opened = Store(url, clock=clock)
    opened.migrate()
    if not opened.sqlite:
        with opened.write() as db:
            db.execute(sa.text("TRUNCATE " + ", ".join(t.name for t in TABLES)
                               + " RESTART IDENTITY CASCADE"))
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def room(store: Store) -> Classroom:
    return Classroom(store)
