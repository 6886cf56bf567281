"""The same ratings under each convention that implementations of weighted kappa use.

Implementations disagree for a handful of reasons, each a choice (or a slip) in one step:

``range``
    Every rating from the lowest to the highest is a row of O, used or not (Ben Hamner's Kaggle
    reference code; scikit-learn when ``labels=`` lists the whole range). The reference here.
``observed``
    Only ratings that occur are rows (scikit-learn's ``cohen_kappa_score`` without ``labels=``).
    Weights come from *positions*, so an unused rating in the middle moves its neighbours closer.
``fixed_n``
    A scale fixed in advance at 0..N-1 (N = 5 in the seed notebooks' ``quadratic_kappa``). Empty
    ratings at the ends change nothing, but a rating outside 0..N-1 has no row.
``seed_code``
    The seeds' own ``quadratic_kappa(actuals, preds, N=5)``, replayed step by step: O from
    ``sklearn.metrics.confusion_matrix(actuals, preds)`` *without* ``labels=`` (rows for the
    ratings that occur only), histograms indexed by the rating value (``np.zeros(N)[rating]``),
    weights for N = 5. It works only when the ratings are exactly 0..4.
``e_unnormalized``
    E left as the outer product of the histograms, without dividing by n: it adds up to n^2 while
    O adds up to n, so the denominator is n times too large.

:func:`compare` computes every row with this package's engine (or an exact replay of the seed
code); :func:`sklearn_check` runs scikit-learn live, imported lazily so the package never needs it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_RATINGS
from qwk_explained.core.parse import IntArray
from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import Cell, RatingsLike, Weighting
from qwk_explained.core.validate import check_pair, int_ratings

from .interpret import DECIMALS

#: The conventions compared, in the order of the pitfalls table (the module docstring says each).
Convention = Literal["range", "observed", "fixed_n", "seed_code", "e_unnormalized"]
#: What a convention gave: a kappa, 0/0, or no result at all (the code would raise).
Status = Literal["ok", "undefined", "error"]
#: Why a convention gives what it gives (``pitfalls.reason.<reason>`` in the locales).
Reason = Literal[
    "range", "observed_same", "observed_gap", "observed_gap_unweighted", "observed_gap_even",
    "observed_gap_same", "fixed_same", "fixed_above", "fixed_below", "fixed_far_below", "seed_ok",
    "seed_hist_index",
    "seed_matrix_small", "seed_negative", "e_counts", "undefined", "scale_error",
]
CONVENTIONS: tuple[Convention, ...] = get_args(Convention)
REASONS: tuple[Reason, ...] = get_args(Reason)
#: N in the seed notebooks' ``quadratic_kappa(actuals, preds, N=5)`` (PetFinder ratings 0..4).
SEED_N = 5
#: Above this many items scikit-learn gets one weighted sample per distinct pair (same result,
#: exact integer weights) instead of millions of single samples.
SKLEARN_COMPRESS_ABOVE = 100_000
#: How each weighting is spelled in ``cohen_kappa_score(weights=...)``.
SKLEARN_WEIGHTS: dict[Weighting, str | None] = {"quadratic": "quadratic", "linear": "linear",
                                                "unweighted": None}


@dataclass(frozen=True)
class Row:
    """One convention's result and the reason it differs (or not) from the full range.

    ``status`` is ``"ok"``, ``"undefined"`` (0/0) or ``"error"`` (the convention cannot handle
    these ratings). ``reason`` is a code (``pitfalls.reason.<reason>`` in the locales) with its
    ``params``; ``raises`` names the Python exception the code would raise (``IndexError``), and
    ``problem`` is this package's own input error when there is one.
    """

    code: Convention
    kappa: float | None
    status: Status
    reason: Reason
    params: dict[str, Any] = field(default_factory=dict)
    raises: str | None = None
    problem: InputError | None = None


@dataclass(frozen=True)
class Comparison:
    """Every convention for one pair of rating vectors and one weighting."""

    weights: Weighting
    n: int
    low: int
    high: int
    used: tuple[int, ...]
    unused: tuple[int, ...]
    rows: tuple[Row, ...]

    def row(self, code: Convention) -> Row:
        """The row of one convention."""
        return next(row for row in self.rows if row.code == code)


def _status(kappa: float | None) -> Status:
    return "ok" if kappa is not None else "undefined"


def _range_row(result: Walkthrough | None, problem: InputError | None) -> Row:
    if result is None:
        return Row("range", None, "error", "scale_error", problem=problem)
    if result.kappa is None:
        return Row("range", None, "undefined", "undefined")
    low, high = int(result.labels[0]), int(result.labels[-1])
    return Row("range", result.kappa, "ok", "range", {"low": low, "high": high,
                                                      "size": result.size})


def _observed_row(a: IntArray, b: IntArray, weights: Weighting, unused: tuple[int, ...],
                  reference: float | None) -> Row:
    try:
        result = walkthrough(a, b, weights=weights, scale="observed")
    except InputError as problem:
        return Row("observed", None, "error", "scale_error", problem=problem)
    if result.kappa is None:
        return Row("observed", None, "undefined", "undefined")
    if not unused:
        return Row("observed", result.kappa, "ok", "observed_same")
    params = {"unused": unused}
    if reference is None or round(result.kappa, DECIMALS) != round(reference, DECIMALS):
        return Row("observed", result.kappa, "ok", "observed_gap", params)
    # Same value although ratings left the scale: say why, so the reader does not generalise.
    reason: Reason
    if weights == "unweighted":
        reason = "observed_gap_unweighted"  # every disagreement costs 1: distances do not matter
    elif len(set(np.diff(result.labels).tolist())) == 1:
        reason = "observed_gap_even"  # every distance shrinks by the same factor, which cancels
    else:
        reason = "observed_gap_same"
    return Row("observed", result.kappa, "ok", reason, params)


def _fixed_row(a: IntArray, b: IntArray, weights: Weighting, size: int) -> Row:
    top = size - 1
    try:
        result = walkthrough(a, b, weights=weights, scale="range", min_rating=0, max_rating=top)
    except InputError as problem:
        if problem.code not in ("above_scale", "below_scale"):
            return Row("fixed_n", None, "error", "scale_error", problem=problem)
        # np.zeros(size)[rating], rating by rating (actual ratings first), stops at the first
        # rating >= size or < -size: a negative index wraps only down to -size. Which rating
        # that is decides the row, not which check the engine happened to run first.
        stopper = next((int(r) for r in (*a.tolist(), *b.tolist()) if r > top or r < -size),
                       None)
        if stopper is not None and stopper > top:
            return Row("fixed_n", None, "error", "fixed_above",
                       {"rating": stopper, "top": top, "size": size}, raises="IndexError",
                       problem=problem)
        if stopper is not None:
            return Row("fixed_n", None, "error", "fixed_far_below",
                       {"rating": stopper, "top": top, "size": size}, raises="IndexError",
                       problem=problem)
        rating = int(problem.params["value"])
        return Row("fixed_n", None, "error", "fixed_below",
                   {"rating": rating, "top": top, "size": size}, problem=problem)
    if result.kappa is None:
        return Row("fixed_n", None, "undefined", "undefined")
    return Row("fixed_n", result.kappa, "ok", "fixed_same", {"top": top, "size": size})


@dataclass(frozen=True)
class SeedRun:
    """What the seeds' ``quadratic_kappa(actuals, preds, N)`` returns or raises, and why."""

    kappa: float | None
    status: Status
    reason: Reason
    params: dict[str, Any]
    raises: str | None = None


def seed_quadratic_kappa(actual: RatingsLike, predicted: RatingsLike,
                         n_classes: int = SEED_N) -> SeedRun:
    """Replay the seed notebooks' ``quadratic_kappa(actuals, preds, N)`` exactly, without sklearn.

    The seed code, in order: ``O = confusion_matrix(actuals, preds)`` (a K x K matrix over the K
    ratings that occur, sorted), ``act_hist[item] += 1`` on ``np.zeros(N)`` for every rating (an
    ``IndexError`` for a rating >= N or < -N; a negative rating silently counts from the end),
    the same for the predictions, ``E = outer / sum``, ``O = O / sum``, then a double loop over
    ``range(N)`` reading ``O[i][j]`` (an ``IndexError`` when K < N; only the top-left N x N block
    when K > N). Returns the value it would return, or the exception it would raise, with a reason.

    >>> seed_quadratic_kappa([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 0]).status
    'ok'
    >>> run = seed_quadratic_kappa([0] * 10, [4] * 10)  # the seed's own "-1" example
    >>> run.raises, run.reason, run.params["rows"]
    ('IndexError', 'seed_matrix_small', 2)
    """
    a, b = int_ratings(actual), int_ratings(predicted)
    check_pair(a, b)
    size = int(n_classes)
    labels = np.union1d(a, b)
    k = len(labels)
    for values in (a, b):  # act_hist first, then pred_hist, item by item
        bad = (values >= size) | (values < -size)
        if bad.any():
            rating = int(values[int(np.argmax(bad))])
            return SeedRun(None, "error", "seed_hist_index",
                           {"rating": rating, "size": size, "top": size - 1}, "IndexError")
    if k < size:
        return SeedRun(None, "error", "seed_matrix_small",
                       {"rows": k, "size": size, "ratings": tuple(int(x) for x in labels)},
                       "IndexError")
    ia, ib = np.searchsorted(labels, a), np.searchsorted(labels, b)
    observed = np.bincount(ia * k + ib, minlength=k * k).reshape(k, k).astype(np.float64)
    hist_a = np.bincount(a % size, minlength=size).astype(np.float64)  # Python's negative index
    hist_b = np.bincount(b % size, minlength=size).astype(np.float64)
    expected = np.outer(hist_a, hist_b)
    expected /= expected.sum()
    observed /= observed.sum()
    positions = np.arange(size, dtype=np.float64)
    w = (positions[:, None] - positions[None, :]) ** 2 / (size - 1) ** 2
    numerator = float((w * observed[:size, :size]).sum())
    denominator = float((w * expected).sum())
    kappa = None if denominator == 0 else 1.0 - numerator / denominator
    negative = np.concatenate([a[a < 0], b[b < 0]])
    if negative.size:
        rating = int(negative[0])
        return SeedRun(kappa, _status(kappa), "seed_negative",
                       {"rating": rating, "position": rating % size, "size": size})
    if kappa is None:
        return SeedRun(None, "undefined", "undefined", {})
    return SeedRun(kappa, "ok", "seed_ok", {"top": size - 1, "size": size})


def _seed_row(a: IntArray, b: IntArray, size: int) -> Row:
    run = seed_quadratic_kappa(a, b, size)
    return Row("seed_code", run.kappa, run.status, run.reason, run.params, raises=run.raises)


def unnormalized_e_kappa(result: Walkthrough) -> float | None:
    """Kappa when E is the plain outer product of the histograms (sum n^2) and O the counts (sum n).

    Both sums should have the same total; here the denominator is n times too large, so the
    result is 1 - (num/den)/n instead of 1 - num/den. ``None`` when the denominator is 0.

    >>> from qwk_explained import walkthrough
    >>> round(unnormalized_e_kappa(walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1],
    ...                                        [0, 2, 1, 0, 0, 0, 1, 1, 2, 1])), 4)
    0.8861
    """
    outer = np.outer(result.actual_hist, result.predicted_hist).astype(np.float64)
    numerator = float((result.weights * result.observed).sum())
    denominator = float((result.weights * outer).sum())
    return None if denominator == 0 else 1.0 - numerator / denominator


def _e_row(result: Walkthrough | None, problem: InputError | None) -> Row:
    if result is None:
        return Row("e_unnormalized", None, "error", "scale_error", problem=problem)
    kappa = unnormalized_e_kappa(result)
    if kappa is None or result.kappa is None:
        return Row("e_unnormalized", kappa, _status(kappa), "undefined")
    return Row("e_unnormalized", kappa, "ok", "e_counts",
               {"n": result.n, "n_squared": result.n * result.n,
                "ratio": result.numerator / result.denominator})


def compare(actual: RatingsLike, predicted: RatingsLike, weights: Weighting = "quadratic", *,
            fixed_size: int = SEED_N) -> Comparison:
    """Kappa of one pair of rating vectors under every convention in :data:`CONVENTIONS`.

    ``weights`` applies to every row except ``seed_code``, which is quadratic by construction.

    >>> c = compare([0, 1, 3, 3, 1, 0, 3, 1, 3, 0], [0, 3, 3, 1, 1, 0, 3, 0, 3, 1])
    >>> [round(c.row(x).kappa, 4) for x in ("range", "observed", "fixed_n")], c.unused
    ([0.697, 0.7101, 0.697], (2,))
    """
    a, b = int_ratings(actual), int_ratings(predicted)
    check_pair(a, b)
    used = tuple(int(x) for x in np.union1d(np.unique(a), np.unique(b)))
    low, high = used[0], used[-1]
    full: Walkthrough | None = None
    problem: InputError | None = None
    try:
        full = walkthrough(a, b, weights=weights, scale="range")
    except InputError as error:
        problem = error
    unused: tuple[int, ...] = ()
    if full is not None:
        unused = tuple(int(x) for x in np.setdiff1d(full.labels, np.asarray(used)))
    rows = (
        _range_row(full, problem),
        _observed_row(a, b, weights, unused, None if full is None else full.kappa),
        _fixed_row(a, b, weights, fixed_size),
        _seed_row(a, b, fixed_size),
        _e_row(full, problem),
    )
    return Comparison(weights, len(a), low, high, used, unused, rows)


# --- scikit-learn, live ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SklearnRun:
    """One call of ``cohen_kappa_score``: its value (``nan`` kept as returned), the warning
    categories it emitted, whether ``labels=`` was given, and the exception name if it raised."""

    value: float | None
    warnings: tuple[str, ...]
    labels_given: bool
    raised: str | None = None

    @property
    def is_nan(self) -> bool:
        return self.value is not None and self.value != self.value


@dataclass(frozen=True)
class SklearnCheck:
    """scikit-learn's kappa with ``labels=`` the full range and without ``labels=``.

    ``available`` is False when scikit-learn cannot be imported (the app's runtime does not need
    it); ``with_labels`` is ``None`` when the full range is too long to list.
    """

    available: bool
    version: str | None = None
    with_labels: SklearnRun | None = None
    without_labels: SklearnRun | None = None


def _sklearn() -> tuple[Any, str] | None:
    try:  # here, not at the top: the package runs without scikit-learn, and it is slow to import
        import sklearn
        from sklearn.metrics import cohen_kappa_score
    except Exception:  # noqa: BLE001 - missing or broken install: the page shows a note instead
        return None
    return cohen_kappa_score, str(getattr(sklearn, "__version__", ""))


def _call(score: Any, a: IntArray, b: IntArray, weights: Weighting,
          labels: list[int] | None) -> SklearnRun:
    sample_weight = None
    if len(a) > SKLEARN_COMPRESS_ABOVE:
        pairs, counts = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
        a, b, sample_weight = pairs[:, 0], pairs[:, 1], counts.astype(np.float64)
    # catch_warnings changes process-wide state; a warning from another session's thread could
    # land here, which only adds a name to a list.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = float(score(a, b, labels=labels, weights=SKLEARN_WEIGHTS[weights],
                                sample_weight=sample_weight))
        except Exception as error:  # noqa: BLE001 - report what sklearn raised, never crash
            return SklearnRun(None, (), labels is not None, type(error).__name__)
    names = tuple(dict.fromkeys(item.category.__name__ for item in caught))
    return SklearnRun(value, names, labels is not None)


def sklearn_check(actual: RatingsLike, predicted: RatingsLike,
                  weights: Weighting = "quadratic") -> SklearnCheck:
    """Run ``sklearn.metrics.cohen_kappa_score`` on the ratings, with and without ``labels=``.

    scikit-learn is imported here, on first use, never when this module is imported.
    """
    found = _sklearn()
    if found is None:
        return SklearnCheck(False)
    score, version = found
    a, b = int_ratings(actual), int_ratings(predicted)
    check_pair(a, b)
    low, high = int(min(a.min(), b.min())), int(max(a.max(), b.max()))
    with_labels = None
    if high - low + 1 <= MAX_RATINGS:
        with_labels = _call(score, a, b, weights, list(range(low, high + 1)))
    return SklearnCheck(True, version, with_labels, _call(score, a, b, weights, None))


# --- the seed's "-1" claim ------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimCheck:
    """The seed claims all-0 actuals against all-4 predictions give -1; they give 0.

    ``claimed`` is that pair's walkthrough (kappa 0: E puts all its mass in the same off-diagonal
    cell as O, so observed and chance disagreement are equal); ``opposite`` is a pair that does
    give -1 (each rater uses both ends, always the opposite one).
    """

    claimed: Walkthrough
    opposite: Walkthrough
    cell: Cell


def seed_claim(claimed: tuple[RatingsLike, RatingsLike],
               opposite: tuple[RatingsLike, RatingsLike],
               weights: Weighting = "quadratic") -> ClaimCheck:
    """Walkthroughs of the claimed pair and of a pair with kappa -1, and the claimed pair's cell.

    >>> from qwk_explained.teaching.examples import BY_NAME
    >>> z, f = BY_NAME["all_zero_all_four"], BY_NAME["full_disagreement"]
    >>> check = seed_claim((z.actual, z.predicted), (f.actual, f.predicted))
    >>> check.claimed.kappa, check.opposite.kappa, check.cell
    (0.0, -1.0, (0, 4))
    """
    first = walkthrough(*claimed, weights=weights)
    second = walkthrough(*opposite, weights=weights)
    i, j = (int(x) for x in np.unravel_index(int(np.argmax(first.observed)),
                                             first.observed.shape))
    return ClaimCheck(first, second, (i, j))
