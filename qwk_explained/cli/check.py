r"""``qwk-explained check``: grade hand calculations of weighted kappa, one or a whole class.

One submission: the data as for the walkthrough (``--actual``/``--predicted``, files, or
``--table``), and the learner's values as JSON in ``--answers FILE`` (``-`` for standard input):

.. code-block:: json

    {"observed": {"4,0": 4}, "expected": [[...], ...], "numerator": "0,45", "kappa": "-0.14"}

Any subset of ``observed``, ``weights``, ``expected``, ``observed_norm``, ``expected_norm`` (a
full nested list, or cells keyed ``"i,j"`` by rating labels), ``actual_hist``, ``predicted_hist``
(a list, or keyed by rating), ``numerator``, ``denominator``, ``kappa``. The text output walks
through the steps in the chosen language and names the first wrong one; ``--json`` prints one
object.

A class: ``--batch FILE`` reads JSON Lines, one submission per line (``id``, ``actual`` and
``predicted`` or ``table`` with optional ``labels``, optional ``weights``, ``scale``,
``min_rating``, ``max_rating``, and ``answers``), and writes one JSON line per submission, or
with ``--csv`` one CSV row per submission and quantity for a spreadsheet. A line that cannot be
checked gets ``{"id", "error": {"code", "message"}}`` and the batch goes on.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from qwk_explained.core.csvfile import decode_text
from qwk_explained.core.errors import QwkError
from qwk_explained.core.parse import parse_vector, shorten
from qwk_explained.core.steps import Walkthrough, walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.core.types import Scale, is_scale
from qwk_explained.present import feedback
from qwk_explained.present.catalogue import STEP_OF, STEPS
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import language
from qwk_explained.teaching.checking import (
    VERDICTS,
    CheckedAnswer,
    SubmissionError,
    answers_from_mapping,
    cell_labels,
    check_answers,
    first_wrong,
)
from qwk_explained.teaching.mistakes import CODES

from .args import (
    OPTIONS_TITLE,
    PROG,
    add_common_options,
    add_data_options,
    help_text,
    metavars,
    new_parser,
)
from .errors import CliError
from .inputs import compute, read_bytes, table_labels
from .json_output import plain
from .text import TerminalText, header_lines

#: The columns of ``--batch ... --csv``: one row per submission and quantity.
CSV_COLUMNS = ("id", "quantity", "checked", "right", "wrong", "verdict", "diagnoses",
               "first_wrong_cell", "given", "correct", "explanation", "error")
#: Keys a line of ``--batch`` may hold.
BATCH_KEYS = ("id", "actual", "predicted", "table", "labels", "weights", "scale", "min_rating",
              "max_rating", "answers")


def build_check_parser(lang: str) -> argparse.ArgumentParser:
    """The parser of ``qwk-explained check``, every help text in ``lang``."""
    parser = new_parser(lang, f"{PROG} check", t(lang, "cli.check_description"), [
        f'{PROG} check --actual "4,4,3,4,4,4,1,1,2,1" --predicted "0,2,1,0,0,0,1,1,2,1" '
        "--answers answers.json",
        f'{PROG} check --table "1,2;0,3" --min-rating 1 --answers - --json',
        f"{PROG} check --batch class.jsonl --csv > grades.csv",
    ])
    group = parser.add_argument_group(OPTIONS_TITLE)
    add_data_options(group, lang)
    metavar = metavars(lang)
    group.add_argument("--answers", metavar=metavar["path"],
                       help=help_text(lang, "help_answers"))
    group.add_argument("--batch", metavar=metavar["path"], help=help_text(lang, "help_batch"))
    group.add_argument("--csv", action="store_true", help=help_text(lang, "help_csv"))
    add_common_options(group, lang, json_help="help_check_json")
    return parser


def run_check(args: argparse.Namespace, lang: str) -> str:
    """The output of ``check`` for parsed options; raises a QwkError for a problem with them."""
    data_options = {"--actual": args.actual, "--predicted": args.predicted,
                    "--actual-file": args.actual_file, "--predicted-file": args.predicted_file,
                    "--table": args.table, "--scale": args.scale,
                    "--min-rating": args.min_rating, "--max-rating": args.max_rating,
                    "--answers": args.answers}
    if args.batch is not None:
        for option, value in data_options.items():
            if value is not None:
                raise CliError("conflicting_options", first="--batch", second=option)
        if args.json and args.csv:
            raise CliError("conflicting_options", first="--json", second="--csv")
        graded = list(batch_records(read_text(args.batch), lang))
        if args.csv:
            return batch_csv(graded)
        return "".join(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"
                       for record, _ in graded)
    if args.answers is None:
        raise CliError("missing_answers")
    args.confidence = "0.95"
    result, _ = compute(args)
    answers = _json_value(read_text(args.answers), args.answers)
    checked = _checked(result, answers, lang)
    record = submission_json(None, result, checked)
    if args.json:
        return json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"
    if args.csv:
        return batch_csv([(record, explanations(result, checked, lang))])
    # The scale was checked when the ratings were read; a table has none ("range" is its labels).
    scale: Scale = args.scale if is_scale(args.scale) else "range"
    return render_check(result, checked, lang, scale)


def read_text(path: str) -> str:
    """A text file (``-``: standard input), decoded like the rating files."""
    return decode_text(read_bytes(path))


def _json_value(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError("not_json", source=source, line=error.lineno) from None


def _checked(result: Walkthrough, answers: Any, lang: str) -> tuple[CheckedAnswer, ...]:
    """Every answer checked; the first one that is no number stops the submission."""
    group = language(lang).group
    checked = check_answers(result, answers_from_mapping(result, answers, group), group)
    for answer in checked:
        if answer.problem is not None:
            raise SubmissionError("unreadable", where=feedback.symbol(lang, result, answer),
                                  message=answer.problem)
    return checked


# --- one submission as data --------------------------------------------------------------------


def answer_json(result: Walkthrough, answer: CheckedAnswer) -> dict[str, Any]:
    labels = cell_labels(result, answer.cell)
    return {
        "quantity": answer.quantity,
        "cell": None if labels is None else list(labels),
        "given": plain(answer.given),
        "correct": plain(answer.correct),
        "verdict": answer.verdict,
        "diagnoses": list(answer.diagnoses),
        "reading": answer.reading,
        "note": answer.note,
    }


def first_wrong_json(result: Walkthrough, checked: Sequence[CheckedAnswer]) -> Any:
    wrong = first_wrong(checked)
    if wrong is None:
        return None
    step = STEP_OF[wrong.quantity]
    labels = cell_labels(result, wrong.cell)
    return {"step": step.number, "slug": step.slug, "quantity": wrong.quantity,
            "cell": None if labels is None else list(labels)}


def submission_json(identifier: Any, result: Walkthrough,
                    checked: Sequence[CheckedAnswer]) -> dict[str, Any]:
    """One graded submission: ``{"id", "kappa", "answers", "first_wrong_step"}``."""
    return {"id": identifier, "kappa": plain(result.kappa),
            "answers": [answer_json(result, answer) for answer in checked],
            "first_wrong_step": first_wrong_json(result, checked)}


# --- a class --------------------------------------------------------------------------------------


def _line_result(data: Mapping[str, Any]) -> Walkthrough:
    """The walkthrough of one batch line: a table (optionally labelled) or two rating vectors."""
    unknown = [key for key in data if key not in BATCH_KEYS]
    if unknown:
        raise SubmissionError("unknown_key", key=shorten(str(unknown[0]), 40),
                              choices=", ".join(BATCH_KEYS))
    weights = data.get("weights", "quadratic")
    if "table" in data:
        for key in ("actual", "predicted", "scale"):
            if key in data:
                raise SubmissionError("table_and_vectors", key=key)
        table = data["table"]
        counts = parse_table(table) if isinstance(table, str) else table
        labels = data.get("labels")
        if labels is None and ("min_rating" in data or "max_rating" in data):
            size = len(parse_table(table)) if isinstance(table, str) else len(table)
            labels = table_labels(size, _integer(data.get("min_rating")),
                                  _integer(data.get("max_rating")))
        return walkthrough_from_table(counts, weights=weights, labels=labels)
    if "actual" not in data or "predicted" not in data:
        raise SubmissionError("no_ratings")
    actual, predicted = (parse_vector(value) if isinstance(value, str) else value
                         for value in (data["actual"], data["predicted"]))
    return walkthrough(actual, predicted, weights=weights, scale=data.get("scale", "range"),
                       min_rating=data.get("min_rating"), max_rating=data.get("max_rating"))


def _integer(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SubmissionError("bad_rating_bound", value=shorten(str(value)))
    try:
        return int(value)
    except ValueError:
        raise SubmissionError("bad_rating_bound", value=shorten(str(value))) from None


#: A graded line of a batch: its JSON record, and for each quantity the explanation of its first
#: wrong value in the chosen language (for the CSV export).
Graded = tuple[dict[str, Any], dict[str, str]]


def batch_records(text: str, lang: str) -> Iterator[Graded]:
    """One graded record per non-empty line: a checked submission, or the line's error."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        identifier: Any = None
        try:
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                raise SubmissionError("invalid_json", line=number) from None
            if not isinstance(data, dict):
                raise SubmissionError("not_an_object_line", line=number)
            identifier = data.get("id")
            if isinstance(identifier, dict | list):
                identifier = json.dumps(identifier, ensure_ascii=False)
            result = _line_result(data)
            if "answers" not in data:
                raise SubmissionError("no_answers")
            checked = _checked(result, data["answers"], lang)
            yield (submission_json(identifier, result, checked),
                   explanations(result, checked, lang))
        except QwkError as error:
            yield {"id": identifier,
                   "error": {"code": error.key, "message": message(lang, error)}}, {}


def explanations(result: Walkthrough, checked: Sequence[CheckedAnswer],
                 lang: str) -> dict[str, str]:
    """For each quantity with a wrong value, what is said about the first one."""
    found: dict[str, str] = {}
    for answer in checked:
        if answer.wrong and answer.quantity not in found:
            found[answer.quantity] = feedback.joined(
                lang, feedback.explanation(lang, result, answer))
    return found


def batch_csv(graded: Sequence[Graded]) -> str:
    """One row per submission and quantity: how many values were checked and right, the worst
    verdict, every mistake named, the first wrong cell and what is said about it. Numbers are
    written with a point, for any spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for record, said in graded:
        if "error" in record:
            writer.writerow([_cell(record["id"]), *[""] * (len(CSV_COLUMNS) - 3),
                             record["error"]["code"], record["error"]["message"]])
            continue
        by_quantity: dict[str, list[dict[str, Any]]] = {}
        for answer in record["answers"]:
            by_quantity.setdefault(answer["quantity"], []).append(answer)
        for quantity, answers in by_quantity.items():
            wrong = [answer for answer in answers if answer["verdict"] == "wrong"]
            codes = {code for answer in answers for code in answer["diagnoses"]}
            scalar = answers[0] if answers[0]["cell"] is None else None
            writer.writerow([
                _cell(record["id"]), quantity, len(answers), len(answers) - len(wrong),
                len(wrong), max((answer["verdict"] for answer in answers), key=VERDICTS.index),
                " ".join(code for code in CODES if code in codes),
                ",".join(map(str, wrong[0]["cell"])) if wrong and wrong[0]["cell"] else "",
                _cell(scalar["given"]) if scalar else "",
                _cell(scalar["correct"]) if scalar else "", said.get(quantity, ""), "",
            ])
    return out.getvalue()


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


# --- one submission as text -----------------------------------------------------------------------

def render_check(result: Walkthrough, checked: Sequence[CheckedAnswer], lang: str,
                 scale: Scale = "range") -> str:
    """Every checked value under its step, with its verdict and the mistakes named, then the
    count of right values and the first wrong step."""
    tx = TerminalText(lang)
    name = tx(f"common.kappa_name.{result.weights_name}")
    lines = [tx.prose("cli.check_title", name=name), *header_lines(tx, result, scale)[1:]]
    if result.kappa is None:
        lines.append(tx.prose(f"undefined.{result.undefined_reason}"))
    for step in STEPS:
        answers = [answer for answer in checked if answer.quantity in step.quantities]
        if not answers:
            continue
        lines += ["", tx.prose_text(step.heading(lang))]
        for answer in answers:
            place = feedback.symbol(lang, result, answer)
            lines.append(f"  {feedback.mark(answer)} {place} = {answer.text.strip()}: "
                         + feedback.verdict_line(lang, answer))
            more = feedback.explanation(lang, result, answer)
            if answer.correct is not None and answer.verdict in ("rounding", "wrong"):
                more.insert(0, tx("checker.exact_value", value=tx.num(answer.correct)))
            for sentence in more:
                lines += ["      " + line for line in tx.prose_text(sentence).splitlines()]
    lines.append("")
    if first_wrong(checked) is None:
        lines.append(tx.prose("checker.summary_all_right", count=len(checked)))
    else:
        lines.append(tx.prose_text(feedback.first_wrong_sentence(lang, result, checked)))
    return "\n".join(lines) + "\n"
