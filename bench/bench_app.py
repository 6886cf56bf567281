"""How fast does the walkthrough page rerun? Measured side by side in one run (not a test).

Prints, at n = 10,000 items:
- the walkthrough page's rerun time through AppTest (frame + every step, 8 figures, formulas),
- the rerun time of a minimal page that draws three heatmaps with ``plotly.express.imshow`` for the
  same data (the baseline: goal, walkthrough <= 1.5 x baseline, though it shows far more),
- the first-render time of a fresh process (import + first full run of the app);
- what step 6's cost map and list of fixes (where kappa is lost, issue 21) add to the
  walkthrough's rerun, and what the statistics section adds: the same page rerun with and without
  them, turn by turn in one process (goal: the cost map and the fixes add at most 10 %).

Usage, from the checkout: ``python -m bench.bench_app [--n 10000] [--repeats 15]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from qwk_explained.teaching.examples import random_ratings

ROOT = Path(__file__).resolve().parent.parent

BASELINE = textwrap.dedent("""
    import numpy as np
    import plotly.express as px
    import streamlit as st

    data = np.load({path!r})
    actual, predicted = data["actual"], data["predicted"]
    size = int(max(actual.max(), predicted.max())) + 1
    observed = np.bincount(actual * size + predicted, minlength=size * size).reshape(size, size)
    positions = np.arange(size)
    weights = (positions[:, None] - positions[None, :]) ** 2 / (size - 1) ** 2
    expected = np.outer(observed.sum(1), observed.sum(0)) / len(actual)
    for matrix in (observed, weights, expected):
        st.plotly_chart(px.imshow(matrix, text_auto=True))
""")


def median_rerun(at: AppTest, repeats: int) -> float:
    at.run()  # warm: caches filled, modules imported
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        assert not at.exception, at.exception
    return statistics.median(times)


def additions_overhead(at: AppTest, repeats: int) -> dict[str, float]:
    """Median rerun of the walkthrough as it is, without step 6's cost maps and fixes, and
    without those and the statistics section, taking turns run by run (so that the machine's
    load falls on the three alike). The page and its modules run in this process: the parts are
    switched off by swapping step 6's ``after`` and the section's function, then restored."""
    from qwk_app import uncertainty
    from qwk_explained.present import catalogue

    step6, section = catalogue.STEPS[5], uncertainty.section
    after = step6.after
    variants = {"full": (after, section), "without cost map and fixes": (None, section),
                "without those and the statistics": (None, lambda *args, **kwargs: None)}
    times: dict[str, list[float]] = {name: [] for name in variants}
    at.run()
    try:
        for _ in range(repeats):
            for name, (step_after, page_section) in variants.items():
                object.__setattr__(step6, "after", step_after)  # a frozen dataclass
                uncertainty.section = page_section
                start = time.perf_counter()
                at.run()
                times[name].append(time.perf_counter() - start)
                assert not at.exception, at.exception
    finally:
        object.__setattr__(step6, "after", after)
        uncertainty.section = section
    return {name: statistics.median(values) for name, values in times.items()}


def first_render_seconds(actual: str, predicted: str) -> float:
    script = textwrap.dedent(f"""
        from streamlit.testing.v1 import AppTest
        at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=120)
        at.query_params["actual"] = {actual!r}
        at.query_params["predicted"] = {predicted!r}
        at.run()
        assert not at.exception
    """)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    actual, predicted = random_ratings(args.n, 6, 0.6, seed=0)
    actual_text, predicted_text = ",".join(map(str, actual)), ",".join(map(str, predicted))

    page = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    page.query_params["actual"] = actual_text
    page.query_params["predicted"] = predicted_text
    walkthrough_time = median_rerun(page, args.repeats)
    parts = additions_overhead(page, max(args.repeats, 30))

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "data.npz")
        np.savez(path, actual=actual, predicted=predicted)
        baseline = AppTest.from_string(BASELINE.format(path=path), default_timeout=120)
        baseline_time = median_rerun(baseline, args.repeats)

    cold = first_render_seconds(actual_text, predicted_text)
    ratio = walkthrough_time / baseline_time
    print(f"n = {args.n:,} items, median of {args.repeats} reruns")
    print(f"{'walkthrough page rerun':<40} {walkthrough_time * 1000:8.1f} ms")
    print(f"{'baseline: 3 x px.imshow page rerun':<40} {baseline_time * 1000:8.1f} ms")
    print(f"{'ratio (goal <= 1.5)':<40} {ratio:8.2f}  {'PASS' if ratio <= 1.5 else 'FAIL'}")
    print(f"{'first render of a fresh process':<40} {cold * 1000:8.0f} ms")
    print(f"issue 21, turn by turn, median of {max(args.repeats, 30)} reruns each:")
    for name, seconds in parts.items():
        print(f"  {name:<38} {seconds * 1000:8.1f} ms")
    without = parts["without cost map and fixes"]
    added = parts["full"] / without - 1
    print(f"  {'cost map and fixes add (goal <= 10 %)':<38} {added * 100:8.1f} %  "
          f"{'PASS' if added <= 0.10 else 'FAIL'}")
    statistics_added = without / parts["without those and the statistics"] - 1
    print(f"  {'the statistics section adds':<38} {statistics_added * 100:8.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
