r"""One record per language: every rule that decides how a number or a sentence is written.

Everything that writes a number or joins sentences reads :data:`LANGUAGES` (numbers, formulas,
figures, worksheets, the CLI, the checker's reader of typed answers, the plural forms of messages),
and the tests iterate it. The records live in ``locales/languages.json``: a few hand-chosen
fields, and a ``cldr`` part generated from Babel's CLDR data (``python -m
qwk_explained.present.cldr --write``). A new language is one entry there, that command, and one
translation file ``locales/<code>.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from importlib.resources import files
from typing import Any

from .plurals import CATEGORIES, Category, compile_rules

#: The ASCII hyphen-minus, which CLDR keeps as the minus sign of most locales so that numbers
#: stay machine-readable; shown to a reader it becomes the true minus sign (U+2212), the same
#: sign TeX sets in the formulas beside the text.
_ASCII_MINUS = "-"
MINUS_SIGN = "\u2212"


@dataclass(frozen=True, eq=False)
class Language:
    """How one language writes numbers and joins text.

    From CLDR (``cldr``): ``decimal``/``group`` marks, ``minus`` and ``percent_sign``, the
    ``percent`` template (``{}%``, ``{}\u00a0%``, ``%{}``, ``{}`` standing for the number),
    the ``plural`` rules and the ``list`` patterns. Chosen by hand: ``name`` (as the language
    calls itself), ``latex_class`` (``ctexart`` typesets Chinese), ``sentence_joiner`` (what goes
    between two sentences; Chinese puts nothing after its full stop), ``wraps_at_spaces`` (whether
    running text may be wrapped at spaces; Chinese has none between words),
    ``space_between_cjk_and_latin`` (Chinese sets a space between a Han character and a Latin
    letter or digit), ``upright_in_vertical_text`` (a title set vertically, beside a matrix's
    rows, keeps its glyphs upright and reads top to bottom, as Chinese is set; a Latin title is
    turned to read bottom to top) and ``min_grouping_digits`` (CLDR's minimumGroupingDigits,
    which Babel does not expose: Spanish groups only from five digits, 1234 but 12.345).
    """

    code: str
    name: str
    latex_class: str
    sentence_joiner: str
    wraps_at_spaces: bool
    space_between_cjk_and_latin: bool
    upright_in_vertical_text: bool
    min_grouping_digits: int
    cldr: Mapping[str, Any] = field(repr=False)

    @property
    def decimal(self) -> str:
        return str(self.cldr["decimal"])

    @property
    def group(self) -> str:
        return str(self.cldr["group"])

    @property
    def minus(self) -> str:
        """The minus sign a reader sees (CLDR's, with its ASCII stand-in made a true minus)."""
        sign = str(self.cldr["minus"])
        return MINUS_SIGN if sign == _ASCII_MINUS else sign

    @property
    def percent(self) -> str:
        return str(self.cldr["percent"])

    @property
    def latex_list_separator(self) -> str:
        r"""What separates the items of a list inside a formula: with a decimal comma a comma
        cannot (``0{,}5;\ 1``), so those languages use a semicolon."""
        return r";\ " if self.decimal == "," else r",\ "

    @property
    def plural_categories(self) -> tuple[Category, ...]:
        """The CLDR plural categories of the language, in CLDR's order (always with ``other``)."""
        return tuple(c for c in CATEGORIES if c in self.cldr["plural"] or c == "other")

    @cached_property
    def _plural(self) -> Callable[[int | Decimal | str], Category]:
        return compile_rules(self.cldr["plural"])

    def plural(self, count: int | Decimal | str) -> Category:
        """The CLDR plural category of ``count`` (``1`` is ``one`` in English, ``other`` in
        Chinese; a million is ``many`` in Spanish: "1.000.000 de elementos")."""
        return self._plural(count)

    def percent_text(self, number: str) -> str:
        """A formatted number with the language's percent sign: ``95%``, ``95 %``, ``%95``."""
        return self.percent.replace("{}", number)


def _load_records() -> dict[str, Language]:
    text = (files("qwk_explained") / "locales" / "languages.json").read_text("utf-8")
    return {code: Language(code=code, **entry)
            for code, entry in json.loads(text)["languages"].items()}


LANGUAGES: dict[str, Language] = _load_records()
DEFAULT_LANGUAGE = "en"


def language(code: str) -> Language:
    """The record of a supported language; English for anything else."""
    return LANGUAGES.get(code, LANGUAGES[DEFAULT_LANGUAGE])


def base_language(value: str) -> str:
    """The language part of a code or a locale name, lower-cased: ``es`` of ``es_ES.UTF-8``,
    ``zh`` of ``zh-Hans-CN``, ``de`` of ``de_DE@euro``; supported or not.

    >>> base_language("es_ES.UTF-8"), base_language("zh-CN"), base_language(" TR ")
    ('es', 'zh', 'tr')
    """
    return value.split(".")[0].split("@")[0].replace("_", "-").split("-")[0].strip().lower()


def resolve_language(value: str | None) -> str:
    """Best supported language for a code like ``"es"``, ``"zh-CN"``, ``"tr_TR"``; else English.

    >>> resolve_language("zh-CN"), resolve_language("tr_TR"), resolve_language("fr")
    ('zh', 'tr', 'en')
    """
    if not value:
        return DEFAULT_LANGUAGE
    base = base_language(str(value))
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it; English if unsupported.

    The terminal and a notebook speak it by default. ``LANGUAGE`` (a colon-separated preference
    list) wins when it names a supported language, then the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set (``C`` and ``POSIX`` name no language: English).

    >>> environment_language({"LANG": "es_ES.UTF-8"}), environment_language({"LC_ALL": "C"})
    ('es', 'en')
    >>> environment_language({"LANGUAGE": "fr:tr", "LANG": "es_ES"})
    'tr'
    """
    env = os.environ if environ is None else environ
    for entry in env.get("LANGUAGE", "").split(":"):
        if entry and base_language(entry) in LANGUAGES:
            return base_language(entry)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return resolve_language(value)
    return DEFAULT_LANGUAGE
