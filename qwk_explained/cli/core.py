"""``qwk-explained``: weighted kappa explained step by step in the terminal, or as JSON.

``qwk-explained --actual "4,4,3" --predicted "0,2,1" --lang es`` prints the seven steps (O, w,
histograms, E, normalization, num and den, kappa), each formula with the user's numbers plugged
in, then the standard errors, z, p-value and confidence interval; ``--json`` prints the numbers.
``qwk-explained check ...`` grades hand calculations instead (:func:`run_check`): one
submission (:mod:`.check`), or a class's file as a stream (:mod:`.batch`).
``qwk-explained thresholds ...`` finds the cut points that turn a model's scores into ratings
(:mod:`.thresholds`).

A user never sees a traceback: a problem they can fix exits with status 2 and one translated line
on standard error, anything unexpected with status 1 (:class:`~.errors.ExitStatus`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from qwk_explained.core.errors import QwkError
from qwk_explained.core.types import Scale, is_scale
from qwk_explained.present.columns import collapse
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import environment_language

from .args import (
    PROG,
    build_check_parser,
    build_parser,
    csv_delimiter,
    integer_option,
    join_dash_values,
    language_option,
    parse_kappa0,
    requested_language,
)
from .batch import run_batch
from .check import (
    CSV_COLUMNS,
    csv_rows,
    explanations,
    grade,
    render_check,
    submission_json,
)
from .compare import build_compare_parser, run_compare
from .csv_output import Spreadsheet
from .errors import CliError, ExitStatus
from .inputs import compute, read_text
from .json_input import TooDeep, load_json
from .json_output import result_json
from .output import write, write_utf8
from .text import render_text
from .thresholds import build_thresholds_parser, run_thresholds


def _one_line(text: str) -> str:
    # No-break spaces stay: they keep "n = 10" and "95 %" together where the terminal wraps.
    return f"{PROG}: " + collapse(text) + "\n"


def run_check(args: argparse.Namespace, lang: str) -> str:
    """The output of ``check`` for parsed options; raises a QwkError for a problem with them.

    A batch is written to standard output line by line as it is graded (:mod:`.batch`), and a
    spreadsheet's file as UTF-8 whatever the terminal's encoding; both return nothing more to
    write.
    """
    data_options = {"--actual": args.actual, "--predicted": args.predicted,
                    "--actual-file": args.actual_file, "--predicted-file": args.predicted_file,
                    "--table": args.table, "--scale": args.scale,
                    "--min-rating": args.min_rating, "--max-rating": args.max_rating,
                    "--answers": args.answers}
    if args.json and (args.csv or args.csv_delimiter is not None):
        second = "--csv" if args.csv else "--csv-delimiter"
        raise CliError("conflicting_options", first="--json", second=second)
    spreadsheet = (Spreadsheet(lang, csv_delimiter(args.csv_delimiter, lang))
                   if args.csv or args.csv_delimiter is not None else None)
    if args.batch is not None:
        for option, value in data_options.items():
            if value is not None:
                raise CliError("conflicting_options", first="--batch", second=option)
        run_batch(args.batch, lang, sys.stdout, spreadsheet)
        return ""
    if args.answers is None:
        raise CliError("missing_answers")
    args.confidence = "0.95"
    result, _ = compute(args)
    checked = grade(result, _answers(args.answers), lang).checked
    record = submission_json(None, result, checked, lang)
    if args.json:
        return json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"
    if spreadsheet is not None:
        said = explanations(result, checked, lang)
        write_utf8(sys.stdout, spreadsheet.start(CSV_COLUMNS)
                   + spreadsheet.rows(csv_rows(record, said)))
        return ""
    # The scale was checked when the ratings were read; a table has none ("range" is its labels).
    scale: Scale = args.scale if is_scale(args.scale) else "range"
    return render_check(result, checked, lang, scale)


def _answers(path: str) -> object:
    """The learner's values: the JSON file at ``path`` (``-``: standard input)."""
    try:
        return load_json(read_text(path))
    except json.JSONDecodeError as error:
        raise CliError("not_json", source=path, line=error.lineno) from None
    except TooDeep:
        raise CliError("json_too_deep", source=path) from None


#: The subcommands: each name's parser (in the user's language) and what runs its options.
SUBCOMMANDS: dict[str, tuple[Callable[[str], argparse.ArgumentParser],
                             Callable[[argparse.Namespace, str], str]]] = {
    "check": (build_check_parser, run_check),
    "compare": (build_compare_parser, run_compare),
    "thresholds": (build_thresholds_parser, run_thresholds),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see :class:`~.errors.ExitStatus`)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    lang = environment_language()
    try:
        try:
            requested = requested_language(arguments)
            if requested is not None:
                lang = language_option(requested)
            if sys.stdout is None:  # started with its output closed (">&-"): say so and stop
                raise CliError("stdout_closed")
            subcommand = SUBCOMMANDS.get(arguments[0]) if arguments else None
            if subcommand is not None:
                build, run = subcommand
                text = run(build(lang).parse_args(join_dash_values(arguments[1:])), lang)
            else:
                args = build_parser(lang).parse_args(join_dash_values(arguments))
                result, stats = compute(args)
                kappa0 = parse_kappa0(args.kappa0)
                boot = result.bootstrap(integer_option("--resamples", args.resamples),
                                        seed=integer_option("--seed", args.seed),
                                        confidence=stats.confidence)
                test = None if kappa0 is None else result.kappa_test(kappa0)
                if args.json:
                    text = json.dumps(result_json(result, stats, boot, test),
                                      ensure_ascii=False, allow_nan=False) + "\n"
                else:
                    text = render_text(result, stats, lang, args.scale or "range", boot=boot,
                                       test=test)
        except QwkError as error:
            if sys.stderr is not None:
                write(sys.stderr, _one_line(message(lang, error)))
            return ExitStatus.INPUT
        write(sys.stdout, text)
        sys.stdout.flush()
        return ExitStatus.OK
    except SystemExit as stop:  # --help and --version end through argparse's exit()
        return stop.code if isinstance(stop.code, int) else ExitStatus.OK
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        # Output piped into `head`: stop quietly, and keep Python from complaining at shutdown.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return ExitStatus.BROKEN_PIPE
    except Exception as error:  # the last guard: a user never sees a traceback
        try:
            text = t(lang, "cli.unexpected_error", kind=type(error).__name__)
        except Exception:  # even the locale files may be what broke
            text = f"unexpected error ({type(error).__name__})"
        write(sys.stderr, _one_line(text))
        return ExitStatus.BUG
