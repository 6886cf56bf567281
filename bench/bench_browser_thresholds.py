"""Moving a cut point, where the learner feels it: in Chromium, at n = 200 and n = 100,000.

Issue 22's goal: on "From scores to ratings", moving a cut point at n = 10^5 settles within
400 ms, measured as the walkthrough's edits are (``bench/bench_browser.py``): from the learner's
action to the moment everything is drawn and two more frames have been painted. This script serves
the real app (started as ``make run`` starts it), opens the page twice in Debian's Chromium, once
with the bundled example (200 items) and once with its 100,000-item version (loaded with the
page's own buttons), and alternates between the two so both share the machine's load:

- **move -> kappa shown**: from the key that moves cut point 2 (a focused cut point moves with
  the arrow keys, sending what a drag sends when it is let go) to the moment the kappa metric
  shows another value (when the move changed it);
- **move -> settled**: from the same key until the chart is redrawn with the new cut point, the
  script has finished, every chart and formula is drawn and two frames have been painted;
- **main thread**: the page's main-thread work in between (Chromium's counters).

Each move is one arrow step, 1/200 of the scores' range, alternately right and left. Medians of
``--repeats``; the ratio is n = 100,000 over n = 200. ``--profile`` also records one move at
n = 100,000 with Chromium's sampling profiler and performance trace and prints where the main
thread spent its time (``bench/bench_browser.py``'s breakdown).

Usage, from the checkout: ``.venv/bin/python -m bench.bench_browser_thresholds [--repeats 8]
[--profile]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_browser import (  # noqa: E402
    BUSY_METRICS,
    DRAWN_JS,
    TIMEOUT_MS,
    VIEWPORT,
    Figures,
    busy,
    chromium,
    new_page,
    profile_edit,
    serve_app,
)
from qwk_explained.present.i18n import t  # noqa: E402

SIZES = (200, 100_000)
GOAL_MS = 400
#: The cut point moved (the middle one of four).
CUT = 2
KAPPA_LABEL = t("en", "thresholds.kappa_now")

#: Installed once per page: the time of the moving key, and a waiter for its effects.
PROBE_JS = """
([kappaLabel, cut]) => {
  const drawn = DRAWN;
  const kappaText = () => {
    for (const box of document.querySelectorAll('[data-testid="stMetric"]')) {
      const label = box.querySelector('[data-testid="stMetricLabel"]');
      if (label && label.innerText.trim() === kappaLabel)
        return box.querySelector('[data-testid="stMetricValue"]').innerText;
    }
    return null;
  };
  const cutValue = () => document.querySelector(`.qwk-cut[data-cut="${cut}"]`).dataset.value;
  window.__bench = {
    commit: null,
    // Resolves with {kappa, idle} in ms after the key (kappa: null when it did not change).
    after: () => new Promise(resolve => {
      const kappaBefore = kappaText(), cutBefore = cutValue();
      let kappa = null;
      const frame = () => {
        const now = performance.now();
        if (kappa === null && kappaText() !== kappaBefore) kappa = now;
        const moved = document.querySelector(`.qwk-cut[data-cut="${cut}"]`);
        if (moved && moved.dataset.value !== cutBefore && drawn()) {
          requestAnimationFrame(() => requestAnimationFrame(() => resolve({
            kappa: kappa === null ? null : kappa - window.__bench.commit,
            idle: performance.now() - window.__bench.commit})));
          return;
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    }),
  };
  document.addEventListener('keydown', e => {
    if (e.key.startsWith('Arrow')) window.__bench.commit = performance.now(); }, true);
}
""".replace("DRAWN", DRAWN_JS.strip())


def settle(page: Page) -> None:
    page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS, polling="raf")
    page.wait_for_function("() => document.querySelector('.qwk-cut')", timeout=TIMEOUT_MS)


def open_size(page: Page, url: str, size: int) -> None:
    """The page with the example of ``size`` items, loaded with the page's own controls."""
    page.goto(url, timeout=TIMEOUT_MS)
    settle(page)
    if size != 200:
        page.get_by_label(t("en", "thresholds.example_size"), exact=True).click()
        page.get_by_role("option", name=t("en", "thresholds.example_size_option", count=size),
                         exact=True).click()
        page.get_by_role("button", name=t("en", "thresholds.example_load")).click()
        page.wait_for_function(
            "n => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
            ".some(v => v.innerText.replace(/\\D/g, '') === String(n))", arg=size,
            timeout=TIMEOUT_MS)
        settle(page)
    page.evaluate(PROBE_JS, [KAPPA_LABEL, CUT])


def move(page: Page, key: str) -> dict[str, float | None]:
    """Move the cut point one arrow step; the delays and the main-thread work, in ms."""
    page.bring_to_front()  # a tab in the background gets no animation frames
    settle(page)
    before = busy(page)
    page.evaluate("() => { window.__wait = window.__bench.after(); }")
    page.locator(f'.qwk-cut[data-cut="{CUT}"]').press(key)
    times: dict[str, float | None] = dict(page.evaluate("() => window.__wait"))
    after = busy(page)
    times.update({kind: after[kind] - before[kind] for kind in after})
    return times


def report(figures: Figures, repeats: int) -> bool:
    small, large = SIZES
    print(f"\nChromium {VIEWPORT['width']}x{VIEWPORT['height']}, 'From scores to ratings', one "
          f"arrow step of cut point {CUT + 1}; median of {repeats}; ratio = n {large:,} / "
          f"n {small:,}")
    print(f"{'measure':<28} {f'n = {small:,}':>12} {f'n = {large:,}':>14} {'ratio':>7}")
    for measure in ("move->kappa", "move->settled",
                    *(f"main thread {kind}" for kind in BUSY_METRICS.values())):
        a, b = (figures.median(f"{n} {measure}") for n in SIZES)
        if a is None or b is None:
            print(f"{measure:<28} {'-' if a is None else f'{a:.0f} ms':>12} "
                  f"{'-' if b is None else f'{b:.0f} ms':>14}")
            continue
        print(f"{measure:<28} {a:9.0f} ms {b:11.0f} ms {b / a:6.2f}x")
    settled = figures.median(f"{large} move->settled")
    worst = max(figures.samples[f"{large} move->settled"])
    met = settled is not None and settled <= GOAL_MS
    print(f"Goal: at n = {large:,} a moved cut point settles within {GOAL_MS} ms: "
          f"median {settled:.0f} ms, slowest {worst:.0f} ms: {'met' if met else 'NOT met'}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=8)
    parser.add_argument("--profile", action="store_true",
                        help="also profile one move at n = 100,000 and print where the time goes")
    args = parser.parse_args()
    figures = Figures()
    with chromium("qwk-bench-thresholds-") as (browser, logs), serve_app(logs) as app:
        pages: dict[int, Page] = {}
        for size in SIZES:
            pages[size] = new_page(browser)
            open_size(pages[size], f"{app.url}/thresholds?lang=en", size)
        for page in pages.values():  # one unmeasured move each: fresh elements drawn
            move(page, "ArrowRight")
            move(page, "ArrowLeft")
        for k in range(args.repeats):
            for size, page in pages.items():
                times = move(page, "ArrowRight" if k % 2 == 0 else "ArrowLeft")
                if times["kappa"] is not None:
                    figures.add(f"{size} move->kappa", times["kappa"])
                for name, value in times.items():
                    if name != "kappa" and value is not None:
                        label = "move->settled" if name == "idle" else f"main thread {name}"
                        figures.add(f"{size} {label}", value)
        if args.profile:
            large = pages[SIZES[-1]]
            profile_edit(browser, large, "move of a cut point",
                         lambda: move(large, "ArrowRight"))
    report(figures, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
