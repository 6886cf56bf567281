"""The walkthrough's additions of issue 21, in every language: where kappa is lost (step 6's cost
maps, the costliest cells with their items, the list of fixes whose rows follow their cells) and
how sure one can be (the bootstrap, the test against the learner's kappa0 carried by the link,
SE versus SE0 on the learner's numbers, why two intervals disagree).

Sources of truth: the engine (``cost_map``, ``influence``, ``statistics``, ``kappa_test``,
``bootstrap``) and the worked example of issue 21 on the seed (the 4 items rated 4 and predicted
0, numbers 1, 4, 5, 6, cost 1.0127 of the 1 − kappa = 1.1392), written by ``present.numbers``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from qwk_app import widgets
from qwk_explained import walkthrough
from qwk_explained.core.errors import InputError
from qwk_explained.core.resampling import exact_permutation_test
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number, format_p_value
from tests.app.helpers import assert_clean, chart_html, open_app

SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}


def page_text(at) -> str:
    """Everything the page wrote as text (markdown and captions)."""
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def seed():
    return walkthrough(SEED["actual"], SEED["predicted"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_six_shows_where_kappa_is_lost(lang: str) -> None:
    at = open_app("walkthrough", lang=lang, **SEED)
    assert_clean(at)
    result = seed()
    costs = result.cost_map
    assert costs is not None
    # Issue 21's example: the cells add up to 1 - kappa, four items (4, 0) cost 1.0127 of it.
    assert costs.cost.sum() == pytest.approx(1 - result.kappa)
    assert round(float(costs.cost[4, 0]), 4) == 1.0127
    text = page_text(at)
    assert format_number(float(costs.cost[4, 0]), lang) in text
    assert format_number(1 - result.kappa, lang) in text
    assert re.search(r"1\D{1,3}4\D{1,3}5\D{1,3}6", text), "the costly cell's items, by number"
    for chart in ("cost", "signed_cost"):
        html = chart_html(at, chart)
        assert 'data-cell="4,0"' in html, chart
    assert t(lang, "steps.axis_predicted") in chart_html(at, "cost")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fixes_list_ranks_cells_and_a_row_follows_its_cell(lang: str) -> None:
    at = open_app("walkthrough", lang=lang, **SEED)
    result = seed()
    html = chart_html(at, "fixes")
    rows = re.findall(r'data-cell="(\d+),(\d+)"', html)
    assert rows, "the list of fixes has rows"
    first = tuple(int(x) for x in rows[0])
    # The first row is the cell whose one-level fix raises kappa most (brute force here).
    influence = result.influence
    gains = {(i, j): influence.moved[i, j] - result.kappa
             for i in range(result.size) for j in range(result.size)
             if i != j and result.observed[i, j] > 0}
    assert gains[first] == pytest.approx(max(gains.values()))
    actual, predicted = np.array(SEED["actual"].split(","), int), np.array(
        SEED["predicted"].split(","), int)
    i, j = first
    item = int(np.flatnonzero((actual == result.labels[i]) & (predicted == result.labels[j]))[0])
    predicted[item] += 1 if result.labels[i] > result.labels[j] else -1
    assert walkthrough(actual, predicted).kappa == pytest.approx(influence.moved[i, j])
    session: dict = {}
    widgets.follow_only(result, session=session)(f"{i},{j}")
    assert session["cell"] == (int(result.labels[i]), int(result.labels[j]))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_kappa0_is_the_learners_and_the_link_carries_it(lang: str) -> None:
    at = open_app("walkthrough", lang=lang, **SEED)
    result = seed()
    (field,) = at.number_input
    assert field.value == pytest.approx(0.6)
    field.set_value(0.2).run()
    assert_clean(at)
    assert at.query_params["kappa0"] == "0.2"
    test = result.kappa_test(0.2)
    stats = result.statistics()
    # kappa0 != 0: the test uses SE, not SE0 (under kappa = 0.2 the raters are not independent).
    assert not test.uses_se0 and test.se == pytest.approx(stats.se)
    assert test.z == pytest.approx((result.kappa - 0.2) / stats.se)
    text = page_text(at)
    assert format_number(test.z, lang) in text
    assert format_number(0.2, lang) in text
    # Another language keeps the learner's kappa0; a link with it opens it.
    other = next(code for code in LANGUAGES if code != lang)
    again = open_app("walkthrough", lang=other, kappa0="0.2", **SEED)
    assert again.number_input[0].value == pytest.approx(0.2)
    assert format_number(test.z, other) in page_text(again)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("bad", ["2", "abc", "nan"])
def test_a_bad_kappa0_in_a_link_is_refused_with_its_reason(lang: str, bad: str) -> None:
    at = open_app("walkthrough", lang=lang, kappa0=bad, **SEED)
    assert_clean(at)
    expected = message(lang, InputError("bad_kappa_null", value=bad))
    assert any(expected in e.value for e in at.error), [e.value for e in at.error]
    assert at.number_input[0].value == pytest.approx(0.6), "the default is kept"
    assert format_number(seed().kappa, lang) in page_text(at), "the rest of the page is there"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ratings", [
    SEED,  # kappa < 0: SE0 > SE
    {"actual": "0,1,2,3,4,0,1,2,3,4,2,2", "predicted": "0,1,2,3,4,0,1,2,3,3,2,1"},  # SE0 > SE
])
def test_se_and_se0_are_taught_on_the_learners_numbers(lang: str, ratings: dict) -> None:
    at = open_app("walkthrough", lang=lang, **ratings)
    result = walkthrough(ratings["actual"], ratings["predicted"])
    stats = result.statistics()
    text = page_text(at)
    se, se0 = format_number(stats.se, lang), format_number(stats.se0, lang)
    assert se in text and se0 in text
    key = "uncertainty.se0_larger" if stats.se0 > stats.se else "uncertainty.se0_smaller"
    other = "uncertainty.se0_smaller" if stats.se0 > stats.se else "uncertainty.se0_larger"
    assert t(lang, key, se=se, se0=se0) in text
    assert t(lang, other, se=se, se0=se0) not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_intervals_say_why_they_disagree_only_where_they_do(lang: str) -> None:
    """On the seed (n = 10, skewed resamples) the page says the two intervals disagree and why;
    on 2,000 items of a good model they agree and nothing is said."""
    at = open_app("walkthrough", lang=lang, **SEED)
    result = seed()
    boot = result.bootstrap()
    assert boot.skewness is not None and abs(boot.skewness) > 0.5
    text = page_text(at)
    reason = t(lang, "uncertainty.reason_skewed", skewness=format_number(boot.skewness, lang))
    assert reason in text
    rng = np.random.default_rng(3)
    actual = rng.integers(0, 5, 2000)
    predicted = np.clip(actual + rng.choice([0, 0, 0, -1, 1], 2000), 0, 4)
    big = {"actual": ",".join(map(str, actual)), "predicted": ",".join(map(str, predicted))}
    calm = page_text(open_app("walkthrough", lang=lang, **big))
    prefix = t(lang, "uncertainty.reason_skewed", skewness="\x00").split("\x00")[0]
    assert prefix not in calm


@pytest.mark.parametrize("lang", LANGUAGES)
def test_with_kappa0_zero_the_exact_p_value_stands_next_to_the_z_test(lang: str) -> None:
    """n = 10 items: the exact permutation p-value (margins fixed, full enumeration in
    tests/engine/test_resampling.py) is given beside the z test of kappa = 0; with kappa0 = 0.6
    (the raters then are not independent: the exact test does not apply) it is not."""
    at = open_app("walkthrough", lang=lang, kappa0="0", **SEED)
    assert_clean(at)
    exact = exact_permutation_test(seed())
    assert exact is not None
    sentence = t(lang, "z_test.exact", p=format_p_value(exact.p_value, lang, name="p"))
    assert sentence in page_text(at)
    assert sentence not in page_text(open_app("walkthrough", lang=lang, kappa0="0.6", **SEED))
