"""Sentences about a learner's answers: verdicts, diagnoses and remarks in the learner's language.

The checker (:mod:`qwk_explained.teaching.checking`) returns codes; this module turns them into
the sentences of ``checker.verdict.*``, ``checker.diagnosis.*``, ``checker.note.*`` and
``checker.reading.*``, with numbers written as the language writes them. The checker page, the
practice page and ``qwk-explained check`` all speak through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.checking import (
    CELL_QUANTITIES,
    HISTOGRAMS,
    CheckedAnswer,
    Code,
    Verdict,
    cell_labels,
    first_wrong,
    hint_params,
)

from .catalogue import STEP_OF, STEPS
from .i18n import format_param, message, t
from .languages import language
from .numbers import format_label, format_number


def _params(lang: str, params: Mapping[str, Any]) -> dict[str, str]:
    return {key: format_param(lang, value) for key, value in params.items()}


def diagnosis_sentences(lang: str, result: Walkthrough, codes: Iterable[Code]) -> list[str]:
    """One sentence per mistake: what went wrong and how to fix it, with this result's numbers."""
    params = _params(lang, hint_params(result))
    return [t(lang, f"checker.diagnosis.{code}", **params) for code in codes]


def joined(lang: str, sentences: Iterable[str]) -> str:
    """Sentences as one paragraph (Chinese puts nothing after its full stop)."""
    return language(lang).sentence_joiner.join(sentences)


def where(lang: str, result: Walkthrough, answer: CheckedAnswer) -> str:
    """Where a value belongs: ``the cell of E for actual rating 2 and predicted rating 1``."""
    labels = cell_labels(result, answer.cell)
    if answer.quantity in CELL_QUANTITIES and labels is not None:
        return t(lang, f"checker.where.{answer.quantity}", row=label(lang, labels[0]),
                 col=label(lang, labels[1]))
    if answer.quantity in HISTOGRAMS and labels is not None:
        return t(lang, f"checker.where.{answer.quantity}", rating=label(lang, labels[0]))
    return t(lang, f"checker.where.{answer.quantity}")


def label(lang: str, value: int) -> str:
    """A rating label as the language writes it (never grouped: 1000, not 1,000)."""
    return format_label(value, lang)


#: The mark beside a checked value, the same on the checker page and in the terminal: right to
#: the digits written is "≈" (right, but not exact), a value that could not be read is "?".
MARKS: dict[Verdict, str] = {"right": "✓", "rounding": "≈", "right_other_convention": "✓",
                             "wrong": "✗"}
UNREADABLE = "?"


def mark(answer: CheckedAnswer) -> str:
    """The mark of one checked value (:data:`MARKS`, or :data:`UNREADABLE`)."""
    return MARKS[answer.verdict] if answer.verdict else UNREADABLE


_SYMBOLS = {"observed": "O", "weights": "w", "expected": "E", "observed_norm": "O / n",
            "expected_norm": "E / n", "actual_hist": "hist_a", "predicted_hist": "hist_p",
            "numerator": "num", "denominator": "den", "kappa": "kappa"}


def symbol(lang: str, result: Walkthrough, answer: CheckedAnswer) -> str:
    """A value's place as the walkthrough writes it: ``E[4, 0]``, ``O[4, 0] / n``,
    ``hist_a[2]``, ``num`` (a space after the comma: in Spanish "[4,0]" reads as 4,0)."""
    labels = cell_labels(result, answer.cell)
    name = _SYMBOLS[answer.quantity]
    if labels is None:
        return name
    head, _, tail = name.partition(" ")
    inside = ", ".join(label(lang, value) for value in labels)
    return f"{head}[{inside}]" + (f" {tail}" if tail else "")


def _read(lang: str, value: float) -> str:
    """A typed number as it was read, never grouped: "1.250" read as 1250 and echoed back as
    "1.250" would not say which reading was taken."""
    return format_number(value, lang, 6, group=False)


def verdict_line(lang: str, answer: CheckedAnswer) -> str:
    """``Right: 0.45 is correct.``, ``Not right: ...``; the problem when the text is no number."""
    if answer.problem is not None:
        return message(lang, answer.problem)
    given = _read(lang, answer.given) if answer.given is not None else ""
    return t(lang, f"checker.verdict.{answer.verdict}", value=given)


def explanation(lang: str, result: Walkthrough, answer: CheckedAnswer) -> list[str]:
    """Everything said about one checked value besides the verdict: how an ambiguous text was
    read, the remark on its digits or its source, and the sentence of every mistake named."""
    sentences = []
    if answer.reading is not None and answer.given is not None:
        sentences.append(t(lang, f"checker.reading.{answer.reading}", text=answer.text,
                           value=_read(lang, answer.given)))
    if answer.note is not None:
        sentences.append(t(lang, f"checker.note.{answer.note}"))
    sentences += diagnosis_sentences(lang, result, answer.diagnoses)
    if answer.wrong and not answer.diagnoses and answer.note is None:
        sentences.append(t(lang, "checker.no_hint"))
    return sentences


def first_wrong_sentence(lang: str, result: Walkthrough, checked: Sequence[CheckedAnswer]) -> str:
    """How many values are right and where the first wrong one is: the step to start again from.
    In the last step (kappa) it is the only wrong value, and no later step builds on it."""
    wrong = first_wrong(checked)
    if wrong is None:
        raise ValueError("every value is right: there is no first wrong one")
    step = STEP_OF[wrong.quantity]
    last = step is STEPS[-1]
    return t(lang, "checker.summary_last_wrong" if last else "checker.summary_first_wrong",
             right=format_number(sum(answer.accepted for answer in checked), lang),
             count=format_number(len(checked), lang), where=where(lang, result, wrong),
             number=format_number(step.number, lang), title=t(lang, step.title_key))
