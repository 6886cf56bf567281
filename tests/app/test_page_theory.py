"""The theory page, driven with AppTest like a user would, in every language.

Sources of truth: the engine (qwk_explained.walkthrough / walkthrough_from_table) and
qwk_explained.teaching.theory for every number, formatted by qwk_explained.present.numbers;
the locale files for every word; user flows (shared links, the 2 x 2 inputs, the paradox
buttons, language switch).
"""

from __future__ import annotations

import pytest

from qwk_explained import InputError, walkthrough
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_list, format_number
from qwk_explained.teaching import theory
from qwk_explained.teaching.examples import BY_NAME
from tests.app.helpers import assert_clean, open_app, switch_order

UNUSED = BY_NAME["unused_rating"]
URL = {"actual": ",".join(map(str, UNUSED.actual)),
       "predicted": ",".join(map(str, UNUSED.predicted))}
CELL_KEYS = [f"theory_n{r}{c}_input" for r in (0, 1) for c in (0, 1)]


def metric(at, lang, key, index=0):
    return [m.value for m in at.metric if m.label == t(lang, key)][index]


def cells(at):
    return tuple(int(at.number_input(key=key).value) for key in CELL_KEYS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_link_in_each_language(lang):
    """Shared link: closed form = matrix route = engine; 2 x 2 numbers = engine; scales marked."""
    at = open_app("theory", lang=lang, **URL)
    assert_clean(at)
    assert at.title[0].value == t(lang, "theory.title")
    engine = walkthrough(UNUSED.actual, UNUSED.predicted, weights="quadratic", scale="range")
    assert metric(at, lang, "theory.closed_value") == format_number(engine.kappa, lang)
    assert metric(at, lang, "theory.matrix_value") == format_number(engine.kappa, lang)
    assert t(lang, "theory.closed_equal") in [s.value for s in at.success]

    k = theory.binary_kappa(*theory.DEFAULT_TABLE)
    for key, value in (("metric_p_a", k.p_a), ("metric_p_b", k.p_b), ("metric_p_ab", k.p_ab),
                       ("metric_p_o", k.p_o), ("metric_p_e", k.p_e),
                       ("metric_kappa_agreement", k.kappa_agreement),
                       ("metric_kappa_events", k.kappa_events)):
        assert metric(at, lang, f"theory.{key}") == format_number(value, lang), key
    two_ratings = at.table[0].value
    engine_2x2 = theory.binary_by_weighting(k)
    assert list(two_ratings[t(lang, "common.kappa")]) == [
        format_number(engine_2x2[kind], lang) for kind in ("quadratic", "linear", "unweighted")]
    assert len(set(two_ratings[t(lang, "common.kappa")])) == 1

    mark = t(lang, "theory.scale_mark", kappa=format_number(engine.kappa, lang))
    for index, scale in enumerate(theory.INTERPRETATION_SCALES, start=2):
        table = at.table[index].value
        meanings = list(table[t(lang, "theory.scale_meaning")])
        marked = [m for m, y in zip(meanings, table[t(lang, "theory.scale_yours")], strict=True)
                  if y == mark]
        assert marked == [t(lang, f"theory.band.{scale}.{theory.band(scale, engine.kappa)}")]
    assert at.query_params["table"] == "15,10;5,20"


def test_unused_rating_explains_the_observed_scale():
    """Engine: the observed-scale value and the closed form on positions are quoted."""
    at = open_app("theory", lang="en", **URL)
    check = theory.check_closed_form(UNUSED.actual, UNUSED.predicted)
    expected = t("en", "theory.closed_unused", unused="2", count=1,
                 observed=format_number(check.observed_kappa, "en"),
                 positions=format_number(check.positions.kappa, "en"))
    assert expected in [w.value for w in at.warning]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_kappa_of_zero_is_marked_on_every_scale(lang):
    """Teaching audit, defect 6: all 0 against all 4 (kappa = 0) marked no row of the Landis and
    Koch table, although the page says "its band is marked on each scale". Their band at 0 is
    "slight"; every scale marks one row, and chance level is said apart."""
    at = open_app("theory", lang=lang, actual="0,0,0,0", predicted="4,4,4,4")
    assert_clean(at)
    mark = t(lang, "theory.scale_mark", kappa=format_number(0, lang))
    for index, scale in enumerate(theory.INTERPRETATION_SCALES, start=2):
        table = at.table[index].value
        meanings = list(table[t(lang, "theory.scale_meaning")])
        marked = [m for m, y in zip(meanings, table[t(lang, "theory.scale_yours")], strict=True)
                  if y == mark]
        assert marked == [t(lang, f"theory.band.{scale}.{theory.band(scale, 0.0)}")], scale
    assert t(lang, "common.kappa_at_chance") in [m.value for m in at.markdown]


@pytest.mark.parametrize(("actual", "predicted"), [
    ([0, 2, 4, 0, 2, 4, 2], [0, 2, 2, 4, 4, 0, 2]), ([0, 0, 0, 0, 0], [4, 4, 4, 4, 4])])
def test_dropping_unused_ratings_that_changes_nothing_is_not_called_a_change(actual, predicted):
    """Teaching audit, defect 9: "quadratic kappa becomes -0.25 instead of" -0.25, and "0
    instead of" 0. Evenly spaced ratings left keep the value: the page says so, with why."""
    at = open_app("theory", lang="en", actual=",".join(map(str, actual)),
                  predicted=",".join(map(str, predicted)))
    assert_clean(at)
    check = theory.check_closed_form(actual, predicted)
    assert check.dropping_unused == "even"
    expected = t("en", "theory.closed_unused_even", count=len(check.unused),
                 unused=format_list([format_number(x, "en") for x in check.unused], "en"),
                 observed=format_number(check.observed_kappa, "en"))
    assert expected in [w.value for w in at.warning]


def test_rescaling_and_weighting_tables_equal_the_engine():
    """Engine: w, 7w and counts give the user's kappa; each weighting's kappa and band."""
    seed = BY_NAME["seed_zh"]
    at = open_app("theory", lang="es", actual=",".join(map(str, seed.actual)),
                  predicted=",".join(map(str, seed.predicted)))
    result = walkthrough(seed.actual, seed.predicted)
    rescaled = at.table[1].value
    assert list(rescaled[t("es", "common.kappa")]) == [format_number(result.kappa, "es")] * 3
    assert list(rescaled[t("es", "common.numerator")]) == [
        format_number(r.numerator, "es") for r in theory.rescaling(result, 7)]
    weightings = at.table[5].value
    values = theory.kappa_by_weighting(result)
    assert list(weightings[t("es", "common.kappa")]) == [
        format_number(values[k], "es") for k in ("quadratic", "linear", "unweighted")]
    # Here quadratic kappa (0.8724) is above unweighted kappa (0.75): the "higher" sentence.
    caveat = t("es", "theory.scales_caveat.higher",
               quadratic=format_number(values["quadratic"], "es"),
               unweighted=format_number(values["unweighted"], "es"))
    assert caveat in [m.value for m in at.markdown]


def test_paradox_buttons_load_the_tables_and_the_url():
    """User flow: each paradox button loads its table into the 2 x 2 example (and the link)."""
    at = open_app("theory", lang="tr")
    for name, counts in theory.PARADOX_TABLES.items():
        at.button(key=f"theory_paradox_{name}").click().run()
        assert_clean(at)
        assert cells(at) == counts
        k = theory.binary_kappa(*counts)
        assert metric(at, "tr", "theory.metric_p_o") == format_number(0.85, "tr")
        assert metric(at, "tr", "theory.metric_kappa_agreement") == format_number(
            k.kappa_agreement, "tr")
        assert at.query_params["table"] == f"{counts[0]},{counts[1]};{counts[2]},{counts[3]}"


def test_typing_counts_undefined_and_empty_tables():
    """User flow: edit the counts; 0/0 is explained; an all-zero table is a translated error."""
    at = open_app("theory", lang="zh")
    for key, value in zip(CELL_KEYS, (9, 0, 0, 0), strict=True):
        at.number_input(key=key).set_value(value).run()
    assert_clean(at)
    assert metric(at, "zh", "theory.metric_kappa_events") == t("zh", "common.undefined")
    assert t("zh", "theory.binary_undefined") in [w.value for w in at.warning]
    at.number_input(key=CELL_KEYS[0]).set_value(0).run()
    assert_clean(at)
    assert error_message("zh", InputError("table_empty")) in [e.value for e in at.error]


@pytest.mark.parametrize(("table", "expected"), [
    ("40,9;6,45", (40, 9, 6, 45)), ("1,2,3;4,5,6;7,8,9", None), ("1,x;2,3", "error")])
def test_table_from_the_link(table, expected):
    """Shared link ?table=: a 2 x 2 table is loaded; anything else is explained, not raised."""
    at = open_app("theory", lang="en", table=table)
    assert_clean(at)
    if isinstance(expected, tuple):
        assert cells(at) == expected
        return
    assert cells(at) == theory.DEFAULT_TABLE
    errors = [e.value for e in at.error]
    if expected is None:
        assert t("en", "theory.table_url_shape") in errors
    else:
        assert any("x" in message for message in errors)


def test_language_switch_keeps_the_table_and_the_ratings():
    """Switching language keeps the 2 x 2 counts, the shared ratings and the settings."""
    at = open_app("theory", lang="en", weights="linear", **URL)
    at.number_input(key=CELL_KEYS[1]).set_value(3).run()
    for lang in switch_order("en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert at.title[0].value == t(lang, "theory.title")
        assert cells(at) == (15, 3, 5, 20)
        assert at.text_input(key="actual_input").value == URL["actual"]
        assert at.query_params["weights"] == "linear"
    linear = walkthrough(UNUSED.actual, UNUSED.predicted, weights="linear").kappa
    note = t("en", "theory.closed_settings", name=t("en", "common.in_sentence.kappa_name.linear"),
             scale=t("en", "frame.scale_range"), kappa=format_number(linear, "en"))
    assert note in [c.value for c in at.caption]


def test_first_visit_with_bad_ratings_still_teaches():
    """No valid ratings at all: the 2 x 2 example works, the rest asks for ratings."""
    at = open_app("theory", lang="es", actual="a,b", predicted="1,2")
    assert_clean(at)
    assert t("es", "theory.need_ratings") in [i.value for i in at.info]
    assert metric(at, "es", "theory.metric_kappa_agreement") == format_number(0.4, "es")
