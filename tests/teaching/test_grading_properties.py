"""Property tests of the grading rule: right hand calculations are never rejected, classic
mistakes never accepted, coarse right values are "too coarse", undefined kappas are answerable.

Source of truth: simulated learners (``bench.learners``: numpy and decimal arithmetic, independent
of ``qwk_explained.teaching``) who compute on paper, writing every intermediate to 3 or 4
significant figures (rounded or truncated, E/n from the shares or from E, products and sums
written or not), with or without one classic mistake; their answers are written as a learner
types them in each of the four languages (decimal comma or point, a true minus sign or a
hyphen), rounded or truncated. Hypothesis draws the data (N = 2..7 ratings, 2..40 items, every
weighting and scale), the habits and the writing. The rates over thousands of such learners are
printed by ``python -m bench.grading_audit``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.learners import EXACT, MISTAKES, Data, Habits, applies, learner, writing
from qwk_explained import walkthrough
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.teaching.checking import (
    ACCEPTED,
    Answer,
    CheckedAnswer,
    answers_from_mapping,
    check_answers,
    target,
)
from qwk_explained.teaching.mistakes import mistake_model
from qwk_explained.teaching.typed_numbers import UNDEFINED_ANSWERS, read_number

EXAMPLES = settings(max_examples=80, deadline=None)
LANGS = tuple(LANGUAGES)
RANK = {"right": 0, "rounding": 1, "right_other_convention": 2, "too_coarse": 3, "wrong": 4}


@st.composite
def datasets(draw: Any) -> Data:
    """Two raters on N = 2..7 ratings from a random first label, predictions near the actual
    ratings (or anywhere), every weighting and scale; kappa defined."""
    size = draw(st.integers(2, 7))
    n = draw(st.integers(2, 40))
    start = draw(st.integers(-3, 3))
    actual = draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n))
    spread = draw(st.integers(0, size - 1))
    shifts = draw(st.lists(st.integers(-spread, spread), min_size=n, max_size=n))
    predicted = [min(max(a + s, 0), size - 1) for a, s in zip(actual, shifts, strict=True)]
    data = Data(tuple(a + start for a in actual), tuple(p + start for p in predicted),
                draw(st.sampled_from(["quadratic", "linear", "unweighted"])),
                draw(st.sampled_from(["range", "observed"])))
    result = walkthrough(data.actual, data.predicted, weights=data.weighting, scale=data.scale)
    assume(result.kappa is not None)
    return data


habits = st.builds(Habits, st.sampled_from([3, 4]), st.booleans(), st.booleans(),
                   st.booleans(), st.booleans())


def typed(value: float, lang: str, minus: bool, **how: Any) -> str:
    """A value as a learner of ``lang`` types it: its decimal mark, a true minus or a hyphen."""
    text = writing(value, mark=language(lang).decimal, **how)
    return text.replace("-", "\u2212") if minus else text


def result_of(data: Data) -> Any:
    return walkthrough(data.actual, data.predicted, weights=data.weighting, scale=data.scale)


def grade(data: Data, answers: dict[str, Any], lang: str) -> dict[str, CheckedAnswer]:
    """The checker's verdicts, by quantity (one value each), read as ``lang`` writes numbers."""
    result = result_of(data)
    group = language(lang).group
    checked = check_answers(result, answers_from_mapping(result, answers, group), group)
    return {answer.quantity: answer for answer in checked}


# --- right work ---------------------------------------------------------------------------------


@EXAMPLES
@given(data=datasets(), how=habits, lang=st.sampled_from(LANGS), minus=st.booleans(),
       decimals=st.integers(2, 5), figures=st.integers(2, 5), truncate=st.booleans())
def test_right_work_is_never_rejected(data: Data, how: Habits, lang: str, minus: bool,
                                      decimals: int, figures: int, truncate: bool) -> None:
    """A learner who writes every intermediate to 3 or 4 figures and gets everything right:
    kappa, num and den, written rounded or truncated, are accepted; a writing with fewer
    digits than the data need is "too coarse" (never wrong), and with the digits it asks for
    it is accepted."""
    work = learner(data, how)
    # num and den as answers are the sums before the learner writes them down for kappa (a
    # number written to 3 figures and then typed with 5 claims digits it does not have).
    sums = learner(data, replace(how, sums=False))
    work = {**work, "numerator": sums["numerator"], "denominator": sums["denominator"]}
    answers = {"kappa": typed(work["kappa"], lang, minus, decimals=decimals, truncate=truncate),
               "numerator": typed(work["numerator"], lang, minus, figures=figures,
                                  truncate=truncate),
               "denominator": typed(work["denominator"], lang, minus, figures=figures,
                                    truncate=truncate)}
    checked = grade(data, answers, lang)
    for quantity, answer in checked.items():
        assert answer.accepted or answer.verdict == "too_coarse", (quantity, answer)
        if answer.verdict == "too_coarse":
            needed = answer.needed
            assert needed is not None
            more = ({"decimals": needed.count} if needed.kind == "decimals"
                    else {"figures": needed.count})
            assert (needed.count > decimals if quantity == "kappa" else needed.count > figures
                    or abs(work[quantity]) < 10.0 ** -figures), (quantity, answer)
            again = grade(data, {**answers, quantity: typed(work[quantity], lang, minus, **more,
                                                            truncate=truncate)}, lang)
            assert again[quantity].accepted, (quantity, again[quantity])


@EXAMPLES
@given(data=datasets(), how=habits, truncate=st.booleans(), lang=st.sampled_from(LANGS))
def test_cells_written_from_three_figures_are_right(data: Data, how: Habits, truncate: bool,
                                                    lang: str) -> None:
    """Every cell of w, E and E/n as the learner wrote them is accepted (or too coarse)."""
    work = learner(data, how)
    labels = [int(x) for x in work["labels"]]
    answers = {quantity: {f"{a},{b}": typed(work[quantity][i, j], lang, False,
                                            figures=how.figures, truncate=truncate)
                          for i, a in enumerate(labels) for j, b in enumerate(labels)}
               for quantity in ("weights", "expected", "expected_norm")}
    result = result_of(data)
    group = language(lang).group
    for answer in check_answers(result, answers_from_mapping(result, answers, group), group):
        assert answer.accepted or answer.verdict == "too_coarse", answer


@EXAMPLES
@given(data=datasets(), up=st.lists(st.booleans(), min_size=6, max_size=6))
def test_more_digits_are_never_judged_worse(data: Data, up: list[bool]) -> None:
    """The exact value written to 1, 2, ... 6 decimals (kappa) or figures (num, den), each
    rounded or truncated: each verdict is at least as good as the coarser one's."""
    exact = learner(data, EXACT)
    for quantity, kind in (("kappa", "decimals"), ("numerator", "figures"),
                           ("denominator", "figures")):
        ranks = []
        for digits, truncate in enumerate(up, start=1):
            text = writing(exact[quantity], **{kind: digits}, truncate=truncate)
            ranks.append(RANK[grade(data, {quantity: text}, "en")[quantity].verdict])
        assert ranks == sorted(ranks, reverse=True) and ranks[-1] <= RANK["rounding"], (
            quantity, ranks)


@EXAMPLES
@given(data=datasets(), lang=st.sampled_from(LANGS))
def test_right_values_too_coarse_to_grade_are_said_so(data: Data, lang: str) -> None:
    """A right value written with fewer digits than the data need (one significant figure, or
    kappa to one decimal, where that is not exact) is "too coarse": not right, not wrong."""
    exact = learner(data, EXACT)
    result = result_of(data)
    model = mistake_model(result)
    for quantity in ("numerator", "denominator", "kappa"):
        how = {"decimals": 1} if quantity == "kappa" else {"figures": 1}
        text = typed(exact[quantity], lang, False, **how)
        (number,) = read_number(text, language(lang).group)
        goal = target(model, quantity)
        unit = 0.1 if quantity == "kappa" else 10.0 ** -number.decimals
        # Rounding up can add a figure ("0.10" for 0.0996 has two): only one-figure writings.
        if (math.isclose(number.value, exact[quantity], abs_tol=1e-12)
                or unit <= goal.unit * 1.0001
                or (quantity != "kappa" and number.significant != 1)):
            continue
        answer = grade(data, {quantity: text}, lang)[quantity]
        assert answer.verdict == "too_coarse", (quantity, text, answer)
        assert answer.needed is not None and not answer.wrong


# --- classic mistakes ---------------------------------------------------------------------------


@settings(max_examples=250, deadline=None)
@given(data=datasets(), code=st.sampled_from(MISTAKES), how=habits,
       side=st.sampled_from(["O", "E"]))
def test_classic_mistakes_are_named_and_never_accepted(data: Data, code: str, how: Habits,
                                                       side: str) -> None:
    """A learner who made one classic mistake and typed kappa to 3 decimals: wherever the
    mistaken kappa lies beyond the right value's band and its own (it differs by a factor n,
    N², (N - 1)², a transposition, a missing "1 -", another weighting or scale), it is not
    accepted and the mistake is named."""
    assume(applies(code, data))
    exact = learner(data, EXACT, code, side)
    right = learner(data, EXACT)
    assume(math.isfinite(exact["kappa"]) and exact["kappa"] != right["kappa"])
    work = learner(data, how, code, side)
    result = result_of(data)
    model = mistake_model(result)
    band = model.band("kappa")
    mine = [c for c in model.candidates("kappa") if c.codes == frozenset({code})]
    assume(mine)
    closest = min(mine, key=lambda c: abs(c.value - exact["kappa"]))
    assume(abs(closest.value - exact["kappa"]) < 1e-9)
    assume(abs(exact["kappa"] - right["kappa"]) > band + closest.spread + 0.0015)
    answer = grade(data, {"kappa": writing(work["kappa"], decimals=3)}, "en")["kappa"]
    assert answer.verdict not in ACCEPTED, answer
    assert code in answer.diagnoses, answer


# --- undefined kappa ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 30), rating=st.integers(-5, 9), word=st.sampled_from(
    sorted(UNDEFINED_ANSWERS)), shout=st.booleans(), lang=st.sampled_from(LANGS),
    weighting=st.sampled_from(["quadratic", "linear", "unweighted"]),
    number=st.floats(-1, 1, allow_nan=False))
def test_undefined_kappas_are_answered_undefined(n: int, rating: int, word: str, shout: bool,
                                                 lang: str, weighting: str,
                                                 number: float) -> None:
    """Both raters give every item one rating: kappa is 0/0. Every word for undefined (any of
    the four languages, any case), NaN, 0/0 and a dash is right; any number is wrong, with the
    reason; num and den of 0 are right."""
    data = Data((rating,) * n, (rating,) * n, weighting)
    text = word.upper() if shout else word
    answers = {"numerator": "0", "denominator": "0", "kappa": text}
    checked = grade(data, answers, lang)
    assert [a.verdict for a in checked.values()] == ["right"] * 3, checked
    assert checked["kappa"].undefined
    wrong = grade(data, {"kappa": writing(number, decimals=3)}, lang)["kappa"]
    assert (wrong.verdict, wrong.note) == ("wrong", "kappa_undefined")


def test_every_undefined_word_is_read_as_the_languages_write_it() -> None:
    """The locale's own word for undefined, in each language, answers a kappa of 0/0."""
    from qwk_explained.present.i18n import t

    flat = walkthrough([3, 3, 3], [3, 3, 3])
    for lang in LANGUAGES:
        for key in ("common.undefined", "common.in_sentence.undefined"):
            (answer,) = check_answers(flat, [Answer("kappa", None, t(lang, key))])
            assert answer.verdict == "right", (lang, key)


def test_learners_stay_within_the_band_of_their_world() -> None:
    """Sanity of the generator against the bands: learners with random habits, right or with a
    mistake, never leave the band the checker derives for their world's kappa."""
    from bench.learners import random_data, random_habits

    rng = np.random.default_rng(19)
    checked = 0
    for attempt in range(1000):
        data = random_data(rng)
        code = MISTAKES[attempt % len(MISTAKES)] if attempt % 2 else None
        if code is not None and not applies(code, data):
            continue
        exact = learner(data, EXACT, code)
        if not math.isfinite(exact["kappa"]) or exact["denominator"] <= 0:
            continue
        model = mistake_model(result_of(data))
        if code is None:
            band = model.band("kappa")
        else:
            mine = [c for c in model.candidates("kappa") if c.codes == frozenset({code})
                    and abs(c.value - exact["kappa"]) < 1e-9]
            if not mine:
                continue  # the mistake leaves kappa as it is (counts for shares, w rescaled)
            band = mine[0].spread
        work = learner(data, random_habits(rng), code)
        assert abs(work["kappa"] - exact["kappa"]) <= band * (1 + 1e-9) + 1e-12, (data, code)
        checked += 1
    assert checked >= 500
