"""Benchmark of ``qwk-explained check --batch``: a class's file graded by a baseline and by this
checkout, side by side.

Run from the checkout (on a shared machine, alone: it keeps a core busy for minutes):
``.venv/bin/python -m bench.bench_batch --lines 1e5 1e6`` (options: ``--baseline REF``, the git
revision to compare with, default ``main``; ``--csv``, the spreadsheet output instead of JSON
Lines; ``--lang``).

For each size it writes a JSON Lines file of that many submissions (9 in 10 gradable: ten ratings
and four answers, or a 3 x 3 table; 1 in 10 a line that cannot be checked: vectors of different
lengths, an unknown quantity, an answer that is no number, a line that is no JSON), runs
``python -m qwk_explained check --batch FILE`` once with the baseline's code and once with this
checkout's, and prints for each

* the time until the first result line reaches standard output (streaming: about one line's work);
* the total time;
* the peak resident memory of the process (``wait4``'s ``ru_maxrss``): flat in the number of lines
  when the batch streams;
* the number of output lines (one per non-empty input line) and the exit status;

and the ratio of this checkout to the baseline. The baseline is exported with ``git archive`` into
a temporary folder, so the comparison runs in one go on the same machine and the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def submission(rng: random.Random, number: int) -> str:
    """One line of a class's file; every tenth line is one that cannot be checked."""
    ident = f"student-{number:07d}"
    kind = number % 10
    if kind == 9:
        bad = number // 10 % 4
        if bad == 0:
            return json.dumps({"id": ident, "actual": [1, 2, 3], "predicted": [1, 2],
                               "answers": {"kappa": "0.5"}})
        if bad == 1:
            return json.dumps({"id": ident, "actual": [1, 2, 3], "predicted": [1, 2, 2],
                               "answers": {"kapa": "0.5"}})
        if bad == 2:
            return json.dumps({"id": ident, "actual": [1, 2, 3], "predicted": [1, 2, 2],
                               "answers": {"kappa": "zwei"}})
        return '{"id": "' + ident + '", "actual": [1, 2'
    if kind % 3 == 2:
        table = [[rng.randint(0, 9) for _ in range(3)] for _ in range(3)]
        table[0][0] += 1
        return json.dumps({"id": ident, "table": table, "labels": [1, 2, 3],
                           "answers": {"observed": {"1,1": table[0][0]}, "numerator": "0,31",
                                       "kappa": "0.42"}})
    actual = [rng.randint(0, 4) for _ in range(10)]
    predicted = [min(4, max(0, a + rng.choice((-1, 0, 0, 1)))) for a in actual]
    return json.dumps({"id": ident, "actual": actual, "predicted": predicted,
                       "answers": {"expected": {f"{actual[0]},{predicted[0]}": "2"},
                                   "numerator": "0.45", "denominator": 0.395,
                                   "kappa": f"{rng.uniform(-1, 1):.2f}"}})


def write_class(path: Path, lines: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as handle:
        for number in range(lines):
            handle.write(submission(rng, number) + "\n")


def export(ref: str, folder: Path) -> Path:
    """The code of ``ref`` in ``folder`` (``git archive``: no worktree to register or remove)."""
    archive = folder / "baseline.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref],
                       stdout=handle, check=True)
    code = folder / "baseline"
    code.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(code, filter="tar")
    archive.unlink()
    return code


@dataclass
class Run:
    first_line: float | None
    total: float
    peak_mb: float
    lines: int
    status: int


def run_batch(code: Path, path: Path, extra: list[str]) -> Run:
    """``check --batch`` with the package found in ``code``; output read as it arrives."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "qwk_explained", "check", "--batch", str(path), *extra],
        cwd=code, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    first: float | None = None
    count = 0
    while chunk := process.stdout.read1(1 << 16):
        if first is None:
            first = time.perf_counter() - start
        count += chunk.count(b"\n")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    total = time.perf_counter() - start
    return Run(first, total, usage.ru_maxrss / 1024, count, process.returncode)


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:9.2f} s"


def _ratio(after: float | None, before: float | None) -> str:
    if after is None or before is None or before == 0:
        return "-"
    return f"{after / before:.3g}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", nargs="+", type=float, default=[1e4])
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    parser.add_argument("--csv", action="store_true", help="spreadsheet output")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    extra = ["--lang", args.lang, *(["--csv"] if args.csv else [])]

    with tempfile.TemporaryDirectory(prefix="bench-batch-") as folder:
        baseline = export(args.baseline, Path(folder))
        print(f"check --batch {' '.join(extra)}: baseline {args.baseline} vs this checkout; "
              f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
        header = (f"{'lines':>9} {'':9} {'first line':>12} {'total':>12} {'peak RSS':>11} "
                  f"{'out lines':>10} {'exit':>4}")
        print(header)
        for size in args.lines:
            lines = int(size)
            path = Path(folder) / f"class-{lines}.jsonl"
            write_class(path, lines)
            runs = {"baseline": run_batch(baseline, path, extra),
                    "this": run_batch(ROOT, path, extra)}
            for name, run in runs.items():
                print(f"{lines:>9} {name:9} {_seconds(run.first_line):>12} "
                      f"{_seconds(run.total):>12} {run.peak_mb:8.0f} MB {run.lines:>10} "
                      f"{run.status:>4}")
            before, after = runs["baseline"], runs["this"]
            print(f"{lines:>9} {'ratio':9} {_ratio(after.first_line, before.first_line):>12} "
                  f"{_ratio(after.total, before.total):>12} "
                  f"{_ratio(after.peak_mb, before.peak_mb):>11}")
            path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
