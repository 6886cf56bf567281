"""``qwk-explained thresholds``: the cut points that turn a model's scores into ratings.

``qwk-explained thresholds --actual-file ratings.csv --scores-file oof.csv [--folds 5]
[--seed S] [--json]`` (or ``--actual``/``--scores`` as text, or one file of two columns: the
actual rating, then the score) runs :func:`~qwk_explained.core.thresholds.optimize_thresholds`
and prints its outline (:mod:`qwk_explained.present.thresholds`) in the chosen language, or with
``--json`` one object with at least ``cuts``, ``kappa`` and ``cv_kappa``.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.csvfile import decode_text
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.scores import (
    first_row_width,
    parse_scored_csv,
    parse_scores,
    parse_scores_file,
)
from qwk_explained.core.thresholds import Thresholds, optimize_thresholds
from qwk_explained.present.i18n import t
from qwk_explained.present.markup import plain_text
from qwk_explained.present.thresholds import threshold_blocks

from .args import (
    OPTIONS_TITLE,
    PROG,
    add_common_options,
    help_text,
    metavars,
    new_parser,
    parse_integer_option,
)
from .errors import CliError
from .inputs import Source, ratings_columns, read_bytes, read_sources

#: The subcommand's name on the command line.
COMMAND = "thresholds"


def build_thresholds_parser(lang: str) -> argparse.ArgumentParser:
    """The parser of ``qwk-explained thresholds``, every help text in ``lang``."""
    parser = new_parser(lang, f"{PROG} {COMMAND}", t(lang, "cli.thresholds_description"), [
        f'{PROG} {COMMAND} --actual "0,1,1,2,3,3" --scores "0.4,1.2,0.9,2.2,2.6,3.1" --folds 0',
        f"{PROG} {COMMAND} --actual-file ratings_and_scores.csv --json",
        f"{PROG} {COMMAND} --actual-file actual.csv --scores-file oof.csv --folds 10 --seed 7",
    ])
    group = parser.add_argument_group(OPTIONS_TITLE)
    metavar = metavars(lang)
    number = t(lang, "cli.metavar_number")
    group.add_argument("--actual", metavar=metavar["ratings"], help=help_text(lang, "help_actual"))
    group.add_argument("--actual-file", metavar=metavar["path"],
                       help=help_text(lang, "help_thresholds_actual_file"))
    group.add_argument("--scores", metavar=t(lang, "cli.metavar_scores"),
                       help=help_text(lang, "help_scores"))
    group.add_argument("--scores-file", metavar=metavar["path"],
                       help=help_text(lang, "help_scores_file"))
    group.add_argument("--weights", metavar=metavar["weights"], default="quadratic",
                       help=help_text(lang, "help_weights"))
    group.add_argument("--min-rating", metavar=metavar["rating"],
                       help=help_text(lang, "help_min_rating"))
    group.add_argument("--max-rating", metavar=metavar["rating"],
                       help=help_text(lang, "help_max_rating"))
    group.add_argument("--folds", metavar=number, default="5", help=help_text(lang, "help_folds"))
    group.add_argument("--seed", metavar=number, default="0",
                       help=help_text(lang, "help_thresholds_seed"))
    add_common_options(group, lang, json_help="help_thresholds_json")
    return parser


def _actual_file(path: str) -> tuple[Any, ...]:
    """The actual ratings of a file of one column, or the ratings and the scores of a file of
    two (the actual rating, then the score). A file of several lines and three or more columns
    is refused by the two-column reader, which names its count of columns."""
    data = read_bytes(path)
    width = first_row_width(data)
    text = decode_text(data)
    if width == 2 or (width > 2 and len(text.strip().splitlines()) > 1):
        both = parse_scored_csv(data)
        return both.actual, both.scores
    # one column (a first row of one cell), or all the ratings on one line
    return ratings_columns(text)[:1]


def _ratings_and_scores(args: argparse.Namespace) -> tuple[NDArray[np.int64], Any]:
    """The actual ratings and the scores, from options or files, each problem named by source."""
    scores = Source("--scores", "--scores-file", parse_scores,
                    lambda path: parse_scores_file(read_bytes(path)),
                    partial(CliError, "missing_scores"))
    actual = Source("--actual", "--actual-file", parse_vector, _actual_file,
                    lambda: CliError("missing_actual" if scores.named(args) else "missing_input"))
    ratings, found = read_sources(args, actual, [scores], "two_columns_and_scores")
    return ratings, found


def fit(args: argparse.Namespace) -> Thresholds:
    """Read the input and run the optimizer with the options given."""
    actual, scores = _ratings_and_scores(args)
    folds = parse_integer_option("--folds", args.folds)
    seed = parse_integer_option("--seed", args.seed)
    return optimize_thresholds(
        actual, scores, weights=args.weights,
        min_rating=parse_integer_option("--min-rating", args.min_rating),
        max_rating=parse_integer_option("--max-rating", args.max_rating),
        folds=5 if folds is None else folds, seed=0 if seed is None else seed)


def thresholds_json(result: Thresholds) -> dict[str, Any]:
    """Every number of a result as plain JSON values (``null`` where there is none)."""
    return {
        "cuts": list(result.cuts),
        "kappa": result.kappa,
        "cv_kappa": result.cv_kappa,
        "optimism": result.optimism,
        "fold_kappas": list(result.fold_kappas),
        "folds": result.folds,
        "seed": result.seed,
        "weights": result.weights,
        "min_rating": result.min_rating,
        "max_rating": result.max_rating,
        "n": result.n,
        "distinct_scores": result.distinct_scores,
        "actual_hist": list(result.actual_hist),
        "predicted_hist": list(result.predicted_hist),
        "start": result.start,
        "starts": [{"name": s.name, "cuts": list(s.cuts), "kappa": s.kappa,
                    "fitted_kappa": s.fitted_kappa} for s in result.starts],
    }


def run_thresholds(args: argparse.Namespace, lang: str) -> str:
    """The output of ``thresholds`` for parsed options; raises a QwkError for a problem."""
    result = fit(args)
    if args.json:
        return json.dumps(thresholds_json(result), ensure_ascii=False, allow_nan=False) + "\n"
    return plain_text(threshold_blocks(result, lang))
