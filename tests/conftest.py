"""What every test shares: the terminal the command line writes for.

The command line wraps its prose and formulas at the terminal's width (``COLUMNS`` when set,
:func:`shutil.get_terminal_size`). pytest-xdist's workers set ``COLUMNS=80`` while a plain run
has none, so a test of the terminal's text would read differently in the two. Every test runs
at the widest the command line writes (its ``MAX_WIDTH``); a test about narrower terminals sets
its own ``COLUMNS`` with ``monkeypatch``.
"""

from __future__ import annotations

import pytest

from qwk_explained.present.markup import MAX_WIDTH


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(MAX_WIDTH))
