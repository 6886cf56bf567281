"""``qwk-explained``: weighted kappa explained step by step in the terminal, or as JSON.

``qwk-explained --actual "4,4,3" --predicted "0,2,1" --lang es`` prints the seven steps (O, w,
histograms, E, normalization, num and den, kappa), each formula with the user's numbers plugged
in, then the standard errors, z, p-value and confidence interval; ``--json`` prints the numbers.
``qwk-explained check ...`` grades hand calculations instead (:mod:`.check`).

A user never sees a traceback: a problem they can fix exits with status 2 and one translated line
on standard error, anything unexpected with status 1 (:class:`~.errors.ExitStatus`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

from qwk_explained.core.errors import QwkError
from qwk_explained.present.columns import collapse
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import environment_language

from .args import (
    PROG,
    build_parser,
    join_dash_values,
    language_option,
    requested_language,
)
from .check import build_check_parser, run_check
from .errors import ExitStatus
from .inputs import compute
from .json_output import result_json
from .output import write
from .text import render_text


def _one_line(text: str) -> str:
    # No-break spaces stay: they keep "n = 10" and "95 %" together where the terminal wraps.
    return f"{PROG}: " + collapse(text) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see :class:`~.errors.ExitStatus`)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    lang = environment_language()
    try:
        try:
            requested = requested_language(arguments)
            if requested is not None:
                lang = language_option(requested)
            if arguments[:1] == ["check"]:
                checking = build_check_parser(lang).parse_args(join_dash_values(arguments[1:]))
                text = run_check(checking, lang)
            else:
                args = build_parser(lang).parse_args(join_dash_values(arguments))
                result, stats = compute(args)
                if args.json:
                    text = json.dumps(result_json(result, stats), ensure_ascii=False,
                                      allow_nan=False) + "\n"
                else:
                    text = render_text(result, stats, lang, args.scale or "range")
        except QwkError as error:
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
        return ExitStatus.BUG
    except Exception as error:  # the last guard: a user never sees a traceback
        try:
            text = t(lang, "cli.unexpected_error", kind=type(error).__name__)
        except Exception:  # even the locale files may be what broke
            text = f"unexpected error ({type(error).__name__})"
        write(sys.stderr, _one_line(text))
        return ExitStatus.BUG
