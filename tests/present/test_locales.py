"""The four locale files stay complete and consistent, whoever adds strings.

Source of truth: ``locales/en.json``. Checks modelled on Home Assistant's hassfest translations
script: same keys in every language, same named placeholders (``string.Formatter().parse``), no
HTML, LaTeX or URLs in strings, translations that are not left in English, and plural messages
with exactly the CLDR plural categories of their language (the language record, from Babel's
CLDR data: English and Turkish one/other, Spanish one/many/other, Chinese other). The code is
scanned too: every error code the engine raises, every undefined-kappa reason and every literal
key passed to a translation call must exist in English (a plural one called with its count).
Written generally, so the app's namespaces are covered as soon as they are added.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from qwk_explained.core.types import SCALES, UNDEFINED_REASONS, WEIGHTINGS
from qwk_explained.present.i18n import is_plural
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching import conventions, theory
from qwk_explained.teaching.interpret import BAND_CODES
from tests import ROOT

LOCALES = ROOT / "qwk_explained" / "locales"
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]

#: Strings this long (placeholders left out) must not be copied from English untranslated.
LONG = 12
#: Keys whose text may legitimately equal English in a language (e.g. a proper name); keep short.
SAME_AS_ENGLISH_ALLOWED: set[tuple[str, str]] = set()

_HTML = re.compile(r"<[A-Za-z/!][^>]*>|&[a-z]+;|&#[0-9]+;")
_LATEX = re.compile(r"\\[A-Za-z]+|\$|\\[(\[]")
_URL = re.compile(r"https?://|www\.|\b[\w-]+\.(?:com|org|net|io|edu)\b", re.IGNORECASE)

# Translation calls with a literal key: t("k"), t(lang, "k"), i18n.t(lang, "k"), tr("k"),
# tx("k"), tx.prose("k"). f-strings and computed keys are skipped (the quote must follow the
# parenthesis or the first argument directly, and close the argument).
_FIRST_ARG = r"(?:[\w.]+(?:\[[^\]]*\])?|[\w.]+\([^()]*\))"
_KEY_CALL = re.compile(
    r"(?<![\w])(?:t|tr|tx|prose)\(\s*(?:" + _FIRST_ARG + r"\s*,\s*)?"
    r"(?P<quote>[\"'])(?P<key>[A-Za-z0-9_.]+)(?P=quote)\s*[,)]"
)
_INPUT_ERROR = re.compile(r"InputError\(\s*[\"']([A-Za-z0-9_]+)[\"']")
_CLI_ERROR = re.compile(r"CliError\(\s*[\"']([A-Za-z0-9_]+)[\"']")


def _flatten(tree: dict, prefix: str = "") -> dict[str, object]:
    flat: dict[str, object] = {}
    for key, value in tree.items():
        if isinstance(value, dict) and not is_plural(value):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _forms(entry: object) -> list[str]:
    """The texts of an entry: the sentence itself, or each of its plural forms."""
    return list(entry.values()) if isinstance(entry, dict) else [entry]  # type: ignore[list-item]


def _texts(lang: str) -> list[tuple[str, str]]:
    """(key, text) for every text of a language, each plural form on its own."""
    return [(key, text) for key, entry in _load(lang).items() for text in _forms(entry)]


def _load(lang: str) -> dict[str, object]:
    with open(LOCALES / f"{lang}.json", encoding="utf-8") as handle:
        return _flatten(json.load(handle))


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def _without_placeholders(text: str) -> str:
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(text))


def _python_sources() -> list[Path]:
    files = [*sorted((ROOT / "qwk_explained").rglob("*.py"))]
    for folder in ("qwk_app", "pages"):
        if (ROOT / folder).is_dir():
            files.extend(sorted((ROOT / folder).rglob("*.py")))
    if (ROOT / "app.py").is_file():
        files.append(ROOT / "app.py")
    return files


ENGLISH = _load("en")


def test_every_locale_file_exists_and_is_valid_json() -> None:
    for lang in LANGUAGES:
        assert (LOCALES / f"{lang}.json").is_file(), lang
        assert _load(lang), lang


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_value_is_a_non_empty_string_that_formats(lang: str) -> None:
    for key, text in _texts(lang):
        assert isinstance(text, str) and text.strip(), f"{lang}: {key}"
        _placeholders(text)  # raises ValueError on an unbalanced brace


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_plural_messages_have_exactly_the_cldr_categories_of_the_language(lang: str) -> None:
    """A message is plural in every language or in none, with the language's CLDR categories."""
    categories = set(LANGUAGES[lang].plural_categories)
    strings = _load(lang)
    plural = [key for key, entry in ENGLISH.items() if isinstance(entry, dict)]
    assert plural, "English has no plural message: the scan is out of date"
    wrong = {key: sorted(strings[key]) if isinstance(strings[key], dict) else "a plain string"
             for key in plural
             if not isinstance(strings[key], dict) or set(strings[key]) != categories}
    assert wrong == {}, f"{lang} needs exactly {sorted(categories)}"
    assert [key for key, entry in strings.items()
            if isinstance(entry, dict) and not isinstance(ENGLISH.get(key), dict)] == []


def test_no_namespace_looks_like_a_plural_message() -> None:
    # A namespace whose keys were all plural categories would be read as one message.
    def walk(tree: dict, prefix: str = "") -> list[str]:
        found = []
        for key, value in tree.items():
            if isinstance(value, dict):
                if is_plural(value) and not all(isinstance(v, str) for v in value.values()):
                    found.append(prefix + key)
                if not is_plural(value):
                    found += walk(value, f"{prefix}{key}.")
        return found

    for lang in LANGUAGES:
        with open(LOCALES / f"{lang}.json", encoding="utf-8") as handle:
            assert walk(json.load(handle)) == [], lang


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_same_keys_as_english(lang: str) -> None:
    keys = set(_load(lang))
    assert sorted(set(ENGLISH) - keys) == [], f"{lang} is missing these keys"
    assert sorted(keys - set(ENGLISH)) == [], f"{lang} has keys that English does not have"


def _english_placeholders(key: str) -> set[str]:
    # Every plural form of an English message names the same values.
    return _placeholders(_forms(ENGLISH[key])[-1])


def test_english_plural_forms_share_their_placeholders() -> None:
    assert {key: [sorted(_placeholders(text)) for text in entry.values()]
            for key, entry in ENGLISH.items() if isinstance(entry, dict)
            and len({frozenset(_placeholders(text)) for text in entry.values()}) > 1} == {}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_same_placeholders_as_english(lang: str) -> None:
    wrong = {key: (sorted(_english_placeholders(key)), sorted(_placeholders(text)))
             for key, text in _texts(lang)
             if key in ENGLISH and _english_placeholders(key) != _placeholders(text)}
    assert wrong == {}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_long_strings_are_translated(lang: str) -> None:
    english = {text for _, text in _texts("en")}
    same = [key for key, text in _texts(lang)
            if key in ENGLISH and text in english
            and len(_without_placeholders(str(text)).strip()) > LONG
            and (lang, key) not in SAME_AS_ENGLISH_ALLOWED]
    assert same == [], f"{lang}: still in English"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_html_latex_or_urls(lang: str) -> None:
    for key, text in _texts(lang):
        for name, pattern in (("HTML", _HTML), ("LaTeX", _LATEX), ("URL", _URL)):
            assert not pattern.search(str(text)), f"{lang}: {key} contains {name}: {text!r}"


def test_every_error_code_raised_in_the_engine_is_translated() -> None:
    codes = set()
    for path in sorted((ROOT / "qwk_explained").rglob("*.py")):
        codes.update(_INPUT_ERROR.findall(path.read_text(encoding="utf-8")))
    assert codes, "the scan found no InputError: the regex is out of date"
    assert sorted(code for code in codes if f"errors.{code}" not in ENGLISH) == []


def test_every_cli_error_code_is_translated() -> None:
    codes = set()
    for path in sorted((ROOT / "qwk_explained" / "cli").glob("*.py")):
        codes.update(_CLI_ERROR.findall(path.read_text("utf-8")))
    assert codes
    assert sorted(code for code in codes if f"cli.{code}" not in ENGLISH) == []


def test_every_undefined_reason_is_translated() -> None:
    assert sorted(r for r in UNDEFINED_REASONS if f"undefined.{r}" not in ENGLISH) == []


def _call_arguments(source: str, start: int) -> str:
    """The text of a call's arguments from ``start`` (inside the parentheses) to its close."""
    depth = 1
    for index in range(start, len(source)):
        depth += {"(": 1, ")": -1}.get(source[index], 0)
        if depth == 0:
            return source[start:index]
    return source[start:]


def test_every_literal_key_used_in_code_exists() -> None:
    missing = []
    no_count = []
    found = 0
    for path in _python_sources():
        source = path.read_text(encoding="utf-8")
        for match in _KEY_CALL.finditer(source):
            found += 1
            key = match["key"]
            if key not in ENGLISH:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
            elif isinstance(ENGLISH[key], dict) and "count=" not in _call_arguments(
                    source, match.start("key")):
                no_count.append(f"{path.relative_to(ROOT)}: {key}")
    assert found, "the scan found no translation call: the regex is out of date"
    assert missing == []
    assert no_count == [], "a plural message is called without the count that chooses its form"


def test_key_scanner_reads_the_call_forms_in_use() -> None:
    # Invariant of the scanner itself, so a silent regex failure cannot make the test above pass.
    sample = '''
t(lang, "a.b")  i18n.t(st.session_state["lang"], "c.d")  tr("e.f")  tx.prose("g.h", n=1)
t(lang, f"skip.{x}")  t(lang, "skip" + x)  print("i.j")  st.title(t(lang(), "k.l"))
'''
    assert [m["key"] for m in _KEY_CALL.finditer(sample)] == ["a.b", "c.d", "e.f", "g.h", "k.l"]


def test_key_families_built_from_codes_exist() -> None:
    # Keys the step catalogue, the CLI and the app build with f-strings from the engine's codes.
    expected = [f"common.band.{code}" for code in BAND_CODES]
    for name in WEIGHTINGS:
        expected += [f"common.weights.{name}", f"common.kappa_name.{name}",
                     f"steps.weights_kind_{name}"]
    expected += [f"common.scale.{scale}" for scale in SCALES]
    # The pitfalls and theory pages build theirs from the teaching layer's Literal types.
    expected += [f"pitfalls.convention.{code}" for code in conventions.CONVENTIONS]
    expected += [f"pitfalls.reason.{reason}" for reason in conventions.REASONS]
    expected += [f"theory.band.{scale}.{band.code}"
                 for scale, bands in theory.INTERPRETATION_SCALES.items() for band in bands]
    assert [key for key in expected if key not in ENGLISH] == []
