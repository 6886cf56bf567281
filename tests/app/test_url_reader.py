"""The link is a trust boundary: every parameter, any value, never an error box.

Two layers: each reader of a link's value, called directly with adversarial values (thousands
of examples, in milliseconds), and the whole app opened on links whose every parameter holds
5,000-character values and odd Unicode (the reliability report found ``?step=<4,301 digits>``
(M7) and ``?min=<5,000 digits>`` (L3); the older URL fuzz never drew such values).

Sources of truth: each value's set (``qwk_app.state`` choices, the step count, the rating range,
the seed range), the locale files (every message shown is a sentence of the session's language).
"""

from __future__ import annotations

import os
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwk_app import checker, links, practice, state
from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_ABS_RATING
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import message
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.teaching.examples import EXAMPLES
from qwk_explained.teaching.exercises import MAX_SEED, parse_seed
from tests.app.helpers import assert_clean, open_app
from tests.app.test_robustness import assert_messages_translated
from tests.hostile import HOSTILE_TEXT, assert_translated

MANY = settings(max_examples=int(os.environ.get("QWK_FUZZ_EXAMPLES", "500")), deadline=None,
                derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: What an attacker puts in a link: any Unicode, long runs of digits (past Python's 4,300-digit
#: int() limit), signs and separators, markup, and values of the other parameters.
LONG = 5000
VALUES = st.one_of(
    HOSTILE_TEXT,  # the project's hostile text (tests/hostile.py)
    st.text(),
    st.text(min_size=LONG, max_size=LONG),
    st.text(alphabet=string.digits, min_size=4000, max_size=LONG),
    st.builds(lambda sign, digits: sign + digits, st.sampled_from(["-", "+", "0", "-0", " "]),
              st.text(alphabet=string.digits, min_size=1, max_size=LONG)),
    st.text(alphabet="0123456789,;- \u00a0\u3001\uff0c\u0663\uff13", max_size=300),
    st.sampled_from(["", " ", "nan", "inf", "1e400", "0x10", "1_0", "٣", "３", "<b>x</b>",
                     "**x**", "$x$", "../../etc/passwd", "\x00", "%00", "quadratic", "Linear",
                     "observed", "table", "hard", "4,0", "1,2;3,4", "-1000000001", "7"]),
)


@MANY
@given(value=VALUES)
def test_each_reader_answers_a_value_of_its_set_or_nothing(value):
    step = links.parse_step(value)
    assert step is None or (type(step) is int and 1 <= step <= len(STEPS))
    cell = links.parse_cell(value, [0, 1, 2, 3, 4])
    assert cell is None or all(0 <= k < 5 for k in cell)
    assert links.cell_from_trigger(value, 5) in (None, *((i, j) for i in range(5)
                                                       for j in range(5)))
    first = checker.first_rating(value)
    assert type(first) is int and state.RATING_RANGE[0] <= first <= state.RATING_RANGE[1]
    seed = parse_seed(value)
    assert seed is None or 0 <= seed <= MAX_SEED
    for choice in (state.LANGUAGE, state.WEIGHTS, state.SCALE, checker.MODE_CHOICE,
                   practice.LEVEL_CHOICE):
        assert choice.read(value) in (None, *choice.options)


@MANY
@given(value=VALUES, name=st.sampled_from(["min", "max"]))
def test_an_end_of_the_scale_is_a_rating_or_a_translated_problem(value, name):
    problems: list[InputError] = []
    end = state._url_rating(name, value, problems)
    if end is not None:
        assert type(end) is int and abs(end) <= MAX_ABS_RATING and not problems
        return
    if value.strip():
        (problem,) = problems
        assert problem.params["parameter"] == name and len(problem.params["value"]) <= 20
        for lang in LANGUAGES:
            assert "{" not in message(lang, problem).replace(problem.params["value"], "")


#: Compact forms (``v=``) with something changed: a character, a cut, a header field, an end.
_SEED_PACKED = links.pack_vectors(np.array([4, 4, 3, 4, 4, 4, 1, 1, 2, 1]),
                                  np.array([0, 2, 1, 0, 0, 0, 1, 1, 2, 1]))
PACKED_ALPHABET = string.ascii_letters + string.digits + "-_."
NEAR_PACKED = st.one_of(
    st.builds(lambda at, char: _SEED_PACKED[:at] + char + _SEED_PACKED[at + 1:],
              st.integers(0, len(_SEED_PACKED) - 1), st.sampled_from(PACKED_ALPHABET)),
    st.builds(lambda at: _SEED_PACKED[:at], st.integers(0, len(_SEED_PACKED) - 1)),
    st.builds(lambda tail: _SEED_PACKED + tail, st.text(PACKED_ALPHABET, min_size=1)),
    st.builds(lambda codec, low, high, n, data: f"1{codec}.{low}.{high}.{n}.{data}",
              st.sampled_from("bz"), st.integers(-10**10, 10**10), st.integers(-10**10, 10**10),
              st.integers(0, 10**6), st.text(PACKED_ALPHABET, max_size=LONG)),
    st.text(PACKED_ALPHABET, min_size=LONG, max_size=LONG),
)


@MANY
@given(value=st.one_of(VALUES, NEAR_PACKED))
def test_a_link_s_vectors_are_the_ones_packed_or_a_translated_problem(value):
    """``v`` and ``ex`` come from anyone: the reader gives back vectors that pack to exactly the
    value read (one text per pair of vectors, so a changed character is never other ratings),
    or raises the project's own error, translated in every language, naming the parameter."""
    try:
        actual, predicted = links.unpack_vectors(value)
    except InputError as error:
        assert_translated(error)
        assert error.params["parameter"] == links.VECTORS_PARAM
    else:
        assert links.pack_vectors(actual, predicted) == value
    try:
        example = links.read_example(value)
    except InputError as error:
        assert_translated(error)
        assert error.params["parameter"] == links.EXAMPLE_PARAM
        assert len(error.params["value"]) <= 20
    else:
        assert example in EXAMPLES and example.name == value


#: Ratings a class uses, and the engine's extremes (one bit to 31 bits an offset).
RATING_VECTORS = st.integers(1, 400).flatmap(lambda n: st.tuples(*[st.lists(
    st.one_of(st.integers(0, 4), st.integers(-3, 12),
              st.sampled_from([-MAX_ABS_RATING, MAX_ABS_RATING])),
    min_size=n, max_size=n)] * 2))


@MANY
@given(vectors=RATING_VECTORS)
def test_the_compact_form_gives_back_the_very_vectors(vectors):
    """Invariant: unpacking a packed pair gives the same ratings in the same order; the form is
    URL-safe (nothing a link must escape)."""
    actual, predicted = (np.array(v, dtype=np.int64) for v in vectors)
    packed = links.pack_vectors(actual, predicted)
    assert set(packed) <= set(PACKED_ALPHABET + "-0123456789")
    again = links.unpack_vectors(packed)
    assert again[0].tolist() == vectors[0] and again[1].tolist() == vectors[1]


#: The page that reads each parameter of a link (the shared ones are read by every page).
READER = {"step": "step_by_step", "cell": "step_by_step", "table": "checker", "mode": "checker",
          "first": "checker", "seed": "practice", "level": "practice"}
LONG_VALUES = {"digits": "9" * LONG, "unicode": "-٣۴৫\u200b🙂" * 1000, "zeros": "0" * LONG + "3"}


@pytest.mark.parametrize("kind", sorted(LONG_VALUES))
@pytest.mark.parametrize("key", [*state.URL_KEYS, *state.PAGE_URL_KEYS])
def test_every_parameter_takes_a_5000_character_value(key, kind):
    lang = "tr"
    params = {"lang": lang, key: LONG_VALUES[kind]} if key != "lang" else {key: LONG_VALUES[kind]}
    if key == "first":
        params["mode"] = "table"
    at = open_app(READER.get(key, "walkthrough"), **params)
    assert_clean(at)
    assert_messages_translated(at, lang if key != "lang" else "en")


@settings(max_examples=int(os.environ.get("QWK_FUZZ_PAGES", "10")), deadline=None,
          derandomize=bool(os.environ.get("CI")),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(page=st.sampled_from(sorted({"walkthrough", *READER.values(), "theory", "pitfalls"})),
       params=st.dictionaries(st.sampled_from([*state.URL_KEYS, *state.PAGE_URL_KEYS]),
                              VALUES, max_size=8))
def test_any_link_opens_any_page(page, params):
    at = open_app(page, **params)
    assert_clean(at)
    lang = params.get("lang") if params.get("lang") in LANGUAGES else "en"
    assert_messages_translated(at, lang)
