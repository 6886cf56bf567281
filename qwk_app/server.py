"""A throwaway app server: ``streamlit run app.py`` on a free loopback port, in a subprocess.

The browser tests, the classroom load bench (and a launcher) need the same thing: the real app
served as ``make run`` serves it, on a port nobody else uses, ready before the first request and
gone afterwards whatever happened in between::

    with serving() as server:
        urllib.request.urlopen(f"{server.url}/?lang=es")

*Ready* means ``/_stcore/health`` answers ``ok``: Streamlit's own readiness probe, which answers
once the server has started and is accepting sessions. *Gone* means the process started here has
ended, stopped by its pid: SIGTERM first, SIGKILL after a grace period. On POSIX the server leads
its own process group, so anything it started goes with it, and a Ctrl+C in the terminal reaches
only the caller, whose ``with`` block then stops the server.

The address is always loopback (127.0.0.1): a throwaway server is never reachable from outside.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import ROOT

HOST = "127.0.0.1"
HEALTH_PATH = "/_stcore/health"
#: Options every throwaway server runs with: no browser to open, no usage statistics sent, and no
#: file watcher (others may edit the checkout while it runs; a watcher would reload the app and
#: show "source changed" banners mid-test).
DEFAULT_OPTIONS: Mapping[str, str] = {
    "server.headless": "true",
    "browser.gatherUsageStats": "false",
    "server.fileWatcherType": "none",
}
#: How long a stop waits after SIGTERM before it kills the process.
STOP_GRACE_SECONDS = 10.0


class ServerError(RuntimeError):
    """The server exited or did not become ready; the message ends with its last output."""


def healthy(url: str) -> bool:
    """Whether the Streamlit server at ``url`` (``http://host:port``) answers its health probe
    with ``ok`` right now."""
    try:
        with urllib.request.urlopen(url + HEALTH_PATH, timeout=2) as response:
            return bool(response.read().strip() == b"ok")
    except OSError:
        return False


@dataclass
class Server:
    """A running ``streamlit run app.py``: its process, port and log file."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    #: Whether the log is a temporary file of ours, deleted when the server stops.
    owns_log: bool = field(default=False, repr=False)
    #: When the process was started (``time.perf_counter()``): a benchmark times the start-up.
    started: float = field(default_factory=time.perf_counter)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def url(self) -> str:
        """The base URL, without a trailing slash: ``http://127.0.0.1:<port>``."""
        return f"http://{HOST}:{self.port}"

    def output(self, limit: int = 4000) -> str:
        """The last ``limit`` characters the server printed (for error messages)."""
        try:
            return self.log.read_text(errors="replace")[-limit:]
        except OSError:
            return ""

    def healthy(self) -> bool:
        """Whether the health probe answers ``ok`` right now."""
        return healthy(self.url)

    def wait_ready(self, timeout: float) -> None:
        """Return once the health probe answers; raise :class:`ServerError` if the process exits
        first or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while not self.healthy():
            if self.process.poll() is not None:
                raise ServerError(f"streamlit exited with status {self.process.returncode}:\n"
                                  f"{self.output()}")
            if time.monotonic() > deadline:
                raise ServerError(f"no answer from {self.url}{HEALTH_PATH} within {timeout:g} s:"
                                  f"\n{self.output()}")
            time.sleep(0.2)

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """End the process (on POSIX, its process group) by its pid; safe to call twice."""
        if self.process.poll() is None:
            self._end(kill=False)
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._end(kill=True)
                self.process.wait(timeout=grace)
        if self.owns_log:
            self.log.unlink(missing_ok=True)

    def _end(self, *, kill: bool) -> None:
        try:
            if os.name == "posix":  # the group the server leads: its id is the server's pid
                os.killpg(self.process.pid, signal.SIGKILL if kill else signal.SIGTERM)
            elif kill:
                self.process.kill()
            else:
                self.process.terminate()
        except ProcessLookupError:
            pass  # it ended on its own in the meantime


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


#: What :func:`start` runs unless told otherwise: the app as ``make run`` serves it, without the
#: warm-up.
APP_COMMAND = (sys.executable, "-m", "streamlit", "run", "app.py")


def start(*, port: int | None = None, log: Path | None = None, timeout: float = 60.0,
          options: Mapping[str, str] | None = None,
          command: Sequence[str] = APP_COMMAND,
          env: Mapping[str, str] | None = None) -> Server:
    """Start ``command`` (``streamlit run app.py``) on ``port`` (default: a free one) and wait until
    it is ready.

    Parameters
    ----------
    port : int, optional
        The loopback port to serve on; a free one when not given.
    log : Path, optional
        Where the server's output goes; a temporary file, deleted on :meth:`Server.stop`, when
        not given.
    timeout : float
        Seconds to wait for the health probe (a cold start imports numpy, pandas and streamlit).
    options : mapping, optional
        More Streamlit options (``{"server.maxUploadSize": "50"}``), given as ``--key value``;
        they override :data:`DEFAULT_OPTIONS`.
    command : sequence of str
        The program and its arguments before the options, run from :data:`ROOT`: any command
        that takes Streamlit's ``--server.port`` and ``--server.address`` (the warm launcher
        ``python -m qwk_app.launch``, or ``streamlit run`` of another script for a benchmark).
    env : mapping, optional
        Environment variables set for the server on top of this process's (``QWK_CLASS_DB``:
        the class database several servers share).

    Returns
    -------
    Server
        A ready server; the caller stops it (:func:`serving` does so itself).

    Raises
    ------
    ServerError
        The server exited or did not answer in time; it has been stopped.
    """
    port = port or free_port()
    owns_log = log is None
    if log is None:
        handle, name = tempfile.mkstemp(prefix=f"qwk-streamlit-{port}-", suffix=".log")
        os.close(handle)
        log = Path(name)
    arguments = [*command, "--server.port", str(port), "--server.address", HOST]
    for key, value in {**DEFAULT_OPTIONS, **(options or {})}.items():
        arguments += [f"--{key}", value]
    with open(log, "wb") as sink:
        process = subprocess.Popen(arguments, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=os.name == "posix",
                                   env={**os.environ, **env} if env else None)
    server = Server(process, port, log, owns_log)
    try:
        server.wait_ready(timeout)
    except BaseException:  # a timeout, an exit, or Ctrl+C while waiting: never leave it running
        server.stop()
        raise
    return server


@contextmanager
def serving(*, port: int | None = None, log: Path | None = None, timeout: float = 60.0,
            options: Mapping[str, str] | None = None,
            command: Sequence[str] = APP_COMMAND,
            env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A ready server for the ``with`` block, stopped when the block ends, however it ends.

    Takes the arguments of :func:`start`.
    """
    server = start(port=port, log=log, timeout=timeout, options=options, command=command,
                   env=env)
    try:
        yield server
    finally:
        server.stop()
