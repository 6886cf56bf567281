"""One written form, the app's side: the walkthrough page shows exactly each step's blocks.

Source of truth: the step catalogue (``Step.blocks``), which the terminal, the notebooks and the
worksheets render too (``tests/present/test_one_written_form.py`` checks those). Here AppTest
opens the walkthrough as a shared link does, in every language, and every block of every step
must be on the page as its Streamlit element: headings, sentences (a caveat as a caption, why
kappa is undefined as a warning), formulas, kappa's number, the charts. The architecture
review's example (ratings 1, 3, 5, 5 against 1, 5, 3, 5 on the observed scale) must say that
the weights use positions, as the terminal always did.
"""

from __future__ import annotations

from html import escape

import pytest

from qwk_explained import walkthrough
from qwk_explained.present.blocks import Chart, Formula, Heading, Metric, Table, Text
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.cells import label_positions
from tests.app.helpers import assert_clean, chart_html, open_app

CASES = {
    "seed": ({"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}, "4,0"),
    "gaps": ({"actual": "1,3,5,5", "predicted": "1,5,3,5", "scale": "observed"}, "3,5"),
    "undefined": ({"actual": "3,3,3", "predicted": "3,3,3", "min": "1", "max": "5"}, "3,3"),
}


def _shown(at):
    """What the page shows, by kind of element."""
    return {
        "heading": {h.value for h in at.subheader},
        "markdown": {m.value for m in at.markdown},
        "caption": {c.value for c in at.caption},
        "warning": {element.value for element in at.warning},
        "latex": {f.value.strip("$\n") for f in at.latex},  # st.latex wraps its source in $$
        "metric": {(m.label, m.value) for m in at.metric},
    }


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", list(CASES))
def test_the_walkthrough_page_shows_every_block_of_every_step(lang, case):
    params, cell_text = CASES[case]
    at = open_app(lang=lang, cell=cell_text, **params)
    assert_clean(at)
    result = walkthrough(params["actual"], params["predicted"],
                         scale=params.get("scale", "range"),
                         min_rating=int(params["min"]) if "min" in params else None,
                         max_rating=int(params["max"]) if "max" in params else None)
    ratings = tuple(int(x) for x in cell_text.split(","))
    cell = label_positions(result.labels, (ratings[0], ratings[1]))
    assert cell is not None
    shown = _shown(at)
    missing = []
    for step in STEPS:
        for block in step.blocks(result, cell, lang, result.statistics()):
            if isinstance(block, Heading):  # a heading within a step is bold (render._heading)
                found = (block.text in shown["heading"] if block.level <= 2
                         else f"**{block.text}**" in shown["markdown"])
            elif isinstance(block, Metric):
                found = (block.label, block.value) in shown["metric"]
            elif isinstance(block, Text):
                found = block.text in (shown["warning"] if block.name == "undefined"
                                       else shown["markdown"] | shown["caption"])
            elif isinstance(block, Formula):
                found = block.latex in shown["latex"]
            elif isinstance(block, Table):  # the list of fixes, drawn as linked rows
                html = chart_html(at, block.name)
                found = all(escape(label) in html for label, _ in block.rows)
            else:
                assert isinstance(block, Chart)
                found = bool(chart_html(at, block.name))
            if not found:
                missing.append((step.slug, block))
    assert missing == []
    if case == "gaps":
        assert t(lang, "steps.weights_positions") in shown["markdown"]
