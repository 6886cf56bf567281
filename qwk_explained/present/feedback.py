"""Sentences about a learner's answers: verdicts, diagnoses and remarks in the learner's language.

The checker (:mod:`qwk_explained.teaching.checking`) returns codes; this module turns them into
the sentences of ``checker.verdict.*``, ``checker.diagnosis.*``, ``checker.note.*`` and
``checker.reading.*``, with numbers written as the language writes them. The checker page, the
practice page and ``qwk-explained check`` all speak through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from qwk_explained.core.steps import Walkthrough
from qwk_explained.teaching.checking import (
    CELL_QUANTITIES,
    HISTOGRAMS,
    CheckedAnswer,
    Code,
    Verdict,
    cell_labels,
    first_wrong,
    graded,
    hint_params,
)

from .catalogue import STEP_OF, STEPS
from .i18n import format_param, message, t
from .languages import language
from .numbers import DECIMALS, format_label, format_number


def _params(lang: str, params: Mapping[str, Any]) -> dict[str, str]:
    return {key: format_param(lang, value) for key, value in params.items()}


#: Mistakes in dividing the weights: named together with another weighting, each sentence
#: speaks of that weighting's distance and divisors.
_SCALING_CODES = frozenset({"weights_not_normalized", "weights_divided_by_N_squared",
                            "weights_divided_by_N_minus_1"})


def diagnosis_sentences(lang: str, result: Walkthrough, codes: Iterable[Code]) -> list[str]:
    """One sentence per mistake: what went wrong and how to fix it, with this result's numbers.

    Two mistakes that explain a value together are each said so that it is true of that value:
    w = 0.8 for w[0, 4] on five levels is linear weights divided by N = 5. "This is the value
    with linear weights" (1) and "divided by 25 instead of 16" (0.64) would each be false; the
    weighting is named by its distance and the divisors are the linear ones (tr review)."""
    codes = tuple(codes)
    params = _params(lang, hint_params(result, codes))
    combined = bool(_SCALING_CODES.intersection(codes))
    return [t(lang, f"checker.diagnosis.{code}_distance" if combined and code in
              ("linear_weights", "quadratic_weights") else f"checker.diagnosis.{code}", **params)
            for code in codes]


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


#: The mark beside a checked value, the same on the checker page and in the terminal: right but
#: not exact is "≈", too few digits to grade "±" (the writing stands for too wide a range), a
#: value that is no number "?".
MARKS: dict[Verdict, str] = {"right": "✓", "rounding": "≈", "right_other_convention": "✓",
                             "too_coarse": "±", "wrong": "✗", "unreadable": "?"}


def mark(answer: CheckedAnswer) -> str:
    """The mark of one checked value (:data:`MARKS`)."""
    return MARKS[answer.verdict]


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


def places(lang: str, result: Walkthrough, group: Sequence[CheckedAnswer]) -> str:
    """Where the values of one message are, for Markdown: each symbol (``E[4, 0]``) in code
    type, or, when they are a whole matrix or histogram, "every cell of ``E``" (or every one
    that is not 0: a mistake that scales the values leaves the zeros right). Sixteen names in
    a row would hide the one thing the message says, that the whole grid shares a mistake."""
    quantities = {answer.quantity for answer in group}
    if len(quantities) == 1 and len(group) > 1:
        quantity = next(iter(quantities))
        cells = {answer.cell for answer in group}
        if quantity in CELL_QUANTITIES or quantity in HISTOGRAMS:
            values = np.asarray(getattr(result, quantity))
            every = {tuple(int(k) for k in index) for index in np.ndindex(values.shape)}
            nonzero = {tuple(int(k) for k in index) for index in np.argwhere(values != 0)}
            kind = "cell" if quantity in CELL_QUANTITIES else "bar"
            grid = f"`{_SYMBOLS[quantity]}`"
            if cells == every:
                return t(lang, f"checker.every_{kind}", grid=grid)
            if cells == nonzero:
                return t(lang, f"checker.every_nonzero_{kind}", grid=grid)
    return " ".join(f"`{symbol(lang, result, answer)}`" for answer in group)


def _read(lang: str, value: float) -> str:
    """A typed number as it was read, never grouped: "1.250" read as 1250 and echoed back as
    "1.250" would not say which reading was taken."""
    return format_number(value, lang, 6, group=False)


def verdict_line(lang: str, answer: CheckedAnswer) -> str:
    """``Right: 0.45 is correct.``, ``Not right: ...``; the problem when the text is no number;
    for "undefined" typed as kappa, whether kappa is undefined."""
    if answer.problem is not None:
        return message(lang, answer.problem)
    if answer.undefined:
        return t(lang, f"checker.verdict_undefined.{'right' if answer.accepted else 'wrong'}")
    given = _read(lang, answer.given) if answer.given is not None else ""
    return t(lang, f"checker.verdict.{answer.verdict}", value=given)


def explanation(lang: str, result: Walkthrough, answer: CheckedAnswer) -> list[str]:
    """Everything said about one checked value besides the verdict: how an ambiguous text was
    read, how many digits to write when it has too few, the remark on its source, and the
    sentence of every mistake named."""
    sentences = []
    if answer.reading is not None and answer.given is not None:
        sentences.append(t(lang, f"checker.reading.{answer.reading}", text=answer.text,
                           value=_read(lang, answer.given)))
    if answer.needed is not None:
        sentences.append(t(lang, f"checker.too_coarse.{answer.needed.kind}",
                           count=answer.needed.count))
    if answer.note is not None:
        sentences.append(t(lang, f"checker.note.{answer.note}"))
    codes = answer.diagnoses
    if answer.verdict == "right_other_convention" and "expected_not_divided_by_n" in codes:
        # den from counts is right; E left undivided gives the same number. Which one it is
        # depends on num, which was not typed: said as a condition, never as a mistake made.
        codes = tuple(code for code in codes if code != "expected_not_divided_by_n")
        sentences.append(t(lang, "checker.note.if_num_from_shares", n=result.n))
    sentences += diagnosis_sentences(lang, result, codes)
    if answer.wrong and not answer.diagnoses and answer.note is None:
        sentences.append(t(lang, "checker.no_hint"))
    return sentences


def exact_sentence(lang: str, value: float) -> str:
    """The right value as a sentence that never calls a rounded number exact: ``The exact value
    is 0.45.``, ``The exact value is 2/3 ≈ 0.6667.`` (a fraction when a small one is exact), or
    ``Rounded to 4 decimals, the value is 0.1414.``"""
    shown = format_number(value, lang)
    if round(value, DECIMALS) == value:
        return t(lang, "checker.exact_value", value=shown)
    fraction = Fraction(value).limit_denominator(10_000)
    if abs(float(fraction) - value) <= 1e-12 * max(1.0, abs(value)):
        written = (f"{format_number(fraction.numerator, lang, group=False)}/"
                   f"{format_number(fraction.denominator, lang, group=False)}")
        return t(lang, "checker.exact_fraction", fraction=written, value=shown)
    return t(lang, "checker.value_rounded", value=shown, decimals=DECIMALS)


def first_wrong_sentence(lang: str, result: Walkthrough, checked: Sequence[CheckedAnswer]) -> str:
    """How many graded values are right and where the first wrong one is: the step to start
    again from (a value too coarse to grade, or no number, is not graded). In the last step
    (kappa) it is the only wrong value, and no later step builds on it; that everything before
    it is right is said only when everything before it was graded."""
    wrong = first_wrong(checked)
    if wrong is None:
        raise ValueError("every value is right: there is no first wrong one")
    step = STEP_OF[wrong.quantity]
    counted = graded(checked)
    last = step is STEPS[-1] and len(counted) == len(checked)
    return t(lang, "checker.summary_last_wrong" if last else "checker.summary_first_wrong",
             right=format_number(sum(answer.accepted for answer in counted), lang),
             count=format_number(len(counted), lang), where=where(lang, result, wrong),
             number=format_number(step.number, lang), title=t(lang, step.title_key))


def ungraded_sentences(lang: str, checked: Sequence[CheckedAnswer]) -> list[str]:
    """How many values were not graded: too few digits to judge, or not a number."""
    sentences = []
    coarse = sum(answer.verdict == "too_coarse" for answer in checked)
    if coarse:
        sentences.append(t(lang, "checker.summary_too_coarse", count=coarse))
    unreadable = sum(answer.verdict == "unreadable" for answer in checked)
    if unreadable:
        sentences.append(t(lang, "checker.summary_unreadable", count=unreadable))
    return sentences
