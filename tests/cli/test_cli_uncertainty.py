"""The command line's additions of issue 21, as a user runs them: where kappa is lost, the
bootstrap and the test against kappa0 in the walkthrough, and ``qwk-explained compare``.

Sources of truth: the engine (``--json`` prints exactly what ``cost_map``, ``influence``,
``bootstrap``, ``kappa_test`` and ``compare`` computed), the issue's figure on the adoption-speed
example (the 4 items rated 4 and predicted 0 cost 1.01 of the 1.14), and the locale files for
every sentence and error (bad input: exit status 2, one translated line, no traceback).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from qwk_explained import cli, compare, walkthrough
from qwk_explained.cli.errors import ExitStatus
from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_RESAMPLES
from qwk_explained.present.i18n import LANGUAGES, error_message, t
from qwk_explained.present.numbers import format_number, format_p_value
from tests.cli.helpers import flat

ACTUAL = [4, 4, 3, 4, 4, 4, 1, 1, 2, 1]
PREDICTED = [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]
MODEL_B = [3, 4, 3, 4, 4, 2, 1, 1, 2, 1]
SEED_ARGS = ["--actual", ",".join(map(str, ACTUAL)), "--predicted", ",".join(map(str, PREDICTED))]
COMPARE_ARGS = ["compare", "--actual", ",".join(map(str, ACTUAL)),
                "--model-a", ",".join(map(str, PREDICTED)),
                "--model-b", ",".join(map(str, MODEL_B))]


@pytest.fixture(autouse=True)
def _neutral_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --- the walkthrough: where kappa is lost --------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_text_names_the_costliest_cell_with_its_items(lang, capsys):
    status, out, err = run([*SEED_ARGS, "--lang", lang], capsys)
    assert status == 0 and err == ""
    caption = t(lang, "losses.costliest", count=4, actual="4", predicted="0",
                items=t(lang, "step_by_step.item_separator").join("1456"),
                cost=format_number(1.0126582278, lang), shortfall=format_number(1.1392405, lang))
    assert flat(caption) in flat(out)
    assert flat(t(lang, "losses.title")) in flat(out)
    assert flat(t(lang, "influence.title")) in flat(out)
    # The fix that pays most: item 2, rated 4, predicted 3 instead of 2.
    best = t(lang, "influence.best_single", items="2", actual="4", predicted="2", moved_to="3",
             kappa_moved=format_number(-0.10223642, lang), kappa=format_number(-0.1392405, lang))
    assert flat(best) in flat(out)


def test_json_cost_map_and_influence_are_the_engines(capsys):
    status, out, _ = run([*SEED_ARGS, "--json"], capsys)
    data = json.loads(out)
    result = walkthrough(ACTUAL, PREDICTED)
    assert data["cost"] == result.cost_map.cost.tolist()
    assert data["signed_cost"] == result.cost_map.signed.tolist()
    assert round(data["cost"][4][0], 2) == 1.01 and round(sum(map(sum, data["cost"])), 2) == 1.14
    influence = data["influence"]
    assert influence["without"][4][0] == pytest.approx(result.influence.without[4, 0])
    assert influence["without"][0][0] is None  # an empty cell: no item to leave out
    assert influence["moved_to"][4][0] == 1 and influence["moved_to"][2][2] is None
    ranked = [(entry["cell"], entry["count"], entry["items"], entry["moved_to"])
              for entry in influence["ranked"]]
    assert ranked == [([4, 2], 1, [2], 3), ([4, 0], 4, [1, 4, 5, 6], 1), ([3, 1], 1, [3], 2)]
    assert influence["ranked"][0]["gain"] == pytest.approx(result.influence.ranked()[0].gain)


def test_json_of_a_table_has_no_items(capsys):
    _, out, _ = run(["--table", "5,1;2,4", "--json"], capsys)
    ranked = json.loads(out)["influence"]["ranked"]
    assert ranked and all(entry["items"] is None for entry in ranked)


def test_json_undefined_kappa_has_no_costs(capsys):
    _, out, _ = run(["--actual", "2,2", "--predicted", "2,2", "--json"], capsys)
    data = json.loads(out)
    assert data["cost"] is None and data["signed_cost"] is None and data["bootstrap"] is None
    assert data["influence"]["ranked"] == []


# --- the walkthrough: how sure you can be --------------------------------------------------------


def test_json_bootstrap_and_kappa0_are_the_engines(capsys):
    _, out, _ = run([*SEED_ARGS, "--json", "--resamples", "500", "--seed", "3", "--kappa0", "0,6",
                     "--confidence", "0.9"], capsys)
    data = json.loads(out)
    result = walkthrough(ACTUAL, PREDICTED)
    boot = result.bootstrap(500, seed=3, confidence=0.9)
    assert data["bootstrap"] == {
        "resamples": 500, "seed": 3, "confidence": 0.9,
        "percentile": [boot.percentile.low, boot.percentile.high],
        "bca": [boot.bca.low, boot.bca.high], "se": boot.se, "undefined_resamples": 0}
    test = result.kappa_test(0.6)
    assert data["kappa0_test"] == {"kappa0": 0.6, "se": test.se, "uses_se0": False, "z": test.z,
                                   "p_value": test.p_value, "p_greater": test.p_greater}


def test_default_json_has_no_kappa0_test_and_the_default_bootstrap(capsys):
    data = json.loads(run([*SEED_ARGS, "--json"], capsys)[1])
    assert data["kappa0_test"] is None
    assert (data["bootstrap"]["resamples"], data["bootstrap"]["seed"]) == (2000, 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_text_teaches_se_versus_se0_and_explains_the_disagreement(lang, capsys):
    status, out, _ = run([*SEED_ARGS, "--lang", lang, "--kappa0", "0.6"], capsys)
    assert status == 0
    stats = walkthrough(ACTUAL, PREDICTED).statistics()
    for key, params in (
            ("uncertainty.se0_meaning", {"se0": format_number(stats.se0, lang)}),
            ("uncertainty.se0_larger", {"se": format_number(stats.se, lang),
                                        "se0": format_number(stats.se0, lang)}),
            ("uncertainty.reason_small_sample", {"n": "10", "size": "5", "min_items": "50"})):
        assert flat(t(lang, key, **params)) in flat(out)
    assert flat(t(lang, "uncertainty.title")) in flat(out)
    assert flat(t(lang, "uncertainty.se_title")) in flat(out)


@pytest.mark.parametrize(("option", "value", "code"), [
    ("--resamples", "5", "bad_resamples"),
    ("--resamples", str(MAX_RESAMPLES + 1), "bad_resamples"),
    ("--seed", "-1", "bad_seed"),
    ("--kappa0", "2", "bad_kappa_null"),
    ("--kappa0", "abc", "bad_kappa_null"),
])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_resampling_options_exit_2_with_one_translated_line(option, value, code, lang,
                                                                capsys):
    status, out, err = run([*SEED_ARGS, option, value, "--lang", lang], capsys)
    assert status == ExitStatus.INPUT and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    key_text = t(lang, f"errors.{code}", value=value, low="{low}", high="{high}")
    assert flat(key_text.split("{")[0]) in flat(err)


def test_resamples_that_are_not_a_number(capsys):
    status, _, err = run([*SEED_ARGS, "--resamples", "many"], capsys)
    assert status == ExitStatus.INPUT and "--resamples" in err


# --- compare ----------------------------------------------------------------------------------


def test_compare_json_has_the_documented_keys_and_the_engines_values(capsys):
    status, out, err = run([*COMPARE_ARGS, "--json", "--resamples", "1000", "--seed", "4"], capsys)
    assert status == 0 and err == ""
    data = json.loads(out)
    result = compare(ACTUAL, PREDICTED, MODEL_B, resamples=1000, seed=4)
    assert data["kappa_a"] == result.kappa_a and data["kappa_b"] == result.kappa_b
    difference = data["difference"]
    assert difference["value"] == result.difference
    assert difference["interval"] == list(result.interval)
    assert difference["p_value"] == result.p_value
    assert (data["disagreements"], data["a_closer"], data["b_closer"]) == (6, 0, 6)
    assert data["undefined"] == [] and data["constant"] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_text_in_every_language(lang, capsys):
    status, out, err = run([*COMPARE_ARGS, "--lang", lang], capsys)
    assert status == 0 and err == ""
    result = compare(ACTUAL, PREDICTED, MODEL_B)
    assert flat(t(lang, "compare.difference", difference="+" + format_number(
        result.difference, lang))) in flat(out)
    assert flat(t(lang, "compare.paired_note")) in flat(out)
    assert flat(t(lang, "compare.verdict_b_better", p=f"p = {format_number(result.p_value, lang)}",
                  alpha=format_number(0.05, lang))) in flat(out)


def test_compare_reads_three_files_or_one_three_column_csv(tmp_path, capsys):
    paths = {}
    for name, values in (("actual", ACTUAL), ("a", PREDICTED), ("b", MODEL_B)):
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text("\n".join(map(str, values)) + "\n")
    three = tmp_path / "three.csv"
    three.write_text("actual;model_a;model_b\n" + "".join(
        f"{x};{y};{z}\n" for x, y, z in zip(ACTUAL, PREDICTED, MODEL_B, strict=True)))
    outputs = [
        run(COMPARE_ARGS + ["--json"], capsys)[1],
        run(["compare", "--actual-file", str(paths["actual"]), "--model-a-file", str(paths["a"]),
             "--model-b-file", str(paths["b"]), "--json"], capsys)[1],
        run(["compare", "--actual-file", str(three), "--json"], capsys)[1],
        run(["compare", "--actual-file", str(paths["actual"]), "--model-a", ",".join(
            map(str, PREDICTED)), "--model-b-file", str(paths["b"]), "--json"], capsys)[1],
    ]
    assert len({out for out in outputs}) == 1 and json.loads(outputs[0])["kappa_b"] > 0.8


def _error_line(lang: str, error: InputError) -> str:
    return flat(error_message(lang, error))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_columns_of_different_lengths(lang, capsys):
    status, out, err = run(["compare", "--actual", "1,2,3", "--model-a", "1,2,3",
                            "--model-b", "1,2", "--lang", lang], capsys)
    assert status == ExitStatus.INPUT and out == ""
    expected = InputError("columns_length_mismatch", n_actual=3, n_model_a=3, n_model_b=2)
    assert _error_line(lang, expected) in flat(err)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_a_model_column_with_a_decimal(lang, capsys):
    status, _, err = run(["compare", "--actual", "1,2,3", "--model-a", "1,2.5,3",
                          "--model-b", "1,2,2", "--lang", lang], capsys)
    assert status == ExitStatus.INPUT and "--model-a" in err
    inner = InputError("not_integer_decimal", token="2.5", position=2)
    assert _error_line(lang, inner) in flat(err)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_a_constant_model_is_compared_and_said(lang, capsys):
    status, out, _ = run(["compare", "--actual", ",".join(map(str, ACTUAL)), "--model-a",
                          ",".join("2" * len(ACTUAL)), "--model-b", ",".join(map(str, MODEL_B)),
                          "--lang", lang], capsys)
    assert status == 0
    name = t(lang, "compare.model_a")
    assert flat(t(lang, "compare.constant", model=name, rating="2")) in flat(out)
    result = compare(ACTUAL, [2] * len(ACTUAL), MODEL_B)
    assert result.kappa_a == 0.0 and result.p_value is not None
    assert flat(t(lang, "compare.permutation", p=format_p_value(result.p_value, lang, name="p"),
                  permutations=format_number(2000, lang))) in flat(out)


def test_compare_an_undefined_kappa_reports_the_other_model(capsys):
    status, out, _ = run(["compare", "--actual", "3,3,3,3", "--model-a", "3,3,3,3",
                          "--model-b", "3,2,3,3", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["kappa_a"] is None and data["kappa_b"] == 0.0
    assert data["undefined"] == ["a"]
    assert data["difference"] == {"value": None, "interval": None, "p_value": None,
                                  "bootstrap": None, "permutations": None,
                                  "undefined_permutations": None}
    status, out, _ = run(["compare", "--actual", "3,3,3,3", "--model-a", "3,3,3,3",
                          "--model-b", "3,2,3,3"], capsys)
    assert flat(t("en", "compare.no_difference")) in flat(out)
    assert flat(t("en", "undefined.single_category")) in flat(out) or flat(
        t("en", "undefined.no_chance_disagreement")) in flat(out)


@pytest.mark.parametrize(("argv", "code"), [
    (["compare"], "compare_missing_input"),
    (["compare", "--actual", "1,2", "--model-a", "1,2"], "compare_missing_model"),
    (["compare", "--actual", "1,2", "--actual-file", "x.csv", "--model-a", "1,2",
      "--model-b", "1,2"], "conflicting_options"),
    (["compare", "--actual", "1,2,3", "--model-a", "1,2,3", "--model-b", "1,2,3",
      "--resamples", "99"], "bad_resamples"),
])
def test_compare_usage_problems(argv, code, capsys):
    status, out, err = run(argv, capsys)
    assert status == ExitStatus.INPUT and out == "" and err.count("\n") == 1
    assert "Traceback" not in err


def test_compare_file_shapes(tmp_path, capsys):
    two = tmp_path / "two.csv"
    two.write_text("1,2\n3,4\n")
    status, _, err = run(["compare", "--actual-file", str(two)], capsys)
    assert status == ExitStatus.INPUT
    assert flat(t("en", "cli.compare_file_columns", path=str(two), count=2)) in flat(err)
    four = tmp_path / "four.csv"
    four.write_text("1,2,3,4\n3,4,1,2\n")
    status, _, err = run(["compare", "--actual-file", str(four)], capsys)
    assert status == ExitStatus.INPUT
    assert flat(t("en", "cli.compare_file_columns", path=str(four), count=4)) in flat(err)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("1,2,3\n3,4\n")
    status, _, err = run(["compare", "--actual-file", str(ragged)], capsys)
    assert status == ExitStatus.INPUT
    assert flat(error_message("en", InputError("csv_ragged_three", line=2, count=2))) in flat(err)
    three = tmp_path / "three.csv"
    three.write_text("1,2,3\n3,4,1\n2,2,2\n")
    status, _, err = run(["compare", "--actual-file", str(three), "--model-b", "1,2,3"], capsys)
    assert status == ExitStatus.INPUT
    assert flat(t("en", "cli.compare_three_columns_and_models", path=str(three),
                  option="--model-b")) in flat(err)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_help_in_every_language(lang, capsys):
    status, out, _ = run(["compare", "--help", "--lang", lang], capsys)
    assert status == 0 and "--model-a-file" in out
    assert flat(t(lang, "cli.help_model_b")) in flat(out)


def test_compare_is_reproducible_and_seeded(capsys):
    first = run([*COMPARE_ARGS, "--json", "--seed", "9"], capsys)[1]
    assert run([*COMPARE_ARGS, "--json", "--seed", "9"], capsys)[1] == first
    assert run([*COMPARE_ARGS, "--json", "--seed", "10"], capsys)[1] != first
    assert not math.isnan(np.float64(json.loads(first)["difference"]["value"]))
