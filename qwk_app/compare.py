"""The comparison page's glue: three typed columns, or one uploaded CSV of three, to one paired
comparison of two models (:func:`qwk_explained.core.paired.compare`), each problem attached to
the field it comes from.

The comparison is cached by a digest of its inputs (``st.cache_resource``: a
:class:`~qwk_explained.core.paired.Comparison` is never changed, so sessions share it), so a
rerun that changes nothing, or a class that pastes the same columns, costs no resampling. The
typed texts live under canonical session keys (:func:`qwk_app.state.bind`): switching pages or
languages keeps them, and an uploaded file is read beside them without overwriting them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import streamlit as st

from qwk_explained.core.csvfile import parse_csv
from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import DEFAULT_RESAMPLES
from qwk_explained.core.paired import Comparison, compare

from . import state
from .state import Session

Column = Literal["actual", "model_a", "model_b"]
COLUMNS: tuple[Column, ...] = ("actual", "model_a", "model_b")
#: Where a problem is shown: under a column's field, under the three (lengths, scale), under the
#: uploader, or under the resampling settings.
Place = Literal["actual", "model_a", "model_b", "columns", "upload", "settings"]
#: Canonical session keys of the page's inputs (their widgets are ``<key>_input``).
TEXT_KEYS: dict[Column, str] = {column: f"compare_{column}" for column in COLUMNS}
RESAMPLES, SEED, UPLOAD = "compare_resamples", "compare_seed", "compare_upload"
#: What a first visit shows: issue 21's seed (model A) and a model B that fixes two of its
#: mistakes, so the page explains a real comparison before anything is typed.
EXAMPLE: dict[Column, str] = {
    "actual": "4, 4, 3, 4, 4, 4, 1, 1, 2, 1, 3, 2, 0, 4, 3",
    "model_a": "0, 2, 1, 0, 0, 0, 1, 1, 2, 1, 3, 2, 0, 4, 2",
    "model_b": "3, 4, 2, 4, 3, 4, 1, 2, 2, 1, 3, 2, 1, 4, 3",
}
#: Characters a typed field may hold (about 300,000 one-digit ratings): a paste cannot pin the
#: server's memory; larger data goes through the uploader, whose size Streamlit caps.
MAX_TEXT_CHARS = 1_000_000
#: Problems a column's own reading raises, by the column.
_COLUMN_CODES: dict[str, Column] = {f"in_{column}": column for column in COLUMNS}


@dataclass(frozen=True)
class Outcome:
    """The comparison to show (``None`` while a problem stands) and the problems, by place."""

    comparison: Comparison | None
    errors: dict[Place, InputError] = field(default_factory=dict)
    #: The uploaded file's name, when its three columns are the ones compared.
    upload: str | None = None


def init(session: Session) -> None:
    """Fill the canonical keys on a first visit (the example, the default B and seed)."""
    for column in COLUMNS:
        session.setdefault(TEXT_KEYS[column], EXAMPLE[column])
    session.setdefault(RESAMPLES, DEFAULT_RESAMPLES)
    session.setdefault(SEED, 0)


#: Comparisons kept: each holds its columns (up to about 100 MB for the largest upload), so the
#: server's memory stays bounded however many different comparisons sessions ask for.
CACHED_COMPARISONS = 4


@st.cache_resource(max_entries=CACHED_COMPARISONS, ttl=600, show_spinner=False)
def _compare(key: str, _columns: tuple[Any, Any, Any], settings: state.Settings, resamples: int,
             seed: int) -> Comparison:
    # ``key`` is the columns' digest; the columns themselves are not hashed.
    return compare(*_columns, weights=settings.weighting(), scale=settings.scale,
                   min_rating=settings.min_rating, max_rating=settings.max_rating,
                   resamples=resamples, seed=seed)


def _digest(parts: tuple[Any, ...]) -> str:
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        hasher.update(part.tobytes() if isinstance(part, np.ndarray) else str(part).encode())
        hasher.update(b"\x00")
    return hasher.hexdigest()


def uploaded_columns(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three columns of an uploaded CSV; any other width is refused with its count."""
    columns = parse_csv(data, max_columns=3).columns
    if len(columns) != 3:
        raise InputError("compare_upload_columns", count=len(columns))
    return columns[0], columns[1], columns[2]


def current(session: Session) -> Outcome:
    """The comparison of the session's inputs, or the problems that stop it."""
    columns: tuple[Any, Any, Any] = tuple(session[TEXT_KEYS[column]] for column in COLUMNS)
    upload = session.get(UPLOAD)
    name = None
    if upload is not None:
        try:
            columns = uploaded_columns(upload.getvalue())
        except InputError as error:
            return Outcome(None, {"upload": error})
        name = upload.name
    settings = state.settings(session)
    try:
        comparison = _compare(_digest((*columns, settings)), columns, settings,
                              session[RESAMPLES], session[SEED])
    except InputError as error:
        return Outcome(None, {_place(error): error}, name)
    return Outcome(comparison, {}, name)


def _place(error: InputError) -> Place:
    if error.code in _COLUMN_CODES:
        return _COLUMN_CODES[error.code]
    if error.code in ("bad_resamples", "bad_seed"):
        return "settings"
    return "columns"
