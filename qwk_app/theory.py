"""The theory page's state: the 2 x 2 example's four counts, and which way the two kappas go;
and the interpretation scales' text.

The counts live under ``theory_<cell>`` (``theory_n00``...: actual rating, predicted rating) in a
session mapping (``st.session_state`` on the page, a dict in a unit test), each mirrored by its
number field (``theory_<cell>_input``). A shared link's ``?table=15,10;5,20`` fills them on first
use; a paradox button loads its table into them.
"""

from __future__ import annotations

from typing import Literal

from qwk_explained.core.errors import InputError
from qwk_explained.core.tables import parse_table
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import DECIMALS, format_number
from qwk_explained.teaching.interpret import ScaleBand
from qwk_explained.teaching.theory import (
    DEFAULT_TABLE,
    SCALE_YEARS,
    Counts2x2,
    InterpretationScale,
)

from . import state
from .state import Session

#: The four cells of the 2 x 2 example, row by row (``n<actual><predicted>``).
CELLS = ("n00", "n01", "n10", "n11")
#: The factor that rescales w in the invariance demonstration.
FACTOR = 7
#: Why a linked table was not used: the table's own input error, or not 2 x 2 (``shape``).
TableProblem = InputError | Literal["shape"]
#: Which way quadratic kappa goes from unweighted kappa, as printed (``theory.scales_caveat.*``).
Caveat = Literal["higher", "lower", "equal", "undefined"]


def key(cell: str) -> str:
    """The canonical session key of one count (``n01`` -> ``theory_n01``)."""
    return f"theory_{cell}"


def init_table(session: Session) -> TableProblem | None:
    """Fill the counts on first use: from the shared link (``?table=15,10;5,20``) or the default.

    Returns what was wrong with the link's table, to be shown once next to the example; the
    default table is used instead.
    """
    if all(key(cell) in session for cell in CELLS):
        return None
    counts = DEFAULT_TABLE
    problem: TableProblem | None = None
    text = state.url_value("table", session=session)
    if text is not None:
        try:
            table = parse_table(str(text))
        except InputError as error:
            problem = error
        else:
            if table.shape == (2, 2):
                n00, n01, n10, n11 = (int(x) for x in table.ravel())
                counts = (n00, n01, n10, n11)
            else:
                problem = "shape"
    for cell, value in zip(CELLS, counts, strict=True):
        session[key(cell)] = int(value)
    return problem


def load_table(session: Session, counts: Counts2x2) -> None:
    """Put a table into the four counts and their fields (a paradox button's ``on_click``)."""
    for cell, value in zip(CELLS, counts, strict=True):
        state.set_value(key(cell), int(value), session=session)


def counts(session: Session) -> Counts2x2:
    """The four counts (an emptied field counts 0)."""
    n00, n01, n10, n11 = (int(session.get(key(cell), 0) or 0) for cell in CELLS)
    return n00, n01, n10, n11


def table_link(table: Counts2x2) -> str:
    """The counts as they go into a link: rows separated by ``;``.

    >>> table_link((15, 10, 5, 20))
    '15,10;5,20'
    """
    return f"{table[0]},{table[1]};{table[2]},{table[3]}"


def caveat(quadratic: float | None, unweighted: float | None) -> Caveat:
    """Which way the two kappas shown go, as the reader sees them (rounded as printed).

    Quadratic kappa is below unweighted kappa exactly when the observed disagreements lie, on
    average, farther apart (in squared distance) than the disagreements chance would produce:
    1 - Q_o / Q_e < 1 - D_o / D_e  <=>  Q_o / D_o > Q_e / D_e.

    >>> caveat(0.61, 0.4), caveat(0.12341, 0.12339), caveat(0.1, None)
    ('higher', 'equal', 'undefined')
    """
    if quadratic is None or unweighted is None:
        return "undefined"
    shown_q, shown_u = round(quadratic, DECIMALS), round(unweighted, DECIMALS)
    return "higher" if shown_q > shown_u else "lower" if shown_q < shown_u else "equal"


def citation(scale: InterpretationScale, lang: str) -> str:
    """An interpretation scale by its authors and year ("Landis and Koch (1977)")."""
    return t(lang, "theory.scale_citation", authors=t(lang, f"theory.scale_authors.{scale}"),
             year=str(SCALE_YEARS[scale]))


def band_range(band: ScaleBand, lang: str) -> str:
    """A band's range as its authors bound it ("0.2 < κ ≤ 0.4", "κ < 0"...)."""
    if band.low is None:
        below = "theory.range_below_or_equal" if band.high_inclusive else "theory.range_below"
        return t(lang, below, high=format_number(band.high, lang))
    between = "theory.range_closed" if band.low_inclusive else "theory.range_open_closed"
    return t(lang, between, low=format_number(band.low, lang),
             high=format_number(band.high, lang))
