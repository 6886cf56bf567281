"""The bootstrap of kappa and of a paired difference against the naive loop, side by side.

Run from the checkout: ``.venv/bin/python -m bench.bench_resampling`` (options: ``--sizes 1e4 1e6``,
``--resamples 10000``, ``--naive-resamples 20``, ``--repeat 3``).

For n = 1e4, 1e5 and 1e6 items on N = 5 ratings (a model right about two times in three, a
second model that fixes some of its mistakes) it times, in one run:

* **ours, one kappa**: ``walkthrough(actual, predicted).bootstrap(B)`` from the vectors: O is
  counted once (O(n)), then each resample is a multinomial draw of O's cell counts (O(N²));
* **ours, a paired difference**: ``compare(actual, a, b, resamples=B)`` from the vectors: the
  N x N x N table once, then B paired resamples *and* B permutations of the test;
* **the naive loop**: per resample, ``rng.integers(0, n, n)`` item indices and
  ``sklearn.metrics.cohen_kappa_score`` on the resampled vectors (twice, one per model, for the
  difference), with the scale's labels given. The loop is timed on ``--naive-resamples``
  resamples only and **extrapolated** linearly to B (each resample costs the same), which the
  output says.

It prints the seconds of each, the ratio naive / ours and PASS/FAIL against the goals of issue 21:
at least 100x faster than the naive loop at n = 1e4, and time flat in n (ours at the largest n at
most twice ours at the smallest, where the naive loop grows about 100-fold).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable

import numpy as np

from qwk_explained import compare, walkthrough

SPEEDUP_GOAL = 100.0
SPEEDUP_GOAL_SIZE = 10_000
FLAT_GOAL = 2.0
SIZE = 5  # N, ratings 0..4


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Actual ratings, model A (right about two times in three), model B (A with half of its
    mistakes fixed)."""
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, SIZE, n)
    model_a = np.clip(actual + rng.choice([0, 0, 0, 0, -1, 1, -2, 2], n), 0, SIZE - 1)
    model_b = np.where(rng.random(n) < 0.5, actual, model_a)
    return actual, model_a, model_b


def median_seconds(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def naive_seconds_per_resample(actual: np.ndarray, models: tuple[np.ndarray, ...],
                               resamples: int, seed: int = 0) -> float:
    """Seconds per resample of the loop people write: indices, then scikit-learn per model."""
    from sklearn.metrics import cohen_kappa_score

    labels = list(range(SIZE))
    rng = np.random.default_rng(seed)
    n = len(actual)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cohen_kappa_score(actual[:100], models[0][:100], labels=labels, weights="quadratic")
        start = time.perf_counter()
        for _ in range(resamples):
            index = rng.integers(0, n, n)
            values = [cohen_kappa_score(actual[index], model[index], labels=labels,
                                        weights="quadratic") for model in models]
            _ = values[-1] - values[0]
        return (time.perf_counter() - start) / resamples


def fmt(seconds: float) -> str:
    return f"{seconds:10.3f} s" if seconds >= 1 else f"{seconds * 1000:10.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6])
    parser.add_argument("--resamples", type=int, default=10_000, help="B")
    parser.add_argument("--naive-resamples", type=int, default=20,
                        help="resamples the naive loop is timed on (then extrapolated to B)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats of ours (median)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes]
    resamples = args.resamples

    print(f"bootstrap of quadratic weighted kappa, N = {SIZE} ratings, B = {resamples:,} "
          f"resamples; {platform.python_implementation()} {platform.python_version()}, "
          f"numpy {np.__version__}, {os.cpu_count()} CPUs")
    print(f"naive loop: timed on {args.naive_resamples} resamples, EXTRAPOLATED to "
          f"{resamples:,} (x{resamples / args.naive_resamples:,.0f})")
    header = (f"{'n':>10} | {'what':<18} | {'ours':>13} | {'naive (extrap.)':>15} | "
              f"{'speed-up':>9}")
    print(header)
    print("-" * len(header))
    ours_by_kind: dict[str, list[float]] = {"kappa": [], "difference": []}
    verdicts = []
    for n in sizes:
        actual, model_a, model_b = data(n)
        kappa_time = median_seconds(
            lambda a=actual, p=model_a: walkthrough(a, p).bootstrap(resamples, seed=0),
            args.repeat)
        paired_time = median_seconds(
            lambda a=actual, x=model_a, y=model_b: compare(a, x, y, resamples=resamples, seed=0),
            args.repeat)
        naive_kappa = naive_seconds_per_resample(actual, (model_a,), args.naive_resamples)
        naive_pair = naive_seconds_per_resample(actual, (model_a, model_b), args.naive_resamples)
        for kind, ours, naive in (("kappa", kappa_time, naive_kappa * resamples),
                                  ("difference", paired_time, naive_pair * resamples)):
            ours_by_kind[kind].append(ours)
            ratio = naive / ours
            label = "kappa" if kind == "kappa" else "paired difference"
            mark = ""
            if n == SPEEDUP_GOAL_SIZE:
                passed = ratio >= SPEEDUP_GOAL
                verdicts.append(passed)
                mark = f"  goal >= {SPEEDUP_GOAL:.0f}x: {'PASS' if passed else 'FAIL'}"
            print(f"{n:>10,} | {label:<18} | {fmt(ours):>13} | {fmt(naive):>15} | "
                  f"{ratio:8,.0f}x{mark}")
    print()
    for kind, times in ours_by_kind.items():
        growth = times[-1] / times[0]
        passed = growth <= FLAT_GOAL
        verdicts.append(passed)
        print(f"ours, {kind}: time at n = {sizes[-1]:,} / time at n = {sizes[0]:,} = "
              f"{growth:.2f} (n grew {sizes[-1] / sizes[0]:,.0f}x; goal <= {FLAT_GOAL}: "
              f"{'PASS' if passed else 'FAIL'})")
    print("ours, paired difference: B resamples of the bootstrap and B permutations of the "
          "test; the naive loop does the bootstrap only.")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
