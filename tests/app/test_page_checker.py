"""The checker page (/checker): type whole matrices, histograms and sums; get verdicts, the
mistakes named, and the full solution.

Sources of truth: the engine (``walkthrough_from_table``/``walkthrough``) for every reference
value shown; ``check_answers`` and ``present.feedback`` for the expected verdicts and sentences
(the mistakes are made by hand here: E without the division by n, num and den from counts);
the locales for every message; ``parse_table`` + ``error_message`` for the translated table
errors; ``worksheet`` and ``formulas`` for the solution and the downloaded files (their bytes are
captured from Streamlit's media storage). The data editor is driven as Streamlit records its
edits (``edited_rows`` in the widget's state), as a browser would.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from qwk_app import checker
from qwk_explained import InputError, parse_table, walkthrough, walkthrough_from_table
from qwk_explained.present import feedback, formulas, worksheet
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.checking import Answer, check_answers
from tests.app.helpers import assert_clean, open_app, switch_order

TABLE_PARAM = "0,4,1;0,8,0;0,1,5"
TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
BOOK = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], labels=[1, 2, 3])
SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}
SEED_RESULT = walkthrough(SEED["actual"], SEED["predicted"])


def kappa_metric(at, lang):
    return next(m.value for m in at.metric if m.label == t(lang, "common.kappa"))


def answer(at, quantity):
    return at.text_input(key=f"checker_answer_{quantity}_input")


def texts(elements):
    return [element.value for element in elements]


def shown(elements):
    """Texts as the reader sees them: markdown escapes (\\- for a typed -) removed."""
    return [re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", element.value) for element in elements]


def editor_key(at, grid):
    """The widget key of a grid's editor as drawn on the last run."""
    editor = checker.editor(grid)
    return editor.key(editor.version(at.session_state))


def edit(at, grid, cells):
    """Type into a grid as the data editor reports it: {row index: {column label: text}}."""
    at.session_state[editor_key(at, grid)] = {
        "edited_rows": cells, "added_rows": [], "deleted_rows": []}
    return at.run()


def grid_data(at, grid):
    """What the page sent a grid of fields: its texts, names, marks and cell labels."""
    key = editor_key(at, grid)
    for element in at.get("bidi_component"):
        if element.proto.id.endswith(f"-{key}"):
            return json.loads(element.proto.json)
    raise AssertionError(f"no grid {key!r} on the page")


def marks(at, grid):
    """The marks drawn in a grid's cells, indexed by its row and column names."""
    data = grid_data(at, grid)
    return pd.DataFrame(data["marks"], index=data["rowNames"], columns=data["columnNames"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_link_shows_the_engines_kappa_in_each_language(lang):
    """Shared link ?table=...: table mode, the engine's kappa formatted for the language."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    assert_clean(at)
    assert at.title[0].value == t(lang, "checker.title")
    assert at.radio(key="checker_mode_input").value == "table"
    assert at.text_area(key="checker_table_input").value == TABLE_PARAM
    assert kappa_metric(at, lang) == format_number(TABLE.kappa, lang)
    assert at.query_params["mode"] == "table" and at.query_params["table"] == TABLE_PARAM
    assert t(lang, "checker.nothing_checked") in texts(at.info)
    assert [b.proto.label for b in at.get("download_button")] == [
        t(lang, f"checker.download_{ext}") for ext in ("md", "tex", "csv", "py")]


def test_a_textbook_table_keeps_its_ratings_from_the_link():
    """?first=1: rows and columns are the ratings 1 to 3, as on paper, in the grids too."""
    at = open_app("checker", lang="en", table=TABLE_PARAM, first="1")
    assert_clean(at)
    assert at.number_input(key="checker_first_input").value == 1
    assert t("en", "checker.table_scale_note", low="1", high="3") in texts(at.caption)
    assert at.query_params["first"] == "1"
    assert list(marks(at, "observed").columns) == ["1", "2", "3"]
    edit(at, "expected", {0: {"2": "65"}})  # E[1, 2] = 5 * 13 / 19, typed without / n
    assert_clean(at)
    assert at.session_state["checker_cells"]["expected"] == {"1,2": "65"}
    assert marks(at, "expected").loc["1", "2"] == "✗"
    sentence = t("en", "checker.diagnosis.expected_not_divided_by_n", n="19")
    assert any(sentence in text for text in shown(at.error))
    at.number_input(key="checker_first_input").set_value(0).run()
    assert at.query_params.get("first") is None
    assert marks(at, "expected").loc["0", "1"] == "", "cells stay with their ratings"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_grids_sums_and_the_first_wrong_step_in_each_language(lang):
    """User flow: all of O right; E with one cell not divided by n; num and den from counts
    (right with counts); kappa typed as the language writes it. Each gets its verdict."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    edit(at, "observed", {r: {str(c): str(int(TABLE.observed[r, c])) for c in range(3)}
                          for r in range(3)})
    assert (marks(at, "observed") == "✓").all().all()
    edit(at, "expected", {2: {"1": "78"}})  # 6 * 13, not divided by n = 19
    answer(at, "numerator").input(format_number(TABLE.numerator * 19, lang)).run()
    answer(at, "denominator").input(format_number(TABLE.denominator * 19, lang)).run()
    answer(at, "kappa").input(format_number(TABLE.kappa, lang)).run()
    assert_clean(at)
    successes = texts(at.success)
    assert t(lang, "checker.verdict.right_other_convention",
             value=format_number(TABLE.numerator * 19, lang, 6)) in shown(at.success)
    typed = format_number(round(TABLE.kappa, 4), lang, 6)
    assert t(lang, "checker.verdict.rounding", value=typed) in shown(at.success), successes
    infos = " ".join(shown(at.info))
    assert t(lang, "checker.diagnosis.counts_not_shares", n=format_number(19, lang)) in infos
    where = t(lang, "checker.where.expected", row="2", col="1")
    assert t(lang, "checker.summary_first_wrong", right=format_number(12, lang),
             count=format_number(13, lang), where=where, number=format_number(4, lang),
             title=t(lang, "steps.expected_title")) in texts(at.warning)


def test_pasting_a_matrix_fills_the_grid_and_a_bad_paste_is_explained():
    """Rows on lines, cells by spaces (decimal commas kept in Spanish); a 2 x 2 paste does not
    fit a 3 x 3 grid and says so; clearing empties the grid."""
    at = open_app("checker", lang="es", table=TABLE_PARAM)
    norm = TABLE.observed_norm
    text = "\n".join(" ".join(format_number(v, "es") for v in row) for row in norm)
    at.text_area(key="checker_paste_observed_norm").input(text)
    at.button(key="checker_fill_observed_norm").click().run()
    assert_clean(at)
    assert (marks(at, "observed_norm") != "✗").all().all()
    assert at.text_area(key="checker_paste_observed_norm").value == ""
    at.text_area(key="checker_paste_weights").input("0\t0,25\n0,25\t0")
    at.button(key="checker_fill_weights").click().run()
    assert t("es", "checker.paste.shape", rows="3", columns="3") in texts(at.error)
    at.button(key="checker_clear_observed_norm").click().run()
    assert at.session_state["checker_cells"]["observed_norm"] == {}


def test_histograms_are_checked_bar_by_bar():
    at = open_app("checker", lang="en", **SEED)
    edit(at, "histograms", {0: {str(k): str(int(v)) for k, v in enumerate(SEED_RESULT.actual_hist)},
                            1: {"0": str(int(SEED_RESULT.actual_hist[0]))}})
    assert_clean(at)
    grid = marks(at, "histograms")
    assert list(grid.iloc[0]) == ["✓"] * 5 and grid.iloc[1, 0] == "✗"
    assert any(t("en", "checker.diagnosis.transposed") in text for text in shown(at.error))


def test_unreadable_cells_and_values_are_shown_as_typed():
    at = open_app("checker", lang="tr", table=TABLE_PARAM)
    edit(at, "weights", {0: {"1": "**1**"}})
    answer(at, "kappa").input("bir buçuk").run()
    assert_clean(at)
    assert marks(at, "weights").iloc[0, 1] == "?"
    assert any("**1**" in text for text in shown(at.error))
    assert r"\*\*1\*\*" in " ".join(texts(at.error)), "typed text is shown, not rendered"
    assert t("tr", "checker.parse.not_a_number", text="bir buçuk") in shown(at.error)
    assert answer(at, "kappa").value == "bir buçuk"


def test_language_switch_keeps_table_grids_answers_and_mode():
    """Switching language changes the words, never the table, the typed values or the mode."""
    at = open_app("checker", lang="en", table="1,2;3,4")
    answer(at, "kappa").input("0,1").run()
    edit(at, "observed", {0: {"0": "1"}})
    for lang in switch_order("en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert at.title[0].value == t(lang, "checker.title")
        assert at.radio(key="checker_mode_input").value == "table"
        assert at.text_area(key="checker_table_input").value == "1,2;3,4"
        assert answer(at, "kappa").value == "0,1"
        assert at.session_state["checker_cells"]["observed"] == {"0,0": "1"}
        assert marks(at, "observed").iloc[0, 0] == "✓"
        assert at.query_params["table"] == "1,2;3,4" and at.query_params["lang"] == lang


def test_typed_cells_survive_a_visit_to_another_page():
    """User flow: type into a grid, open the walkthrough, come back. Streamlit dropped the
    editor's record of edits while it was not drawn; the cells are kept and shown."""
    at = open_app("checker", lang="en", table=TABLE_PARAM)
    edit(at, "expected", {0: {"1": "65"}})
    at.switch_page("pages/walkthrough.py").run()
    at.switch_page("pages/checker.py").run()
    assert_clean(at)
    assert at.session_state["checker_cells"]["expected"] == {"0,1": "65"}
    assert marks(at, "expected").loc["0", "1"] == "✗"
    at.run()
    assert at.session_state["checker_cells"]["expected"] == {"0,1": "65"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_tables_are_explained_in_the_users_language(lang):
    """Not square, negative, letters, empty: the translated parse error, the text kept."""
    at = open_app("checker", lang=lang, mode="table")
    assert at.text_area(key="checker_table_input").value == "0,4,1;0,8,0;0,1,5"
    for bad in ("1,2,3;4,5", "1,-2;3,4", "a,b;c,d", "0,0;0,0"):
        at.text_area(key="checker_table_input").input(bad).run()
        assert_clean(at)
        with pytest.raises(InputError) as caught:
            parse_table(bad)
        assert error_message(lang, caught.value) in shown(at.error)
        assert at.text_area(key="checker_table_input").value == bad
        assert t(lang, "checker.fix_input") in texts(at.info)
        assert not at.get("download_button")


def test_mode_switch_and_sidebar_weights_apply_to_the_table():
    """Switching to table mode puts the table in the URL; the sidebar weighting applies."""
    at = open_app("checker", lang="en", **SEED)
    assert at.radio(key="checker_mode_input").value == "vectors"
    assert kappa_metric(at, "en") == format_number(SEED_RESULT.kappa, "en")
    at.radio(key="checker_mode_input").set_value("table").run()
    assert at.query_params["mode"] == "table" and at.query_params["table"] == TABLE_PARAM
    at.text_area(key="checker_table_input").input("0 4 1\n0 8 0\n0 1 5\n").run()
    assert at.query_params["table"] == TABLE_PARAM
    at.radio(key="weights_input").set_value("linear").run()
    linear = walkthrough_from_table(TABLE.observed, weights="linear")
    assert kappa_metric(at, "en") == format_number(linear.kappa, "en")
    at.radio(key="checker_mode_input").set_value("vectors").run()
    assert "table" not in at.query_params


def test_bad_vectors_ask_for_a_fix_instead_of_checking():
    at = open_app("checker", lang="tr", actual="1,2,3", predicted="1,2")
    assert_clean(at)
    assert t("tr", "checker.fix_input") in texts(at.info)
    answers = [w.key for w in at.text_input if w.key not in ("actual_input", "predicted_input")]
    assert not answers, "no answer to check while the ratings have a problem"


@pytest.mark.parametrize(("lang", "typed"), [("es", "No definida"), ("en", "NaN"),
                                             ("zh", "无定义"), ("tr", "0/0")])
def test_undefined_kappa_is_explained_and_answered(lang, typed):
    """Teaching audit, defect 4: a kappa of 0/0 can be answered, in any of the languages."""
    at = open_app("checker", lang=lang, table="0,0;0,5")
    assert_clean(at)
    assert kappa_metric(at, lang) == t(lang, "common.undefined")
    assert t(lang, "checker.kappa_undefined_note") in texts(at.warning)
    answer(at, "kappa").input("1").run()
    assert t(lang, "checker.note.kappa_undefined") in shown(at.info)
    answer(at, "kappa").input(typed).run()
    assert_clean(at)
    assert t(lang, "checker.verdict_undefined.right") in shown(at.success)
    assert t(lang, "checker.summary_all_right", count=1) in texts(
        at.success)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_value_too_coarse_to_grade_is_neither_right_nor_wrong(lang):
    """Teaching audit, defect 5: a right weight written to one figure (w[0, 1] = 0.25 as "0,3"
    or "0.3") was "Not right" and the first wrong step. Now it has its own mark and message,
    says how many figures to write, and the first wrong step is the real one."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    edit(at, "weights", {0: {"1": format_number(0.3, lang)}})
    edit(at, "expected", {2: {"1": "78"}})
    answer(at, "kappa").input("zwei").run()
    assert_clean(at)
    assert marks(at, "weights").iloc[0, 1] == "±"
    said = feedback.joined(lang, [t(lang, "checker.verdict_short.too_coarse"),
                                  t(lang, "checker.too_coarse.figures", count=2)])
    assert any(said in text for text in shown(at.warning))
    where = t(lang, "checker.where.expected", row="2", col="1")
    assert t(lang, "checker.summary_first_wrong", right=format_number(0, lang),
             count=format_number(1, lang), where=where, number=format_number(4, lang),
             title=t(lang, "steps.expected_title")) in texts(at.warning)
    for key in ("checker.summary_too_coarse", "checker.summary_unreadable"):
        assert t(lang, key, count=1) in texts(at.info)


def test_full_solution_writes_every_term_of_the_sums_and_flags_the_interval():
    """The expander holds the sums with every non-zero term (aligned over lines), and the
    interval's small-sample note: 10 items on a 5-rating scale are fewer than 2N² = 50."""
    at = open_app("checker", lang="en", **SEED)
    formulas_shown = [f.value.strip("$\n") for f in at.latex]
    assert formulas.denominator_plugged(SEED_RESULT, "en") in formulas_shown
    assert r"\begin{aligned}" in formulas.denominator_plugged(SEED_RESULT, "en")
    assert t("en", "interval.small_sample", n="10", used="5", min_items="50") in texts(
        at.markdown)
    big = open_app("checker", lang="en", table=";".join(["1,0,0,0,0,0,0,0,0"] * 9))
    assert_clean(big)


def test_downloads_hold_the_worksheet_of_the_table_with_its_ratings(monkeypatch):
    """The four files the buttons serve are the worksheet module's, in the page's language."""
    stored: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def spy(self, path_or_data, mimetype, kind, filename=None):
        stored[str(filename)] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", spy)
    at = open_app("checker", lang="es", table=TABLE_PARAM, first="1")
    assert_clean(at)
    source = worksheet.Source(from_table=True)
    files = {name: data.decode("utf-8") for name, data in stored.items()
             if name.startswith("qwk_worksheet")}  # not the share box's QR code
    assert files["qwk_worksheet_es.md"] == worksheet.markdown(BOOK, "es", source)
    assert files["qwk_worksheet_es.tex"] == worksheet.latex_document(BOOK, "es", source)
    assert files["qwk_worksheet_es.csv"] == worksheet.matrices_csv(BOOK)
    assert files["qwk_worksheet_es.py"] == worksheet.python_snippet(BOOK, "es", source)
    assert "| 2 | 0 | 8 | 0 |" in files["qwk_worksheet_es.md"]
    assert "labels = [1, 2, 3]" in files["qwk_worksheet_es.py"]


def test_feedback_sentences_come_from_the_feedback_module():
    """The sentence under a wrong cell is feedback.explanation's, not a page-made one."""
    at = open_app("checker", lang="zh", table=TABLE_PARAM)
    edit(at, "expected", {2: {"1": "78"}})
    (checked,) = check_answers(TABLE, [Answer("expected", (2, 1), "78")])
    said = feedback.joined("zh", feedback.explanation("zh", TABLE, checked))
    assert any(said in text for text in shown(at.error))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_mistake_in_every_cell_is_named_once_for_the_whole_matrix(lang):
    """The review's phone: E typed as the outer product of the histograms (not divided by n)
    in all nine cells gets one message for "every cell of E that is not 0" (the zeros of the
    first column are right), not six cell names; one wrong cell is still named by itself.
    Source of truth: the engine's histograms of the table."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    outer = TABLE.actual_hist[:, None] * TABLE.predicted_hist[None, :]
    edit(at, "expected", {r: {str(c): str(int(outer[r, c])) for c in range(3)}
                          for r in range(3)})
    assert_clean(at)
    assert (outer[:, 0] == 0).all() and (outer[:, 1:] != 0).all()
    whole = t(lang, "checker.every_nonzero_cell", grid="`E`")
    said = [text for text in shown(at.error) if text.startswith(whole)]
    assert len(said) == 1, shown(at.error)
    assert t(lang, "checker.diagnosis.expected_not_divided_by_n",
             n=format_number(19, lang)) in said[0]
    assert "E[" not in said[0]
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    edit(at, "expected", {2: {"1": "78"}})
    assert any(text.startswith("`E[2, 1]`") for text in shown(at.error)), shown(at.error)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_marks_are_in_the_typed_cells_and_every_field_is_named(lang):
    """The review's phone: a second, read-only grid of marks looked like another place to type.
    Each mark is now drawn in the cell it grades (no grid of marks), the legend comes once the
    grid has a mark, and a screen reader hears each field's grid, row and column in the reader's
    language. Sources of truth: the table's O (4 items in cell (0, 1)), the locales."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    assert_clean(at)
    assert not at.dataframe, "no second grid"
    legend = t(lang, "checker.marks_legend")
    assert legend not in texts(at.caption)
    edit(at, "observed", {0: {"1": "4"}, 2: {"2": "x"}})
    data = grid_data(at, "observed")
    assert data["cells"][0][1] == "4" and data["cells"][2][2] == "x"
    assert data["marks"] == [["", "✓", ""], ["", "", ""], ["", "", "?"]]
    assert texts(at.caption).count(legend) == 1
    name = [feedback.label(lang, rating) for rating in (0, 1, 2)]
    assert data["labels"][0][1] == t(lang, "checker.cell_label_matrix",
                                     grid=t(lang, "checker.grid.observed"), row=name[0],
                                     column=name[1])
    bars = grid_data(at, "histograms")
    assert bars["rowNames"] == [t(lang, "steps.actual_name"), t(lang, "steps.predicted_name")]
    assert bars["labels"][1][2] == t(lang, "checker.cell_label_histograms",
                                     grid=t(lang, "checker.grid.histograms"),
                                     row=t(lang, "steps.predicted_name"), column=name[2])
