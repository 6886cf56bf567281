"""Does the app hold up when a whole class uses it at once? A load test against the real server.

Starts ``streamlit run app.py`` on a free loopback port (``qwk_app.server``), then opens K
sessions at the same moment over Streamlit's own websocket protocol (``/_stcore/stream``, the
``BackMsg``/``ForwardMsg`` protobufs that ship with streamlit), exactly like K browsers would:

1. each session opens a shared link with its own vectors and language
   (``rerun_script`` with ``query_string="actual=...&predicted=...&lang=..."``), all at once;
2. then edits its *actual* vector E times, sending the new text as the widget state of the
   ``actual_input`` text field with the trigger of the rating form's button, as the browser sends
   the form (their ids are read from the deltas that drew them), waiting for each rerun to finish
   (``script_finished``) before the next edit, like a student typing.

For every request it measures the time from sending to the finished rerun, and checks what came
back: no exception element, no error message (every input is valid), no websocket failure or
timeout, and *no cross-talk*: the kappa and n metrics and the URL written back are exactly this
session's (``qwk_explained.walkthrough`` on its vectors, formatted by ``numbers.format_number`` for
its language). It samples the server's memory (RSS of the process and its children) throughout.

With ``--upload-mb M``, one more session opens the upload tab and uploads an M MB CSV as the class
starts editing (upload URL, multipart PUT with the XSRF cookie and header, then the uploader's new
state, as a browser does); its own wait is printed apart, its cost shows in the class's times.
With ``--paste-items P``, one more session, in a process of its own as a browser is, pastes
``--pastes`` distinct pairs of vectors of P ratings into the two rating fields while the class
edits (a long paste, as a browser sends it); likewise printed apart. With either, the class first
runs alone on a fresh server, then with that session on another (``--rounds`` times), and the
class's edit p50/p95/max are printed side by side with their ratio: what the session costs the
others, measured in one invocation so that the machine's load drifts as little as possible.

Prints p50/p95/max, errors, cross-talk, peak memory and PASS/FAIL against the classroom goal
(30 sessions x 5 edits, edit p95 < 2 s, zero errors). Loopback only; bounded by a global timeout;
the server is stopped by its pid whatever happens.

Usage, from the checkout: ``python -m bench.load_classroom [--sessions 30] [--edits 5]
[--items 200] [--think 0] [--upload-mb 0] [--paste-items 0] [--pastes 3] [--rounds 1]``;
a live class with a teacher's view and K servers:
``python -m bench.load_classroom --class --students 100 --servers 1 3``
(:mod:`bench.classroom_load`).
Like a browser, the client sends with each rerun the state of every text area, select box and
radio button on the page (the value the server last set, else the widget's default, else what the
student typed), not only the widget that changed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from urllib.parse import parse_qs, urlencode

import numpy as np
import psutil
import streamlit
import websocket
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import FileUploaderState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from qwk_app.compute import TYPED_MAX_CHARS, TYPED_MAX_RATINGS
from qwk_app.inputs import RATINGS_SUBMIT
from qwk_app.server import HOST, serving
from qwk_explained import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import random_ratings

GOAL_SESSIONS, GOAL_EDITS, GOAL_P95_SECONDS = 30, 5, 2.0
#: The widget a student edits (its element id ends with the user key).
EDITED_KEY = "actual_input"
CLASSES = 5


# --- the server ---------------------------------------------------------------------------------

def xsrf_cookie(port: int) -> str:
    """The XSRF cookie the server hands out (uploads must echo it in a header)."""
    with urllib.request.urlopen(f"http://{HOST}:{port}/_stcore/health",  # noqa: S310 - loopback
                                timeout=10) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == "_streamlit_xsrf":
                return rest.split(";", 1)[0]
    raise RuntimeError("the server set no _streamlit_xsrf cookie")


class MemorySampler(threading.Thread):
    """Peak resident memory of the server process and its children, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak = 0
        self._stop_event = threading.Event()

    def rss(self) -> int:
        try:
            total = self.process.memory_info().rss
            for child in self.process.children(recursive=True):
                try:
                    total += child.memory_info().rss
                except psutil.NoSuchProcess:
                    pass
            return total
        except psutil.NoSuchProcess:
            return 0

    def run(self) -> None:
        while not self._stop_event.wait(0.05):
            self.peak = max(self.peak, self.rss())

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=2)


# --- one browser session over the websocket ---------------------------------------------------

@dataclass
class RunView:
    """What one rerun sent back, reduced to what the checks need."""

    seconds: float = 0.0
    metrics: dict[str, list[str]] = field(default_factory=dict)
    widget_ids: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    query_string: str | None = None
    page_script_hash: str = ""
    tabs_id: str = ""  # the input panel's tabs (a widget: its value is the open tab's label)
    #: Text of every success, info and warning message (a class page's acknowledgements).
    notes: list[str] = field(default_factory=list)
    #: Fragments that rerun by themselves: id -> interval in seconds (``st.fragment(run_every)``).
    fragments: dict[str, float] = field(default_factory=dict)
    #: Whether the run that finished was a fragment's alone, and how many runs the app cut short
    #: for another one (``st.rerun``) before it.
    fragment_run: bool = False
    reruns: int = 0


class Browser:
    """A minimal Streamlit frontend: one websocket session, one rerun at a time."""

    def __init__(self, port: int, timeout: float, *, base: str | None = None,
                 cookie: str | None = None) -> None:
        self.port = port
        #: Where the page is served: the server itself, or nginx in front of several.
        self.base = base or f"http://{HOST}:{port}"
        self.ws = websocket.create_connection(
            self.base.replace("http://", "ws://", 1) + "/_stcore/stream",
            subprotocols=["streamlit"], timeout=timeout, cookie=cookie)
        self.query_string = ""
        self.page_script_hash = ""
        self.session_id = ""
        #: The values this "browser" shows in its widgets, sent back with every rerun.
        self.widget_values: dict[str, str] = {}
        #: The fragment each widget was drawn in: a click on it reruns that fragment alone.
        self.widget_fragments: dict[str, str] = {}

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing a broken socket must not hide the real error
            pass

    def rerun(self, query_string: str | None = None, widgets: dict[str, str] | None = None,
              timeout: float = 30.0,
              files: dict[str, FileUploaderState] | None = None, *, page: str | None = None,
              click: str | None = None, fragment: str | None = None) -> RunView:
        """Request a rerun (as a page load or a widget edit) and read until it has finished.

        ``page`` opens that page (its URL path); ``click`` presses the button with that id;
        ``fragment`` reruns that fragment alone, as the browser does on its timer; a click on a
        button drawn inside a fragment reruns that fragment alone too, as in the browser.
        """
        if query_string is not None:
            self.query_string = query_string
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = "" if page is not None else self.page_script_hash
        if page is not None:
            state.page_name = page
        if fragment is not None:
            state.fragment_id = fragment
            state.is_auto_rerun = True
        elif click is not None and self.widget_fragments.get(click):
            fragment = state.fragment_id = self.widget_fragments[click]
        state.context_info.locale = "en-US"
        state.context_info.timezone = "UTC"
        state.context_info.url = f"{self.base}/{page or ''}?{self.query_string}"
        self.widget_values.update(widgets or {})
        if click is not None:
            widget = state.widget_states.widgets.add()
            widget.id = click
            widget.trigger_value = True
        for widget_id, value in self.widget_values.items():
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            widget.string_value = value
        for widget_id, uploaded in (files or {}).items():
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            widget.file_uploader_state_value.CopyFrom(uploaded)
        view = RunView()
        seen: set[str] = set()
        start = time.perf_counter()
        deadline = start + timeout
        self.ws.send_binary(message.SerializeToString())
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no finished rerun within {timeout:.0f} s")
            self.ws.settimeout(remaining)
            try:
                payload = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                raise TimeoutError(f"no finished rerun within {timeout:.0f} s") from None
            msg = ForwardMsg()
            msg.ParseFromString(payload)
            kind = msg.WhichOneof("type")
            if kind == "delta":
                self._read_delta(msg, view, seen)
            elif kind == "new_session":
                self.page_script_hash = msg.new_session.page_script_hash
                self.session_id = msg.new_session.initialize.session_id
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
                view.query_string = self.query_string
            elif kind == "page_not_found":
                view.problems.append("page not found")
            elif kind == "navigation" and msg.navigation.page_script_hash:
                # With st.navigation the page run is not the main script: later reruns name it.
                self.page_script_hash = msg.navigation.page_script_hash
            elif kind == "auto_rerun":
                view.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            elif kind == "session_event" and msg.session_event.HasField(
                    "script_compilation_exception"):
                view.problems.append("script compilation exception")
            elif kind == "script_finished":
                status = msg.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.reruns += 1
                    continue  # the app asked for another run (st.rerun): wait for that one
                view.seconds = time.perf_counter() - start
                view.fragment_run = status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                if status == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    view.problems.append("finished with a compile error")
                view.page_script_hash = self.page_script_hash
                # A widget that is no longer drawn is unmounted: the browser forgets its value
                # (a fragment's run draws only the fragment).
                if fragment is None:
                    self.widget_values = {k: v for k, v in self.widget_values.items()
                                          if k in seen}
                return view

    def upload(self, widget_id: str, name: str, data: bytes, timeout: float = 60.0) -> RunView:
        """Upload a file into a file uploader, as the browser does, and wait for the rerun.

        1. ask the session for an upload URL (``file_urls_request`` -> ``file_urls_response``);
        2. PUT the file there as multipart form data, with the XSRF cookie and header;
        3. rerun with the uploader's new state naming the file.
        """
        request = BackMsg()
        request.file_urls_request.request_id = request_id = f"upload-{time.monotonic_ns()}"
        request.file_urls_request.file_names.append(name)
        request.file_urls_request.session_id = self.session_id
        self.ws.settimeout(timeout)
        self.ws.send_binary(request.SerializeToString())
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(self.ws.recv())
            if (msg.WhichOneof("type") == "file_urls_response"
                    and msg.file_urls_response.response_id == request_id):
                break
        if msg.file_urls_response.error_msg:
            raise RuntimeError(f"no upload URL: {msg.file_urls_response.error_msg}")
        urls = msg.file_urls_response.file_urls[0]
        xsrf = xsrf_cookie(self.port)
        boundary = f"----qwk{time.monotonic_ns()}"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{urls.file_id}\"; "
                f"filename=\"{name}\"\r\nContent-Type: text/csv\r\n\r\n").encode() + data + \
            f"\r\n--{boundary}--\r\n".encode()
        put = urllib.request.Request(
            f"http://{HOST}:{self.port}{urls.upload_url}", data=body, method="PUT",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                     "X-Xsrftoken": xsrf, "Cookie": f"_streamlit_xsrf={xsrf}"})
        with urllib.request.urlopen(put, timeout=timeout) as response:  # noqa: S310 - loopback
            if response.status not in (200, 204):
                raise RuntimeError(f"upload answered HTTP {response.status}")
        state = FileUploaderState()
        info = state.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        return self.rerun(files={widget_id: state}, timeout=timeout)

    def _read_delta(self, msg: ForwardMsg, view: RunView, seen: set[str]) -> None:
        if msg.delta.WhichOneof("type") == "add_block":
            block = msg.delta.add_block
            if block.WhichOneof("type") == "tab_container":
                view.tabs_id = block.tab_container.id
            return
        if msg.delta.WhichOneof("type") != "new_element":
            return
        element = msg.delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            view.problems.append(f"exception element: {element.exception.type} "
                                 f"{element.exception.message[:200]}")
        elif kind == "alert" and element.alert.format == Alert.ERROR:
            view.problems.append(f"error message: {element.alert.body[:200]}")
        elif kind == "alert":
            view.notes.append(element.alert.body)
        elif kind == "metric":
            view.metrics.setdefault(element.metric.label, []).append(element.metric.body)
        elif kind is not None:
            widget = getattr(element, kind)
            widget_id = getattr(widget, "id", "")
            if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
                view.widget_ids[widget_id.rsplit("-", 1)[-1]] = widget_id
                seen.add(widget_id)
                self.widget_fragments[widget_id] = msg.delta.fragment_id
                self._track(kind, widget_id, widget)

    def _track(self, kind: str, widget_id: str, widget) -> None:
        """The value the browser now shows: set by the server, else kept, else the default."""
        if kind in ("text_area", "text_input"):
            if widget.set_value:
                value = widget.value if widget.HasField("value") else None
            elif widget_id in self.widget_values:
                return
            else:
                value = widget.default if widget.HasField("default") else None
        elif kind in ("selectbox", "radio"):
            if widget.set_value:
                value = widget.raw_value if widget.HasField("raw_value") else None
            elif widget_id in self.widget_values:
                return
            elif widget.HasField("default") and 0 <= widget.default < len(widget.options):
                value = widget.options[widget.default]
            else:
                value = None
        else:
            return
        if value is None:
            self.widget_values.pop(widget_id, None)
        else:
            self.widget_values[widget_id] = value


# --- the classroom ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """One student: a language, a predicted vector, and the actual vector after each edit."""

    index: int
    lang: str
    predicted: str
    actuals: tuple[str, ...]  # [0] is the shared link's, then one per edit


def text(values) -> str:
    return ", ".join(str(int(v)) for v in values)


def make_plans(sessions: int, edits: int, items: int) -> list[Plan]:
    """Different vectors for every session (a distinct n each), so any mix-up shows."""
    langs = list(LANGUAGES)
    plans = []
    for index in range(sessions):
        n = items + index
        agreement = 0.3 + 0.6 * (index % 7) / 6
        actual, predicted = random_ratings(n, CLASSES, agreement, seed=index)
        actuals = [text(actual)]
        for edit in range(1, edits + 1):
            actuals.append(text(random_ratings(n, CLASSES, agreement, seed=10_000 * (edit + 1)
                                               + index)[0]))
        plans.append(Plan(index, langs[index % len(langs)], text(predicted), tuple(actuals)))
    return plans


def shown_metrics(result, lang: str) -> dict[str, str]:
    """The kappa and n metrics the page shows for ``result``, as ``lang`` writes them."""
    kappa = (t(lang, "common.undefined") if result.kappa is None
             else format_number(result.kappa, lang))
    return {t(lang, "common.kappa"): kappa,
            t(lang, "walkthrough.items"): format_number(result.n, lang)}


def expected_metrics(plan: Plan, step: int) -> dict[str, str]:
    """The kappa and n this session must see after ``step`` edits, as its language writes them."""
    return shown_metrics(walkthrough(plan.actuals[step], plan.predicted), plan.lang)


def metric_differences(who: str, expected: dict[str, str], view: RunView) -> list[str]:
    """Each expected metric missing from ``view`` or shown with another value anywhere."""
    found = []
    for label, value in expected.items():
        shown = view.metrics.get(label, [])
        if not shown or any(body != value for body in shown):
            found.append(f"{who}: {label} {shown} != {value!r}")
    return found


def cross_talk(plan: Plan, step: int, view: RunView) -> list[str]:
    """Differences between what came back and this session's own expected view."""
    found = metric_differences(f"session {plan.index} step {step}",
                               expected_metrics(plan, step), view)
    if view.query_string is not None:
        params = parse_qs(view.query_string)
        wanted = plan.actuals[step].replace(" ", "")
        if params.get("actual", [""])[0] != wanted or params.get("lang", [""])[0] != plan.lang:
            found.append(f"session {plan.index} step {step}: URL holds another session's values")
    return found


@dataclass
class Outcome:
    load_seconds: list[float] = field(default_factory=list)
    edit_seconds: list[float] = field(default_factory=list)
    upload_seconds: list[float] = field(default_factory=list)
    paste_seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cross_talk: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, step: int, view: RunView, plan: Plan) -> None:
        talk = cross_talk(plan, step, view)
        with self.lock:
            (self.load_seconds if step == 0 else self.edit_seconds).append(view.seconds)
            self.errors.extend(f"session {plan.index} step {step}: {p}" for p in view.problems)
            self.cross_talk.extend(talk)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


def student(port: int, plan: Plan, outcome: Outcome, start: threading.Barrier,
            timeout: float, deadline: float, think: float) -> None:
    """One session: open the shared link (with everybody else), then edit ``actual`` E times."""
    browser = None
    step = 0
    try:
        try:
            browser = Browser(port, timeout)
        except Exception:
            start.abort()  # nobody waits for a session that could not connect
            raise
        try:
            start.wait(timeout=timeout)
        except threading.BrokenBarrierError:
            pass  # another session failed to connect (counted there): go on without it
        query = urlencode({"actual": plan.actuals[0].replace(" ", ""),
                           "predicted": plan.predicted.replace(" ", ""), "lang": plan.lang},
                          safe=",")
        view = browser.rerun(query, timeout=min(timeout, deadline - time.perf_counter()))
        outcome.add(0, view, plan)
        rng = random.Random(plan.index)
        for step in range(1, len(plan.actuals)):
            if think:
                time.sleep(rng.uniform(0, 2 * think))
            if time.perf_counter() >= deadline:
                outcome.error(f"session {plan.index} step {step}: global timeout")
                return
            widget_id = view.widget_ids.get(EDITED_KEY)
            if widget_id is None:
                outcome.error(f"session {plan.index} step {step}: no {EDITED_KEY} text area")
                return
            view = browser.rerun(widgets={widget_id: plan.actuals[step]},
                                 click=view.widget_ids[RATINGS_SUBMIT],
                                 timeout=min(timeout, deadline - time.perf_counter()))
            outcome.add(step, view, plan)
    except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the others
        outcome.error(f"session {plan.index} step {step}: {type(error).__name__}: {error}")
    finally:
        if browser is not None:
            browser.close()


def upload_csv(megabytes: float, seed: int = 7) -> tuple[bytes, dict[str, str]]:
    """A two-column CSV of about ``megabytes`` MB, and the kappa and n the page must show."""
    rows = max(2, int(megabytes * 2**20) // 4)  # "a,p\n": 4 bytes a row
    actual, predicted = random_ratings(rows, CLASSES, 0.6, seed=seed)
    lines = np.char.add(np.char.add(actual.astype("U1"), ","), predicted.astype("U1"))
    data = ("actual,predicted\n" + "\n".join(lines.tolist()) + "\n").encode()
    return data, shown_metrics(walkthrough(actual, predicted), "en")


def uploader(port: int, data: bytes, expected: dict[str, str], outcome: Outcome,
             start: threading.Barrier, timeout: float) -> None:
    """One more session, in the middle of the class: opens the app, the upload tab, and uploads a
    large CSV at the moment the others start editing. Its own wait is counted apart; what it
    costs the others shows in their edit times. (The file is made before the class starts: making
    it here would take the client's CPU from the other sessions and count against the server.)"""
    browser = None
    try:
        browser = Browser(port, timeout)
        view = browser.rerun("lang=en", timeout=timeout)
        view = browser.rerun(widgets={view.tabs_id: t("en", "inputs.tab_upload")},
                             timeout=timeout)
        widget_id = view.widget_ids.get("upload_first")
        if widget_id is None:
            raise RuntimeError("no upload_first file uploader in the upload tab")
        try:
            start.wait(timeout=timeout)
        except threading.BrokenBarrierError:
            pass
        time.sleep(0.5)  # the class has opened its links and is editing
        view = browser.upload(widget_id, "class.csv", data, timeout=max(timeout, 120))
        with outcome.lock:
            outcome.upload_seconds.append(view.seconds)
            outcome.errors.extend(f"upload: {p}" for p in view.problems)
            outcome.cross_talk.extend(metric_differences("upload", expected, view))
    except Exception as error:  # noqa: BLE001 - counted like any other failure
        outcome.error(f"upload: {type(error).__name__}: {error}")
    finally:
        if browser is not None:
            browser.close()


def paste_texts(items: int, pastes: int) -> list[tuple[str, str, dict[str, str]]]:
    """``pastes`` distinct pairs of vectors of ``items`` ratings, as typed text, and the kappa and
    n the page must show for each."""
    pairs = [random_ratings(items, CLASSES, 0.6, seed=500 + k) for k in range(pastes)]
    return [(text(a), text(p), shown_metrics(walkthrough(a, p), "en")) for a, p in pairs]


def paster(port: int, items: int, pastes: int, ready: Event, go: Event, results: Queue,
           timeout: float) -> None:
    """One more session, in a process of its own as a browser is: opens the app, says it is
    ready, and once told the class is editing pastes ``pastes`` distinct pairs of long vectors
    into both rating fields, one pair after the other. Puts its waits, problems and cross-talk
    in ``results``. (In the class's process, building and masking a 12 MB message took the
    class's client from its sessions and counted against the server. The texts are made before
    it says it is ready.)"""
    seconds: list[float] = []
    problems: list[str] = []
    talk: list[str] = []
    browser = None
    try:
        texts = paste_texts(items, pastes)
        browser = Browser(port, timeout)
        view = browser.rerun("lang=en", timeout=timeout)
        ready.set()
        if go.wait(timeout=timeout):
            time.sleep(0.5)  # the class has opened its links and is editing
        for k, (actual, predicted, expected) in enumerate(texts):
            ids = view.widget_ids
            view = browser.rerun(widgets={ids[EDITED_KEY]: actual,
                                          ids["predicted_input"]: predicted},
                                 click=ids[RATINGS_SUBMIT], timeout=max(timeout, 120))
            seconds.append(view.seconds)
            problems.extend(f"paste {k}: {p}" for p in view.problems)
            talk.extend(metric_differences(f"paste {k}", expected, view))
    except Exception as error:  # noqa: BLE001 - counted like any other failure
        problems.append(f"paste: {type(error).__name__}: {error}")
    finally:
        ready.set()
        if browser is not None:
            browser.close()
        results.put((seconds, problems, talk))


def paste_alongside(port: int, items: int, pastes: int, outcome: Outcome,
                    start: threading.Barrier, timeout: float, deadline: float) -> None:
    """Runs :func:`paster` in its own process, joins the class's start with it, and records
    what it reports in ``outcome``."""
    context = multiprocessing.get_context("spawn")
    ready, go, results = context.Event(), context.Event(), context.Queue()
    process = context.Process(target=paster, daemon=True,
                              args=(port, items, pastes, ready, go, results, timeout))
    process.start()
    try:
        ready.wait(timeout=max(timeout, 120))
        try:
            start.wait(timeout=timeout)
        except threading.BrokenBarrierError:
            pass
        go.set()
        seconds, problems, talk = results.get(timeout=max(1.0, deadline - time.perf_counter()))
        with outcome.lock:
            outcome.paste_seconds.extend(seconds)
            outcome.errors.extend(problems)
            outcome.cross_talk.extend(talk)
    except Exception as error:  # noqa: BLE001 - counted like any other failure
        outcome.error(f"paste: {type(error).__name__}: {error}")
    finally:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


@dataclass
class Report:
    sessions: int
    edits: int
    items: int
    think: float
    load_seconds: list[float]
    edit_seconds: list[float]
    errors: list[str]
    cross_talk: list[str]
    idle_rss: int
    peak_rss: int
    wall_seconds: float
    load_before: float = 0.0  # the machine's 1-minute load average when the run started
    upload_mb: float = 0.0  # size of the one large upload made while the class edits (0: none)
    upload_seconds: list[float] = field(default_factory=list)
    paste_items: int = 0  # ratings per vector of the pastes made while the class edits (0: none)
    pastes: int = 0
    paste_seconds: list[float] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return (len(self.load_seconds) == self.sessions
                and len(self.edit_seconds) == self.sessions * self.edits
                and len(self.upload_seconds) == (1 if self.upload_mb else 0)
                and len(self.paste_seconds) == (self.pastes if self.paste_items else 0))

    @property
    def edit_p95(self) -> float:
        return percentile(self.edit_seconds, 95)

    @property
    def passed(self) -> bool:
        return (self.complete and not self.errors and not self.cross_talk
                and self.sessions >= GOAL_SESSIONS and self.edits >= GOAL_EDITS
                and self.edit_p95 < GOAL_P95_SECONDS)

    def extra(self) -> str:
        """The extra session's work, in words (empty when there was none)."""
        return ", ".join(
            ([f"one {self.upload_mb:g} MB CSV uploaded"] if self.upload_mb else [])
            + ([f"{self.pastes} pastes of {self.paste_items:,} ratings a field"]
               if self.paste_items else []))

    def table(self) -> str:
        lines = [
            f"Classroom load: {self.sessions} sessions x {self.edits} edits, "
            f"{self.items}-{self.items + self.sessions - 1} items each, think time "
            f"{self.think:g} s, {os.cpu_count()} CPU cores (load average {self.load_before:.1f} "
            f"before the run), streamlit {streamlit.__version__}"
            + (f", {self.extra()} meanwhile" if self.upload_mb or self.paste_items else ""),
            f"{'':<22}{'count':>6}{'p50':>9}{'p95':>9}{'max':>9}",
        ]
        rows = [("open shared link", self.load_seconds), ("edit -> rerun done", self.edit_seconds)]
        if self.upload_mb:
            rows.append((f"upload {self.upload_mb:g} MB -> done", self.upload_seconds))
        if self.paste_items:
            rows.append(("paste -> rerun done", self.paste_seconds))
        for name, values in rows:
            if values:
                lines.append(f"{name:<22}{len(values):>6}{percentile(values, 50):>8.3f}s"
                             f"{percentile(values, 95):>8.3f}s{max(values):>8.3f}s")
            else:
                lines.append(f"{name:<22}{0:>6}")
        lines.append(f"errors: {len(self.errors)}   cross-talk: {len(self.cross_talk)}   "
                     f"requests completed: {len(self.load_seconds) + len(self.edit_seconds)}"
                     f"/{self.sessions * (self.edits + 1)}   wall time: {self.wall_seconds:.1f} s")
        lines.append(f"server memory (RSS): {self.idle_rss / 2**20:.0f} MB after warm-up, "
                     f"peak {self.peak_rss / 2**20:.0f} MB")
        lines.extend(f"  error: {e}" for e in self.errors[:10])
        lines.extend(f"  cross-talk: {c}" for c in self.cross_talk[:10])
        verdict = "PASS" if self.passed else "FAIL"
        lines.append(f"goal: {GOAL_SESSIONS} sessions x {GOAL_EDITS} edits, edit p95 < "
                     f"{GOAL_P95_SECONDS:g} s, zero errors, no cross-talk -> {verdict}")
        return "\n".join(lines)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def run_load(sessions: int = GOAL_SESSIONS, edits: int = GOAL_EDITS, items: int = 200, *,
             think: float = 0.0, timeout: float = 30.0, global_timeout: float = 300.0,
             warmup: bool = True, port: int | None = None, upload_mb: float = 0.0,
             paste_items: int = 0, pastes: int = 3) -> Report:
    """Start the server, run the classroom against it, stop the server; return the figures.

    With ``upload_mb``, one more session uploads a CSV of that size as the class starts editing;
    with ``paste_items``, one more session pastes ``pastes`` pairs of vectors that long.
    """
    plans = make_plans(sessions, edits, items)
    outcome = Outcome()
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    with serving(port=port) as server:
        bound = server.port
        sampler = MemorySampler(server.pid)
        if warmup:  # the teacher opens the link first: imports and caches are warm
            browser = Browser(bound, timeout)
            try:
                warm = browser.rerun("lang=en", timeout=timeout)
                outcome.errors.extend(f"warm-up: {p}" for p in warm.problems)
            finally:
                browser.close()
        idle = sampler.rss()
        sampler.start()
        deadline = time.perf_counter() + global_timeout
        start = threading.Barrier(sessions + (1 if upload_mb else 0) + (1 if paste_items else 0))
        threads = [threading.Thread(target=student, daemon=True,
                                    args=(bound, plan, outcome, start, timeout, deadline, think))
                   for plan in plans]
        if upload_mb:
            data, expected = upload_csv(upload_mb)
            threads.append(threading.Thread(target=uploader, daemon=True,
                                            args=(bound, data, expected, outcome, start, timeout)))
        if paste_items:
            threads.append(threading.Thread(target=paste_alongside, daemon=True,
                                            args=(bound, paste_items, pastes, outcome, start,
                                                  timeout, deadline)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.1, deadline + 5 - time.perf_counter()))
        if any(thread.is_alive() for thread in threads):
            outcome.error("global timeout: some sessions were still running")
        sampler.stop()
        peak = max(sampler.peak, sampler.rss())
    with outcome.lock:
        return Report(sessions, edits, items, think, list(outcome.load_seconds),
                      list(outcome.edit_seconds), list(outcome.errors),
                      list(outcome.cross_talk), idle, peak, time.perf_counter() - began,
                      load_before, upload_mb, list(outcome.upload_seconds), paste_items,
                      pastes if paste_items else 0, list(outcome.paste_seconds))


def main(argv: list[str] | None = None) -> int:
    if "--class" in (sys.argv[1:] if argv is None else argv):
        from . import classroom_load  # a live class: teacher, students, K servers

        return classroom_load.main(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=GOAL_SESSIONS, help="concurrent sessions")
    parser.add_argument("--edits", type=int, default=GOAL_EDITS, help="edits per session")
    parser.add_argument("--items", type=int, default=200,
                        help="items in the first session's vectors (session i has items + i)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean pause between a session's edits, in seconds (0: none)")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-request timeout (s)")
    parser.add_argument("--global-timeout", type=float, default=300.0,
                        help="bound on the whole run after the warm-up (s)")
    parser.add_argument("--no-warmup", action="store_true",
                        help="do not open one session before the class (cold server)")
    parser.add_argument("--upload-mb", type=float, default=0.0,
                        help="one more session uploads a CSV of this many MB as the class "
                             "starts editing (the app accepts up to 20)")
    parser.add_argument("--paste-items", type=int, default=0,
                        help="one more session pastes vectors of this many ratings into both "
                             f"fields while the class edits (0: none; at most {TYPED_MAX_RATINGS:,}"
                             f", what a field of {TYPED_MAX_CHARS:,} characters holds)")
    parser.add_argument("--pastes", type=int, default=3, help="how many pastes it makes")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --upload-mb or --paste-items: how many times the class runs "
                             "alone, then with that session, one after the other")
    args = parser.parse_args(argv)
    if not (1 <= args.sessions <= 500 and 0 <= args.edits <= 100 and 2 <= args.items <= 100_000
            and 0 <= args.upload_mb <= 19.5 and 0 <= args.paste_items <= TYPED_MAX_RATINGS
            and 1 <= args.pastes <= 20 and 1 <= args.rounds <= 10):
        parser.error(f"sessions 1..500, edits 0..100, items 2..100000, upload-mb 0..19.5, "
                     f"paste-items 0..{TYPED_MAX_RATINGS} (a rating field takes "
                     f"{TYPED_MAX_CHARS:,} characters), pastes 1..20, rounds 1..10")
    options = {"think": args.think, "timeout": args.timeout,
               "global_timeout": args.global_timeout, "warmup": not args.no_warmup}
    shape = (args.sessions, args.edits, args.items)
    extra = {"upload_mb": args.upload_mb, "paste_items": args.paste_items,
             "pastes": args.pastes}
    alone: list[Report] = []
    joined: list[Report] = []
    for _ in range(args.rounds if args.upload_mb or args.paste_items else 1):
        if args.upload_mb or args.paste_items:
            alone.append(run_load(*shape, **options))
            print(alone[-1].table(), end="\n\n", flush=True)
        joined.append(run_load(*shape, **options, **extra))  # type: ignore[arg-type]
        print(joined[-1].table(), end="\n\n", flush=True)
    if alone:
        print(side_by_side(alone, joined))
    return 0 if all(report.passed for report in joined) else 1


def side_by_side(alone: list[Report], joined: list[Report]) -> str:
    """The class's edit times without and with the extra session (upload or paste), from runs
    made one after the other in the same invocation, and their ratio: what that session costs
    the others, robust to the machine's load drifting between invocations."""
    what = joined[0].extra()
    before = [s for report in alone for s in report.edit_seconds]
    after = [s for report in joined for s in report.edit_seconds]
    lines = [f"the class's edits, alone and while {what} ({len(alone)} round(s), load average "
             f"{', '.join(f'{r.load_before:.1f}' for r in (*alone, *joined))} before each run):",
             f"{'':<10}{'alone':>9}{'with':>9}{'ratio':>8}"]
    for q in (50, 95):
        a, b = percentile(before, q), percentile(after, q)
        lines.append(f"{'edit p' + str(q):<10}{a:>8.3f}s{b:>8.3f}s{b / a:>8.2f}")
    a, b = max(before, default=float("nan")), max(after, default=float("nan"))
    lines.append(f"{'edit max':<10}{a:>8.3f}s{b:>8.3f}s{b / a:>8.2f}")
    return "\n".join(lines)

if __name__ == "__main__":
    sys.exit(main())
