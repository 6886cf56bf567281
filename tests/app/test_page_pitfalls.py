"""The pitfalls page, driven with AppTest like a user would, in every language.

Sources of truth: qwk_explained.teaching.conventions (itself tested against scikit-learn, the seed
code executed, and hand computations in tests/teaching/test_conventions.py) for every row of the
table; scikit-learn run live for its column; the locale files for every word; user flows (shared
links, one-click examples, language switch, bad input, scikit-learn missing).
"""

from __future__ import annotations

import sys

import pytest

from qwk_app import compute
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_list, format_number
from qwk_explained.teaching import conventions
from qwk_explained.teaching.examples import BY_NAME
from tests.app.helpers import assert_clean, open_app, switch_order

UNUSED = BY_NAME["unused_rating"]
URL = {"actual": ",".join(map(str, UNUSED.actual)),
       "predicted": ",".join(map(str, UNUSED.predicted))}


def expected_kappa_cell(row: conventions.Row, lang: str) -> str:
    if row.status == "ok":
        return format_number(row.kappa, lang)
    if row.status == "undefined":
        return t(lang, "common.undefined")
    return t(lang, "pitfalls.raises", error=row.raises) if row.raises else t(
        lang, "pitfalls.no_result")


def table(at):
    return at.table[0].value


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_equals_conventions_and_sklearn_in_each_language(lang):
    """Shared link: each row's kappa = conventions.compare; sklearn column = sklearn, live."""
    at = open_app("pitfalls", lang=lang, **URL)
    assert_clean(at)
    assert at.title[0].value == t(lang, "pitfalls.title")
    comparison = conventions.compare(UNUSED.actual, UNUSED.predicted, "quadratic")
    shown = table(at)
    assert list(shown[t(lang, "pitfalls.column_convention")]) == [
        t(lang, f"pitfalls.convention.{code}") for code in conventions.CONVENTIONS]
    assert list(shown[t(lang, "pitfalls.column_ours")]) == [
        expected_kappa_cell(row, lang) for row in comparison.rows]
    check = conventions.sklearn_check(UNUSED.actual, UNUSED.predicted, "quadratic")
    sklearn = list(shown[t(lang, "pitfalls.column_sklearn")])
    assert sklearn[:2] == [format_number(check.with_labels.value, lang),
                           format_number(check.without_labels.value, lang)]
    assert sklearn[0] == shown[t(lang, "pitfalls.column_ours")][0], "range = sklearn labels="
    assert sklearn[1] == shown[t(lang, "pitfalls.column_ours")][1], "observed = sklearn"
    assert sklearn[0] != sklearn[1], "the unused rating changes the result"
    reasons = list(shown[t(lang, "pitfalls.column_reason")])
    # One unused rating: the singular form (CLDR "one"), the ratings listed as the language lists.
    assert reasons[1] == t(lang, "pitfalls.reason.observed_gap", unused="2", count=1)
    assert reasons[3] == t(lang, "pitfalls.reason.seed_matrix_small", rows="3", size="5",
                           count=5, ratings=format_list(["0", "1", "3"], lang))


@pytest.mark.parametrize("name", ["seed_en", "all_zero_all_four", "full_disagreement",
                                  "constant", "seed_es"])
def test_one_click_examples_change_the_shared_vectors(name):
    """User flow: an example button replaces the shared ratings; the table follows."""
    at = open_app("pitfalls", lang="en", **URL)
    at.button(key=f"pitfalls_load_{name}").click().run()
    assert_clean(at)
    example = BY_NAME[name]
    assert at.text_input(key="actual_input").value == ", ".join(map(str, example.actual))
    assert at.query_params["actual"] == ",".join(map(str, example.actual))
    comparison = conventions.compare(example.actual, example.predicted, "quadratic")
    assert list(table(at)[t("en", "pitfalls.column_ours")]) == [
        expected_kappa_cell(row, "en") for row in comparison.rows]


def test_all_zero_all_four_row_values_and_claim_section():
    """Hand computation: 0, not -1; the seed code itself stops with an IndexError."""
    at = open_app("pitfalls", lang="es")
    at.button(key="pitfalls_claim_all_zero_all_four").click().run()
    assert_clean(at)
    ours = list(table(at)[t("es", "pitfalls.column_ours")])
    assert ours[:3] == ["0", "0", "0"]
    assert ours[3] == t("es", "pitfalls.raises", error="IndexError")
    assert t("es", "pitfalls.claim_text", kappa="0", row="0", col="4") in [
        m.value for m in at.markdown]
    assert t("es", "pitfalls.claim_opposite", kappa=format_number(-1, "es")) in [
        m.value for m in at.markdown]
    at.button(key="pitfalls_claim_full_disagreement").click().run()
    assert list(table(at)[t("es", "pitfalls.column_ours")])[0] == format_number(-1, "es")


def test_fixed_scale_and_seed_code_on_ratings_one_to_five():
    """Ratings 1..5: the fixed 0..4 scale and the seed's histogram both fail (IndexError)."""
    seed_en = BY_NAME["seed_en"]
    at = open_app("pitfalls", lang="tr", actual=",".join(map(str, seed_en.actual)),
                  predicted=",".join(map(str, seed_en.predicted)))
    reasons = list(table(at)[t("tr", "pitfalls.column_reason")])
    assert reasons[2] == t("tr", "pitfalls.reason.fixed_above", rating="5", top="4", size="5")
    assert reasons[3] == t("tr", "pitfalls.reason.seed_hist_index", rating="5", size="5",
                           top="4")


def test_undefined_case_ours_and_sklearn_live():
    """0/0: this app says undefined; scikit-learn returns nan and warns (run live)."""
    at = open_app("pitfalls", lang="zh", actual="2,2,2", predicted="2,2,2")
    assert_clean(at)
    shown = table(at)
    assert list(shown[t("zh", "pitfalls.column_ours")])[:2] == [t("zh", "common.undefined")] * 2
    assert list(shown[t("zh", "pitfalls.column_sklearn")])[:2] == ["nan", "nan"]
    assert t("zh", "undefined.no_chance_disagreement") in [i.value for i in at.info]
    check = conventions.sklearn_check([2, 2, 2], [2, 2, 2])
    names = format_list(check.without_labels.warnings, "zh")
    assert t("zh", "pitfalls.undefined_sklearn", value="nan", names=names) in [
        m.value for m in at.markdown]
    assert any("UndefinedMetricWarning" in c.value for c in at.caption)


def test_weights_setting_applies_to_the_table():
    """Settings flow: linear weights in the sidebar give conventions' linear values."""
    at = open_app("pitfalls", lang="en", weights="linear", **URL)
    comparison = conventions.compare(UNUSED.actual, UNUSED.predicted, "linear")
    assert list(table(at)[t("en", "pitfalls.column_ours")]) == [
        expected_kappa_cell(row, "en") for row in comparison.rows]


def test_without_sklearn_the_page_shows_a_note(monkeypatch, request):
    """scikit-learn missing (make run installs only the runtime): a translated note, no crash."""
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.metrics", None)
    # scikit-learn's answers are cached per input: those of other tests had it installed, and
    # this test's must not outlive it.
    for cached in (compute.sklearn_check, compute.example_sklearn_check):
        cached.clear()
        request.addfinalizer(cached.clear)
    at = open_app("pitfalls", lang="tr", **URL)
    assert_clean(at)
    assert t("tr", "pitfalls.column_sklearn") not in table(at).columns
    assert t("tr", "pitfalls.sklearn_missing") in [i.value for i in at.info]


def test_language_switch_keeps_the_ratings():
    """Switching language keeps the shared ratings and the comparison's numbers."""
    at = open_app("pitfalls", lang="en", **URL)
    at.button(key="pitfalls_load_seed_en").click().run()
    for lang in switch_order("en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert at.title[0].value == t(lang, "pitfalls.title")
        assert at.query_params["actual"] == ",".join(map(str, BY_NAME["seed_en"].actual))
        assert list(table(at)[t(lang, "pitfalls.column_ours")])[0] == format_number(
            -0.139240506, lang)


def test_first_visit_with_bad_ratings_shows_a_message_not_a_table():
    at = open_app("pitfalls", lang="es", actual="1,2,3", predicted="1,2")
    assert_clean(at)
    assert not at.table
    assert t("es", "pitfalls.nothing_yet") in [i.value for i in at.info]
