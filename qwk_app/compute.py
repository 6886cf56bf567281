"""From the session's inputs to one Walkthrough, each problem attached to the field that caused it.

Everything costly is computed once per input (:func:`cached`): the parsed vectors, the walkthrough
and what the pages derive from it (the theory page's checks, the pitfalls page's conventions and
scikit-learn's answers, the checker's tables and worksheets); a page computes nothing itself.
A cached result is found by the *content* of its inputs, never by a key built by hand: a typed
text by its characters, the ratings by :attr:`Ratings.digest`, a walkthrough by
:attr:`~qwk_explained.core.steps.Walkthrough.digest` (its scale, O, w and ratings), and every
setting by value, so a setting cannot be left out of a key.

Memory is bounded by what an input weighs, not only by a number of entries. An input of at most
:data:`SHARED_MAX_ITEMS` ratings (every shared link, everything a class types) goes to caches
shared by all sessions (a Walkthrough is immutable, so thirty students opening the same link
share one), at most :data:`SHARED_ENTRIES` entries each, expiring after :data:`SHARED_TTL_S`.
A larger one (a long paste, an upload) is one session's own: its results go to caches scoped to
that session (the last :data:`SESSION_ENTRIES` per function), which Streamlit empties as soon as
the session's connection closes.

The rating fields update the page while the learner types (a moment after each pause), so most
inputs seen here are half-typed: ``4, 4, `` has fewer ratings than the other list, ``4, 4, -`` ends
in a sign still waiting for its digits. Those are not mistakes: a lone sign at the end is set
aside, different lengths keep the last complete result on screen, and the fields concerned are
listed in :attr:`Outcome.pending`, which the page shows calmly, not as an error.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal, ParamSpec, TypeVar, get_args

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import DEFAULT_RESAMPLES
from qwk_explained.core.parse import IntArray, parse_vector
from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.steps import Walkthrough, hash_values, walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.core.types import Weighting
from qwk_explained.core.validate import check_pair
from qwk_explained.present import worksheet
from qwk_explained.teaching import conventions, theory
from qwk_explained.teaching.examples import BY_NAME

from . import state
from .state import Settings

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
    #: Fields that are only unfinished (typing in progress): shown calmly, not as errors.
    pending: frozenset[Field] = frozenset()
    #: How many ratings each typed field holds right now (fields that parse).
    counts: dict[Vector, int] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What names the result shown (its digest; empty when there is none): it changes
        exactly when the result does."""
        return "" if self.result is None else self.result.digest

    @property
    def typing(self) -> bool:
        """Whether the only problems are unfinished typing (no real mistake in the input)."""
        return bool(self.pending) and set(self.errors) <= self.pending


@dataclass(frozen=True, eq=False)
class Ratings:
    """The two rating vectors of the session, read-only, and ``digest``, a digest of their values
    (:func:`ratings_key`) that names them in the caches."""

    actual: IntArray
    predicted: IntArray
    digest: str

    @property
    def size(self) -> int:
        return len(self.actual)


# --- caching on content, bounded by what an input weighs -----------------------------------------

#: Inputs up to this many ratings (or typed texts up to :data:`SHARED_MAX_CHARS`) are cached for
#: every session; anything larger is a session's own. At 16 bytes a pair, a cache entry then
#: holds at most about 0.2 MB of ratings, and all the caches together a few tens of MB.
SHARED_MAX_ITEMS = 10_000
#: Longest typed vector parsed into the shared cache (10,000 ratings and separators, and more).
SHARED_MAX_CHARS = 50_000
#: Longest text a rating field takes (``max_chars``: Streamlit's browser code drops a longer paste,
#: keeping the field's text; the server cuts a longer text from another client there). Every
#: rerun sends both fields in one websocket message, and Streamlit closes the connection, losing
#: the session, on a message over ``server.maxWidgetStateSize`` (50 MB in .streamlit/config.toml):
#: two fields of at most 4 bytes a character stay under it. 6,000,000 characters hold 2,000,000
#: one-digit ratings ("3, "); longer vectors are uploaded.
TYPED_MAX_CHARS = 6_000_000
#: The most one-digit ratings a rating field holds written as the app writes them (``3, ``: three
#: characters a rating, the last without its separator), what its help text states.
TYPED_MAX_RATINGS = (TYPED_MAX_CHARS + 1) // 3
#: Entries per shared cache, and how long an entry nobody asks for again is kept (a class's
#: shared link is asked for every second while the class works; afterwards it can go).
SHARED_ENTRIES = 64
SHARED_TTL_S = 600
#: Entries per session-scoped cache: the current input and the one before (two typed fields, or
#: a setting switched back and forth). Streamlit empties these caches when the session's
#: connection closes.
SESSION_ENTRIES = 2

#: How a cached function's arguments are named by content (Streamlit hashes the rest by value).
#: Streamlit matches these types exactly: a subclass (the notebook's walkthrough) would be
#: hashed whole, which is slow but still correct.
HASH_FUNCS: dict[Any, Callable[[Any], Any]] = {Walkthrough: attrgetter("digest"),
                                                Ratings: attrgetter("digest")}

P = ParamSpec("P")
R = TypeVar("R")


def _large(value: object) -> bool:
    """Whether an argument is one session's own input, too large for the shared caches."""
    if isinstance(value, Walkthrough):
        return value.actual is not None and value.n > SHARED_MAX_ITEMS
    if isinstance(value, Ratings):
        return value.size > SHARED_MAX_ITEMS
    return isinstance(value, str) and len(value) > SHARED_MAX_CHARS


def cached(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` computed once per content of its arguments (see the module's docstring): in
    a cache shared by every session for small inputs, in a cache of the session's own for large
    ones (outside a script run, where there is no session, a large input is not cached)."""
    options: dict[str, Any] = {"show_spinner": False, "hash_funcs": HASH_FUNCS}
    shared = st.cache_resource(max_entries=SHARED_ENTRIES, ttl=SHARED_TTL_S,
                               **options)(function)
    own = st.cache_resource(max_entries=SESSION_ENTRIES, scope="session", **options)(function)

    @functools.wraps(function)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        if not any(_large(value) for value in (*args, *kwargs.values())):
            return shared(*args, **kwargs)
        if get_script_run_ctx() is None:
            return function(*args, **kwargs)
        return own(*args, **kwargs)

    def clear() -> None:
        shared.clear()
        if get_script_run_ctx() is not None:
            own.clear()

    call.clear = clear  # type: ignore[attr-defined]
    return call


def _parse_now(text: str) -> IntArray:
    # A long plain paste goes to a C reader that lets the other sessions run while it reads
    # (core.plain); the careful reader only runs to explain a failure.
    values = parse_vector(text)
    values.setflags(write=False)
    return values


_parse = cached(_parse_now)

#: The session's long typed texts (longer than :data:`SHARED_MAX_CHARS`) and what each read as
#: (its ratings or its problem), by field. A long text is found again by comparing it with the
#: one kept, one pass over it without a copy, on every rerun while it stays in the field; a cache
#: would hash it (Streamlit encodes, copies and hashes a string argument: a few copies of 6 MB per
#: field and rerun, holding every other session), and would read a text that fails again on
#: every rerun. Kept in the session, so it leaves with it.
_LONG_TEXTS = "_qwk_long_texts"
#: The session's last :class:`Ratings`: the same two arrays again (a rerun that changed neither
#: field) keep their digest instead of hashing millions of ratings again.
_LAST_RATINGS = "_qwk_last_ratings"


def _read(name: Vector, text: str) -> IntArray:
    """The ratings typed in field ``name``, or its :class:`InputError`: from the shared cache for
    a short text, from the session's :data:`_LONG_TEXTS` for a long one."""
    if get_script_run_ctx() is None:
        return _parse(text)
    kept: dict[Vector, tuple[str, IntArray | InputError]] = (
        st.session_state.setdefault(_LONG_TEXTS, {}))
    if len(text) <= SHARED_MAX_CHARS:
        kept.pop(name, None)  # a long text replaced: it goes now, not with the session
        return _parse(text)
    if name in kept and kept[name][0] == text:
        found = kept[name][1]
    else:
        try:
            found = _parse_now(text)
        except InputError as error:
            found = error
        kept[name] = (text, found)
    if isinstance(found, InputError):
        raise found
    return found


@cached
def _walk(ratings: Ratings, settings: Settings) -> Walkthrough:
    # ``settings`` names a custom matrix by its text, checked against the scale by the caller.
    return walkthrough(ratings.actual, ratings.predicted, weights=settings.weighting(),
                       scale=settings.scale, min_rating=settings.min_rating,
                       max_rating=settings.max_rating)


# --- the session's input ----------------------------------------------------------------------

def typed_text(text: str) -> tuple[str, bool]:
    """The part of a typed vector that can be read now, and whether a sign was set aside.

    Only the end of the text is searched: a paste of millions of ratings was scanned whole, 0.4 s
    holding every other session of the server.

    >>> typed_text("4, 4, -"), typed_text("4, -4"), typed_text("-"), typed_text(" - ")
    (('4, 4,', True), ('4, -4', False), ('', True), ('', True))
    >>> typed_text("4\\n－ \\n"), typed_text("4-"), typed_text("4,\\t+")
    (('4', True), ('4-', False), ('4,', True))
    """
    # The sign is the last character but trailing spaces, and the one before it a separator.
    match = _TRAILING_SIGN.search(text, max(0, len(text.rstrip()) - 2))
    if match is None:
        return text, False
    return text[:match.start(1)].rstrip(), True


def _vectors() -> tuple[Ratings | None, dict[Vector, int], dict[Field, InputError], set[Field]]:
    """The session's ratings (``None`` while a field has a problem), how many ratings each
    field holds, the problems and the fields still being typed."""
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        ratings = Ratings(upload["actual"], upload["predicted"], "upload:" + upload["digest"])
        return ratings, {"actual": ratings.size, "predicted": ratings.size}, {}, set()
    errors: dict[Field, InputError] = {}
    pending: set[Field] = set()
    arrays: dict[Vector, IntArray] = {}
    for name in get_args(Vector):
        text, unfinished = typed_text(str(session.get(name, "")))
        if len(text) >= TYPED_MAX_CHARS:  # full: a longer text was cut (Streamlit cuts it)
            errors[name] = InputError("text_too_long", limit=TYPED_MAX_CHARS)
            continue
        if unfinished:
            pending.add(name)
        try:
            arrays[name] = _read(name, text)
        except InputError as error:
            errors[name] = error
            if unfinished and error.code == "empty":
                pending.add(name)  # "-" alone: the first rating is being typed
    counts: dict[Vector, int] = {name: len(values) for name, values in arrays.items()}
    if errors:
        return None, counts, errors, pending
    # By value: "4, 4," and "4,4" are the same ratings, one cache entry and no change measured.
    actual, predicted = arrays["actual"], arrays["predicted"]
    last = session.get(_LAST_RATINGS)
    if last is None or last.actual is not actual or last.predicted is not predicted:
        # (read-only arrays: the same objects hold the same values)
        last = session[_LAST_RATINGS] = Ratings(actual, predicted,
                                                "values:" + ratings_key(actual, predicted))
    return last, counts, errors, pending


def ratings_key(actual: np.ndarray, predicted: np.ndarray) -> str:
    """A digest of two rating vectors' values: what names them in the caches.

    Each vector is hashed with its shape, as a byte a rating when they fit (an upload holds
    millions of ratings: :func:`~qwk_explained.core.steps.hash_values`), so no two pairs give
    the same bytes; hashlib lets other sessions run meanwhile.
    """
    hasher = hashlib.blake2b(digest_size=20)
    hash_values(hasher, np.asarray(actual, dtype=np.int64))
    hash_values(hasher, np.asarray(predicted, dtype=np.int64))
    return hasher.hexdigest()


def current() -> Outcome:
    """The walkthrough for the session's current input, or the last valid one with the errors.

    The result shown is kept in the session (:data:`qwk_app.state.LAST_VALID`): it stays on
    screen while the input has a problem, and an explicit range starts from its scale.
    """
    ratings, counts, errors, pending = _vectors()
    settings = state.settings()
    result: Walkthrough | None = None
    if ratings is not None:
        try:
            check_pair(ratings.actual, ratings.predicted)
        except InputError as error:
            errors["pair"] = error
            pending.add("pair")  # one list is longer: the other one is still being typed
            st.session_state[state.LENGTHS_DIFFERED] = True
        else:
            try:
                labels = rating_scale(ratings.actual, ratings.predicted, scale=settings.scale,
                                      min_rating=settings.min_rating,
                                      max_rating=settings.max_rating)
                # A custom matrix of another size than the scale's is a problem of the settings.
                settings.weighting(len(labels))
                result = _walk(ratings, settings)
            except InputError as error:
                errors["scale"] = error
    if result is not None:
        st.session_state[state.LAST_VALID] = result
        return Outcome(result, pending=frozenset(pending), counts=counts)
    return Outcome(st.session_state.get(state.LAST_VALID), errors, stale=True,
                   pending=frozenset(pending), counts=counts)


# --- what the pages derive from a result --------------------------------------------------------


def ratings(result: Walkthrough) -> tuple[IntArray, IntArray]:
    """The two rating vectors behind a result of the shared vectors (the pages that read them
    never see a typed table, whose result has no ratings)."""
    if result.actual is None or result.predicted is None:
        raise ValueError("this result was computed from a table, not from ratings")
    return result.actual, result.predicted


@cached
def bootstrap(result: Walkthrough) -> Bootstrap | None:
    """The bootstrap of the result's kappa (2,000 resamples, seed 0: the same on every visit and
    in every shared link), computed once per result."""
    return result.bootstrap(DEFAULT_RESAMPLES, seed=0)


@cached
def closed_form(result: Walkthrough) -> theory.ClosedFormCheck:
    """Lin's closed form on the result's ratings, beside the matrix route (the theory page)."""
    return theory.check_closed_form(*ratings(result))


@cached
def kappa_by_weighting(result: Walkthrough) -> dict[Weighting, float | None]:
    """Kappa of the result's ratings under each weighting (the theory page's scales)."""
    return theory.kappa_by_weighting(result)


@cached
def rescaling(result: Walkthrough, factor: float) -> tuple[theory.RescaledSums, ...]:
    """num, den and kappa with w rescaled by ``factor`` (the theory page's invariance)."""
    return theory.rescaling(result, factor)


@cached
def conventions_table(result: Walkthrough, weights: Weighting) -> conventions.Comparison:
    """Kappa of the result's ratings under every convention (the pitfalls page)."""
    return conventions.compare(*ratings(result), weights)


@cached
def sklearn_check(result: Walkthrough, weights: Weighting) -> conventions.SklearnCheck:
    """scikit-learn's kappa on the result's ratings, run once per input: ten million items (an
    upload) take seconds, and the page reruns on every click."""
    return conventions.sklearn_check(*ratings(result), weights)


@cached
def example_sklearn_check(name: str, weights: Weighting) -> conventions.SklearnCheck:
    """scikit-learn's kappa on one of the named examples (:data:`BY_NAME`)."""
    example = BY_NAME[name]
    return conventions.sklearn_check(example.actual, example.predicted, weights)


def canonical_table(table: np.ndarray) -> str:
    """A table as it goes into a link: ``0,4,1;0,8,0;0,1,5``."""
    return ";".join(",".join(str(int(v)) for v in row) for row in table)


@cached
def table_result(text: str, first: int, settings: Settings) -> tuple[Walkthrough, str]:
    """The walkthrough of a typed table whose rows are the ratings first, first + 1, ... and the
    table as it goes into a link, with the session's weights. Raises the table's (or a custom
    matrix's) :class:`InputError`."""
    counts = parse_table(text)
    labels = np.arange(first, first + counts.shape[0])
    return (walkthrough_from_table(counts, weights=settings.weighting(len(labels)), labels=labels),
            canonical_table(counts))


@cached
def worksheets(result: Walkthrough, lang: str, source: worksheet.Source) -> dict[str, str]:
    """The four downloads for one result, language and description of where it came from."""
    return {"md": worksheet.markdown(result, lang, source),
            "tex": worksheet.latex_document(result, lang, source),
            "csv": worksheet.matrices_csv(result),
            "py": worksheet.python_snippet(result, lang, source)}
