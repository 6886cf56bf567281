"""What an attacker sends, as hypothesis strategies, and the check every hostile property ends with.

The reliability review (``reliability.md``) found its crashes with input no polite fuzzer makes:
``NaN`` ids, integers of 4,301 digits, JSON nested 100,000 deep, ``"table": 5``, booleans and
masked arrays passed to the API. These strategies make such input on purpose, following
Hypothesis's own advice for trust boundaries: text from every Unicode category, huge integers and
digit strings, ``st.recursive`` JSON, floats with NaN and infinities, and Python objects of every
kind. Each property ends with :func:`assert_translated`: the only exception allowed is the
project's own (:class:`~qwk_explained.core.errors.QwkError`), and its sentence exists, with every
placeholder filled, in each of the four languages.

Default runs are small (:data:`HOSTILE`, a few seconds per property, derandomized on CI so a
failure there replays); ``QWK_FUZZ_EXAMPLES=5000 pytest -m hostile`` runs a larger search.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import json
import math
import os
import warnings

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from qwk_explained.core.errors import QwkError
from qwk_explained.present.i18n import LANGUAGES, load, t

#: Examples per hostile property (``QWK_FUZZ_EXAMPLES`` for a larger run on demand).
EXAMPLES = int(os.environ.get("QWK_FUZZ_EXAMPLES", "60"))
HOSTILE = settings(max_examples=EXAMPLES, deadline=None, derandomize=bool(os.environ.get("CI")),
                   suppress_health_check=list(HealthCheck))


def assert_translated(error: BaseException) -> None:
    """``error`` is the project's own, and says what it says in every language: its key exists in
    each locale file (no English fallback) and its parameters fill every placeholder."""
    assert isinstance(error, QwkError), f"{type(error).__name__}: {error}"
    for lang in LANGUAGES:
        assert error.key in load(lang), f"{error.key} is not translated in {lang}"
        text = t(lang, error.key, **error.params)  # KeyError: a placeholder without a value
        assert text.strip(), (lang, error.key)
    for value in error.params.values():
        if isinstance(value, QwkError):  # "{source}: {message}" nests a second sentence
            assert_translated(value)


# --- text ---------------------------------------------------------------------------------------

#: Characters that have broken parsers: separators of every script, digits that are not ASCII,
#: signs, exponents, BOMs, direction marks, line breaks Python splits on, NUL, quotes, brackets.
ODD = list("0123456789+-.,;:eE \t\n\r\x0b\x0c\x1c\x85\u2028\u2029\x00'\"[](){}_/%")
ODD += ["\ufeff", "\u200f", "\u202e", "\u3000", "、", "，", "；", "０", "９", "٣", "۴", "߂", "१",
        "½", "Ⅻ", "－", "＋", "＝", "＠", "=", "@", "∞", "İ", "ı", "ß", "🙂", "\u0301"]
HUGE_DIGITS = st.builds(lambda digit, count: digit * count, st.sampled_from("0123456789"),
                        st.integers(4290, 5200))
NUMBER_WORDS = st.sampled_from(["nan", "NaN", "-inf", "Infinity", "1e400", "0e400", "1e-400",
                                "1e200/1e-200", "0x10", "1_000", "3.0", "3,0", "-0", "+0", "007",
                                "9" * 19, "9" * 25, "-" + "9" * 25, "1" + "0" * 10, "2.5", ".5"])
HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(st.sampled_from(ODD), max_size=60),
    NUMBER_WORDS,
    HUGE_DIGITS,
    st.builds(lambda sign, digits: sign + digits + "e" + digits, st.sampled_from(["", "-", "0"]),
              HUGE_DIGITS),
    st.builds(lambda parts, separator: separator.join(parts),
              st.lists(st.one_of(NUMBER_WORDS, st.integers(-60, 60).map(str)), max_size=12),
              st.sampled_from([",", ";", "\t", " ", "\n", "\r\n", ",\n", ";;", "、", "，"])),
)

# --- JSON ---------------------------------------------------------------------------------------

class RawJson(str):
    """A JSON token written as it is (``NaN``, ``1e400``, 5,000 digits): :func:`json_text` does
    not quote it, and no Python number could hold it."""


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400"]).map(RawJson),
    st.builds(lambda sign, digits: RawJson(sign + digits), st.sampled_from(["", "-"]),
              HUGE_DIGITS),
    HOSTILE_TEXT,
)
#: Any JSON value, nested a few levels (deep nesting is made as text, see :data:`DEEP_JSON`).
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(st.text(max_size=8), children, max_size=6)),
    max_leaves=25,
)
#: Brackets nested far beyond what a parser follows, with something inside or not.
DEEP_JSON = st.builds(lambda opening, depth, inner: opening * depth + inner
                      + ("]" if opening == "[" else "}") * depth,
                      st.sampled_from(["[", '{"a":']), st.integers(900, 120_000),
                      st.sampled_from(["", "1", '"x"', "NaN"]))


def json_text(value: object) -> str:
    """``value`` as JSON text, with what ``json.dumps`` refuses to write: NaN and infinities as
    Python's ``json`` reads them (``NaN``, ``Infinity``), and :class:`RawJson` tokens as is."""
    if isinstance(value, RawJson):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, list):
        return "[" + ", ".join(json_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(key))}: {json_text(item)}"
                               for key, item in value.items()) + "}"
    return json.dumps(value)


# --- Python objects ---------------------------------------------------------------------------

def _arrays() -> st.SearchStrategy[object]:
    shapes = st.sampled_from([(0,), (1,), (3,), (2, 2), (2, 3), (3, 1), ()])
    dtypes = st.sampled_from([np.int8, np.uint8, np.int64, np.uint64, np.float16, np.float32,
                              np.float64, np.complex128, np.bool_, np.str_, object])

    def build(shape: tuple[int, ...], dtype: type, values: list[object]) -> object:
        size = int(np.prod(shape)) if shape else 1
        raw = (values * (size + 1))[:size] if values else [0] * size
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. 1e300 into float16: the point of the case
                return np.array(raw, dtype=dtype).reshape(shape)
        except (ValueError, TypeError, OverflowError):
            return np.array(raw, dtype=object).reshape(shape)

    plain = st.builds(build, shapes, dtypes, st.lists(st.one_of(
        st.integers(-5, 5), st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(2**63), 2**64 - 1), st.booleans(), st.text(max_size=3)), max_size=6))
    masked = st.builds(lambda data, mask: np.ma.masked_array(data, mask=[mask] * len(data)),
                       st.lists(st.integers(0, 4), min_size=1, max_size=5), st.booleans())
    return st.one_of(plain, masked)


#: What a caller might pass as ratings, a table, weights or a bound: JSON-like values, numpy
#: arrays of every dtype (masked too), and objects numpy makes 0-d or object arrays of.
PYTHON_VALUES = st.one_of(
    JSON_VALUES,
    _arrays(),
    st.lists(st.one_of(st.integers(-3, 3), st.booleans()), max_size=6),
    st.lists(st.lists(st.integers(0, 5), max_size=4), max_size=4),  # ragged or square
    st.sampled_from([{1: 2}, {1, 2}, frozenset(), b"1 2", bytearray(b"3"), range(3), 1j,
                     [1j, 2], decimal.Decimal("2"), decimal.Decimal("NaN"),
                     fractions.Fraction(1, 2), datetime.date(2024, 1, 1), object(),
                     np.float16(1e4), np.bool_(True)]),
    st.builds(lambda n: (i % 3 for i in range(n)), st.integers(0, 5)),  # a generator
)
