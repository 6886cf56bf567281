"""Cut points for continuous scores, written out: an outline of typed blocks in one language.

The command line's text, a notebook's plain text, Markdown and HTML, and the app's page all say
the same sentences about a :class:`~qwk_explained.core.thresholds.Thresholds` result: which
scores each rating gets, the in-sample and the cross-validated kappa, the optimism in words
(which sentence depends on the numbers, so each is true of them), the comparison with plain
rounding, and the starts of the search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from qwk_explained.core.thresholds import StartName, Thresholds

from .blocks import Block, Heading, Table, Text
from .i18n import t
from .languages import language
from .numbers import format_label, format_number, rounds_to_zero

#: Decimals of a cut point: midpoints between scores with two or three decimals show exactly.
CUT_DECIMALS = 6
#: An optimism at least this large is called large: a hundredth of kappa is about the gain
#: Kaggle teams report for tuned cut points, so a gap this size eats a real part of it.
LARGE_OPTIMISM = 0.01


def format_cut(value: float, lang: str) -> str:
    """A cut point as the language writes numbers, with up to six decimals, never grouped.

    >>> format_cut(1.535, "es"), format_cut(-0.125, "en")
    ('1,535', '−0.125')
    """
    return format_number(value, lang, CUT_DECIMALS, group=False)


def number_list(values: Sequence[str], lang: str) -> str:
    """Formatted numbers in a row: a comma cannot separate numbers that hold decimal commas, so
    those languages use a semicolon (as inside formulas).

    >>> number_list(["0,5", "1,5"], "es"), number_list(["0.5", "1.5"], "en")
    ('0,5; 1,5', '0.5, 1.5')
    """
    return ("; " if language(lang).decimal == "," else ", ").join(values)


def score_ranges(cuts: Sequence[float], lang: str) -> tuple[str, ...]:
    """Which scores each rating gets, in words: below the first cut, between two, above the last.

    >>> score_ranges([0.5, 1.5, 1.5], "en")
    ('below 0.5', 'from 0.5 to under 1.5', 'none (two equal cut points)', '1.5 or more')
    """
    ranges = [t(lang, "thresholds.range_below", high=format_cut(cuts[0], lang))]
    for low, high in zip(cuts[:-1], cuts[1:], strict=True):
        if low == high:
            ranges.append(t(lang, "thresholds.range_empty"))
        else:
            ranges.append(t(lang, "thresholds.range_between", low=format_cut(low, lang),
                            high=format_cut(high, lang)))
    ranges.append(t(lang, "thresholds.range_above", low=format_cut(cuts[-1], lang)))
    return tuple(ranges)


def start_name(name: StartName, lang: str) -> str:
    """The name of a start of the search (also a button's label on the page)."""
    return t(lang, f"thresholds.start.{name}")


def _value_line(label_key: str, value: str, lang: str) -> Text:
    return Text(t(lang, "cli.value_line", label=t(lang, label_key), value=value))


def _cut_table(result: Thresholds, lang: str) -> Table:
    ratings = [format_label(r, lang) for r in range(result.min_rating, result.max_rating + 1)]
    rows = tuple(
        (rating, (scores, format_number(given, lang), format_number(actual, lang)))
        for rating, scores, given, actual in zip(ratings, score_ranges(result.cuts, lang),
                                                 result.predicted_hist, result.actual_hist,
                                                 strict=True))
    columns = tuple(t(lang, f"thresholds.column.{key}") for key in ("scores", "given", "actual"))
    return Table(t(lang, "thresholds.cuts_caption"), t(lang, "thresholds.column.rating"),
                 columns, rows, "cut_points")


def optimism_blocks(result: Thresholds, lang: str) -> Iterator[Block]:
    """The cross-validated kappa beside the in-sample one, and the gap between them in words."""
    kappa = format_number(result.kappa, lang)
    yield Text(t(lang, "thresholds.kappa_in_sample", kappa=kappa), "kappa_in_sample")
    rounding = next((s.kappa for s in result.starts if s.name == "rounding"), None)
    if result.cv_kappa is None or result.optimism is None:
        yield Text(t(lang, "thresholds.no_cross_validation"), "no_cross_validation")
        if rounding is not None:
            yield Text(t(lang, "thresholds.versus_rounding_in_sample",
                         rounding=format_number(rounding, lang), kappa=kappa), "versus_rounding")
        return
    cv = format_number(result.cv_kappa, lang)
    yield Text(t(lang, "thresholds.kappa_cv", folds=format_number(result.folds, lang),
                 kappa=cv), "kappa_cv")
    gap = result.optimism
    if gap >= LARGE_OPTIMISM:
        yield Text(t(lang, "thresholds.optimism_large", gap=format_number(gap, lang), cv=cv,
                     kappa=kappa), "optimism")
    elif gap > 0 and not rounds_to_zero(gap):
        yield Text(t(lang, "thresholds.optimism_small", gap=format_number(gap, lang),
                     kappa=kappa), "optimism")
    else:
        yield Text(t(lang, "thresholds.optimism_none", cv=cv, kappa=kappa), "optimism")
    if rounding is not None:
        if result.cv_kappa > rounding:
            yield Text(t(lang, "thresholds.versus_rounding_gain",
                         rounding=format_number(rounding, lang),
                         in_sample=format_number(result.kappa - rounding, lang),
                         out_of_fold=format_number(result.cv_kappa - rounding, lang)),
                       "versus_rounding")
        else:
            yield Text(t(lang, "thresholds.versus_rounding_loss",
                         rounding=format_number(rounding, lang), cv=cv), "versus_rounding")
    folds = [format_number(k, lang) for k in result.fold_kappas]
    yield Text(t(lang, "thresholds.fold_kappas", values=number_list(folds, lang)), "fold_kappas")


def _start_table(result: Thresholds, lang: str) -> Table:
    kept = t(lang, "thresholds.column.kept_mark")
    rows = tuple((start_name(s.name, lang),
                  (format_number(s.kappa, lang), format_number(s.fitted_kappa, lang),
                   kept if s.name == result.start else ""))
                 for s in result.starts)
    columns = tuple(t(lang, f"thresholds.column.{key}") for key in ("start_kappa",
                                                                    "fitted_kappa", "kept"))
    return Table(t(lang, "thresholds.starts_caption"), t(lang, "thresholds.column.start"),
                 columns, rows, "starts")


def search_blocks(result: Thresholds, lang: str) -> list[Block]:
    """Where the search started, what each start reached, and what the search guarantees."""
    return [Heading(t(lang, "thresholds.search_heading"), 2), _start_table(result, lang),
            Text(t(lang, "thresholds.guarantee"), "guarantee")]


def threshold_blocks(result: Thresholds, lang: str) -> list[Block]:
    """The whole explanation of a result: data, cut points, kappa and its honesty, the search."""
    weighting = t(lang, f"common.in_sentence.weights.{result.weights}")
    return [
        Heading(t(lang, "thresholds.title"), 1),
        _value_line("thresholds.items", format_number(result.n, lang), lang),
        _value_line("thresholds.distinct_scores", format_number(result.distinct_scores, lang),
                    lang),
        Text(t(lang, "thresholds.scale_line", low=format_label(result.min_rating, lang),
               high=format_label(result.max_rating, lang), weighting=weighting)),
        Heading(t(lang, "thresholds.cuts_heading"), 2),
        _value_line("thresholds.cuts_label",
                    number_list([format_cut(c, lang) for c in result.cuts], lang), lang),
        Text(t(lang, "thresholds.cuts_rule"), "cuts_rule"),
        _cut_table(result, lang),
        Heading(t(lang, "thresholds.kappa_heading"), 2),
        *optimism_blocks(result, lang),
        *search_blocks(result, lang),
    ]
