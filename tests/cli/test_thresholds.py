"""``qwk-explained thresholds``: cut points for a model's scores, from the terminal.

Sources of truth: ``optimize_thresholds`` for every number (the command only reads and writes),
the locale files for every sentence, ``message`` for every error line. User flows: a Kaggle
practitioner's two files or one two-column CSV (Spanish decimal commas included), standard
input, ``--json`` for a script; bad input of every kind the issue lists (NaN, inf, text, a short
score column, too few distinct scores, one rating, a file beyond the limit): exit 2 and one
translated line, never a traceback.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from qwk_explained import cli, optimize_thresholds
from qwk_explained.core import limits
from qwk_explained.core.errors import InputError
from qwk_explained.present.i18n import LANGUAGES, message, t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import scored_example
from tests.cli.helpers import flat

ACTUAL, SCORES = scored_example()
EXPECTED = optimize_thresholds(ACTUAL, SCORES)


@pytest.fixture(autouse=True)
def _neutral_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(argv, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _two_columns(tmp_path: Path, delimiter: str = ",", decimal: str = ".") -> str:
    path = tmp_path / "scored.csv"
    lines = [f"rating{delimiter}score"] + [
        f"{a}{delimiter}{str(s).replace('.', decimal)}" for a, s in zip(ACTUAL, SCORES,
                                                                         strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _columns(tmp_path: Path) -> tuple[str, str]:
    actual, scores = tmp_path / "actual.csv", tmp_path / "oof.csv"
    actual.write_text("actual\n" + "\n".join(str(a) for a in ACTUAL) + "\n", encoding="utf-8")
    scores.write_text("oof\n" + "\n".join(str(s) for s in SCORES) + "\n", encoding="utf-8")
    return str(actual), str(scores)


@pytest.mark.parametrize(("delimiter", "decimal"), [(",", "."), (";", ","), ("\t", ",")])
def test_json_from_one_two_column_file(tmp_path, capsys, delimiter, decimal) -> None:
    status, out, err = run(["thresholds", "--actual-file", _two_columns(tmp_path, delimiter,
                                                                         decimal), "--json"],
                           capsys)
    assert (status, err) == (0, "")
    record = json.loads(out)
    assert record["cuts"] == list(EXPECTED.cuts)
    assert record["cuts"] == sorted(record["cuts"]) and len(record["cuts"]) == 4
    assert (record["kappa"], record["cv_kappa"]) == (EXPECTED.kappa, EXPECTED.cv_kappa)
    assert record["optimism"] == EXPECTED.optimism
    assert [s["name"] for s in record["starts"]] == ["rounding", "quantiles"]
    assert sum(record["predicted_hist"]) == record["n"] == len(ACTUAL)


def test_two_files_and_options(tmp_path, capsys) -> None:
    actual, scores = _columns(tmp_path)
    status, out, _ = run(["thresholds", "--actual-file", actual, "--scores-file", scores,
                          "--folds", "3", "--seed", "7", "--weights", "linear", "--json"], capsys)
    expected = optimize_thresholds(ACTUAL, SCORES, folds=3, seed=7, weights="linear")
    record = json.loads(out)
    assert status == 0
    assert (record["kappa"], record["cv_kappa"], record["folds"], record["seed"]) == (
        expected.kappa, expected.cv_kappa, 3, 7)
    assert len(record["fold_kappas"]) == 3


@pytest.mark.parametrize("layout", ["one line", "one column"])
def test_actual_file_of_one_rater_beside_scores(tmp_path, capsys, layout) -> None:
    """The actual ratings alone, in either layout the walkthrough reads (ratings on one line, or
    one per line): the same result as the lists typed (a file on one line was read as bytes and
    crashed with AttributeError)."""
    actual = tmp_path / "actual.txt"
    separator = ", " if layout == "one line" else "\n"
    actual.write_text(separator.join(str(a) for a in ACTUAL) + "\n", encoding="utf-8")
    status, out, err = run(["thresholds", "--actual-file", str(actual), "--scores",
                            " ".join(str(s) for s in SCORES), "--json"], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out)["cuts"] == list(EXPECTED.cuts)


def test_an_actual_file_of_three_columns_says_so(tmp_path, capsys) -> None:
    """A CSV of several lines and three columns is not one rater's ratings: the message counts
    its columns instead of comparing lengths the user never chose."""
    path = tmp_path / "three.csv"
    path.write_text("".join(f"{a},{a},{s}\n" for a, s in zip(ACTUAL, SCORES, strict=True)),
                    encoding="utf-8")
    status, out, err = run(["thresholds", "--actual-file", str(path), "--scores",
                            " ".join(str(s) for s in SCORES)], capsys)
    assert (status, out) == (2, "")
    assert flat(t("en", "errors.scores_csv_columns", count=3)) in flat(err)


def test_a_binary_actual_file_names_itself(tmp_path, capsys) -> None:
    """As for the walkthrough's files: the message says which file is not text."""
    path = tmp_path / "ratings.xlsx"
    path.write_bytes(b"PK\x03\x04\x00\xff\xfe")
    status, out, err = run(["thresholds", "--actual-file", str(path), "--lang", "tr"], capsys)
    assert (status, out) == (2, "")
    assert flat(err) == flat(f"qwk-explained: {path}: " + t("tr", "errors.csv_not_text"))


def test_text_options_folds_zero_and_bounds(capsys) -> None:
    status, out, _ = run(["thresholds", "--actual", "1, 2, 2, 3, 3", "--scores", "-1.5 .2 .4 2 3",
                          "--folds", "0", "--min-rating", "0", "--max-rating", "4", "--json"],
                         capsys)
    record = json.loads(out)
    assert status == 0
    assert record["cv_kappa"] is None and record["fold_kappas"] == []
    assert (record["min_rating"], record["max_rating"], len(record["cuts"])) == (0, 4, 4)


def test_standard_input(tmp_path, capsys, monkeypatch) -> None:
    data = Path(_two_columns(tmp_path, ";", ",")).read_bytes()
    status, out, _ = run(["thresholds", "--actual-file", "-", "--json"], capsys, data,
                         monkeypatch)
    assert status == 0 and json.loads(out)["kappa"] == EXPECTED.kappa


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_explanation_in_each_language(tmp_path, capsys, lang) -> None:
    status, out, err = run(["thresholds", "--actual-file", _two_columns(tmp_path), "--lang",
                            lang], capsys)
    assert (status, err) == (0, "")
    text = flat(out)
    assert text.startswith(flat(t(lang, "thresholds.title")))
    for sentence in (
        t(lang, "thresholds.kappa_in_sample", kappa=format_number(EXPECTED.kappa, lang)),
        t(lang, "thresholds.optimism_large", gap=format_number(EXPECTED.optimism, lang),
          cv=format_number(EXPECTED.cv_kappa, lang), kappa=format_number(EXPECTED.kappa, lang)),
        t(lang, "thresholds.guarantee"),
    ):
        assert flat(sentence) in text
    assert "Traceback" not in out


def test_help_is_translated(capsys) -> None:
    status, out, _ = run(["thresholds", "--help", "--lang", "es"], capsys)
    assert status == 0
    assert flat(t("es", "cli.help_folds")) in flat(out)
    assert "--scores-file" in out and "--seed" in out


def _error_line(lang: str, source: str, error: InputError) -> str:
    return flat(t(lang, "cli.error_context", source=source, message=message(lang, error)))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("scores", "error"), [
    ("0.5, nan, 1.5, 2.5", InputError("score_not_finite", token="nan", position=2)),
    ("0.5, inf, 1.5, 2.5", InputError("score_not_finite", token="inf", position=2)),
    ("0.5, high, 1.5, 2.5", InputError("score_not_number", token="high", position=2)),
    ("0.5 1e999 1.5 2.5", InputError("score_too_large", token="1e999", position=2,
                                     limit=limits.MAX_ABS_SCORE)),
])
def test_bad_scores_exit_2_with_one_translated_line(capsys, lang, scores, error) -> None:
    status, out, err = run(["thresholds", "--actual", "0,1,2,3", "--scores", scores,
                            "--folds", "0", "--lang", lang], capsys)
    assert (status, out) == (2, "")
    assert flat(err) == flat("qwk-explained: " + flat(_error_line(lang, "--scores", error)))


@pytest.mark.parametrize(("argv", "options", "code"), [
    (["--actual", "0,1,2,3", "--scores", "0.5,1.5,2.5"], {}, "scores_length_mismatch"),
    (["--actual", "0,1,2,3", "--scores", "0.5,0.5,1.5,1.5"], {}, "thresholds_few_scores"),
    (["--actual", "2,2,2,2", "--scores", "0.5,1.5,2.5,3"], {}, "thresholds_one_rating"),
    (["--actual", "0,1,2,3", "--scores", "0.5,1.5,2.5,3", "--folds", "1"], {"folds": 1},
     "bad_folds"),
    (["--actual", "0,1,2,3", "--scores", "0.5,1.5,2.5,3", "--folds", "0", "--seed", "-3"],
     {"folds": 0, "seed": -3}, "bad_seed"),
    (["--actual", "0,1,2,3", "--scores", "0.5,1.5,2.5,3", "--weights", "cubic"],
     {"weights": "cubic"}, "unknown_weights"),
])
def test_bad_data_exit_2_with_the_apis_message(capsys, argv, options, code) -> None:
    with pytest.raises(InputError) as caught:
        optimize_thresholds(argv[1], argv[3], **options)
    assert caught.value.code == code
    status, out, err = run(["thresholds", *argv, "--lang", "tr"], capsys)
    assert (status, out) == (2, "")
    assert flat(err) == flat("qwk-explained: " + message("tr", caught.value))


@pytest.mark.parametrize(("options", "code"), [
    (["--scores", "1,2"], "missing_actual"),
    (["--actual", "0,1"], "missing_scores"),
    ([], "missing_input"),
    (["--actual", "0,1", "--actual-file", "x.csv"], "conflicting_options"),
    (["--actual", "0,1", "--scores", "1,2", "--scores-file", "x.csv"], "conflicting_options"),
    (["--actual", "0,1", "--scores", "1,2", "--folds", "five"], "not_an_integer_option"),
])
def test_bad_options_exit_2(capsys, options, code) -> None:
    status, out, err = run(["thresholds", *options], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("qwk-explained: ") and "Traceback" not in err


def test_two_columns_and_scores_conflict(tmp_path, capsys) -> None:
    path = _two_columns(tmp_path)
    status, _, err = run(["thresholds", "--actual-file", path, "--scores", "1,2"], capsys)
    assert status == 2
    assert flat(err) == flat("qwk-explained: " + t("en", "cli.two_columns_and_scores",
                                                   path=path, option="--scores"))


@pytest.mark.parametrize(("content", "code"), [
    ("rating,score\n1,0.5\n2\n", "scores_csv_ragged"),
    ("rating,score\n1,0.5\n2,NaN\n", "scores_csv_bad_cell"),
    ("rating,score\n1,0.5\n2.5,1\n", "csv_bad_cell"),
])
def test_a_bad_file_names_itself_and_the_line(tmp_path, capsys, content, code) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    status, _, err = run(["thresholds", "--actual-file", str(path), "--lang", "es"], capsys)
    assert status == 2
    assert str(path) in err and "3" in err and "Traceback" not in err


def test_a_file_beyond_the_size_limit_is_refused_before_it_is_read(tmp_path, capsys,
                                                                  monkeypatch) -> None:
    """A file of 10^7 rows and more: the byte limit stops it before a byte is read (the limit
    is lowered here so the test writes a small file)."""
    monkeypatch.setattr("qwk_explained.cli.inputs.MAX_FILE_BYTES", 1000)
    path = tmp_path / "huge.csv"
    path.write_text("1,0.5\n2,1.5\n" * 200, encoding="utf-8")
    status, _, err = run(["thresholds", "--actual-file", str(path)], capsys)
    assert status == 2 and str(path) in err


def test_more_rows_than_items_allowed_is_an_input_error(capsys, monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_ITEMS", 50)
    rows = np.arange(60)
    status, _, err = run(["thresholds", "--actual", ",".join(str(r % 3) for r in rows),
                          "--scores", " ".join(str(r / 7) for r in rows)], capsys)
    assert status == 2 and "50" in err
