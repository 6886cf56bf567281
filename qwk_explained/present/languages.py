r"""One record per language: every rule that decides how a number or a sentence is written.

Everything that writes a number or joins sentences reads :data:`LANGUAGES` (numbers, formulas,
figures, worksheets, the CLI, the checker's reader of typed answers), and the tests iterate it.
A new language is one JSON file in ``locales/``, one :class:`Language` here, and its translations.

The symbols (decimal mark, grouping mark, percent pattern) are the CLDR ones for each locale.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """How one language writes numbers and joins text.

    ``decimal``/``group``: the decimal and thousands marks (CLDR). ``percent``: where the percent
    sign goes, ``{}`` standing for the number (CLDR: ``{}%``, ``{} %``, ``%{}``).
    ``latex_list_separator``: what separates the items of a list inside a formula; with a decimal
    comma a comma cannot, so Spanish and Turkish use a semicolon. ``latex_class``: the document
    class a worksheet needs (``ctexart`` typesets Chinese). ``sentence_joiner``: what goes between
    two sentences (Chinese puts nothing after its full stop). ``wraps_at_spaces``: whether running
    text may be wrapped at spaces (Chinese has none between words).
    """

    code: str
    name: str
    decimal: str
    group: str
    percent: str
    latex_list_separator: str
    latex_class: str
    sentence_joiner: str
    wraps_at_spaces: bool = True

    def percent_text(self, number: str) -> str:
        """A formatted number with the language's percent sign: ``95%``, ``95 %``, ``%95``."""
        return self.percent.replace("{}", number)


LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        Language("en", "English", ".", ",", "{}%", r",\ ", "article", " "),
        Language("es", "Español", ",", ".", "{}%", r";\ ", "article", " "),
        Language("zh", "中文", ".", ",", "{}%", r",\ ", "ctexart", "", wraps_at_spaces=False),
        Language("tr", "Türkçe", ",", ".", "%{}", r";\ ", "article", " "),
    )
}
DEFAULT_LANGUAGE = "en"


def language(code: str) -> Language:
    """The record of a supported language; English for anything else."""
    return LANGUAGES.get(code, LANGUAGES[DEFAULT_LANGUAGE])


def resolve_language(value: str | None) -> str:
    """Best supported language for a code like ``"es"``, ``"zh-CN"``, ``"tr_TR"``; else English.

    >>> resolve_language("zh-CN"), resolve_language("tr_TR"), resolve_language("fr")
    ('zh', 'tr', 'en')
    """
    if not value:
        return DEFAULT_LANGUAGE
    base = str(value).replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE
