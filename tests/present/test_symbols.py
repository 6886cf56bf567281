"""Symbols in prose are written as a reader sees them in print, not as code (review zh 36).

Sources of truth: the locale files. "κ_max" or "C_b" showed their underscore on screen; a
subscript is a real subscript (κₘₐₓ), a factor without a standard symbol is named in words.
"""

from __future__ import annotations

import re

import pytest

from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES

#: A letter, an underscore and a subscript, outside code (`labels=`) and placeholders.
_CODE_SUBSCRIPT = re.compile(r"(?<![\w`{])[A-Za-zα-ωΑ-Ω]_\{?[A-Za-z0-9]+")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_symbol_is_written_with_a_literal_underscore(lang: str) -> None:
    found = [(key, match) for key, entry in load(lang).items()
             for text in (entry.values() if isinstance(entry, dict) else [entry])
             for match in _CODE_SUBSCRIPT.findall(text)]
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_paradox_metric_is_named_with_the_symbol_the_cohen_text_refers_to(lang: str) -> None:
    assert "κₘₐₓ" in t(lang, "theory.cohen_text")
    assert "κₘₐₓ" in t(lang, "theory.metric_kappa_max")


def test_the_pattern_finds_what_the_review_saw() -> None:
    assert _CODE_SUBSCRIPT.findall("the highest kappa is κ_max, a factor C_b") == ["κ_max", "C_b"]
    assert _CODE_SUBSCRIPT.findall("`min_rating`, {low_rating}, kappa_max") == []
