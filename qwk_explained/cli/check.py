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
checked gets ``{"id", "error": {"code", "message"}}`` and the batch goes on. A value that is not a
number never stops a submission: it gets the verdict ``unreadable`` with its ``problem`` (code and
message), and the other values are graded; a value with too few digits to grade gets
``too_coarse`` with the digits it ``needs``. Neither counts as right or wrong.

The command itself (options, reading, streaming a batch) is :func:`.core.run_check`; this module
grades one submission (:func:`grade_submission`, the per-line pipeline of a batch) and says what
it found: a JSON record, spreadsheet rows, or text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qwk_explained.core.errors import QwkError
from qwk_explained.core.parse import parse_vector, shorten
from qwk_explained.core.steps import Walkthrough, walkthrough, walkthrough_from_table
from qwk_explained.core.tables import as_table, parse_table
from qwk_explained.core.types import Scale
from qwk_explained.present import feedback
from qwk_explained.present.catalogue import STEP_OF, STEPS
from qwk_explained.present.i18n import message
from qwk_explained.present.languages import language
from qwk_explained.teaching.checking import (
    ACCEPTED,
    VERDICTS,
    CheckedAnswer,
    SubmissionError,
    answers_from_mapping,
    cell_labels,
    check_answers,
    first_wrong,
    graded,
)
from qwk_explained.teaching.mistakes import CODES

from .csv_output import Cell
from .inputs import table_labels
from .json_output import plain
from .text import TerminalText, header_lines

#: The columns of ``--batch ... --csv``: one row per submission and quantity.
CSV_COLUMNS = ("id", "quantity", "checked", "right", "wrong", "too_coarse", "unreadable",
               "verdict", "diagnoses", "first_wrong_cell", "given", "correct", "explanation",
               "error")
#: Keys a line of ``--batch`` may hold.
BATCH_KEYS = ("id", "actual", "predicted", "table", "labels", "weights", "scale", "min_rating",
              "max_rating", "answers")


@dataclass(frozen=True)
class Graded:
    """One submission graded: the engine's result and every value checked."""

    result: Walkthrough
    checked: tuple[CheckedAnswer, ...]


def grade_submission(data: Mapping[str, Any], lang: str) -> Graded:
    """The per-line pipeline of a class's file: one submission (a JSON object) in, its
    walkthrough and every value graded out. Raises a QwkError for what cannot be graded."""
    result = _line_result(data)
    if "answers" not in data:
        raise SubmissionError("no_answers")
    return grade(result, data["answers"], lang)


def grade(result: Walkthrough, answers: Any, lang: str) -> Graded:
    """The learner's ``answers`` (the JSON of ``--answers``) graded against ``result``."""
    return Graded(result, _checked(result, answers, lang))


def _checked(result: Walkthrough, answers: Any, lang: str) -> tuple[CheckedAnswer, ...]:
    """Every answer checked, the decimal mark read as ``lang`` writes numbers (a text that is
    no number is one value graded "unreadable", never a stop)."""
    group = language(lang).group
    return check_answers(result, answers_from_mapping(result, answers, group), group)


# --- one submission as data --------------------------------------------------------------------


def answer_json(result: Walkthrough, answer: CheckedAnswer, lang: str) -> dict[str, Any]:
    """One checked value: ``given`` is ``null`` for a text that is no number (``problem`` says
    why, in ``lang``) or that says "undefined" (``undefined``: true); ``needs`` the digits to
    write for a value too coarse to grade."""
    labels = cell_labels(result, answer.cell)
    needed = answer.needed
    return {
        "quantity": answer.quantity,
        "cell": None if labels is None else list(labels),
        "given": plain(answer.given),
        "correct": plain(answer.correct),
        "verdict": answer.verdict,
        "diagnoses": list(answer.diagnoses),
        "reading": answer.reading,
        "note": answer.note,
        "undefined": answer.undefined,
        "needs": None if needed is None else {needed.kind: needed.count},
        "problem": None if answer.problem is None else {
            "code": answer.problem.code, "message": message(lang, answer.problem)},
    }


def first_wrong_json(result: Walkthrough, checked: Sequence[CheckedAnswer]) -> Any:
    wrong = first_wrong(checked)
    if wrong is None:
        return None
    step = STEP_OF[wrong.quantity]
    labels = cell_labels(result, wrong.cell)
    return {"step": step.number, "slug": step.slug, "quantity": wrong.quantity,
            "cell": None if labels is None else list(labels)}


def submission_json(identifier: Any, result: Walkthrough, checked: Sequence[CheckedAnswer],
                    lang: str) -> dict[str, Any]:
    """One graded submission: ``{"id", "kappa", "answers", "first_wrong_step"}``."""
    return {"id": identifier, "kappa": plain(result.kappa),
            "answers": [answer_json(result, answer, lang) for answer in checked],
            "first_wrong_step": first_wrong_json(result, checked)}


def error_json(identifier: Any, error: QwkError, lang: str) -> dict[str, Any]:
    """A submission that could not be graded: ``{"id", "error": {"code", "message"}}``."""
    return {"id": identifier, "error": {"code": error.key, "message": message(lang, error)}}


# --- a class --------------------------------------------------------------------------------------


def _line_result(data: Mapping[str, Any]) -> Walkthrough:
    """The walkthrough of one batch line: a table (optionally labelled) or two rating vectors."""
    unknown = [key for key in data if key not in BATCH_KEYS]
    if unknown:
        raise SubmissionError("unknown_key", key=shorten(str(unknown[0]), 40),
                              choices=BATCH_KEYS)
    weights = data.get("weights", "quadratic")
    if "table" in data:
        for key in ("actual", "predicted", "scale"):
            if key in data:
                raise SubmissionError("table_and_vectors", key=key)
        table = data["table"]
        counts = as_table(parse_table(table) if isinstance(table, str) else table)
        labels = data.get("labels")
        if labels is None and ("min_rating" in data or "max_rating" in data):
            labels = table_labels(len(counts), _integer(data.get("min_rating")),
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
    text = str(value).strip()
    # A rating has at most 10 digits; counting them first keeps int() below its 4,300-digit limit.
    if len(text.lstrip("+-").lstrip("0")) > 10:
        raise SubmissionError("bad_rating_bound", value=shorten(text))
    try:
        return int(text)
    except ValueError:
        raise SubmissionError("bad_rating_bound", value=shorten(text)) from None


def explanations(result: Walkthrough, checked: Sequence[CheckedAnswer],
                 lang: str) -> dict[str, str]:
    """For each quantity with a value that is not right, what is said about the first wrong
    one, or else about the first that was not graded (too coarse, or not a number)."""
    found: dict[str, str] = {}
    for answer in sorted(checked, key=lambda answer: not answer.wrong):
        if answer.accepted or answer.quantity in found:
            continue
        said = ([feedback.verdict_line(lang, answer)] if answer.problem is not None
                else feedback.explanation(lang, result, answer))
        found[answer.quantity] = feedback.joined(lang, said)
    return found


def csv_rows(record: Mapping[str, Any], said: Mapping[str, str]) -> list[list[Cell]]:
    """A graded record (:func:`submission_json` or :func:`error_json`) as spreadsheet rows, one
    per quantity (:data:`CSV_COLUMNS`): how many values were checked, right, wrong, too coarse
    to grade and not numbers, the worst verdict, every mistake named, the first wrong cell and
    what ``said`` says about it."""
    if "error" in record:
        return [[record["id"], *[None] * (len(CSV_COLUMNS) - 3), record["error"]["code"],
                 record["error"]["message"]]]
    by_quantity: dict[str, list[dict[str, Any]]] = {}
    for answer in record["answers"]:
        by_quantity.setdefault(answer["quantity"], []).append(answer)
    rows: list[list[Cell]] = []
    for quantity, answers in by_quantity.items():
        verdicts = [answer["verdict"] for answer in answers]
        wrong = [answer for answer in answers if answer["verdict"] == "wrong"]
        codes = {code for answer in answers for code in answer["diagnoses"]}
        scalar = answers[0] if answers[0]["cell"] is None else None
        rows.append([
            record["id"], quantity, len(answers),
            sum(verdict in ACCEPTED for verdict in verdicts), len(wrong),
            verdicts.count("too_coarse"), verdicts.count("unreadable"),
            max(verdicts, key=VERDICTS.index),
            " ".join(code for code in CODES if code in codes),
            # "4, 0", not "4,0": a spreadsheet with a decimal comma would read the number 4.
            ", ".join(map(str, wrong[0]["cell"])) if wrong and wrong[0]["cell"] else None,
            scalar["given"] if scalar else None, scalar["correct"] if scalar else None,
            said.get(quantity, ""), None,
        ])
    return rows


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
            lines.append("  " + tx("checker.answer_line", mark=feedback.mark(answer),
                                   place=place, value=answer.text.strip(),
                                   verdict=feedback.verdict_line(lang, answer)))
            more = feedback.explanation(lang, result, answer)
            if answer.correct is not None and answer.verdict in ("rounding", "wrong"):
                more.insert(0, feedback.exact_sentence(lang, answer.correct))
            for sentence in more:
                lines += ["      " + line for line in tx.prose_text(sentence).splitlines()]
    lines.append("")
    counted = graded(checked)
    if first_wrong(checked) is not None:
        lines.append(tx.prose_text(feedback.first_wrong_sentence(lang, result, checked)))
    elif counted:
        lines.append(tx.prose("checker.summary_all_right", count=len(counted)))
    lines += [tx.prose_text(sentence) for sentence in feedback.ungraded_sentences(lang, checked)]
    return "\n".join(lines) + "\n"
