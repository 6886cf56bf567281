"""Limits on user input: how many ratings, items and how large a rating may be.

Every limit is checked where the input is read, so the engine never sees a 10^12 rating or a
50,000-rating scale; each breach raises an :class:`~qwk_explained.core.errors.InputError` naming it.
"""

from __future__ import annotations

#: Most distinct ratings on one scale: a 50 x 50 matrix is still readable; more is no rating scale.
MAX_RATINGS = 50
#: Most items in one vector: 10 million int64 ratings are 80 MB, about the most a page should hold.
MAX_ITEMS = 10_000_000
#: Largest absolute rating accepted: ratings are small; this keeps arithmetic far from overflow.
MAX_ABS_RATING = 1_000_000_000
#: Largest absolute score (a regressor's output, cut into ratings): scores live on the ratings'
#: scale or near it; the same bound keeps every midpoint and half-gap between scores finite.
MAX_ABS_SCORE = 1e9
#: Most folds of the cut points' cross-validation: 20 already leave 95 % of the items to fit on;
#: more only multiply the time (each fold is one more search).
MAX_FOLDS = 20
#: Largest seed of the random generator accepted (numpy takes any non-negative integer; a seed
#: typed by a person fits in 63 bits).
MAX_SEED = 2**63 - 1
#: Largest count accepted in one cell of a contingency table.
MAX_CELL_COUNT = MAX_ITEMS

#: Fewest and most resamples of a bootstrap or a permutation test: fewer than 100 cannot place a
#: 95 % interval's ends; 100,000 already fix them to the third decimal, and more would only let
#: one request hold the server for long.
MIN_RESAMPLES = 100
MAX_RESAMPLES = 100_000
#: Resamples drawn when the caller does not say: the ends of a 95 % interval to about 0.01 of
#: kappa's spread, in a fraction of a second whatever n is.
DEFAULT_RESAMPLES = 2000
#: Largest seed of the random generator accepted (numpy takes any non-negative integer; a seed
#: typed by a person fits in 63 bits).
MAX_SEED = 2**63 - 1
