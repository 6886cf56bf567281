"""The one shape of every problem a user can cause: a namespaced code with named parameters.

Bad ratings (:class:`InputError`), a typed answer that is no number
(:class:`~qwk_explained.teaching.typed_numbers.AnswerError`), a submission that cannot be
checked (:class:`~qwk_explained.teaching.checking.SubmissionError`) and a wrong command line
(:class:`~qwk_explained.cli.errors.CliError`) all derive from :class:`QwkError`. ``key`` is the
locale key of the sentence (``errors.empty``, ``answers.not_a_number``, ``cli.missing_input``)
and ``params`` fill its placeholders. Sentences are written at the edge (CLI, app, notebook) by
one function, :func:`qwk_explained.present.i18n.message`; the core never builds user-facing prose.
"""

from __future__ import annotations

from typing import Any, ClassVar


class QwkError(Exception):
    """A problem the user can fix, named by ``code`` within the class's locale ``namespace``."""

    #: The locale namespace of the codes (the part of the key before the code).
    namespace: ClassVar[str] = "errors"

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{code}({detail})" if detail else code)

    @property
    def key(self) -> str:
        """The locale key of this error's sentence, e.g. ``errors.length_mismatch``."""
        return f"{self.namespace}.{self.code}"


class InputError(QwkError, ValueError):
    """Bad ratings, a bad table or bad settings (locale keys under ``errors.``)."""

    namespace = "errors"
