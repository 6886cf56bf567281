"""One written form: every step says the same on every surface, in every language.

Source of truth: the step catalogue's blocks (``Step.blocks``), the one place a step is written.
Each text surface renders them in its medium: the terminal (the command line's output), a
notebook's Markdown, HTML and plain text, the downloaded worksheet in Markdown and in LaTeX. For
every step, every language and several results (the Spanish seed; a scale with gaps, where the
weights use positions; a contingency table, which has no items; an undefined kappa; linear and
unweighted weightings), each surface's section of that step must carry the same facts as its
blocks: the same numbers (every digit group of its formulas, sentences and tables, as a multiset)
and every sentence. The app's surface is checked the same way in ``tests/app``
(``test_one_written_form.py``). The step-by-step page's and practice's parts of a step are
checked here too (the blocks they take, by role).
"""

from __future__ import annotations

import html
import re
from collections import Counter

import pytest

from qwk_explained import cli, walkthrough, walkthrough_from_table
from qwk_explained.present import markup, worksheet
from qwk_explained.present.blocks import Block, Chart, Formula, Heading, Metric, Table, Text
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.outline import (
    NOTEBOOK,
    TERMINAL,
    WORKSHEET,
    Source,
    cell_blocks,
    done_blocks,
    step_blocks,
    worked_blocks,
)
from qwk_explained.teaching.cells import default_cell

LANGS = list(LANGUAGES)
SEED = ("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1")


def _results():
    """(name, result, source, the command line's arguments)."""
    gaps = ("1,3,5,5", "1,5,3,5")  # the architecture review's example: 3 and 5 are positions 1, 2
    return [
        ("seed", walkthrough(*SEED), Source(), ["--actual", SEED[0], "--predicted", SEED[1]]),
        ("gaps", walkthrough(*gaps, scale="observed"), Source(scale="observed"),
         ["--actual", gaps[0], "--predicted", gaps[1], "--scale", "observed"]),
        ("table", walkthrough_from_table([[5, 2, 0], [1, 6, 1], [0, 2, 4]]), Source(True),
         ["--table", "5,2,0;1,6,1;0,2,4"]),
        ("undefined", walkthrough("3,3,3", "3,3,3", min_rating=1, max_rating=5),
         Source(min_rating=1, max_rating=5),
         ["--actual", "3,3,3", "--predicted", "3,3,3", "--min-rating", "1", "--max-rating", "5"]),
        ("linear", walkthrough(*SEED, weights="linear"), Source(),
         ["--actual", SEED[0], "--predicted", SEED[1], "--weights", "linear"]),
        ("unweighted", walkthrough(*SEED, weights="unweighted"), Source(),
         ["--actual", SEED[0], "--predicted", SEED[1], "--weights", "unweighted"]),
    ]


RESULTS = _results()
IDS = [name for name, *_ in RESULTS]


# --- facts ---------------------------------------------------------------------------------------

#: A number as text writes it: digits, and a decimal part after a point or a comma. Signs are
#: left out (a minus is also an operator).
_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]+)*")
#: The same in LaTeX, where a decimal comma is braced (0{,}25) and a bare comma separates.
_LATEX_NUMBER = re.compile(r"[0-9]+(?:(?:\{[,.]\}|\.)[0-9]+)*")
_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
#: What draws no digit of its own in LaTeX: an exponent (² in text), a command's name.
_EXPONENT = re.compile(r"\^\{[^{}]*\}|\^[0-9]")


def numbers(text: str) -> Counter[str]:
    """The numbers of a text as a multiset, written the same way whatever the medium."""
    # A terminal writes a subscript in Unicode (z₀.₉₇₅): the same digits.
    return Counter(_NUMBER.findall(text.translate(_SUBSCRIPT_DIGITS)))


def _latex_numbers(latex: str) -> Counter[str]:
    return Counter(re.sub(r"[{}]", "", found)
                   for found in _LATEX_NUMBER.findall(_EXPONENT.sub("", latex)))


def _sentence(text: str) -> str:
    return _flat(markup.BOLD.sub(r"\1", text))


def facts(blocks: list[Block]) -> tuple[Counter[str], list[str]]:
    """What a step states: its numbers, and its sentences (headings included)."""
    found: Counter[str] = Counter()
    sentences = []
    for block in blocks:
        if isinstance(block, Heading | Text | Metric):
            found += numbers(block.text)
            sentences.append(_sentence(block.text))
        elif isinstance(block, Formula):
            found += _latex_numbers(block.latex)
        elif isinstance(block, Table):
            for text in (block.caption, *block.columns,
                         *(cell for label, cells in block.rows for cell in (label, *cells))):
                found += numbers(text)
        elif isinstance(block, Chart):  # pragma: no cover - text surfaces get tables
            raise AssertionError("a chart reached a text surface")
    return found, sentences


def _section(text: str, heading: str, headings: list[str]) -> str:
    """The part of ``text`` from ``heading`` to the next heading of ``headings``."""
    start = text.index(heading)
    ends = [text.index(h, start + 1) for h in headings if h in text[start + 1:]]
    return text[start:min(ends, default=len(text))]


def _flat(text: str) -> str:
    # Without any space: a terminal wraps Chinese between two characters, with no space to keep.
    return "".join(text.split())


def assert_same_facts(surface: str, shown_numbers: Counter[str], shown_text: str,
                      blocks: list[Block]) -> None:
    expected_numbers, sentences = facts(blocks)
    assert shown_numbers == expected_numbers, (surface, shown_numbers - expected_numbers,
                                               expected_numbers - shown_numbers)
    flat = _sentence(shown_text)
    missing = [s for s in sentences if s not in flat]
    assert missing == [], (surface, missing)


def _headings(lang: str, end: str) -> list[str]:
    return [step.heading(lang) for step in STEPS] + [end]


# --- the text surfaces ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "result", "source", "args"), RESULTS, ids=IDS)
def test_the_terminal_says_what_the_blocks_say(lang, name, result, source, args, capsys):
    assert cli.main([*args, "--lang", lang]) == 0
    out = capsys.readouterr().out
    cell = default_cell(result)
    headings = _headings(lang, t(lang, "checker.ws.stats_heading"))
    for step in STEPS:
        section = _section(out, step.heading(lang), headings)
        blocks = step_blocks(result, step, lang, cell, TERMINAL)
        # Formulas are text in a terminal: their numbers are compared, their sentences all there.
        assert_same_facts(f"terminal {step.slug}", numbers(section), section, blocks)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "result", "source", "args"), RESULTS, ids=IDS)
def test_a_notebook_says_what_the_blocks_say_in_markdown_html_and_text(lang, name, result,
                                                                        source, args):
    from qwk_explained.notebook import ExplainedWalkthrough

    shown = ExplainedWalkthrough.of(result, None if source.from_table else source.scale)
    cell = default_cell(result)
    for step in STEPS:
        blocks = step_blocks(result, step, lang, cell, NOTEBOOK)
        explanation = shown.explain(lang, step=step.slug)
        markdown = explanation.markdown
        assert_same_facts(f"markdown {step.slug}", _markdown_numbers(markdown), markdown, blocks)
        for block in blocks:
            if isinstance(block, Formula):
                assert f"$$\n{block.latex}\n$$" in markdown, (step.slug, block.latex)
        assert_same_facts(f"text {step.slug}", numbers(explanation.text), explanation.text,
                          blocks)
        page = explanation.html
        if page is not None:  # the notebook extra writes MathML
            prose = html.unescape(re.sub(r"<math.*?</math>|<[^>]+>", " ", page, flags=re.S))
            assert [s for s in facts(blocks)[1] if s not in _flat(prose)] == [], step.slug
            assert page.count('class="qwk-formula"') == sum(isinstance(b, Formula)
                                                            for b in blocks)


def _markdown_numbers(markdown: str) -> Counter[str]:
    """Numbers of Markdown: its formulas read as LaTeX, the rest as text."""
    parts = re.split(r"\$\$\n(.*?)\n\$\$", markdown, flags=re.S)
    found: Counter[str] = Counter()
    for k, part in enumerate(parts):
        found += _latex_numbers(part) if k % 2 else numbers(part)
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "result", "source", "args"), RESULTS, ids=IDS)
def test_the_worksheets_say_what_the_blocks_say(lang, name, result, source, args):
    cell = default_cell(result)
    written = worksheet.markdown(result, lang, source)
    tex = worksheet.latex_document(result, lang, source)
    headings = _headings(lang, t(lang, "checker.ws.stats_heading"))
    for step in STEPS:
        blocks = step_blocks(result, step, lang, cell, WORKSHEET)
        section = _section(written, f"## {step.heading(lang)}", [f"## {h}" for h in headings])
        assert_same_facts(f"worksheet {step.slug}", _markdown_numbers(section), section, blocks)
        tex_section = _section(tex, worksheet.latex_escape(step.heading(lang)),
                               [worksheet.latex_escape(h) for h in headings])
        for block in blocks:
            if isinstance(block, Formula):
                assert r"\fitformula{" + block.latex + "}" in tex_section, step.slug
            elif isinstance(block, Text | Metric):
                assert worksheet.latex_escape(block.text) in tex_section, step.slug


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_writes_its_notes_where_they_apply(lang):
    """The notes a surface used to add by itself now come with the step, everywhere: the weights'
    kind, positions on a scale with gaps (the scikit-learn trap), why normalizing is harmless,
    the followed cell's items, bars and shares, and kappa's band."""
    named = {name: {block.name for step in STEPS
                    for block in step.blocks(result, default_cell(result), lang)
                    if isinstance(block, Text | Metric)}
             for name, result, *_ in RESULTS}
    assert {"weights_kind", "normalization_why", "cell_items", "histograms_cell", "share_num",
            "share_den", "kappa", "band", "caveat"} <= named["seed"]
    assert "weights_positions" in named["gaps"] and "weights_positions" not in named["seed"]
    assert "cell_items" not in named["table"]  # a table has no items
    assert "undefined" in named["undefined"] and "band" not in named["undefined"]
    single = walkthrough("2,2", "2,2", scale="observed")
    said = {block.name for block in STEPS[1].blocks(single, (0, 0), lang)
            if isinstance(block, Text)}
    assert "weights_single" in said and "weights_kind" not in said


# --- the parts of a step the step-by-step page and practice take ---------------------------------


def _latex(blocks: list[Block]) -> list[str]:
    return [block.latex for block in blocks if isinstance(block, Formula)]


def test_the_cells_story_grows_with_the_steps():
    """At step 1 its items and O_ij; w_ij from step 2, its two histogram bars from 3, E_ij from 4,
    its normalized cells from 5, its shares of num and den and its two costs from 6."""
    result = walkthrough(*SEED)
    story = {step: cell_blocks(result, (4, 0), "en", step) for step in range(1, 8)}
    counts = [len(_latex(story[step])) for step in range(1, 8)]
    assert counts == [1, 2, 4, 5, 6, 9, 9]
    first = story[1][0]
    assert isinstance(first, Text)
    assert first.text == t("en", "step_by_step.cell_items", count=4, items="1, 4, 5, 6")
    texts = [block.text for block in story[7] if isinstance(block, Text)]
    assert t("en", "step_by_step.share_num_text", share="88.9%") in texts


def test_an_empty_cell_says_so_and_no_disagreement_has_no_share():
    """Both raters agree on every item: num = 0, so no cell carries a share of it."""
    result = walkthrough([1, 2, 3], [1, 2, 3])
    story = cell_blocks(result, (0, 2), "es", 7)
    texts = [block.text for block in story if isinstance(block, Text)]
    assert texts[0] == t("es", "step_by_step.cell_no_items", row=1, col=3)
    assert t("es", "step_by_step.share_num_zero") in texts


def test_the_steps_done_are_each_steps_heading_and_result():
    result = walkthrough(*SEED)
    assert done_blocks(result, (4, 0), "tr", 1) == []
    done = done_blocks(result, (4, 0), "tr", 7)
    assert [block.text for block in done if isinstance(block, Heading)] == [
        step.heading("tr") for step in STEPS[:6]]
    results = [block for step in STEPS[:6] for block in step.blocks(result, (4, 0), "tr")
               if isinstance(block, Formula) and block.role == "result"]
    assert [block for block in done if isinstance(block, Formula)] == results


@pytest.mark.parametrize(("quantity", "generic", "worked"), [
    ("observed", 1, ["cell_items", "formula", "observed"]),
    ("expected", 1, ["formula", "expected"]),
    ("numerator", 1, ["formula", "weighted_observed"]),
    ("kappa", 1, ["formula"]),
])
def test_practice_shows_the_step_of_the_quantity_it_asked_for(quantity, generic, worked):
    """The generic formula with the question; with the answer, the result (and for a count the
    items of its cell) and its chart, never another quantity's (the next question's answer)."""
    result = walkthrough(*SEED)
    shown_generic, shown_worked = worked_blocks(result, (4, 0), "es", quantity)
    assert len(shown_generic) == generic
    assert all(block.quantity == quantity for block in shown_generic + shown_worked)
    kinds = [block.name if isinstance(block, Text | Chart) else "formula"
             for block in shown_worked]
    assert kinds == worked
