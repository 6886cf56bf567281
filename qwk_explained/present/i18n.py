"""Translations: one JSON file per language in ``locales/``, English the source of truth.

Strings are whole sentences with named placeholders (``{n_items}``), looked up by dotted keys
(``errors.empty``). Nested JSON objects become dotted prefixes, so each page owns a namespace.

A message whose wording depends on a number is an object of CLDR plural forms instead of a
string, ``{"one": "…{count} item…", "other": "…{count} items…"}``, with exactly the categories of
its language (English and Turkish ``one``/``other``, Spanish also ``many``, Chinese ``other``
only). :func:`t` chooses the form from the ``count`` argument and writes ``{count}`` as the
language writes numbers.
"""

from __future__ import annotations

import json
import numbers
import string
from functools import lru_cache
from importlib.resources import files
from typing import Any

from qwk_explained.core.errors import InputError, QwkError

from .languages import DEFAULT_LANGUAGE, LANGUAGES, language
from .numbers import DECIMALS, format_list, format_number, space_cjk
from .plurals import CATEGORIES

__all__ = ["Entry", "error_message", "format_param", "is_plural", "load", "message", "t"]

#: A locale entry: a sentence, or its plural forms by CLDR category.
Entry = str | dict[str, str]


def is_plural(value: Any) -> bool:
    """Whether a JSON value is a plural message (CLDR categories, ``other`` always among them)."""
    return (isinstance(value, dict) and "other" in value
            and all(key in CATEGORIES and isinstance(text, str) for key, text in value.items()))


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Entry]:
    flat: dict[str, Entry] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if is_plural(value):
            flat[name] = dict(value)
        elif isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


@lru_cache(maxsize=len(LANGUAGES))
def load(lang: str) -> dict[str, Entry]:
    """All strings of one language as a flat ``{dotted.key: entry}`` mapping (read once, cached).

    The files are package data (``qwk_explained/locales``, in a checkout and inside an installed
    wheel alike), so they are found the same way in both.
    """
    if lang not in LANGUAGES:
        raise InputError("unknown_language", value=str(lang), choices=", ".join(LANGUAGES))
    text = (files("qwk_explained") / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    return _flatten(json.loads(text))


def t(lang: str, key: str, /, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (English if missing there), with ``params`` filled in.

    Every parameter is written as :func:`format_param` writes it: a number as the language
    writes numbers (a true minus sign, its decimal mark), an error as its sentence. A numeric
    ``count`` also chooses the plural form of a plural message. In Chinese a space is set where
    a value meets a Han character (``第 3 步``), the spacing convention the literal text follows
    too.
    """
    entry = load(lang).get(key)
    if entry is None:
        lang_used, entry = DEFAULT_LANGUAGE, load(DEFAULT_LANGUAGE).get(key, key)
    else:
        lang_used = lang
    if isinstance(entry, dict):
        count: Any = params.get("count")
        if not _is_number(count):
            raise KeyError(f"{key} has plural forms and needs a numeric count, got {count!r}")
        category = language(lang_used).plural(_plural_operand(float(count)))
        entry = entry.get(category, entry["other"])
    if not params:
        return entry
    return _fill(entry, lang, {name: format_param(lang, value) for name, value in params.items()})


def _plural_operand(count: float) -> int | str:
    # A count is chosen by its value as shown: integers as they are, others to the decimals
    # every number is shown with.
    if count.is_integer():
        return abs(int(count))
    return f"{abs(count):.{DECIMALS}f}".rstrip("0").rstrip(".")


def _fill(text: str, lang: str, params: dict[str, Any]) -> str:
    """``text.format(**params)``, with the language's spacing where a value meets the text."""
    if not language(lang).space_between_cjk_and_latin:
        return text.format(**params)
    out = ""
    for literal, field, spec, conversion in string.Formatter().parse(text):
        out += space_cjk(out, literal, lang) + literal
        if field is not None:
            value = format(_field(params, field, conversion), spec or "")
            out += space_cjk(out, value, lang) + value
    return out


def _field(params: dict[str, Any], field: str, conversion: str | None) -> Any:
    if field == "" or field.isdigit():
        raise IndexError(f"positional field {{{field}}} in a translation")
    value = params[field]  # KeyError when a placeholder has no value, like str.format
    if conversion == "r":
        return repr(value)
    if conversion == "s":
        return str(value)
    return value


def message(lang: str, error: QwkError) -> str:
    """The sentence for any of the project's errors (input, answer, command line) in ``lang``.

    The one place an error becomes words: its ``key`` names the sentence, its ``params`` fill it
    (numbers written as the language writes them; a ``count`` also chooses the plural form).
    """
    try:
        return t(lang, error.key, **error.params)
    except (KeyError, IndexError):  # a placeholder the code did not provide: never crash the edge
        entry = load(lang).get(error.key) or load(DEFAULT_LANGUAGE).get(error.key, error.key)
        return entry["other"] if isinstance(entry, dict) else entry


#: The name the README's Python API documents.
error_message = message


def _is_number(value: Any) -> bool:
    # numbers.Real covers numpy's integers and floats too.
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def format_param(lang: str, value: Any) -> str:
    """Message placeholders: numbers as the language writes them, an error as its own sentence
    (``{source}: {message}``), a tuple as the language lists things (the names a checker
    accepts: "kappa、num 和 den" in Chinese, not Latin commas), anything else as text."""
    if isinstance(value, QwkError):
        return message(lang, value)
    if isinstance(value, tuple):
        return format_list([format_param(lang, item) for item in value], lang)
    if isinstance(value, bool):
        return str(value)
    if _is_number(value):
        return format_number(value, lang)
    return str(value)
