"""Where kappa is lost, in words: the cost map's captions and the list of fixes that pay most.

The numbers come from the core (:attr:`~qwk_explained.core.steps.Walkthrough.cost_map`,
:attr:`~qwk_explained.core.steps.Walkthrough.influence`); this module names the cells that cost
most and the items in them (``losses.*`` and ``influence.*`` in the locales), for every surface:
the app's step 6, the terminal and a notebook. Each sentence comes with a name (what it says),
so a surface can give a caveat less weight or a test can find it.
"""

from __future__ import annotations

from dataclasses import dataclass

from qwk_explained.core.influence import CellInfluence
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.teaching.cells import first_items

from .i18n import t
from .numbers import format_label, format_number

#: Cells a caption names, costliest first.
CAPTION_CELLS = 3
#: Item numbers a sentence lists before an ellipsis.
LISTED_ITEMS = 8
#: Rows of the list of fixes (the rest pay less).
FIXES_SHOWN = 10


@dataclass(frozen=True)
class Sentence:
    """One sentence and what it says (``explain``, ``costliest``, ``best_fix``...)."""

    name: str
    text: str


def signed(value: float, lang: str) -> str:
    """A change with its sign always written (``+0.0370``), as the language writes numbers."""
    text = format_number(value, lang)
    return "+" + text if value > 0 and not text.startswith("+") else text


def item_list(items: list[int], count: int, lang: str) -> str:
    """Item numbers as the language lists them, with an ellipsis when some are left out."""
    separator = t(lang, "step_by_step.item_separator")
    shown = [format_label(item, lang) for item in items]
    return separator.join(shown + (["…"] if count > len(items) else []))


def _cell_params(result: Walkthrough, cell: Cell, lang: str) -> dict[str, str]:
    i, j = cell
    return {"actual": format_label(result.labels[i], lang),
            "predicted": format_label(result.labels[j], lang)}


def cost_sentences(result: Walkthrough, lang: str,
                   limit: int = CAPTION_CELLS) -> list[Sentence]:
    """The cost map's caption: what a cell's cost is, then the costliest cells in words, each
    with its items (the first :data:`LISTED_ITEMS`)."""
    costs = result.cost_map
    if costs is None:
        return [Sentence("undefined", t(lang, "losses.undefined"))]
    shortfall = format_number(1 - costs.kappa, lang)
    sentences = [Sentence("explain", t(lang, "losses.cost_explain", shortfall=shortfall))]
    cells = costs.costliest(limit)
    if not cells:
        return [*sentences, Sentence("no_cost", t(lang, "losses.no_cost"))]
    listed = first_items(result, cells, LISTED_ITEMS)
    for cell in cells:
        count = int(result.observed[cell])
        params = {**_cell_params(result, cell, lang), "shortfall": shortfall,
                  "cost": format_number(costs.cost[cell], lang)}
        if listed[cell]:
            text = t(lang, "losses.costliest", count=count,
                     items=item_list(listed[cell], count, lang), **params)
        else:
            text = t(lang, "losses.costliest_table", count=count, **params)
        sentences.append(Sentence("costliest", text))
    return sentences


def signed_sentences(result: Walkthrough, lang: str) -> list[Sentence]:
    """The signed map's caption: what its sign means, the cell that pulls kappa down most
    against chance and the one that holds it up most."""
    costs = result.cost_map
    if costs is None:
        return []
    sentences = [Sentence("explain", t(lang, "losses.signed_explain",
                                       minus_kappa=format_number(-costs.kappa, lang)))]
    flat = costs.signed.ravel()
    size = result.size
    down, up = int(flat.argmax()), int(flat.argmin())
    if flat[down] > 0:
        cell = divmod(down, size)
        sentences.append(Sentence("pulls_down", t(
            lang, "losses.signed_down", value=format_number(flat[down], lang),
            **_cell_params(result, cell, lang))))
    if flat[up] < 0:
        cell = divmod(up, size)
        sentences.append(Sentence("holds_up", t(
            lang, "losses.signed_up", value=format_number(flat[up], lang),
            **_cell_params(result, cell, lang))))
    return sentences


@dataclass(frozen=True)
class Fix:
    """One row of the list of fixes: a cell's items and what fixing one of them does, written
    in the language (``items`` is empty for a table)."""

    cell: Cell
    count: int
    #: The items' numbers (the first :data:`LISTED_ITEMS`), or their count for a table.
    items: str
    #: Whether ``items`` lists item numbers.
    listed: bool
    rated: str
    predicted: str
    moved_to: str
    kappa_moved: str
    gain: str
    kappa_without: str
    influence: CellInfluence


def fixes(result: Walkthrough, lang: str, limit: int = FIXES_SHOWN) -> list[Fix]:
    """The cells whose items can be fixed, the fix that pays most first (at most ``limit``)."""
    ranked = result.influence.ranked()[:limit]
    listed = first_items(result, [entry.cell for entry in ranked], LISTED_ITEMS)
    rows = []
    for entry in ranked:
        i, j = entry.cell
        rows.append(Fix(
            cell=entry.cell, count=entry.count,
            items=(item_list(listed[entry.cell], entry.count, lang) if listed[entry.cell]
                   else format_number(entry.count, lang)),
            listed=bool(listed[entry.cell]),
            rated=format_label(result.labels[i], lang),
            predicted=format_label(result.labels[j], lang),
            moved_to=format_label(result.labels[entry.moved_to], lang),
            kappa_moved=format_number(entry.kappa_moved, lang),
            gain=signed(entry.gain, lang),
            kappa_without=format_number(entry.kappa_without, lang),
            influence=entry))
    return rows


def influence_sentences(result: Walkthrough, lang: str,
                        listed: list[Fix] | None = None) -> list[Sentence]:
    """What the list of fixes shows, then the fix that pays most in words (from ``listed``, the
    fixes already written, when given)."""
    if result.kappa is None:
        return [Sentence("undefined", t(lang, "losses.undefined"))]
    best = (listed if listed is not None else fixes(result, lang, limit=1))[:1]
    if not best:
        disagree = bool((result.observed.sum() - result.observed.trace()) > 0)
        key = "influence.fixes_undefined" if disagree else "influence.nothing_to_fix"
        return [Sentence("nothing_to_fix", t(lang, key))]
    fix = best[0]
    explain = Sentence("explain", t(lang, "influence.explain"))
    if fix.influence.gain <= 0:
        return [explain, Sentence("no_gain", t(lang, "influence.no_gain"))]
    params = {"actual": fix.rated, "predicted": fix.predicted, "moved_to": fix.moved_to,
              "kappa_moved": fix.kappa_moved, "kappa": format_number(result.kappa, lang)}
    # One item is named as that item; several as "one of the N items" of the cell.
    if fix.count == 1:
        text = (t(lang, "influence.best_single", items=fix.items, **params) if fix.listed
                else t(lang, "influence.best_single_table", **params))
    elif fix.listed:
        text = t(lang, "influence.best", count=fix.count, items=fix.items, **params)
    else:
        text = t(lang, "influence.best_table", count=fix.count, **params)
    return [explain, Sentence("best_fix", text)]


#: The columns of the list of fixes (``influence.col_<name>`` in the locales).
FIX_COLUMNS = ("cell", "items", "moved_to", "kappa_moved", "gain", "kappa_without")


def fix_cells(fix: Fix) -> tuple[str, ...]:
    """One row of the list of fixes as the cells of a table, in :data:`FIX_COLUMNS` order."""
    return (f"{fix.rated} → {fix.predicted}", fix.items, fix.moved_to, fix.kappa_moved, fix.gain,
            fix.kappa_without)
