"""Translations: one JSON file per language in ``locales/``, English the source of truth.

Strings are whole sentences with named placeholders (``{n_items}``), looked up by dotted keys
(``errors.empty``). Nested JSON objects become dotted prefixes, so each page owns a namespace.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import InputError

LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "zh": "中文", "tr": "Türkçe"}
DEFAULT_LANGUAGE = "en"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"


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
    """All strings of one language as a flat ``{dotted.key: text}`` mapping (read once, cached)."""
    if lang not in LANGUAGES:
        raise InputError("unknown_language", value=str(lang), choices=", ".join(LANGUAGES))
    with open(LOCALES_DIR / f"{lang}.json", encoding="utf-8") as handle:
        return _flatten(json.load(handle))


def resolve_language(value: str | None) -> str:
    """Best supported language for a code like ``"es"``, ``"zh-CN"``, ``"tr_TR"``; else English."""
    if not value:
        return DEFAULT_LANGUAGE
    base = str(value).replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def t(lang: str, key: str, /, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (English if missing there), with ``params`` filled in."""
    text = load(lang).get(key)
    if text is None:
        text = load(DEFAULT_LANGUAGE).get(key, key)
    return text.format(**params) if params else text


def error_message(lang: str, error: InputError) -> str:
    """The translated sentence for an :class:`InputError`."""
    params = {k: format_param(lang, v) for k, v in error.params.items()}
    try:
        return t(lang, f"errors.{error.code}", **params)
    except (KeyError, IndexError):  # a placeholder the code did not provide: never crash the edge
        return t(lang, f"errors.{error.code}")


def format_param(lang: str, value: Any) -> str:
    """Message placeholders: numbers as the language writes them, anything else as text."""
    from .numbers import format_number

    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return format_number(value, lang)
    return str(value)
