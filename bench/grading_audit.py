"""How fair the checker's verdicts are to learners: right answers rejected, wrong ones accepted.

Run from the checkout: ``.venv/bin/python -m bench.grading_audit`` (options: ``--cases 1000``
datasets per group, ``--seed``, ``--before COMMIT``).

Learner work comes from this repository's own generator (:mod:`bench.learners`), modelled on the
teaching audit's: random datasets (N = 2..8, n = 5..60, every weighting and scale), learners who
write w, O/n and E/n to 3 (or 4) significant figures and sum the products by hand, kappa to 3 or
2 decimals; exact values truncated; num and den to 1 significant figure with a wrong kappa;
right values written too coarsely; undefined kappas; every classic mistake; practice exercises.
Each group is graded twice in the same run, by the checker of commit ``--before`` (the rule
"right to the digits written", extracted with ``git archive`` and run in a subprocess) and by
the checker of this tree, and one table prints, per group, the rate that matters:

- ``rejected``: right answers not accepted (marked wrong, too coarse or unreadable);
- ``accepted``: wrong answers accepted as right;
- ``named``: wrong answers whose mistake is named;
- ``counted wrong``: right values written too coarsely that are counted as wrong (they should
  be "too coarse": neither right nor wrong), and ``too coarse``: those that get that verdict.

The last row runs ``qwk-explained check --batch`` itself on lines with an undefined kappa and a
right "undefined" (or NaN, 0/0...), before and after.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.learners import (
    EXACT,
    MISTAKES,
    Data,
    Habits,
    applies,
    learner,
    random_data,
    random_habits,
    writing,
)

#: The commit the teaching audit graded: the rule "right to the digits written".
BEFORE = "45b61c3"
ROOT = Path(__file__).resolve().parent.parent
LEVELS = ("easy", "medium", "hard")
#: What learners type for a kappa of 0/0, in the four languages.
UNDEFINED_TEXTS = ("undefined", "NaN", "0/0", "—", "Undefined", "No definida", "无定义",
                   "tanımsız")


@dataclass(frozen=True)
class Item:
    """One graded value: the data (or a practice exercise), the learner's answers, the value
    looked at (``focus``), what it is (``right``, ``wrong`` or ``coarse``) and, for a mistake,
    its code."""

    group: str
    measure: str
    answers: dict[str, Any]
    focus: str
    data: dict[str, Any] | None = None
    exercise: tuple[int, str] | None = None
    code: str | None = None

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# --- the groups --------------------------------------------------------------------------------


def _defined(rng: np.random.Generator, weighting: str | None = None) -> Iterator[Data]:
    """Random datasets whose kappa is defined (den > 0) in the learner's own calculation."""
    while True:
        data = random_data(rng, weighting)
        work = learner(data, EXACT)
        if work["denominator"] > 1e-12:
            yield data


def _kappa(value: float, decimals: int = 3, truncate: bool = False) -> str:
    return writing(value, decimals=decimals, truncate=truncate)


def right_groups(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """Right answers: each must be accepted."""
    source = _defined(rng)
    for _ in range(cases):
        data = next(source)
        exact = learner(data, EXACT)
        three = learner(data, Habits(3, via_shares=bool(rng.random() < 0.5)))
        four = learner(data, Habits(4, via_shares=bool(rng.random() < 0.5)))
        full = learner(data, random_habits(rng))
        line = data.as_json()
        groups: list[tuple[str, dict[str, Any], str]] = [
            ("kappa to 3 dp, w, O/n, E/n to 3 s.f.", {"kappa": _kappa(three["kappa"])}, "kappa"),
            ("kappa to 2 dp, w, O/n, E/n to 3 s.f.", {"kappa": _kappa(three["kappa"], 2)},
             "kappa"),
            ("num to 3 s.f., w, O/n, E/n to 3 s.f.",
             {"numerator": writing(three["numerator"], figures=3)}, "numerator"),
            ("den to 3 s.f., w, O/n, E/n to 3 s.f.",
             {"denominator": writing(three["denominator"], figures=3)}, "denominator"),
            ("kappa to 3 dp, w, O/n, E/n to 4 s.f.", {"kappa": _kappa(four["kappa"])}, "kappa"),
            ("kappa to 3 dp, every step to 3 s.f. (rounded or truncated)",
             {"kappa": _kappa(full["kappa"])}, "kappa"),
            ("kappa truncated to 3 dp", {"kappa": _kappa(exact["kappa"], truncate=True)},
             "kappa"),
            ("num truncated to 3 s.f.",
             {"numerator": writing(exact["numerator"], figures=3, truncate=True)}, "numerator"),
            ("den truncated to 3 s.f.",
             {"denominator": writing(exact["denominator"], figures=3, truncate=True)},
             "denominator"),
        ]
        for decimals in (2, 3, 4):
            for truncate in (False, True):
                groups.append(("kappa to 2, 3 and 4 dp, rounded or truncated",
                               {"kappa": _kappa(exact["kappa"], decimals, truncate)}, "kappa"))
        num, den = writing(three["numerator"], figures=3), writing(three["denominator"], figures=3)
        own = 1 - float(num) / float(den)
        groups.append(("kappa from the learner's own num and den (3 s.f.), to 3 dp",
                       {"numerator": num, "denominator": den, "kappa": _kappa(own)}, "kappa"))
        for name, answers, focus in groups:
            yield Item(name, "rejected", answers, focus, line)


def undefined_group(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """A kappa of 0/0 answered as a learner answers it, with a right num and den of 0."""
    for k in range(cases):
        n, rating = int(rng.integers(1, 30)), int(rng.integers(-2, 6))
        data = Data((rating,) * n, (rating,) * n, str(rng.choice(["quadratic", "linear"])))
        text = UNDEFINED_TEXTS[k % len(UNDEFINED_TEXTS)]
        yield Item("undefined kappa answered 'undefined', 'NaN', '0/0', '—' or in words",
                   "rejected", {"numerator": "0", "denominator": "0", "kappa": text}, "kappa",
                   data.as_json())


def own_sums_groups(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """A wrong kappa next to num and den written to 1 (or 2) significant figures."""
    source = _defined(rng)
    for _ in range(cases):
        data = next(source)
        exact = learner(data, EXACT)
        for figures, offsets in ((1, (0.1, 0.2, 0.3, 0.5)), (2, (0.02, 0.05))):
            num = writing(exact["numerator"], figures=figures)
            den = writing(exact["denominator"], figures=figures)
            for offset in offsets:
                kappa = exact["kappa"] + offset * (1 if rng.random() < 0.5 else -1)
                yield Item(f"kappa wrong by {offset}, num and den to {figures} s.f.",
                           "accepted", {"numerator": num, "denominator": den,
                                        "kappa": _kappa(kappa)}, "kappa", data.as_json())


def coarse_group(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """Right values written with too few digits: w, E and num, den to 1 significant figure,
    kappa to 1 decimal (skipped where that writing is exact)."""
    source = _defined(rng)
    made = 0
    while made < cases:
        data = next(source)
        exact = learner(data, EXACT)
        labels = [int(x) for x in exact["labels"]]
        i, j = (int(x) for x in rng.integers(0, len(labels), 2))
        cell = f"{labels[i]},{labels[j]}"
        options = [("weights", {"weights": {cell: exact["weights"][i, j]}}),
                   ("expected", {"expected": {cell: exact["expected"][i, j]}}),
                   ("numerator", {"numerator": exact["numerator"]}),
                   ("denominator", {"denominator": exact["denominator"]}),
                   ("kappa", {"kappa": exact["kappa"]})]
        focus, raw = options[made % len(options)]
        value = next(iter(raw[focus].values())) if isinstance(raw[focus], dict) else raw[focus]
        text = (writing(value, decimals=1) if focus == "kappa"
                else writing(value, figures=1))
        if value == 0 or math.isclose(float(text), value, rel_tol=1e-12, abs_tol=1e-15):
            continue
        answers = {focus: {cell: text}} if isinstance(raw[focus], dict) else {focus: text}
        made += 1
        for measure in ("counted wrong", "too coarse"):
            yield Item("right values to 1 s.f. (kappa to 1 dp)", measure, answers, focus,
                       data.as_json())


def mistake_groups(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """Every classic mistake made by a learner who writes intermediates to 3 significant figures:
    kappa typed alone (3 dp), and num and den typed together (3 s.f.). A kappa accepted although
    mistaken is counted twice: among all, and among the mistakes whose value lies beyond the
    right value's band (those a careful learner cannot produce without the mistake)."""
    source = _defined(rng)
    for k in range(cases):
        data = next(source)
        right = learner(data, EXACT)
        habits = Habits(3, via_shares=bool(rng.random() < 0.5))
        apart = _apart(data)
        for code in MISTAKES:
            if not applies(code, data):
                continue
            work = learner(data, habits, code, "O" if k % 2 else "E")
            exact = learner(data, EXACT, code, "O" if k % 2 else "E")
            line = data.as_json()
            if math.isfinite(exact["kappa"]) and abs(exact["kappa"] - right["kappa"]) > 1e-9:
                answers = {"kappa": _kappa(work["kappa"])}
                for measure in ("accepted", "named"):
                    yield Item("classic mistakes, kappa alone (3 dp)", measure, answers,
                               "kappa", line, code=code)
                if apart("kappa", code, exact["kappa"]):
                    yield Item("classic mistakes beyond the band, kappa alone", "accepted",
                               answers, "kappa", line, code=code)
            if code == "counts_not_shares":
                continue  # a valid convention for num and den
            sums = {quantity: writing(work[quantity], figures=3)
                    for quantity in ("numerator", "denominator")}
            for quantity in ("numerator", "denominator"):
                if abs(exact[quantity] - right[quantity]) > 1e-9 * max(1.0, abs(right[quantity])):
                    for measure in ("accepted", "named"):
                        yield Item("classic mistakes, num and den (3 s.f.)", measure, sums,
                                   quantity, line, code=code)
                    if apart(quantity, code, exact[quantity]):
                        yield Item("classic mistakes beyond the band, num and den",
                                   "accepted", sums, quantity, line, code=code)


def _apart(data: Data) -> Callable[[str, str, float], bool]:
    """Whether a mistake's value lies beyond the right value's band plus its own band and the
    reach of its writing (3 decimals, or 3 significant figures), and is not also the value of
    the counts convention (n times num or den), which is right: the bands are this tree's
    (:mod:`qwk_explained.teaching.hand_rounding`)."""
    from qwk_explained import walkthrough
    from qwk_explained.teaching.checking import reference
    from qwk_explained.teaching.mistakes import mistake_model

    result = walkthrough(data.actual, data.predicted, weights=data.weighting, scale=data.scale)
    model = mistake_model(result)

    def apart(quantity: str, code: str, value: float) -> bool:
        right = reference(result, quantity)  # type: ignore[arg-type]
        if right is None:
            return False
        reach = 0.0015 if quantity == "kappa" else 0.0015 * abs(value)
        mine = [c.spread for c in model.candidates(quantity)  # type: ignore[arg-type]
                if c.codes == frozenset({code}) and abs(c.value - value) < 1e-9 * max(1, value)]
        conventions = [c.value for c in model.candidates(quantity)  # type: ignore[arg-type]
                       if c.convention]
        return (bool(mine) and abs(value - right) > model.band(quantity) + mine[0] + reach
                and not any(abs(value - c) < 0.01 * abs(c) for c in conventions))

    return apart


def practice_groups(cases: int, rng: np.random.Generator) -> Iterator[Item]:
    """Practice exercises: right answers from 3-s.f. intermediates, and a kappa off by 0.1-0.2
    beside num and den to 1 s.f."""
    from qwk_explained.teaching.exercises import make_exercise

    for seed in range(cases):
        for level in LEVELS:
            exercise = make_exercise(seed, level)
            data = Data(tuple(exercise.actual), tuple(exercise.predicted),
                        bounds=(0, exercise.size - 1))
            three = learner(data, Habits(3, via_shares=bool(rng.random() < 0.5)))
            exact = learner(data, EXACT)
            where = (seed, level)
            num, den = (writing(three[q], figures=3) for q in ("numerator", "denominator"))
            yield Item(f"practice {level}: kappa to 3 dp, 3-s.f. intermediates", "rejected",
                       {"kappa": _kappa(three["kappa"])}, "kappa", exercise=where)
            yield Item(f"practice {level}: num and den to 3 s.f.", "rejected",
                       {"numerator": num}, "numerator", exercise=where)
            yield Item(f"practice {level}: num and den to 3 s.f.", "rejected",
                       {"denominator": den}, "denominator", exercise=where)
            yield Item(f"practice {level}: num to 2 dp (counted wrong)", "counted wrong",
                       {"numerator": writing(exact["numerator"], decimals=2)}, "numerator",
                       exercise=where)
            offset = (0.1 + 0.1 * rng.random()) * (1 if rng.random() < 0.5 else -1)
            yield Item(f"practice {level}: kappa off by 0.1-0.2, num, den to 1 s.f.",
                       "accepted", {"numerator": writing(exact["numerator"], figures=1),
                                    "denominator": writing(exact["denominator"], figures=1),
                                    "kappa": _kappa(exact["kappa"] + offset)}, "kappa",
                       exercise=where)


GROUPS: tuple[Callable[[int, np.random.Generator], Iterator[Item]], ...] = (
    right_groups, undefined_group, own_sums_groups, coarse_group, mistake_groups,
    practice_groups)


def items(cases: int, seed: int) -> list[Item]:
    rng = np.random.default_rng(seed)
    return [item for group in GROUPS for item in group(cases, rng)]


# --- grading, with whichever qwk_explained is on the path -----------------------------------------


def grade(work: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The checker's verdict on each item's focus value: ``{"verdict", "diagnoses"}``. Uses only
    the API both rules share (``walkthrough``, ``answers_from_mapping``, ``check_answers``,
    ``check_answer``), so the same code grades with the old and the new checker."""
    from qwk_explained import walkthrough
    from qwk_explained.teaching import exercises
    from qwk_explained.teaching.checking import answers_from_mapping, check_answers
    from qwk_explained.teaching.mistakes import mistake_model

    models: dict[str, Any] = {}
    out = []
    for item in work:
        if item["exercise"] is not None:
            out.append(_grade_practice(exercises, item))
            continue
        key = json.dumps(item["data"], sort_keys=True)
        if key not in models:
            data = item["data"]
            result = walkthrough(data["actual"], data["predicted"], weights=data["weights"],
                                 scale=data["scale"], min_rating=data.get("min_rating"),
                                 max_rating=data.get("max_rating"))
            models = {key: (result, mistake_model(result))}
        result, model = models[key]
        checked = check_answers(result, answers_from_mapping(result, item["answers"]),
                                model=model)
        (answer,) = [a for a in checked if a.quantity == item["focus"]]
        out.append({"verdict": answer.verdict or "unreadable",
                    "diagnoses": list(answer.diagnoses)})
    return out


def _grade_practice(exercises: Any, item: dict[str, Any]) -> dict[str, Any]:
    seed, level = item["exercise"]
    exercise = exercises.make_exercise(seed, level)
    question = next(q for q in exercise.questions if q.kind == item["focus"])
    sums = {kind: text for kind, text in item["answers"].items() if kind != item["focus"]}
    attempt = exercises.check_answer(exercise, question, item["answers"][item["focus"]],
                                     ",", sums)
    verdict = {"correct": "right", "wrong": "wrong"}.get(attempt.status, attempt.status)
    return {"verdict": verdict, "diagnoses": []}


def _before_tree(commit: str, folder: Path) -> Path | None:
    """The package at ``commit``, extracted into ``folder`` (``None`` without git or the
    commit)."""
    archive = folder / "before.tar"
    try:
        subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), commit,
                        "qwk_explained", "locales"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    tree = folder / "before"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="fully_trusted")
    return tree


def grade_before(work: list[dict[str, Any]], commit: str,
                 batch: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], float] | None:
    """``grade`` and :func:`batch_rejected` run by the package of ``commit`` in a subprocess
    (``None`` if it is not available)."""
    with tempfile.TemporaryDirectory() as folder:
        tree = _before_tree(commit, Path(folder))
        if tree is None:
            return None
        source, verdicts = Path(folder) / "work.json", Path(folder) / "verdicts.json"
        source.write_text(json.dumps(work), encoding="utf-8")
        code = (f"import sys, json; sys.path[:0] = [{str(tree)!r}, {str(ROOT)!r}]\n"
                "from bench.grading_audit import grade\n"
                f"work = json.load(open({str(source)!r}, encoding='utf-8'))\n"
                f"json.dump(grade(work), open({str(verdicts)!r}, 'w', encoding='utf-8'))\n")
        subprocess.run([sys.executable, "-c", code], check=True, cwd=folder, env=_clean_env())
        return (list(json.loads(verdicts.read_text(encoding="utf-8"))),
                batch_rejected(batch, tree))


def _clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def batch_rejected(lines: list[dict[str, Any]], tree: Path) -> float:
    """The share of ``qwk-explained check --batch`` lines (each with a right kappa) whose kappa
    is not graded right, the whole line turned into an error included, with the package found
    in ``tree``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "class.jsonl"
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                        encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "qwk_explained", "check", "--batch",
                               str(path)], cwd=tree, env=_clean_env(), capture_output=True,
                              text=True, check=True)
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    right = sum(1 for record in records if "error" not in record and any(
        answer["quantity"] == "kappa" and answer["verdict"] in ACCEPTED
        for answer in record["answers"]))
    return 1.0 - right / len(lines)


# --- the table -----------------------------------------------------------------------------------

ACCEPTED = {"right", "rounding", "right_other_convention"}


def _hit(item: Item, verdict: dict[str, Any]) -> bool:
    """Whether the verdict counts in the item's measure."""
    if item.measure == "rejected":
        return verdict["verdict"] not in ACCEPTED
    if item.measure == "accepted":
        return verdict["verdict"] in ACCEPTED
    if item.measure == "named":
        return item.code in verdict["diagnoses"]
    if item.measure == "too coarse":
        return verdict["verdict"] == "too_coarse"
    return verdict["verdict"] == "wrong"  # counted wrong


def rates(work: list[Item], verdicts: list[dict[str, Any]]) -> dict[tuple[str, str], list[int]]:
    """Per group and measure: the hits, the values, and the rejections that were "too coarse"
    (not marked wrong, but asking for more digits)."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for item, verdict in zip(work, verdicts, strict=True):
        hit = _hit(item, verdict)
        counts[item.group, item.measure][0] += hit
        counts[item.group, item.measure][1] += 1
        counts[item.group, item.measure][2] += hit and verdict["verdict"] == "too_coarse"
    return counts


BATCH_GROUP = "undefined kappa in check --batch (line lost or kappa not right)"


def table(work: list[Item], before: list[dict[str, Any]] | None,
          after: list[dict[str, Any]], batch: tuple[int, float | None, float]) -> str:
    now = rates(work, after)
    then = rates(work, before) if before is not None else {}
    width = max(len(group) for group, _ in [*now, (BATCH_GROUP, "")]) + 2
    lines = [f"{'group':{width}}{'measure':>14}{'values':>8}{'before':>10}{'after':>10}"
             "   (after: of which too coarse)"]
    for key, (hits, total, coarse) in now.items():
        old = then.get(key)
        shown = f"{100 * old[0] / old[1]:9.1f}%" if old else f"{'n/a':>10}"
        note = f"   ({100 * coarse / total:.1f}%)" if key[1] == "rejected" and coarse else ""
        lines.append(f"{key[0]:{width}}{key[1]:>14}{total:8d}{shown}"
                     f"{100 * hits / total:9.1f}%{note}")
    count, old_rate, new_rate = batch
    shown = f"{100 * old_rate:9.1f}%" if old_rate is not None else f"{'n/a':>10}"
    lines.append(f"{BATCH_GROUP:{width}}{'rejected':>14}{count:8d}{shown}{100 * new_rate:9.1f}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000, help="datasets per group")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--before", default=BEFORE, help="commit of the rule to compare with")
    args = parser.parse_args(argv)
    work = items(args.cases, args.seed)
    payload = [item.as_json() for item in work]
    batch = [{**item.data, "answers": item.answers} for item in work
             if item.group.startswith("undefined kappa") and item.data is not None]
    after = grade(payload)
    old = grade_before(payload, args.before, batch)
    before, old_batch = (None, None) if old is None else old
    print(f"Grading audit: {args.cases} datasets per group, seed {args.seed}; before = commit "
          f"{args.before}{'' if old is not None else ' (not available: no git history)'}, "
          "after = this tree.")
    print(table(work, before, after, (len(batch), old_batch, batch_rejected(batch, ROOT))))


if __name__ == "__main__":
    main()
