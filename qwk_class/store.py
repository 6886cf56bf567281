"""Where classes live: one schema in SQLite (a file, the default) or PostgreSQL (several servers).

One SQLAlchemy URL decides the database, as Streamlit's ``st.connection(..., type="sql")`` does:
``sqlite:///path/classes.sqlite3`` for one server (``make run`` needs nothing else), or
``postgresql+psycopg://user@host:port/db`` for several app servers behind a balancer, which must
share their classes. Everything else is the same code: the tables below, created and migrated by
:meth:`Store.migrate` (a ``schema_version`` table records how far), and statements built with
SQLAlchemy Core, so every value a stranger typed travels as a bound parameter, never in SQL text.

Why SQLAlchemy directly and not ``st.connection``: the store must run where no Streamlit script
does (the load bench, the tests, the expiry sweep), and ``SQLConnection.query`` caches its
results with ``st.cache_data`` and returns pandas frames, where a teacher's view refreshed every
two seconds needs fresh rows and a student's answer needs an upsert in a transaction. The app
keeps one :class:`Store` (one connection pool) per server process (``st.cache_resource``), which
is what ``st.connection`` would do.

SQLite is opened in WAL mode (readers never wait for the writer, the writer never waits for
readers) with a busy timeout, and every write transaction starts with ``BEGIN IMMEDIATE``: it
takes the write lock first, so two writers queue on the timeout instead of one failing at once
when it upgrades a read lock (``SQLITE_BUSY`` is not retried inside a transaction).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

#: Environment variable holding the database URL (SQLAlchemy's form).
DATABASE_ENV = "QWK_CLASS_DB"
#: Milliseconds a SQLite writer waits for another one before giving up.
SQLITE_BUSY_MS = 10_000

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("version", sa.Integer, nullable=False),
)

classes = sa.Table(
    "classes", metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
    # The data guess and check are about, and the practice set (JSON, :class:`.ClassData`).
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("round", sa.Integer, nullable=False, default=1),
    sa.Column("activity", sa.String(16), nullable=True),
    sa.Column("revealed", sa.Boolean, nullable=False, default=False),
    # Grows with every change the teacher makes: a waiting student's page compares it.
    sa.Column("version", sa.Integer, nullable=False, default=1),
)

students = sa.Table(
    "students", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_code", sa.String(16), sa.ForeignKey("classes.code", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("nickname", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
    # The flood cap: submissions in the current window.
    sa.Column("window_start", sa.Float, nullable=False),
    sa.Column("window_count", sa.Integer, nullable=False, default=0),
    sa.UniqueConstraint("class_code", "nickname", name="uq_students_class_nickname"),
)

submissions = sa.Table(
    "submissions", metadata,
    sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("question", sa.String(24), primary_key=True),
    sa.Column("class_code", sa.String(16), nullable=False, index=True),
    sa.Column("payload", sa.Text, nullable=False),  # what the student typed (JSON)
    sa.Column("graded", sa.Text, nullable=False),  # what the checker found (JSON)
    sa.Column("submitted_at", sa.Float, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False, default=1),
)

attempts = sa.Table(
    "attempts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_attempts_kind_source_at", "kind", "source", "at"),
)


def _version_1(connection: Connection) -> None:
    for table in (classes, students, submissions, attempts):
        table.create(connection, checkfirst=True)


#: The migrations, in order: migration k brings the schema from version k - 1 to version k.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_version_1,)
SCHEMA_VERSION = len(MIGRATIONS)


def default_url(root: Path) -> str:
    """The SQLite file a lone server uses: ``.cache/classes.sqlite3`` in the checkout."""
    return f"sqlite:///{root / '.cache' / 'classes.sqlite3'}"


class Store:
    """The classes' database: one engine (one pool of connections) for the whole process."""

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time) -> None:
        self.url = sa.make_url(url)
        self.clock = clock
        self.sqlite = self.url.get_backend_name() == "sqlite"
        if self.sqlite and self.url.database not in (None, "", ":memory:"):
            Path(self.url.database).parent.mkdir(parents=True, exist_ok=True)
        options: dict[str, Any] = {"pool_pre_ping": not self.sqlite}
        if not self.sqlite:
            # A server hands its pool to many script threads at once; a killed peer's
            # connections are the database's to drop, never ours to wait on.
            options.update(pool_size=8, max_overflow=8, pool_timeout=30, pool_recycle=1800)
        self.engine: Engine = sa.create_engine(self.url, **options)
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_connect)
            sa.event.listen(self.engine, "begin", _sqlite_begin)

    def close(self) -> None:
        self.engine.dispose()

    # --- transactions -----------------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A transaction that only reads (SQLite: deferred, never waits for the writer)."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that writes (SQLite: ``BEGIN IMMEDIATE``; committed on success)."""
        with self.engine.connect() as connection:
            connection = connection.execution_options(qwk_immediate=True)
            with connection.begin():
                yield connection

    # --- the schema ---------------------------------------------------------------------------

    def migrate(self) -> int:
        """Create the tables or bring them up to :data:`SCHEMA_VERSION`; the version reached.

        Safe when several servers start at once: on PostgreSQL the migration holds an advisory
        lock for its transaction, on SQLite the write lock of ``BEGIN IMMEDIATE``.
        """
        with self.write() as connection:
            if not self.sqlite:
                connection.execute(sa.text("SELECT pg_advisory_xact_lock(24240001)"))
            schema_version.create(connection, checkfirst=True)
            found = connection.execute(sa.select(schema_version.c.version)).scalar()
            current = int(found or 0)
            if current > SCHEMA_VERSION:
                raise RuntimeError(f"the class database has schema version {current}, newer "
                                   f"than this app's {SCHEMA_VERSION}: update the app")
            for migration in MIGRATIONS[current:]:
                migration(connection)
            if found is None:
                connection.execute(schema_version.insert().values(version=SCHEMA_VERSION))
            elif current != SCHEMA_VERSION:
                connection.execute(schema_version.update().values(version=SCHEMA_VERSION))
        return SCHEMA_VERSION

    def version(self) -> int:
        with self.read() as connection:
            return int(connection.execute(sa.select(schema_version.c.version)).scalar() or 0)

    # --- statements both databases share ----------------------------------------------------

    def upsert_submission(self, connection: Connection, values: Mapping[str, Any]) -> None:
        """Insert a student's answer to a question, or replace their earlier one: one row per
        (student, round, question) whatever happens, however often it is sent."""
        insert = (_pg_insert if not self.sqlite else _sqlite_insert)(submissions).values(
            **values)
        connection.execute(insert.on_conflict_do_update(
            index_elements=[submissions.c.student_id, submissions.c.round,
                            submissions.c.question],
            set_={"payload": insert.excluded.payload, "graded": insert.excluded.graded,
                  "submitted_at": insert.excluded.submitted_at,
                  "revision": submissions.c.revision + 1}))


def _pg_insert(table: sa.Table) -> Any:
    from sqlalchemy.dialects.postgresql import insert

    return insert(table)


def _sqlite_insert(table: sa.Table) -> Any:
    from sqlalchemy.dialects.sqlite import insert

    return insert(table)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy, not the driver, begins transactions (the "begin" hook below).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    # In WAL mode NORMAL loses no committed transaction when a process is killed (only on a
    # power cut), and spares an fsync on every commit.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get("qwk_immediate", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def dumps(value: Any) -> str:
    """JSON for a text column: compact, every character kept as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str) -> Any:
    return json.loads(text)

