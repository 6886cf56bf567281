"""The checker page (/checker): type a hand calculation, get verdicts, hints and the solution.

Sources of truth: the engine (``walkthrough_from_table``/``walkthrough``) for every reference
value shown, ``qwk_explained.checking`` for the expected hint of each mistake (the mistakes are
made by hand here: E without the division by n, a swapped cell), the locales for every message,
``parse_table`` + ``error_message`` for the translated table errors, and ``worksheet`` for the
downloaded files (their bytes are captured from Streamlit's media storage).
"""

from __future__ import annotations

import re

import pytest
from app_helpers import LANGS, assert_clean, open_app
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from qwk_explained import InputError, parse_table, walkthrough, walkthrough_from_table
from qwk_explained.present import feedback, worksheet
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching import checking

TABLE_PARAM = "0,4,1;0,8,0;0,1,5"
TABLE = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}
SEED_RESULT = walkthrough(SEED["actual"], SEED["predicted"])


def kappa_metric(at, lang):
    return next(m.value for m in at.metric if m.label == t(lang, "common.kappa"))


def answer(at, step):
    return at.text_input(key=f"checker_answer_{step}_input")


def texts(elements):
    return [element.value for element in elements]


def shown(elements):
    """Texts as the reader sees them: markdown escapes (\\- for a typed -) removed."""
    return [re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", element.value) for element in elements]


def hint_for(result, lang, step, value, cell=None):
    verdict = checking.check_value(result, step, value, cell)
    return feedback.hint(lang, verdict.diagnosis)


@pytest.mark.parametrize("lang", LANGS)
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


@pytest.mark.parametrize("lang", LANGS)
def test_vectors_mode_uses_the_shared_vectors_in_each_language(lang):
    """No table in the link: the shared vectors, their text fields and the engine's kappa."""
    at = open_app("checker", lang=lang, **SEED)
    assert_clean(at)
    assert at.radio(key="checker_mode_input").value == "vectors"
    assert at.text_input(key="actual_input").value == SEED["actual"]
    assert kappa_metric(at, lang) == format_number(SEED_RESULT.kappa, lang)
    assert at.query_params["mode"] == "vectors" and "table" not in at.query_params


@pytest.mark.parametrize("lang", LANGS)
def test_verdicts_hints_and_first_wrong_step_in_each_language(lang):
    """User flow: right kappa (typed as the language writes it) and num; E typed without the
    division by n; a swapped O cell; an unparseable den. Each gets its translated verdict."""
    at = open_app("checker", lang=lang, table=TABLE_PARAM)
    answer(at, "kappa").input(format_number(TABLE.kappa, lang)).run()
    answer(at, "numerator").input(format_number(TABLE.numerator, lang)).run()
    successes = texts(at.success)
    assert t(lang, "checker.summary_all_right", count=format_number(2, lang)) in successes
    for value in (TABLE.kappa, TABLE.numerator):
        assert t(lang, "checker.right", value=format_number(value, lang)) in successes

    # E at actual rating 2, predicted rating 1, typed as h_a * h_p = 6 * 13 (no / n).
    at.selectbox(key="checker_cell_expected_row_input").set_value(2).run()
    at.selectbox(key="checker_cell_expected_col_input").set_value(1).run()
    answer(at, "expected").input("78").run()
    # O at (0, 1) typed as O at (1, 0): rows and columns swapped.
    answer(at, "observed").input("0").run()
    assert_clean(at)
    infos = texts(at.info)
    assert hint_for(TABLE, lang, "expected", 78, (2, 1)) in infos
    assert t(lang, "checker.hint.e_not_divided", n=format_number(19, lang)) in infos
    assert t(lang, "checker.hint.swapped") in infos
    errors = texts(at.error)
    assert t(lang, "checker.wrong", value="78") in errors
    where = t(lang, "checker.where.observed", row=0, col=1)
    assert t(lang, "checker.summary_first_wrong", right=format_number(2, lang),
             count=format_number(4, lang), where=where) in texts(at.warning)

    answer(at, "denominator").input("**1**").run()
    assert_clean(at)
    assert t(lang, "checker.parse.not_a_number", text="**1**") in shown(at.error)
    assert r"\*\*1\*\*" in " ".join(texts(at.error)), "typed text is shown, not rendered"
    assert answer(at, "denominator").value == "**1**"


def test_spanish_comma_fractions_and_percent_hint():
    """es: "0,4502" right; "1/2" parsed as a fraction; kappa as a percentage gets that hint."""
    at = open_app("checker", lang="es", table=TABLE_PARAM)
    answer(at, "kappa").input("0,4502").run()
    assert t("es", "checker.right", value="0,4502") in texts(at.success)
    answer(at, "kappa").input("45,02").run()
    assert t("es", "checker.hint.percent") in texts(at.info)
    answer(at, "weights").input("1/4").run()  # default cell (0, 1): w = 1/4
    assert t("es", "checker.right", value="0,25") in texts(at.success)


def test_tolerance_is_configurable():
    """A tight tolerance turns a rounded kappa into a near miss with the rounding hint."""
    at = open_app("checker", lang="en", table=TABLE_PARAM)
    answer(at, "kappa").input("0.45").run()
    assert t("en", "checker.right", value="0.45") in texts(at.success)
    at.number_input(key="checker_tolerance_input").set_value(0.0001).run()
    assert t("en", "checker.hint.close") in texts(at.info)
    at.radio(key="checker_tolerance_kind_input").set_value("relative").run()
    at.number_input(key="checker_tolerance_input").set_value(0.01).run()
    assert t("en", "checker.right", value="0.45") in texts(at.success)


def test_language_switch_keeps_table_answers_cells_and_mode():
    """Switching language changes the words, never the table, the answers or the mode."""
    at = open_app("checker", lang="en", table="1,2;3,4")
    answer(at, "kappa").input("0,1").run()
    answer(at, "numerator").input("x").run()
    at.selectbox(key="checker_cell_weights_row_input").set_value(1).run()
    for lang in ("zh", "tr", "es", "en"):
        at.selectbox(key="lang").set_value(lang).run()
        assert_clean(at)
        assert at.title[0].value == t(lang, "checker.title")
        assert at.radio(key="checker_mode_input").value == "table"
        assert at.text_area(key="checker_table_input").value == "1,2;3,4"
        assert answer(at, "kappa").value == "0,1"
        assert answer(at, "numerator").value == "x"
        assert at.selectbox(key="checker_cell_weights_row_input").value == 1
        assert t(lang, "checker.parse.not_a_number", text="x") in texts(at.error)
        assert at.query_params["table"] == "1,2;3,4" and at.query_params["lang"] == lang


@pytest.mark.parametrize("lang", LANGS)
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
    at.radio(key="checker_mode_input").set_value("table").run()
    assert at.query_params["mode"] == "table" and at.query_params["table"] == TABLE_PARAM
    at.text_area(key="checker_table_input").input("0 4 1\n0 8 0\n0 1 5\n").run()
    assert at.query_params["table"] == TABLE_PARAM
    at.radio(key="weights_input").set_value("linear").run()
    linear = walkthrough_from_table(TABLE.observed, weights="linear")
    assert kappa_metric(at, "en") == format_number(linear.kappa, "en")
    at.radio(key="checker_mode_input").set_value("vectors").run()
    assert "table" not in at.query_params
    linear_seed = walkthrough(SEED["actual"], SEED["predicted"], weights="linear")
    assert kappa_metric(at, "en") == format_number(linear_seed.kappa, "en")


def test_bad_vectors_ask_for_a_fix_instead_of_checking():
    at = open_app("checker", lang="tr", actual="1,2,3", predicted="1,2")
    assert_clean(at)
    assert t("tr", "checker.fix_input") in texts(at.info)
    answers = [w.key for w in at.text_input if w.key not in ("actual_input", "predicted_input")]
    assert not answers, "no answer to check while the ratings have a problem"


def test_undefined_kappa_is_explained():
    at = open_app("checker", lang="es", table="0,0;0,5")
    assert_clean(at)
    assert kappa_metric(at, "es") == t("es", "common.undefined")
    assert t("es", "checker.kappa_undefined_note") in texts(at.warning)
    answer(at, "kappa").input("1").run()
    assert t("es", "checker.hint.kappa_undefined") in texts(at.info)


def test_downloads_hold_the_worksheet_kappa_and_matrices(monkeypatch):
    """The four files the buttons serve are the worksheet module's, in the page's language."""
    stored: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def spy(self, path_or_data, mimetype, kind, filename=None):
        stored[str(filename)] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", spy)
    at = open_app("checker", lang="es", table=TABLE_PARAM)
    assert_clean(at)
    source = worksheet.Source(from_table=True)
    files = {name: data.decode("utf-8") for name, data in stored.items()
             if name.startswith("qwk_worksheet")}  # not the share box's QR code
    assert files["qwk_worksheet_es.md"] == worksheet.markdown(TABLE, "es", source)
    assert files["qwk_worksheet_es.tex"] == worksheet.latex_document(TABLE, "es", source)
    assert files["qwk_worksheet_es.csv"] == worksheet.matrices_csv(TABLE)
    assert files["qwk_worksheet_es.py"] == worksheet.python_snippet(TABLE, "es", source)
    assert "0,4502" in files["qwk_worksheet_es.md"]
    assert "| 1 | 0 | 8 | 0 |" in files["qwk_worksheet_es.md"]
    assert "0{,}4502" in files["qwk_worksheet_es.tex"]
    assert "expected,0,1,3.4210526315789473" in files["qwk_worksheet_es.csv"]
    assert "walkthrough_from_table" in files["qwk_worksheet_es.py"]


def test_full_solution_shows_every_matrix_and_the_statistics():
    """The expander holds O as a bmatrix, the SE/z/p/CI formulas and the engine's numbers."""
    at = open_app("checker", lang="en", table=TABLE_PARAM)
    assert at.expander[0].label == t("en", "checker.solution")
    formulas = [f.value.strip("$\n") for f in at.latex]  # st.latex wraps the source in $$
    assert r"O = \begin{bmatrix} 0 & 4 & 1 \\ 0 & 8 & 0 \\ 0 & 1 & 5 \end{bmatrix}" in formulas
    assert any(f.startswith(r"\frac{E}{n} = \begin{bmatrix}") for f in formulas)
    stats = TABLE.statistics()
    assert any(r"\mathrm{SE}_0" in f and format_number(stats.se0, "en") in f for f in formulas)
    assert any(r"\kappa \pm z" in f and format_number(stats.ci_low, "en") in f
               for f in formulas)
    big = open_app("checker", lang="en", table=";".join(["1,0,0,0,0,0,0,0,0"] * 9))
    assert_clean(big)
    assert big.dataframe, "matrices larger than 8 x 8 are shown as tables"
