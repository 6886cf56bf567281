"""The command line's options, defined once, with every help text in the chosen language.

argparse reports problems as English sentences; :class:`_Parser` turns the ones a user can cause
into :class:`~.errors.CliError` codes, so they are translated like everything else. The language
is read before argparse runs (``--lang``, else the environment), so its own errors and ``--help``
are in that language too.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from qwk_explained._version import __version__
from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import (
    DEFAULT_RESAMPLES,
    MAX_ABS_RATING,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
)
from qwk_explained.core.parse import shorten
from qwk_explained.core.stats import check_kappa0
from qwk_explained.present import columns
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import DEFAULT_LANGUAGE, LANGUAGES, base_language, language
from qwk_explained.present.numbers import format_number

from .errors import CliError
from .output import TextSink, write

PROG = "qwk-explained"
#: The options group's title as argparse sees it; the translated heading replaces it in the help,
#: because argparse would put an ASCII colon after any title (Chinese writes "选项：").
OPTIONS_TITLE = "\x00options"

_VALUE_OPTIONS = ("--actual", "--predicted", "--actual-file", "--predicted-file", "--table",
                  "--weights", "--scale", "--min-rating", "--max-rating", "--confidence", "--lang",
                  "--answers", "--batch", "--csv-delimiter", "--kappa0", "--resamples", "--seed",
                  "--model-a", "--model-b", "--model-a-file", "--model-b-file", "--scores",
                  "--scores-file", "--folds")
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
#: What ``--csv-delimiter`` takes: a comma, a semicolon, or a tab (typed as ``tab`` or ``\t``).
CSV_DELIMITERS = {",": ",", ";": ";", "tab": "\t", "\\t": "\t", "\t": "\t"}
# argparse only reports problems as English sentences; these are the ones a user can cause with our
# parser (no positionals, no choices, no abbreviations), mapped to translated messages.
_ARGPARSE_ERRORS = (
    (re.compile(r"unrecognized arguments?: (?P<options>.+)"), "unknown_option"),
    (re.compile(r"argument (?P<option>\S+): expected one argument"), "missing_value"),
    (re.compile(r"argument (?P<option>\S+): ignored explicit argument (?P<value>.+)"),
     "unexpected_value"),
)


def language_option(value: str) -> str:
    """``--lang`` takes ``es``, ``es_ES``, ``zh-CN``...; anything else is an error, not English."""
    base = base_language(value)
    if base not in LANGUAGES:
        raise InputError("unknown_language", value=value, choices=", ".join(LANGUAGES))
    return base


def requested_language(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value, read before argparse runs so that its errors are translated too.

    Given more than once, the last one counts (as argparse takes every option), and each must
    be a language: ``--lang es --lang xx`` is an error, not Spanish.
    """
    requested = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            language_option(value)
            requested = value
    return requested


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors raised (to be translated) instead of printed in English."""

    def error(self, message: str) -> NoReturn:
        for pattern, code in _ARGPARSE_ERRORS:
            match = pattern.search(message)
            if match:
                raise CliError(code, **match.groupdict())
        raise CliError("usage_error", detail=message)

    def __init__(self, *args: Any, options_heading: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options_heading = options_heading

    def format_help(self) -> str:
        return super().format_help().replace(f"{OPTIONS_TITLE}:", self.options_heading)

    def print_help(self, file: TextSink | None = None) -> None:
        # Through write(): a terminal that cannot encode the translated help gets "?" instead
        # of a UnicodeEncodeError.
        write(file or sys.stdout, self.format_help())


def _formatter_class(usage_prefix: str) -> type[argparse.HelpFormatter]:
    """argparse's formatter, measuring text in terminal columns (:mod:`.columns`) instead of
    characters, so Chinese help text wraps at the terminal's edge and every option's help starts
    in the same column."""

    class _Formatter(argparse.RawDescriptionHelpFormatter):
        def __init__(self, prog: str) -> None:
            # Translated option names are longer ("--min-rating CALIFICACIÓN"): a help column
            # at 30 keeps them on the line of their help.
            super().__init__(prog, max_help_position=30)

        def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
            super().add_usage(usage, actions, groups, usage_prefix if prefix is None else prefix)

        def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any) -> str:
            items = []
            for action in actions:
                if action.help is argparse.SUPPRESS:
                    continue
                option = action.option_strings[0]
                items.append(f"[{option}]" if action.nargs == 0
                             else f"[{option} {action.metavar or action.dest.upper()}]")
            # "usage: qwk-explained", or "用法：qwk-explained" after a full-width colon.
            gap = "" if prefix and columns.width(prefix[-1]) == 2 else " "
            line = head = f"{prefix}{gap}{self._prog}"
            indent = " " * (columns.width(head) + 1)
            lines = []
            for item in items:
                if line != head and columns.width(line) + 1 + columns.width(item) > self._width:
                    lines.append(line)
                    line = indent + item
                else:
                    line += " " + item
            return "\n".join([*lines, line]) + "\n\n"

        def add_argument(self, action: argparse.Action) -> None:
            super().add_argument(action)
            if action.help is not argparse.SUPPRESS:
                shown = columns.width(self._format_action_invocation(action))
                self._action_max_length = max(self._action_max_length,
                                              shown + self._current_indent)

        def _split_lines(self, text: str, width: int) -> list[str]:
            return columns.wrap(columns.collapse(text), width)

        def _format_action(self, action: argparse.Action) -> str:
            help_position = min(self._action_max_length + 2, self._max_help_position)
            help_width = max(self._width - help_position, 11)
            action_width = help_position - self._current_indent - 2
            header = self._format_action_invocation(action)
            indent = " " * self._current_indent
            if not action.help:
                return f"{indent}{header}\n"
            if columns.width(header) <= action_width:
                parts, first_indent = [f"{indent}{columns.pad(header, action_width)}  "], ""
            else:
                parts, first_indent = [f"{indent}{header}\n"], " " * help_position
            lines = self._split_lines(self._expand_help(action), help_width)
            parts.append(f"{first_indent}{lines[0]}\n")
            parts += [f"{' ' * help_position}{line}\n" for line in lines[1:]]
            return "".join(parts)

    return _Formatter


def new_parser(lang: str, prog: str, description: str, examples: Sequence[str]) -> _Parser:
    """An argparse parser that speaks ``lang``: translated usage prefix, wrapped description."""
    return _Parser(
        prog=prog,
        # The formatter keeps the epilog's line breaks, so the description is wrapped here.
        description=columns.fill(description, 78),
        epilog="\n".join([t(lang, "cli.help_examples"), *(f"  {line}" for line in examples)]),
        add_help=False,
        allow_abbrev=False,
        formatter_class=_formatter_class(t(lang, "cli.help_usage")),
        options_heading=t(lang, "cli.help_options"),
    )


def build_parser(lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The argparse parser, with every help text in ``lang``."""
    files = example_files(lang)
    parser = new_parser(lang, PROG, t(lang, "cli.help_description"), [
        f'{PROG} --actual "4,4,3,4,4,4,1,1,2,1" --predicted "0,2,1,0,0,0,1,1,2,1" --lang {lang}',
        f"{PROG} --actual-file {files['ratings']} --json",
        f'{PROG} --table "0,4,1;0,8,0;0,1,5" --weights linear',
        f"{PROG} check --batch {files['class']} --lang {lang}",
        f"{PROG} thresholds --actual-file {files['ratings']} --folds 5",
    ])
    group = parser.add_argument_group(OPTIONS_TITLE)
    add_data_options(group, lang)
    add_confidence_option(group, lang)
    add_resampling_options(group, lang)
    group.add_argument("--kappa0", metavar=metavars(lang)["kappa0"],
                       help=help_text(lang, "help_kappa0"))
    add_common_options(group, lang)
    return parser


def add_resampling_options(group: argparse._ArgumentGroup, lang: str) -> None:
    """--resamples and --seed, shared by ``compare``."""
    metavar = metavars(lang)
    group.add_argument("--resamples", metavar=metavar["count"], default=str(DEFAULT_RESAMPLES),
                       help=help_text(lang, "help_resamples",
                                      default=format_number(DEFAULT_RESAMPLES, lang),
                                      low=format_number(MIN_RESAMPLES, lang),
                                      high=format_number(MAX_RESAMPLES, lang)))
    group.add_argument("--seed", metavar=metavar["seed"], default="0",
                       help=help_text(lang, "help_seed"))


def build_check_parser(lang: str) -> argparse.ArgumentParser:
    """The parser of ``qwk-explained check``, every help text in ``lang``."""
    files = example_files(lang)
    # The delimiter example shows the one the language's spreadsheets do not default to.
    other = "," if csv_delimiter(None, lang) == ";" else ";"
    parser = new_parser(lang, f"{PROG} check", t(lang, "cli.check_description"), [
        f'{PROG} check --actual "4,4,3,4,4,4,1,1,2,1" --predicted "0,2,1,0,0,0,1,1,2,1" '
        f"--answers {files['answers']}",
        f'{PROG} check --table "1,2;0,3" --min-rating 1 --answers - --json',
        f"{PROG} check --batch {files['class']} --csv > {files['grades']}",
        f"{PROG} check --batch {files['class']} --lang {lang} --csv-delimiter \"{other}\" "
        f"> {files['grades']}",
    ])
    group = parser.add_argument_group(OPTIONS_TITLE)
    add_data_options(group, lang)
    metavar = metavars(lang)
    group.add_argument("--answers", metavar=metavar["path"],
                       help=help_text(lang, "help_answers"))
    group.add_argument("--batch", metavar=metavar["path"], help=help_text(lang, "help_batch"))
    group.add_argument("--csv", action="store_true", help=help_text(lang, "help_csv"))
    group.add_argument("--csv-delimiter", metavar=metavar["delimiter"],
                       help=help_text(lang, "help_csv_delimiter"))
    add_common_options(group, lang, json_help="help_check_json")
    return parser


#: The help examples' files, each named in every locale as ``cli.example_file_<key>``.
EXAMPLE_FILES = ("ratings", "class", "answers", "grades", "scores", "scored",
                 "compared", "actual", "model_a", "model_b")


def example_files(lang: str) -> dict[str, str]:
    """The file names of the help's examples, as a reader of ``lang`` would name them
    (``calificaciones.csv``, ``评分.csv``): a class's JSON Lines, one learner's answers, the
    ratings, the grades, a model's scores, ratings with their scores in one file, and a
    comparison's files (the three columns in one, or the actual ratings and each model's)."""
    return {key: t(lang, f"cli.example_file_{key}") for key in EXAMPLE_FILES}


def metavars(lang: str) -> dict[str, str]:
    return {key: t(lang, f"cli.metavar_{key}") for key in
            ("ratings", "path", "table", "rating", "level", "lang", "weights", "scale", "count",
             "seed", "kappa0", "delimiter")}


def help_text(lang: str, key: str, **params: Any) -> str:
    # argparse %-formats help strings: a Turkish "%95" must not be read as a format.
    return t(lang, f"cli.{key}", **params).replace("%", "%%")


def add_data_options(group: argparse._ArgumentGroup, lang: str) -> None:
    """The options that say which ratings (or table) to compute, shared by ``check``."""
    def text(key: str, **params: Any) -> str:
        return help_text(lang, key, **params)

    metavar = metavars(lang)
    group.add_argument("--actual", metavar=metavar["ratings"], help=text("help_actual"))
    group.add_argument("--predicted", metavar=metavar["ratings"], help=text("help_predicted"))
    group.add_argument("--actual-file", metavar=metavar["path"], help=text("help_actual_file"))
    group.add_argument("--predicted-file", metavar=metavar["path"],
                       help=text("help_predicted_file"))
    group.add_argument("--table", metavar=metavar["table"], help=text("help_table"))
    add_scale_options(group, lang)


def add_scale_options(group: argparse._ArgumentGroup, lang: str) -> None:
    """--weights, --scale, --min-rating and --max-rating, shared by ``compare``."""
    metavar = metavars(lang)
    group.add_argument("--weights", metavar=metavar["weights"], default="quadratic",
                       help=help_text(lang, "help_weights"))
    group.add_argument("--scale", metavar=metavar["scale"], help=help_text(lang, "help_scale"))
    group.add_argument("--min-rating", metavar=metavar["rating"],
                       help=help_text(lang, "help_min_rating"))
    group.add_argument("--max-rating", metavar=metavar["rating"],
                       help=help_text(lang, "help_max_rating"))


def add_confidence_option(group: argparse._ArgumentGroup, lang: str) -> None:
    """--confidence, shared by ``compare``."""
    group.add_argument("--confidence", metavar=metavars(lang)["level"], default="0.95",
                       help=help_text(lang, "help_confidence", default=format_number(0.95, lang)))


def add_common_options(group: argparse._ArgumentGroup, lang: str,
                       json_help: str = "help_json") -> None:
    """--lang, --json, --help and --version, shared by ``check``."""
    group.add_argument("--lang", metavar=metavars(lang)["lang"], help=help_text(lang, "help_lang"))
    group.add_argument("--json", action="store_true", help=help_text(lang, json_help))
    group.add_argument("-h", "--help", action="help", help=help_text(lang, "help_help"))
    group.add_argument("--version", action="version", version=f"{PROG} {__version__}",
                       help=help_text(lang, "help_version"))


def join_dash_values(argv: Sequence[str]) -> list[str]:
    """Let ``--actual -1,0,2`` work: argparse would take ``-1,0,2`` for an unknown option."""
    joined: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--":
            joined.extend(argv[index:])
            break
        following = argv[index + 1] if index + 1 < len(argv) else None
        if arg in _VALUE_OPTIONS and following is not None and re.match(r"^-[0-9.,]", following):
            joined.append(f"{arg}={following}")
            index += 2
            continue
        joined.append(arg)
        index += 1
    return joined


def parse_integer_option(option: str, value: str | None) -> int | None:
    """A whole-number option (``--min-rating``): a rating, so at most
    :data:`~qwk_explained.core.limits.MAX_ABS_RATING` in absolute value; the digits are counted
    before ``int()``, which refuses more than 4,300 of them with an error of its own."""
    if value is None:
        return None
    cleaned = value.strip()
    if not _INTEGER.match(cleaned):
        raise CliError("not_an_integer_option", option=option, value=shorten(value))
    if (len(cleaned.lstrip("+-").lstrip("0")) > len(str(MAX_ABS_RATING))
            or abs(int(cleaned)) > MAX_ABS_RATING):
        raise CliError("option_too_large", option=option, value=shorten(cleaned),
                       limit=MAX_ABS_RATING)
    return int(cleaned)


def integer_option(option: str, value: str) -> int:
    """An option that always has a value (a default), as a whole number."""
    number = parse_integer_option(option, value)
    if number is None:  # pragma: no cover - argparse gives the default
        raise CliError("missing_value", option=option)
    return number


def csv_delimiter(value: str | None, lang: str) -> str:
    """The delimiter of ``--csv`` output: the one asked for, else the one a spreadsheet in the
    output language expects: a semicolon where numbers take a decimal comma (Spanish, Turkish),
    a comma elsewhere."""
    if value is None:
        return ";" if language(lang).decimal == "," else ","
    if value not in CSV_DELIMITERS:
        raise CliError("bad_csv_delimiter", value=shorten(value), choices=", ; tab")
    return CSV_DELIMITERS[value]


def parse_confidence(value: str) -> float:
    """``0.95``, ``0,95`` (decimal comma) and ``95%`` all mean a 95% confidence level.

    >>> parse_confidence("0,9"), parse_confidence("99%")
    (0.9, 0.99)
    """
    cleaned = value.strip().replace(",", ".")
    percent = cleaned.endswith("%")
    try:
        number = float(cleaned.rstrip("%").strip())
    except ValueError:
        raise InputError("bad_confidence", value=value) from None
    if percent:
        number = round(number / 100.0, 12)
    if not (math.isfinite(number) and 0.0 < number < 1.0):
        raise InputError("bad_confidence", value=value)
    return number



def parse_kappa0(value: str | None) -> float | None:
    """``--kappa0``: a number from -1 to 1, with a decimal point or comma (``0,6``).

    >>> parse_kappa0("0,6"), parse_kappa0(None), parse_kappa0("−0.2")
    (0.6, None, -0.2)
    """
    if value is None:
        return None
    cleaned = value.strip().replace(",", ".").replace("\u2212", "-")
    try:
        number = float(cleaned)
    except ValueError:
        raise InputError("bad_kappa_null", value=value) from None
    if not (math.isfinite(number) and -1.0 <= number <= 1.0):
        raise InputError("bad_kappa_null", value=value)
    return check_kappa0(number)
