"""A typed answer the reader refuses is a message beside its field, never an error box
(reliability report, H2): ``0e400`` in the kappa field, a grid cell or the paste box broke the
checker page for the rest of the session, and the practice page until another page was opened.

Sources of truth: the reader (``typed_numbers.read_number`` raises the ``AnswerError`` each text
deserves), the locale files (its sentence, in the session's language), the engine (the answers
typed beside it are still checked).
"""

from __future__ import annotations

import pytest

from qwk_app import checker, practice
from qwk_app.text import escape_markdown
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES, language
from qwk_explained.teaching.exercises import make_exercise
from qwk_explained.teaching.typed_numbers import AnswerError, read_number
from tests.app.helpers import assert_clean, open_app

TABLE = "0,4,1;0,8,0;0,1,5"
HOSTILE = ["0e400", "1e200/1e-200", "0e" + "9" * 4301, "0,0e400", "%0e400", "9" * 5000]


def refusal(text: str, lang: str) -> str:
    """The sentence the page must show for ``text``, as ``show_error`` escapes it."""
    with pytest.raises(AnswerError) as raised:
        read_number(text, language(lang).group)
    error = raised.value
    params = {k: escape_markdown(v) if isinstance(v, str) else v for k, v in error.params.items()}
    return message(lang, AnswerError(error.code, **params))


def field(at, quantity: str):
    return at.text_input(key=checker.answer_key(quantity) + "_input")


#: Every hostile text in English, and the first one in every other language.
CASES = [("en", text) for text in HOSTILE] + [(lang, HOSTILE[0]) for lang in LANGUAGES
                                               if lang != "en"]


@pytest.mark.parametrize(("lang", "text"), CASES)
def test_checker_answer_beyond_the_reader_is_a_message_beside_the_field(lang, text):
    at = open_app("checker", lang=lang, table=TABLE)
    field(at, "numerator").input("0,45").run()
    field(at, "kappa").input(text).run()
    assert_clean(at)
    assert refusal(text, lang) in [error.value for error in at.error]
    assert field(at, "kappa").value == text, "what was typed stays, editable"
    assert not field(at, "kappa").disabled
    assert field(at, "numerator").value == "0,45", "nothing else is lost"
    assert at.get("expander"), "the rest of the page (solution, downloads) is still drawn"
    field(at, "kappa").input("0,4").run()
    assert_clean(at)
    assert refusal(text, lang) not in [error.value for error in at.error], "fixed by typing"


def test_checker_grid_cell_and_paste_box_beyond_the_reader():
    at = open_app("checker", lang="en", table=TABLE)
    editor = checker.editor("observed")
    key = editor.key(editor.version(at.session_state))
    at.session_state[key] = {"edited_rows": {0: {"0": "0e400"}}, "added_rows": [],
                             "deleted_rows": []}
    at.run()
    assert_clean(at)
    assert at.session_state[checker.CELLS]["observed"] == {"0,0": "0e400"}
    assert any("0e400" in error.value for error in at.error)
    at.text_area(key=checker.paste_key("expected")).input("1e200/1e-200 0 0\n0 0 0\n0 0 0")
    at.button(key="checker_fill_expected").click().run()
    assert_clean(at)
    assert at.session_state[checker.CELLS]["expected"]["0,0"] == "1e200/1e-200"
    assert refusal("1e200/1e-200", "en").split("”")[1] in " ".join(e.value for e in at.error)


@pytest.mark.parametrize(("lang", "text", "problem"), [
    ("en", "0e400", "out_of_range"), ("en", "1e200/1e-200", "out_of_range"),
    ("en", "9" * 4400, "too_long"),
    *((lang, "0e400", "out_of_range") for lang in LANGUAGES if lang != "en")])
def test_practice_answer_beyond_the_reader_is_explained_and_can_be_fixed(lang, text, problem):
    exercise = make_exercise(12345, "medium")
    at = open_app("practice", lang=lang, seed=12345, level="medium")
    at.text_input(key="practice_answer_input").input(text)
    at.button(key="practice_check").click().run()
    assert_clean(at)
    assert t(lang, f"practice.problem_{problem}") in [error.value for error in at.error]
    assert at.text_input(key="practice_answer_input").value == text
    assert not at.button(key="practice_check").disabled, "the answer can still be checked"
    assert at.session_state[practice.SCORE] == (0, 0), "an unreadable answer is not counted"
    at.text_input(key="practice_answer_input").input(str(int(exercise.questions[0].answer)))
    at.button(key="practice_check").click().run()
    assert_clean(at)
    assert at.session_state[practice.SCORE] == (1, 1)
