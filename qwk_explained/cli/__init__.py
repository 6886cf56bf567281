"""The command line, as a small package: ``args`` (the options), ``inputs`` (reading ratings and
running the engine), ``text`` and ``json_output`` (the two outputs), ``errors`` (what can go
wrong and the exit statuses), ``core`` (``main``, the entry point that ties them together)."""

from __future__ import annotations

from .core import main
from .errors import CliError, ExitStatus

__all__ = ["CliError", "ExitStatus", "main"]
