"""Speed where the learner feels it: in Chromium, side by side with a bare page, in one run.

The server's rerun (``bench/bench_app.py``) is a small part of what a learner waits for: the
browser must also apply the new elements, draw the charts and lay out the formulas. This script
serves the real app and a bare baseline page (two rating inputs of the same kind as the app's, a
kappa metric, three ``px.imshow`` heatmaps and one ``st.latex``), opens both in Debian's
Chromium through Playwright and measures, alternating between the two pages so both share the
machine's load:

- **edit -> kappa shown**: from the key that commits a new *actual* vector (Enter) to the moment
  the kappa metric shows another value;
- **edit -> idle**: from the same key until the script has finished, every chart and formula is
  drawn and two more frames have been painted (nothing left for the learner to wait for);
- **add item -> kappa shown / idle**: adding an item as a learner does, by typing one more rating
  at the end of both fields: the end of the *actual* field, a rating, Enter, then at once the
  same in the *predicted* field. Timed from the first Enter: between the two the lists have
  different lengths, and whatever the page does with that half-typed state is paid here (the
  two fields are found before the clock starts, and the keys are typed as a keyboard types
  them: see :func:`add_item`). The
  bare page stops below its inputs while the lengths differ (any page must: there is no pair to
  count), so it draws its charts anew once both lists are complete;
- **typing -> kappa** (fields that follow a typing pause: the app's rating form sends itself
  300 ms after the last key, the bare page's ``text_input`` has ``live``): from the last
  keystroke, without Enter, to the new kappa (includes the typing pause);
- **first load, warm server**: a fresh browser profile navigates to the page; until every chart
  and formula is drawn;
- **first load, cold server**: the same for the first visitor right after the server starts (the
  server is started as ``make run`` starts it and visited as soon as its health probe answers).

Each one-field edit changes one rating of the *actual* vector (alternating between two vectors of
the same length), so kappa changes on every edit; each added item starts from the same two
vectors (put back unmeasured), so kappa changes too. Medians of ``--repeats``; the ratio is
walkthrough over baseline. ``--profile`` also records one walkthrough edit and one added item
with Chromium's sampling profiler and performance trace and prints where the main thread spent
its time.

Usage: ``python bench/bench_browser.py [--repeats 8] [--cold 2] [--profile]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import textwrap
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwk_app.server import Server, serving  # noqa: E402
from qwk_explained.present.i18n import t  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
TIMEOUT_MS = 120_000
#: The two actual vectors an edit alternates between (one rating differs), and the predicted one.
ACTUALS = ("4,4,3,4,4,4,1,1,2,1", "4,4,3,4,4,4,1,1,2,2")
PREDICTED = "0,2,1,0,0,0,1,1,2,1"
KAPPA_LABEL = t("en", "common.kappa")
ACTUAL_LABEL = t("en", "inputs.actual_label")
PREDICTED_LABEL = t("en", "inputs.predicted_label")
#: The item added at the end of both fields (actual, predicted): it changes kappa.
ADDED_ITEM = ("3", "2")

#: The bare page: what any app showing these numbers must at least draw. ``{widget}`` is the
#: app's own kind of input (``text_area``, or a ``text_input``, given ``live`` so that it follows
#: a typing pause as the app's rating form does), so both commit alike.
BASELINE = textwrap.dedent("""
    import numpy as np
    import plotly.express as px
    import streamlit as st

    st.title("Baseline")
    labels = (ACTUAL_LABEL, PREDICTED_LABEL)
    texts = [st.WIDGET(label, value, key=f"v{k}"LIVE)
             for k, (label, value) in enumerate(zip(labels, (ACTUAL, PREDICTED)))]
    actual, predicted = (np.array([int(x) for x in text.split(",")]) for text in texts)
    if len(actual) != len(predicted):
        st.caption("The two lists have different lengths.")
        st.stop()
    size = int(max(actual.max(), predicted.max())) + 1
    observed = np.bincount(actual * size + predicted, minlength=size * size).reshape(size, size)
    positions = np.arange(size)
    weights = (positions[:, None] - positions[None, :]) ** 2 / (size - 1) ** 2
    expected = np.outer(observed.sum(1), observed.sum(0)) / len(actual)
    num, den = (weights * observed).sum(), (weights * expected).sum()
    kappa = 1 - num / den
    st.metric(KAPPA_LABEL, "%.4f" % kappa)
    st.latex(r"\\kappa = 1 - \\frac{%.4f}{%.4f} = %.4f" % (num, den, kappa))
    for matrix in (observed, weights, expected):
        st.plotly_chart(px.imshow(matrix, text_auto=True))
""")


def baseline_script(widget: str) -> str:
    """The baseline page with the app's kind of input (``text_area`` or ``text_input``)."""
    return (BASELINE.replace("WIDGET", widget)
            .replace("LIVE", ", live=True" if widget == "text_input" else "")
            .replace("ACTUAL_LABEL", repr(ACTUAL_LABEL)).replace("KAPPA_LABEL", repr(KAPPA_LABEL))
            .replace("PREDICTED_LABEL", repr(PREDICTED_LABEL))
            .replace("ACTUAL", repr(ACTUALS[0])).replace("PREDICTED", repr(PREDICTED)))

#: True once the script has finished and every chart, formula and lazy widget is drawn.
DRAWN_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState === 'notRunning'
    && !!document.querySelector('[data-testid="stMain"] h1')
    && !!document.querySelector('[data-testid="stMetricValue"]')
    && !document.querySelector('[data-testid="stSkeleton"]')
    && [...document.querySelectorAll('.katex')].every(k => k.querySelector('.katex-html'))
    && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
         .every(c => c.querySelector('.js-plotly-plot .main-svg'))
    && [...document.querySelectorAll('[data-testid="stBidiComponentRegular"]')]
         .every(c => c.querySelector('.qwk-root > *'));
}
"""

#: True once the script has finished (between the two halves of a reset the bare page draws no
#: kappa: the lengths differ).
IDLE_JS = """
() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
"""

#: Installed once per page: the time of the committing key, and a waiter for its effects.
PROBE_JS = """
(kappaLabel) => {
  const drawn = DRAWN;
  const kappaText = () => {
    for (const box of document.querySelectorAll('[data-testid="stMetric"]')) {
      const label = box.querySelector('[data-testid="stMetricLabel"]');
      if (label && label.innerText.trim() === kappaLabel)
        return box.querySelector('[data-testid="stMetricValue"]').innerText;
    }
    return null;
  };
  window.__bench = {
    commit: null,
    kappaText,
    drawn,
    // Resolves with {kappa, idle} in ms after window.__bench.commit (set by the caller).
    after: () => new Promise(resolve => {
      const before = kappaText();
      let kappa = null;
      const frame = () => {
        const now = performance.now();
        const shown = kappaText();
        if (kappa === null && shown !== null && shown !== before) kappa = now;
        if (kappa !== null && drawn()) {
          requestAnimationFrame(() => requestAnimationFrame(() => resolve({
            kappa: kappa - window.__bench.commit,
            idle: performance.now() - window.__bench.commit})));
          return;
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    }),
  };
  // The first Enter after the caller cleared ``commit``: an added item commits twice.
  document.addEventListener('keydown', e => {
    if (e.key === 'Enter' && window.__bench.commit === null)
      window.__bench.commit = performance.now(); }, true);
  document.addEventListener('input', () => {
    window.__bench.lastInput = performance.now(); }, true);
}
""".replace("DRAWN", DRAWN_JS.strip())


# --- the browser and the servers ------------------------------------------------------------------

#: How ``make run`` starts the app: through the warm-up launcher.
APP_COMMAND = (sys.executable, "-m", "qwk_app.launch")


@contextmanager
def chromium(prefix: str) -> Iterator[tuple[Browser, Path]]:
    """Debian's Chromium (headless) and a temporary folder for the servers' logs, both gone when
    the block ends, however it ends."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield browser, Path(folder)
        finally:
            browser.close()


def serve_app(logs: Path, log: str = "app.log") -> AbstractContextManager[Server]:
    """The real app, started as ``make run`` starts it, its output in ``logs / log``."""
    return serving(command=APP_COMMAND, log=logs / log, timeout=120)


def new_page(browser: Browser) -> Page:
    """A page in a fresh browser context (no cookies, no cache), at the benches' viewport, in
    English; closing ``page.context`` closes both."""
    return browser.new_context(viewport=VIEWPORT, locale="en-US").new_page()


# --- measurements ---------------------------------------------------------------------------------

@dataclass
class Figures:
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, name: str, value: float) -> None:
        self.samples[name].append(value)

    def median(self, name: str) -> float | None:
        values = self.samples.get(name)
        return statistics.median(values) if values else None


def open_page(page: Page, url: str) -> float:
    """Navigate; return ms from navigation start until every chart and formula is drawn."""
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS, polling="raf")
    elapsed = page.evaluate("() => performance.now()")
    page.evaluate(PROBE_JS, KAPPA_LABEL)
    return float(elapsed)


def input_kind(page: Page) -> str:
    """``text_area`` or ``text_input``: the widget the page uses for the actual vector."""
    box = page.get_by_label(ACTUAL_LABEL, exact=True)
    return "text_area" if box.evaluate("e => e.tagName") == "TEXTAREA" else "text_input"


#: Chromium's counters of main-thread work (seconds, cumulative): ``Performance.getMetrics``.
BUSY_METRICS = {"TaskDuration": "busy", "ScriptDuration": "script",
                "LayoutDuration": "layout", "RecalcStyleDuration": "style"}


_SESSIONS: dict[int, Any] = {}


def busy(page: Page) -> dict[str, float]:
    """The page's main-thread work so far, in ms, by kind (all tasks, JavaScript, layout, style).

    Less sensitive than wall-clock delays to other programs on a busy machine: it counts the
    work the page did, not the time it waited for a CPU.
    """
    session = _SESSIONS.get(id(page))
    if session is None:  # counting starts when a session enables it: keep one per page
        session = _SESSIONS[id(page)] = page.context.new_cdp_session(page)
        session.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
    return {short: metrics.get(name, 0.0) * 1000 for name, short in BUSY_METRICS.items()}


def edit(page: Page, text: str) -> dict[str, float]:
    """Replace the actual vector and commit it with Enter.

    Returns the delays until kappa changed and until idle, and the main-thread work in between,
    in ms.
    """
    page.bring_to_front()  # a tab in the background gets no animation frames
    box = page.get_by_label(ACTUAL_LABEL, exact=True)
    textarea = box.evaluate("e => e.tagName") == "TEXTAREA"
    before = busy(page)
    page.evaluate("() => { window.__bench.commit = null; window.__wait = window.__bench.after(); }")
    box.fill(text)
    box.press("Control+Enter" if textarea else "Enter")
    times = dict(page.evaluate("() => window.__wait"))
    after = busy(page)
    times.update({kind: after[kind] - before[kind] for kind in after})
    return times


def set_both(page: Page, actual: str, predicted: str) -> None:
    """Put both vectors back (not measured): the predicted field first, then the actual one."""
    for label, text in ((PREDICTED_LABEL, predicted), (ACTUAL_LABEL, actual)):
        box = page.get_by_label(label, exact=True)
        if box.input_value() != text:
            box.fill(text)
            box.press("Enter")
            page.wait_for_timeout(200)
            page.wait_for_function(IDLE_JS, timeout=TIMEOUT_MS, polling="raf")
    page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS, polling="raf")


def add_item(page: Page) -> dict[str, float]:
    """Add one item as a learner does: one more rating typed at the end of each field, each
    committed with Enter, the second right after the first.

    Returns the delays from the first Enter until kappa changed and until idle, and the
    main-thread work in between, in ms.
    """
    page.bring_to_front()
    set_both(page, ACTUALS[0], PREDICTED)
    # Both fields are found before the clock starts, and the keys go to the keyboard: a label
    # locator finds its field again on every action by reading the names of the page's elements:
    # 10 to 40 ms per action on the walkthrough's 8,500 elements (a performance trace), far less
    # on the bare page's few, so the clock timed the harness reading the page, not the page.
    boxes = [page.get_by_label(label, exact=True).element_handle()
              for label in (ACTUAL_LABEL, PREDICTED_LABEL)]
    before = busy(page)
    page.evaluate("() => { window.__bench.commit = null; window.__wait = window.__bench.after(); }")
    for box, rating in zip(boxes, ADDED_ITEM, strict=True):
        box.focus()
        page.keyboard.press("End")
        page.keyboard.type(f", {rating}")
        page.keyboard.press("Enter")
    times = dict(page.evaluate("() => window.__wait"))
    after = busy(page)
    times.update({kind: after[kind] - before[kind] for kind in after})
    return times


def type_live(page: Page, text: str) -> float:
    """Type the last rating of ``text`` key by key, no Enter; ms from that key to the new kappa."""
    page.bring_to_front()
    box = page.get_by_label(ACTUAL_LABEL, exact=True)
    box.click()
    box.press("End")
    box.press("Backspace")
    page.evaluate("() => { window.__wait = window.__bench.after(); }")
    box.press_sequentially(text[-1])
    page.evaluate("() => { window.__bench.commit = window.__bench.lastInput; }")
    return float(page.evaluate("() => window.__wait")["kappa"])


def measure_edits(pages: dict[str, Page], repeats: int, live: bool, figures: Figures) -> None:
    for page in pages.values():  # one unmeasured edit each: the first draws fresh elements
        edit(page, ACTUALS[1])
        edit(page, ACTUALS[0])
    for k in range(repeats):
        for name, page in pages.items():
            times = edit(page, ACTUALS[(k + 1) % 2])
            figures.add(f"{name} edit->kappa", times["kappa"])
            figures.add(f"{name} edit->idle", times["idle"])
            for kind in BUSY_METRICS.values():
                figures.add(f"{name} edit main thread {kind}", times[kind])
    for page in pages.values():  # unmeasured, as above
        add_item(page)
    for _ in range(repeats):
        for name, page in pages.items():
            times = add_item(page)
            figures.add(f"{name} add item->kappa", times["kappa"])
            figures.add(f"{name} add item->idle", times["idle"])
            for kind in BUSY_METRICS.values():
                figures.add(f"{name} add item main thread {kind}", times[kind])
    for page in pages.values():
        set_both(page, ACTUALS[0], PREDICTED)
    if live:
        for _ in range(repeats):
            for name, page in pages.items():
                page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS)
                current = page.get_by_label(ACTUAL_LABEL, exact=True).input_value()
                target = ACTUALS[1] if current == ACTUALS[0] else ACTUALS[0]
                figures.add(f"{name} typing->kappa", type_live(page, target))
                page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS)


def measure_loads(browser: Browser, urls: dict[str, str], repeats: int, figures: Figures) -> None:
    for _ in range(repeats):
        for name, url in urls.items():
            page = new_page(browser)
            try:
                figures.add(f"{name} first load (warm server)", open_page(page, url))
            finally:
                page.context.close()


def measure_cold(browser: Browser, repeats: int, logs: Path, figures: Figures) -> None:
    for _ in range(repeats):
        with serve_app(logs, "cold.log") as server:
            health = (time.perf_counter() - server.started) * 1000
            page = new_page(browser)
            try:
                load = open_page(page, f"{server.url}/?lang=en")
            finally:
                page.context.close()
            figures.add("walkthrough server start->health", health)
            figures.add("walkthrough first load (cold server)", load)


# --- where the time goes --------------------------------------------------------------------------

def _script_name(url: str) -> str:
    """``.../static/js/PlotlyChart.D9Z0_fxz.js`` -> ``PlotlyChart``."""
    base = url.rsplit("/", 1)[-1]
    return base.split(".", 1)[0] if base else "(native)"


def profile_edit(browser: Browser, page: Page, what: str,
                 action: Callable[[], dict[str, Any]]) -> None:
    """Record one edit (``action``) with the sampling profiler and the performance trace; print
    a breakdown."""
    session = page.context.new_cdp_session(page)
    session.send("Profiler.enable")
    session.send("Profiler.setSamplingInterval", {"interval": 200})
    browser.start_tracing(page=page, categories=["devtools.timeline", "v8.execute",
                                                 "disabled-by-default-devtools.timeline"])
    session.send("Profiler.start")
    times = action()
    profile = session.send("Profiler.stop")["profile"]
    trace = json.loads(browser.stop_tracing())
    session.detach()
    kappa = "-" if times["kappa"] is None else f"{times['kappa']:.0f}"
    print(f"\nOne {what}: kappa after {kappa} ms, idle after "
          f"{times['idle']:.0f} ms")

    # Self time of JavaScript by bundle (the sampling profiler: one sample every 0.2 ms).
    by_node = {node["id"]: node for node in profile["nodes"]}
    self_time: dict[str, float] = defaultdict(float)
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = by_node[node_id]["callFrame"]
        name = frame["functionName"] if frame["functionName"].startswith("(") else _script_name(
            frame["url"])
        self_time[name] += delta / 1000
    print("JavaScript self time by bundle (ms):")
    for name, ms in sorted(self_time.items(), key=lambda item: -item[1])[:12]:
        if name != "(idle)":
            print(f"  {name:<32} {ms:8.1f}")

    # Rendering work on the page's main thread (the performance trace).
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    totals: dict[str, float] = defaultdict(float)
    for event in events:
        if (event.get("pid"), event.get("tid")) in main and event.get("ph") == "X":
            if event["name"] in ("Layout", "UpdateLayoutTree", "Paint", "PrePaint", "Layerize",
                                 "MajorGC", "MinorGC", "V8.GC_SCAVENGER", "ParseHTML",
                                 "FunctionCall", "EvaluateScript", "RunTask",
                                 "TimerFire", "FireAnimationFrame"):
                totals[event["name"]] += event.get("dur", 0) / 1000
    print("Main thread (ms; FunctionCall and RunTask include what runs inside them):")
    for name, ms in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name:<32} {ms:8.1f}")


# --- the run --------------------------------------------------------------------------------------

def report(figures: Figures, repeats: int, cold: int) -> None:
    print(f"\nChromium {VIEWPORT['width']}x{VIEWPORT['height']}, median of {repeats} "
          f"(cold: {cold}); ratio = walkthrough / baseline")
    print(f"{'measure':<34} {'walkthrough':>12} {'baseline':>10} {'ratio':>7}")
    measures = ("edit->kappa", "edit->idle", *(f"edit main thread {kind}"
                                                for kind in BUSY_METRICS.values()),
                "add item->kappa", "add item->idle", *(f"add item main thread {kind}"
                                                      for kind in BUSY_METRICS.values()),
                "typing->kappa", "first load (warm server)")
    for measure in measures:
        walk, base = (figures.median(f"{n} {measure}") for n in ("walkthrough", "baseline"))
        if walk is None or base is None:
            continue
        print(f"{measure:<34} {walk:10.0f} ms {base:7.0f} ms {walk / base:6.2f}x")
    for measure in ("server start->health", "first load (cold server)"):
        value = figures.median(f"walkthrough {measure}")
        if value is not None:
            print(f"{measure:<34} {value:10.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=8)
    parser.add_argument("--cold", type=int, default=2, help="cold starts to measure (0: none)")
    parser.add_argument("--profile", action="store_true",
                        help="also profile one walkthrough edit and print where the time goes")
    args = parser.parse_args()
    figures = Figures()
    with chromium("qwk-bench-browser-") as (browser, logs):
        with serve_app(logs) as app:
            walk = new_page(browser)
            app_url = f"{app.url}/?lang=en&actual={ACTUALS[0]}&predicted={PREDICTED}"
            open_page(walk, app_url)
            kind = input_kind(walk)
            script = logs / "baseline.py"
            script.write_text(baseline_script(kind))
            command = [sys.executable, "-m", "streamlit", "run", str(script)]
            with serving(command=command, log=logs / "baseline.log", timeout=120) as base:
                bare = new_page(browser)
                open_page(bare, base.url)
                pages = {"walkthrough": walk, "baseline": bare}
                measure_edits(pages, args.repeats, kind == "text_input", figures)
                measure_loads(browser, {"walkthrough": app_url, "baseline": base.url},
                              args.repeats, figures)
                bare.context.close()
            if args.profile:
                open_page(walk, app_url)
                profile_edit(browser, walk, "walkthrough edit", lambda: edit(walk, ACTUALS[1]))
                profile_edit(browser, walk, "walkthrough added item", lambda: add_item(walk))
            walk.context.close()
        measure_cold(browser, args.cold, logs, figures)
    report(figures, args.repeats, args.cold)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
