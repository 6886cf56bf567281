"""From the session's inputs to one Walkthrough, each problem attached to the field that caused it.

Results are cached per input (``st.cache_resource``: a Walkthrough is immutable, so every session
may share it without a copy), which keeps reruns cheap when thirty students open the same link.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

import streamlit as st

from qwk_explained import InputError, Walkthrough, walkthrough
from qwk_explained.core.parse import IntArray, parse_vector
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.types import Scale, Weighting
from qwk_explained.core.validate import check_pair

from . import state

#: Fields an error can belong to: a rating vector, the pair (lengths), the scale settings.
Field = Literal["actual", "predicted", "pair", "scale"]


@dataclass(frozen=True)
class Outcome:
    """The walkthrough to show, the problems per field, and whether the result is an older one."""

    result: Walkthrough | None
    errors: dict[Field, InputError] = field(default_factory=dict)
    stale: bool = False
    key: str = ""


def result_key(outcome: Outcome) -> str:
    """A short name for the shown result, for caching what is derived from it (figures)."""
    return outcome.key


@st.cache_resource(max_entries=64, show_spinner=False)
def _parse(text: str) -> IntArray:
    values = parse_vector(text)
    values.setflags(write=False)
    return values


@st.cache_resource(max_entries=64, show_spinner=False)
def _walk(key: str, _actual: IntArray, _predicted: IntArray, weights: Weighting, scale: Scale,
          low: int | None, high: int | None) -> Walkthrough:
    # ``key`` identifies the vectors (their text, or an upload's digest); the arrays are not hashed.
    return walkthrough(_actual, _predicted, weights=weights, scale=scale,
                       min_rating=low, max_rating=high)


def _vectors() -> tuple[IntArray | None, IntArray | None, str, dict[Field, InputError]]:
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        return upload["actual"], upload["predicted"], upload["digest"], {}
    errors: dict[Field, InputError] = {}
    arrays: dict[str, IntArray | None] = {}
    name: Field
    for name in ("actual", "predicted"):
        try:
            arrays[name] = _parse(str(session.get(name, "")))
        except InputError as error:
            errors[name], arrays[name] = error, None
    key = f"{session.get('actual', '')}\x00{session.get('predicted', '')}"
    return arrays["actual"], arrays["predicted"], key, errors


def current() -> Outcome:
    """The walkthrough for the session's current input, or the last valid one with the errors."""
    actual, predicted, key, errors = _vectors()
    settings = state.settings()
    result: Walkthrough | None = None
    # Both vectors are there exactly when neither failed to parse.
    if not errors and actual is not None and predicted is not None:
        try:
            check_pair(actual, predicted)
        except InputError as error:
            errors["pair"] = error
        else:
            try:
                rating_scale(actual, predicted, scale=settings.scale,
                             min_rating=settings.min_rating, max_rating=settings.max_rating)
                result = _walk(key, actual, predicted, settings.weights, settings.scale,
                               settings.min_rating, settings.max_rating)
            except InputError as error:
                errors["scale"] = error
    if result is not None:
        fingerprint = hashlib.sha1(
            f"{key}\x00{settings}".encode("utf-8", "surrogatepass")).hexdigest()
        st.session_state["last_valid"] = (result, fingerprint)
        return Outcome(result, key=fingerprint)
    last = st.session_state.get("last_valid")
    if last is None:
        return Outcome(None, errors, stale=True)
    return Outcome(last[0], errors, stale=True, key=last[1])
