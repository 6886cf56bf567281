"""Terminal text measured in columns: Chinese help and prose line up and fit the terminal.

Source of truth: Unicode's East Asian Width property (``unicodedata.east_asian_width``: a Han
character or a full-width mark takes two columns), and the invariants of wrapping (no character
lost or added, no line wider than asked unless a single word is, no line starting with a
closing mark such as "，").
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from qwk_explained import cli
from qwk_explained.present import columns
from qwk_explained.present.i18n import load
from qwk_explained.present.languages import LANGUAGES

LANGS = list(LANGUAGES)
WIDTH = 80


def _reference_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def test_a_no_break_space_never_breaks_a_line() -> None:
    """Spanish writes 95 % with a no-break space: the sign stays on the number's line."""
    text = "Intervalo de confianza del 95\u00a0%: de −0,2846 a 0,0061."
    for width in range(10, 40):
        assert all(not line.startswith("%") for line in columns.wrap(text, width))
    assert columns.collapse("a \n\t b\u00a0c") == "a b\u00a0c"


def test_width_counts_two_columns_for_han_characters_and_full_width_marks() -> None:
    for text in ("kappa", "二次加权 kappa", "（N）", "Ağırlık", "ponderación"):
        assert columns.width(text) == _reference_width(text)
    assert columns.pad("评分", 6) == "评分  "


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", [24, 41, 80])
def test_wrapping_every_sentence_keeps_its_text_and_fits(lang: str, width: int) -> None:
    for entry in load(lang).values():
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            lines = columns.wrap(text, width)
            squeezed = re.sub(r"\s+", "", text)
            assert re.sub(r"\s+", "", "".join(lines)) == squeezed
            for number, line in enumerate(lines):
                assert line == line.strip()
                # Wider only when it cannot break: one word (with the marks glued to it).
                assert columns.width(line) <= width or columns.wrap(line, 1) == [line]
                assert number == 0 or line[0] not in "，。、；：！？）", (text, lines)


@pytest.mark.parametrize("lang", LANGS)
def test_help_puts_every_option_help_in_one_column(
        lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH + 2))  # argparse keeps two columns free
    assert cli.main(["--help", "--lang", lang]) == 0
    out = capsys.readouterr().out
    # The example commands at the end cannot wrap; everything above them fits.
    body = out.split(load(lang)["cli.help_examples"])[0]
    assert max(columns.width(line) for line in body.splitlines()) <= WIDTH
    starts = set()
    for line in out.splitlines():
        match = re.match(r"^  -\S+(?: \S+)? {2,}(?=\S)", line)
        if match:
            starts.add(columns.width(match.group(0)))
    # Every option whose name fits before the help column starts its help in the same column.
    assert len(starts) == 1, (starts, out)
    heading = load(lang)["cli.help_options"]
    assert f"\n{heading}\n" in out and "\x00" not in out


def test_chinese_prose_wraps_between_han_characters(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert cli.main(["--actual", "4,4,3,4,4,4,1,1,2,1", "--predicted", "0,2,1,0,0,0,1,1,2,1",
                     "--lang", "zh"]) == 0
    prose = [line for line in capsys.readouterr().out.splitlines()
             if re.search(r"[\u4e00-\u9fff]", line) and "=" not in line]
    assert prose and max(columns.width(line) for line in prose) <= 60
    assert any(columns.width(line) > 50 for line in prose)  # lines are filled, not just broken
