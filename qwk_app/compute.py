"""From the session's inputs to one Walkthrough, each problem attached to the field that caused it.

Results are cached per input (``st.cache_resource``: a Walkthrough is immutable, so every session
may share it without a copy), which keeps reruns cheap when thirty students open the same link.
What the pages derive from a result (the theory page's checks, the pitfalls page's conventions
and scikit-learn's answers, the checker's tables and worksheets) is cached here too, by the
result's key: a page computes nothing itself.

The rating fields update the page while the learner types (a moment after each pause), so most
inputs seen here are half-typed: ``4, 4, `` has fewer ratings than the other list, ``4, 4, -`` ends
in a sign still waiting for its digits. Those are not mistakes: a lone sign at the end is set
aside, different lengths keep the last complete result on screen, and the fields concerned are
listed in :attr:`Outcome.pending`, which the page shows calmly, not as an error.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np
import streamlit as st

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import DEFAULT_RESAMPLES
from qwk_explained.core.parse import IntArray, parse_vector
from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.steps import Walkthrough, walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.core.types import RatingsLike, Scale, Weighting
from qwk_explained.core.validate import check_pair
from qwk_explained.present import worksheet
from qwk_explained.teaching import conventions, theory

from . import state

#: Fields an error can belong to: a rating vector, the pair (lengths), the scale settings.
Field = Literal["actual", "predicted", "pair", "scale"]
FIELDS: tuple[Field, ...] = get_args(Field)
#: The fields that hold a typed vector.
Vector = Literal["actual", "predicted"]
#: A sign typed at the end, still waiting for its digits (``4, 4, -``); full-width too.
_TRAILING_SIGN = re.compile(r"(?:^|[\s,;、，；])([+\-−＋－])\s*$")


@dataclass(frozen=True)
class Outcome:
    """The walkthrough to show, the problems per field, and whether the result is an older one."""

    result: Walkthrough | None
    errors: dict[Field, InputError] = field(default_factory=dict)
    stale: bool = False
    key: str = ""
    #: Fields that are only unfinished (typing in progress): shown calmly, not as errors.
    pending: frozenset[Field] = frozenset()
    #: How many ratings each typed field holds right now (fields that parse).
    counts: dict[Vector, int] = field(default_factory=dict)

    @property
    def typing(self) -> bool:
        """Whether the only problems are unfinished typing (no real mistake in the input)."""
        return bool(self.pending) and set(self.errors) <= self.pending


@st.cache_resource(max_entries=64, show_spinner=False)
def _parse(text: str) -> np.ndarray:
    values = parse_vector(text)
    values.setflags(write=False)
    return values


@st.cache_resource(max_entries=64, show_spinner=False)
def _walk(key: str, _actual: np.ndarray, _predicted: np.ndarray, settings: state.Settings,
          _weights: Weighting | np.ndarray, scale: Scale, low: int | None,
          high: int | None) -> Walkthrough:
    # ``key`` identifies the vectors (their text, or an upload's digest), ``settings`` the weights
    # (a custom matrix by its text); the arrays are not hashed.
    return walkthrough(_actual, _predicted, weights=_weights, scale=scale,
                       min_rating=low, max_rating=high)


def typed_text(text: str) -> tuple[str, bool]:
    """The part of a typed vector that can be read now, and whether a sign was set aside.

    >>> typed_text("4, 4, -"), typed_text("4, -4"), typed_text("-")
    (('4, 4,', True), ('4, -4', False), ('', True))
    """
    match = _TRAILING_SIGN.search(text)
    if match is None:
        return text, False
    return text[:match.start(1)].rstrip(), True


def _vectors() -> tuple[np.ndarray | None, np.ndarray | None, str, dict[Field, InputError],
                        set[Field]]:
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        return upload["actual"], upload["predicted"], upload["digest"], {}, set()
    errors: dict[Field, InputError] = {}
    pending: set[Field] = set()
    arrays: dict[Vector, np.ndarray | None] = {}
    texts = {}
    for name in get_args(Vector):
        text, unfinished = typed_text(str(session.get(name, "")))
        texts[name] = text
        if unfinished:
            pending.add(name)
        try:
            arrays[name] = _parse(text)
        except InputError as error:
            errors[name], arrays[name] = error, None
            if unfinished and error.code == "empty":
                pending.add(name)  # "-" alone: the first rating is being typed
    actual, predicted = arrays["actual"], arrays["predicted"]
    if actual is None or predicted is None:
        key = f"{texts['actual']}\x00{texts['predicted']}"
    else:  # by value: "4, 4," and "4,4" are the same ratings, the same result, no change
        key = ratings_key(actual, predicted)
    return actual, predicted, key, errors, pending


def ratings_key(actual: np.ndarray, predicted: np.ndarray) -> str:
    """A digest of two rating vectors' values: what names their result in the caches.

    Hashed in place (``.data`` is a memoryview of the array, no copy: an upload holds millions of
    ratings); hashlib lets other sessions run meanwhile. The first vector's length comes first,
    so no two pairs give the same bytes.
    """
    hasher = hashlib.blake2b(len(actual).to_bytes(8, "little"), digest_size=20)
    hasher.update(np.ascontiguousarray(actual, dtype=np.int64).data)
    hasher.update(np.ascontiguousarray(predicted, dtype=np.int64).data)
    return hasher.hexdigest()


def current() -> Outcome:
    """The walkthrough for the session's current input, or the last valid one with the errors."""
    actual, predicted, key, errors, pending = _vectors()
    vectors: tuple[tuple[Vector, np.ndarray | None], ...] = (("actual", actual),
                                                             ("predicted", predicted))
    counts = {name: len(values) for name, values in vectors if values is not None}
    settings = state.settings()
    result: Walkthrough | None = None
    if not errors and actual is not None and predicted is not None:
        try:
            check_pair(actual, predicted)
        except InputError as error:
            errors["pair"] = error
            pending.add("pair")  # one list is longer: the other one is still being typed
            st.session_state[state.LENGTHS_DIFFERED] = True
        else:
            try:
                labels = rating_scale(actual, predicted, scale=settings.scale,
                                      min_rating=settings.min_rating,
                                      max_rating=settings.max_rating)
                # A custom matrix of another size than the scale's is a problem of the settings.
                result = _walk(key, actual, predicted, settings, settings.weighting(len(labels)),
                               settings.scale, settings.min_rating, settings.max_rating)
            except InputError as error:
                errors["scale"] = error
    if result is not None:
        fingerprint = hashlib.sha1(
            f"{key}\x00{settings}".encode("utf-8", "surrogatepass")).hexdigest()
        st.session_state[state.LAST_VALID] = (result, fingerprint)
        return Outcome(result, key=fingerprint, pending=frozenset(pending), counts=counts)
    last = st.session_state.get(state.LAST_VALID)
    if last is None:
        return Outcome(None, errors, stale=True, pending=frozenset(pending), counts=counts)
    return Outcome(last[0], errors, stale=True, key=last[1], pending=frozenset(pending),
                   counts=counts)


# --- what the pages derive from a result (``key``: the result's, so the result is not hashed) ---


def ratings(result: Walkthrough) -> tuple[IntArray, IntArray]:
    """The two rating vectors behind a result of the shared vectors (the pages that read them
    never see a typed table, whose result has no ratings)."""
    if result.actual is None or result.predicted is None:
        raise ValueError("this result was computed from a table, not from ratings")
    return result.actual, result.predicted


@st.cache_resource(max_entries=64, show_spinner=False)
def bootstrap(key: str, _result: Walkthrough) -> Bootstrap | None:
    """The bootstrap of the result's kappa (2,000 resamples, seed 0: the same on every visit and
    in every shared link), computed once per result."""
    return _result.bootstrap(DEFAULT_RESAMPLES, seed=0)


@st.cache_resource(max_entries=64, show_spinner=False)
def closed_form(key: str, _result: Walkthrough) -> theory.ClosedFormCheck:
    """Lin's closed form on the result's ratings, beside the matrix route (the theory page)."""
    return theory.check_closed_form(*ratings(_result))


@st.cache_resource(max_entries=64, show_spinner=False)
def kappa_by_weighting(key: str, _result: Walkthrough) -> dict[Weighting, float | None]:
    """Kappa of the result's ratings under each weighting (the theory page's scales)."""
    return theory.kappa_by_weighting(_result)


@st.cache_resource(max_entries=64, show_spinner=False)
def rescaling(key: str, _result: Walkthrough, factor: float) -> tuple[theory.RescaledSums, ...]:
    """num, den and kappa with w rescaled by ``factor`` (the theory page's invariance)."""
    return theory.rescaling(_result, factor)


@st.cache_resource(max_entries=64, show_spinner=False)
def conventions_table(key: str, _result: Walkthrough,
                      weights: Weighting) -> conventions.Comparison:
    """Kappa of the result's ratings under every convention (the pitfalls page)."""
    return conventions.compare(*ratings(_result), weights)


@st.cache_resource(max_entries=64, show_spinner=False)
def sklearn_check(key: str, _actual: RatingsLike, _predicted: RatingsLike,
                  weights: Weighting) -> conventions.SklearnCheck:
    """scikit-learn's kappa on the ratings named ``key``, run once per input: ten million items
    (an upload) take seconds, and the page reruns on every click."""
    return conventions.sklearn_check(_actual, _predicted, weights)


def canonical_table(table: np.ndarray) -> str:
    """A table as it goes into a link: ``0,4,1;0,8,0;0,1,5``."""
    return ";".join(",".join(str(int(v)) for v in row) for row in table)


@st.cache_resource(max_entries=64, show_spinner=False)
def table_result(text: str, first: int,
                 settings: state.Settings) -> tuple[Walkthrough, str]:
    """The walkthrough of a typed table whose rows are the ratings first, first + 1, ... and the
    table as it goes into a link, with the session's weights. Raises the table's (or a custom
    matrix's) :class:`InputError`."""
    counts = parse_table(text)
    labels = np.arange(first, first + counts.shape[0])
    return (walkthrough_from_table(counts, weights=settings.weighting(len(labels)), labels=labels),
            canonical_table(counts))


@st.cache_data(max_entries=64, show_spinner=False)
def worksheets(key: str, _result: Walkthrough, lang: str,
               _source: worksheet.Source) -> dict[str, str]:
    """The four downloads for one result and language (``key`` names the result and source)."""
    return {"md": worksheet.markdown(_result, lang, _source),
            "tex": worksheet.latex_document(_result, lang, _source),
            "csv": worksheet.matrices_csv(_result),
            "py": worksheet.python_snippet(_result, lang, _source)}
