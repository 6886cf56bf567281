"""Which step is on screen: the step-by-step page and presenter mode show the same one.

On a plain mapping (``st.session_state`` on a page, a ``dict`` in a unit test), under the key
``shown_step``: 1..7 (:data:`~qwk_explained.present.catalogue.STEPS`). A shared link's ``?step=``
sets it on the session's first run only; from then on the previous and next buttons move it.
"""

from __future__ import annotations

from typing import NamedTuple

from qwk_explained.present.catalogue import STEPS

from . import links, state
from .state import Session

STEP_KEY = "shown_step"
TOTAL = len(STEPS)


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
