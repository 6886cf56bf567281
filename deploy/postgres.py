"""A throwaway PostgreSQL server: Debian's ``initdb`` and ``pg_ctl`` on a loopback port, in a
temporary folder, gone when the ``with`` block ends.

The lecture set on one machine (``make serve-lecture``), its test and the classroom load bench
need one database that several app servers share; a real deployment points ``QWK_CLASS_DB`` at
its own PostgreSQL instead (the README says how). PostgreSQL refuses to run as root, so when this
process is root the cluster belongs to the ``postgres`` system user that Debian's package creates.

The cluster trusts every connection, which is safe only because it listens on 127.0.0.1 alone and
its socket folder is private. ``synchronous_commit=off``: a commit does not wait for the disk (a
killed app server loses nothing the database acknowledged; only a power cut could lose the last
fraction of a second), as SQLite's ``synchronous=NORMAL`` in WAL mode, so the two are compared on
the same footing.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from qwk_app.server import HOST, free_port

DATABASE = "classes"
SUPERUSER = "qwk"
#: Where Debian installs each major version's programs (not on PATH).
DEBIAN_BIN = Path("/usr/lib/postgresql")
START_TIMEOUT_S = 60


class PostgresError(RuntimeError):
    """PostgreSQL is missing, or the cluster would not start."""


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (the newest Debian version, else PATH)."""
    versions = sorted((p for p in DEBIAN_BIN.glob("*/bin") if (p / "initdb").exists()),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if versions:
        return versions[-1]
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def available() -> bool:
    return binaries() is not None


@dataclass
class Cluster:
    """A running cluster: its folder, port and the SQLAlchemy URL of its database."""

    folder: Path
    port: int
    bin: Path
    user: str | None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@{HOST}:{self.port}/{DATABASE}"

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "postgres.log"

    def run(self, *arguments: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bin / arguments[0]), *arguments[1:]], user=self.user,
                              capture_output=True, text=True, check=check, timeout=120,
                              stdin=subprocess.DEVNULL)

    def stop(self) -> None:
        """Stop the server and delete its folder. Immediately: nothing of it is kept, so the
        shutdown checkpoint (a minute of fsync once a test suite has made many tables) is
        skipped."""
        if (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w",
                     check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start(folder: Path | None = None) -> Cluster:
    """Create and start a cluster with an empty ``classes`` database; raise PostgresError."""
    programs = binaries()
    if programs is None:
        raise PostgresError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    user = "postgres" if os.geteuid() == 0 else None
    base = Path(tempfile.mkdtemp(prefix="qwk-postgres-", dir=folder))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(base, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(base, free_port(), programs, user)
    try:
        cluster.run("initdb", "-D", str(cluster.data), "-U", SUPERUSER, "--auth=trust",
                    "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
        options = (f"-p {cluster.port} -c listen_addresses={HOST} -k {base} "
                   "-c synchronous_commit=off -c max_connections=200")
        started = cluster.run("pg_ctl", "start", "-D", str(cluster.data), "-l", str(cluster.log),
                              "-w", "-t", str(START_TIMEOUT_S), "-o", options, check=False)
        if started.returncode != 0:
            raise PostgresError(f"pg_ctl start failed: {started.stderr}{_tail(cluster.log)}")
        cluster.run("createdb", "-h", HOST, "-p", str(cluster.port), "-U", SUPERUSER, DATABASE)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-2000:]
    except OSError:
        return ""


@contextmanager
def running(folder: Path | None = None) -> Iterator[Cluster]:
    """A cluster for the ``with`` block, stopped and deleted when it ends."""
    cluster = start(folder)
    try:
        yield cluster
    finally:
        cluster.stop()
