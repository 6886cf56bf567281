"""The command line, as a user runs it.

Sources of truth: the Spanish seed notebook's worked example (actual [4,4,3,4,4,4,1,1,2,1],
predicted [0,2,1,0,0,0,1,1,2,1], quadratic kappa -0.1392), the engine itself for ``--json`` (the
CLI must print exactly what ``walkthrough()``/``statistics()`` computed), and the locale files for
every message (user flow: bad input gives exit status 2 and one translated line, no traceback).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from qwk_explained import cli
from qwk_explained._version import checkout_version
from qwk_explained.cli import core as cli_core
from qwk_explained.cli.args import EXAMPLE_FILES
from qwk_explained.cli.json_output import JSON_KEYS
from qwk_explained.cli.output import write
from qwk_explained.core.errors import InputError
from qwk_explained.core.resampling import exact_permutation_test
from qwk_explained.core.steps import walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.languages import LANGUAGES, environment_language
from qwk_explained.present.numbers import format_number, format_percent
from qwk_explained.teaching.interpret import LANDIS_KOCH_BANDS, landis_koch
from tests import ROOT
from tests.cli.helpers import flat

ACTUAL = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1]
PREDICTED = [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]
SEED_ARGS = ["--actual", ",".join(map(str, ACTUAL)), "--predicted", ",".join(map(str, PREDICTED))]
#: The seed's kappa as each language prints it (CLDR marks, the true minus sign).
SEED_KAPPA = {"en": "\u22120.1392", "zh": "\u22120.1392", "es": "\u22120,1392",
              "tr": "\u22120,1392"}
_LOCALE_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(autouse=True)
def _neutral_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's own LANG must not change what the tests see.
    for name in _LOCALE_ENV:
        monkeypatch.delenv(name, raising=False)


# ------------------------------------------------------------------------------------------------
# Text walkthrough
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_walkthrough_text_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run([*SEED_ARGS, "--lang", lang], capsys)
    assert status == 0 and err == ""
    # The seven steps of the catalogue, numbered and titled as on every other surface.
    for step in STEPS:
        assert step.heading(lang) in out, step.heading(lang)
    kappa = SEED_KAPPA[lang]

    def n(value: float) -> str:
        return format_number(value, lang)

    # Every formula is printed with the numbers plugged in, formatted for the language; the
    # followed cell is the app's first one, O[3, 1] (the first where the raters disagree).
    # Worked out by hand: h_a = (0, 3, 1, 1, 5), h_p = (4, 4, 2, 0, 0), n = 10.
    assert f"κ = 1 − {n(0.45)} / {n(0.395)} = 1 − {n(1.1392)} = {kappa}" in out
    assert "E[3, 1] = hᵃ[3] × hᵖ[1] / n = 1 × 4 / 10 = " + n(0.4) in out
    assert f"w[3, 1] = (3 − 1)² / (5 − 1)² = 4 / 16 = {n(0.25)}" in out
    assert f"O[3, 1] / n = 1 / 10 = {n(0.1)}" in out
    assert f"num = {n(0.25)} × {n(0.1)} + 1 × {n(0.4)} + {n(0.25)} × {n(0.1)} = {n(0.45)}" in out
    assert t(lang, "common.band.poor") in out
    assert flat(t(lang, "interval.shown", se=format_number(0.0741, lang),
                  level=format_percent(0.95, lang), low=format_number(-0.2845663, lang),
                  high=format_number(0.0060853, lang))) in flat(out)
    assert flat(t(lang, "interval.small_sample", n=format_number(10, lang),
                  used=format_number(5, lang), min_items=format_number(50, lang))) in flat(out)
    z_row = next(line for line in out.splitlines() if t(lang, "common.z_statistic") in line)
    assert z_row.split("|")[1].strip() == format_number(-1.4015, lang)
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)
    # A missing key would print as itself ("cli.something"): every sentence must resolve.
    assert not re.search(r"\b(?:cli|common|errors|undefined|steps|step_by_step)\.[a-z_]+", out)


def test_matrices_are_aligned_tables_labelled_with_the_ratings(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run([*SEED_ARGS, "--lang", "en"], capsys)
    lines = out.splitlines()
    corner = t("en", "checker.ws.corner")
    start = lines.index(next(line for line in lines if line.strip().startswith(corner)))
    table = lines[start:start + 7]
    assert table[0].split("|")[1].split() == ["0", "1", "2", "3", "4"]
    assert [row.split("|")[0].strip() for row in table[2:]] == ["0", "1", "2", "3", "4"]
    assert table[3].split("|")[1].split() == ["0", "3", "0", "0", "0"]  # O[1, 1] = 3
    assert len({line.index("|") for line in table if "|" in line}) == 1


def test_language_comes_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    _, out, _ = run(SEED_ARGS, capsys)
    assert SEED_KAPPA["es"] in out and t("es", "common.band.poor") in out
    monkeypatch.setenv("LC_ALL", "tr_TR.UTF-8")  # LC_ALL wins over LANG
    _, out, _ = run(SEED_ARGS, capsys)
    assert t("tr", "common.band.poor") in out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # unsupported: English
    _, out, _ = run(SEED_ARGS, capsys)
    assert t("en", "common.band.poor") in out


def test_environment_language_rules() -> None:
    assert environment_language({}) == "en"
    assert environment_language({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert environment_language({"LANGUAGE": "fr:tr", "LANG": "es_ES"}) == "tr"
    assert environment_language({"LANGUAGE": "fr", "LANG": "es_ES"}) == "es"
    assert environment_language({"LC_ALL": "POSIX", "LANG": "es_ES"}) == "en"


def test_lang_option_accepts_regional_codes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run([*SEED_ARGS, "--lang", "es_MX"], capsys)
    assert SEED_KAPPA["es"] in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undefined_kappa_prints_the_reason_never_nan(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["--actual", "3,3,3", "--predicted", "3,3,3", "--lang", lang], capsys)
    assert status == 0
    assert flat(t(lang, "undefined.single_category")) in flat(out)
    assert t(lang, "cli.value_line", label=t(lang, "common.kappa"),
             value=t(lang, "common.in_sentence.undefined")) in out
    assert not re.search(r"\bnan\b", out, re.IGNORECASE)
    status, out, _ = run(["--actual", "3,3,3", "--predicted", "3,3,3", "--min-rating", "1",
                          "--max-rating", "5", "--lang", lang], capsys)
    assert status == 0
    assert flat(t(lang, "undefined.no_chance_disagreement")) in flat(out)


def test_scale_with_gaps_shows_positions(capsys: pytest.CaptureFixture[str]) -> None:
    # Invariant: on an observed scale [1, 5, 9] the weights use positions 0, 1, 2, not values.
    _, out, _ = run(["--actual", "1,5,9,1,5", "--predicted", "1,9,9,5,5", "--scale", "observed",
                     "--lang", "en"], capsys)
    assert flat(t("en", "steps.weights_positions")) in flat(out)
    # The followed cell is O[1, 5] (the first where the raters disagree): positions 0 and 1.
    assert "w[1, 5] = (i − j)² / (N − 1)² |(i = 0, j = 1) = (0 − 1)² / (3 − 1)² = 1 / 4 = 0.25" \
        in out
    assert t("en", "common.in_sentence.scale.observed") in out


def test_large_scale_is_summarised_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    values = [str(v) for v in range(30)]
    status, out, _ = run(["--actual", ",".join(values), "--predicted", ",".join(values[::-1]),
                          "--lang", "en"], capsys)
    assert status == 0
    assert flat(t("en", "cli.matrix_too_large", size=30)) in flat(out)


def test_negative_ratings_after_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse alone would read "-1,0,1" as an unknown option.
    status, out, _ = run(["--actual", "-1,0,1", "--predicted", "0,0,1", "--json"], capsys)
    assert status == 0 and json.loads(out)["labels"] == [-1, 0, 1]


@pytest.mark.parametrize("level", ["0.9", "0,9", "90%"])
def test_confidence_level_spellings(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run([*SEED_ARGS, "--confidence", level, "--json"], capsys)
    stats = walkthrough(ACTUAL, PREDICTED).statistics(0.9)
    assert json.loads(out)["ci_low"] == pytest.approx(stats.ci_low)


# ------------------------------------------------------------------------------------------------
# JSON
# ------------------------------------------------------------------------------------------------


def _expected_json(result, stats) -> dict:
    return {
        "labels": result.labels.tolist(), "n": result.n, "observed": result.observed.tolist(),
        "actual_hist": result.actual_hist.tolist(),
        "predicted_hist": result.predicted_hist.tolist(),
        "weights": result.weights.tolist(), "expected": result.expected.tolist(),
        "observed_norm": result.observed_norm.tolist(),
        "expected_norm": result.expected_norm.tolist(),
        "numerator": result.numerator, "denominator": result.denominator, "kappa": result.kappa,
        "undefined_reason": result.undefined_reason, "se": stats.se, "se0": stats.se0,
        "z": stats.z, "p_value": stats.p_value,
        "p_value_exact": exact_permutation_test(result).p_value if result.n <= 12 else None,
        "ci_low": stats.ci_low, "ci_high": stats.ci_high,
    }


def _steps_part(data: dict) -> dict:
    """The walkthrough's and the statistics' keys of a ``--json`` object (where kappa is lost,
    the bootstrap and the test against kappa0 are checked in test_cli_uncertainty.py)."""
    return {key: data[key] for key in JSON_KEYS[:JSON_KEYS.index("cost")]}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_json_has_exactly_the_documented_keys_and_engine_values(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run([*SEED_ARGS, "--json", "--lang", lang], capsys)
    assert status == 0 and err == ""
    data = json.loads(out)
    assert list(data) == list(JSON_KEYS)
    assert list(JSON_KEYS) == [
        "labels", "n", "observed", "actual_hist", "predicted_hist", "weights", "expected",
        "observed_norm", "expected_norm", "numerator", "denominator", "kappa", "undefined_reason",
        "se", "se0", "z", "p_value", "p_value_exact", "ci_low", "ci_high", "cost", "signed_cost",
        "influence", "bootstrap", "kappa0_test"]
    result = walkthrough(ACTUAL, PREDICTED)
    # Plain JSON numbers whatever the language: no decimal comma, equal to the engine's floats.
    assert _steps_part(data) == _expected_json(result, result.statistics())
    assert round(data["kappa"], 4) == -0.1392


def test_json_nulls_when_kappa_is_undefined(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["--actual", "2,2", "--predicted", "2,2", "--json"], capsys)
    data = json.loads(out)
    assert data["undefined_reason"] == "single_category"
    assert all(data[key] is None for key in ("kappa", "se", "se0", "z", "p_value",
                                             "p_value_exact", "ci_low", "ci_high"))
    assert "NaN" not in out


def test_table_input(capsys: pytest.CaptureFixture[str]) -> None:
    table = "0,4,1;0,8,0;0,1,5"
    status, out, _ = run(["--table", table, "--weights", "linear", "--json"], capsys)
    assert status == 0
    result = walkthrough_from_table(parse_table(table), weights="linear")
    assert _steps_part(json.loads(out)) == _expected_json(result, result.statistics())
    _, out, _ = run(["--table", table, "--min-rating", "1", "--json"], capsys)
    assert json.loads(out)["labels"] == [1, 2, 3]
    _, out, _ = run(["--table", table, "--max-rating", "5", "--lang", "es"], capsys)
    assert flat(t("es", "cli.input_table", n=19, size=3, labels="3, 4 y 5")) in flat(out)


# ------------------------------------------------------------------------------------------------
# Files
# ------------------------------------------------------------------------------------------------


def _seed_json() -> dict:
    result = walkthrough(ACTUAL, PREDICTED)
    return _expected_json(result, result.statistics())


@pytest.mark.parametrize(("actual_text", "predicted_text"), [
    ("\n".join(map(str, ACTUAL)) + "\n", "\n".join(map(str, PREDICTED)) + "\n"),  # one per line
    (" ".join(map(str, ACTUAL)), ", ".join(map(str, PREDICTED))),  # a single line
    ("4 4 3 4 4\n4 1 1 2 1\n", "0 2 1 0 0\n0 1 1 2 1\n"),  # several per line
    ("actual\n" + "\n".join(map(str, ACTUAL)), "predicted\n" + "\n".join(map(str, PREDICTED))),
])
def test_one_file_per_rater(actual_text: str, predicted_text: str, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text(actual_text, encoding="utf-8")
    (tmp_path / "p.csv").write_text(predicted_text, encoding="utf-8")
    status, out, err = run(["--actual-file", str(tmp_path / "a.txt"),
                            "--predicted-file", str(tmp_path / "p.csv"), "--json"], capsys)
    assert (status, err) == (0, "")
    assert _steps_part(json.loads(out)) == _seed_json()


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_two_column_csv_alone(delimiter: str, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    rows = [f"actual{delimiter}predicted"] + [f"{a}{delimiter}{p}"
                                              for a, p in zip(ACTUAL, PREDICTED, strict=True)]
    path = tmp_path / "ratings.csv"
    path.write_bytes(("\r\n".join(rows) + "\r\n").encode("utf-8-sig"))
    status, out, _ = run(["--actual-file", str(path), "--json"], capsys)
    assert status == 0
    assert _steps_part(json.loads(out)) == _seed_json()


@pytest.mark.parametrize("text", [
    # L3: a trailing delimiter on every row (Excel), and empty rows, read as the CSV they are.
    "actual,predicted,\n" + "".join(f"{a},{p},\n" for a, p in zip(ACTUAL, PREDICTED, strict=True)),
    "actual;predicted;;\n" + "".join(f"{a};{p};;\n;;;\n" for a, p in zip(ACTUAL, PREDICTED,
                                                                          strict=True)),
    # L4: a Spanish or Turkish spreadsheet writes whole numbers with a decimal comma.
    "real;predicha\r\n" + "".join(f"{a},0;{p},0\r\n" for a, p in zip(ACTUAL, PREDICTED,
                                                                       strict=True)),
])
def test_spreadsheet_exports_are_read(text: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "export.csv"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(["--actual-file", str(path), "--json"], capsys)
    assert (status, err) == (0, "")
    assert _steps_part(json.loads(out)) == _seed_json()


def test_a_language_given_twice_must_be_a_language_both_times(
        capsys: pytest.CaptureFixture[str]) -> None:
    """L10: the invalid second value was ignored and the run went on in Spanish."""
    status, out, err = run([*SEED_ARGS, "--lang=es", "--lang=xx"], capsys)
    assert (status, out) == (2, "")
    assert err == "qwk-explained: " + error_message(
        "en", InputError("unknown_language", value="xx", choices="en, es, zh, tr")) + "\n"
    status, out, _ = run([*SEED_ARGS, "--lang", "es", "--lang", "tr"], capsys)
    assert status == 0 and SEED_KAPPA["tr"] in out, "the last one counts, as for any option"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_closed_standard_output_is_said_on_standard_error(lang: str) -> None:
    """L1: ``qwk-explained ... >&-`` ended with "This is a bug (AttributeError)", exit 1."""
    command = [sys.executable, "-m", "qwk_explained", *SEED_ARGS, "--lang", lang]
    done = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *command], cwd=ROOT,
                          capture_output=False, stderr=subprocess.PIPE, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 2
    assert done.stderr == f"qwk-explained: {t(lang, 'cli.stdout_closed')}\n"


def test_standard_input(monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    data = "\n".join(f"{a},{p}" for a, p in zip(ACTUAL, PREDICTED, strict=True)).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(["--actual-file", "-", "--json"], capsys)
    assert status == 0 and _steps_part(json.loads(out)) == _seed_json()


# ------------------------------------------------------------------------------------------------
# Bad input: status 2, one translated line on stderr, never a traceback
# ------------------------------------------------------------------------------------------------


def _engine_error(function: Callable[[], object]) -> InputError:
    with pytest.raises(InputError) as raised:
        function()
    return raised.value


#: The test's temporary folder, for expected messages that name a file in it ("{tmp}").
_TMP: list[str] = []


def _cli(key: str, **params: object) -> Callable[[str], str]:
    # Paths are filled in before translating: in Chinese a space is set where a path meets a
    # Han character, so the message depends on how the path ends.
    return lambda lang: t(lang, f"cli.{key}", **{
        name: value.replace("{tmp}", _TMP[-1]) if isinstance(value, str) else value
        for name, value in params.items()})


def _core(code: str, **params: object) -> Callable[[str], str]:
    return lambda lang: error_message(lang, InputError(code, **params))


def _sourced(source: str, error: Callable[[], InputError]) -> Callable[[str], str]:
    return lambda lang: t(lang, "cli.error_context", source=source.replace("{tmp}", _TMP[-1]),
                          message=error_message(lang, error()))


# Each case: a name, the arguments (given tmp_path) and the expected message (given the language).
BAD_INPUT: list[tuple[str, Callable[[Path], list[str]], Callable[[str], str]]] = [
    ("nothing", lambda p: [], _cli("missing_input")),
    ("no predicted", lambda p: ["--actual", "1,2,3"], _cli("missing_predicted")),
    ("no actual", lambda p: ["--predicted", "1,2"], _cli("missing_actual")),
    ("letter", lambda p: ["--actual", "1,2,x", "--predicted", "1,2,3"],
     _sourced("--actual", lambda: InputError("not_integer", token="x", position=3))),
    ("lengths", lambda p: ["--actual", "1,2,3", "--predicted", "1,2"],
     _core("length_mismatch", n_actual=3, n_predicted=2)),
    ("table and actual", lambda p: ["--table", "0,1;1,0", "--actual", "1,2"],
     _cli("conflicting_options", first="--table", second="--actual")),
    ("text and file", lambda p: ["--actual", "1,2", "--actual-file", str(p / "a.txt"),
                                 "--predicted", "1,2"],
     _cli("conflicting_options", first="--actual", second="--actual-file")),
    ("table not square", lambda p: ["--table", "1,2;3,4,5"],
     _sourced("--table", lambda: _engine_error(lambda: parse_table("1,2;3,4,5")))),
    ("confidence 2", lambda p: [*SEED_ARGS, "--confidence", "2"],
     _core("bad_confidence", value="2")),
    ("confidence text", lambda p: [*SEED_ARGS, "--confidence", "high"],
     _core("bad_confidence", value="high")),
    ("weights", lambda p: [*SEED_ARGS, "--weights", "cubic"],
     _core("unknown_weights", value="cubic", choices="quadratic, linear, unweighted")),
    ("scale", lambda p: [*SEED_ARGS, "--scale", "both"],
     _core("unknown_scale", value="both", choices="range, observed")),
    ("min not integer", lambda p: [*SEED_ARGS, "--min-rating", "one"],
     _cli("not_an_integer_option", option="--min-rating", value="one")),
    ("below scale", lambda p: [*SEED_ARGS, "--min-rating", "2"],
     _core("below_scale", value=0, min_rating=2)),
    ("unknown option", lambda p: [*SEED_ARGS, "--bogus"],
     _cli("unknown_option", options="--bogus")),
    ("missing value", lambda p: ["--actual"], _cli("missing_value", option="--actual")),
    ("missing file", lambda p: ["--actual-file", str(p / "nope.csv")],
     _cli("file_not_found", path="{tmp}/nope.csv")),
    ("folder", lambda p: ["--actual-file", str(p)], _cli("file_is_directory", path="{tmp}")),
    ("binary file", lambda p: ["--actual-file", str(p / "binary.dat")],
     _sourced("{tmp}/binary.dat", lambda: InputError("csv_not_text"))),
    ("two columns twice", lambda p: ["--actual-file", str(p / "two.csv"), "--predicted", "1,2"],
     _cli("two_columns_and_predicted", path="{tmp}/two.csv", option="--predicted")),
    # Review finding L1: int() refused the 4,301st digit with its own ValueError (exit 1).
    ("min 5000 digits", lambda p: [*SEED_ARGS, "--min-rating", "9" * 5000],
     _cli("option_too_large", option="--min-rating", value="9" * 19 + "…", limit=10**9)),
    ("max beyond a rating", lambda p: [*SEED_ARGS, "--max-rating", "-10000000000"],
     _cli("option_too_large", option="--max-rating", value="-10000000000", limit=10**9)),
    # L3: a header alone was "not a whole number"; both files on standard input read it twice.
    ("header only", lambda p: ["--actual-file", str(p / "header.csv")],
     _sourced("{tmp}/header.csv", lambda: InputError("csv_header_only"))),
    ("stdin twice", lambda p: ["--actual-file", "-", "--predicted-file", "-"],
     _cli("stdin_twice")),
    # M1: the rows were re-paired across lines (1,3,5 / 2,4,6) and a kappa printed.
    ("ragged csv", lambda p: ["--actual-file", str(p / "ragged.csv")],
     _sourced("{tmp}/ragged.csv", lambda: InputError("csv_ragged", line=2, count=1))),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "argv", "expected"), BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_input_exits_2_with_one_translated_line(
        name: str, argv: Callable[[Path], list[str]], expected: Callable[[str], str], lang: str,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text("1 2\n", encoding="utf-8")
    (tmp_path / "binary.dat").write_bytes(b"\x00\x01\x02")
    (tmp_path / "two.csv").write_text("1,2\n2,1\n", encoding="utf-8")
    (tmp_path / "header.csv").write_text("actual,predicted\n", encoding="utf-8")
    (tmp_path / "ragged.csv").write_text("1,2\n3\n4,5,6\n", encoding="utf-8")
    status, out, err = run([*argv(tmp_path), "--lang", lang], capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    _TMP.append(str(tmp_path))
    assert err == f"qwk-explained: {expected(lang)}\n"


def test_unknown_language_is_reported_in_the_environment_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    status, _, err = run([*SEED_ARGS, "--lang", "fr"], capsys)
    assert status == 2
    assert err == "qwk-explained: " + error_message(
        "zh", InputError("unknown_language", value="fr", choices="en, es, zh, tr")) + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unexpected_errors_exit_1_without_traceback(
        lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli_core, "compute", broken)
    status, out, err = run([*SEED_ARGS, "--lang", lang], capsys)
    assert status == 1 and out == ""
    assert err == f"qwk-explained: {t(lang, 'cli.unexpected_error', kind='RuntimeError')}\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_is_translated(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["--help", "--lang", lang], capsys)
    assert status == 0
    # "usage: qwk-explained", but no space after a full-width colon: "用法：qwk-explained".
    gap = "" if lang == "zh" else " "
    assert out.startswith(t(lang, "cli.help_usage") + gap + "qwk-explained")
    assert t(lang, "cli.help_options") in out and t(lang, "cli.help_examples") in out
    assert "--actual-file" in out and "--json" in out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("command", "shown"), [
    ([], ("ratings", "class")), (["check"], ("class", "answers", "grades")),
    (["thresholds"], ("ratings", "scores", "scored")),
    (["compare"], ("compared", "actual", "model_a", "model_b"))])
def test_help_examples_speak_the_readers_language(
        lang: str, command: list[str], shown: tuple[str, ...],
        capsys: pytest.CaptureFixture[str]) -> None:
    """Reviews es M9, tr M1, zh 38: the Chinese help showed `--lang es` and `ratings.csv`. Each
    help's examples ask for its own language and use the file names of its locale file (the
    thresholds and compare helps' too: they named `ratings_and_scores.csv` and `truth.csv` in
    every language)."""
    status, out, _ = run([*command, "--help", "--lang", lang], capsys)
    assert status == 0
    examples = out.split(t(lang, "cli.help_examples"), 1)[1]
    asked = set(re.findall(r"--lang (\w+)", examples))
    assert asked == {lang}, asked
    files = {key: t(lang, f"cli.example_file_{key}") for key in EXAMPLE_FILES}
    used = set(re.findall(r"\S+\.(?:csv|jsonl|json)\b", examples))
    assert used == {files[key] for key in shown}, used
    others = {t(other, f"cli.example_file_{key}") for other in LANGUAGES if other != lang
              for key in files}
    assert not used & others


def test_version_is_the_one_written_in_pyproject(capsys: pytest.CaptureFixture[str]) -> None:
    """One version, in pyproject.toml: the installed metadata gives it, and a checkout that was
    never installed reads it from that file."""
    written = checkout_version(ROOT / "pyproject.toml")
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", written), written
    status, out, _ = run(["--version"], capsys)
    assert status == 0 and out == f"qwk-explained {written}\n"
    assert checkout_version(ROOT / "no-such-pyproject.toml") == "0+unknown"


def test_output_survives_a_terminal_that_cannot_encode_it() -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    write(stream, "第 1 步 × ok\n")
    stream.flush()
    assert stream.buffer.getvalue() == b"? 1 ? ? ok\n"


# ------------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------------


def _subprocess_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _LOCALE_ENV}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "qwk_explained", *SEED_ARGS, "--lang", "es"],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
                          env=_subprocess_env(), timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "κ = 1 − 0,45 / 0,395 = 1 − 1,1392 = \u22120,1392" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "qwk_explained", "--actual", "1,x"],
                         capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
                         env=_subprocess_env(), timeout=60, check=False)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_console_script_is_declared() -> None:
    (script,) = entry_points(group="console_scripts", name="qwk-explained")
    assert script.value == "qwk_explained.cli:main"
    assert script.load() is cli.main


# ------------------------------------------------------------------------------------------------
# Landis and Koch bands (Landis & Koch 1977, Biometrics 33:159-174, Table on p. 165)
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kappa", "band"), [
    (-1.0, "poor"), (-0.00001, "slight"), (0.0, "slight"), (0.0001, "slight"), (0.2, "slight"),
    (0.21, "fair"), (0.4, "fair"), (0.41, "moderate"), (0.6, "moderate"), (0.61, "substantial"),
    (0.8, "substantial"), (0.81, "almost_perfect"), (1.0, "almost_perfect"), (None, None),
])
def test_landis_koch_bands(kappa: float | None, band: str | None) -> None:
    # -0.00001 prints as 0, so it is in the band of 0: Landis and Koch's "slight" (0 included);
    # that 0 is agreement at chance level is said apart (teaching audit, defect 6).
    assert landis_koch(kappa) == band


def test_bands_cover_the_whole_kappa_range_in_order() -> None:
    assert [b.code for b in LANDIS_KOCH_BANDS] == ["poor", "slight", "fair", "moderate",
                                                   "substantial", "almost_perfect"]
    for lower, upper in zip(LANDIS_KOCH_BANDS, LANDIS_KOCH_BANDS[1:], strict=False):
        assert lower.high == upper.low
