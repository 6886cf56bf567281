"""Check a hand calculation: type your own values for the steps, see which are right and why not."""

import numpy as np
import pandas as pd
import streamlit as st

from qwk_app import compute, inputs, state, widgets
from qwk_app.frame import page_guard
from qwk_app.text import num, show_error, tr
from qwk_explained import InputError, Walkthrough, parse_table, walkthrough_from_table
from qwk_explained.present import feedback, formulas, worksheet
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import language
from qwk_explained.teaching import checking

page_guard()

MODES = ("vectors", "table")
TOLERANCE_KINDS = ("absolute", "relative")
#: Shown until a table is typed or linked: the 3 x 3 table whose SAS printout the statistics
#: are tested against.
DEFAULT_TABLE = "0,4,1;0,8,0;0,1,5"
#: Canonical session keys of this page (widgets mirror them as ``<key>_input``).
MODE, TABLE = "checker_mode", "checker_table"
TOLERANCE, TOLERANCE_KIND = "checker_tolerance", "checker_tolerance_kind"


def answer_key(step: str) -> str:
    return f"checker_answer_{step}"


def cell_key(step: str) -> str:
    return f"checker_cell_{step}"


def _init() -> None:
    """Page state on first use: the mode and table from the first URL, else the defaults."""
    session = st.session_state
    if MODE not in session:
        url_table = state.url_value("table")
        url_mode = state.url_value("mode")
        if url_mode in MODES:
            mode = url_mode
        else:
            mode = "table" if url_table is not None else "vectors"
        session[MODE] = mode
        session[TABLE] = str(url_table) if url_table is not None else DEFAULT_TABLE
    session.setdefault(TOLERANCE, checking.DEFAULT_TOLERANCE)
    session.setdefault(TOLERANCE_KIND, "absolute")
    for step in checking.STEPS:
        session.setdefault(answer_key(step), "")


@st.cache_resource(max_entries=64, show_spinner=False)
def _table_walkthrough(canonical: str, weights: str) -> Walkthrough:
    return walkthrough_from_table(parse_table(canonical), weights=weights)


def _canonical_table(table: np.ndarray) -> str:
    return ";".join(",".join(str(int(v)) for v in row) for row in table)


def _table_input(weights: str) -> tuple[Walkthrough | None, str, worksheet.Source]:
    """The table text area, its problem right below it, and the walkthrough it gives."""
    st.text_area(tr("checker.table_label"), key=state.bind(TABLE), on_change=state.commit(TABLE),
                 help=tr("checker.table_help"), height=110)
    text = str(st.session_state.get(TABLE, ""))
    try:
        table = parse_table(text)
    except InputError as error:
        show_error(error)
        state.share("table", ";".join(line.strip() for line in text.splitlines() if line.strip()))
        return None, "", worksheet.Source(from_table=True)
    canonical = _canonical_table(table)
    state.share("table", canonical)
    result = _table_walkthrough(canonical, weights)
    st.caption(tr("checker.table_scale_note", high=result.size - 1))
    return result, f"table\x00{canonical}\x00{weights}", worksheet.Source(from_table=True)


def _vectors_input() -> tuple[Walkthrough | None, str, worksheet.Source]:
    inputs.apply_table_edits()
    outcome = compute.current()
    inputs.text_fields(outcome)
    if outcome.result is None or outcome.stale:
        return None, "", worksheet.Source()
    settings = state.settings()
    source = worksheet.Source(scale=settings.scale, min_rating=settings.min_rating,
                       max_rating=settings.max_rating)
    return outcome.result, f"vectors\x00{outcome.key}", source


# --- the learner's answers -------------------------------------------------------------------


def _where(verdict: checking.Verdict, result: Walkthrough) -> str:
    if verdict.cell is None:
        return tr(f"checker.where.{verdict.step}")
    i, j = verdict.cell
    return tr(f"checker.where.{verdict.step}", row=int(result.labels[i]),
              col=int(result.labels[j]))


def _answers(result: Walkthrough) -> None:
    lang = state.lang()
    st.subheader(tr("checker.answers_heading"))
    st.markdown(tr("checker.answers_intro"))
    left, right, _ = st.columns([1, 1, 2])
    left.number_input(tr("checker.tolerance"), min_value=0.0, max_value=1.0, step=0.001,
                      format="%.4f", key=state.bind(TOLERANCE), on_change=state.commit(TOLERANCE),
                      help=tr("checker.tolerance_help"))
    right.radio(tr("checker.tolerance_kind"), TOLERANCE_KINDS, key=state.bind(TOLERANCE_KIND),
                on_change=state.commit(TOLERANCE_KIND), horizontal=True,
                format_func=lambda kind: t(lang, f"checker.tolerance_{kind}"))
    tolerance = checking.Tolerance(float(st.session_state[TOLERANCE]),
                             st.session_state[TOLERANCE_KIND] == "relative")
    summary = st.container()
    verdicts: list[checking.Verdict] = []
    # The three cell steps each pick a cell; the three sums share one row.
    for step in checking.CELL_STEPS:
        with st.container(border=True):
            st.markdown(f"**{tr(f'checker.step.{step}')}**")
            cell_area, value_area = st.columns([2, 1])
            with cell_area:
                cell = widgets.cell_picker(result, store=cell_key(step), prefix=cell_key(step),
                                             widths=(1, 1))
            with value_area:
                _answer_field(step, tr("checker.your_value"))
            verdicts += _verdict(result, step, cell, tolerance, lang)
    with st.container(border=True):
        for column, step in zip(st.columns(3), ("numerator", "denominator", "kappa"),
                                strict=True):
            with column:
                _answer_field(step, tr(f"checker.step.{step}"))
                verdicts += _verdict(result, step, None, tolerance, lang)
    with summary:
        _summary(result, verdicts)


def _answer_field(step: str, label: str) -> None:
    st.text_input(label, key=state.bind(answer_key(step)), on_change=state.commit(answer_key(step)),
                  help=tr("checker.your_value_help"))


def _verdict(result: Walkthrough, step: str, cell: tuple[int, int] | None,
             tolerance: checking.Tolerance, lang: str) -> list[checking.Verdict]:
    """Show the verdict on one typed value right under its field; [] when nothing to check."""
    text = str(st.session_state.get(answer_key(step), "")).strip()
    if not text:
        return []
    try:
        value = checking.parse_answer(text, language(lang).group)
    except checking.AnswerError as error:
        # The message quotes what was typed: escaped, so "**x**" or a link shows as typed.
        show_error(error)
        return []
    verdict = checking.check_value(result, step, value, cell, tolerance)
    if verdict.correct:
        st.success(tr("checker.right", value=num(value, 6)), icon=":material/check_circle:")
        return [verdict]
    st.error(tr("checker.wrong", value=num(value, 6)), icon=":material/cancel:")
    if verdict.diagnosis is not None:
        st.info(feedback.hint(lang, verdict.diagnosis), icon=":material/lightbulb:")
    else:
        st.info(tr("checker.no_hint"), icon=":material/lightbulb:")
    return [verdict]


def _summary(result: Walkthrough, verdicts: list[checking.Verdict]) -> None:
    if not verdicts:
        st.info(tr("checker.nothing_checked"), icon=":material/edit:")
        return
    wrong = checking.first_wrong(verdicts)
    count = len(verdicts)
    if wrong is None:
        st.success(tr("checker.summary_all_right", count=num(count)),
                   icon=":material/celebration:")
        return
    right = sum(verdict.correct for verdict in verdicts)
    st.warning(tr("checker.summary_first_wrong", right=num(right), count=num(count),
                  where=_where(wrong, result)), icon=":material/arrow_downward:")


# --- the reference solution ----------------------------------------------------------------------


@st.cache_data(max_entries=64, show_spinner=False)
def _exports(key: str, _result: Walkthrough, lang: str,
             _source: worksheet.Source) -> dict[str, str]:
    """The four downloads for one result and language (``key`` names the result and source)."""
    source = _source
    return {
        "md": worksheet.markdown(_result, lang, source),
        "tex": worksheet.latex_document(_result, lang, source),
        "csv": worksheet.matrices_csv(_result),
        "py": worksheet.python_snippet(_result, lang, source),
    }


def _matrix(block: worksheet.Block, result: Walkthrough, lang: str) -> None:
    st.caption(block.text)
    latex = formulas.matrix_latex(block.values, lang, integer=block.integer,
                            max_size=worksheet.MAX_BMATRIX, name=block.symbol)
    if latex is not None:
        st.latex(latex)
        return
    labels = [str(int(x)) for x in result.labels]
    values = np.asarray(block.values)
    frame = pd.DataFrame(values.astype(np.int64) if block.integer else values.round(4),
                         index=labels, columns=labels)
    st.dataframe(frame, width="stretch")


def _solution(result: Walkthrough, source: worksheet.Source) -> None:
    lang = state.lang()
    with st.expander(tr("checker.solution"), icon=":material/visibility:"):
        st.markdown(tr("checker.solution_intro"))
        st.metric(tr("common.kappa"),
                  tr("common.undefined") if result.kappa is None else num(result.kappa))
        for block in worksheet.outline(result, lang, source):
            if block.kind == "heading":
                st.markdown(f"#### {block.text}")
            elif block.kind == "text":
                st.markdown(block.text)
            elif block.kind == "formula":
                st.latex(block.latex)
            elif block.kind == "matrix":
                _matrix(block, result, lang)
            elif block.kind == "table":
                frame = pd.DataFrame(list(block.rows), columns=list(block.header))
                st.table(frame.set_index(block.header[0]))


def _downloads(key: str, result: Walkthrough, source: worksheet.Source) -> None:
    lang = state.lang()
    files = _exports(f"{key}\x00{source}", result, lang, source)
    st.subheader(tr("checker.downloads_heading"))
    st.caption(tr("checker.downloads_help"))
    specs: list[tuple[str, str, str, str]] = [
        ("md", "text/markdown", "checker.download_md", ":material/description:"),
        ("tex", "application/x-tex", "checker.download_tex", ":material/functions:"),
        ("csv", "text/csv", "checker.download_csv", ":material/table:"),
        ("py", "text/x-python", "checker.download_py", ":material/code:"),
    ]
    # Two per row: four in a row leave a translated label ("Hoja de trabajo (Markdown)") too
    # little room, and Streamlit cuts it off with an ellipsis.
    columns = [column for _ in range(0, len(specs), 2) for column in st.columns(2)]
    for column, (ext, mime, label, icon) in zip(columns, specs, strict=True):
        column.download_button(tr(label), data=files[ext].encode("utf-8"),
                               file_name=f"qwk_worksheet_{lang}.{ext}", mime=mime, icon=icon,
                               key=f"checker_download_{ext}", on_click="ignore",
                               width="stretch")


# --- the page ----------------------------------------------------------------------------------


def main() -> None:
    _init()
    lang = state.lang()
    st.title(tr("checker.title"))
    st.markdown(tr("checker.intro"))
    st.radio(tr("checker.mode"), MODES, key=state.bind(MODE), on_change=state.commit(MODE),
             horizontal=True, help=tr("checker.mode_help"),
             format_func=lambda mode: t(lang, f"checker.mode_{mode}"))
    mode = st.session_state[MODE]
    state.share("mode", mode)
    settings = state.settings()
    if mode == "table":
        result, key, source = _table_input(settings.weights)
    else:
        result, key, source = _vectors_input()
    if result is None:
        st.info(tr("checker.fix_input"), icon=":material/edit:")
        return
    if result.kappa is None:
        st.warning(tr("checker.kappa_undefined_note"), icon=":material/help:")
    _answers(result)
    st.divider()
    _solution(result, source)
    _downloads(key, result, source)


main()
