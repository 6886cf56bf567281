"""The step catalogue (``qwk_explained.present.catalogue.STEPS``) and the surfaces that iterate it.

Sources of truth: the walkthrough as the seed documents teach it, seven steps in this order (the
observed matrix O, the weights w, the two histograms, the expected matrix E, the normalization by
n, the weighted sums num and den, kappa = 1 - num / den), written out below independently of the
catalogue; the locale files of every language in the language record; and what each surface
really produces (the CLI's printed text, the worksheet's outline), not only its tables.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_explained import cli, walkthrough
from qwk_explained.present import worksheet
from qwk_explained.present.blocks import Chart, Heading
from qwk_explained.present.catalogue import (
    BY_SLUG,
    FIGURE_NAMES,
    FIGURES,
    SLUGS,
    STEP_OF,
    STEPS,
    figure_values,
)
from qwk_explained.present.i18n import load, t
from qwk_explained.present.languages import LANGUAGES

#: The seven steps, numbered 1 to 7 in this order.
EXPECTED_SLUGS = ("observed", "weights", "histograms", "expected", "normalization", "sums",
                  "kappa")
#: The Spanish seed's worked example.
ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"


def headings(lang: str) -> list[str]:
    return [step.heading(lang) for step in STEPS]


def test_seven_steps_numbered_1_to_7_in_the_taught_order():
    assert [step.number for step in STEPS] == [1, 2, 3, 4, 5, 6, 7]
    assert tuple(step.slug for step in STEPS) == EXPECTED_SLUGS
    assert SLUGS == EXPECTED_SLUGS  # the StepSlug type lists the same slugs
    assert {slug: step.number for slug, step in BY_SLUG.items()} == {
        slug: number for number, slug in enumerate(EXPECTED_SLUGS, start=1)}


def test_every_quantity_belongs_to_the_step_that_computes_it():
    """What the checker names as "the first wrong step" for each quantity a learner computes."""
    assert {quantity: step.slug for quantity, step in STEP_OF.items()} == {
        "observed": "observed", "weights": "weights", "actual_hist": "histograms",
        "predicted_hist": "histograms", "expected": "expected", "observed_norm": "normalization",
        "expected_norm": "normalization", "numerator": "sums", "denominator": "sums",
        "kappa": "kappa"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_has_its_title_and_text_in_every_language(lang):
    """Read from the language's own file (``t`` would fall back to English and hide a gap)."""
    strings = load(lang)
    for step in STEPS:
        for key in (step.title_key, step.text_key):
            assert strings.get(key, "").strip(), f"{lang}: {key} is missing or empty"
    # Each heading names its own step: seven different headings, each with its title.
    assert len(set(headings(lang))) == len(STEPS)
    for step, heading in zip(STEPS, headings(lang), strict=True):
        assert strings[step.title_key] in heading


def test_every_chart_is_drawn_once_by_the_step_that_computes_it():
    """All ten charts, once each, in the order of the steps (step 6 ends with the two cost maps,
    where kappa is lost); each matrix chart draws one of its step's quantities (the weighted
    matrices add up to num and den), and its values are the result's matrix of that name or
    its cost map."""
    result = walkthrough(ACTUAL, PREDICTED)
    drawn = [block.name for step in STEPS for block in step.blocks(result, (4, 0), "en")
             if isinstance(block, Chart)]
    assert drawn == list(FIGURE_NAMES)
    assert drawn[-2:] == ["cost", "signed_cost"]
    assert tuple(FIGURES) == FIGURE_NAMES
    for step in STEPS:
        for name in step.figures:
            figure = FIGURES[name]
            assert figure.quantity is None or figure.quantity in step.quantities, name
            if name != "histograms":
                assert getattr(result, name).shape == (result.size, result.size)
    assert figure_values(result, "cost") is result.cost_map.cost
    assert figure_values(result, "signed_cost") is result.cost_map.signed
    assert np.isnan(figure_values(walkthrough([2, 2], [2, 2]), "cost")).all()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_worksheet_headings_are_the_seven_step_headings_in_order(lang):
    """Between the data and the statistics, the outline's headings are exactly the steps'."""
    outline = worksheet.outline(walkthrough(ACTUAL, PREDICTED), lang)
    shown = [block.text for block in outline if isinstance(block, Heading) and block.level == 2]
    assert shown == [t(lang, "checker.ws.data_heading"), *headings(lang),
                     t(lang, "checker.ws.stats_heading"), t(lang, "uncertainty.title")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cli_text_sections_are_the_seven_steps_in_order(lang, capsys):
    """The CLI's text output: after its header, each section starts after a blank line with its
    heading; the sections are exactly the seven steps in order, then the statistics and how
    sure one can be, as in the worksheet."""
    status = cli.main(["--actual", ACTUAL, "--predicted", PREDICTED, "--lang", lang])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    sections = [lines[k + 1] for k, line in enumerate(lines[:-1]) if not line.strip()]
    assert sections == [*headings(lang), t(lang, "checker.ws.stats_heading"),
                        t(lang, "uncertainty.title")]
