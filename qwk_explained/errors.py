"""The one exception type for bad input.

Every problem a user can cause (a letter in a vector, two vectors of different length, a table that
is not square...) raises :class:`InputError` with a stable ``code`` and named ``params``. The code
is a key under ``errors.`` in ``locales/*.json``; the edge (CLI, app) turns it into a sentence in
the user's language with :func:`qwk_explained.i18n.error_message`. The core never builds user-facing
prose.
"""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """Bad user input, identified by a locale ``code`` and its placeholders ``params``."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{code}({detail})" if detail else code)
