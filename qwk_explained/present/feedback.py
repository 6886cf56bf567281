"""Sentences about a learner's answers: the checker's diagnoses in the learner's language."""

from __future__ import annotations

from qwk_explained.teaching.checking import Diagnosis

from .i18n import format_param, t
from .languages import language


def hint(lang: str, diagnosis: Diagnosis) -> str:
    """The diagnosis as sentences in ``lang`` (``checker.hint.<code>``, numbers formatted)."""
    params = {key: format_param(lang, value) for key, value in diagnosis.params.items()}
    sentences = []
    for code in diagnosis.codes:
        try:
            sentences.append(t(lang, f"checker.hint.{code}", **params))
        except (KeyError, IndexError):  # a placeholder the code did not provide
            sentences.append(t(lang, f"checker.hint.{code}"))
    return language(lang).sentence_joiner.join(sentences)
