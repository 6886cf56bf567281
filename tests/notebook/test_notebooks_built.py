"""The four walkthrough notebooks are generated from one template and cannot drift.

Sources of truth: ``notebooks/build.py`` (the one template) and the locale files (every sentence of
a notebook). A committed notebook must be exactly what the builder writes; the four must have the
same cells and the same code but for the reference example's data and the language; and their
prose is the locales' (so the glossary, plural and spacing tests read it, see
``tests/present/test_glossary.py``). The builder itself refuses an example that does not bear out
a sentence, and the reference values each notebook asserts are checked against the library when
it runs (``test_notebooks_run.py``).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys

import pytest

from qwk_explained.present.i18n import load
from qwk_explained.present.languages import LANGUAGES
from tests import ROOT

BUILDER = ROOT / "notebooks" / "build.py"


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("notebooks_build", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_committed_notebook_is_what_the_builder_writes(build, lang):
    committed = build.path(lang).read_text(encoding="utf-8")
    assert committed == build.notebook(lang), (
        f"{build.path(lang).name} is out of date: run python notebooks/build.py")


def test_the_check_fails_on_a_notebook_edited_by_hand(build, tmp_path, monkeypatch):
    assert build.main(["--check"]) == 0
    edited = tmp_path / "qwk_es.ipynb"
    edited.write_text(build.notebook("es").replace("kappa", "Kappa", 1), encoding="utf-8")
    monkeypatch.setattr(build, "path", lambda lang: edited if lang == "es" else
                        ROOT / "notebooks" / f"qwk_{lang}.ipynb")
    assert build.main(["--check"]) == 1


def _cells(lang):
    return json.loads((ROOT / "notebooks" / f"qwk_{lang}.ipynb").read_text("utf-8"))["cells"]


def _shape(source: str, lang: str) -> str:
    """A code cell without what may differ: numbers (the data), the language, comments."""
    source = re.sub(r"#[^\n]*", "#", source)
    source = source.replace(f'"{lang}"', '"LANG"')
    source = re.sub(r"-?[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?", "N", source)
    return re.sub(r"\[N(?:, N)*\]", "[N]", source)  # the ratings: one list per example


def test_every_notebook_has_the_same_cells_and_code_but_for_its_data():
    shapes = {lang: [(cell["cell_type"], _shape("".join(cell["source"]), lang)
                      if cell["cell_type"] == "code" else "")
                     for cell in _cells(lang)] for lang in LANGUAGES}
    english = shapes["en"]
    for lang, shape in shapes.items():
        assert shape == english, lang


def test_the_prose_comes_from_the_locales(build):
    """Every markdown paragraph of every notebook is a locale sentence of its language with its
    values filled in (its fixed words make up a good part of it), a step's heading, or the kappa
    formula the library wrote; none is typed in the builder."""
    from qwk_explained.present.catalogue import STEPS

    for lang in LANGUAGES:
        literals = [[part for part in re.split(r"\{[a-z_]+\}", text) if part.strip()]
                    for value in load(lang).values()
                    for text in (value.values() if isinstance(value, dict) else [value])]
        headings = {step.heading(lang) for step in STEPS}
        for kind, source in build.cells_of(lang):
            if kind != "markdown":
                continue
            for paragraph in source.split("\n\n"):
                paragraph = paragraph.lstrip("#").strip()
                if paragraph in headings or paragraph.startswith("κ = 1 − "):
                    continue
                words = re.sub(r"`[^`]*`", "", paragraph)  # quoted code is a value
                assert any(parts and all(part in paragraph for part in parts)
                           and len("".join(parts)) >= 0.3 * len(words)
                           for parts in literals), (lang, paragraph)


def test_the_builder_refuses_a_reference_value_the_library_does_not_give(build, monkeypatch):
    """What a reference printed is the only data typed in the builder: a wrong one stops it."""
    import dataclasses

    wrong = dataclasses.replace(build.REFERENCES["tr"], printed=0.9537)
    monkeypatch.setitem(build.REFERENCES, "tr", wrong)
    with pytest.raises(ValueError, match="does not bear out"):
        build.cells_of("tr")
