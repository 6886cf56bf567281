"""What every test shares: a class database of the test run's own.

The class pages open their database on first use (``QWK_CLASS_DB``, else a file in the
checkout): every AppTest session, and every server a test starts (it inherits the environment),
uses a SQLite file in this run's temporary folder instead, one per xdist worker."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from qwk_class.store import DATABASE_ENV


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
