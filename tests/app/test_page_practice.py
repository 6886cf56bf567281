"""The practice page, driven with AppTest like a learner would, in every language.

Source of truth for the exercise: ``qwk_explained.teaching.exercises.make_exercise`` (itself
checked against the engine and scikit-learn in ``tests/teaching/test_exercises.py``); for worked
steps: ``qwk_explained.present.formulas`` with the engine's result; for words: the locale files;
for numbers: ``qwk_explained.present.numbers``.
"""

from __future__ import annotations

import re

import pytest

from qwk_explained.present import feedback, formulas
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.exercises import (
    MAX_SEED,
    exercise_walkthrough,
    make_exercise,
    parse_seed,
)
from tests.app.helpers import assert_clean, open_app, switch_order

SEED, LEVEL = 12345, "medium"
EXERCISE = make_exercise(SEED, LEVEL)
ANSWER = "practice_answer_input"


def open_practice(lang: str, **params):
    params = {"seed": SEED, "level": LEVEL, **params}
    return open_app("practice", lang=lang, **params)


def answer(at, text: str):
    at.text_input(key=ANSWER).input(text)
    at.button(key="practice_check").click().run()
    assert_clean(at)
    return at


def next_question(at):
    at.button(key="practice_next").click().run()
    assert_clean(at)
    return at


def shown_vectors(at) -> list[tuple[int, ...]]:
    frame = at.table[0].value
    return [tuple(int(v) for v in row) for row in frame.to_numpy().tolist()]


def score(at, lang: str) -> str:
    return next(m.value for m in at.metric if m.label == t(lang, "practice.score"))


def score_text(lang: str, correct: int, attempted: int) -> str:
    return t(lang, "practice.score_value", correct=format_number(correct, lang),
             attempted=format_number(attempted, lang))


def latex(at) -> list[str]:
    # st.latex stores its body as a display-math block: "$$\n<body>\n$$".
    return [element.value.removeprefix("$$\n").removesuffix("\n$$") for element in at.latex]


def exercise_in_url(at):
    return make_exercise(int(at.query_params["seed"]), at.query_params["level"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_exercise_right_and_wrong_answers_in_each_language(lang):
    """Shared link -> make_exercise's vectors; a wrong answer shows the worked step (formulas
    with the engine's numbers) and the exact value; a right one, typed with the language's
    decimal mark, raises the score."""
    at = open_practice(lang)
    assert_clean(at)
    assert at.title[0].value == t(lang, "practice.title")
    assert shown_vectors(at) == [EXERCISE.actual, EXERCISE.predicted]
    assert (at.query_params["seed"], at.query_params["level"]) == (str(SEED), LEVEL)
    observed, expected = EXERCISE.questions[:2]
    row, col = map(str, observed.cell)
    markdown = [m.value for m in at.markdown]
    assert t(lang, "practice.ask.observed", row=row, col=col) in markdown
    assert score(at, lang) == score_text(lang, 0, 0)

    answer(at, "99")
    result = exercise_walkthrough(EXERCISE)
    assert t(lang, "practice.wrong") in [e.value for e in at.error]
    assert feedback.exact_sentence(lang, observed.answer) in [m.value for m in at.markdown]
    assert formulas.observed_cell(result, *observed.cell, lang) in latex(at)
    assert score(at, lang) == score_text(lang, 0, 1)

    next_question(at)
    typed = format_number(expected.answer, lang)  # 0,625 in es/tr, 0.625 in en/zh
    assert typed == f"0{LANGUAGES[lang].decimal}625"
    answer(at, typed)
    assert t(lang, "practice.right") in [s.value for s in at.success]
    assert formulas.expected_cell(result, *expected.cell, lang) in latex(at)
    assert score(at, lang) == score_text(lang, 1, 2)
    assert at.text_input(key="practice_answer_done").value == typed, "what was typed stays"


def test_point_comma_and_fraction_answers_are_all_accepted():
    """Answers as a learner types them: a fraction, a decimal comma, a point, kappa to 2
    decimals."""
    at = open_practice("en")
    observed, expected, numerator, denominator, kappa, _ = EXERCISE.questions
    result = exercise_walkthrough(EXERCISE)
    i, j = expected.cell
    typed = [
        str(int(observed.answer)),
        f"{result.actual_hist[i] * result.predicted_hist[j]}/{result.n}",  # E as h_a h_p / n
        f"{numerator.answer:#.2g}".replace(".", ","),  # decimal comma, 2 significant figures
        format_number(denominator.answer, "en"),  # point, 4 decimals
        format_number(round(kappa.answer, 2), "en", decimals=2),
    ]
    for number, text in enumerate(typed, start=1):
        answer(at, text)
        assert t("en", "practice.right") in [s.value for s in at.success], text
        assert score(at, "en") == score_text("en", number, number)
        next_question(at)
    assert at.radio(key="practice_choice_input"), "the last question is the comparison"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unreadable_answer_is_explained_and_kept(lang):
    """Bad input: a translated message, the typed text kept, the score unchanged."""
    at = open_practice(lang)
    answer(at, "zwei Komma fünf")
    assert t(lang, "practice.problem_not_a_number") in [e.value for e in at.error]
    assert at.text_input(key=ANSWER).value == "zwei Komma fünf"
    assert score(at, lang) == score_text(lang, 0, 0)
    answer(at, "3/0")
    assert t(lang, "practice.problem_division_by_zero") in [e.value for e in at.error]
    assert at.text_input(key=ANSWER).value == "3/0"
    answer(at, "")
    assert t(lang, "practice.problem_empty") in [e.value for e in at.error]
    assert score(at, lang) == score_text(lang, 0, 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_answer_too_coarse_to_grade_is_sent_back_unscored(lang):
    """Teaching audit, defect 5: num written to 2 decimals cost a point in 39-93 % of the
    exercises. A right value with too few digits is not scored: the question stays open, the
    message says how many figures to write, and the answer with them scores."""
    at = open_practice(lang)
    for _ in range(2):
        answer(at, "99")
        next_question(at)
    numerator = EXERCISE.questions[2]
    coarse = format_number(float(f"{numerator.answer:.1g}"), lang)
    answer(at, coarse)
    assert score(at, lang) == score_text(lang, 0, 2)
    # As the reader sees it: the markdown escapes (\\: for a typed colon) removed.
    warnings = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", " ".join(w.value for w in at.warning))
    assert t(lang, "checker.too_coarse.figures", count=2) in warnings
    assert at.text_input(key=ANSWER).value == coarse, "the question stays open"
    answer(at, format_number(numerator.answer, lang))
    assert t(lang, "practice.right") in [s.value for s in at.success]
    assert score(at, lang) == score_text(lang, 1, 3)


def test_which_prediction_has_the_higher_kappa():
    """The comparison: prediction B appears, no choice -> message, the right letter scores,
    the worked step shows both kappas (engine), then the exercise is complete."""
    at = open_practice("es")
    for _ in range(5):
        answer(at, "99")
        next_question(at)
    assert shown_vectors(at) == [EXERCISE.actual, EXERCISE.predicted, EXERCISE.alternative]
    assert t("es", "practice.ask.compare") in [m.value for m in at.markdown]
    at.button(key="practice_check").click().run()
    assert t("es", "practice.problem_no_choice") in [e.value for e in at.error]
    assert score(at, "es") == score_text("es", 0, 5)
    compare = EXERCISE.questions[-1]
    at.radio(key="practice_choice_input").set_value(compare.correct_choice)
    at.button(key="practice_check").click().run()
    assert_clean(at)
    assert t("es", "practice.right") in [s.value for s in at.success]
    assert score(at, "es") == score_text("es", 1, 6)
    shown = latex(at)
    assert formulas.kappa_plugged(exercise_walkthrough(EXERCISE), "es") in shown
    assert formulas.kappa_plugged(exercise_walkthrough(EXERCISE, "alternative"), "es") in shown
    assert t("es", "practice.finished", correct="1", total="6") in [i.value for i in at.info]


def test_wrong_choice_names_the_right_prediction():
    at = open_practice("en")
    at.session_state["practice_index"] = 5  # jump to the comparison (flow tested above)
    at.run()
    compare = EXERCISE.questions[-1]
    wrong = "b" if compare.correct_choice == "a" else "a"
    at.radio(key="practice_choice_input").set_value(wrong)
    at.button(key="practice_check").click().run()
    name = t("en", f"practice.prediction_{compare.correct_choice}")
    assert t("en", "practice.correct_choice", choice=name) in [m.value for m in at.markdown]
    assert score(at, "en") == score_text("en", 0, 1)


def test_new_exercise_and_level_change_update_the_url():
    """New exercise draws another seed (URL and vectors follow, score kept); a level change
    keeps the seed and shows that level's exercise."""
    at = open_practice("en")
    answer(at, str(int(EXERCISE.questions[0].answer)))
    at.button(key="practice_new").click().run()
    assert_clean(at)
    assert at.query_params["seed"] != str(SEED)
    assert parse_seed(at.query_params["seed"]) is not None
    assert shown_vectors(at) == [exercise_in_url(at).actual, exercise_in_url(at).predicted]
    assert t("en", "practice.question_heading", number="1", total="6") in [
        h.value for h in at.subheader]
    assert score(at, "en") == score_text("en", 1, 1)
    seed = at.query_params["seed"]
    at.radio(key="practice_level_input").set_value("hard").run()
    assert_clean(at)
    assert (at.query_params["seed"], at.query_params["level"]) == (seed, "hard")
    hard = make_exercise(int(seed), "hard")
    assert shown_vectors(at) == [hard.actual, hard.predicted]
    at.button(key="practice_reset").click().run()
    assert score(at, "en") == score_text("en", 0, 0)


def test_progress_survives_language_and_page_switches():
    """Score, question, feedback and typed text survive a language switch and another page."""
    at = open_practice("en")
    answer(at, str(int(EXERCISE.questions[0].answer)))
    next_question(at)
    at.text_input(key=ANSWER).input("1/3").run()
    for lang in switch_order("en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert score(at, lang) == score_text(lang, 1, 1)
        assert at.text_input(key=ANSWER).value == "1/3"
        assert t(lang, "practice.question_heading", number=format_number(2, lang),
                 total=format_number(6, lang)) in [h.value for h in at.subheader]
    at.switch_page("pages/walkthrough.py").run()
    assert_clean(at)
    assert "seed" not in at.query_params
    at.switch_page("pages/practice.py").run()
    assert_clean(at)
    assert score(at, "en") == score_text("en", 1, 1)
    assert (at.query_params["seed"], at.query_params["level"]) == (str(SEED), LEVEL)
    assert at.text_input(key=ANSWER).value == "1/3"
    answer(at, "1/3")
    assert score(at, "en") == score_text("en", 1, 2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_seed_and_level_in_the_link_fall_back_with_a_message(lang):
    """Bad ?seed= and ?level=: translated messages, a new exercise at the easy level."""
    at = open_practice(lang, seed="abc", level="extreme")
    assert_clean(at)
    warnings = [w.value for w in at.warning]
    assert t(lang, "practice.bad_seed", value="abc", max=str(MAX_SEED)) in warnings
    assert t(lang, "practice.bad_level", value="extreme",
             level=t(lang, "practice.level.easy")) in warnings
    assert at.query_params["level"] == "easy"
    assert shown_vectors(at) == [exercise_in_url(at).actual, exercise_in_url(at).predicted]


@pytest.mark.parametrize(("seed", "shown"), [
    ("99999999999999999999999", "9999999999999999999…"),  # quoted, cut to 20 characters
    ("-3", "-3"), (str(MAX_SEED + 1), str(MAX_SEED + 1)), ("1.5", "1.5"),
    # Shown as typed, escaped: never a link inside the app's own message.
    ("[x](http://e.vil)", r"\[x\]\(http\://e.vil\)"),
])
def test_out_of_range_seed_falls_back(seed, shown):
    at = open_practice("en", seed=seed, level="hard")
    assert_clean(at)
    assert t("en", "practice.bad_seed", value=shown, max=str(MAX_SEED)) in [
        w.value for w in at.warning]
    assert at.query_params["level"] == "hard"
    assert parse_seed(at.query_params["seed"]) is not None
    at.button(key="practice_new").click().run()
    assert not at.warning, "the message goes once its exercise is replaced"


def test_a_wrong_answer_gets_the_checkers_diagnosis():
    """E typed as h_a h_p (no division by n): the practice feedback names the mistake, in the
    checker's words (teaching audit: wrong answers got no diagnosis)."""
    at = open_practice("en")
    answer(at, str(int(EXERCISE.questions[0].answer)))
    next_question(at)
    result = exercise_walkthrough(EXERCISE)
    i, j = EXERCISE.questions[1].cell
    answer(at, str(int(result.actual_hist[i] * result.predicted_hist[j])))
    assert t("en", "practice.wrong") in [e.value for e in at.error]
    sentence = t("en", "checker.diagnosis.expected_not_divided_by_n", n=str(EXERCISE.n))
    assert any(sentence in info.value.replace("\\", "") for info in at.info)


def test_the_observed_feedback_tells_item_numbers_from_the_count():
    """The items are named as numbers of the table's columns after their count, the cell's value
    (teaching audit: "...predicted rating 0: 2" was an item number next to O = 1); the same
    sentence as step 1 everywhere."""
    exercise = make_exercise(3, "medium")  # O[1, 0] holds items 7 and 12: a count of 2
    at = open_practice("es", seed=3)
    observed = exercise.questions[0]
    answer(at, "99")
    items = [k + 1 for k, (a, p) in enumerate(zip(exercise.actual, exercise.predicted,
                                                     strict=True))
             if (a, p) == observed.cell]
    assert items == [7, 12] and observed.answer == 2
    shown = [m.value for m in at.markdown]
    assert t("es", "step_by_step.cell_items", count=2, items="7, 12") in shown
    assert "O_{1,0} = 2" in [f.value.strip("$\n") for f in at.latex]


def test_kappa_from_the_learners_rounded_sums_scores():
    """num and den rounded to 2 significant figures, then 1 - num/den to 2 decimals: right."""
    at = open_practice("en")
    observed, expected, numerator, denominator, kappa, _ = EXERCISE.questions
    for question in (observed, expected):
        answer(at, format_number(question.answer, "en"))
        next_question(at)
    num, den = f"{numerator.answer:#.2g}", f"{denominator.answer:#.2g}"
    answer(at, num)
    next_question(at)
    answer(at, den)
    next_question(at)
    own = 1 - float(num) / float(den)
    answer(at, f"{own:.2f}")
    assert t("en", "practice.right") in [s.value for s in at.success]
    assert score(at, "en") == score_text("en", 5, 5)


def test_the_comparison_names_the_chance_term_when_it_decided():
    """Teaching audit, defect 3, easy exercise 2: both predictions have num 0.1429; A wins on
    den (0.245 against 0.143), and the lesson says so instead of "far misses cost more"."""
    at = open_app("practice", lang="tr", seed="2", level="easy")
    at.session_state["practice_index"] = 5
    at.run()
    at.radio(key="practice_choice_input").set_value("a")
    at.button(key="practice_check").click().run()
    assert_clean(at)
    texts = [m.value for m in at.markdown]
    assert any(text.startswith(t("tr", "practice.compare_lesson_chance", higher="A", lower="B",
                                   num_higher="0,1429", num_lower="0,1429", den_higher="0,2449",
                                   den_lower="0,1429", matches_higher="2",
                                   matches_lower="5")[:40]) for text in texts)
