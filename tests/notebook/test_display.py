"""A walkthrough displays itself in a notebook: the mime bundle in every language.

Sources of truth: the step catalogue and the formulas (every step's generic and plugged LaTeX
must appear), the command line (``text/plain`` is its ``render_text``, ``application/json`` its
``--json`` object), :mod:`qwk_explained.present.numbers` (decimal comma in Spanish and Turkish),
the seed examples' published numbers (num 0.45, den 0.395, kappa -0.1392), and invariants of the
markup (Markdown and HTML written from the same blocks; no script in the HTML).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import escape
from html.parser import HTMLParser

import numpy as np
import pytest

import qwk_explained
from qwk_explained import Walkthrough, kappa_statistics, walkthrough, walkthrough_from_table
from qwk_explained.cli.json_output import result_json
from qwk_explained.cli.text import render_text
from qwk_explained.core import steps as core_steps
from qwk_explained.core.errors import InputError
from qwk_explained.notebook import ExplainedWalkthrough, NotebookError
from qwk_explained.notebook import render as notebook_render
from qwk_explained.present.blocks import Formula
from qwk_explained.present.catalogue import FIGURE_NAMES, STEPS
from qwk_explained.present.i18n import load, message, t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.present.numbers import format_latex, format_list, format_number, format_percent
from qwk_explained.teaching.examples import BY_NAME
from tests import ROOT
from tests.hostile import assert_translated

#: z with the 95 % interval's quantile as its subscript, as each language writes 0.975.
Z975 = {"en": "z₀.₉₇₅", "zh": "z₀.₉₇₅", "es": "z₀,₉₇₅", "tr": "z₀,₉₇₅"}

LANGS = tuple(LANGUAGES)
SEED = BY_NAME["seed_es"]
RICH = {"text/html", "text/markdown", "text/plain"}


@pytest.fixture(scope="module")
def seed() -> ExplainedWalkthrough:
    return walkthrough(SEED.actual, SEED.predicted)


def _formulas(markdown: str) -> list[str]:
    return re.findall(r"^\$\$\n(.*?)\n\$\$$", markdown, flags=re.MULTILINE | re.DOTALL)


class _Tags(HTMLParser):
    """Every start tag with its attributes, and whether the nesting closes properly."""

    VOID = {"mspace", "br", "img", "hr", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.open: list[str] = []
        self.balanced = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.balanced = False


def _parse(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser


# --- the public API ------------------------------------------------------------------------------


def test_the_public_api_returns_a_core_walkthrough_that_can_display_itself(seed):
    core = core_steps.walkthrough(SEED.actual, SEED.predicted)
    assert isinstance(seed, Walkthrough) and isinstance(seed, qwk_explained.Walkthrough)
    assert hasattr(seed, "_repr_mimebundle_") and not hasattr(core, "_repr_mimebundle_")
    assert seed.kappa == core.kappa and seed.labels.tolist() == core.labels.tolist()
    assert not seed.observed.flags.writeable
    table = walkthrough_from_table(core.observed)
    assert isinstance(table, ExplainedWalkthrough) and table.scale is None


def test_displaying_copies_nothing_and_keeps_the_callers_array_writeable():
    actual = np.array(SEED.actual, dtype=np.int64)
    result = walkthrough(actual, np.array(SEED.predicted, dtype=np.int64))
    assert np.shares_memory(result.actual, actual)
    assert actual.flags.writeable and not result.actual.flags.writeable


def test_the_top_levels_walkthrough_loads_no_presentation_layer():
    # The display code costs a notebook's first import nothing until something is shown (what
    # importing the package or a layer loads: tests/engine/test_lazy_imports.py).
    code = ("import sys, qwk_explained; qwk_explained.walkthrough; "
            "print(sorted(m for m in sys.modules if m.startswith("
            "('qwk_explained.present.', 'qwk_explained.cli', 'qwk_explained.teaching', "
            "'plotly', 'IPython', 'anywidget', 'latex2mathml'))))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    # The language record (and its plural rules) only: what the default language needs.
    assert loaded == "['qwk_explained.present.languages', 'qwk_explained.present.plurals']"


def test_statistics_are_still_the_core_statistics(seed):
    assert seed.statistics() == kappa_statistics(seed)
    assert kappa_statistics(seed, 0.9) == seed.statistics(0.9)
    assert seed.statistics(lang="es") == seed.statistics()
    assert hash(seed.statistics()) == hash(kappa_statistics(seed))


# --- the bundle ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_bundle_holds_text_markdown_and_html_but_json_only_on_request(seed, lang):
    explanation = seed.explain(lang)
    assert set(explanation._repr_mimebundle_()) == RICH
    assert set(explanation._repr_mimebundle_(include=["application/json"])) == {
        "application/json"}
    assert set(explanation._repr_mimebundle_(exclude=["text/html"])) == {"text/markdown",
                                                                          "text/plain"}
    assert json.loads(json.dumps(explanation.json)) == result_json(seed, seed.statistics())


def _sections(text: str) -> dict[str, str]:
    """Plain text cut at its blank lines, by each section's first line (its heading)."""
    return {part.splitlines()[0]: part for part in text.split("\n\n")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scale", ["range", "observed"])
def test_plain_text_writes_the_steps_as_the_command_line(lang, scale):
    """Steps 1 to 6 read exactly as the terminal prints them (same blocks, same renderer); step 7
    gives the interval in the verdict, where the terminal has a section on the statistics."""
    shown = walkthrough(SEED.actual, SEED.predicted, scale=scale)
    core = core_steps.walkthrough(SEED.actual, SEED.predicted, scale=scale)
    printed = _sections(render_text(core, core.statistics(), lang, scale))
    text = _sections(shown.explain(lang).text)
    for step in STEPS[:-1]:
        heading = step.heading(lang)
        # Wrapped to each one's width: compare words, not lines.
        assert text[heading].split() == printed[heading].split(), heading
    interval = t(lang, "interval.shown", se=format_number(shown.statistics().se, lang),
                 level=format_percent(0.95, lang),
                 low=format_number(shown.statistics().ci_low, lang),
                 high=format_number(shown.statistics().ci_high, lang))
    assert " ".join(interval.split()) in " ".join(text[STEPS[-1].heading(lang)].split())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scale", ["range", "observed"])
def test_the_header_writes_the_settings_in_their_in_sentence_form(lang, scale):
    """"Ponderación: cuadrática. Escala de calificaciones: rango completo.", as the terminal
    writes it: a value inside a sentence is never capitalised ("Ponderación: Cuadrática")."""
    result = walkthrough(SEED.actual, SEED.predicted, scale=scale)
    line = t(lang, "cli.settings_vectors",
             weighting=t(lang, "common.in_sentence.weights.quadratic"),
             scale=t(lang, f"common.in_sentence.scale.{scale}"))
    bundle = result.explain(lang)._repr_mimebundle_()
    assert line in bundle["text/markdown"]
    assert escape(line, quote=False) in bundle["text/html"]


def test_the_default_language_follows_the_environment_like_the_terminal(seed, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    assert seed.explain().lang == "tr"
    assert seed._repr_mimebundle_()["text/markdown"] == seed.explain("tr").markdown
    monkeypatch.setenv("LANG", "C")
    assert seed.explain().lang == "en"


@pytest.mark.parametrize("lang", LANGS)
def test_markdown_shows_every_step_of_the_catalogue_with_both_formulas(seed, lang):
    explanation = seed.explain(lang)
    markdown, cell = explanation.markdown, explanation.cell
    formulas = _formulas(markdown)
    position = 0
    for step in STEPS:
        heading = f"#### {step.heading(lang)}"
        assert heading in markdown
        assert markdown.index(heading) > position  # in the catalogue's order
        position = markdown.index(heading)
        assert t(lang, step.text_key) in markdown
        for block in step.blocks(seed, cell, lang):
            if isinstance(block, Formula) and block.role in ("generic", "result"):
                assert block.latex in formulas, (step.slug, block.latex)


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_are_written_as_the_language_writes_them(seed, lang):
    markdown = seed.explain(lang).markdown
    # The seed's num, den and kappa (published: 0.45, 0.395, -0.1392), in text and in LaTeX.
    for value in (0.45, 0.395, -0.1392):
        assert format_latex(value, lang) in markdown
    assert f"| {format_number(0.0625, lang)} |" in markdown  # a weight in the table of w
    if language(lang).decimal == ",":  # Spanish and Turkish
        assert "0{,}45" in markdown and "0.0625" not in markdown
    else:
        assert "0.45" in markdown and "0,0625" not in markdown


@pytest.mark.parametrize("lang", LANGS)
def test_html_says_what_the_markdown_says(seed, lang):
    explanation = seed.explain(lang)
    markdown, html = explanation.markdown, explanation.html
    assert html is not None
    parsed = _parse(html)
    assert parsed.balanced and not parsed.open
    tags = [tag for tag, _ in parsed.tags]
    assert tags.count("math") == len(_formulas(markdown))
    assert tags.count("table") == markdown.count("|:---|")
    assert tags.count("h4") == len(STEPS) and tags.count("h3") == 1
    assert f'lang="{lang}"' in html
    for step in STEPS:
        assert step.heading(lang) in html


@pytest.mark.parametrize("lang", LANGS)
def test_html_needs_no_javascript(seed, lang):
    for html in (seed.explain(lang).html, seed.statistics(lang=lang).html,
                 walkthrough([2] * 5, [2] * 5).explain(lang).html):
        assert html is not None
        lowered = html.lower()
        assert "<script" not in lowered and "javascript:" not in lowered
        for tag, attrs in _parse(html).tags:
            assert tag not in ("script", "style", "iframe", "object", "embed", "link"), tag
            for name, _ in attrs:
                assert not name.startswith("on"), (tag, name)
                assert name not in ("href", "src"), (tag, name)


@pytest.mark.parametrize("lang", LANGS)
def test_mathml_keeps_each_number_whole(seed, lang):
    html = seed.explain(lang).html
    assert html is not None
    assert f"<mn>{format_number(0.45, lang)}</mn>" in html
    # No number is split by its decimal mark into an operator (drawn as "0, 45").
    assert not re.search(r"</mn><mrow><mo>(&#x0002C;|&#x0002E;|,|\.)</mo></mrow><mn>", html)
    assert '<mo form="prefix">&#x02212;</mo><mn>' in html  # -0.1392: a sign, not a subtraction


@pytest.mark.parametrize("lang", LANGS)
def test_a_formula_over_several_lines_shows_no_alignment_mark(seed, lang):
    """The sums of step 6 are written over several lines for a phone (an aligned environment);
    in MathML they are one left-aligned column, never a stray "&" (the reviews saw one in the
    widget)."""
    html = seed.explain(lang, step="sums").html
    assert html is not None and "<mtable>" in html
    assert "<mi>&amp;</mi>" not in html and "<mi>&</mi>" not in html


def test_without_mathml_the_markdown_is_the_richest_output(seed, monkeypatch):
    monkeypatch.setattr(notebook_render, "mathml_available", lambda: False)
    bundle = seed.explain("es")._repr_mimebundle_()
    assert set(bundle) == {"text/markdown", "text/plain"}
    assert set(seed.statistics(lang="es")._repr_mimebundle_()) == {"text/markdown", "text/plain"}


def test_bold_in_a_locale_sentence_is_bold_in_both_markups(seed):
    explanation = seed.explain("en", step="kappa")
    band = t("en", "common.band.poor")
    assert f"**{band}**" in explanation.markdown
    assert f"<strong>{band}</strong>" in (explanation.html or "")


# --- one step, one cell, bad arguments -----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_one_step_shows_that_step_only(seed, lang):
    by_name, by_number = seed.explain(lang, step="expected"), seed.explain(lang, step=4)
    assert by_name.markdown == by_number.markdown
    assert by_name.markdown.startswith(f"#### {STEPS[3].heading(lang)}")
    assert sum(f"#### {s.heading(lang)}" in by_name.markdown for s in STEPS) == 1
    assert by_name.text.splitlines()[0] == STEPS[3].heading(lang)
    assert set(by_name._repr_mimebundle_()) == RICH


def test_the_cell_is_given_as_ratings_and_worked_out_in_every_formula():
    # Ratings 1..5 sit at positions 0..4: E for actual 5, predicted 2 is 5 * 4 / 10 = 2.
    result = walkthrough(BY_NAME["seed_en"].actual, BY_NAME["seed_en"].predicted)
    markdown = result.explain("en", step="expected", cell=(5, 2)).markdown
    assert r"E_{5,2} = \frac{h^{a}_{5} \, h^{p}_{2}}{n} = \frac{5 \cdot 4}{10} = 2" in markdown
    assert result.explain("en", cell=(5, 1)).cell == (4, 0)


def test_a_cell_written_as_text_is_the_same_cell():
    """L7: ``cell="4,0"`` was iterated character by character ("4 is not on the scale")."""
    result = walkthrough(BY_NAME["seed_en"].actual, BY_NAME["seed_en"].predicted)
    assert result.explain("en", step=4, cell="5,2").cell == result.explain(
        "en", step=4, cell=(5, 2)).cell == (4, 1)


@pytest.mark.parametrize("cell", [(4, 0, 1), (4,), "4", "a,b", 4, None, [[4, 0]], "40"])
def test_anything_but_two_ratings_is_not_a_cell(seed, cell):
    """L7: ``cell=(4, 0, 1)`` was accepted silently, its third number ignored."""
    if cell is None:  # None is the documented default: the first disagreement
        assert seed.explain("en", cell=cell).cell
        return
    with pytest.raises(NotebookError) as raised:
        seed.explain("en", cell=cell)
    assert raised.value.key in {"notebook.bad_cell", "notebook.not_on_scale"}
    assert_translated(raised.value)


@pytest.mark.parametrize("lang", LANGS)
def test_bad_arguments_raise_errors_the_locales_word(seed, lang):
    with pytest.raises(NotebookError) as unknown_step:
        seed.explain(lang, step="variance")
    assert unknown_step.value.key == "notebook.unknown_step"
    assert "variance" in message(lang, unknown_step.value)
    with pytest.raises(NotebookError) as not_on_scale:
        seed.explain(lang, cell=(7, 0))
    assert not_on_scale.value.key == "notebook.not_on_scale"
    assert "0, 1, 2, 3, 4" in message(lang, not_on_scale.value)
    with pytest.raises(InputError) as unknown_language:
        seed.explain("fr")
    assert unknown_language.value.code == "unknown_language"
    with pytest.raises(NotebookError):
        seed.figures(lang, step=8)


def test_every_notebook_error_code_is_translated():
    source = "\n".join(p.read_text("utf-8")
                       for p in (ROOT / "qwk_explained" / "notebook").glob("*.py"))
    codes = set(re.findall(r"NotebookError\(\s*\"([a-z_]+)\"", source))
    assert codes == {"unknown_step", "not_on_scale", "bad_cell"}
    for lang in LANGS:
        assert all(f"notebook.{code}" in load(lang) for code in codes)


# --- other results -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_and_an_undefined_kappa_are_explained_too(lang):
    table = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
    assert t(lang, "cli.input_table", n=format_number(19, lang), size=3,
             labels=format_list(["0", "1", "2"], lang)) in table.explain(lang).markdown
    constant = walkthrough([2] * 5, [2] * 5)
    markdown = constant.explain(lang).markdown
    assert t(lang, "undefined.single_category") in markdown
    assert t(lang, "cli.statistics_need_kappa") in constant.statistics(lang=lang).markdown


def test_a_large_scale_says_why_its_matrices_are_not_tables():
    ratings = np.arange(30)
    result = walkthrough(ratings, ratings[::-1])
    markdown = result.explain("en").markdown
    assert "30 by 30" in markdown
    # Only the histograms (one row per rating) and the list of fixes, which is no matrix.
    assert markdown.count("|:---|") == 2
    assert "| Rating | Actual | Predicted |" in markdown and "| 29 | 1 | 1 |" in markdown


# --- statistics ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_show_se_se0_z_p_and_the_interval_with_caveats(seed, lang):
    stats = seed.statistics(lang=lang)
    markdown = stats.markdown
    for value in (stats.se, stats.se0, stats.z, stats.p_value):
        assert f"| {format_number(value, lang)} |" in markdown
    assert t(lang, "checker.ws.interval", low=format_number(stats.ci_low, lang),
             high=format_number(stats.ci_high, lang)) in markdown
    # The app's own caveats: a large-sample standard error, and (n = 10, N = 5) a rough guide.
    assert t(lang, "interval.shown", se=format_number(stats.se, lang),
             level=format_percent(0.95, lang), low=format_number(stats.ci_low, lang),
             high=format_number(stats.ci_high, lang)) in markdown
    assert t(lang, "interval.small_sample", n=format_number(10, lang),
             used=format_number(5, lang), min_items=format_number(50, lang)) in markdown
    assert set(stats._repr_mimebundle_()) == RICH
    assert format_number(stats.se0, lang) in stats.text


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_caveats_follow_the_numbers(lang):
    # All 0 against all 4: SE = SE0 = 0, no z, and no "interval" of one point (teaching audit).
    point = walkthrough([0] * 10, [4] * 10).statistics(lang=lang).markdown
    assert t(lang, "cli.z_unavailable") in point
    assert t(lang, "checker.ws.interval_withheld") in point
    assert t(lang, "interval.withheld_constant_rater") in point
    # Near-perfect agreement with six items: kappa ± z·SE reaches past 1, the table is cut at 1.
    beyond = walkthrough([0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4, 3]).statistics(lang=lang)
    assert beyond.ci_high is not None and beyond.ci_high > 1
    assert t(lang, "checker.ws.interval", low=format_number(beyond.ci_low, lang),
             high=format_number(1, lang)) in beyond.markdown
    assert t(lang, "interval.clipped", z=Z975[lang], low=format_number(beyond.ci_low, lang),
             high=format_number(beyond.ci_high, lang)) in beyond.markdown
    # A thousand items in perfect agreement but one: p is written as a bound, not as 0.
    ratings = np.tile(np.arange(5), 200)
    tiny_p = walkthrough(ratings, np.where(np.arange(1000) == 0, 4, ratings)).statistics(
        lang=lang).markdown
    assert f"| < {format_number(0.0001, lang)} |" in tiny_p


# --- figures -------------------------------------------------------------------------------------


def test_figures_are_the_apps_figures_in_the_chosen_language(seed, monkeypatch):
    figures = seed.figures("es")
    assert list(figures) == list(FIGURE_NAMES)
    assert figures["observed"].layout.title.text == t("es", "steps.observed_chart")
    assert figures["observed"].layout.separators == ",."
    assert list(seed.figures("es", step="normalization")) == ["observed_norm", "expected_norm"]
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    seed.figures("en", step="sums")._ipython_display_()
    assert [figure.layout.title.text for figure in shown] == [
        t("en", "steps.weighted_observed_chart"), t("en", "steps.weighted_expected_chart")]
