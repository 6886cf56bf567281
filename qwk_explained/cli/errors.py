"""What can go wrong on the command line, and the exit status each ends with."""

from __future__ import annotations

from enum import IntEnum

from qwk_explained.core.errors import QwkError


class ExitStatus(IntEnum):
    """The command's exit statuses: 2 for anything the user can fix (like argparse), 1 for a bug;
    a reader that went away (``| head``) and Ctrl+C end as a shell reports a process stopped by
    that signal, 128 + its number, so a pipeline does not count them as failures of ours."""

    OK = 0
    BUG = 1
    INPUT = 2
    INTERRUPTED = 130  # 128 + SIGINT
    BROKEN_PIPE = 141  # 128 + SIGPIPE


class CliError(QwkError):
    """A problem with the command line itself (locale keys under ``cli.``).

    An input problem found in one option or file keeps its origin: ``CliError("error_context",
    source="ratings.csv", message=InputError(...))`` reads "ratings.csv: <the input's sentence>".
    """

    namespace = "cli"


def sourced(source: str, error: QwkError) -> CliError:
    """``error``, said to come from ``source`` (an option such as ``--actual``, or a file name)."""
    return CliError("error_context", source=source, message=error)
