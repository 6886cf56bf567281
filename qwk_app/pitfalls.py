"""The pitfalls page's state and text: what each convention gives on the session's ratings, and
what scikit-learn gives, as the table's cells in the session's language.

:func:`analyse` takes the session (its weighting) and the shown result and returns everything the
page draws, each part computed once per input (:mod:`qwk_app.compute`); the other functions turn
the parts into the table's text. Pure apart from the caches: a unit test passes a plain dict as
the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Weighting
from qwk_explained.present.i18n import message, t
from qwk_explained.present.numbers import format_list, format_number
from qwk_explained.teaching import conventions
from qwk_explained.teaching.examples import BY_NAME

from . import compute, state
from .state import Session

#: One-click examples, each showing one pitfall (in the order of the table's rows).
EXAMPLES = ("unused_rating", "seed_en", "seed_es", "all_zero_all_four", "full_disagreement",
            "constant")
#: The example whose kappa is 0/0 (one rating each, the same one): the undefined section.
CONSTANT = BY_NAME["constant"]
#: The seed's claim: all-0 actuals against all-4 predictions "give -1"; the second pair does.
CLAIMED, OPPOSITE = BY_NAME["all_zero_all_four"], BY_NAME["full_disagreement"]


@dataclass(frozen=True)
class Analysis:
    """Everything the page shows for one input and weighting."""

    weights: Weighting
    comparison: conventions.Comparison
    sklearn: conventions.SklearnCheck
    #: scikit-learn on :data:`CONSTANT`: what it returns for 0/0.
    constant: conventions.SklearnCheck
    claim: conventions.ClaimCheck


def analyse(session: Session, result: Walkthrough) -> Analysis:
    """The conventions and scikit-learn on ``result`` with the session's weighting (quadratic in
    place of a custom matrix, as the page says), and the page's two fixed examples under it."""
    weights = state.settings(session).named
    return Analysis(
        weights,
        compute.conventions_table(result, weights),
        compute.sklearn_check(result, weights),
        compute.example_sklearn_check(CONSTANT.name, weights),
        conventions.seed_claim((CLAIMED.actual, CLAIMED.predicted),
                               (OPPOSITE.actual, OPPOSITE.predicted), weights))


def reason_params(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A reason's values as text, and the count its plural form follows: how many ratings it
    lists (``unused``) or, otherwise, how many ratings its scale has (``size``).

    >>> reason_params({"unused": (2, 7), "low": -1}, "en")
    {'unused': '2 and 7', 'low': '−1', 'count': 2}
    >>> reason_params({"rows": 3, "size": 5}, "es")
    {'rows': '3', 'size': '5', 'count': 5}
    """
    shown: dict[str, Any] = {
        name: format_list([format_number(int(v), lang) for v in value], lang)
        if isinstance(value, tuple) else format_number(value, lang)
        for name, value in params.items()}
    if "unused" in params:
        shown["count"] = len(params["unused"])
    elif "size" in params:
        shown["count"] = int(params["size"])
    return shown


def kappa_text(row: conventions.Row, lang: str) -> str:
    """What a convention gives: its kappa, "undefined" (0/0), or how its code fails."""
    if row.status == "ok" and row.kappa is not None:
        return format_number(row.kappa, lang)
    if row.status == "undefined":
        return t(lang, "common.undefined")
    if row.raises:
        return t(lang, "pitfalls.raises", error=row.raises)
    return t(lang, "pitfalls.no_result")


def reason_text(row: conventions.Row, lang: str) -> str:
    """Why a convention gives what it gives (the scale's own problem when there is one)."""
    if row.reason == "scale_error" and row.problem is not None:
        return message(lang, row.problem)
    return t(lang, f"pitfalls.reason.{row.reason}", **reason_params(row.params, lang))


def sklearn_text(run: conventions.SklearnRun | None, lang: str) -> str:
    """What one call of scikit-learn returned (empty where the convention has no such call)."""
    if run is None:
        return ""
    if run.raised:
        return t(lang, "pitfalls.raises", error=run.raised)
    if run.is_nan:
        return t(lang, "pitfalls.sklearn_nan")
    return format_number(run.value, lang)


def table(analysis: Analysis, lang: str) -> dict[str, list[str]]:
    """The comparison table, column by column: convention, our kappa, scikit-learn's (when it
    is installed: ``labels=`` the range for the range row, none for the observed one), reason."""
    rows = analysis.comparison.rows
    columns = {
        t(lang, "pitfalls.column_convention"): [t(lang, f"pitfalls.convention.{row.code}")
                                                for row in rows],
        t(lang, "pitfalls.column_ours"): [kappa_text(row, lang) for row in rows],
    }
    sklearn = analysis.sklearn
    if sklearn.available:
        calls = {"range": sklearn.with_labels, "observed": sklearn.without_labels}
        columns[t(lang, "pitfalls.column_sklearn")] = [sklearn_text(calls.get(row.code), lang)
                                                       for row in rows]
    columns[t(lang, "pitfalls.column_reason")] = [reason_text(row, lang) for row in rows]
    return columns


def sklearn_notes(check: conventions.SklearnCheck, lang: str) -> list[str]:
    """The warnings scikit-learn gave, one sentence per call that gave any."""
    notes = []
    for run in (check.with_labels, check.without_labels):
        if run is not None and run.warnings:
            call = "pitfalls.call_with_labels" if run.labels_given else "pitfalls.call_without"
            notes.append(t(lang, "pitfalls.sklearn_warned", call=t(lang, call),
                           names=format_list(list(run.warnings), lang)))
    return notes
