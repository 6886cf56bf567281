"""Tests of class sessions (qwk_class and the class pages)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any


def all_at_once(target: Callable[[Any], object], arguments: Iterable[Any]) -> list[BaseException]:
    """Call ``target(argument)`` for every argument, each in a thread, the threads started
    together (servers starting at one moment, a class pressing Send at once); what any of them
    raised, for the test to assert there was nothing."""
    errors: list[BaseException] = []

    def run(argument: Any) -> None:
        try:
            target(argument)
        except BaseException as error:  # noqa: BLE001 - returned to the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(argument,)) for argument in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors
