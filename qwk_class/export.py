"""The class's check answers as the spreadsheet ``qwk-explained check --batch --csv`` writes.

The export *is* the command line's batch grader, run on the class's submissions (one JSON line
each, the nickname as its ``id``): the teacher's file has the same columns, verdicts and
explanations as a class graded after the fact from files, and the same protection against cells
a spreadsheet would run as formulas. The app never imports the command line (a layer contract);
it runs it, as a teacher would, in a process of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .classroom import ClassData

#: Longest wait for the command line to grade a class (400 students take a few seconds).
EXPORT_TIMEOUT_S = 120
_ROOT = Path(__file__).resolve().parent.parent


class ExportError(RuntimeError):
    """The command line failed; the message holds what it printed."""


def batch_lines(data: ClassData, sent: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """The submissions as ``check --batch`` reads them: one JSON object per line."""
    lines = []
    for nickname, payload in sent:
        line: dict[str, Any] = {"id": nickname, "actual": data.actual,
                                "predicted": data.predicted, "weights": data.weights,
                                "scale": data.scale, "answers": payload["answers"]}
        if data.min_rating is not None:
            line["min_rating"] = data.min_rating
        if data.max_rating is not None:
            line["max_rating"] = data.max_rating
        lines.append(json.dumps(line, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def check_csv(data: ClassData, sent: Sequence[tuple[str, Mapping[str, Any]]],
              lang: str) -> str:
    """The CSV of ``check --batch - --csv --lang <lang>`` for these submissions."""
    done = subprocess.run(
        [sys.executable, "-m", "qwk_explained", "check", "--batch", "-", "--csv", "--lang", lang],
        input=batch_lines(data, sent), capture_output=True, text=True, cwd=_ROOT,
        timeout=EXPORT_TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise ExportError(done.stderr.strip()[-2000:])
    return done.stdout
