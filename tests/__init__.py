"""The test suite, one folder per layer: engine, teaching, present, cli, app, browser, load."""

from __future__ import annotations

from pathlib import Path

#: The checkout the tests run from (app.py, locales/, .streamlit/, pyproject.toml).
ROOT = Path(__file__).resolve().parent.parent
