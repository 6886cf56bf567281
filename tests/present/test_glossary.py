"""Each language keeps its terms straight, its spacing, its form of address and its suffixes.

Sources of truth: the glossaries in ``locales/glossary/<lang>.json`` (the terms of the reference
documents each app language grew from, and the synonyms the native reviewers flagged), the
Chinese spacing convention written in the Chinese glossary, Turkish vowel harmony (a suffix after
a number depends on how the number is read, so none may follow a placeholder), and each
language's CLDR percent pattern (its record in ``locales/languages.json``).
"""

from __future__ import annotations

import json
import re
import string

import pytest

from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES
from tests import ROOT

GLOSSARIES = ROOT / "qwk_explained" / "locales" / "glossary"
LANGS = list(LANGUAGES)

HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Latin letters, digits, Greek letters and subscripts: what takes a space next to a Han character.
LATIN = r"A-Za-z0-9\u0370-\u03ff\u2080-\u209c"
FULL_WIDTH_MARKS = "，。、；：！？（）“”《》「」…—"


def _texts(lang: str) -> list[tuple[str, str]]:
    """(key, text) for every string of a language, each plural form on its own."""
    return [(key, text) for key, entry in load(lang).items()
            for text in (entry.values() if isinstance(entry, dict) else [entry])]


def _literal(text: str) -> str:
    """The text with every placeholder replaced by one marker character (U+E000)."""
    return "".join(literal + ("" if field is None else "\ue000")
                   for literal, field, _, _ in string.Formatter().parse(text))


def _glossary(lang: str) -> dict:
    return json.loads((GLOSSARIES / f"{lang}.json").read_text(encoding="utf-8"))


def test_every_language_has_a_glossary() -> None:
    assert sorted(path.stem for path in GLOSSARIES.glob("*.json")) == sorted(LANGS)
    for lang in LANGS:
        glossary = _glossary(lang)
        assert glossary["language"] == lang and glossary["terms"] and glossary["address"]["form"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_chosen_term_is_used(lang: str) -> None:
    """A glossary term nobody uses is out of date: each one occurs in the language's strings."""
    texts = [_literal(text) for _, text in _texts(lang)]
    unused = [term["use"] for term in _glossary(lang)["terms"]
              if not any(re.search(term["use"], text) for text in texts)]
    assert unused == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_string_uses_a_synonym_the_glossary_avoids(lang: str) -> None:
    """One term per concept: Spanish ponderaciones (never pesos), Turkish uyumsuzluk (never
    anlaşmazlık), Chinese 不一致 (never 分歧); "seed" only for the random generator's seed."""
    found = []
    for term in _glossary(lang)["terms"]:
        allowed = set(term.get("allow", []))
        for pattern in term["avoid"]:
            found += [(term["concept"], key, re.search(pattern, _literal(text)).group())
                      for key, text in _texts(lang)
                      if key not in allowed and re.search(pattern, _literal(text))]
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_exception_names_a_string_that_exists(lang: str) -> None:
    """An ``allow`` entry for a key that is gone would silently let the synonym back in under
    that name: each one names a key the language has."""
    keys = set(load(lang))
    stale = [key for term in _glossary(lang)["terms"] for key in term.get("allow", [])
             if key not in keys]
    assert stale == []


@pytest.mark.parametrize("lang", LANGS)
def test_one_form_of_address(lang: str) -> None:
    """Spanish tú (no usted), Turkish siz (no sen), Chinese 你 (no 您)."""
    patterns = _glossary(lang)["address"]["avoid"]
    found = [(key, pattern) for key, text in _texts(lang) for pattern in patterns
             if re.search(pattern, _literal(text))]
    assert found == []


def test_the_glossary_checks_would_catch_a_synonym() -> None:
    # The checks themselves: the reviewers' own examples are caught by the patterns.
    def avoided(lang: str, text: str) -> bool:
        return any(re.search(p, text) for term in _glossary(lang)["terms"] for p in term["avoid"])

    assert avoided("es", "Los pesos cuadráticos castigan")
    assert avoided("es", "Concordancia moderada")
    assert not avoided("es", "el coeficiente de correlación de concordancia de Lin")
    assert avoided("tr", "Tam anlaşmazlık") and avoided("tr", "bu anlaşma düzeyi")
    assert avoided("tr", "gözlemlenen anlaşma matrisi O")
    assert avoided("tr", "Hafif uyum") and avoided("tr", "Makul uyum")
    assert avoided("tr", "iki değerlendirici de tüm öğelere aynı puanı verdiği için")
    assert not avoided("tr", "bütün öğeler iki değerlendiriciden de aynı tek puanı aldı")
    assert avoided("zh", "观测到的分歧") and avoided("zh", "种子文档")
    assert avoided("en", "the Spanish seed note")
    assert avoided("es", "Correcto en las cifras que escribiste")
    assert avoided("es", "la celda seguida")
    assert not avoided("es", "Mostrar la resolución completa")


# --- Chinese spacing ------------------------------------------------------------------------------

def _without_bold(text: str) -> str:
    return text.replace("**", "")


def test_chinese_sets_a_space_between_han_and_latin_letters_or_digits() -> None:
    """第 3 步, 二次加权 kappa: one half-width space between a Han character and a Latin letter
    or digit, on either side (bold markers are transparent)."""
    pattern = re.compile(rf"[{HAN}][{LATIN}]|[{LATIN}][{HAN}]")
    found = [(key, pattern.search(_without_bold(_literal(text))).group())
             for key, text in _texts("zh") if pattern.search(_without_bold(_literal(text)))]
    assert found == []


def test_chinese_sets_no_space_next_to_a_placeholder_or_a_full_width_mark() -> None:
    """Next to a {placeholder} the space is decided at run time by the value (a number gets one,
    Chinese text does not); next to full-width punctuation there is never one."""
    marker = "\ue000"
    placeholder = re.compile(rf"[{HAN}] +(\*\*)?{marker}|{marker}(\*\*)? +[{HAN}]")
    marks = re.compile(rf"[{FULL_WIDTH_MARKS}] | [{FULL_WIDTH_MARKS}]")
    found = [key for key, text in _texts("zh")
             if placeholder.search(_literal(text)) or marks.search(_literal(text))]
    assert found == []


def test_chinese_uses_full_width_punctuation_between_han_characters() -> None:
    pattern = re.compile(rf"[{HAN}][,;:!?()]|[,;:!?()][{HAN}]")
    assert [key for key, text in _texts("zh") if pattern.search(_literal(text))] == []


def test_chinese_spacing_is_applied_where_values_meet_the_text() -> None:
    """At run time a number placed next to a Han character gets its space, Chinese text not."""
    assert t("zh", "steps.step_heading", number=3, title="观测矩阵 O") == "第 3 步：观测矩阵 O"
    assert t("zh", "steps.kappa_band", band="中等一致") == (
        "按照 Landis 和 Koch 的划分标准，这一结果属于**中等一致**。")
    assert t("zh", "inputs.upload_loaded", name="a.csv", count=12) == "已从 a.csv 载入 12 个样本。"


# --- Turkish suffixes after values ----------------------------------------------------------------

#: Values a Turkish sentence may receive, whose suffixes all differ by vowel harmony:
#: 1'e, 2'ye, 3'e, 4'e, 6'ya, 9'a, 10'a, 100'e; 0,25'e; −1'e.
TURKISH_VALUES = ("0", "1", "2", "3", "4", "6", "9", "10", "100", "0,25", "−1", "%50")


def test_no_turkish_suffix_follows_a_placeholder() -> None:
    """A suffix after a number follows how the number is read (4'e, 6'ya, 10'a): a sentence
    could only be right for some values. So no placeholder is followed by an apostrophe or a
    letter; sentences are phrased so the value stands alone ("0 ile {top} arasındaki")."""
    pattern = re.compile(r"\}['’]|\}[A-Za-zÇĞİÖŞÜçğıöşü]")
    assert [key for key, text in _texts("tr") if pattern.search(text)] == []


def test_turkish_sentences_read_right_for_every_value() -> None:
    """Rendered with values of every vowel-harmony class, no value is glued to a suffix."""
    suffix = re.compile(r"(?:\d|%)['’][a-zçğıöşü]+")
    for key, text in _texts("tr"):
        names = {field for _, field, _, _ in string.Formatter().parse(text) if field}
        if not names:
            continue
        literal_suffixes = len(suffix.findall(text))
        for value in TURKISH_VALUES:
            shown = text.format(**dict.fromkeys(names, value))
            assert len(suffix.findall(shown)) == literal_suffixes, (key, value, shown)


# --- numbers written inside sentences -------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_percentages_written_in_sentences_follow_cldr(lang: str) -> None:
    """A percentage typed into a sentence is written as the language's CLDR pattern says:
    95% in English and Chinese, 95 % (no-break space) in Spanish, %95 in Turkish."""
    template = LANGUAGES[lang].percent
    expected = re.compile(re.escape(template).replace(r"\{\}", r"\d+(?:[.,]\d+)?"))
    for key, text in _texts(lang):
        for match in re.finditer(r"%\s?\d+|\d+(?:[.,]\d+)?\s?%", _literal(text)):
            assert expected.fullmatch(match.group()), (key, match.group(), template)


@pytest.mark.parametrize("lang", LANGS)
def test_decimals_written_in_sentences_use_the_language_decimal_mark(lang: str) -> None:
    """0,25 in Spanish and Turkish, 0.25 in English and Chinese; a sentence that shows both
    marks on purpose ("0,25 or 0.25 both work") names both."""
    mark = LANGUAGES[lang].decimal
    other = "." if mark == "," else ","

    def decimals(separator: str, text: str) -> list[str]:
        # 0,25 is a decimal; 0,4,1 (a row of counts) and 4, 4, 3 (a list) are not.
        return re.findall(rf"(?<![\w.,;]){re.escape(separator)}".join(["0", r"\d+(?![,;]\d)"]),
                          text)

    for key, text in _texts(lang):
        literal = _literal(text)
        wrong = decimals(other, literal)
        assert not wrong or decimals(mark, literal), (key, wrong)


# --- values inside sentences ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_in_sentence_forms_start_lowercase(lang: str) -> None:
    """A label placed mid-sentence ("Ponderación: cuadrática", "the sidebar is set to linear
    weighted kappa") has its own lowercase form, never an upper-cased label; proper names
    (Cohen) keep their capital."""
    forms = {key: text for key, text in _texts(lang)
             if key.startswith(("common.in_sentence.", "practice.level_in_sentence."))}
    assert forms
    assert {key: text for key, text in forms.items()
            if not text[0].islower() and not text.startswith("Cohen")} == {}


# --- counts written before a noun -----------------------------------------------------------------

#: A value right before a plural noun, in the languages whose nouns agree with a number: a plain
#: sentence would say "1 items" or "1 elementos" (Chinese and Turkish nouns do not change).
COUNTED_NOUN = {
    "en": r"\ue000 (?:\w+ )?(?:items|values|rows|columns|cells|ratings|levels|times|answers)\b",
    "es": r"\ue000 (?:de )?(?:\w+ )?(?:elementos|valores|filas|columnas|celdas|calificaciones"
          r"|niveles|veces|respuestas)\b",
}
#: Plain sentences whose value before the noun is never 1 where they are said.
NEVER_ONE = {
    "checker.diagnosis.counts_not_shares",  # n = 1: counts equal shares, no wrong value to name
    "checker.diagnosis.weights_not_normalized",  # N >= 2 (N = 2: the factor 1 names no mistake)
    "checker.diagnosis.weights_divided_by_N_squared",  # N >= 2 levels
    "checker.diagnosis.observed_scale",  # one observed level: kappa undefined, nothing to compare
    "checker.diagnosis.range_scale",  # the full range holds at least the N >= 2 observed levels
    "practice.finished",  # "1 of 6 answers right": the noun follows the number of questions
    "interval.small_sample",  # an interval is shown only for n >= 2 (one item: a constant rater)
    "z_test.small_sample",  # a z test needs SE0 > 0: n >= 2 items and k >= 2 ratings in use
    "checker.note.if_num_from_shares",  # n >= 2: with one item counts and shares are equal
    "undo.random",  # the random example has at least 2 items
}


@pytest.mark.parametrize("lang", sorted(COUNTED_NOUN))
def test_a_count_before_a_noun_is_a_plural_message(lang: str) -> None:
    """"1 elementos", "0 de 1 valores" (Spanish review, W3 and W4): a value written before a
    plural noun takes the CLDR plural forms of a ``count`` message, or the sentence is phrased
    so the number stands alone ("Has acertado 1 de 3")."""
    pattern = re.compile(COUNTED_NOUN[lang])
    found = [key for key, entry in load(lang).items()
             if isinstance(entry, str) and key not in NEVER_ONE
             and pattern.search(_literal(entry))]
    assert found == []
    before = {"en": "prediction {x} matches on {n} items", "es": "{right} de {n} valores"}
    assert pattern.search(_literal(before[lang])), "the pattern no longer finds the old bug"


# --- formulas inside Spanish sentences ------------------------------------------------------------

#: An operator between two operands, with a breaking space on either side ("n = 10", "N − 1").
_BREAKABLE_OPERATOR = re.compile(r"\S (?:=|−|×|/|∩|<|≤)[ \u00a0]\S|\S[ \u00a0](?:=|−|×|/|∩|<|≤) \S")


def test_spanish_formulas_in_sentences_do_not_break_at_an_operator() -> None:
    """Spanish review, M4: "n = / 10", "entre (N / − 1)²" at the end of a phone's or a terminal's
    line. Inside a sentence an operator is held by no-break spaces (the terminal's wrapping and
    the one-line errors keep them)."""
    found = [(key, _BREAKABLE_OPERATOR.search(text).group()) for key, text in _texts("es")
             if _BREAKABLE_OPERATOR.search(text)]
    assert found == []
    assert _BREAKABLE_OPERATOR.search("Con n = 10 elementos") and not _BREAKABLE_OPERATOR.search(
        "Con n\u00a0=\u00a010 elementos")
