"""Every reason a class can give, every mistake's short name and every field of the check form has
its sentence in the four languages (checked against the locale files and the code's own lists)."""

from __future__ import annotations

import re

import pytest

from qwk_class import classroom
from qwk_explained.present.i18n import load
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.checking import QUANTITIES
from qwk_explained.teaching.mistakes import CODES
from tests import ROOT

_RAISED = re.compile(r"ClassError\(\s*\"([a-z_]+)\"")
_LIMITED = re.compile(r"self\._limit\([^)]*\"([a-z_]+)\"\)")


def _codes() -> set[str]:
    found = set()
    for path in [*(ROOT / "qwk_class").glob("*.py"), *(ROOT / "pages").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        found |= set(_RAISED.findall(text)) | set(_LIMITED.findall(text))
    return found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_class_error_mistake_and_field_is_written(lang: str) -> None:
    strings = load(lang)
    codes = _codes()
    assert {"no_class", "too_many_attempts", "too_many_classes"} <= codes
    assert [c for c in codes if f"classroom.errors.{c}" not in strings] == []
    assert [c for c in CODES if f"classroom.mistake.{c}" not in strings] == []
    assert [q for q in QUANTITIES if f"classroom.field.{q}" not in strings] == []
    assert [a for a in classroom.ACTIVITIES if f"classroom.activity.{a}" not in strings] == []
