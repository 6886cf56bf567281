"""``qwk-explained compare``: two models' kappas on the same items, and whether they differ.

The actual ratings and both models' predictions come as three lists (``--actual``,
``--model-a``, ``--model-b``), three files (``--actual-file``, ``--model-a-file``,
``--model-b-file``), or one CSV file with three columns given to ``--actual-file``. The output
gives both kappas, the difference kappa_B - kappa_A with a paired bootstrap interval and a
paired permutation p-value, and on how many items the models disagree
(:func:`qwk_explained.core.paired.compare`); ``--json`` prints the numbers.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.errors import InputError
from qwk_explained.core.paired import Comparison, Model, compare
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.types import SCALES, is_scale
from qwk_explained.present import comparison as words
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import format_label, format_number

from .args import (
    OPTIONS_TITLE,
    PROG,
    add_common_options,
    add_confidence_option,
    add_resampling_options,
    add_scale_options,
    help_text,
    integer_option,
    metavars,
    new_parser,
    parse_confidence,
    parse_integer_option,
)
from .errors import CliError
from .inputs import Source, read_ratings_file, read_sources
from .json_output import bootstrap_json, plain
from .text import TerminalText

#: Each model's option and file option (the actual ratings' are ``--actual``, ``--actual-file``).
MODELS: tuple[tuple[Model, str, str], ...] = (("a", "--model-a", "--model-a-file"),
                                              ("b", "--model-b", "--model-b-file"))


def build_compare_parser(lang: str) -> argparse.ArgumentParser:
    """The parser of ``qwk-explained compare``, every help text in ``lang``."""
    parser = new_parser(lang, f"{PROG} compare", t(lang, "cli.compare_description"), [
        f'{PROG} compare --actual "4,4,3,1,2" --model-a "4,3,3,1,1" --model-b "4,4,3,2,2"',
        f"{PROG} compare --actual-file three_columns.csv --resamples 10000 --json",
        f"{PROG} compare --actual-file truth.csv --model-a-file a.csv --model-b-file b.csv",
    ])
    group = parser.add_argument_group(OPTIONS_TITLE)
    metavar = metavars(lang)

    def text(key: str, **params: Any) -> str:
        return help_text(lang, key, **params)

    group.add_argument("--actual", metavar=metavar["ratings"], help=text("help_actual"))
    group.add_argument("--model-a", metavar=metavar["ratings"], help=text("help_model_a"))
    group.add_argument("--model-b", metavar=metavar["ratings"], help=text("help_model_b"))
    group.add_argument("--actual-file", metavar=metavar["path"],
                       help=text("help_compare_actual_file"))
    group.add_argument("--model-a-file", metavar=metavar["path"], help=text("help_model_a_file"))
    group.add_argument("--model-b-file", metavar=metavar["path"], help=text("help_model_b_file"))
    add_scale_options(group, lang)
    add_confidence_option(group, lang)
    add_resampling_options(group, lang)
    add_common_options(group, lang, json_help="help_compare_json")
    return parser


def _file_columns(path: str) -> tuple[NDArray[np.int64], ...]:
    """The columns of a comparison's file: one (a single rater) or three (actual, model A,
    model B)."""
    try:
        found = read_ratings_file(path, max_columns=3)
    except InputError as error:
        if error.code == "csv_too_many_columns":
            raise CliError("compare_file_columns", path=path, count=error.params["count"]) from None
        raise
    if len(found) not in (1, 3):
        raise CliError("compare_file_columns", path=path, count=len(found))
    return found


def _model_file(path: str) -> NDArray[np.int64]:
    found = _file_columns(path)
    if len(found) != 1:
        raise CliError("compare_file_columns", path=path, count=len(found))
    return found[0]


def read_columns(args: argparse.Namespace, lang: str) -> tuple[NDArray[np.int64], ...]:
    """The actual ratings and both models' predictions, from options, files or one CSV file."""
    actual = Source("--actual", "--actual-file", parse_vector, _file_columns,
                    partial(CliError, "compare_missing_input"))
    models = [Source(option, file_option, parse_vector, _model_file,
                     partial(CliError, "compare_missing_model", option=option,
                             file_option=file_option, model=words.model_name(lang, model)))
              for model, option, file_option in MODELS]
    return read_sources(args, actual, models, "compare_three_columns_and_models")


def run_compare(args: argparse.Namespace, lang: str) -> str:
    """The output of ``compare`` for parsed options; raises a QwkError for a problem with them."""
    confidence = parse_confidence(args.confidence)
    scale = "range" if args.scale is None else args.scale
    if not is_scale(scale):
        raise InputError("unknown_scale", value=scale, choices=", ".join(SCALES))
    actual, model_a, model_b = read_columns(args, lang)
    result = compare(
        actual, model_a, model_b, weights=args.weights, scale=scale,
        min_rating=parse_integer_option("--min-rating", args.min_rating),
        max_rating=parse_integer_option("--max-rating", args.max_rating),
        resamples=integer_option("--resamples", args.resamples),
        seed=integer_option("--seed", args.seed), confidence=confidence)
    if args.json:
        return json.dumps(comparison_json(result), ensure_ascii=False, allow_nan=False) + "\n"
    return comparison_text(result, lang, scale)


def comparison_json(result: Comparison) -> dict[str, Any]:
    """The comparison as plain JSON: both kappas, the difference (value, percentile interval,
    BCa interval, permutation p-value), the disagreements and the settings."""
    boot, permutation = result.bootstrap, result.permutation
    return {
        "n": result.n,
        "labels": result.labels.tolist(),
        "weights": result.a.weights_name,
        "kappa_a": plain(result.kappa_a),
        "kappa_b": plain(result.kappa_b),
        "difference": {
            "value": plain(result.difference),
            "interval": None if result.interval is None else list(result.interval),
            "p_value": plain(result.p_value),
            "bootstrap": bootstrap_json(boot),
            "permutations": None if permutation is None else permutation.permutations,
            "undefined_permutations": None if permutation is None else permutation.undefined,
        },
        "disagreements": result.disagreements,
        "a_closer": result.a_closer,
        "b_closer": result.b_closer,
        "undefined": list(result.undefined),
        "constant": list(result.constant),
    }


def comparison_text(result: Comparison, lang: str, scale: str) -> str:
    """The comparison as terminal text in ``lang``."""
    tx = TerminalText(lang)
    weighting = tx(f"common.in_sentence.weights.{result.a.weights_name}")
    labels = ", ".join(format_label(v, lang) for v in result.labels)
    lines = [tx.prose("compare.title"),
             tx.prose("cli.settings_vectors", weighting=weighting,
                      scale=tx(f"common.in_sentence.scale.{scale}")),
             tx.prose("cli.compare_input", n=format_number(result.n, lang), size=len(result.labels),
                      labels=labels), ""]
    lines += [tx.prose_text(sentence.text) for sentence in words.comparison_sentences(lang, result)]
    return "\n".join(lines) + "\n"
