"""The step-by-step page's state: the followed cell and the "what if" experiment.

Everything here works on a plain mapping (``st.session_state`` on the page, a ``dict`` in a unit
test) and returns plain values; ``pages/step_by_step.py`` calls it and draws. The step on screen
is :mod:`qwk_app.shown_step`'s (the walkthrough's presenter mode shows the same one). The state
lives under these keys:

* ``cell`` (:data:`qwk_app.widgets.CELL_KEY`): the followed cell as rating labels ``(actual,
  predicted)``, the same key the walkthrough page follows, so the cell survives a page switch. A
  link's ``?cell=``, a click on a cell of O and the two selectors all write it, and the selectors
  always agree with it.
* ``whatif_item`` and ``whatif_rating``: the item (1-based) given another prediction and that
  prediction; ``whatif_applied`` the change just written into both vectors, reported once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, UndefinedReason
from qwk_explained.teaching import cells

from . import state
from .state import Session, Settings

#: Prefix of the two cell selectors' widget keys (``step_by_step_cell_row_input``...).
CELL_PREFIX = "step_by_step_cell"
ITEM_KEY = "whatif_item"
RATING_KEY = "whatif_rating"
APPLIED_KEY = "whatif_applied"


# --- what if one item had another prediction ------------------------------------------------------


def choose(session: Session, result: Walkthrough, cell: Cell) -> None:
    """Fill the experiment's item and new rating when they are missing or off this result.

    The item starts as the first item of the followed cell (the experiment then continues that
    cell's story: move one of its items elsewhere), or item 1 when the cell is empty. The new
    rating starts as the item's actual rating, the prediction that would have agreed.
    """
    labels = [int(x) for x in result.labels]
    item = session.get(ITEM_KEY)
    if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= result.n:
        in_cell = cells.items_in_cell(result, *cell)
        session[ITEM_KEY] = int(in_cell[0]) if len(in_cell) else 1
        session.pop(RATING_KEY, None)
    if state.checked(session.get(RATING_KEY), labels) is None:
        actual = None if result.actual is None else int(result.actual[session[ITEM_KEY] - 1])
        session[RATING_KEY] = actual if actual in labels else labels[0]


@dataclass(frozen=True)
class Experiment:
    """One item given another prediction: kappa before and after, and the vectors to apply."""

    change: cells.WhatIf
    #: What "apply" writes: the actual ratings as the user typed them (or an upload's, written
    #: out), and the predicted ratings with the one change.
    actual_text: str
    predicted_text: str

    @property
    def same(self) -> bool:
        """The new rating is the item's prediction already: nothing changes."""
        return self.change.new_prediction == self.change.old_prediction

    @property
    def delta(self) -> float | None:
        """kappa after - kappa before, or ``None`` when nothing changes or either is undefined."""
        return None if self.same else self.change.change

    def undefined(self) -> list[tuple[Literal["before", "after"], UndefinedReason]]:
        """Which kappa (before, after) is undefined, and why (an "after" equal to "before" is not
        said twice)."""
        said: list[tuple[Literal["before", "after"], UndefinedReason]] = []
        kappas: tuple[tuple[Literal["before", "after"], Walkthrough], ...] = (
            ("before", self.change.before), ("after", self.change.after))
        for name, walk in kappas:
            if walk.undefined_reason is not None and not (self.same and name == "after"):
                said.append((name, walk.undefined_reason))
        return said


def experiment(session: Session, result: Walkthrough, settings: Settings) -> Experiment:
    """Recompute every step with the chosen item given the chosen rating (after :func:`choose`).

    ``settings`` are the session's, so "after" is what the walkthrough would show. They are the
    ones ``result`` was computed with unless it is an older result kept while the input has a
    problem: a rating they do not allow then raises ``InputError``.
    """
    change = cells.what_if(result, int(session[ITEM_KEY]) - 1, int(session[RATING_KEY]),
                           weights=settings.weighting(), scale=settings.scale,
                           min_rating=settings.min_rating, max_rating=settings.max_rating)
    upload = session.get("upload")
    actual = str(session.get("actual", "")) if upload is None else state.vector_text(
        upload["actual"])
    return Experiment(change, actual, state.vector_text(change.predicted))


def apply(session: Session, tried: Experiment) -> None:
    """Make the experiment real: write both rating vectors (every page then shows the new data),
    and remember the change to report it once."""
    state.set_vectors(tried.actual_text, tried.predicted_text, session=session)
    session[APPLIED_KEY] = (tried.change.item + 1, tried.change.new_prediction)


def applied(session: Session) -> tuple[int, int] | None:
    """The change just applied (item number, new rating), once: the next run forgets it."""
    change = session.pop(APPLIED_KEY, None)
    return change if isinstance(change, tuple) else None
