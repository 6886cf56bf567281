"""Does one heavy session leave its memory behind? Server RSS before, during and after it.

Starts ``streamlit run app.py`` on a free loopback port (``qwk_app.server``), opens every page once
(the teacher's warm-up), and takes the server's resident memory as the baseline. Then ONE session,
over Streamlit's own websocket protocol (``bench.load_classroom.Browser``, as a browser does):

1. pastes ``--pastes`` distinct pairs of rating vectors of ``--paste-items`` ratings each into the
   two rating fields (each a new input the server has never seen);
2. uploads ``--uploads`` distinct CSV files of ``--upload-mb`` MB (5 million rows at 19 MB).

It checks every answer against the engine (kappa and n), closes the session, and samples the
server's RSS: right after the close (Streamlit empties the session's own caches then), after the
session's time to live (``server.disconnectedSessionTTL``, 120 s by default; ``--ttl`` sets it on
the bench's server to keep the run short) with nobody else around, and after the next visitor (a
student opening the app and leaving): Streamlit drops a disconnected session whose time is up
only when another session's connection closes, and the app frees what it dropped within a
minute. Prints the RSS at each stage side by side with the baseline.

Usage, from the checkout: ``python -m bench.memory_session [--pastes 12] [--paste-items N]
[--uploads 4] [--upload-mb 19] [--ttl 120]``
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

import psutil

from bench.load_classroom import Browser, metric_differences, shown_metrics, text, upload_csv
from qwk_app.compute import TYPED_MAX_CHARS, TYPED_MAX_RATINGS
from qwk_app.inputs import RATINGS_SUBMIT
from qwk_app.server import serving
from qwk_explained import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.teaching.examples import random_ratings

PAGES = ("", "step_by_step", "checker", "theory", "pitfalls", "practice")
#: Seconds given to the server to settle after each event.
SETTLE_S = 20.0
#: Seconds after the last visitor left: the app collects garbage cycles every minute
#: (``qwk_app.memory.COLLECT_EVERY_S``), and a dropped session is one.
COLLECTED_S = 70.0


def rss(pid: int) -> int:
    """Resident memory of the server and its children, in bytes."""
    process = psutil.Process(pid)
    total = process.memory_info().rss
    for child in process.children(recursive=True):
        try:
            total += child.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def mb(value: int) -> str:
    return f"{value / 2**20:,.0f} MB"


@dataclass
class Stages:
    """RSS at each stage of the run, and what went wrong."""

    rows: list[tuple[str, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak: int = 0

    def add(self, name: str, value: int) -> None:
        self.rows.append((name, value))
        self.peak = max(self.peak, value)


def warm_up(port: int) -> list[str]:
    """The teacher opens every page once: imports, caches and the first runs are done."""
    problems = []
    browser = Browser(port, 60)
    try:
        for page in PAGES:
            problems += browser.rerun("lang=en", page=page, timeout=60).problems
    finally:
        browser.close()
    return problems


def heavy_session(port: int, pid: int, pastes: int, items: int, uploads: int, upload_mb: float,
                  stages: Stages) -> None:
    """One session: distinct large pastes, then distinct large uploads, each answer checked."""
    pairs = [random_ratings(items, 5, 0.6, seed=1000 + k) for k in range(pastes)]
    texts = [(text(a), text(p)) for a, p in pairs]
    files = [upload_csv(upload_mb, seed=2000 + k) for k in range(uploads)]
    browser = Browser(port, 120)
    try:
        view = browser.rerun("lang=en", timeout=120)
        for k, (actual, predicted) in enumerate(texts):
            ids = view.widget_ids
            view = browser.rerun(widgets={ids["actual_input"]: actual,
                                          ids["predicted_input"]: predicted},
                                 click=ids[RATINGS_SUBMIT], timeout=120)
            expected = shown_metrics(walkthrough(*pairs[k]), "en")
            stages.errors += view.problems + metric_differences(f"paste {k}", expected, view)
        stages.add(f"after {pastes} pastes of {items:,} ratings", rss(pid))
        view = browser.rerun(widgets={view.tabs_id: t("en", "inputs.tab_upload")}, timeout=120)
        for k, (data, expected) in enumerate(files):
            view = browser.upload(view.widget_ids["upload_first"], f"class{k}.csv", data,
                                  timeout=300)
            stages.errors += view.problems + metric_differences(f"upload {k}", expected, view)
        stages.add(f"after {uploads} uploads of {upload_mb:g} MB", rss(pid))
    finally:
        browser.close()


def visitor(port: int) -> list[str]:
    """Someone opens the app and leaves (their closing connection lets Streamlit drop the
    disconnected sessions whose time is up)."""
    browser = Browser(port, 60)
    try:
        return browser.rerun("lang=en", timeout=60).problems
    finally:
        browser.close()


def run(pastes: int, items: int, uploads: int, upload_mb: float, ttl: int | None) -> Stages:
    stages = Stages()
    options = {} if ttl is None else {"server.disconnectedSessionTTL": str(ttl)}
    lifetime = 120 if ttl is None else ttl
    with serving(options=options) as server:
        stages.errors += warm_up(server.port)
        time.sleep(2)
        stages.add("baseline (every page opened once)", rss(server.pid))
        heavy_session(server.port, server.pid, pastes, items, uploads, upload_mb, stages)
        closed = time.monotonic()
        time.sleep(SETTLE_S / 4)
        stages.add(f"closed, +{SETTLE_S / 4:.0f} s", rss(server.pid))
        time.sleep(max(0.0, closed + lifetime + SETTLE_S / 2 - time.monotonic()))
        stages.add(f"+{lifetime + SETTLE_S / 2:.0f} s, nobody else came", rss(server.pid))
        stages.errors += visitor(server.port)
        time.sleep(SETTLE_S / 4)
        stages.add("one visitor came and left, +5 s", rss(server.pid))
        time.sleep(COLLECTED_S)
        stages.add(f"then +{COLLECTED_S + SETTLE_S / 4:.0f} s", rss(server.pid))
    return stages


def table(stages: Stages, ttl: int | None) -> str:
    baseline = stages.rows[0][1]
    lines = [f"One heavy session, then closed (server.disconnectedSessionTTL = "
             f"{120 if ttl is None else ttl} s)",
             f"{'stage':<44}{'RSS':>10}{'vs baseline':>14}"]
    for name, value in stages.rows:
        lines.append(f"{name:<44}{mb(value):>10}{'+' + mb(value - baseline):>14}")
    lines.append(f"{'peak':<44}{mb(stages.peak):>10}{'+' + mb(stages.peak - baseline):>14}")
    retained = stages.rows[-1][1] - baseline
    lines.append(f"retained after the session ended: {mb(retained)} "
                 f"({retained / max(1, stages.peak - baseline):.0%} of what it took at its peak)")
    lines.append(f"errors: {len(stages.errors)}")
    lines.extend(f"  error: {error}" for error in stages.errors[:10])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pastes", type=int, default=12, help="distinct pastes (pairs)")
    parser.add_argument("--paste-items", type=int, default=TYPED_MAX_RATINGS,
                        help="ratings per paste (default and most: what a rating field of "
                             f"{TYPED_MAX_CHARS:,} characters holds)")
    parser.add_argument("--uploads", type=int, default=4, help="distinct uploads")
    parser.add_argument("--upload-mb", type=float, default=19.0, help="size of each upload")
    parser.add_argument("--ttl", type=int, default=None,
                        help="server.disconnectedSessionTTL in seconds (Streamlit's default: 120)")
    args = parser.parse_args(argv)
    if not (0 <= args.pastes <= 100 and 2 <= args.paste_items <= TYPED_MAX_RATINGS
            and 0 <= args.uploads <= 20 and 0 < args.upload_mb <= 19.5):
        parser.error(f"pastes 0..100, paste-items 2..{TYPED_MAX_RATINGS}, uploads 0..20, "
                     "upload-mb 0..19.5")
    stages = run(args.pastes, args.paste_items, args.uploads, args.upload_mb, args.ttl)
    print(table(stages, args.ttl))
    return 1 if stages.errors else 0


if __name__ == "__main__":
    sys.exit(main())
