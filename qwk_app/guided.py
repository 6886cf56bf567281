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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, UndefinedReason
from qwk_explained.present import formulas
from qwk_explained.present.catalogue import STEPS, StepSlug
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_label, format_number, format_percent
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


# --- what the page writes about the followed cell -------------------------------------------------

#: How a line is drawn: a paragraph, a formula, or a small note.
LineKind = Literal["markdown", "latex", "caption"]
Line = tuple[LineKind, str]


def items_text(result: Walkthrough, cell: Cell, lang: str) -> str:
    """Which items fall in ``cell`` (numbered from 1 in the order of the lists; the first
    :data:`~qwk_explained.teaching.cells.ITEMS_SHOWN` and how many more), or that none does."""
    i, j = cell
    shown, more = cells.capped(cells.items_in_cell(result, i, j))
    if not shown:
        return t(lang, "guided.cell_no_items", row=format_label(result.labels[i], lang),
                 col=format_label(result.labels[j], lang))
    listed = t(lang, "guided.item_separator").join(format_label(k, lang) for k in shown)
    if more:
        return t(lang, "guided.cell_items_more", items=listed, more=format_number(more, lang))
    return t(lang, "guided.cell_items", items=listed)


def cell_lines(result: Walkthrough, cell: Cell, step: int, lang: str) -> list[Line]:
    """The followed cell's story so far: its items, then its arithmetic for each step done.

    O_ij from the observed step, w_ij from the weights, the two histogram entries h^a_i and h^p_j
    from the histograms, E_ij from the expected matrix, and from the weighted sums the cell's share
    of num and of den (how much of the observed and of the chance disagreement this one cell
    carries; none when that sum is 0). Steps are named by slug: the catalogue numbers them.
    """
    i, j = cell
    reached = {done.slug for done in STEPS[:step]}
    lines: list[Line] = [("markdown", items_text(result, cell, lang))]
    lines.append(("latex", formulas.observed_cell(result, i, j, lang)))
    if "weights" in reached:
        lines.append(("latex", formulas.weights_cell(result, i, j, lang)))
    if "histograms" in reached:
        lines.append(("latex", formulas.histogram_cell(result, i, lang, "a")))
        lines.append(("latex", formulas.histogram_cell(result, j, lang, "p")))
    if "expected" in reached:
        lines.append(("latex", formulas.expected_cell(result, i, j, lang)))
    if "sums" in reached:
        num_share, den_share = cells.cell_shares(result, i, j)
        for sum_name, share, latex in (
                ("num", num_share, formulas.numerator_share_latex(result, i, j, lang)),
                ("den", den_share, formulas.denominator_share_latex(result, i, j, lang))):
            if share is None or latex is None:
                lines.append(("markdown", t(lang, f"guided.share_{sum_name}_zero")))
            else:
                lines.append(("latex", latex))
                lines.append(("markdown", t(lang, f"guided.share_{sum_name}_text",
                                            share=format_percent(share, lang))))
    if step < TOTAL:
        lines.append(("caption", t(lang, "guided.cell_later")))
    return lines


#: What each step already done leaves for the followed cell, in one line or two. Kappa is the
#: last step, so it is never a step done before the one on screen.
_DONE: dict[StepSlug, Callable[[Walkthrough, Cell, str], tuple[str, ...]]] = {
    "observed": lambda w, cell, lang: (formulas.observed_cell(w, *cell, lang),),
    "weights": lambda w, cell, lang: (formulas.weights_cell(w, *cell, lang),),
    "histograms": lambda w, cell, lang: (formulas.histogram_vectors(w, lang),),
    "expected": lambda w, cell, lang: (formulas.expected_cell(w, *cell, lang),),
    "normalization": lambda w, cell, lang: (formulas.normalization_cell(w, *cell, lang),),
    "sums": lambda w, cell, lang: (formulas.numerator_plugged(w, lang, max_terms=2),
                                   formulas.denominator_plugged(w, lang, max_terms=2)),
}


def done_so_far(result: Walkthrough, cell: Cell, step: int, lang: str) -> list[Line]:
    """Each step before ``step``: its heading (bold), then its result for the cell (LaTeX)."""
    lines: list[Line] = []
    for done in STEPS[:step - 1]:
        lines.append(("markdown", f"**{done.heading(lang)}**"))
        lines.extend(("latex", latex) for latex in _DONE[done.slug](result, cell, lang))
    return lines


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
