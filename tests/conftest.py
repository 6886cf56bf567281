"""What every test shares: the terminal the command line writes for, and a class database of
the test run's own.

The command line wraps its prose and formulas at the terminal's width (``COLUMNS`` when set,
:func:`shutil.get_terminal_size`). pytest-xdist's workers set ``COLUMNS=80`` while a plain run
has none, so a test of the terminal's text would read differently in the two. Every test runs
at the widest the command line writes (its ``MAX_WIDTH``); a test about narrower terminals sets
its own ``COLUMNS`` with ``monkeypatch``.

The class pages open their database on first use (``QWK_CLASS_DB``, else a file in the
checkout): every AppTest session, and every server a test starts (it inherits the environment),
uses a SQLite file in this run's temporary folder instead, one per xdist worker.

Every property test of a module that draws on the shared adversarial strategies
(:mod:`tests.hostile`) is marked ``hostile``: ``QWK_FUZZ_EXAMPLES=5000 pytest -m hostile`` runs
the whole harness longer, whatever the tests are called.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from qwk_class.store import DATABASE_ENV
from qwk_explained.present.markup import MAX_WIDTH
from tests import hostile


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(MAX_WIDTH))


@pytest.fixture(scope="session", autouse=True)
def class_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('class-database') / 'classes.sqlite3'}"
    before = os.environ.get(DATABASE_ENV)
    os.environ[DATABASE_ENV] = url
    try:
        yield url
    finally:
        if before is None:
            os.environ.pop(DATABASE_ENV, None)
        else:
            os.environ[DATABASE_ENV] = before


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    shared = {id(value) for name, value in vars(hostile).items()  # what tests.hostile defines
              if name.isupper() or getattr(value, "__module__", None) == hostile.__name__}
    for item in items:
        module = getattr(item, "module", None)
        is_property = hasattr(getattr(item, "obj", None), "hypothesis")
        if is_property and module is not None and any(
                id(value) in shared for name, value in vars(module).items()
                if not name.startswith("_") and not isinstance(value, (int, str, bool))):
            item.add_marker(pytest.mark.hostile)
    # Costly tests first (a browser, a server, an install, a kernel): pytest-xdist hands tests
    # out in this order, so the quick ones come last and fill in while the other worker finishes
    # its last costly one, instead of a minute-long test starting when everything else is done.
    items.sort(key=lambda item: not any(item.get_closest_marker(name)
                                        for name in ("slow", "browser")))
