"""Writes the four walkthrough notebooks from one template: ``python notebooks/build.py``.

One notebook per language, each walking through the worked example of the document that
language's version grew from (:data:`qwk_explained.present.sources.SOURCES`; the data is
:mod:`qwk_explained.teaching.examples`'). Every notebook has the same cells and the same code but
for that data and the language code; every sentence comes from the locales (``notebooks.*``,
``notebooks.source.<source>.*`` for what each reference itself says), so the glossary, plural and
spacing tests read it; and every claim about the example is rendered from the numbers the library
computes (which cell weighs most, how many items agree, what chance would give, what kappa
becomes after a change), never typed by hand. What each reference printed (the values the
notebook's ``assert`` cells check) is the only data typed here, and the build fails when the
library disagrees with it.

``python notebooks/build.py --check`` exits with status 1 when a committed notebook differs from
what this script writes (``tests/notebook/test_notebooks_built.py`` runs the same comparison).
The notebooks are committed without outputs; ``tests/notebook/test_notebooks_run.py`` runs them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: this checkout's package
    sys.path.insert(0, str(ROOT))

from qwk_explained import walkthrough  # noqa: E402
from qwk_explained.core.steps import Walkthrough  # noqa: E402
from qwk_explained.present import formula_text, formulas  # noqa: E402
from qwk_explained.present.catalogue import STEPS, StepSlug, step  # noqa: E402
from qwk_explained.present.i18n import t  # noqa: E402
from qwk_explained.present.inference import band_name  # noqa: E402
from qwk_explained.present.languages import LANGUAGES  # noqa: E402
from qwk_explained.present.numbers import (  # noqa: E402
    format_label,
    format_list,
    format_number,
    format_percent,
)
from qwk_explained.present.sources import SOURCES  # noqa: E402
from qwk_explained.teaching import cells  # noqa: E402
from qwk_explained.teaching.conventions import seed_quadratic_kappa  # noqa: E402
from qwk_explained.teaching.examples import BY_NAME  # noqa: E402
from qwk_explained.teaching.interpret import shown_interval  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
INSTALL = 'pip install "qwk-explained[notebook]"'
#: The examples of the two pitfalls, the same in every notebook (``teaching.examples``).
OPPOSITE_ENDS = BY_NAME["all_zero_all_four"]
SWAPPED = BY_NAME["full_disagreement"]
GAP = BY_NAME["unused_rating"]


@dataclass(frozen=True)
class Reference:
    """What one language's notebook walks through, and what its reference document printed.

    Cells are rating labels (actual, predicted). ``checks`` are the reference's own numbers for
    those cells (the notebook asserts them); ``printed`` is the kappa it printed (``None`` when
    it printed none: the notebook then asserts the library's value to 4 decimals); ``code`` is
    the reference's own code for a step, quoted as code.
    """

    source: str
    observed: tuple[tuple[int, int], int]
    weights: tuple[tuple[int, int], float]
    histograms: tuple[tuple[int, ...], tuple[int, ...]]
    expected: tuple[tuple[int, int], float]
    printed: float | None
    kappa_code: str
    code: dict[StepSlug, str]

    @property
    def example(self) -> Any:
        found = next(source for source in SOURCES if source.code == self.source)
        return BY_NAME[str(found.example)]

    @property
    def title(self) -> str:
        return str(next(source for source in SOURCES if source.code == self.source).title or "")


REFERENCES: dict[str, Reference] = {
    "en": Reference("panda_en", ((5, 1), 4), ((2, 4), 0.25), ((0, 3, 1, 1, 5), (4, 4, 2, 0, 0)),
                    ((2, 2), 1.2), -0.13924050632911378,
                    'cohen_kappa_score(actual, pred, weights="quadratic")',
                    {"observed": "confusion_matrix(actual, pred)"}),
    "es": Reference("petfinder_es", ((4, 0), 4), ((4, 0), 1.0), ((0, 3, 1, 1, 5), (4, 4, 2, 0, 0)),
                    ((4, 0), 2.0), -0.1392, "quadratic_kappa(actuals, preds, N=5)",
                    {"observed": "confusion_matrix(actuals, preds)",
                     "weights": "w[i][j] = (i - j)**2 / 16",
                     "normalization": "E = E / E.sum()  O = O / O.sum()"}),
    "zh": Reference("blog_zh", ((0, 2), 1), ((0, 2), 0.16),
                    ((2, 2, 4, 6, 4, 2), (2, 1, 6, 5, 4, 2)), ((3, 3), 1.5), None,
                    "1.0 - numerator / denominator",
                    {"observed": "conf_mat = confusion_matrix(rater_a, rater_b, min_rating, "
                                 "max_rating)",
                     "weights": "d = pow(i - j, 2.0) / pow(num_ratings - 1, 2.0)",
                     "histograms": "hist_rater_a = histogram(rater_a, min_rating, max_rating)",
                     "expected": "expected_count = hist_rater_a[i] * hist_rater_b[j] / "
                                 "num_scored_items",
                     "sums": "numerator += d * conf_mat[i][j] / num_scored_items"}),
    "tr": Reference("notebook_tr", ((4, 3), 1), ((4, 3), 0.0625),
                    ((2, 2, 3, 2, 3), (2, 1, 4, 3, 2)), ((4, 3), 0.75), 0.9538461538461538,
                    "cohen_kappa_score(y_true, y_pred, weights='quadratic')", {}),
}
#: A kappa the reference printed is checked to as many decimals as it printed, at most this many
#: (floats summed in another order differ in the 16th digit); one it did not print, to 4.
MAX_PLACES = 10


# --- text ----------------------------------------------------------------------------------------

_SUBSCRIPT = str.maketrans("0123456789-", "₀₁₂₃₄₅₆₇₈₉₋")


def symbol(name: str, cell: tuple[int, int]) -> str:
    """``O₄,₀``: a cell of a matrix as prose writes it, subscripts the rating labels."""
    return f"{name}{str(cell[0]).translate(_SUBSCRIPT)},{str(cell[1]).translate(_SUBSCRIPT)}"


def code(text: str) -> str:
    return f"`{text}`"


def decimals(value: float) -> int:
    return len(repr(value).split(".")[1]) if "." in repr(value) else 0


def printed(say: Writer, value: float | None) -> str:
    """A value as the reference printed it, to all its decimals, written as the language writes
    numbers (``""`` when it printed none)."""
    return "" if value is None else format_number(value, say.lang, decimals(value))


class Writer:
    """The sentences of one notebook: the locales' ``notebooks.*`` keys in one language."""

    def __init__(self, lang: str, reference: Reference) -> None:
        self.lang, self.reference = lang, reference

    def __call__(self, key: str, **params: Any) -> str:
        return t(self.lang, f"notebooks.{key}", **params)

    def source(self, key: str, **params: Any) -> str:
        return self(f"source.{self.reference.source}.{key}", **params)

    def num(self, value: float) -> str:
        return format_number(value, self.lang)

    def label(self, value: int) -> str:
        return format_label(value, self.lang)


def _position(result: Walkthrough, cell: tuple[int, int]) -> tuple[int, int]:
    found = cells.label_positions(result.labels, cell)
    if found is None:
        raise ValueError(f"{cell} is not on the scale {result.labels.tolist()}")
    return found


def _check(condition: bool, claim: str) -> None:
    """A fact the reference's data must have for a sentence to be true (the build stops)."""
    if not condition:
        raise ValueError(f"the example does not bear out: {claim}")


# --- the cells -----------------------------------------------------------------------------------

Cell = tuple[str, str]  # ("markdown" | "code", source)


def _heading_cell(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    ref = say.reference
    low, high = say.label(int(result.labels[0])), say.label(int(result.labels[-1]))
    title = say.source("title", count=result.n, levels=result.size)
    intro = say.source("intro", count=result.n, low=low, high=high, title=ref.title,
                     scorer=code(ref.kappa_code), printed=printed(say, ref.printed))
    yield "markdown", "\n\n".join([f"# {title}", intro, say("plan"),
                                   say("install", command=code(INSTALL))])
    yield "code", "\n".join([
        "from qwk_explained import walkthrough",
        "from qwk_explained.notebook import explore",
        "",
        f"actual = {list(ref.example.actual)}  # {t(say.lang, 'common.actual_ratings')}",
        f"predicted = {list(ref.example.predicted)}  # {t(say.lang, 'common.predicted_ratings')}",
        "result = walkthrough(actual, predicted)",
        f"result.labels  # {say('code_scale')}",
    ])


def _step_markdown(say: Writer, slug: StepSlug, paragraphs: list[str]) -> Cell:
    quoted = say.reference.code.get(slug)
    if quoted is not None:
        paragraphs.append(say("reference_code", code=code(quoted)))
    return "markdown", "\n\n".join([f"## {step(slug).heading(say.lang)}", *paragraphs])


def _explain(say: Writer, slug: StepSlug, cell: tuple[int, int] | None = None,
             name: str = "result") -> str:
    where = "" if cell is None else f", cell=({cell[0]}, {cell[1]})"
    return f'{name}.explain("{say.lang}", step="{slug}"{where})'


def _observed(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    (actual, predicted), count = say.reference.observed
    i, j = _position(result, (actual, predicted))
    weighted = result.weighted_observed
    largest = weighted.max()
    _check(weighted[i, j] == largest, f"{symbol('O', (actual, predicted))} weighs most in num")
    ties = int(np.sum(np.isclose(weighted, largest)))
    key = "observed_largest" if ties == 1 else "observed_one_of_largest"
    yield _step_markdown(say, "observed", [
        say("observed_text", count=result.n, agree=say.num(int(np.trace(result.observed)))),
        say(key, count=int(result.observed[i, j]), cell=symbol("O", (actual, predicted)),
          actual=say.label(actual), predicted=say.label(predicted), distance=say.num(abs(i - j))),
    ])
    yield "code", _explain(say, "observed", (actual, predicted))
    yield "code", f"assert result.observed[{i}, {j}] == {count}"


def _weights(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    (actual, predicted), value = say.reference.weights
    _check(result.size >= 3, "a scale of three levels or more (a miss by two levels)")
    square = (result.size - 1) ** 2
    yield _step_markdown(say, "weights", [
        say("weights_text", square=say.num(square), one=say.num(1 / square),
            two=say.num(4 / square))])
    yield "code", _explain(say, "weights", (actual, predicted))
    i, j = _position(result, (actual, predicted))
    yield "code", f"assert result.weights[{i}, {j}] == {value!r}"


def _listed(say: Writer, values: Any) -> str:
    return format_list([say.num(int(v)) for v in values], say.lang)


def _histograms(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    actual, predicted = say.reference.histograms
    yield _step_markdown(say, "histograms", [
        say("histograms_text", labels=_listed(say, result.labels), actual=code(str(list(actual))),
          predicted=code(str(list(predicted))))])
    yield "code", _explain(say, "histograms")
    yield "code", "\n".join([f"assert result.actual_hist.tolist() == {list(actual)}",
                             f"assert result.predicted_hist.tolist() == {list(predicted)}",
                             f'result.figures("{say.lang}", step="histograms")'])


def _expected(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    (actual, predicted), value = say.reference.expected
    i, j = _position(result, (actual, predicted))
    yield _step_markdown(say, "expected", [
        say("expected_text", n=say.num(result.n)),
        say("expected_cell", actual=say.label(actual), predicted=say.label(predicted),
          h_a=say.num(int(result.actual_hist[i])), h_p=say.num(int(result.predicted_hist[j])),
          h_a_cell=f"hᵃ{str(actual).translate(_SUBSCRIPT)}",
          h_p_cell=f"hᵖ{str(predicted).translate(_SUBSCRIPT)}",
          n=say.num(result.n), e_cell=symbol("E", (actual, predicted)),
          expected=say.num(float(result.expected[i, j])), o_cell=symbol("O", (actual, predicted)),
          observed=say.num(int(result.observed[i, j])))])
    yield "code", _explain(say, "expected", (actual, predicted))
    yield "code", f"assert round(result.expected[{i}, {j}], 10) == {value!r}"


def _normalization(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    yield _step_markdown(say, "normalization", [say("normalization_text", n=say.num(result.n))])
    yield "code", _explain(say, "normalization", say.reference.observed[0])


def _sums(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    cell = say.reference.observed[0]
    i, j = _position(result, cell)
    share = float(result.weighted_observed[i, j] / result.numerator)
    yield _step_markdown(say, "sums", [
        say("sums_text", num=say.num(result.numerator), den=say.num(result.denominator),
          cell=symbol("O", cell), share=format_percent(share, say.lang),
          weight=say.num(float(result.weights[i, j])),
          proportion=say.num(float(result.observed_norm[i, j])),
          product=say.num(float(result.weighted_observed[i, j])))])
    yield "code", _explain(say, "sums")


def _kappa(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    ref = say.reference
    kappa = result.kappa
    if kappa is None:
        raise ValueError("the reference's kappa is undefined")
    places = 4 if ref.printed is None else min(decimals(ref.printed), MAX_PLACES)
    if ref.printed is not None:
        _check(round(kappa, places) == round(ref.printed, places),
               f"kappa is the reference's {ref.printed}")
    num, den = say.num(result.numerator), say.num(result.denominator)
    hits, chance = int(np.trace(result.observed)), float(np.trace(result.expected))
    # The formula as the terminal writes it: the same LaTeX as the step, read as text.
    paragraphs = [formula_text.text(formulas.kappa_plugged(result, say.lang))]
    if kappa < 0:
        paragraphs.append(say("kappa_negative", num=num, den=den))
    else:
        paragraphs.append(say("kappa_positive", num=num, den=den,
                            share=format_percent(result.numerator / result.denominator,
                                                 say.lang)))
    paragraphs.append(say("hits", count=result.n, hits=say.num(hits), chance=say.num(chance)))
    if kappa < 0 and hits > chance:
        paragraphs.append(say("far_misses"))
    paragraphs.append(say.source("kappa", printed=printed(say, ref.printed), kappa=say.num(kappa),
                               scorer=code(ref.kappa_code), band=band_name(say.lang, result) or ""))
    yield _step_markdown(say, "kappa", paragraphs)
    yield "code", _explain(say, "kappa")
    checked = ref.printed if ref.printed is not None else round(kappa, places)
    yield "code", "\n".join([
        f"assert round(result.kappa, {places}) == round({checked!r}, {places})",
        f'result.statistics(lang="{say.lang}")'])


def _interval(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    stats = result.statistics()
    shown = shown_interval(result, stats)
    _check(shown is not None and shown.withheld is None and stats.ci_high is not None
           and stats.ci_low is not None, "an interval is shown")
    assert shown is not None and stats.ci_low is not None and stats.ci_high is not None
    if shown.clipped:
        _check(stats.ci_high > 1, "only the upper end is cut")
        text = say("interval_clipped", count=result.n, high=say.num(stats.ci_high))
    else:
        text = say("interval_wide", count=result.n, low=say.num(stats.ci_low),
                 high=say.num(stats.ci_high))
    yield "markdown", "\n\n".join([text, say("linear", code=code('weights="linear"'))])
    yield "code", 'round(walkthrough(actual, predicted, weights="linear").kappa, 4)'


def _pitfalls(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    ref = say.reference
    arora = next(source.title for source in SOURCES if source.code == "petfinder_es")
    ends = walkthrough(OPPOSITE_ENDS.actual, OPPOSITE_ENDS.predicted)
    _check(ends.kappa == 0 and ends.numerator == ends.denominator, "all 0 against all 4: κ = 0")
    yield "markdown", "\n\n".join([
        f"## {say('pitfalls_heading')}", f"### {say('claim_heading')}",
        say.source("claim", arora=arora), say("claim_value", kappa=say.num(0))])
    yield "code", "\n".join([
        f"opposite_ends = walkthrough({list(OPPOSITE_ENDS.actual)[:1]} * {ends.n}, "
        f"{list(OPPOSITE_ENDS.predicted)[:1]} * {ends.n})",
        "opposite_ends.kappa"])
    yield "markdown", say("constant_text", n=say.num(ends.n), num=say.num(ends.numerator),
                        den=say.num(ends.denominator), kappa=say.num(0))
    yield "code", _explain(say, "expected", (0, 4), "opposite_ends")
    swapped = walkthrough(SWAPPED.actual, SWAPPED.predicted)
    _check(swapped.kappa == -1 and np.isclose(swapped.numerator, 2 * swapped.denominator),
           "the swapped halves give κ = −1, num = 2 × den")
    yield "markdown", say("minus_one_text")
    yield "code", "\n".join([
        f"swapped = walkthrough({list(SWAPPED.actual)}, {list(SWAPPED.predicted)})",
        "swapped.numerator, swapped.denominator, swapped.kappa"])
    # 2. a confusion matrix without labels=
    full = walkthrough(GAP.actual, GAP.predicted)
    seen = walkthrough(GAP.actual, GAP.predicted, scale="observed")
    missing = sorted(set(full.labels.tolist()) - set(seen.labels.tolist()))
    _check(len(missing) == 1 and full.kappa is not None and seen.kappa is not None
           and full.kappa != seen.kappa, "one level in the middle is unused and kappa changes")
    assert full.kappa is not None and seen.kappa is not None
    low, high = int(result.labels[0]), int(result.labels[-1])
    _check(bool(np.all(result.actual_hist + result.predicted_hist > 0)),
           "every level of the reference's example occurs")
    run = seed_quadratic_kappa(OPPOSITE_ENDS.actual, OPPOSITE_ENDS.predicted)
    _check(run.raises == "IndexError", "the seed code stops on all 0 against all 4")
    yield "markdown", "\n\n".join([
        f"### {say('labels_heading', code=code('labels='))}",
        say("labels_text", function=code("confusion_matrix")),
        say.source("labels", function=code("confusion_matrix"), scorer=code(ref.kappa_code),
                 call=code(ref.code.get("observed", "confusion_matrix(actual, predicted)")),
                 size=say.num(run.params["size"]), low=say.label(low), high=say.label(high)),
        say("labels_example", missing=say.label(missing[0]), observed=code('scale="observed"'))])
    yield "code", "\n".join([
        f"a = {list(GAP.actual)}",
        f"b = {list(GAP.predicted)}",
        f"full = walkthrough(a, b)  # {say('code_full')}",
        f'seen = walkthrough(a, b, scale="observed")  # {say("code_seen")}',
        "full.labels, seen.labels, round(full.kappa, 4), round(seen.kappa, 4)"])
    labels = ", ".join(str(int(v)) for v in result.labels)
    yield "markdown", "\n\n".join([
        say("labels_result", full=say.num(round(full.kappa, 4)),
            seen=say.num(round(seen.kappa, 4))),
        say("seed_code", function=code("quadratic_kappa(actuals, preds, N=5)"),
            size=say.num(run.params["size"]), top=say.num(run.params["size"] - 1),
            rows=say.num(run.params["rows"]),
          error=code(str(run.raises)))])
    yield "code", "\n".join([
        "from qwk_explained.teaching.conventions import seed_quadratic_kappa",
        "",
        f"run = seed_quadratic_kappa({list(OPPOSITE_ENDS.actual)[:1]} * {ends.n}, "
        f"{list(OPPOSITE_ENDS.predicted)[:1]} * {ends.n})",
        'run.raises, run.params["rows"], run.params["size"]'])
    yield "markdown", say("fixes",
                        confusion=code(f"confusion_matrix(actual, predicted, labels=[{labels}])"),
                        ends=code(f"min_rating={low}, max_rating={high}"))


def _try_it(say: Writer, result: Walkthrough) -> Iterator[Cell]:
    i, j = _position(result, say.reference.observed[0])
    item = int(cells.items_in_cell(result, i, j)[0])
    actual = int(result.labels[i])
    change = cells.what_if(result, item - 1, actual)
    _check(change.before.kappa is not None and change.after.kappa is not None
           and change.after.kappa > change.before.kappa, "the suggested change raises kappa")
    assert change.before.kappa is not None and change.after.kappa is not None
    yield "markdown", "\n\n".join([
        f"## {say('try_heading')}",
        say("try_text", item=say.num(item), actual=say.label(actual),
          predicted=say.label(int(result.labels[j])), before=say.num(change.before.kappa),
          after=say.num(change.after.kappa))])
    yield "code", f'explore(actual, predicted, lang="{say.lang}")'


def cells_of(lang: str) -> list[Cell]:
    """Every cell of the notebook in ``lang``, in order."""
    reference = REFERENCES[lang]
    example = reference.example
    result = walkthrough(example.actual, example.predicted)
    writer = Writer(lang, reference)
    parts = (_heading_cell, _observed, _weights, _histograms, _expected, _normalization, _sums,
             _kappa, _interval, _pitfalls, _try_it)
    assert len(STEPS) == 7  # one part per step of the catalogue, between the heading and the rest
    return [cell for part in parts for cell in part(writer, result)]


def notebook(lang: str) -> str:
    """The notebook in ``lang`` as its committed file: nbformat 4.5, no outputs."""
    book = nbformat.v4.new_notebook()
    book.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"},
                     "language_info": {"name": "python"}}
    for number, (kind, source) in enumerate(cells_of(lang)):
        make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
        book.cells.append(make(source, id=f"{lang}-{number:02d}"))
    return nbformat.writes(book) + "\n"


def path(lang: str) -> Path:
    return NOTEBOOKS / f"qwk_{lang}.ipynb"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for lang in LANGUAGES:
        text = notebook(lang)
        if check:
            if not path(lang).is_file() or path(lang).read_text(encoding="utf-8") != text:
                stale.append(path(lang).name)
        else:
            path(lang).write_text(text, encoding="utf-8")
    if stale:
        print("Out of date (run python notebooks/build.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
