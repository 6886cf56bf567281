"""The walkthrough's statistics section: how sure one can be of this kappa.

The section's words and formulas are the outline's (:func:`qwk_explained.present.uncertainty.
uncertainty_blocks`, as the terminal and the worksheets write them); here they get what only a
page has: the bootstrap computed once per result (:func:`qwk_app.compute.bootstrap`) and a
kappa0 of the learner's own to test against (``?kappa0=0.6`` in a link), kept as a number in the
session so a language switch keeps it.
"""

from __future__ import annotations

import streamlit as st

from qwk_explained.core.errors import InputError
from qwk_explained.core.stats import KappaStatistics, check_kappa0
from qwk_explained.core.steps import Walkthrough
from qwk_explained.present.uncertainty import uncertainty_blocks

from . import compute, render, state
from .state import Session
from .text import show_error, tr

#: The session's kappa0 (a float in [-1, 1]); its widget is ``kappa0_input``.
KAPPA0 = "kappa0"
#: What a first visit tests against: "is agreement at least substantial?" (Landis and Koch).
DEFAULT_KAPPA0 = 0.6


def kappa0(session: Session) -> tuple[float, InputError | None]:
    """The kappa0 to test against: the link's on a first visit (a bad one is refused with its
    reason and the default kept), then the learner's."""
    problem = None
    linked = state.url_value(KAPPA0, session=session)
    if linked is not None:
        try:
            state.set_value(KAPPA0, check_kappa0(float(str(linked).replace(",", "."))),
                            session=session)
        except (InputError, ValueError):
            problem = InputError("bad_kappa_null", value=str(linked)[:20])
    if not isinstance(session.get(KAPPA0), float):
        state.set_value(KAPPA0, DEFAULT_KAPPA0, session=session)
    return session[KAPPA0], problem


def section(result: Walkthrough, stats: KappaStatistics) -> None:
    """The section under step 7: the bootstrap (and why it disagrees with the large-sample
    interval where it does), the test against the learner's kappa0, SE versus SE0."""
    if result.kappa is None:
        return
    session = st.session_state
    value, problem = kappa0(session)
    shown = uncertainty_blocks(result, stats, state.lang(), compute.bootstrap(result),
                               result.kappa_test(value), z_notes=True)
    render.blocks(shown[:1])  # the heading, then the learner's kappa0
    show_error(problem)
    st.number_input(tr("uncertainty.kappa0_label"), min_value=-1.0, max_value=1.0, step=0.05,
                    format="%.2f", key=state.bind(KAPPA0), on_change=state.commit(KAPPA0),
                    help=tr("uncertainty.kappa0_help"))
    render.blocks(shown[1:])
    state.share(KAPPA0, f"{value:g}")
