"""Benchmark of the core against scikit-learn and against a single ``np.bincount`` pass.

Run from the checkout: ``.venv/bin/python -m bench.bench_core`` (options: ``--sizes 1e4 1e6``,
``--repeat 7``).

For n = 1e4, 1e6 and 1e7 random int64 ratings 0..5 it prints the median time per call (timeit
style: each repeat runs the call enough times to last about 0.2 s) of

* ``quadratic_weighted_kappa`` vs ``sklearn.metrics.cohen_kappa_score(weights="quadratic")``
  (goal: at least 30x faster at n = 1e6);
* ``quadratic_weighted_kappa`` vs one ``np.bincount(actual)`` over the same data (goal: <= 1.5x);
* ``walkthrough`` vs that same bincount (goal: <= 3x);

and PASS/FAIL against each goal. scikit-learn is skipped at a size where one call is predicted to
take longer than ``--sklearn-budget`` seconds (from the previous size's time, scaled by n).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import timeit
from collections.abc import Callable

import numpy as np

from qwk_explained import quadratic_weighted_kappa, walkthrough

SKLEARN_SPEEDUP_GOAL = 30.0  # at n = 1e6
SKLEARN_GOAL_SIZE = 1_000_000
FAST_VS_BINCOUNT_GOAL = 1.5
WALKTHROUGH_VS_BINCOUNT_GOAL = 3.0


def calls_per_repeat(function: Callable[[], object], min_seconds: float) -> int:
    """How many calls make one repeat last about ``min_seconds`` (after a warm-up call)."""
    elapsed = timeit.Timer(function).timeit(1)
    return 1 if elapsed >= min_seconds else max(1, int(min_seconds / max(elapsed, 1e-9)))


def interleaved_times(functions: dict[str, Callable[[], object]], repeat: int,
                      min_seconds: float = 0.2) -> dict[str, list[float]]:
    """Seconds per call of each function, ``repeat`` times, taking turns within each repeat.

    Taking turns keeps the ratios fair on a shared machine whose load drifts during the run.
    """
    timers = {name: (timeit.Timer(f), calls_per_repeat(f, min_seconds))
              for name, f in functions.items()}
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, (timer, number) in timers.items():
            times[name].append(timer.timeit(number) / number)
    return times


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "skipped"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:8.3f} {unit}"
    return f"{seconds / 1e-9:8.1f} ns"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=7, help="repeats per measurement (median)")
    parser.add_argument("--sklearn-budget", type=float, default=5.0,
                        help="skip sklearn when one call is predicted to take longer (seconds)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    try:
        import sklearn
        from sklearn.metrics import cohen_kappa_score
    except ImportError:  # pragma: no cover - sklearn is a dev dependency
        cohen_kappa_score, sklearn = None, None

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"scikit-learn {getattr(sklearn, '__version__', 'absent')}, "
          f"{os.cpu_count()} CPUs, load average {load:.2f}")
    print(f"median of {args.repeat} repeats (3 at n > 1e6 with sklearn), the functions taking "
          "turns within each repeat; ratings 0..5, int64\n")

    header = (f"{'n':>10} | {'bincount':>11} | {'qwk fast':>11} {'x bincount':>10} | "
              f"{'walkthrough':>11} {'x bincount':>10} | {'sklearn':>11} {'sklearn/fast':>12}")
    print(header)
    print("-" * len(header))

    rng = np.random.default_rng(args.seed)
    rows = []
    sklearn_per_item: float | None = None
    for size in args.sizes:
        n = int(size)
        actual = rng.integers(0, 6, n, dtype=np.int64)
        predicted = np.where(rng.random(n) < 0.6, actual, rng.integers(0, 6, n, dtype=np.int64))

        fast_value = quadratic_weighted_kappa(actual, predicted)
        assert abs(walkthrough(actual, predicted).kappa - fast_value) < 1e-12

        functions: dict[str, Callable[[], object]] = {
            "bincount": lambda a=actual: np.bincount(a),
            "fast": lambda a=actual, b=predicted: quadratic_weighted_kappa(a, b),
            "walkthrough": lambda a=actual, b=predicted: walkthrough(a, b),
        }
        skipped_reason = ""
        if cohen_kappa_score is None:
            skipped_reason = "scikit-learn not installed"
        elif sklearn_per_item is not None and sklearn_per_item * n > args.sklearn_budget:
            skipped_reason = (f"sklearn skipped at n={n:.0e}: one call predicted to take "
                              f"{sklearn_per_item * n:.1f} s > {args.sklearn_budget} s budget")
        else:
            sk_value = cohen_kappa_score(actual, predicted, weights="quadratic")
            assert abs(sk_value - fast_value) < 1e-9, (sk_value, fast_value)
            functions["sklearn"] = (lambda a=actual, b=predicted:
                                    cohen_kappa_score(a, b, weights="quadratic"))
        repeat = args.repeat if n <= SKLEARN_GOAL_SIZE or "sklearn" not in functions else 3
        times = interleaved_times(functions, repeat)
        median = {name: statistics.median(values) for name, values in times.items()}
        paired = {name: statistics.median(t / b for t, b in zip(values, times["bincount"],
                                                                 strict=True))
                  for name, values in times.items()}
        t_bincount, t_fast, t_walk = median["bincount"], median["fast"], median["walkthrough"]
        t_sklearn = median.get("sklearn")
        if t_sklearn is not None:
            sklearn_per_item = t_sklearn / n

        # Ratios: median over repeats of the ratio within each repeat (robust to load drift).
        fast_ratio, walk_ratio = paired["fast"], paired["walkthrough"]
        speedup = None if t_sklearn is None else statistics.median(
            s / f for s, f in zip(times["sklearn"], times["fast"], strict=True))
        rows.append((n, fast_ratio, walk_ratio, speedup, skipped_reason))
        print(f"{n:>10.0e} | {fmt_time(t_bincount):>11} | {fmt_time(t_fast):>11} "
              f"{fast_ratio:>9.2f}x | {fmt_time(t_walk):>11} {walk_ratio:>9.2f}x | "
              f"{fmt_time(t_sklearn):>11} {'' if speedup is None else f'{speedup:11.1f}x':>12}")

    print()
    failures = 0
    for n, fast_ratio, walk_ratio, speedup, skipped_reason in rows:
        checks = [
            (f"qwk fast <= {FAST_VS_BINCOUNT_GOAL}x bincount", fast_ratio,
             fast_ratio <= FAST_VS_BINCOUNT_GOAL, "x"),
            (f"walkthrough <= {WALKTHROUGH_VS_BINCOUNT_GOAL}x bincount", walk_ratio,
             walk_ratio <= WALKTHROUGH_VS_BINCOUNT_GOAL, "x"),
        ]
        if n == SKLEARN_GOAL_SIZE and speedup is not None:
            checks.append((f"qwk fast >= {SKLEARN_SPEEDUP_GOAL:.0f}x faster than sklearn",
                           speedup, speedup >= SKLEARN_SPEEDUP_GOAL, "x"))
        for name, value, ok, unit in checks:
            failures += not ok
            print(f"n={n:<8.0e} {name:<40} {value:8.2f}{unit}  {verdict(ok)}")
        if skipped_reason:
            print(f"n={n:<8.0e} {skipped_reason}")
    if SKLEARN_GOAL_SIZE not in [row[0] for row in rows]:
        print("(the sklearn goal is measured at n=1e6, which was not run)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
