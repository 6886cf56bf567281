"""Numbers, percentages, plurals and lists follow CLDR, as Babel ships it.

Source of truth: Babel (``babel.numbers``, ``babel.plural``, ``babel.lists``), a development
dependency pinned in ``requirements-dev.txt``. The app and the CLI read the CLDR data from the
language records in ``locales/languages.json``, without Babel; these tests regenerate that data
with Babel and compare, and check the standard-library plural evaluator against Babel's own.
"""

from __future__ import annotations

from decimal import Decimal

import babel
import pytest
from babel import Locale
from babel.lists import format_list as babel_list
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_percent

from qwk_explained.present import cldr
from qwk_explained.present.languages import LANGUAGES, MINUS_SIGN
from qwk_explained.present.numbers import (
    format_latex,
    format_latex_percent,
    format_list,
    format_number,
    format_percent,
    plotly_separators,
)
from qwk_explained.present.plurals import compile_rules, operands

LANGS = list(LANGUAGES)
#: Integers that exercise every CLDR plural rule shape: 0, 1, 2, teens, tens, hundreds, and
#: round millions (Spanish and French say "1 000 000 de ...": the "many" form).
INTEGERS = [*range(0, 230), 1000, 1001, 10_000, 100_000, 999_999, 1_000_000, 2_000_000,
            3_000_001, 10_000_000]
#: Shown decimals (their visible fraction digits matter to CLDR).
DECIMALS = ["0.0", "0.5", "1.0", "1.5", "2.00", "0.25", "1.10", "5.012"]
#: Languages beyond the app's four, to test the evaluator on every rule shape CLDR has
#: (zero/one/two/few/many/other, mod, ranges, within, fraction operands).
OTHER_LOCALES = ["ar", "ru", "pl", "cy", "fr", "lv", "ga", "sl", "he", "pt", "is", "mk", "br"]


def test_the_committed_records_are_what_babel_says() -> None:
    """Regenerate ``locales/languages.json`` with Babel: the committed file must be identical.
    (After a Babel upgrade: ``python -m qwk_explained.present.cldr --write``.)"""
    current = cldr.RECORD.read_text(encoding="utf-8")
    assert cldr.dump(cldr.regenerated(cldr.read_record())) == current
    assert cldr.read_record()["source"]["babel"] == babel.__version__


def test_the_check_command_reports_an_outdated_record(tmp_path, monkeypatch) -> None:
    stale = cldr.read_record()
    stale["languages"]["es"]["cldr"]["decimal"] = "."
    path = tmp_path / "languages.json"
    path.write_text(cldr.dump(stale), encoding="utf-8")
    monkeypatch.setattr(cldr, "RECORD", path)
    assert cldr.main(["--check"]) == 1
    assert cldr.main(["--write"]) == 0
    assert cldr.main(["--check"]) == 0
    assert cldr.read_record(path)["languages"]["es"]["cldr"]["decimal"] == ","


@pytest.mark.parametrize("code", LANGS + OTHER_LOCALES)
def test_plural_categories_match_babel(code: str) -> None:
    """The standard-library evaluator gives Babel's category for every test number."""
    locale = Locale.parse(code)
    category = compile_rules(locale.plural_form.rules)
    for number in [*INTEGERS, *DECIMALS]:
        value = Decimal(number) if isinstance(number, str) else number
        assert category(number) == locale.plural_form(value), (code, number)


def test_operands_follow_cldr_definitions() -> None:
    assert {k: int(v) for k, v in operands("-12.340").items()} == {
        "n": 12, "i": 12, "v": 3, "w": 2, "f": 340, "t": 34, "c": 0, "e": 0}


def test_the_app_languages_have_their_cldr_categories() -> None:
    assert {code: record.plural_categories for code, record in LANGUAGES.items()} == {
        "en": ("one", "other"), "es": ("one", "many", "other"), "zh": ("other",),
        "tr": ("one", "other")}
    assert LANGUAGES["es"].plural(1_000_000) == "many" and LANGUAGES["tr"].plural(1) == "one"


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_match_babel(lang: str) -> None:
    """Marks and grouping as Babel writes them, with two deliberate differences: the true minus
    sign for CLDR's ASCII hyphen-minus, and CLDR's minimumGroupingDigits (Spanish writes 1234,
    not 1.234), which Babel does not apply."""
    record = LANGUAGES[lang]
    values = [0, 7, 42, 999, 1234, 12_345, 1_234_567, 0.5, 0.0625, 3.14159, 12_345.678, -0.1392,
              -2, -12_345.5]
    for value in values:
        expected = format_decimal(round(value, 4), format="#,##0.####", locale=lang)
        expected = expected.replace("-", MINUS_SIGN)
        digits = len(str(int(abs(value))))
        if digits < 3 + record.min_grouping_digits:
            expected = expected.replace(record.group, "")
        assert format_number(value, lang) == expected, (lang, value)


@pytest.mark.parametrize("lang", LANGS)
def test_percentages_match_babel(lang: str) -> None:
    for value in (0.95, 0.5, 0.125, 0.99):
        assert format_percent(value, lang, decimals=1) == babel_percent(
            value, format=Locale.parse(lang).percent_formats[None].pattern.replace("0", "0.#"),
            locale=lang)


def test_percentages_by_language() -> None:
    assert [format_percent(0.95, lang) for lang in LANGS] == ["95%", "95\u00a0%", "95%", "%95"]
    assert format_latex_percent(0.125, "es") == r"12{,}5~\%"
    assert format_latex_percent(0.5, "tr") == r"\%50"


@pytest.mark.parametrize("lang", LANGS)
def test_lists_match_babel(lang: str) -> None:
    """CLDR list patterns: "2 and 5", "2, 3 y 5", "2 ve 5"; Chinese items are Chinese words here,
    since between a number and 和 the Chinese spacing convention adds a space."""
    words = ["甲", "乙", "丙", "丁"] if lang == "zh" else ["2", "3", "5", "7"]
    for size in range(1, 5):
        assert format_list(words[:size], lang) == babel_list(words[:size], locale=lang)
    if lang == "zh":
        assert format_list(["2", "3", "5"], "zh") == "2、3 和 5"


def test_latex_numbers_keep_their_marks_braced() -> None:
    assert [format_latex(-1234.5, lang) for lang in LANGS] == [
        "-1{,}234.5", "-1234{,}5", "-1{,}234.5", "-1{.}234{,}5"]
    assert format_latex(12_345.25, "es") == "12{.}345{,}25"


def test_plotly_separators_follow_the_record() -> None:
    assert {lang: plotly_separators(lang) for lang in LANGS} == {
        "en": ".,", "es": ",.", "zh": ".,", "tr": ",."}


def test_a_new_language_needs_only_its_record(tmp_path, monkeypatch) -> None:
    """A fifth language: one entry in the record (Babel fills its CLDR part) and one file of
    translations; numbers and plurals then follow it with no code change."""
    record = cldr.read_record()
    record["languages"]["fr"] = {**record["languages"]["en"], "name": "Français", "cldr": {}}
    fresh = cldr.regenerated(record)["languages"]["fr"]
    assert fresh["cldr"]["decimal"] == "," and fresh["cldr"]["percent"] == "{}\u00a0%"
    category = compile_rules(fresh["cldr"]["plural"])
    assert [category(n) for n in (0, 1, 2, 1_000_000)] == ["one", "one", "other", "many"]

