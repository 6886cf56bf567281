"""``qwk-explained check``: grading one hand calculation or a whole class from the terminal.

Sources of truth: the engine for every right value, ``check_answers`` for the verdicts (the
mistakes are made by hand: E not divided by n, num and den from counts), the locale files for
every sentence, and the README's own example of a class's file (it must run as documented).
User flows: a teacher's JSON Lines file with good and bad lines (the batch goes on, exit 0), bad
options (exit 2, one translated line, no traceback).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from qwk_explained import cli, walkthrough, walkthrough_from_table
from qwk_explained.cli.errors import CliError
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.mistakes import CODES
from tests import ROOT
from tests.cli.helpers import flat

ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"
SEED = walkthrough(ACTUAL, PREDICTED)
DATA = ["--actual", ACTUAL, "--predicted", PREDICTED]
#: A learner who forgot to divide E by n: E[4, 0] = 5 * 4, den = 10 * 0.395, kappa 0.8861.
MISTAKEN = {"observed": {"4,0": 4}, "expected": {"4,0": "20"}, "numerator": "0.45",
            "denominator": 3.95, "kappa": "0.8861"}


@pytest.fixture(autouse=True)
def _neutral_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8"))))
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def write(tmp_path: Path, name: str, content) -> str:
    path = tmp_path / name
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_submission_step_by_step_in_each_language(lang, tmp_path, capsys):
    answers = write(tmp_path, "answers.json", MISTAKEN)
    status, out, err = run(["check", *DATA, "--answers", answers, "--lang", lang], capsys)
    assert (status, err) == (0, "")
    text = flat(out)
    for heading in ("steps.observed_title", "steps.expected_title", "steps.sums_title"):
        assert flat(t(lang, heading)) in text
    assert flat(t(lang, "checker.diagnosis.expected_not_divided_by_n",
                  n=format_number(10, lang))) in text
    assert flat(t(lang, "checker.verdict.right", value="4")) in text
    where = t(lang, "checker.where.expected", row="4", col="0")
    assert flat(t(lang, "checker.summary_first_wrong", right=format_number(2, lang),
                  count=format_number(5, lang), where=where, number=format_number(4, lang),
                  title=t(lang, "steps.expected_title"))) in text
    assert not re.search(r"\b(?:checker|cli|steps)\.[a-z_]+", out), "every key resolves"


def test_the_summary_counts_one_value_and_names_kappa_as_the_last_step(tmp_path, capsys):
    """Spanish review, W4 and A13: one checked value reads "Has comprobado 1 valor y es
    correcto", never "(1 de 1)" values; a wrong kappa is the only wrong value, and no "later
    step" builds on step 7."""
    one = write(tmp_path, "one.json", {"numerator": "0.45"})
    status, out, _ = run(["check", *DATA, "--answers", one, "--lang", "es"], capsys)
    assert status == 0
    assert flat(t("es", "checker.summary_all_right", count=1)) in flat(out)
    assert "Has comprobado 1 valor y es correcto" in flat(out)
    last = write(tmp_path, "last.json", {"numerator": "0.45", "kappa": "0.5"})
    status, out, _ = run(["check", *DATA, "--answers", last, "--lang", "es"], capsys)
    assert flat(t("es", "checker.summary_last_wrong", right="1", count="2",
                  where=t("es", "checker.where.kappa"), number="7")) in flat(out)
    assert "pasos siguientes" not in out


def test_json_output_has_the_documented_shape(tmp_path, capsys):
    answers = write(tmp_path, "answers.json", MISTAKEN)
    status, out, _ = run(["check", *DATA, "--answers", answers, "--json"], capsys)
    record = json.loads(out)
    assert status == 0 and list(record) == ["id", "kappa", "answers", "first_wrong_step"]
    assert record["kappa"] == SEED.kappa
    by_quantity = {a["quantity"]: a for a in record["answers"]}
    assert list(by_quantity) == ["observed", "expected", "numerator", "denominator", "kappa"]
    assert by_quantity["expected"] == {
        "quantity": "expected", "cell": [4, 0], "given": 20.0, "correct": 2.0,
        "verdict": "wrong", "diagnoses": ["expected_not_divided_by_n"], "reading": None,
        "note": None, "undefined": False, "needs": None, "problem": None}
    assert by_quantity["denominator"]["diagnoses"] == ["expected_not_divided_by_n",
                                                       "mixed_counts_and_shares"]
    assert by_quantity["kappa"]["correct"] == SEED.kappa
    assert record["first_wrong_step"] == {"step": 4, "slug": "expected",
                                          "quantity": "expected", "cell": [4, 0]}
    assert set(code for a in record["answers"] for code in a["diagnoses"]) <= set(CODES)


def test_a_table_labelled_from_its_first_rating_and_answers_on_stdin(capsys, monkeypatch):
    """--table with --min-rating 1: cells are keyed by the ratings 1 to 3, as on paper."""
    table = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], labels=[1, 2, 3])
    answers = {"observed": {"2,2": 8}, "numerator": format_number(table.numerator * 19, "es"),
               "denominator": format_number(table.denominator * 19, "es")}
    status, out, _ = run(["check", "--table", "0,4,1;0,8,0;0,1,5", "--min-rating", "1",
                          "--answers", "-", "--json", "--lang", "es"], capsys,
                         json.dumps(answers), monkeypatch)
    record = json.loads(out)
    assert status == 0 and record["first_wrong_step"] is None
    assert [(a["cell"], a["verdict"]) for a in record["answers"]] == [
        ([2, 2], "right"), (None, "right_other_convention"), (None, "right_other_convention")]


def test_an_ambiguous_text_says_how_it_was_read(tmp_path, capsys):
    table = walkthrough_from_table([[2, 1], [2, 2]])
    answers = write(tmp_path, "a.json", {"expected": {"0,0": "1,714"}})
    _, out, _ = run(["check", "--table", "2,1;2,2", "--answers", answers, "--json"], capsys)
    (answer,) = json.loads(out)["answers"]
    assert (answer["verdict"], answer["reading"], answer["given"]) == (
        "rounding", "decimal", 1.714)
    assert answer["correct"] == table.expected[0, 0]


def test_each_value_is_marked_as_on_the_checker_page(tmp_path, capsys):
    """The terminal's marks are the page's: right ✓, right to the digits written ≈, wrong ✗,
    each held to its value by a no-break space."""
    answers = write(tmp_path, "a.json", {"observed": {"4,0": 4}, "expected": {"4,0": "20"},
                                         "kappa": "-0.14"})
    status, out, _ = run(["check", *DATA, "--answers", answers], capsys)
    lines = [line.strip() for line in out.splitlines()]
    assert status == 0
    assert any(line.startswith("✓\u00a0O[4, 0] = 4") for line in lines)
    assert any(line.startswith("✗\u00a0E[4, 0] = 20") for line in lines)
    assert any(line.startswith("≈\u00a0kappa = -0.14") for line in lines)


# --- a class --------------------------------------------------------------------------------------

CLASS = [
    {"id": "ana", "actual": [4, 4, 3, 4, 4, 4, 1, 1, 2, 1],
     "predicted": [0, 2, 1, 0, 0, 0, 1, 1, 2, 1], "answers": {"kappa": "-0,14"}},
    {"id": "ben", "table": [[0, 4, 1], [0, 8, 0], [0, 1, 5]], "labels": [1, 2, 3],
     "weights": "linear", "answers": {"observed": [[0, 4, 1], [0, 8, 0], [0, 1, 5]],
                                      "kappa": 0.45}},
    {"id": 3, "actual": "1 2 3 4", "predicted": "1 2 3", "answers": {"kappa": 1}},
    {"id": "dan", "actual": [1, 2, 3], "predicted": [1, 2, 2], "answers": {"kapa": 1}},
    {"id": "eve", "actual": [1, 2, 3], "predicted": [1, 2, 2],
     "answers": {"kappa": "zwei"}},
    {"id": "fay", "table": "2,1;0,3", "min_rating": 1, "answers": {"observed": {"1,2": 1}}},
    {"id": "gus", "actual": [1, 2], "predicted": [1, 2], "answer": {}},
]


def test_a_class_is_graded_line_by_line_and_bad_lines_do_not_stop_it(tmp_path, capsys):
    lines = [json.dumps(item) for item in CLASS[:3]] + ["{not json", "", "[1, 2]"]
    lines += [json.dumps(item) for item in CLASS[3:]]
    path = write(tmp_path, "class.jsonl", "\n".join(lines) + "\n")
    status, out, err = run(["check", "--batch", path, "--lang", "es"], capsys)
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r.get("id") for r in records] == ["ana", "ben", 3, None, None, "dan", "eve", "fay",
                                              "gus"]
    ana, ben = records[0], records[1]
    assert ana["answers"][0]["verdict"] == "rounding" and ana["first_wrong_step"] is None
    linear = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], weights="linear")
    assert ben["kappa"] == linear.kappa
    assert ben["answers"][0]["cell"] == [1, 1] and ben["answers"][-1]["quantity"] == "kappa"
    codes = [r["error"]["code"] for r in records if "error" in r]
    assert codes == ["errors.length_mismatch", "checker.errors.invalid_json",
                     "checker.errors.not_an_object_line", "checker.errors.unknown_quantity",
                     "checker.errors.unknown_key"]
    # Teaching audit, defect 4: one value that is no number no longer turns the line into an
    # error; it gets its own verdict and message.
    (unreadable,) = next(r for r in records if r.get("id") == "eve")["answers"]
    assert (unreadable["verdict"], unreadable["given"]) == ("unreadable", None)
    assert unreadable["problem"]["code"] == "not_a_number"
    assert "zwei" in unreadable["problem"]["message"]
    assert records[7]["answers"][0]["cell"] == [1, 2], "min_rating labels a table"
    for record in records:
        if "error" in record:
            assert list(record) == ["id", "error"] and "{" not in record["error"]["message"]


def spreadsheet_rows(out: str, delimiter: str) -> list[dict[str, str]]:
    """The rows a spreadsheet reads from ``--csv`` output: UTF-8 behind a byte order mark."""
    assert out.startswith("\ufeff"), "a spreadsheet needs the BOM to read UTF-8"
    return list(csv.DictReader(io.StringIO(out[1:]), delimiter=delimiter))


def test_a_class_as_csv_for_a_spreadsheet(tmp_path, capsys):
    """Turkish: semicolons between cells and decimal commas, as a Turkish spreadsheet expects."""
    path = write(tmp_path, "class.jsonl", "\n".join(json.dumps(item) for item in CLASS))
    status, out, _ = run(["check", "--batch", path, "--csv", "--lang", "tr"], capsys)
    rows = spreadsheet_rows(out, ";")
    assert status == 0
    assert list(rows[0]) == ["id", "quantity", "checked", "right", "wrong", "too_coarse",
                             "unreadable", "verdict", "diagnoses", "first_wrong_cell", "given",
                             "correct", "explanation", "error"]
    ben = [row for row in rows if row["id"] == "ben"]
    assert [(r["quantity"], r["checked"], r["right"]) for r in ben] == [
        ("observed", "9", "9"), ("kappa", "1", "0")]
    assert ben[1]["given"] == "0,45" and ben[1]["verdict"] == "wrong"
    (eve,) = [row for row in rows if row["id"] == "eve"]
    assert (eve["checked"], eve["right"], eve["wrong"], eve["unreadable"]) == ("1", "0", "0", "1")
    assert "zwei" in eve["explanation"] and not eve["error"]
    errors = [row for row in rows if row["error"]]
    assert len(errors) == 3 and all(row["explanation"] for row in errors)


UNDEFINED = {"id": "undef", "actual": [2, 2, 2], "predicted": [2, 2, 2],
             "answers": {"numerator": "0", "denominator": "0", "kappa": "undefined"}}


@pytest.mark.parametrize("kappa", ["undefined", "NaN", "0/0", "—", "No definida", "无定义",
                                   "tanımsız"])
def test_an_undefined_kappa_is_graded_right_in_a_batch(kappa, tmp_path, capsys):
    """Teaching audit, defect 4 (its undef.jsonl): "undefined" and "NaN" made the whole line an
    error and the right den = 0 was never graded. Every answer for 0/0 is right, in any
    language, whatever the output language."""
    line = {**UNDEFINED, "answers": {**UNDEFINED["answers"], "kappa": kappa}}
    path = write(tmp_path, "undef.jsonl", json.dumps(line, ensure_ascii=False) + "\n")
    status, out, _ = run(["check", "--batch", path, "--lang", "tr"], capsys)
    (record,) = [json.loads(text) for text in out.splitlines()]
    assert status == 0 and record["kappa"] is None and record["first_wrong_step"] is None
    assert [(a["quantity"], a["verdict"]) for a in record["answers"]] == [
        ("numerator", "right"), ("denominator", "right"), ("kappa", "right")]
    assert record["answers"][-1]["undefined"] is True


def test_json_nan_for_an_undefined_kappa_is_an_answer(tmp_path, capsys):
    path = write(tmp_path, "undef.jsonl", '{"actual": [1, 1], "predicted": [1, 1], '
                                          '"answers": {"kappa": NaN}}\n')
    _, out, _ = run(["check", "--batch", path], capsys)
    assert json.loads(out)["answers"][0]["verdict"] == "right"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_value_too_coarse_to_grade_says_how_many_digits(lang, tmp_path, capsys):
    """Teaching audit, defect 5: "0.06" for w = 0.0625 was the first wrong step. It is too coarse
    to grade: its own mark and verdict, the digits to write, not graded, not the first wrong."""
    answers = write(tmp_path, "a.json", {"weights": {"1,0": "0.06"}, "kappa": "zwei",
                                         "numerator": "0.45"})
    status, out, err = run(["check", *DATA, "--answers", answers, "--lang", lang], capsys)
    assert (status, err) == (0, "")
    lines = [line.strip() for line in out.splitlines()]
    # A no-break space after the mark (and around "=" in Spanish).
    assert any(re.match(r"±\u00a0w\[1, 0\]\s=\s0\.06", line) for line in lines)
    assert any(re.match(r"\?\u00a0kappa\s=\szwei", line) for line in lines)
    text = flat(out)
    assert flat(t(lang, "checker.too_coarse.figures", count=2)) in text
    assert flat(t(lang, "checker.summary_all_right", count=1)) in text
    for key in ("checker.summary_too_coarse", "checker.summary_unreadable"):
        assert flat(t(lang, key, count=1)) in text
    _, out, _ = run(["check", *DATA, "--answers", answers, "--json"], capsys)
    record = json.loads(out)
    weight = record["answers"][0]
    assert (weight["verdict"], weight["needs"]) == ("too_coarse", {"figures": 2})
    assert record["first_wrong_step"] is None


def test_the_readmes_class_file_runs_as_documented(tmp_path, capsys):
    """The README shows a class's file and the command; both must work."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```jsonl\n(.*?)```", readme, re.DOTALL)
    assert block, "the README shows a class's file"
    path = write(tmp_path, "class.jsonl", block.group(1))
    status, out, _ = run(["check", "--batch", path], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(records) == len(block.group(1).strip().splitlines())
    assert all("answers" in record for record in records)
    assert any(record["first_wrong_step"] for record in records)


# --- bad options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "error"), [
    (["check", *DATA], CliError("missing_answers")),
    (["check", "--batch", "x.jsonl", "--actual", "1,2"],
     CliError("conflicting_options", first="--batch", second="--actual")),
    (["check", "--batch", "x.jsonl", "--json", "--csv"],
     CliError("conflicting_options", first="--json", second="--csv")),
    (["check", "--answers", "missing.json", *DATA], CliError("file_not_found",
                                                              path="missing.json")),
    (["check", "--answers", "bad.json", *DATA], CliError("not_json", source="bad.json", line=1)),
    (["check", "--frobnicate"], CliError("unknown_option", options="--frobnicate")),
])
def test_bad_options_exit_2_with_one_translated_line(argv, error, tmp_path, capsys,
                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "x.jsonl").write_text("", encoding="utf-8")
    for lang in LANGUAGES:
        status, out, err = run([*argv, "--lang", lang], capsys)
        assert (status, out) == (2, "")
        assert err == f"qwk-explained: {' '.join(message(lang, error).split())}\n"


def test_unknown_quantity_in_one_submission_exits_2(tmp_path, capsys):
    answers = write(tmp_path, "a.json", {"kapa": "1"})
    status, _, err = run(["check", *DATA, "--answers", answers, "--lang", "zh"], capsys)
    assert status == 2 and "kapa" in err


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_of_check_is_translated(lang, capsys):
    status, out, _ = run(["check", "--help", "--lang", lang], capsys)
    assert status == 0
    assert flat(t(lang, "cli.check_description"))[:30] in flat(out)
    assert "--batch" in out and "--answers" in out and "--csv" in out


def test_the_walkthrough_without_a_subcommand_is_unchanged(capsys):
    status, out, _ = run([*DATA, "--json"], capsys)
    assert status == 0 and json.loads(out)["kappa"] == SEED.kappa
