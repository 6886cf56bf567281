"""The package's version, written once: in ``pyproject.toml``.

An installed package (a wheel, or the editable install ``make setup`` makes) knows it from its
metadata. A checkout that was never installed (run with ``PYTHONPATH=.``) has no metadata; there
the version is read from the ``pyproject.toml`` beside the package, the file the metadata is
built from.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["__version__"]

DISTRIBUTION = "qwk-explained"
#: Neither installed nor in a checkout (the package folder copied on its own).
UNKNOWN = "0+unknown"


def checkout_version(pyproject: Path) -> str:
    """The ``version`` of the ``[project]`` table of a ``pyproject.toml`` (``tomllib`` is not
    in Python 3.10's standard library; the table is written by hand, one key per line)."""
    try:
        text = pyproject.read_text("utf-8")
    except OSError:
        return UNKNOWN
    _, found, rest = text.partition("\n[project]\n")
    table = re.split(r"^\[", rest, maxsplit=1, flags=re.MULTILINE)[0]
    match = re.search(r'^version\s*=\s*"([^"]+)"\s*$', table, re.MULTILINE)
    return match[1] if found and match else UNKNOWN


def _version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return checkout_version(Path(__file__).resolve().parent.parent / "pyproject.toml")


__version__ = _version()
