"""How fast does the walkthrough page rerun? Measured side by side in one run (not a test).

Prints, at n = 10,000 items:
- the walkthrough page's rerun time through AppTest (frame + every step, 8 figures, formulas),
- the rerun time of a minimal page that draws three heatmaps with ``plotly.express.imshow`` for the
  same data (the baseline: goal, walkthrough <= 1.5 x baseline, though it shows far more),
- the first-render time of a fresh process (import + first full run of the app).

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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
