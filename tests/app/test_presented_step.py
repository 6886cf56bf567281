"""Presenter mode lays each step out for one projected screen, and loses none of it.

Source of truth: the step catalogue (``Step.blocks``, the one written form of every step): each
of its blocks lands in exactly one part of the presented layout, in its order; what is folded is
on the page under "More on this step"; the page shows the step's formulas and kappa as the
catalogue writes them.
"""

from __future__ import annotations

import pytest

from qwk_app.render import presenter_parts
from qwk_explained import walkthrough
from qwk_explained.present.blocks import Chart, Formula, Heading, Metric, Text
from qwk_explained.present.catalogue import STEPS, step
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from tests.app.helpers import assert_clean, open_app

SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}
#: One rater gave one rating only: kappa is undefined (0/0), and the step says why.
CONSTANT = {"actual": "2,2,2,2", "predicted": "2,2,2,2"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ratings", [SEED, CONSTANT], ids=["seed", "undefined"])
def test_every_block_of_every_step_lands_in_one_part_in_order(lang, ratings):
    result = walkthrough(ratings["actual"], ratings["predicted"])
    stats = result.statistics()
    for shown in STEPS:
        blocks = shown.blocks(result, (0, 0), lang, stats)
        parts = presenter_parts(blocks)
        laid_out = [*parts.top, *parts.generic, *parts.plugged, *parts.charts, *parts.folded]
        assert sorted(map(id, laid_out)) == sorted(map(id, blocks))  # each once, none lost
        for part in (parts.top, parts.generic, parts.plugged, parts.charts, parts.folded):
            assert [b for b in blocks if any(b is p for p in part)] == part  # order kept
        # What comes after the step's charts (step 6: where kappa is lost) is folded whole.
        after = list(shown.after(result, (0, 0), lang, stats)) if shown.after else []
        body = blocks[:len(blocks) - len(after)]
        assert parts.folded[len(parts.folded) - len(after):] == after
        assert [type(b) for b in parts.top] == [Heading, Text]
        assert [b.name for b in parts.charts] == list(shown.figures)
        assert all(isinstance(b, Formula) and b.role == "generic" for b in parts.generic)
        assert parts.generic and [b for b in body if b.role == "generic"] == parts.generic
        assert [b for b in body if isinstance(b, Formula) and b.role == "result"] \
            == [b for b in parts.plugged if isinstance(b, Formula)]
        # Folded from the body: what qualifies the step, never a formula that works it out.
        assert not [b for b in parts.folded[:len(parts.folded) - len(after)]
                    if b.role in ("generic", "result")]
    kappa = presenter_parts(step("kappa").blocks(result, (0, 0), lang, stats))
    names = [getattr(b, "name", "") for b in kappa.plugged]
    assert any(isinstance(b, Metric) for b in kappa.plugged)
    assert ("undefined" in names) == (result.kappa is None)
    assert ("band" in names) == (result.kappa is not None)
    sums = presenter_parts(step("sums").blocks(result, (0, 0), lang, stats))
    assert [b.name for b in sums.folded if isinstance(b, Chart)] == \
        (["cost", "signed_cost"] if result.cost_map is not None else [])


def typeset(element) -> str:
    """The LaTeX an ``st.latex`` element holds (AppTest gives it inside ``$$`` lines)."""
    return str(element.value).removeprefix("$$\n").removesuffix("\n$$")


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_presenter_mode_shows_each_steps_formulas_and_folds_the_rest(lang):
    """User flow: a teacher walks the seven steps in presenter mode. Each shows its generic
    formulas and the same with the class's numbers (and kappa at step 7); what is folded sits
    under "More on this step" (step 5's identity, step 6's where kappa is lost)."""
    at = open_app(lang=lang, present="1", **SEED)
    result = walkthrough(SEED["actual"], SEED["predicted"])
    stats = result.statistics()
    cell = (0, 0)  # what is checked below (formulas in symbols, notes) is the same for any cell
    for number, shown in enumerate(STEPS, start=1):
        assert_clean(at)
        assert at.query_params["step"] == str(number)
        latex = [typeset(element) for element in at.latex]
        parts = presenter_parts(shown.blocks(result, cell, lang, stats))
        generic = [b.latex for b in parts.generic if isinstance(b, Formula)]
        assert generic and all(formula in latex for formula in generic), shown.slug
        more = [e for e in at.expander if e.label == t(lang, "presenter.more")]
        assert len(more) == (1 if parts.folded else 0), shown.slug
        if more:
            folded = [b.latex for b in parts.folded if isinstance(b, Formula) and b.role == "note"]
            inside = [typeset(element) for element in more[0].latex]
            assert all(formula in inside for formula in folded), shown.slug
        if shown.slug == "sums":
            titles = [element.value for element in more[0].markdown]
            assert f"#### {t(lang, 'losses.title')}" in titles
        if number < len(STEPS):
            at.button(key="present_next").click().run()
    assert_clean(at)
