"""The test suite, one folder per layer: engine, teaching, present, cli, app, browser, load."""

from __future__ import annotations

import shutil
from pathlib import Path

#: The checkout the tests run from (app.py, locales/, .streamlit/, pyproject.toml).
ROOT = Path(__file__).resolve().parent.parent


def clean_copy(destination: Path) -> Path:
    """The checkout's files without what git ignores (virtual environments, caches, builds): what
    a fresh clone holds, for the tests that install it as a user would."""
    patterns = [line.strip().rstrip("/") for line in
                (ROOT / ".gitignore").read_text("utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    return Path(shutil.copytree(ROOT, destination, symlinks=True,
                                ignore=shutil.ignore_patterns(".git", *patterns)))
