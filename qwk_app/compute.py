"""From the session's inputs to one Walkthrough, each problem attached to the field that caused it.

Results are cached per input (``st.cache_resource``: a Walkthrough is immutable, so every session
may share it without a copy), which keeps reruns cheap when thirty students open the same link.

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

import numpy as np
import streamlit as st

from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import Scale, Weighting
from qwk_explained.core.validate import check_pair

from . import state

#: Fields an error can belong to: a rating vector, the pair (lengths), the scale settings.
FIELDS = ("actual", "predicted", "pair", "scale")
#: A sign typed at the end, still waiting for its digits (``4, 4, -``); full-width too.
_TRAILING_SIGN = re.compile(r"(?:^|[\s,;、，；])([+\-−＋－])\s*$")


@dataclass(frozen=True)
class Outcome:
    """The walkthrough to show, the problems per field, and whether the result is an older one."""

    result: Walkthrough | None
    errors: dict[str, InputError] = field(default_factory=dict)
    stale: bool = False
    key: str = ""
    #: Fields that are only unfinished (typing in progress): shown calmly, not as errors.
    pending: frozenset[str] = frozenset()
    #: How many ratings each typed field holds right now (fields that parse).
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def typing(self) -> bool:
        """Whether the only problems are unfinished typing (no real mistake in the input)."""
        return bool(self.pending) and set(self.errors) <= self.pending


def result_key(outcome: Outcome) -> str:
    """A short name for the shown result, for caching what is derived from it (figures)."""
    return outcome.key


@st.cache_resource(max_entries=64, show_spinner=False)
def _parse(text: str) -> np.ndarray:
    values = parse_vector(text)
    values.setflags(write=False)
    return values


@st.cache_resource(max_entries=64, show_spinner=False)
def _walk(key: str, _actual: np.ndarray, _predicted: np.ndarray, weights: Weighting, scale: Scale,
          low: int | None, high: int | None) -> Walkthrough:
    # ``key`` identifies the vectors (their text, or an upload's digest); the arrays are not hashed.
    return walkthrough(_actual, _predicted, weights=weights, scale=scale,
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


def _vectors() -> tuple[np.ndarray | None, np.ndarray | None, str, dict[str, InputError],
                        set[str]]:
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        return upload["actual"], upload["predicted"], upload["digest"], {}, set()
    errors: dict[str, InputError] = {}
    pending: set[str] = set()
    arrays: dict[str, np.ndarray | None] = {}
    texts = {}
    for name in ("actual", "predicted"):
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
    key = f"{texts['actual']}\x00{texts['predicted']}"
    return arrays["actual"], arrays["predicted"], key, errors, pending


def current() -> Outcome:
    """The walkthrough for the session's current input, or the last valid one with the errors."""
    actual, predicted, key, errors, pending = _vectors()
    counts = {name: len(values) for name, values in (("actual", actual), ("predicted", predicted))
              if values is not None}
    settings = state.settings()
    result: Walkthrough | None = None
    if not errors and actual is not None and predicted is not None:
        try:
            check_pair(actual, predicted)
        except InputError as error:
            errors["pair"] = error
            pending.add("pair")  # one list is longer: the other one is still being typed
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
        return Outcome(result, key=fingerprint, pending=frozenset(pending), counts=counts)
    last = st.session_state.get("last_valid")
    if last is None:
        return Outcome(None, errors, stale=True, pending=frozenset(pending), counts=counts)
    return Outcome(last[0], errors, stale=True, key=last[1], pending=frozenset(pending),
                   counts=counts)
