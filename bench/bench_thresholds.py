"""Benchmark of the cut-point optimizer against Kaggle's OptimizedRounder, side by side.

Run from the checkout: ``.venv/bin/python -m bench.bench_thresholds`` (options: ``--sizes 1e4
1e5``, ``--seeds 5``, ``--repeat 5``).

For each n and each data set (5 ratings; several seeds of each of the kinds below) it fits

* **OptimizedRounder** as the Kaggle notebooks write it (PetFinder discussion 76107 and its
  copies): ``scipy.optimize.minimize(loss, [0.5, 1.5, 2.5, 3.5], method="nelder-mead")`` where
  the loss is minus ``sklearn.metrics.cohen_kappa_score(y, X_p, weights="quadratic")`` and
  ``X_p`` gives 0 below the first cut, 1 below the second..., 4 otherwise. The notebooks'
  per-item Python loop is written as one ``np.select`` (the same ratings, only faster, so the
  comparison favours it);
* **optimize_thresholds(..., folds=0)**, and with ``folds=5`` for the cost of cross-validation;

and prints each one's kappa (both scored by ``quadratic_weighted_kappa`` on the 0..4 scale),
the time of one fit (OptimizedRounder once; ours the median of ``--repeat``), and the speed-up.
Goals: our kappa >= OptimizedRounder's on every data set; >= 20x faster at n = 1e5 without
cross-validation. Data sets (``scored_example`` with its seed, then reshaped):

* ``shrunk``: the bundled regression, scores shrunk towards the mean as a regressor's are;
* ``ties``: the same scores rounded to one decimal (many ties, few distinct scores);
* ``skewed``: the scores squeezed into a narrow band (0.25 x + 1.5), far from the cuts 0.5, 1.5...
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import scipy.optimize
from numpy.typing import NDArray
from sklearn.metrics import cohen_kappa_score

from qwk_explained import apply_thresholds, optimize_thresholds, quadratic_weighted_kappa
from qwk_explained.teaching.examples import scored_example

SPEEDUP_GOAL = 20.0
GOAL_SIZE = 100_000

Data = tuple[NDArray[np.int64], NDArray[np.float64]]


class OptimizedRounder:
    """Kaggle's OptimizedRounder (PetFinder.my, discussion 76107), as the notebooks write it."""

    def __init__(self) -> None:
        self.coef_: NDArray[np.float64] = np.zeros(4)

    def _kappa_loss(self, coef: NDArray[np.float64], X: NDArray[np.float64],
                    y: NDArray[np.int64]) -> float:
        # The notebooks: for each pred, 0 if pred < coef[0], elif ... < coef[1]: 1 ... else 4.
        X_p = np.select([X < coef[0], X < coef[1], X < coef[2], X < coef[3]], [0, 1, 2, 3],
                        default=4)
        return -cohen_kappa_score(y, X_p, weights="quadratic")

    def fit(self, X: NDArray[np.float64], y: NDArray[np.int64]) -> None:
        loss_partial = partial(self._kappa_loss, X=X, y=y)
        initial_coef = [0.5, 1.5, 2.5, 3.5]
        self.coef_ = scipy.optimize.minimize(loss_partial, initial_coef,
                                             method="nelder-mead")["x"]

    def predict(self, X: NDArray[np.float64]) -> NDArray[np.int64]:
        coef = self.coef_
        return np.select([X < coef[0], X < coef[1], X < coef[2], X < coef[3]], [0, 1, 2, 3],
                         default=4)


def data_sets(n: int, seeds: int) -> dict[str, Data]:
    sets: dict[str, Data] = {}
    for seed in range(seeds):
        actual, scores = scored_example(n, seed=seed)
        sets[f"shrunk/{seed}"] = (actual, scores)
        sets[f"ties/{seed}"] = (actual, np.round(scores, 1))
        sets[f"skewed/{seed}"] = (actual, 0.25 * scores + 1.5)
    return sets


def timed(function: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, value


def median_time(function: Callable[[], object], repeat: int) -> float:
    return statistics.median(timed(function)[0] for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"scipy {scipy.__version__}, {os.cpu_count()} CPUs")
    header = (f"{'n':>7} {'data set':<10} {'rounding':>9} {'Nelder-Mead':>11} {'ours':>9} "
              f"{'ours-NM':>8} {'cv (5)':>8} {'t NM':>8} {'t ours':>8} {'t cv':>8} {'speed-up':>9}")
    print(header)
    print("-" * len(header))
    worst_gain, speedups = np.inf, []
    for size in args.sizes:
        n = int(size)
        for name, (actual, scores) in data_sets(n, args.seeds).items():
            rounder = OptimizedRounder()
            t_nm, _ = timed(lambda: rounder.fit(scores, actual))  # noqa: B023 - called at once
            kappa_nm = quadratic_weighted_kappa(actual, rounder.predict(scores),
                                                min_rating=0, max_rating=4)
            kappa_round = quadratic_weighted_kappa(
                actual, apply_thresholds(scores, [0.5, 1.5, 2.5, 3.5]), min_rating=0,
                max_rating=4)
            result = optimize_thresholds(actual, scores, folds=0)
            t_ours = median_time(lambda: optimize_thresholds(actual, scores, folds=0),  # noqa: B023
                                 args.repeat)
            t_cv, validated = timed(lambda: optimize_thresholds(actual, scores))  # noqa: B023
            gain = result.kappa - kappa_nm
            worst_gain = min(worst_gain, gain)
            if n == GOAL_SIZE:
                speedups.append(t_nm / t_ours)
            print(f"{n:>7} {name:<10} {kappa_round:>9.4f} {kappa_nm:>11.4f} {result.kappa:>9.4f} "
                  f"{gain:>+8.4f} {validated.cv_kappa:>8.4f} {t_nm * 1e3:>6.0f}ms "  # type: ignore[attr-defined]
                  f"{t_ours * 1e3:>6.1f}ms {t_cv * 1e3:>6.0f}ms {t_nm / t_ours:>8.0f}x")
    print()
    ok_kappa = worst_gain >= 0
    print(f"kappa: ours - Nelder-Mead >= 0 on every data set: smallest {worst_gain:+.4f} "
          f"{'PASS' if ok_kappa else 'FAIL'}")
    if speedups:
        low = min(speedups)
        print(f"speed at n = {GOAL_SIZE:,}, no cross-validation: smallest speed-up {low:.0f}x, "
              f"median {statistics.median(speedups):.0f}x (goal >= {SPEEDUP_GOAL:.0f}x) "
              f"{'PASS' if low >= SPEEDUP_GOAL else 'FAIL'}")


if __name__ == "__main__":
    main()
