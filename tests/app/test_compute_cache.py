"""What the pages derive from a result is cached on the content of its inputs, and bounded by
what an input weighs (architecture review F2; reliability report H3).

F2: derived results were cached under keys built by hand; a mutant that dropped the settings from
the key passed every app test, while the theory page's rescaling table kept the quadratic kappa
after a switch to linear. Here every derived table is compared with the engine's for the current
settings after each change of weighting, then of scale, on the theory, pitfalls and checker pages
(it fails for a digest that leaves out the weighting, the labels or the ratings).

H3: every distinct vector pasted or uploaded stayed in caches shared by every session after the
session ended (64 entries of up to 80 MB per cache). Inputs of more than
``compute.SHARED_MAX_ITEMS`` ratings are now cached for their session only (a session-scoped cache,
emptied when the session's connection closes).

Sources of truth: ``qwk_explained`` (walkthrough, teaching.theory, teaching.conventions,
present.worksheet) called directly, without any cache. Results come from the core's
``walkthrough``, as in the app (the top level's is the notebook's subclass, which Streamlit's
``hash_funcs`` would not match: it would hash the whole result, and no mutant would show).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from streamlit.runtime import caching
from streamlit.runtime.caching import hashing

from qwk_app import compute, state
from qwk_app.state import Settings
from qwk_explained.core.steps import walkthrough, walkthrough_from_table
from qwk_explained.present import worksheet
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching import conventions, theory
from qwk_explained.teaching.examples import random_ratings
from tests.app.helpers import Browser, assert_clean, open_app, type_ratings

#: Ratings 0..4 with 2 unused: the observed scale differs from the range.
ACTUAL, PREDICTED = "0,1,3,4,4,1,0,3", "1,1,3,3,4,0,0,4"
SETTINGS = [Settings(w, s, None, None) for w, s in itertools.product(
    ("quadratic", "linear", "unweighted"), ("range", "observed"))] + [
    Settings("quadratic", "range", -1, 6), Settings("linear", "range", 0, 5)]


def engine(settings: Settings):
    return walkthrough(ACTUAL, PREDICTED, weights=settings.weights, scale=settings.scale,
                       min_rating=settings.min_rating, max_rating=settings.max_rating)


def test_every_cached_function_gives_the_engines_answer_for_every_setting():
    """The caches are warm with the other settings' results when each one is asked for."""
    for _ in range(2):
        for settings in SETTINGS:
            result = engine(settings)
            source = worksheet.Source(scale=settings.scale, min_rating=settings.min_rating,
                                      max_rating=settings.max_rating)
            assert compute.rescaling(result, 7) == theory.rescaling(result, 7)
            assert compute.kappa_by_weighting(result) == theory.kappa_by_weighting(result)
            assert compute.conventions_table(result, settings.weights) == conventions.compare(
                *compute.ratings(result), settings.weights)
            assert compute.worksheets(result, "es", source)["md"] == worksheet.markdown(
                result, "es", source)
            assert compute.worksheets(result, "es", source)["py"] == worksheet.python_snippet(
                result, "es", source)


def test_the_digest_names_every_setting_and_the_order_of_the_ratings():
    digests = {engine(settings).digest for settings in SETTINGS}
    assert len(digests) == len(SETTINGS)
    swapped = walkthrough(ACTUAL[::-1], PREDICTED[::-1])  # same counts, another order
    assert swapped.digest != engine(SETTINGS[0]).digest
    assert walkthrough(ACTUAL, PREDICTED).digest == engine(SETTINGS[0]).digest


int_arrays = hnp.arrays(np.int64, hnp.array_shapes(max_dims=1, min_side=0, max_side=6),
                        elements=st.integers(-130, 130))


@hypothesis_settings(max_examples=300, deadline=None)
@given(int_arrays, int_arrays, int_arrays, int_arrays)
def test_the_ratings_digest_is_the_same_exactly_for_the_same_values(a, b, c, d):
    """Ratings are hashed a byte each when they fit (``hash_values``): two pairs get the same
    digest exactly when they hold the same values in the same order, wherever the first vector
    ends (values around the byte's ends included), whatever integer type holds them."""
    same = a.tolist() == c.tolist() and b.tolist() == d.tolist()
    assert (compute.ratings_key(a, b) == compute.ratings_key(c, d)) == same
    assert compute.ratings_key(a.astype(np.int32), b) == compute.ratings_key(a, b)


def cells(table) -> dict[str, list[str]]:
    return {column: list(table[column]) for column in table.columns}


def theory_tables(at, lang: str):
    """The theory page's rescaling table and its table of kappa under each weighting."""
    frames = [table.value for table in at.table]
    rescaled = next(f for f in frames if t(lang, "theory.rescaling_route") in f.columns)
    weightings = next(f for f in frames if t(lang, "common.weighting") in f.columns
                      and len(f.columns) > 2)
    return cells(rescaled), cells(weightings)


def expected_theory(settings: Settings, lang: str):
    result = engine(settings)
    rescaled = theory.rescaling(result, 7)
    by_weighting = theory.kappa_by_weighting(result)
    return ([format_number(r.numerator, lang) for r in rescaled],
            [format_number(by_weighting[k], lang) for k in ("quadratic", "linear", "unweighted")])


def test_theory_tables_follow_the_weighting_then_the_scale():
    """The probe of F2: switch the weighting, then the scale; every derived table changes with
    them and equals the engine's."""
    lang = "en"
    at = open_app("theory", lang=lang, actual=ACTUAL, predicted=PREDICTED)
    browser = Browser(at)
    seen = []
    for weights, scale in (("quadratic", "range"), ("linear", "range"), ("linear", "observed")):
        browser.pick("weights_input", weights)
        browser.pick("scale_mode_input", scale)
        assert_clean(at)
        rescaled, weightings = theory_tables(at, lang)
        numerators, kappas = expected_theory(Settings(weights, scale, None, None), lang)
        assert rescaled[t(lang, "common.numerator")] == numerators
        assert weightings[t(lang, "common.kappa")] == kappas
        seen.append((rescaled, weightings))
    assert seen[0][0] != seen[1][0], "the weighting changes the rescaling table"
    assert seen[1][1] != seen[2][1], "the scale changes the table of weightings"


def test_pitfalls_table_follows_the_weighting():
    at = open_app("pitfalls", lang="es", actual=ACTUAL, predicted=PREDICTED)
    browser = Browser(at)
    column = t("es", "pitfalls.column_ours")
    shown = []
    for weights in ("quadratic", "linear", "unweighted"):
        browser.pick("weights_input", weights)
        assert_clean(at)
        comparison = conventions.compare(ACTUAL, PREDICTED, weights)
        ours = list(at.table[0].value[column])
        expected = [format_number(row.kappa, "es") for row in comparison.rows
                    if row.status == "ok" and row.kappa is not None]
        assert [cell for cell in ours if cell in expected] == expected
        shown.append(ours)
    assert shown[0] != shown[1] != shown[2]


def test_checker_table_result_follows_the_weighting():
    at = open_app("checker", lang="en", table="0,4,1;0,8,0;0,1,5")
    browser = Browser(at)
    for weights in ("quadratic", "linear", "quadratic"):
        browser.pick("weights_input", weights)
        assert_clean(at)
        settings = Settings(weights, "range", None, None)
        result, _ = compute.table_result("0,4,1;0,8,0;0,1,5", 0, settings)
        expected = walkthrough_from_table_kappa(weights)
        assert result.kappa == pytest.approx(expected)
        assert format_number(expected, "en") in [m.value for m in at.metric]


def walkthrough_from_table_kappa(weights: str) -> float | None:
    return walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], weights=weights).kappa


# --- memory: a session's large input stays with the session ------------------------------------

def big_upload(seed: int) -> dict:
    n = compute.SHARED_MAX_ITEMS + 1 + seed
    actual, predicted = random_ratings(n, 5, 0.6, seed=seed)
    for array in (actual, predicted):
        array.setflags(write=False)
    return {"name": f"big{seed}.csv", "actual": actual, "predicted": predicted,
            "digest": f"digest-{seed}"}


#: The session id AppTest runs every session under (streamlit.testing's LocalScriptRunner).
APPTEST_SESSION = "test session id"


@pytest.mark.parametrize("large", [False, True])
def test_a_large_input_leaves_with_its_session_and_a_small_one_stays_shared(monkeypatch, large):
    """What Streamlit does when a session's connection closes (AppSession.clear_session_caches)
    takes a large input's results with it; a small input's stay for the next student."""
    calls = []
    monkeypatch.setattr(compute, "walkthrough", lambda *a, **k: calls.append(1) or
                        walkthrough(*a, **k))
    at = open_app("theory", lang="en", actual=ACTUAL, predicted="1,1,3,3,4,0,0,3")
    if large:
        at.session_state["upload"] = big_upload(7)
        at.run()
    assert_clean(at)
    computed = len(calls)
    at.run()
    assert len(calls) == computed, "cached while the session lives"
    caching.clear_session_resource_cache(APPTEST_SESSION)  # the connection closed
    at.run()
    assert_clean(at)
    assert len(calls) == computed + (1 if large else 0)
    assert compute._large(at.session_state[state.LAST_VALID]) == large
    assert not compute._large("1, 2" * 100) and compute._large("1, " * compute.SHARED_MAX_CHARS)


def test_undo_keeps_only_the_last_replaced_upload():
    session: dict = {"actual": "1, 2", "predicted": "2, 1", "upload": None}
    for seed in range(3):  # each upload first keeps what it replaces
        state.remember("upload", session=session, name=str(seed))
        session["upload"] = big_upload(seed)
    uploads = [entry.values["upload"] for entry in session["_qwk_undo"]
               if entry.values["upload"] is not None]
    assert len(uploads) == 1 and uploads[0]["name"] == "big1.csv"
    assert len(session["_qwk_undo"]) == 2  # the typed vectors, then the last upload replaced


# --- a long paste: read once per session, never hashed (reliability report M4) ------------------

def test_a_long_typed_text_is_read_once_and_compared_not_hashed_on_later_reruns(monkeypatch):
    """A text longer than SHARED_MAX_CHARS (lowered here) is read once; later reruns with the
    same text find it by comparison (Streamlit's cache would copy and hash megabytes of it on
    every rerun, holding every other session), a failing one is not read again, the two arrays'
    digest is computed once, and a field emptied of its long text lets it go."""
    monkeypatch.setattr(compute, "SHARED_MAX_CHARS", 30)
    reads, digests = [], []
    real_parse, real_key = compute.parse_vector, compute.ratings_key
    monkeypatch.setattr(compute, "parse_vector", lambda text: (
        len(text) > compute.SHARED_MAX_CHARS and reads.append(text)) or real_parse(text))
    monkeypatch.setattr(compute, "ratings_key", lambda *a: digests.append(1) or real_key(*a))
    actual, predicted = "0, 1, 2, 3, 4, " * 4 + "4", "1, 1, 2, 3, 4, " * 4 + "3"
    hashed = []
    real_bytes = hashing._CacheFuncHasher._to_bytes
    monkeypatch.setattr(hashing._CacheFuncHasher, "_to_bytes", lambda self, obj: (
        obj in (actual, predicted) and hashed.append(obj)) or real_bytes(self, obj))
    actual, predicted = "0, 1, 2, 3, 4, " * 4 + "4", "1, 1, 2, 3, 4, " * 4 + "3"
    at = open_app("walkthrough", lang="en")
    digests.clear()  # the example's
    type_ratings(at, actual, predicted)
    assert_clean(at)
    kappa = walkthrough(actual, predicted).kappa
    assert at.session_state[state.LAST_VALID].kappa == kappa
    assert sorted(reads) == sorted([actual, predicted]) and len(digests) == 1
    for page in ("walkthrough", "theory"):  # a rerun, a page change: nothing is read again
        at.switch_page(f"pages/{page}.py").run()
        assert_clean(at)
    assert len(reads) == 2 and len(digests) == 1 and not hashed
    bad = actual[:-1] + "x"
    type_ratings(at, bad)
    at.run()
    assert reads.count(bad) == 1
    assert at.session_state["_qwk_long_texts"]["actual"][0] == bad
    type_ratings(at, "1, 2")
    assert "actual" not in at.session_state["_qwk_long_texts"]
