"""Typesetting of the terminal's text: where a line may break, how a list of levels and a
checked value read (reviews: zh 39, 40, 42; tr M14; es M4).

Sources of truth: the Chinese reviewer's examples of bad breaks ("位于第⏎1 步", "kappa 等于 1⏎−
num/den", "2N² = 50⏎个", "[−1,⏎1]"), CLDR's list patterns (``format_list``) and the locale files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from qwk_explained import cli
from qwk_explained.present import columns
from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES

DATA = ["--actual", "4,4,3,4,4,4,1,1,2,1", "--predicted", "0,2,1,0,0,0,1,1,2,1"]

#: A sentence with every unit a line must not split, and the units.
SENTENCE = ("这一结果位于第 12 步的公式中：二次加权 kappa 等于 1 − num/den，"
            "需要 2N² = 50 个或更多样本，而且区间 [−1, 1] 以外的数值都不可能出现；"
            "单元格 O[4, 0] 也一样。")
UNITS = ("第 12 步", "50 个", "1 − num/den", "2N² = 50", "[−1, 1]", "O[4, 0]")


@pytest.mark.parametrize("width", range(8, 60))
def test_a_line_never_splits_a_step_number_a_count_a_formula_or_an_interval(width: int) -> None:
    lines = columns.wrap(SENTENCE, width)
    assert "".join(lines).replace(" ", "") == SENTENCE.replace(" ", "")
    for unit in UNITS:
        assert any(unit in line for line in lines), (unit, lines)


def test_a_no_break_space_next_to_a_han_character_holds() -> None:
    text = "一二三四五六七八第\u00a03\u00a0步九十"
    for width in range(4, 20):
        assert any("第\u00a03\u00a0步" in line for line in columns.wrap(text, width))


@pytest.mark.parametrize("width", range(10, 40))
def test_english_and_spanish_formulas_stay_whole(width: int) -> None:
    text = "Each distance is divided by (N − 1)² = 16, and n = 10 items give [−0,2846; 0,0061]."
    lines = columns.wrap(text, width)
    for unit in ("(N − 1)² = 16,", "n = 10", "[−0,2846; 0,0061]."):
        assert any(unit in line for line in lines), (unit, lines)


def test_a_long_bracketed_phrase_still_breaks() -> None:
    """Only a short bracket (an interval, a cell) holds together: a long one is prose."""
    text = "[" + " ".join(["word"] * 12) + "]"
    assert len(columns.wrap(text, 20)) > 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_mark_of_the_legend_keeps_its_label(lang: str) -> None:
    legend = load(lang)["checker.marks_legend"]
    marks = re.findall(r"[✓≈±✗?](.)", legend)
    assert len(marks) == 5 and set(marks) == {"\u00a0"}, legend


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, answers: dict) -> str:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    assert cli.main(["check", *DATA, "--answers", str(path), "--lang", lang]) == 0
    return capsys.readouterr().out


def test_a_chinese_checked_value_is_set_apart_by_two_spaces_not_a_latin_colon(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _check(tmp_path, capsys, "zh", {"observed": {"0,0": 0}})
    verdict = t("zh", "checker.verdict.right", value="0")
    assert f"  ✓\u00a0O[0, 0] = 0  {verdict}" in out.splitlines()
    assert "0: 正确" not in out


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_a_checked_value_keeps_its_mark_and_colon(
        lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _check(tmp_path, capsys, lang, {"observed": {"0,0": 0}})
    verdict = t(lang, "checker.verdict.right", value="0")
    line = t(lang, "checker.answer_line", mark="✓", place="O[0, 0]", value="0", verdict=verdict)
    assert "  " + line in out.splitlines()
    assert line.startswith("✓\u00a0O[0, 0]") and line.endswith(f"0: {verdict}")


@pytest.mark.parametrize(("lang", "levels"), [
    ("zh", "0、1、2、3 和 4"), ("en", "0, 1, 2, 3, and 4"), ("es", "0, 1, 2, 3 y 4"),
    ("tr", "0, 1, 2, 3 ve 4")])
def test_the_levels_of_the_scale_are_listed_as_the_language_lists(
        lang: str, levels: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert cli.main([*DATA, "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert levels + ("。" if lang == "zh" else ".") in out
    # The data themselves stay as typed, commas and all.
    assert "4, 4, 3, 4, 4, 4, 1, 1, 2, 1" in out


def test_a_path_is_spaced_from_the_chinese_around_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--actual-file", "/nonexistent/ratings.csv", "--predicted", "1",
                     "--lang", "zh"]) != 0
    err = capsys.readouterr().err
    assert "文件 /nonexistent/ratings.csv 不存在" in err


def test_the_names_a_checker_accepts_are_listed_as_the_language_lists(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"kapa": "1"}), encoding="utf-8")
    assert cli.main(["check", *DATA, "--answers", str(path), "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert "observed、weights、" in err and "denominator 和 kappa。" in err
