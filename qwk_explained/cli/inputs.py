"""From the parsed options to a result: read the ratings (options, files, standard input) and
run the engine, naming the option or file any problem came from."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
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


def given(args: argparse.Namespace, option: str) -> str | None:
    """The value given to ``option`` (``--model-a-file`` is ``args.model_a_file``)."""
    value: str | None = getattr(args, option[2:].replace("-", "_"))
    return value


@dataclass(frozen=True)
class Source:
    """One input of a command, given either as text to ``option`` (``--actual``) or as a file to
    ``file_option`` (``--actual-file``), and how to read each.

    ``read_file`` takes the path and may refuse a file of the wrong shape with its own
    :class:`CliError`; an :class:`InputError` from either reader is said to come from the option
    or the file. ``missing`` is the error when neither is given.
    """

    option: str
    file_option: str
    parse_text: Callable[[str], Any]
    read_file: Callable[[str], Any]
    missing: Callable[[], CliError]

    def named(self, args: argparse.Namespace) -> str | None:
        """The option the user gave this input with, if any."""
        if given(args, self.option) is not None:
            return self.option
        return self.file_option if given(args, self.file_option) is not None else None

    def read(self, args: argparse.Namespace) -> Any:
        """The input, from its text or its file; :attr:`missing` when neither is given."""
        text, path = given(args, self.option), given(args, self.file_option)
        if text is not None:
            return _sourced(self.option, self.parse_text, text)
        if path is not None:
            return _sourced(path, self.read_file, path)
        raise self.missing()


def read_sources(args: argparse.Namespace, first: Source, rest: Sequence[Source],
                 in_one_file: str) -> tuple[Any, ...]:
    """Every input of a command (``first``, then ``rest``), each from its option or its file, or
    all of them as the columns of the first input's file.

    No input may be given both ways (``conflicting_options``). ``first.read_file`` returns the
    columns its file holds: one (the first input alone) or one per input, in which case no other
    input may be given as well (the error ``in_one_file`` names the file and the option).
    """
    for source in (first, *rest):
        if given(args, source.option) is not None and given(args, source.file_option) is not None:
            raise CliError("conflicting_options", first=source.option, second=source.file_option)
    found = first.read(args)  # the text's ratings, or the columns of the file
    if given(args, first.file_option) is None:
        return (found, *(source.read(args) for source in rest))
    if len(found) == 1 + len(rest):
        others = [name for source in rest if (name := source.named(args)) is not None]
        if others:
            raise CliError(in_one_file, path=given(args, first.file_option), option=others[0])
        return tuple(found)
    return (found[0], *(source.read(args) for source in rest))


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
    if args.table is not None:
        for option in ("--actual", "--predicted", "--actual-file", "--predicted-file", "--scale"):
            if given(args, option) is not None:
                raise CliError("conflicting_options", first="--table", second=option)
        counts = _sourced("--table", parse_table, args.table)
        labels = table_labels(counts.shape[0], low, high)
        result = walkthrough_from_table(counts, weights=args.weights, labels=labels)
        return result, result.statistics(confidence)

    scale = "range" if args.scale is None else args.scale
    if not is_scale(scale):
        raise InputError("unknown_scale", value=scale, choices=", ".join(SCALES))
    actual, predicted = read_sources(args, _actual_source(args), [PREDICTED],
                                     "two_columns_and_predicted")
    result = walkthrough(actual, predicted, weights=args.weights, scale=scale,
                         min_rating=low, max_rating=high)
    return result, result.statistics(confidence)


def _one_column(path: str, error: str) -> NDArray[np.int64]:
    """The ratings of a file that must hold one column (``error`` when it holds two)."""
    columns = read_ratings_file(path)
    if len(columns) != 1:
        raise CliError(error, path=path)
    return columns[0]


#: The predicted ratings: ``--predicted`` or ``--predicted-file`` (one column).
PREDICTED = Source("--predicted", "--predicted-file", parse_vector,
                   lambda path: _one_column(path, "predicted_file_two_columns"),
                   partial(CliError, "missing_predicted"))


def _actual_source(args: argparse.Namespace) -> Source:
    """The actual ratings: ``--actual``, or ``--actual-file`` with one column or two (actual,
    then predicted). Standard input can be read once: refused for both files before reading."""

    def read_file(path: str) -> tuple[NDArray[np.int64], ...]:
        if path == "-" and args.predicted_file == "-":
            raise CliError("stdin_twice")
        return read_ratings_file(path)

    return Source("--actual", "--actual-file", parse_vector, read_file,
                  lambda: CliError("missing_actual" if PREDICTED.named(args) else "missing_input"))
