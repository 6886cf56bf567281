"""``check --batch``: a class's JSON Lines file graded as a stream, one line in, one record out.

Why a stream: a teacher's file may hold a million submissions, and each one is graded on its
own. Reading the whole file first held 5.4 GB for a million lines and printed nothing for seven
minutes; here a line is read, graded and written (and flushed) before the next is read, so the
first grade appears at once, memory stays that of the longest line, and a run stopped halfway
has written every grade before the stop.

Why nothing stops it: the lines are written by students. Whatever a line holds (not JSON, an id
of ``NaN``, an integer of 5,000 digits, brackets nested 100,000 deep, a table that is a number, an
answer no reader can read) it becomes that line's error record, ``{"id", "error": {"code",
"message"}}`` in the chosen language, and the next line is graded. A failure that is a bug of
ours is reported the same way (``checker.errors.internal``), so it costs one line, not the class.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from qwk_explained.core.errors import QwkError
from qwk_explained.teaching.checking import SubmissionError

from .check import (
    CSV_COLUMNS,
    csv_rows,
    error_json,
    explanations,
    grade_submission,
    submission_json,
)
from .csv_output import Spreadsheet
from .errors import CliError
from .inputs import MAX_FILE_BYTES, open_input
from .json_input import TooDeep, load_json
from .output import TextSink, write_utf8

__all__ = ["MAX_LINE_BYTES", "GradedLine", "grade_line", "read_lines", "run_batch"]

#: The longest line read: a submission holds at most two vectors of MAX_ITEMS ratings, the same
#: bound as a rating file (:data:`~.inputs.MAX_FILE_BYTES`).
MAX_LINE_BYTES = MAX_FILE_BYTES
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class GradedLine:
    """One line of a class's file, graded or not: its JSON record (:func:`.check.submission_json`
    or :func:`.check.error_json`), what is said about each quantity's first wrong value (for the
    spreadsheet), and the problem behind an error record."""

    record: dict[str, Any]
    said: dict[str, str] = field(default_factory=dict)
    problem: BaseException | None = None

    @classmethod
    def failed(cls, identifier: Any, problem: BaseException, lang: str) -> GradedLine:
        """The error record of a line; an exception that is not a QwkError is a bug of ours,
        said as ``checker.errors.internal`` with its kind."""
        error = problem if isinstance(problem, QwkError) else SubmissionError(
            "internal", kind=type(problem).__name__)
        return cls(error_json(identifier, error, lang), problem=problem)


def read_lines(stream: BinaryIO, path: str) -> Iterator[tuple[int, str | QwkError]]:
    """Each line of a JSON Lines stream with its number (from 1), decoded: the text, or the error
    that takes its place (a line longer than :data:`MAX_LINE_BYTES`). One line in memory at a time.

    UTF-8 with or without a byte order mark, a line that is not UTF-8 as Windows-1252; a file
    whose first line holds a NUL byte (UTF-16, a binary file) is no class's file at all.
    """
    number = 0
    while raw := _readline(stream, MAX_LINE_BYTES + 1, path):
        number += 1
        if number == 1:
            if b"\x00" in raw:
                raise CliError("batch_not_text", path=path)
            raw = raw.removeprefix(_BOM)
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := _readline(stream, 1 << 20, path)) and not rest.endswith(b"\n"):
                pass  # skip the rest of the line, a megabyte at a time
            yield number, SubmissionError("line_too_long", line=number,
                                          limit=MAX_LINE_BYTES // 1_000_000)
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
        yield number, text


def _readline(stream: BinaryIO, limit: int, path: str) -> bytes:
    try:
        return stream.readline(limit)
    except OSError:
        raise CliError("file_unreadable", path=path) from None


def _identifier(data: Mapping[str, Any]) -> Any:
    """The line's ``id`` as the output can hold it (a list or object as its JSON text)."""
    identifier = data.get("id")
    if isinstance(identifier, dict | list):
        return json.dumps(identifier, ensure_ascii=False)
    return identifier


def grade_line(number: int, text: str, lang: str, *, explain: bool) -> GradedLine:
    """One line of a class's file read and graded; never raises (see the module's notes).

    ``explain``: also say what is wrong with each quantity (for the spreadsheet's column).
    """
    identifier: Any = None
    try:
        try:
            data = load_json(text)
        except json.JSONDecodeError:
            raise SubmissionError("invalid_json", line=number) from None
        except TooDeep:
            raise SubmissionError("too_deep", line=number) from None
        if not isinstance(data, dict):
            raise SubmissionError("not_an_object_line", line=number)
        identifier = _identifier(data)
        graded = grade_submission(data, lang)
        record = submission_json(identifier, graded.result, graded.checked, lang)
        said = explanations(graded.result, graded.checked, lang) if explain else {}
        return GradedLine(record, said)
    except Exception as problem:  # a bug of ours costs this line, never the class's grades
        return GradedLine.failed(identifier, problem, lang)


def _json_line(line: GradedLine) -> str:
    return json.dumps(line.record, ensure_ascii=False, allow_nan=False) + "\n"


def run_batch(path: str, lang: str, out: TextSink, spreadsheet: Spreadsheet | None) -> None:
    """Grade the class's file at ``path`` (``-``: standard input) line by line, writing each
    record to ``out`` (JSON Lines, or ``spreadsheet`` rows after a header) as soon as it is
    graded. A problem with the file itself (missing, not text) raises before anything is
    written."""
    render: Callable[[GradedLine], str] = _json_line
    if spreadsheet is not None:
        def render(line: GradedLine) -> str:
            return spreadsheet.rows(csv_rows(line.record, line.said))

    with open_input(path) as stream:
        lines = read_lines(stream, path)
        first = next(lines, None)  # a file that is no text raises here, before any output
        if spreadsheet is not None:
            write_utf8(out, spreadsheet.start(CSV_COLUMNS))
        for number, text in itertools.chain([first] if first else [], lines):
            if isinstance(text, QwkError):
                graded = GradedLine.failed(None, text, lang)
            elif not text.strip():
                continue
            else:
                graded = grade_line(number, text, lang, explain=spreadsheet is not None)
            try:
                output = render(graded)
            except Exception as problem:  # an id the encoder cannot write, nested too deep
                output = render(GradedLine.failed(None, problem, lang))
            write_utf8(out, output)
