"""Check a hand calculation: type whole matrices, the histograms and the sums; see which values
are right, which mistakes explain the others, and the full solution.

Layout only: the state lives in :mod:`qwk_app.checker`, the verdicts come from
:func:`qwk_explained.teaching.checking.check_answers`, the sentences from
:mod:`qwk_explained.present.feedback`.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from qwk_app import answer_grid, checker, compute, inputs, render, state
from qwk_app.frame import page_guard
from qwk_app.text import escape_markdown, num, show_error, tr
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Quantity
from qwk_explained.present import feedback, worksheet
from qwk_explained.present.catalogue import STEPS, Step, StepSlug
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import language
from qwk_explained.teaching.checking import CheckedAnswer, check_answers, first_wrong, graded

page_guard()

#: The grids of each step (steps 6 and 7 are typed in one field per value).
STEP_GRIDS: dict[StepSlug, tuple[checker.Grid, ...]] = {
    "observed": ("observed",), "weights": ("weights",), "histograms": ("histograms",),
    "expected": ("expected",), "normalization": ("observed_norm", "expected_norm")}


def _data() -> checker.Data:
    """The mode's input fields, and the data they give."""
    session = st.session_state
    lang = state.lang()
    mode = checker.MODE_CHOICE
    st.radio(tr("checker.mode"), mode.options, key=mode.show(session), on_change=mode.commit,
             args=(session,), horizontal=True, help=tr("checker.mode_help"),
             format_func=lambda code: t(lang, f"checker.mode_{code}"))
    state.share("mode", mode.get(session))
    if mode.get(session) == "vectors":
        inputs.apply_table_edits(session)
        outcome = compute.current()
        inputs.text_fields(outcome)
        return checker.data(session, outcome)
    table_area, first_area = st.columns([3, 1])
    table_area.text_area(tr("checker.table_label"), key=state.bind(checker.TABLE),
                         on_change=state.commit(checker.TABLE), help=tr("checker.table_help"),
                         height=110)
    first_area.number_input(tr("checker.first_rating"), step=1, key=state.bind(checker.FIRST),
                            on_change=state.commit(checker.FIRST), help=tr("checker.first_help"),
                            min_value=state.RATING_RANGE[0], max_value=state.RATING_RANGE[1])
    data = checker.data(session, None)
    for name, value in data.link.items():
        state.share(name, value)
    show_error(data.error)
    if data.result is not None:
        st.caption(tr("checker.table_scale_note", low=num(int(data.result.labels[0])),
                      high=num(int(data.result.labels[-1]))))
    return data


# --- the learner's values -------------------------------------------------------------------------


def _grid(grid: checker.Grid, result: Walkthrough, checked: Sequence[CheckedAnswer]) -> None:
    """One grid of fields with the marks in its cells, a paste box, and what is said about its
    values."""
    session = st.session_state
    lang = state.lang()
    labels = [int(x) for x in result.labels]
    names = [feedback.label(lang, label) for label in labels]
    histograms = grid in checker.GRID_ROWS
    title = tr(f"checker.grid.{grid}")
    st.markdown(f"**{title}**")
    st.caption(tr("checker.grid_help_histograms" if histograms else "checker.grid_help_matrix"))
    key, rows = checker.editor_rows(session, grid, labels)
    answer_grid.draw(key=key, title=title, columns=[str(label) for label in labels], rows=rows,
                     cells=checker.cell_rows(session, grid, labels),
                     row_names=[tr("steps.actual_name"), tr("steps.predicted_name")]
                     if histograms else names, column_names=names,
                     marks=checker.marks(grid, labels, checked), histograms=histograms)
    if checker.in_grid(grid, checked):
        st.caption(tr("checker.marks_legend"))
    with st.expander(tr("checker.paste_heading"), icon=":material/content_paste:"):
        st.text_area(tr("checker.paste_label"), key=checker.paste_key(grid),
                     help=tr("checker.paste_help"), height=100)
        fill, empty = st.columns(2)
        fill.button(tr("checker.paste_fill"), key=f"checker_fill_{grid}",
                    on_click=checker.paste_box, args=(session, grid, labels))
        empty.button(tr("checker.clear"), key=f"checker_clear_{grid}", on_click=checker.clear,
                     args=(session, grid))
        problem = session[checker.PASTE_PROBLEM].get(grid)
        if problem is not None:
            st.error(tr(f"checker.paste.{problem}", rows=num(len(checker.grid_rows(grid, labels))),
                        columns=num(len(labels))), icon=":material/error:")
    _said(result, checker.in_grid(grid, checked))


def _said(result: Walkthrough, checked: Sequence[CheckedAnswer]) -> None:
    """One message per group of values that get the same words."""
    lang = state.lang()
    for group in checker.groups(checked):
        first = group[0]
        places = feedback.places(lang, result, group)
        if first.problem is not None:
            st.error(tr("checker.said", places=places,
                        text=escape_markdown(feedback.verdict_line(lang, first))),
                     icon=":material/error:")
            continue
        text = feedback.joined(lang, [t(lang, f"checker.verdict_short.{first.verdict}"),
                                      *feedback.explanation(lang, result, first)])
        if first.wrong:
            st.error(tr("checker.said", places=places, text=escape_markdown(text)),
                     icon=":material/cancel:")
        elif first.verdict == "too_coarse":
            st.warning(tr("checker.said", places=places, text=escape_markdown(text)),
                       icon=":material/more_horiz:")
        else:
            st.info(tr("checker.said", places=places, text=escape_markdown(text)),
                    icon=":material/lightbulb:")


def _value(quantity: Quantity, result: Walkthrough, checked: Sequence[CheckedAnswer]) -> None:
    """One typed value (num, den or kappa) with its verdict right under it."""
    lang = state.lang()
    key = checker.answer_key(quantity)
    st.text_input(tr(f"checker.value.{quantity}"), key=state.bind(key),
                  on_change=state.commit(key), help=tr("checker.your_value_help"))
    for answer in checked:
        if answer.quantity != quantity:
            continue
        if answer.problem is not None:
            show_error(answer.problem)
            return
        line = escape_markdown(feedback.verdict_line(lang, answer))
        if answer.accepted:
            st.success(line, icon=":material/check_circle:")
        elif answer.verdict == "too_coarse":
            st.warning(line, icon=":material/more_horiz:")
        else:
            st.error(line, icon=":material/cancel:")
        said = feedback.explanation(lang, result, answer)
        if said:
            st.info(escape_markdown(feedback.joined(lang, said)), icon=":material/lightbulb:")


def _summary(result: Walkthrough, checked: Sequence[CheckedAnswer]) -> None:
    """The first wrong value, or every graded value right; then what was not graded."""
    counted = graded(checked)
    if not checked:
        st.info(tr("checker.nothing_checked"), icon=":material/edit:")
    elif first_wrong(checked) is not None:
        st.warning(feedback.first_wrong_sentence(state.lang(), result, checked),
                   icon=":material/arrow_downward:")
    elif counted:
        st.success(tr("checker.summary_all_right", count=len(counted)),
                   icon=":material/celebration:")
    for sentence in feedback.ungraded_sentences(state.lang(), checked):
        st.info(sentence, icon=":material/more_horiz:")


def _step(step: Step, result: Walkthrough, checked: Sequence[CheckedAnswer]) -> None:
    with st.container(border=True):
        st.subheader(step.heading(state.lang()))
        for grid in STEP_GRIDS.get(step.slug, ()):
            _grid(grid, result, checked)
        scalars = [q for q in step.quantities if q in checker.SCALARS]
        for column, quantity in zip(st.columns(max(len(scalars), 1)), scalars, strict=False):
            with column:
                _value(quantity, result, checked)


# --- the reference solution -----------------------------------------------------------------------


def _solution(result: Walkthrough, source: worksheet.Source) -> None:
    """The worksheet's outline, drawn by the app's renderer (its title is the expander's
    label)."""
    with st.expander(tr("checker.solution"), icon=":material/visibility:"):
        st.markdown(tr("checker.solution_intro"))
        render.blocks(worksheet.outline(result, state.lang(), source), nested=True)


def _downloads(result: Walkthrough, source: worksheet.Source) -> None:
    lang = state.lang()
    files = compute.worksheets(result, lang, source)
    st.subheader(tr("checker.downloads_heading"))
    st.caption(tr("checker.downloads_help"))
    specs = (("md", "text/markdown", ":material/description:"),
             ("tex", "application/x-tex", ":material/functions:"),
             ("csv", "text/csv", ":material/table:"),
             ("py", "text/x-python", ":material/code:"))
    # Two per row: four in a row leave a translated label ("Hoja de trabajo (Markdown)") too
    # little room, and Streamlit cuts it off with an ellipsis.
    columns = [column for _ in range(0, len(specs), 2) for column in st.columns(2)]
    for column, (ext, mime, icon) in zip(columns, specs, strict=True):
        column.download_button(tr(f"checker.download_{ext}"), data=files[ext].encode("utf-8"),
                               file_name=f"qwk_worksheet_{lang}.{ext}", mime=mime, icon=icon,
                               key=f"checker_download_{ext}", on_click="ignore",
                               width="stretch")


# --- the page -------------------------------------------------------------------------------------


def main() -> None:
    session = st.session_state
    checker.init(session, {key: state.url_value(key) for key in ("table", "mode", "first")})
    st.title(tr("checker.title"))
    st.markdown(tr("checker.intro"))
    data = _data()
    result = data.result
    if result is None:
        st.info(tr("checker.fix_input"), icon=":material/edit:")
        return
    if result.kappa is None:
        st.warning(tr("checker.kappa_undefined_note"), icon=":material/help:")
    checker.take_edits(session, [int(x) for x in result.labels])
    checked = check_answers(result, checker.answers(session, result),
                            language(state.lang()).group)
    st.subheader(tr("checker.answers_heading"))
    st.markdown(tr("checker.answers_intro"))
    _summary(result, checked)
    for step in STEPS:
        _step(step, result, checked)
    st.divider()
    _solution(result, data.source)
    _downloads(result, data.source)


main()
