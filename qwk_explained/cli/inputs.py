"""From the parsed options to a result: read the ratings (options, files, standard input) and
run the engine, naming the option or file any problem came from."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.csvfile import decode_text, parse_csv
from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_ITEMS
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.stats import KappaStatistics
from qwk_explained.core.steps import Walkthrough, walkthrough, walkthrough_from_table
from qwk_explained.core.tables import parse_table
from qwk_explained.core.types import SCALES, is_scale

from .args import parse_confidence, parse_integer_option
from .errors import CliError, sourced

#: A rating file larger than this cannot hold a valid input (MAX_ITEMS pairs of short numbers).
MAX_FILE_BYTES = MAX_ITEMS * 24


@contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """A file (``-``: standard input) opened for reading bytes; a file that cannot be opened
    (missing, a folder, not allowed) raises the user's error. Only the opening is translated:
    an error while the caller works (a closed pipe on output) stays what it is."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        if os.path.isdir(path):
            raise CliError("file_is_directory", path=path)
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        raise CliError("file_not_found", path=path) from None
    except PermissionError:
        raise CliError("file_permission", path=path) from None
    except OSError:
        raise CliError("file_unreadable", path=path) from None
    with handle:
        yield handle


def read_bytes(path: str) -> bytes:
    """A whole file (``-``: standard input), refused beyond :data:`MAX_FILE_BYTES`."""
    with open_input(path) as stream:
        try:
            if path != "-" and os.fstat(stream.fileno()).st_size > MAX_FILE_BYTES:
                raise CliError("file_too_large", path=path, limit=MAX_FILE_BYTES // 1_000_000)
            data = stream.read(MAX_FILE_BYTES + 1)  # a pipe has no size to ask in advance
        except OSError:
            raise CliError("file_unreadable", path=path) from None
    if len(data) > MAX_FILE_BYTES:
        raise CliError("file_too_large", path=path, limit=MAX_FILE_BYTES // 1_000_000)
    return data


def read_text(path: str) -> str:
    """A text file (``-``: standard input), decoded like the rating files."""
    return decode_text(read_bytes(path))


def read_ratings_file(path: str, max_columns: int = 2) -> tuple[NDArray[np.int64], ...]:
    """One or two rating columns from a text or CSV file (``-`` reads standard input); up to
    ``max_columns`` (three for ``compare``: actual, model A, model B).

    A file with one line of ratings is a vector (``4, 4, 3, 1``); otherwise it is read as CSV with
    one column (one rater) or two (actual, then predicted), header optional (a header alone is
    said to be one). A text file holding several ratings per line that is no CSV (the first line
    has more than two, or they are separated by spaces) falls back to being read as one vector;
    a CSV whose lines have different widths never does: the line is named. With three columns
    allowed, a file with more stays a CSV (``csv_too_many_columns``), since a comparison's file
    is a table.
    """
    return ratings_columns(read_text(path), max_columns)


def ratings_columns(text: str, max_columns: int = 2) -> tuple[NDArray[np.int64], ...]:
    """:func:`read_ratings_file` for a file's text already read."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InputError("empty")
    if len(lines) == 1 and any(character.isdigit() for character in lines[0]):
        return (parse_vector(text),)
    try:
        return parse_csv(text, max_columns=max_columns).columns
    except InputError as csv_error:
        fallback = {"csv_ragged", "csv_bad_cell"}
        if max_columns < 3:
            fallback.add("csv_too_many_columns")
        ragged_csv = csv_error.code == "csv_ragged" and _has_delimiter(lines[0])
        if ragged_csv or csv_error.code not in fallback:
            raise
        try:
            return (parse_vector(text),)
        except InputError:
            raise csv_error from None


def _has_delimiter(line: str) -> bool:
    return any(delimiter in line for delimiter in ",;\t")


def _sourced(source: str, function: Callable[..., Any], *args: Any) -> Any:
    try:
        return function(*args)
    except InputError as error:
        raise sourced(source, error) from None


def table_labels(size: int, low: int | None, high: int | None) -> list[int] | None:
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
    low = parse_integer_option("--min-rating", args.min_rating)
    high = parse_integer_option("--max-rating", args.max_rating)
    vector_options = {"--actual": args.actual, "--predicted": args.predicted,
                      "--actual-file": args.actual_file, "--predicted-file": args.predicted_file}
    if args.table is not None:
        for option, value in [*vector_options.items(), ("--scale", args.scale)]:
            if value is not None:
                raise CliError("conflicting_options", first="--table", second=option)
        counts = _sourced("--table", parse_table, args.table)
        labels = table_labels(counts.shape[0], low, high)
        result = walkthrough_from_table(counts, weights=args.weights, labels=labels)
        return result, result.statistics(confidence)

    scale = "range" if args.scale is None else args.scale
    if not is_scale(scale):
        raise InputError("unknown_scale", value=scale, choices=", ".join(SCALES))
    for text_option, file_option in (("--actual", "--actual-file"),
                                     ("--predicted", "--predicted-file")):
        if vector_options[text_option] is not None and vector_options[file_option] is not None:
            raise CliError("conflicting_options", first=text_option, second=file_option)
    if args.actual is None and args.actual_file is None:
        if args.predicted is not None or args.predicted_file is not None:
            raise CliError("missing_actual")
        raise CliError("missing_input")

    if args.actual_file == "-" and args.predicted_file == "-":
        raise CliError("stdin_twice")
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
