"""The "From scores to ratings" page's state: the data, the cut points, and what was tried.

A learner brings actual ratings and a model's continuous scores (typed, an uploaded file of two
columns, or the bundled example), moves the N - 1 cut points that turn the scores into ratings,
and watches O, kappa and every step follow; three buttons place the cut points by plain rounding,
by quantiles, or by the optimizer, whose cross-validation says how much of its kappa is real.

Everything lives under ``thresholds_*`` keys of a session mapping (``st.session_state`` in the
app, a dict in the tests), so it survives a language switch and a visit to another page:

- ``thresholds_actual`` and ``thresholds_scores``: the typed texts (their widgets add
  ``_input``); ``thresholds_arrays``: the example or file shown instead when it is too long to
  type (``{"name", "actual", "scores", "digest"}``, this session's alone);
- ``thresholds_cuts``: the cut points shown, for the data named by ``thresholds_for``;
  ``thresholds_tried``: what the buttons gave on those data; ``thresholds_search``: the
  optimizer's last result on them;
- ``thresholds_note``: what the last move of a cut point did; ``thresholds_upload_error``;
- ``thresholds_memo``: the data and the walkthrough last computed, so that a rerun (a moved cut
  point) does not read or count anything twice. A session's data leave with the session.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal, get_args

import numpy as np

from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import IntArray, parse_vector
from qwk_explained.core.scores import FloatArray, parse_scored_csv, parse_scores
from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.thresholds import (
    Thresholds,
    apply_thresholds,
    check_scores,
    optimize_thresholds,
    quantile_cuts,
    rounding_cuts,
)
from qwk_explained.core.types import Weighting
from qwk_explained.present.score_chart import ScoreHistograms, score_histograms
from qwk_explained.present.thresholds import format_cut
from qwk_explained.teaching.examples import SCORED_EXAMPLE_ITEMS, scored_example

from .state import Session

ACTUAL, SCORES = "thresholds_actual", "thresholds_scores"
ARRAYS, CUTS, FOR, TRIED = ("thresholds_arrays", "thresholds_cuts", "thresholds_for",
                            "thresholds_tried")
SEARCH, NOTE, UPLOAD_ERROR, MEMO = ("thresholds_search", "thresholds_note",
                                    "thresholds_upload_error", "thresholds_memo")
EXAMPLE_SIZE, FOLDS, SEED = "thresholds_example_size", "thresholds_folds", "thresholds_seed"
UPLOAD, WEIGHTS = "thresholds_upload", "thresholds_weights"
#: The result shown last (with what it was for), and the last change: the result before it, and
#: what it led to.
KAPPA_SHOWN, KAPPA_CHANGE = "thresholds_kappa_shown", "thresholds_kappa_change"
#: Why the optimizer's last run could not cross-validate (it then ran without).
SEARCH_ERROR = "thresholds_search_error"
#: The last data that could be used, shown (and said to be) while the input has a problem.
LAST_VALID = "thresholds_last_valid"

#: Sizes of the example a learner can load: the one where tuning visibly overfits, one where it
#: does less, and one as large as a Kaggle validation set (where moving a cut is measured).
EXAMPLE_SIZES: tuple[int, ...] = (SCORED_EXAMPLE_ITEMS, 2_000, 100_000)
#: The cross-validation's choices of folds (0: none).
FOLD_CHOICES: tuple[int, ...] = (0, 2, 3, 5, 10)
DEFAULT_FOLDS = 5
#: Data this long go into the two fields, where they stay editable; longer ones are kept as
#: arrays (a text field of 100,000 numbers is no place to edit).
AS_TEXT_MAX = SCORED_EXAMPLE_ITEMS
#: Positions of a cut point's slider between the lowest and the highest score.
SLIDER_STEPS = 400
#: The problems a field can have: a bad rating, a bad score, or the two together (lengths...).
Field = Literal["actual", "scores", "pair"]
#: What places the cut points.
Method = Literal["rounding", "quantiles", "optimizer"]
METHODS: tuple[Method, ...] = get_args(Method)
#: What the last move of a cut point did: it stopped at a neighbour.
Note = Literal["clamped"]
_CUT_MESSAGE = re.compile(r"^(\d{1,2}):([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,3})?)$")


@dataclass(frozen=True, eq=False)
class Scored:
    """Ratings and scores that passed every check, and what the page draws from them."""

    actual: IntArray
    scores: FloatArray
    labels: IntArray
    digest: str
    histograms: ScoreHistograms

    @property
    def min_rating(self) -> int:
        return int(self.labels[0])

    @property
    def max_rating(self) -> int:
        return int(self.labels[-1])

    @property
    def cut_count(self) -> int:
        return len(self.labels) - 1

    @cached_property
    def distinct(self) -> int:
        """How many different scores (a sort of every score: once per data, not per move)."""
        return len(np.unique(self.scores))

    def score_range(self, cuts: tuple[float, ...]) -> tuple[float, float]:
        """The ends of a cut point's slider: the scores' range, widened to hold every cut."""
        return (min(float(self.scores.min()), *cuts), max(float(self.scores.max()), *cuts))


@dataclass(frozen=True)
class Tried:
    """What one button gave: its cut points, their kappa, and the cross-validated kappa (the
    optimizer only)."""

    method: Method
    cuts: tuple[float, ...]
    kappa: float | None
    cv_kappa: float | None = None


def digest_of(*arrays: np.ndarray) -> str:
    """A digest of the arrays' bytes: what names the data in the memo."""
    hasher = hashlib.blake2b(digest_size=20)
    for array in arrays:
        hasher.update(np.ascontiguousarray(array).data)
        hasher.update(b"|")
    return hasher.hexdigest()


def _memo(session: Session) -> dict[str, Any]:
    memo = session.get(MEMO)
    if not isinstance(memo, dict):
        memo = session[MEMO] = {}
    return memo


def _scored(session: Session, actual: IntArray, scores: FloatArray) -> Scored:
    """The data, checked, with its histograms; computed once per content."""
    digest = digest_of(actual, scores)
    memo = _memo(session)
    kept = memo.get("data")
    if isinstance(kept, Scored) and kept.digest == digest:
        return kept
    ratings, values, labels = check_scores(actual, scores)
    for array in (ratings, values):
        array.setflags(write=False)
    data = Scored(ratings, values, labels, digest,
                  score_histograms(ratings, values, min_rating=int(labels[0]),
                                   max_rating=int(labels[-1])))
    memo["data"] = data
    return data


def current(session: Session) -> tuple[Scored | None, dict[Field, InputError], bool]:
    """The data to show, the problems per field, and whether the data are an older valid set
    (the input has a problem, and the last valid data stay on screen)."""
    errors: dict[Field, InputError] = {}
    arrays = session.get(ARRAYS)
    actual: IntArray | None = None
    scores: FloatArray | None = None
    if isinstance(arrays, dict):
        actual, scores = arrays["actual"], arrays["scores"]
    else:
        try:
            actual = parse_vector(str(session.get(ACTUAL, "")))
        except InputError as error:
            errors["actual"] = error
        try:
            scores = parse_scores(str(session.get(SCORES, "")))
        except InputError as error:
            errors["scores"] = error
    if actual is not None and scores is not None:
        try:
            data = _scored(session, actual, scores)
        except InputError as error:
            errors["pair"] = error
        else:
            session[LAST_VALID] = data
            return data, errors, False
    last = session.get(LAST_VALID)
    return (last if isinstance(last, Scored) else None), errors, True


# --- the inputs ---------------------------------------------------------------------------------

def _as_text(values: np.ndarray) -> str:
    return ", ".join(repr(float(v)) if values.dtype.kind == "f" else str(int(v)) for v in values)


def _show(session: Session, actual: IntArray, scores: FloatArray, name: str) -> None:
    """Show these data: in the fields when they are short enough to edit, else as arrays."""
    if len(actual) <= AS_TEXT_MAX:
        session[ARRAYS] = None
        for key, text in ((ACTUAL, _as_text(actual)), (SCORES, _as_text(scores))):
            session[key] = session[f"{key}_input"] = text
        return
    actual.setflags(write=False)
    scores.setflags(write=False)
    session[ARRAYS] = {"name": name, "actual": actual, "scores": scores,
                       "digest": digest_of(actual, scores)}


def start(session: Session) -> None:
    """A first visit: the bundled example, so the page has something to show."""
    if ACTUAL not in session:
        session[EXAMPLE_SIZE] = SCORED_EXAMPLE_ITEMS
        session[FOLDS] = DEFAULT_FOLDS
        session[SEED] = 0
        actual, scores = scored_example()
        _show(session, actual, scores, "")


def load_example(session: Session) -> None:
    """The example button: the bundled regression at the chosen size (a size that is not one of
    the choices, from a forged message, loads the default one)."""
    size = session.get(EXAMPLE_SIZE)
    if not (type(size) is int and size in EXAMPLE_SIZES):
        size = session[EXAMPLE_SIZE] = SCORED_EXAMPLE_ITEMS
    actual, scores = scored_example(size)
    _show(session, actual, scores, str(size))


def typed(session: Session, key: str) -> None:
    """A text field's ``on_change``: its text is the data again (an example or file shown as
    arrays gives way to what is typed)."""
    session[key] = str(session.get(f"{key}_input", ""))
    session[ARRAYS] = None


def clear_arrays(session: Session) -> None:
    """Back to the typed values (kept while the example or the file was shown)."""
    session[ARRAYS] = None


def take_upload(session: Session) -> None:
    """The uploader's ``on_change``: a file of two columns (rating, score) becomes the data, or
    its problem is kept for the page to show beside the uploader."""
    session[UPLOAD_ERROR] = None
    upload = session.get(UPLOAD)
    if upload is None:
        return
    try:
        columns = parse_scored_csv(upload.getvalue())
        check_scores(columns.actual, columns.scores)
    except InputError as error:
        session[UPLOAD_ERROR] = error
        return
    _show(session, columns.actual, columns.scores, str(upload.name))


# --- the cut points -----------------------------------------------------------------------------

def cuts(session: Session, data: Scored, weights: Weighting) -> tuple[float, ...]:
    """The cut points shown for ``data``: plain rounding on new data (what a learner would do
    first), kept while the data stay the same. What was tried belongs to the data and the
    weighting: either changing clears it."""
    shown = session.get(CUTS)
    if session.get(FOR) != data.digest or not isinstance(shown, tuple) or len(shown) != (
            data.cut_count):
        shown = rounding_cuts(data.min_rating, data.max_rating)
        session[CUTS], session[FOR], session[NOTE] = shown, data.digest, None
        session[TRIED], session[SEARCH], session[WEIGHTS] = [], None, weights
    if session.get(WEIGHTS) != weights:
        session[TRIED], session[SEARCH], session[WEIGHTS] = [], None, weights
    return shown


def slider_key(k: int) -> str:
    return f"thresholds_cut_{k}"


def move(session: Session, k: int, value: float) -> None:
    """Move cut point ``k`` to ``value``, stopped at its neighbours: cut points never cross."""
    shown = session.get(CUTS)
    if not isinstance(shown, tuple) or not 0 <= k < len(shown) or not math.isfinite(value):
        return
    low = shown[k - 1] if k > 0 else -math.inf
    high = shown[k + 1] if k + 1 < len(shown) else math.inf
    placed = min(max(value, low), high)
    session[CUTS] = (*shown[:k], placed, *shown[k + 1:])
    session[NOTE] = "clamped" if placed != value else None


def slid(session: Session, k: int) -> None:
    """Slider ``k``'s ``on_change``: its value moves the cut point."""
    value = session.get(slider_key(k))
    if isinstance(value, int | float) and not isinstance(value, bool):
        move(session, k, float(value))


def dragged(session: Session, message: str) -> None:
    """The chart's ``on_cut``: ``"k:value"`` from the browser (untrusted: anything else is
    ignored)."""
    match = _CUT_MESSAGE.match(message) if isinstance(message, str) else None
    if match is not None:
        move(session, int(match[1]), float(match[2]))


def slider_options(data: Scored, shown: tuple[float, ...], k: int) -> list[float]:
    """Slider ``k``'s positions: a regular grid over the scores' range, and the cut's own value
    (a cut placed by a button or a drag sits between the grid's positions)."""
    low, high = data.score_range(shown)
    grid = np.round(np.linspace(low, high, SLIDER_STEPS + 1), 6).tolist()
    return sorted({*grid, shown[k]})


@lru_cache(maxsize=8 * (SLIDER_STEPS + 2))
def slider_label(value: float, lang: str) -> str:
    """A slider position as the language writes it: each slider labels its 401 positions on
    every move of a cut point, and the grid stays the same while the data do."""
    return format_cut(value, lang)


def folds(session: Session) -> int:
    value = session.get(FOLDS)
    return value if type(value) is int and value in FOLD_CHOICES else DEFAULT_FOLDS


def seed(session: Session) -> int:
    value = session.get(SEED)
    return value if type(value) is int and 0 <= value < 2**31 else 0


def kappa_of(data: Scored, shown: tuple[float, ...], weights: Weighting) -> Walkthrough:
    """Every step of kappa for the ratings these cut points give."""
    predicted = apply_thresholds(data.scores, shown, min_rating=data.min_rating)
    return walkthrough(data.actual, predicted, weights=weights, min_rating=data.min_rating,
                       max_rating=data.max_rating)


def shown_result(session: Session, data: Scored, shown: tuple[float, ...],
                 weights: Weighting) -> Walkthrough:
    """:func:`kappa_of`, once per data, cut points and weighting (a rerun for anything else,
    a click on a cell, reuses it)."""
    key = (data.digest, shown, weights)
    memo = _memo(session)
    kept = memo.get("walk")
    if isinstance(kept, tuple) and kept[0] == key:
        result: Walkthrough = kept[1]
        return result
    result = kappa_of(data, shown, weights)
    memo["walk"] = (key, result)
    return result


def last_change(session: Session, data: Scored, shown: tuple[float, ...], weights: Weighting,
                result: Walkthrough) -> tuple[Walkthrough | None, bool]:
    """The result before the last change of the cut points (or of the weighting, or the data)
    that led to ``result``, and whether this run made that change (its changed cells are then
    outlined, as on the walkthrough); ``(None, False)`` before any change. A rerun for anything
    else (a click on a cell) keeps the change, no longer fresh."""
    now = (data.digest, shown, weights)
    shown_before = session.get(KAPPA_SHOWN)
    session[KAPPA_SHOWN] = (now, result)
    if isinstance(shown_before, tuple) and shown_before[0] != now:
        session[KAPPA_CHANGE] = (shown_before[1], now)
        return shown_before[1], True
    change = session.get(KAPPA_CHANGE)
    if isinstance(change, tuple) and change[1] == now:
        before: Walkthrough = change[0]
        return before, False
    return None, False


def choose(session: Session, method: Method, data: Scored, weights: Weighting) -> None:
    """A button: place the cut points by ``method``, and add the result to those tried."""
    search: Thresholds | None = None
    if method == "rounding":
        placed = rounding_cuts(data.min_rating, data.max_rating)
    elif method == "quantiles":
        placed = quantile_cuts(data.actual, data.scores)
    else:
        session[SEARCH_ERROR] = None
        try:
            search = optimize_thresholds(data.actual, data.scores, weights=weights,
                                         folds=folds(session), seed=seed(session))
        except InputError as error:  # too few items of a rating, or of all, for the folds
            session[SEARCH_ERROR] = error
            search = optimize_thresholds(data.actual, data.scores, weights=weights, folds=0)
        placed = search.cuts
        session[SEARCH] = search
    session[CUTS], session[FOR], session[NOTE] = placed, data.digest, None
    kappa = kappa_of(data, placed, weights).kappa
    tried = [entry for entry in session.get(TRIED) or [] if entry.method != method]
    tried.append(Tried(method, placed, kappa, None if search is None else search.cv_kappa))
    session[TRIED] = tried

