"""Translations: one JSON file per language in ``locales/``, English the source of truth.

Strings are whole sentences with named placeholders (``{n_items}``), looked up by dotted keys
(``errors.empty``). Nested JSON objects become dotted prefixes, so each page owns a namespace.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from typing import Any

from qwk_explained.core.errors import InputError, QwkError

from .languages import DEFAULT_LANGUAGE, LANGUAGES, resolve_language
from .numbers import format_number

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "error_message", "format_param", "load", "message",
           "resolve_language", "t"]


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


@lru_cache(maxsize=len(LANGUAGES))
def load(lang: str) -> dict[str, str]:
    """All strings of one language as a flat ``{dotted.key: text}`` mapping (read once, cached).

    The files are package data (``qwk_explained/locales``, a link to the project's ``locales/``
    in a checkout, a copy inside an installed wheel), so they are found the same way in both.
    """
    if lang not in LANGUAGES:
        raise InputError("unknown_language", value=str(lang), choices=", ".join(LANGUAGES))
    text = (files("qwk_explained") / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    return _flatten(json.loads(text))


def t(lang: str, key: str, /, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (English if missing there), with ``params`` filled in."""
    text = load(lang).get(key)
    if text is None:
        text = load(DEFAULT_LANGUAGE).get(key, key)
    return text.format(**params) if params else text


def message(lang: str, error: QwkError) -> str:
    """The sentence for any of the project's errors (input, answer, command line) in ``lang``.

    The one place an error becomes words: its ``key`` names the sentence, its ``params`` fill it
    (numbers written as the language writes them).
    """
    params = {k: format_param(lang, v) for k, v in error.params.items()}
    try:
        return t(lang, error.key, **params)
    except (KeyError, IndexError):  # a placeholder the code did not provide: never crash the edge
        return t(lang, error.key)


#: The name the README's Python API documents.
error_message = message


def format_param(lang: str, value: Any) -> str:
    """Message placeholders: numbers as the language writes them, an error as its own sentence
    (``{source}: {message}``), anything else as text."""
    if isinstance(value, QwkError):
        return message(lang, value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return format_number(value, lang)
    return str(value)
