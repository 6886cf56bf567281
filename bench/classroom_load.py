"""A live class against real servers: ``python -m bench.load_classroom --class --students N
--servers K`` (this module does the work).

Starts the lecture set (:func:`deploy.lecture.lecture`): K app servers behind nginx sharing one
PostgreSQL when K > 1, one server on its SQLite file when K = 1. Then, over Streamlit's own
websocket protocol (the browser's messages, :class:`bench.load_classroom.Browser`):

1. the teacher opens ``/teach`` and starts a class (a click, as in a browser), then keeps the
   page open: its view of the answers reruns every 2 s (the fragment's timer, as a browser
   sends it), and each of those refreshes is timed;
2. N students open ``/join?class=CODE`` in the four languages, type a nickname and join; while
   nothing is open for them, their page asks every 4 s whether the teacher changed something
   (that fragment's timer too);
3. the teacher opens *Guess kappa*: every student, after a think time (uniform, mean ``think``
   seconds), types a guess and presses Send; then *Check the hand calculation*: every student
   types num, den and kappa (right, or with a classic mistake) and presses Send. While a
   student thinks, their page's fragment keeps rerunning on its timer, as a phone's does; a
   Send drawn inside a fragment reruns that fragment alone, as in the browser.

A submission is *acknowledged* when its rerun finished with the page's receipt and no error. At
the end the bench reads the class database itself: an acknowledged answer missing there, or
stored with another value, is *lost*. With ``kill_after`` (the fault test), one app server (the
one with the most open connections) is killed while the guesses arrive: its students' sockets
break, they reconnect through nginx (which sends them to another server), reload their page
from its address (which holds their class and their token) and send again what was not
acknowledged.

Prints p50/p95 of submit -> acknowledged and of the teacher's refresh, errors, lost answers,
reconnections and each server's memory, then one line:
``class: students N, servers K, p95 submit X ms, p95 teacher Y ms, errors E, lost L``.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode

import psutil
import websocket

from deploy.lecture import lecture
from qwk_class.classroom import Classroom
from qwk_class.store import Store
from qwk_explained.core.steps import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number

from .load_classroom import Browser, MemorySampler, RunView, percentile

#: The class's data: the README's worked example (n = 10, kappa = -0.1392).
ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"
TEACHER_REFRESH_S, STUDENT_POLL_S = 2.0, 4.0
MAX_RETRIES = 4


class Broken(Exception):
    """The student's connection broke (its server went away)."""


@dataclass
class Outcome:
    """Everything the class saw, shared by the threads."""

    submit_seconds: list[float] = field(default_factory=list)
    join_seconds: list[float] = field(default_factory=list)
    teacher_seconds: list[float] = field(default_factory=list)
    #: What the class is doing (``join``, ``guess``, ``check``), and each refresh's phase.
    phase: str = "join"
    teacher_phases: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: (token, question, what the database must hold: the guess, or the kappa typed)
    acked: list[tuple[str, str, str]] = field(default_factory=list)
    reconnects: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


class Phase:
    """What the teacher has opened, for the students to wait on (the page is the truth; this
    only lets the bench stop polling once everyone is done)."""

    def __init__(self) -> None:
        self.done = threading.Event()


def _code_and_key(view: RunView) -> tuple[str, str]:
    params = parse_qs(view.query_string or "")
    return params["class"][0], params["key"][0]


class Student:
    """One student's phone: a browser session through the balancer, with its route cookie."""

    def __init__(self, index: int, base: str, code: str, outcome: Outcome, timeout: float,
                 think: float) -> None:
        self.index = index
        self.lang = list(LANGUAGES)[index % len(LANGUAGES)]
        self.base, self.code, self.outcome = base, code, outcome
        self.timeout, self.think = timeout, think
        self.cookie = f"qwkroute={uuid.uuid4().hex}"
        self.rng = random.Random(index)
        self.browser: Browser | None = None
        self.query = urlencode({"class": code, "lang": self.lang})
        self.token = ""
        self.view = RunView()
        #: The page's self-refreshing fragment (announced by a full run, rerun on its timer).
        self.fragment: str | None = None
        #: When the fragment's timer last fired.
        self.ticked = time.monotonic()

    # --- the connection -------------------------------------------------------------------

    def _open(self) -> RunView:
        self.close()
        self.browser = Browser(0, self.timeout, base=self.base, cookie=self.cookie)
        return self._run(query_string=self.query, page="join")

    def _run(self, **request) -> RunView:
        if self.browser is None:
            raise Broken("no connection")
        try:
            view = self.browser.rerun(timeout=self.timeout, **request)
        except (websocket.WebSocketException, ConnectionError, OSError) as error:
            raise Broken(str(error)) from None
        if view.query_string:
            self.query = view.query_string  # the page's own address: class, token, language
        if view.fragments:
            self.fragment = next(iter(view.fragments))
        if "fragment" not in request or view.widget_ids:
            self.view = view  # a fragment's own run draws only the fragment: keep the page
        return view

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None

    def _retrying(self, action):
        """Run ``action``; when the server went away, reconnect (nginx picks a live server),
        reload the page from its address, and run it again."""
        for attempt in range(MAX_RETRIES):
            try:
                if self.browser is None:
                    self._open()
                return action()
            except Broken:
                with self.outcome.lock:
                    self.outcome.reconnects += 1
                self.close()
                time.sleep(0.5 * (attempt + 1))
        raise RuntimeError(f"student {self.index}: no server after {MAX_RETRIES} reconnections")

    # --- the class --------------------------------------------------------------------------

    def join(self) -> None:
        def act() -> None:
            view = self.view
            ids = view.widget_ids
            if not {"class_code_input", "class_nickname_input", "class_join"} <= set(ids):
                raise RuntimeError(f"student {self.index}: no join form")
            start = time.perf_counter()
            # The code as the link filled it in (the page's own field), and a nickname.
            view = self._run(widgets={ids["class_code_input"]: self.code,
                                      ids["class_nickname_input"]: f"S{self.index}"},
                             click=ids["class_join"])
            self._check(view, "join")
            self.token = parse_qs(self.query).get("me", [""])[0]
            if not self.token:
                raise RuntimeError(f"student {self.index}: joined, but no token in the address")
            with self.outcome.lock:
                self.outcome.join_seconds.append(time.perf_counter() - start)

        self._retrying(lambda: (self._open(), act()))

    def wait_for(self, widget_key: str, stop: threading.Event) -> None:
        """Poll as the page does until the activity's field shows (or the class is over)."""
        def poll() -> None:
            while widget_key not in self.view.widget_ids:
                if stop.is_set():
                    raise RuntimeError(f"student {self.index}: {widget_key} never showed")
                time.sleep(STUDENT_POLL_S)
                self.ticked = time.monotonic()
                if self.fragment is not None:
                    self._run(fragment=self.fragment)
                else:
                    self._run()

        self._retrying(poll)

    def submit(self, question: str, fields: dict[str, str], send_key: str, expected: str,
               receipt: str) -> None:
        """Type ``fields`` (by widget key) and press Send; timed until the receipt shows."""
        self._idle(self.rng.uniform(0, 2 * self.think))

        def act() -> None:
            if send_key not in self.view.widget_ids:
                self._run(query_string=self.query)  # after a reconnection: reload the page
            ids = self.view.widget_ids
            widgets = {ids[key]: value for key, value in fields.items()}
            start = time.perf_counter()
            view = self._run(widgets=widgets, click=ids[send_key])
            seconds = time.perf_counter() - start
            self._check(view, question)
            if not any(receipt in note for note in view.notes):
                raise RuntimeError(f"student {self.index}: no receipt for {question}")
            with self.outcome.lock:
                self.outcome.submit_seconds.append(seconds)
                self.outcome.acked.append((self.token, question, expected))

        self._retrying(act)

    def _idle(self, seconds: float) -> None:
        """Think for ``seconds`` while the page's fragment reruns on its timer."""
        end = time.monotonic() + seconds
        while (due := self.ticked + STUDENT_POLL_S) < end:
            time.sleep(max(0.0, due - time.monotonic()))
            self.ticked = time.monotonic()
            if self.fragment is not None and self.browser is not None:
                try:
                    self._run(fragment=self.fragment)
                except Broken:
                    self.close()  # the Send that follows reconnects
        time.sleep(max(0.0, end - time.monotonic()))

    def guess(self) -> None:
        value = round(self.rng.uniform(-1, 1), 2)
        typed = format_number(value, self.lang, 2, group=False).replace("\u2212", "-")
        self.submit("guess", {"class_guess_input": typed}, "class_guess_send", str(value),
                    t(self.lang, "classroom.guess_in", guess=format_number(value, self.lang)))

    def check(self) -> None:
        result = walkthrough(ACTUAL, PREDICTED)
        kappa = result.kappa if self.index % 3 else result.numerator / result.denominator
        typed = {"class_check_numerator": "0.45", "class_check_denominator": "0.395",
                 "class_check_kappa": f"{kappa:.4f}"}
        self.submit("check", typed, "class_check_send", f"{kappa:.4f}", "")

    def _check(self, view: RunView, what: str) -> None:
        if view.problems:
            raise RuntimeError(f"student {self.index} {what}: {view.problems[0]}")


class Teacher:
    """The teacher's laptop: starts the class, opens activities, and keeps the view refreshing
    (each refresh timed) until told to stop."""

    def __init__(self, base: str, outcome: Outcome, timeout: float) -> None:
        self.base, self.outcome, self.timeout = base, outcome, timeout
        self.cookie = f"qwkroute={uuid.uuid4().hex}"
        self.browser = Browser(0, timeout, base=base, cookie=self.cookie)
        self.lock = threading.Lock()
        view = self.browser.rerun("lang=en", page="teach", timeout=timeout)
        view = self.browser.rerun(click=view.widget_ids["class_start_current"], timeout=timeout)
        self.code, self.key = _code_and_key(view)
        self.view = view
        self.fragment = next(iter(view.fragments), None)
        self.query = view.query_string or ""

    def _reconnect(self) -> None:
        self.browser.close()
        self.browser = Browser(0, self.timeout, base=self.base, cookie=self.cookie)
        self.view = self.browser.rerun(self.query, page="teach", timeout=self.timeout)
        self.fragment = next(iter(self.view.fragments), self.fragment)
        with self.outcome.lock:
            self.outcome.reconnects += 1

    def open(self, activity: str) -> None:
        with self.lock:
            for _ in range(MAX_RETRIES):
                try:
                    self.view = self.browser.rerun(
                        click=self.view.widget_ids[f"class_open_{activity}"],
                        timeout=self.timeout)
                    self.fragment = next(iter(self.view.fragments), self.fragment)
                    return
                except (websocket.WebSocketException, ConnectionError, OSError):
                    self._reconnect()

    def refresh(self, stop: threading.Event) -> None:
        while not stop.wait(TEACHER_REFRESH_S):
            with self.lock:
                try:
                    start = time.perf_counter()
                    view = self.browser.rerun(fragment=self.fragment, timeout=self.timeout)
                    with self.outcome.lock:
                        self.outcome.teacher_seconds.append(time.perf_counter() - start)
                        self.outcome.teacher_phases.append(self.outcome.phase)
                    if view.problems:
                        self.outcome.error(f"teacher: {view.problems[0]}")
                except (websocket.WebSocketException, ConnectionError, OSError):
                    self._reconnect()
                except Exception as error:  # noqa: BLE001 - counted, the class goes on
                    self.outcome.error(f"teacher: {type(error).__name__}: {error}")

    def close(self) -> None:
        self.browser.close()


@dataclass
class ClassReport:
    students: int
    servers: int
    think: float
    submit_seconds: list[float]
    join_seconds: list[float]
    teacher_seconds: list[float]
    errors: list[str]
    lost: list[str]
    counted_twice: int
    reconnects: int
    memory: list[tuple[int, int]]  # (idle, peak) resident bytes per server
    wall_seconds: float
    killed: int | None = None
    #: CPU seconds while the class ran: each server's (``None``: killed), the load client's,
    #: and the class's own wall time, to tell a saturated core from waiting.
    server_cpu: list[float | None] = field(default_factory=list)
    client_cpu: float = 0.0
    class_seconds: float = 0.0
    #: The class's phase at each teacher's refresh (where the slow ones fall).
    teacher_phases: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"class: students {self.students}, servers {self.servers}, p95 submit "
                f"{percentile(self.submit_seconds, 95) * 1000:.0f} ms, p95 teacher "
                f"{percentile(self.teacher_seconds, 95) * 1000:.0f} ms, errors "
                f"{len(self.errors)}, lost {len(self.lost)}")

    def table(self) -> str:
        lines = [f"Class: {self.students} students, {self.servers} app server(s)"
                 + (" behind nginx on PostgreSQL" if self.servers > 1 else " on SQLite")
                 + f", think time {self.think:g} s, {os.cpu_count()} CPU cores",
                 f"{'':<28}{'count':>6}{'p50':>9}{'p95':>9}{'max':>9}"]
        by_phase = [(f"  while students {phase}", [seconds for seconds, when in zip(
            self.teacher_seconds, self.teacher_phases, strict=True) if when == phase])
            for phase in ("join", "guess", "check")]
        for name, values in (("join -> in the class", self.join_seconds),
                             ("submit -> acknowledged", self.submit_seconds),
                             ("teacher's view refresh", self.teacher_seconds), *by_phase):
            if values:
                lines.append(f"{name:<28}{len(values):>6}{percentile(values, 50):>8.3f}s"
                             f"{percentile(values, 95):>8.3f}s{max(values):>8.3f}s")
        lines.append(f"errors: {len(self.errors)}   lost answers: {len(self.lost)}   counted "
                     f"twice: {self.counted_twice}   reconnections: {self.reconnects}   "
                     f"wall time: {self.wall_seconds:.1f} s")
        lines.append("server memory (RSS): " + ", ".join(
            f"{idle / 2**20:.0f} MB idle, peak {peak / 2**20:.0f} MB" for idle, peak in
            self.memory) + (f"   (server {self.killed} killed mid-class)"
                            if self.killed is not None else ""))
        if self.class_seconds:
            lines.append(f"CPU while the class ran ({self.class_seconds:.1f} s): " + ", ".join(
                "server killed" if cpu is None else f"server {cpu:.1f} s"
                for cpu in self.server_cpu) + f", load client {self.client_cpu:.1f} s")
        lines.extend(f"  error: {e}" for e in self.errors[:10])
        lines.extend(f"  lost: {e}" for e in self.lost[:10])
        lines.append(self.line())
        return "\n".join(lines)


def _busiest(pids: list[int], ports: list[int]) -> int:
    """The server with the most established connections (from nginx: its students)."""
    def load(index: int) -> int:
        try:
            return sum(1 for c in psutil.Process(pids[index]).net_connections("tcp")
                       if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == ports[index])
        except psutil.Error:
            return 0
    return max(range(len(pids)), key=load)


def _cpu_seconds(process: psutil.Process) -> float | None:
    """User and system CPU seconds of ``process`` so far (``None`` once it is gone)."""
    try:
        times = process.cpu_times()
    except psutil.Error:
        return None
    return times.user + times.system


def run_class(students: int, servers: int, *, think: float = 3.0, timeout: float = 60.0,
              global_timeout: float = 900.0, kill_after: int | None = None,
              warm: bool = True) -> ClassReport:
    """The whole class against a fresh lecture set; ``kill_after``: kill the busiest app server
    once that many guesses are acknowledged."""
    outcome = Outcome()
    began = time.perf_counter()
    killed = None
    with lecture(servers, warm=warm) as running:
        samplers = [MemorySampler(server.pid) for server in running.servers]
        teacher = Teacher(running.url, outcome, timeout)
        idle = [sampler.rss() for sampler in samplers]
        processes = [psutil.Process(server.pid) for server in running.servers]
        client = psutil.Process()
        cpu_before = [_cpu_seconds(process) for process in processes]
        client_before = _cpu_seconds(client) or 0.0
        class_began = time.perf_counter()
        for sampler in samplers:
            sampler.start()
        stop = threading.Event()
        refresher = threading.Thread(target=teacher.refresh, args=(stop,), daemon=True)
        refresher.start()
        deadline = time.monotonic() + global_timeout
        class_ = [Student(k, running.url, teacher.code, outcome, timeout, think)
                  for k in range(students)]
        joined = threading.Barrier(students + 1)
        guessed = threading.Barrier(students + 1)
        over = threading.Event()

        def student(one: Student) -> None:
            try:
                one.join()
                _wait(joined)
                one.wait_for("class_guess_send", over)
                one.guess()
                _wait(guessed)
                one.wait_for("class_check_send", over)
                one.check()
            except Exception as error:  # noqa: BLE001 - counted, the class goes on
                outcome.error(f"student {one.index}: {type(error).__name__}: {error}")
                for barrier in (joined, guessed):
                    _wait(barrier, 0)
            finally:
                one.close()

        threads = [threading.Thread(target=student, args=(one,), daemon=True)
                   for one in class_]
        for thread in threads:
            thread.start()
        _wait(joined, global_timeout)
        outcome.phase = "guess"
        teacher.open("guess")
        if kill_after is not None:
            while time.monotonic() < deadline:
                with outcome.lock:
                    if sum(q == "guess" for _, q, _ in outcome.acked) >= kill_after:
                        break
                time.sleep(0.05)
            pids = [server.pid for server in running.servers]
            killed = _busiest(pids, [server.port for server in running.servers])
            os.killpg(pids[killed], signal.SIGKILL)
        _wait(guessed, max(1.0, deadline - time.monotonic()))
        outcome.phase = "check"
        teacher.open("check")
        for thread in threads:
            thread.join(timeout=max(0.1, deadline - time.monotonic()))
        over.set()
        if any(thread.is_alive() for thread in threads):
            outcome.error("global timeout: some students were still working")
        stop.set()
        refresher.join(timeout=timeout)
        teacher.close()
        class_seconds = time.perf_counter() - class_began
        server_cpu = [None if now is None or then is None else now - then for now, then in
                      zip([_cpu_seconds(process) for process in processes], cpu_before,
                          strict=True)]
        client_cpu = (_cpu_seconds(client) or 0.0) - client_before
        for sampler in samplers:
            sampler.stop()
        memory = [(i, max(s.peak, i)) for i, s in zip(idle, samplers, strict=True)]
        lost, twice = _audit(running.database, teacher.code, teacher.key, outcome, students)
    return ClassReport(students, servers, think, outcome.submit_seconds, outcome.join_seconds,
                       outcome.teacher_seconds, outcome.errors, lost, twice,
                       outcome.reconnects, memory, time.perf_counter() - began, killed,
                       server_cpu, client_cpu, class_seconds, outcome.teacher_phases)


def _wait(barrier: threading.Barrier, timeout: float | None = None) -> None:
    try:
        barrier.wait(timeout=timeout)
    except threading.BrokenBarrierError:
        barrier.abort()


def _audit(database: str, code: str, key: str, outcome: Outcome,
           students: int) -> tuple[list[str], int]:
    """Every acknowledged answer in the database, with the value typed; and how many answers
    the teacher's summary counts beyond one per student and question."""
    store = Store(database)
    room = Classroom(store)
    lost = []
    try:
        summary = room.summary(code, key)
        for token, question, expected in outcome.acked:
            student = room.student(code, token)
            mine = room.mine(student, summary.state.round)
            if question not in mine:
                lost.append(f"{student.nickname}: {question}")
            elif question == "guess" and \
                    abs(float(mine[question]["graded"]["value"]) - float(expected)) > 1e-9:
                lost.append(f"{student.nickname}: guess stored as another value")
            elif question == "check" and \
                    mine[question]["payload"]["answers"].get("kappa") != expected:
                lost.append(f"{student.nickname}: check stored with another kappa")
        twice = max(0, len(summary.guesses) - students) + max(0, summary.checks - students)
    finally:
        store.close()
    return lost, twice


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="A live class against real servers.")
    parser.add_argument("--class", dest="classroom", action="store_true", required=True)
    parser.add_argument("--students", type=int, nargs="+", default=[100],
                        help="class sizes, each run in turn (default 100)")
    parser.add_argument("--servers", type=int, nargs="+", default=[1],
                        help="app servers, each run in turn: 1 (SQLite) or more (nginx and "
                             "PostgreSQL); default 1")
    parser.add_argument("--think", type=float, default=3.0,
                        help="mean pause before each answer, in seconds (default 3)")
    parser.add_argument("--timeout", type=float, default=60.0, help="per-request timeout (s)")
    parser.add_argument("--global-timeout", type=float, default=900.0,
                        help="bound on one class (s)")
    args = parser.parse_args(argv)
    if not (all(1 <= n <= 400 for n in args.students) and all(1 <= k <= 8 for k in
                                                               args.servers)):
        parser.error("students 1..400, servers 1..8")
    failed = False
    lines = []
    for students in args.students:
        for servers in args.servers:
            report = run_class(students, servers, think=args.think, timeout=args.timeout,
                               global_timeout=args.global_timeout)
            print(report.table(), flush=True)
            print(flush=True)
            lines.append(report.line())
            failed |= bool(report.errors or report.lost or report.counted_twice)
    print("\n".join(lines))
    return 1 if failed else 0
