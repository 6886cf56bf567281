"""A long pasted vector is read by the C reader uploads use (off the GIL) and gives exactly what
``parse_vector`` gives (reliability report, M4).

Source of truth: :func:`qwk_explained.core.parse.parse_vector`, the careful reader; hypothesis
texts are adversarial (signs alone, doubled signs, brackets, every separator, huge numbers).
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from qwk_explained.core.csvfile import parse_plain_vector
from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import parse_vector

TEXTS = st.text(alphabet="0123456789+-,; \t\n\r[]().", max_size=300) | st.lists(
    st.integers(-10**12, 10**12), max_size=60).map(lambda values: ", ".join(map(str, values)))


@settings(max_examples=300, deadline=None)
@example("4, 4, 3")
@example("-")
@example("+-3")
@example("[1 2 3]")
@example("99999999999999999999")
@example("1.0, 2")
@example(" , ; ")
@given(text=TEXTS)
def test_the_c_reader_answers_only_with_what_the_careful_reader_gives(text):
    values = parse_plain_vector(text, min_chars=0)
    if values is None:
        return
    assert values.dtype == np.int64 and values.flags.c_contiguous
    assert np.array_equal(values, parse_vector(text))


def test_a_long_plain_paste_goes_to_the_c_reader_and_short_or_unusual_text_does_not():
    long_text = ", ".join(["4", "0", "3"] * 400_000)
    assert np.array_equal(parse_plain_vector(long_text), parse_vector(long_text))
    assert parse_plain_vector("4, 0, 3") is None, "short: numpy is as fast and needs no pandas"
    assert parse_plain_vector(long_text + ", ４") is None  # full-width: the careful reader
    assert parse_plain_vector(long_text + ", x") is None
    try:
        parse_vector(long_text + ", x")
    except InputError as error:
        assert error.code == "not_integer" and error.params["position"] == 1_200_001
