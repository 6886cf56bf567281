"""The number reader at its trust boundary: whatever a learner (or anyone) types, it returns
readings it can do arithmetic with, or raises the project's own error with a sentence in every
language (reliability report, H2: ``0e400``, ``1e200/1e-200`` and a 4,301-digit exponent raised
OverflowError and ValueError inside the reader and broke the checker page for the session).

Sources of truth: the reader's bounds (:data:`MAX_DIGITS`, :data:`MAX_EXPONENT`,
:data:`MAX_MAGNITUDE`), the locale files (every code has a sentence in all four languages).
Hypothesis strategies are adversarial, not plausible: the project's hostile text
(:data:`tests.hostile.HOSTILE_TEXT`: every Unicode category, 5,000-digit runs, ``NaN``, ``0e400``)
and, for this reader, numbers built of huge exponents, long digit strings, every Unicode decimal
digit and sign, fractions and percentages of them.
"""

from __future__ import annotations

import math
import os
import string
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qwk_explained.teaching.typed_numbers import (
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_MAGNITUDE,
    AnswerError,
    read_number,
)
from tests.hostile import HOSTILE_TEXT, assert_translated

MANY = settings(max_examples=int(os.environ.get("QWK_FUZZ_EXAMPLES", "400")), deadline=None,
                derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Every decimal digit Unicode knows (Arabic-Indic, Devanagari, full-width, mathematical...).
UNICODE_DIGITS = "".join(chr(c) for c in range(sys.maxunicode + 1)
                         if chr(c).isdecimal())
SIGNS = "+-\u2212\u2012\u2013\u2014\ufe63\uff0d\uff0b\u207a\u207b\u208a\u208b"
MARKS = ".,%/ \u00a0\u2009\u202f\u066b\u066c\u3001\uff0c\uff0e"

digit_runs = st.text(alphabet=string.digits, min_size=1, max_size=6000)
exponents = st.one_of(st.integers(-10**6, 10**6).map(str), digit_runs,
                      st.tuples(st.sampled_from("+-"), digit_runs).map("".join))
plain_numbers = st.builds(lambda sign, whole, frac, exp: f"{sign}{whole}{frac}{exp}",
                          st.sampled_from(["", "-", "+", "\u2212"]), digit_runs,
                          st.one_of(st.just(""), digit_runs.map(lambda d: "." + d),
                                    digit_runs.map(lambda d: "," + d)),
                          st.one_of(st.just(""), exponents.map(lambda e: "e" + e)))
unicode_numbers = st.text(alphabet=UNICODE_DIGITS + SIGNS + MARKS + "eE", max_size=200)
numbers = st.one_of(
    HOSTILE_TEXT,
    plain_numbers,
    unicode_numbers,
    st.tuples(plain_numbers, plain_numbers).map("/".join),
    plain_numbers.map(lambda text: text + "%"),
    plain_numbers.map(lambda text: "%" + text),
)


@MANY
@example(text="0e400", group=",")
@example(text="1e200/1e-200", group=",")
@example(text="0e" + "9" * 4301, group=",")
@example(text="9" * 4301, group=",")
@example(text="0,0e400", group=",")
@example(text="%0e400", group=",")
@example(text="1e99/1e-99", group=",")
@example(text="\u0661\u066b\u0665", group=",")  # Arabic-Indic 1.5
@example(text="１／０", group=",")
@given(text=numbers, group=st.sampled_from([",", "."]))
def test_any_text_reads_as_bounded_numbers_or_raises_its_own_translated_error(text, group):
    try:
        readings = read_number(text, group)
    except AnswerError as error:
        assert_translated(error)
        return
    assert readings
    for number in readings:
        assert math.isfinite(number.value) and abs(number.value) <= MAX_MAGNITUDE
        assert math.isfinite(number.half_unit) and number.half_unit >= 0
        assert number.significant >= 0


@pytest.mark.parametrize(("text", "code"), [
    ("0e400", "out_of_range"), ("1e200/1e-200", "out_of_range"), ("1e99/1e-99", "out_of_range"),
    (f"1e{MAX_EXPONENT + 1}", "out_of_range"), ("0e" + "9" * 4301, "too_long"),
    ("1" * (MAX_DIGITS + 1), "too_long"), ("0." + "3" * MAX_DIGITS, "too_long"),
    ("2e18", "out_of_range"),
])
def test_beyond_the_bounds_is_refused_with_its_own_code(text, code):
    with pytest.raises(AnswerError) as raised:
        read_number(text)
    assert raised.value.code == code
    assert_translated(raised.value)


@pytest.mark.parametrize(("text", "value"), [
    (f"1e-{MAX_EXPONENT}", 0.0), ("0e-99", 0.0), ("0." + "1" * (MAX_DIGITS - 1), 1 / 9),
    ("12345678901234567/1000000000000000", 12.345678901234567), ("1e18", 1e18),
])
def test_within_the_bounds_reads_as_before(text, value):
    """Long but plausible numbers still read: the bounds are far from any hand calculation."""
    assert read_number(text)[0].value == pytest.approx(value)
