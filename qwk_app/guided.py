"""The step-by-step page's state: the step shown, the followed cell and the "what if" experiment.

Everything here works on a plain mapping (``st.session_state`` on the page, a ``dict`` in a unit
test) and returns plain values; ``pages/guided.py`` calls it and draws. The state lives under
these keys:

* ``guided_step``: the step on screen, 1..7 (:data:`STEPS`). A shared link's ``?step=`` sets it
  on the session's first run only; from then on the previous and next buttons move it, here and
  in the walkthrough's presenter mode, which shows the same step.
* ``cell`` (:data:`qwk_app.widgets.CELL_KEY`): the followed cell as rating labels ``(actual,
  predicted)``, the same key the walkthrough page follows, so the cell survives a page switch. A
  link's ``?cell=``, a click on a cell of O and the two selectors all write it, and the selectors
  always agree with it.
* ``guided_whatif_item`` and ``guided_whatif_rating``: the item (1-based) given another
  prediction and that prediction; ``guided_applied`` the change just written into both vectors,
  reported once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, UndefinedReason
from qwk_explained.present.catalogue import STEPS
from qwk_explained.teaching import cells

from . import links, state
from .state import Session, Settings

STEP_KEY = "guided_step"
#: Prefix of the two cell selectors' widget keys (``guided_cell_row_input``...).
CELL_PREFIX = "guided_cell"
ITEM_KEY = "guided_whatif_item"
RATING_KEY = "guided_whatif_rating"
APPLIED_KEY = "guided_applied"
TOTAL = len(STEPS)


# --- the step number ------------------------------------------------------------------------------


class StepShown(NamedTuple):
    """The step to show, and whether the link asked for a step that does not exist."""

    number: int
    bad_link: bool


def _stored_step(session: Session) -> int:
    step = session.get(STEP_KEY)
    # bool is an int too, but no step number.
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= TOTAL:
        return 1
    return step


def current_step(session: Session) -> StepShown:
    """The step to show: from a shared link on the session's first run, then from the session.

    The link is read once (``state.url_value`` forgets it), so a step that does not exist is
    reported on that run only and step 1 is shown instead. Whatever the session holds, the
    step is always 1..7 and stored back.
    """
    link = state.url_value("step", session=session)
    bad_link = False
    if link is not None:
        parsed = links.parse_step(link, TOTAL)
        bad_link = parsed is None
        session[STEP_KEY] = parsed or 1
    step = _stored_step(session)
    session[STEP_KEY] = step
    return StepShown(step, bad_link)


def move(session: Session, delta: int) -> None:
    """The previous (``-1``) or next (``+1``) step, staying at step 1 and at the last step."""
    session[STEP_KEY] = min(max(_stored_step(session) + delta, 1), TOTAL)


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
    if session.get(RATING_KEY) not in labels:
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
                           weights=settings.weights, scale=settings.scale,
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
