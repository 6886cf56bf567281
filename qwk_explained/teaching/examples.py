"""Named example rating pairs (presets) and a seeded generator of random ones.

Each document the project grew from has its worked example here (``seed_es``, ``seed_en``,
``seed_zh``, ``seed_tr``; :data:`qwk_explained.present.sources.SOURCES` names the documents), so
the app, the CLI and the tests share one copy of the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

#: The presets (``presets.<name>`` in the locales).
ExampleName = Literal["seed_es", "seed_en", "seed_zh", "seed_tr", "perfect", "full_disagreement",
                      "unused_rating", "constant", "all_zero_all_four"]


@dataclass(frozen=True)
class Example:
    """A named pair of rating vectors; ``name`` is also the locale key ``presets.<name>``."""

    name: ExampleName
    actual: tuple[int, ...]
    predicted: tuple[int, ...]


EXAMPLES: tuple[Example, ...] = (
    Example("seed_es", (4, 4, 3, 4, 4, 4, 1, 1, 2, 1), (0, 2, 1, 0, 0, 0, 1, 1, 2, 1)),
    Example("seed_en", (2, 2, 2, 3, 4, 5, 5, 5, 5, 5), (2, 2, 2, 3, 2, 1, 1, 1, 1, 3)),
    Example("seed_zh", (0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3),
            (2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3)),
    Example("seed_tr", (0, 1, 2, 2, 3, 4, 4, 4, 3, 2, 1, 0), (0, 2, 2, 2, 3, 4, 4, 3, 3, 2, 1, 0)),
    Example("perfect", (0, 1, 2, 3, 4, 4, 3, 2, 1, 0), (0, 1, 2, 3, 4, 4, 3, 2, 1, 0)),
    Example("full_disagreement", (0, 0, 0, 4, 4, 4), (4, 4, 4, 0, 0, 0)),
    Example("unused_rating", (0, 1, 3, 3, 1, 0, 3, 1, 3, 0), (0, 3, 3, 1, 1, 0, 3, 0, 3, 1)),
    Example("constant", (2, 2, 2, 2, 2), (2, 2, 2, 2, 2)),
    Example("all_zero_all_four", (0,) * 10, (4,) * 10),
)

BY_NAME: dict[str, Example] = {example.name: example for example in EXAMPLES}


def random_ratings(
    n: int, classes: int, agreement: float, seed: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Random actual ratings 0..classes-1 and predictions that agree with them to a given degree.

    Each prediction copies the actual rating with probability ``agreement``; otherwise it moves by a
    random step of one or two ratings (clipped to the scale), so disagreements stay ordinal as in
    real graders. Reproducible: the same arguments always give the same vectors.
    """
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, classes, size=n, dtype=np.int64)
    steps = rng.choice(np.array([-2, -1, 1, 2]), size=n, p=[0.15, 0.35, 0.35, 0.15])
    keep = rng.random(n) < agreement
    predicted = np.where(keep, actual, np.clip(actual + steps, 0, classes - 1)).astype(np.int64)
    return actual, predicted


#: Items in the bundled scores example: few enough that tuning cut points visibly fits noise.
SCORED_EXAMPLE_ITEMS = 200
#: Where the example's latent trait is cut into the ratings 0..4 (few 0s, as in adoption speed).
_LATENT_CUTS = (-1.6, -0.5, 0.4, 1.2)


def scored_example(n: int = SCORED_EXAMPLE_ITEMS,
                   seed: int = 0) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Actual ratings 0..4 and a regression's scores for them, as a Kaggle model outputs them.

    Each item has a trait z; its actual rating cuts z plus rating noise at fixed points, and the
    model sees z through noise of its own. The scores are the least-squares line of the rating
    on what the model sees, rounded to two decimals. Like every regressor's output they are
    shrunk towards the mean rating (the slope is below the one that would match the ratings'
    spread), so plain rounding rarely gives the extreme ratings, and cut points tuned on the
    same items fit their noise: with 200 items, cross-validation shows the gap.

    Reproducible: the same ``n`` and ``seed`` always give the same vectors (numpy's PCG64).

    >>> actual, scores = scored_example()
    >>> len(actual), np.bincount(actual).tolist()
    (200, [14, 56, 56, 42, 32])
    >>> bool(scores.min() > 0) and bool(scores.max() < 4)  # never near the extreme ratings
    True
    """
    rng = np.random.default_rng(seed)
    trait = rng.normal(size=n)
    actual = np.digitize(trait + rng.normal(scale=0.6, size=n), _LATENT_CUTS).astype(np.int64)
    seen = trait + rng.normal(scale=0.8, size=n)
    slope, intercept = np.polyfit(seen, actual, 1)
    return actual, np.round(intercept + slope * seen, 2)
