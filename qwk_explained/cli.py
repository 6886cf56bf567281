"""The command line: weighted kappa explained step by step in the terminal, or every number as JSON.

``qwk-explained --actual "4,4,3" --predicted "0,2,1" --lang es`` prints the six steps of the app
(O, w, histograms, E, normalization, num/den/kappa), each formula with the user's numbers plugged
in, then the standard errors, z, p-value and confidence interval. ``--json`` prints the raw numbers.

Every sentence comes from ``locales/*.json`` (namespace ``cli``, shared names from ``common``);
formulas (symbols, ``=``, ``×``) are the same in every language and are built here. Numbers go
through :func:`qwk_explained.numbers.format_number`. A user never sees a traceback: bad input exits
with status 2 and one translated line on stderr, anything unexpected with status 1.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any, NoReturn, TextIO

import numpy as np
from numpy.typing import NDArray

from . import __version__
from .errors import InputError
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, error_message, format_param, resolve_language, t
from .interpret import landis_koch
from .numbers import format_number, format_percent
from .ratings import MAX_ITEMS, SCALES, decode_text, parse_csv, parse_table, parse_vector
from .stats import KappaStatistics
from .steps import Walkthrough, walkthrough, walkthrough_from_table

PROG = "qwk-explained"

#: Exit statuses: 2 for anything the user can fix (like argparse), 1 for a bug of ours.
EXIT_OK, EXIT_BUG, EXIT_INPUT = 0, 1, 2

#: Keys of the ``--json`` object, in order; the app and tests rely on exactly these.
JSON_KEYS = (
    "labels", "n", "observed", "actual_hist", "predicted_hist", "weights", "expected",
    "observed_norm", "expected_norm", "numerator", "denominator", "kappa", "undefined_reason",
    "se", "se0", "z", "p_value", "ci_low", "ci_high",
)

#: Vectors up to this length are echoed at the top of the walkthrough.
MAX_ECHOED_ITEMS = 40
#: Matrices up to this size are printed; wider ones would wrap into an unreadable terminal mess.
MAX_PRINTED_SIZE = 20
#: Sums with more non-zero terms than this show the first ones, then an ellipsis.
MAX_TERMS = 8
#: A rating file larger than this cannot hold a valid input (MAX_ITEMS pairs of short numbers).
MAX_FILE_BYTES = MAX_ITEMS * 24

_VALUE_OPTIONS = ("--actual", "--predicted", "--actual-file", "--predicted-file", "--table",
                  "--weights", "--scale", "--min-rating", "--max-rating", "--confidence", "--lang")
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
# argparse only reports problems as English sentences; these are the ones a user can cause with our
# parser (no positionals, no choices, no abbreviations), mapped to translated messages.
_ARGPARSE_ERRORS = (
    (re.compile(r"unrecognized arguments?: (?P<options>.+)"), "unknown_option"),
    (re.compile(r"argument (?P<option>\S+): expected one argument"), "missing_value"),
    (re.compile(r"argument (?P<option>\S+): ignored explicit argument (?P<value>.+)"),
     "unexpected_value"),
)


class CliError(Exception):
    """A problem with the command line itself; ``code`` is a key under ``cli.`` in the locales."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)


class _SourcedError(Exception):
    """An :class:`InputError` together with where it came from (an option or a file name)."""

    def __init__(self, source: str, error: InputError) -> None:
        self.source = source
        self.error = error
        super().__init__(source)


# --------------------------------------------------------------------------------------------
# Language
# --------------------------------------------------------------------------------------------


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it; English if unsupported.

    ``LANGUAGE`` (a colon-separated preference list) wins when it names a supported language,
    then the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set.

    >>> environment_language({"LANG": "es_ES.UTF-8"}), environment_language({"LC_ALL": "C"})
    ('es', 'en')
    """
    env = os.environ if environ is None else environ
    for entry in env.get("LANGUAGE", "").split(":"):
        if entry and _base_language(entry) in LANGUAGES:
            return _base_language(entry)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return resolve_language(value.split(".")[0])
    return DEFAULT_LANGUAGE


def _base_language(value: str) -> str:
    return value.split(".")[0].replace("_", "-").split("-")[0].strip().lower()


def _language_option(value: str) -> str:
    """``--lang`` takes ``es``, ``es_ES``, ``zh-CN``...; anything else is an error, not English."""
    base = _base_language(value)
    if base not in LANGUAGES:
        raise InputError("unknown_language", value=value, choices=", ".join(LANGUAGES))
    return base


def _requested_language(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value, read before argparse runs so that its errors are translated too."""
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


# --------------------------------------------------------------------------------------------
# Parsing the command line
# --------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors raised (to be translated) instead of printed in English."""

    def error(self, message: str) -> NoReturn:
        for pattern, code in _ARGPARSE_ERRORS:
            match = pattern.search(message)
            if match:
                raise CliError(code, **match.groupdict())
        raise CliError("usage_error", detail=message)

    def print_help(self, file: TextIO | None = None) -> None:
        _write(file or sys.stdout, self.format_help())


def _formatter_class(usage_prefix: str) -> type[argparse.HelpFormatter]:
    class _Formatter(argparse.RawDescriptionHelpFormatter):
        def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
            super().add_usage(usage, actions, groups, usage_prefix if prefix is None else prefix)

    return _Formatter


def build_parser(lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The argparse parser, with every help text in ``lang``."""

    def text(key: str, **params: Any) -> str:
        # argparse %-formats help strings: a Turkish "%95" must not be read as a format.
        return t(lang, f"cli.{key}", **params).replace("%", "%%")

    examples = "\n".join([
        t(lang, "cli.help_examples"),
        f'  {PROG} --actual "4,4,3,4,4,4,1,1,2,1" --predicted "0,2,1,0,0,0,1,1,2,1" --lang es',
        f"  {PROG} --actual-file ratings.csv --json",
        f'  {PROG} --table "0,4,1;0,8,0;0,1,5" --weights linear',
    ])
    parser = _Parser(
        prog=PROG,
        # The formatter keeps the epilog's line breaks, so the description is wrapped here.
        description=textwrap.fill(t(lang, "cli.help_description"), width=78,
                                  break_long_words=False, break_on_hyphens=False),
        epilog=examples,
        add_help=False,
        allow_abbrev=False,
        formatter_class=_formatter_class(t(lang, "cli.help_usage") + " "),
    )
    group = parser.add_argument_group(t(lang, "cli.help_options"))
    metavar = {key: t(lang, f"cli.metavar_{key}") for key in
               ("ratings", "path", "table", "rating", "level", "lang", "weights", "scale")}
    group.add_argument("--actual", metavar=metavar["ratings"], help=text("help_actual"))
    group.add_argument("--predicted", metavar=metavar["ratings"], help=text("help_predicted"))
    group.add_argument("--actual-file", metavar=metavar["path"], help=text("help_actual_file"))
    group.add_argument("--predicted-file", metavar=metavar["path"],
                       help=text("help_predicted_file"))
    group.add_argument("--table", metavar=metavar["table"], help=text("help_table"))
    group.add_argument("--weights", metavar=metavar["weights"], default="quadratic",
                       help=text("help_weights"))
    group.add_argument("--scale", metavar=metavar["scale"], help=text("help_scale"))
    group.add_argument("--min-rating", metavar=metavar["rating"], help=text("help_min_rating"))
    group.add_argument("--max-rating", metavar=metavar["rating"], help=text("help_max_rating"))
    group.add_argument("--confidence", metavar=metavar["level"], default="0.95",
                       help=text("help_confidence", default=format_number(0.95, lang)))
    group.add_argument("--lang", metavar=metavar["lang"], help=text("help_lang"))
    group.add_argument("--json", action="store_true", help=text("help_json"))
    group.add_argument("-h", "--help", action="help", help=text("help_help"))
    group.add_argument("--version", action="version", version=f"{PROG} {__version__}",
                       help=text("help_version"))
    return parser


def _join_dash_values(argv: Sequence[str]) -> list[str]:
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


def _parse_integer_option(option: str, value: str | None) -> int | None:
    if value is None:
        return None
    cleaned = value.strip()
    if not _INTEGER.match(cleaned):
        raise CliError("not_an_integer_option", option=option, value=value)
    return int(cleaned)


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


# --------------------------------------------------------------------------------------------
# Reading rating files
# --------------------------------------------------------------------------------------------


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        if os.path.isdir(path):
            raise CliError("file_is_directory", path=path)
        if os.path.getsize(path) > MAX_FILE_BYTES:
            raise CliError("file_too_large", path=path, limit=MAX_FILE_BYTES // 1_000_000)
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise CliError("file_not_found", path=path) from None
    except PermissionError:
        raise CliError("file_permission", path=path) from None
    except OSError:
        raise CliError("file_unreadable", path=path) from None


def read_ratings_file(path: str) -> tuple[NDArray[np.int64], ...]:
    """One or two rating columns from a text or CSV file (``-`` reads standard input).

    A file with one non-empty line is a vector (``4, 4, 3, 1``); otherwise it is read as CSV with
    one column (one rater) or two (actual, then predicted), header optional. A text file holding
    several ratings per line, which is not a CSV, falls back to being read as one vector.
    """
    text = decode_text(_read_bytes(path))
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InputError("empty")
    if len(lines) == 1:
        return (parse_vector(text),)
    try:
        return parse_csv(text).columns
    except InputError as csv_error:
        if csv_error.code not in {"csv_too_many_columns", "csv_ragged", "csv_bad_cell"}:
            raise
        try:
            return (parse_vector(text),)
        except InputError:
            raise csv_error from None


def _sourced(source: str, function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except InputError as error:
        raise _SourcedError(source, error) from None


# --------------------------------------------------------------------------------------------
# From arguments to results
# --------------------------------------------------------------------------------------------


def _table_labels(size: int, low: int | None, high: int | None) -> list[int] | None:
    """Row/column labels of a table: 0..N-1, or N consecutive ratings from a given end."""
    if low is None and high is None:
        return None
    if low is not None and high is not None:
        if low > high:
            raise InputError("bounds_reversed", min_rating=low, max_rating=high)
        if high - low + 1 != size:
            raise CliError("table_bounds_mismatch", size=size, min_rating=low, max_rating=high)
    if low is not None:
        return list(range(low, low + size))
    top = int(high or 0)
    return list(range(top - size + 1, top + 1))


def compute(args: argparse.Namespace) -> tuple[Walkthrough, KappaStatistics]:
    """Check the combination of options, read the input and run the engine."""
    confidence = parse_confidence(args.confidence)
    low = _parse_integer_option("--min-rating", args.min_rating)
    high = _parse_integer_option("--max-rating", args.max_rating)
    vector_options = {"--actual": args.actual, "--predicted": args.predicted,
                      "--actual-file": args.actual_file, "--predicted-file": args.predicted_file}
    if args.table is not None:
        for option, value in [*vector_options.items(), ("--scale", args.scale)]:
            if value is not None:
                raise CliError("conflicting_options", first="--table", second=option)
        counts = _sourced("--table", parse_table, args.table)
        labels = _table_labels(counts.shape[0], low, high)
        result = walkthrough_from_table(counts, weights=args.weights, labels=labels)
        return result, result.statistics(confidence)

    scale = "range" if args.scale is None else args.scale
    if scale not in SCALES:
        raise InputError("unknown_scale", value=scale, choices=", ".join(SCALES))
    for text_option, file_option in (("--actual", "--actual-file"),
                                     ("--predicted", "--predicted-file")):
        if vector_options[text_option] is not None and vector_options[file_option] is not None:
            raise CliError("conflicting_options", first=text_option, second=file_option)
    if args.actual is None and args.actual_file is None:
        if args.predicted is not None or args.predicted_file is not None:
            raise CliError("missing_actual")
        raise CliError("missing_input")

    predicted_option = "--predicted" if args.predicted is not None else "--predicted-file"
    predicted_given = args.predicted is not None or args.predicted_file is not None
    if args.actual_file is not None:
        columns = _sourced(args.actual_file, read_ratings_file, args.actual_file)
        if len(columns) == 2 and predicted_given:
            raise CliError("two_columns_and_predicted", path=args.actual_file,
                           option=predicted_option)
        actual = columns[0]
        predicted = columns[1] if len(columns) == 2 else None
    else:
        actual = _sourced("--actual", parse_vector, args.actual)
        predicted = None
    if args.predicted is not None:
        predicted = _sourced("--predicted", parse_vector, args.predicted)
    elif args.predicted_file is not None:
        columns = _sourced(args.predicted_file, read_ratings_file, args.predicted_file)
        if len(columns) != 1:
            raise CliError("predicted_file_two_columns", path=args.predicted_file)
        predicted = columns[0]
    if predicted is None:
        raise CliError("missing_predicted")
    result = walkthrough(actual, predicted, weights=args.weights, scale=scale,
                         min_rating=low, max_rating=high)
    return result, result.statistics(confidence)


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A JSON-safe scalar: Python int/float, ``None`` for missing or non-finite values."""
    if value is None:
        return None
    if isinstance(value, np.integer | int) and not isinstance(value, bool):
        return int(value)
    number = float(value)
    return number if math.isfinite(number) else None


def result_json(result: Walkthrough, stats: KappaStatistics) -> dict[str, Any]:
    """Every number of the walkthrough as plain JSON types (matrices as nested lists)."""
    payload: dict[str, Any] = {
        "labels": result.labels.tolist(),
        "n": int(result.n),
        "observed": result.observed.tolist(),
        "actual_hist": result.actual_hist.tolist(),
        "predicted_hist": result.predicted_hist.tolist(),
        "weights": result.weights.tolist(),
        "expected": result.expected.tolist(),
        "observed_norm": result.observed_norm.tolist(),
        "expected_norm": result.expected_norm.tolist(),
        "numerator": _plain(result.numerator),
        "denominator": _plain(result.denominator),
        "kappa": _plain(result.kappa),
        "undefined_reason": result.undefined_reason,
        "se": _plain(stats.se),
        "se0": _plain(stats.se0),
        "z": _plain(stats.z),
        "p_value": _plain(stats.p_value),
        "ci_low": _plain(stats.ci_low),
        "ci_high": _plain(stats.ci_high),
    }
    return {key: payload[key] for key in JSON_KEYS}


# --------------------------------------------------------------------------------------------
# Text walkthrough
# --------------------------------------------------------------------------------------------


class _Text:
    """Helpers bound to one language: numbers, labels, sentences."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def num(self, value: float | int) -> str:
        return format_number(value, self.lang)

    def label(self, value: int) -> str:
        return format_number(int(value), self.lang, group=False)

    def cell(self, i: int, j: int) -> str:
        # A space after the comma: in Spanish and Turkish "[4,0]" would read as the number 4,0.
        return f"[{self.label(i)}, {self.label(j)}]"

    def __call__(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    def prose(self, key: str, **params: Any) -> str:
        """A translated sentence wrapped to the terminal (Chinese, without spaces, stays whole)."""
        width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 100))
        return textwrap.fill(self(key, **params), width=width, break_long_words=False,
                             break_on_hyphens=False)


def _grid(corner: str, columns: list[str], rows: list[tuple[str, list[str]]]) -> list[str]:
    """An aligned text table: a header of column labels, then one labelled line per row."""
    width = max(len(text) for text in [*columns, *(c for _, cells in rows for c in cells)])
    head = max(len(corner), *(len(label) for label, _ in rows))
    lines = [f"  {corner.rjust(head)} | " + " ".join(c.rjust(width) for c in columns)]
    lines.append("  " + "-" * head + "-+-" + "-" * (len(columns) * (width + 1) - 1))
    for label, cells in rows:
        lines.append(f"  {label.rjust(head)} | " + " ".join(c.rjust(width) for c in cells))
    return lines


def _matrix(tx: _Text, labels: NDArray[np.int64], matrix: NDArray[Any]) -> list[str]:
    if len(labels) > MAX_PRINTED_SIZE:
        return [tx("cli.matrix_too_large", size=len(labels))]
    names = [tx.label(v) for v in labels]
    rows = [(name, [tx.num(v) for v in row]) for name, row in zip(names, matrix.tolist(),
                                                                   strict=True)]
    return _grid("i \\ j", names, rows)


def _sum_of_terms(tx: _Text, weights: NDArray[Any], values: NDArray[Any]) -> str:
    """``0.5625 × 0.1 + 0.25 × 0.1 + …``: the non-zero terms of sum(w × M), to check by hand."""
    mask = (weights > 0) & (values > 0)
    terms = [f"{tx.num(w)} × {tx.num(v)}" for w, v in zip(weights[mask], values[mask],
                                                          strict=True)]
    if not terms:
        return "0"
    shown = " + ".join(terms[:MAX_TERMS])
    return shown + (" + …" if len(terms) > MAX_TERMS else "")


def _weights_section(tx: _Text, result: Walkthrough) -> list[str]:
    labels = result.labels
    size = len(labels)
    lines = [tx.prose(f"cli.weights_explain_{result.weights_name}")]
    if size < 2:
        return [*lines, tx.prose("cli.weights_single")]
    consecutive = bool(np.all(np.diff(labels) == 1))
    if not consecutive and result.weights_name != "unweighted":
        lines.append(tx.prose("cli.weights_positions"))
    generic = {
        "quadratic": "w[i, j] = (i − j)² / (N − 1)²",
        "linear": "w[i, j] = |i − j| / (N − 1)",
        "unweighted": "w[i, i] = 0,  w[i, j] = 1  (i ≠ j)",
    }[result.weights_name]
    if not consecutive:
        generic = generic.replace("(i − j)", "(p(i) − p(j))").replace("|i − j|", "|p(i) − p(j)|")
    lines.append(f"N = {size}:  {generic}")
    if result.weights_name == "unweighted":
        pairs = [(0, 0), (0, 1)]
    else:
        pairs = [(0, 1)] + ([(0, size - 1)] if size > 2 else [])
    for a, b in pairs:
        i, j = int(labels[a]), int(labels[b])
        value = tx.num(result.weights[a, b])
        head = f"w{tx.cell(i, j)}"
        # On a consecutive scale i − j equals the difference of positions, so the labels are
        # plugged in directly; otherwise the positions p(i), p(j) are shown first.
        pi, pj = (i, j) if consecutive else (a, b)
        p_i, p_j = f"p({tx.label(i)})", f"p({tx.label(j)})"
        if result.weights_name == "quadratic":
            via = "" if consecutive else f"({p_i} − {p_j})² / (N − 1)² = "
            lines.append(f"{head} = {via}({tx.label(pi)} − {tx.label(pj)})² / ({size} − 1)² = "
                         f"{(pi - pj) ** 2} / {(size - 1) ** 2} = {value}")
        elif result.weights_name == "linear":
            via = "" if consecutive else f"|{p_i} − {p_j}| / (N − 1) = "
            lines.append(f"{head} = {via}|{tx.label(pi)} − {tx.label(pj)}| / ({size} − 1) = "
                         f"{abs(pi - pj)} / {size - 1} = {value}")
        else:
            lines.append(f"{head} = {value}")
    return lines


def render_text(result: Walkthrough, stats: KappaStatistics, lang: str,
                scale: str = "range") -> str:
    """The whole walkthrough as terminal text in ``lang`` (what the CLI prints by default).

    ``scale`` is the convention the labels were built with (the result does not record it).
    """
    tx = _Text(lang)
    labels = result.labels
    size = len(labels)
    n = result.n
    scale_names = ", ".join(tx.label(v) for v in labels)
    out: list[str] = []

    def step(number: int, title_key: str) -> None:
        out.append("")
        out.append(tx.prose("cli.step_heading", number=number, title=tx(title_key)))

    # Header: what is compared, with which weighting and scale.
    out.append(tx.prose("cli.title", name=tx(f"common.kappa_name.{result.weights_name}")))
    weighting = tx(f"common.weights.{result.weights_name}")
    if result.actual is None:
        out.append(tx.prose("cli.settings_table", weighting=weighting))
        out.append(tx.prose("cli.input_table", n=tx.num(n), size=size, labels=scale_names))
    else:
        out.append(tx.prose("cli.settings_vectors", weighting=weighting,
                      scale=tx(f"common.scale.{scale}")))
        if n <= MAX_ECHOED_ITEMS and result.predicted is not None:
            for key, values in (("common.actual_ratings", result.actual),
                                ("common.predicted_ratings", result.predicted)):
                shown = ", ".join(tx.label(v) for v in values)
                out.append(tx.prose("cli.value_line", label=tx(key), value=shown))
        out.append(tx.prose("cli.input_vectors", n=tx.num(n), size=size, labels=scale_names))

    # 1. O
    step(1, "common.observed_matrix")
    out.append(tx.prose("cli.observed_explain"))
    out.extend(_matrix(tx, labels, result.observed))
    out.append(f"n = Σ O[i, j] = {tx.num(n)}")

    # 2. w
    step(2, "common.weight_matrix")
    out.extend(_weights_section(tx, result))
    out.extend(_matrix(tx, labels, result.weights))

    # 3. histograms
    step(3, "common.histograms")
    out.append(tx.prose("cli.histograms_explain"))
    names = [tx.label(v) for v in labels]
    hist_a = [tx.num(v) for v in result.actual_hist.tolist()]
    hist_p = [tx.num(v) for v in result.predicted_hist.tolist()]
    if size <= MAX_PRINTED_SIZE:
        out.extend(_grid("i", names, [("hist_a", hist_a), ("hist_p", hist_p)]))
    else:  # a long scale reads better as one line per rating
        out.extend(_grid("i", ["hist_a", "hist_p"],
                         [(name, [a, p]) for name, a, p in zip(names, hist_a, hist_p,
                                                                strict=True)]))
    out.append(f"Σ hist_a = Σ hist_p = n = {tx.num(n)}")

    # 4. E, with the cell that weighs most in the denominator worked out.
    step(4, "common.expected_matrix")
    out.append(tx.prose("cli.expected_explain"))
    out.append("E[i, j] = hist_a[i] × hist_p[j] / n")
    focus = result.weighted_expected if result.denominator > 0 else result.expected
    a, b = (int(x) for x in np.unravel_index(int(np.argmax(focus)), focus.shape))
    i, j = int(labels[a]), int(labels[b])
    out.append(f"E{tx.cell(i, j)} = hist_a[{tx.label(i)}] × hist_p[{tx.label(j)}] / n = "
               f"{tx.num(result.actual_hist[a])} × {tx.num(result.predicted_hist[b])} / "
               f"{tx.num(n)} = {tx.num(result.expected[a, b])}")
    out.extend(_matrix(tx, labels, result.expected))

    # 5. O/n and E/n
    step(5, "common.normalization")
    out.append(tx.prose("cli.normalization_explain"))
    oa, ob = (int(x) for x in np.unravel_index(int(np.argmax(result.observed)),
                                               result.observed.shape))
    out.append(f"O{tx.cell(int(labels[oa]), int(labels[ob]))} / n = "
               f"{tx.num(result.observed[oa, ob])} / {tx.num(n)} = "
               f"{tx.num(result.observed_norm[oa, ob])}")
    out.append(f"E{tx.cell(i, j)} / n = {tx.num(result.expected[a, b])} / {tx.num(n)} = "
               f"{tx.num(result.expected_norm[a, b])}")
    out.append("O / n")
    out.extend(_matrix(tx, labels, result.observed_norm))
    out.append("E / n")
    out.extend(_matrix(tx, labels, result.expected_norm))
    out.append(f"Σ O[i, j] / n = Σ E[i, j] / n = {tx.num(1)}")

    # 6. num, den, kappa
    step(6, "common.kappa_step")
    out.append(tx.prose("cli.kappa_explain"))
    num, den = tx.num(result.numerator), tx.num(result.denominator)
    for name, value, matrix, total in (("num", "O", result.observed_norm, num),
                                       ("den", "E", result.expected_norm, den)):
        terms = _sum_of_terms(tx, result.weights, matrix)
        plugged = "" if terms == total else f"{terms} = "
        out.append(f"{name} = Σ w[i, j] × {value}[i, j] / n = {plugged}{total}")
    if result.kappa is None:
        out.append(f"kappa = 1 − num / den = 1 − {num} / {den}")
        out.append(tx.prose(f"undefined.{result.undefined_reason}"))
    else:
        out.append(f"kappa = 1 − num / den = 1 − {num} / {den} = {tx.num(result.kappa)}")

    out.append("")
    out.append(tx("cli.result_heading"))
    out.extend(_result_lines(tx, result, stats))
    return "\n".join(out) + "\n"


def _result_lines(tx: _Text, result: Walkthrough, stats: KappaStatistics) -> list[str]:
    def line(label_key: str, value: str) -> str:
        return tx("cli.value_line", label=tx(label_key), value=value)

    if result.kappa is None:
        # The reason was given under step 6, right after 0/0.
        return [line("common.kappa", tx("common.undefined")),
                tx.prose("cli.statistics_need_kappa")]
    kappa = tx.num(result.kappa)
    band = landis_koch(result.kappa)
    lines = [
        f"kappa = {kappa}",
        line("common.interpretation", tx(f"common.band.{band}")),
    ]
    if stats.se is None or stats.se0 is None or stats.ci_low is None or stats.ci_high is None:
        return [*lines, tx.prose("cli.statistics_unavailable")]
    lines.append(line("common.standard_error", f"SE = {tx.num(stats.se)}"))
    lines.append(line("common.standard_error_h0", f"SE0 = {tx.num(stats.se0)}"))
    if stats.z is None or stats.p_value is None:
        lines.append(tx.prose("cli.z_unavailable"))
    else:
        lines.append(f"z = kappa / SE0 = {kappa} / {tx.num(stats.se0)} = {tx.num(stats.z)}")
        smallest = 10.0 ** -4
        p_text = (f"p < {tx.num(smallest)}" if stats.p_value < smallest
                  else f"p = {tx.num(stats.p_value)}")
        lines.append(line("common.p_value_two_sided", p_text))
    level = format_percent(stats.confidence, tx.lang, decimals=2)
    lines.append(tx("cli.confidence_interval_line", level=level, low=tx.num(stats.ci_low),
                    high=tx.num(stats.ci_high)))
    critical = NormalDist().inv_cdf(0.5 + stats.confidence / 2.0)
    lines.append(f"kappa ± z × SE = {kappa} ± {tx.num(critical)} × {tx.num(stats.se)}")
    return lines


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def _write(stream: TextIO, text: str) -> None:
    """Write even to a terminal that cannot encode Chinese or ×: unknown characters become ?."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))


def _one_line(message: str) -> str:
    return f"{PROG}: " + " ".join(message.split()) + "\n"


def _message(lang: str, error: Exception) -> str:
    if isinstance(error, InputError):
        return error_message(lang, error)
    if isinstance(error, _SourcedError):
        return t(lang, "cli.error_context", source=error.source,
                 message=error_message(lang, error.error))
    if isinstance(error, CliError):
        params = {k: format_param(lang, v) for k, v in error.params.items()}
        return t(lang, f"cli.{error.code}", **params)
    raise TypeError(type(error).__name__)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 1 unexpected error)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    lang = environment_language()
    try:
        try:
            requested = _requested_language(arguments)
            if requested is not None:
                lang = _language_option(requested)
            args = build_parser(lang).parse_args(_join_dash_values(arguments))
            result, stats = compute(args)
            if args.json:
                text = json.dumps(result_json(result, stats), ensure_ascii=False,
                                  allow_nan=False) + "\n"
            else:
                text = render_text(result, stats, lang, args.scale or "range")
        except (InputError, CliError, _SourcedError) as error:
            _write(sys.stderr, _one_line(_message(lang, error)))
            return EXIT_INPUT
        _write(sys.stdout, text)
        sys.stdout.flush()
        return EXIT_OK
    except SystemExit as stop:  # --help and --version end through argparse's exit()
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head`: stop quietly, and keep Python from complaining at shutdown.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_BUG
    except Exception as error:  # the last guard: a user never sees a traceback
        try:
            message = t(lang, "cli.unexpected_error", kind=type(error).__name__)
        except Exception:  # even the locale files may be what broke
            message = f"unexpected error ({type(error).__name__})"
        _write(sys.stderr, _one_line(message))
        return EXIT_BUG
