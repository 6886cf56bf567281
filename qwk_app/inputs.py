"""Ways to enter the two rating vectors, all kept in step: text, table, presets, random, CSV upload.

The typed text is the single source of truth (``state["actual"]``, ``state["predicted"]``): every
other control writes text, so what a user typed is never lost when another control fails.
Only a large upload is kept as arrays instead (it would not fit in a text box or a URL).

The two text fields are one form that sends itself: the page follows a moment after the learner
stops typing, or at once on Enter, and a half-typed pair waits in the browser for its other half.
An example, a random draw or an upload replaces what was typed, so each first keeps it for
undo (:func:`qwk_app.state.remember`) and the page offers to put it back.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import streamlit as st

from qwk_explained.core.csvfile import parse_csv
from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.validate import check_pair
from qwk_explained.present.i18n import t
from qwk_explained.present.numbers import about, printf_percent
from qwk_explained.teaching.examples import BY_NAME, EXAMPLES, random_ratings

from . import charts, compute, state, widgets
from .compute import Outcome
from .editor import Row
from .state import Session
from .text import escape_markdown, num, show_error, tr

#: Rows the table editor shows; longer vectors are edited as text or uploaded.
EDITOR_MAX_ROWS = 1000
#: Uploads up to this many items go into the text fields, where they stay editable.
UPLOAD_AS_TEXT_MAX = 5000
#: Largest random example (its text must stay comfortable in a text box).
RANDOM_MAX_ITEMS = 5000


#: The input panel's tabs (``inputs.tab_<slug>`` are their labels); the text fields are above them.
InputTab = Literal["examples", "table", "random", "upload"]
INPUT_TABS: tuple[InputTab, ...] = get_args(InputTab)
#: The open tab, kept as its slug (its label changes with the language).
INPUT_TAB: state.Choice[InputTab] = state.Choice("input_tab", INPUT_TABS, "examples")
#: The examples, by name.
EXAMPLE_NAMES = tuple(example.name for example in EXAMPLES)
#: How long the rating fields wait after the last keystroke before the page follows.
LIVE_PAUSE_MS = 300
#: How long they wait instead while the two lists differ in length (an item half added, or
#: Enter pressed in the first field): time to type the second half, which then comes with it.
HALF_PAIR_PAUSE_MS = 1500


def vector_panel() -> None:
    """The walkthrough's other ways to enter ratings, below its rating fields and kappa.

    The table editor and the random form are built only while their tab is open: the editor
    alone was a tenth of every rerun, and thirty students editing at once wait for each other's
    reruns. The examples and the uploaders (cheap, and a file uploader that is not drawn forgets
    its file) are always built. Opening a tab reruns the page.
    """
    session = st.session_state
    _keep_random_settings(session)
    widgets.undo_offer("undo_inputs", ("example", "random", "upload"))
    labels = [tr(f"inputs.tab_{slug}") for slug in INPUT_TABS]
    # The open tab is kept as a slug, so it survives a language switch (the labels change); the
    # tabs' widget holds the label of this run's language.
    session[INPUT_TAB.widget_key] = labels[INPUT_TABS.index(INPUT_TAB.get(session))]
    examples, table, generate, upload = st.tabs(labels, key=INPUT_TAB.widget_key,
                                                on_change=_tab_opened, args=(session, labels))
    with examples:
        _presets()
    with upload:  # always drawn: a file uploader forgets its file when a run does not draw it
        _upload()
    if table.open:
        with table:
            _table_editor()
    if generate.open:
        with generate:
            _random_form()


def _tab_opened(session: Session, labels: list[str]) -> None:
    label = state.checked(session.get(INPUT_TAB.widget_key), labels)
    if label is not None:
        session[INPUT_TAB.key] = INPUT_TABS[labels.index(label)]


#: The form around the two rating fields, and its button (widget keys).
RATINGS_FORM = "ratings_form"
RATINGS_SUBMIT = "ratings_submit"


def text_fields(outcome: Outcome) -> None:
    """The two rating fields, each with its own problem shown right below it.

    They are one form: what is typed stays in the browser until the form is sent, by its button,
    by Enter, or a moment after the learner stops typing (:func:`qwk_app.charts.hold_ratings`
    decides when, in the browser). While one list is longer than the other (an item being
    added: a rating typed at the end of the first field, then of the second) the browser waits
    longer, so the second half usually arrives with the first and the page reruns once; a half
    pair that is sent all the same keeps the last complete result. ``outcome`` is what the page
    is drawn with.
    """
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        st.info(tr("inputs.upload_active", name=escape_markdown(upload["name"]),
                   count=len(upload["actual"])),
                icon=":material/upload_file:")
        st.button(tr("inputs.upload_clear"), on_click=clear_upload, args=(session,),
                  key="upload_clear")
        show_error(outcome.errors.get("scale"))
        return
    # The cap is in the help: a browser ignores a longer paste without a word.
    help_text = tr("inputs.field_help", limit=compute.TYPED_MAX_CHARS,
                   count=about(compute.TYPED_MAX_RATINGS))
    keys: dict[str, str] = {}
    with st.form(RATINGS_FORM, enter_to_submit=False, border=False):
        left, right = st.columns(2)
        for column, name in ((left, "actual"), (right, "predicted")):
            with column:
                # rebind, not bind: the walkthrough, step-by-step and checker pages all draw these.
                keys[name] = state.rebind(name)
                st.text_input(tr(f"inputs.{name}_label"), key=keys[name], help=help_text,
                              autocomplete="off", max_chars=compute.TYPED_MAX_CHARS)
                _field_status(outcome, name)
        st.form_submit_button(tr("inputs.fields_submit"), key=RATINGS_SUBMIT, on_click=submitted,
                              args=(session,))
    charts.hold_ratings((keys["actual"], keys["predicted"]), submit=RATINGS_SUBMIT,
                        pause_ms=LIVE_PAUSE_MS, long_pause_ms=HALF_PAIR_PAUSE_MS,
                        key="ratings_hold")
    if "pair" in outcome.pending:
        st.caption(tr("inputs.typing_lengths", n_actual=num(outcome.counts.get("actual", 0)),
                      n_predicted=num(outcome.counts.get("predicted", 0))))
    else:
        show_error(outcome.errors.get("pair"))
    # Scale problems (a rating outside the fixed range, too many distinct ratings) come from the
    # data as much as from the settings, so they are shown with the data.
    show_error(outcome.errors.get("scale"))


def _field_status(outcome: Outcome, name: str) -> None:
    """Below a field: its problem, or while it is unfinished a calm word; else its count."""
    if name in outcome.pending:
        st.caption(tr("inputs.typing_sign"))
    elif name in outcome.errors:
        show_error(outcome.errors[name])
    elif name in outcome.counts:
        st.caption(tr("inputs.count", count=num(outcome.counts[name])))


def submitted(session: Session) -> None:
    """The rating form's ``on_click``: each field whose text changed becomes its canonical
    vector, both in the same run."""
    changed = [name for name in ("actual", "predicted")
               if session.get(f"{name}_input") != session.get(name)]
    for name in changed:
        session[name] = session[f"{name}_input"]
    if changed:
        state.VECTOR_TABLE.redraw(session)
        # Undo would now take back the typing too: it is only offered right after a replacement.
        state.forget_replaced(session=session)


def _presets() -> None:
    lang = state.lang()  # bound now: format_func may run outside the script (tests)
    st.pills(tr("inputs.presets"), options=EXAMPLE_NAMES, key="preset_pick",
             format_func=lambda name: t(lang, f"presets.{name}"), on_change=_apply_preset,
             args=(st.session_state,), help=tr("inputs.presets_help"))


def load_example(session: Session, name: str) -> None:
    """Put a named example into the shared vectors, on the scale its data spans (undoable)."""
    example = BY_NAME[name]
    state.remember("example", session=session, example=name)
    state.set_vectors(state.vector_text(np.array(example.actual)),
                      state.vector_text(np.array(example.predicted)), session=session)
    state.set_value("min", None, session=session)
    state.set_value("max", None, session=session)


def _apply_preset(session: Session) -> None:
    name = state.checked(session.get("preset_pick"), EXAMPLE_NAMES)
    if name is not None:
        load_example(session, name)
    session["preset_pick"] = None


# --- the table editor -------------------------------------------------------------------------

#: The table editor's columns: one row per item.
TABLE_COLUMNS = ("actual", "predicted")


def table_rows(session: Session) -> tuple[str, list[Row]]:
    """The table editor's widget key and rows (actual, predicted): the rows it was drawn with
    while it holds edits, else the typed ratings now.

    Raises the text's :class:`InputError` when the two fields are not two lists of the same
    length: the table shows complete data only.
    """

    def read() -> list[Row]:
        actual = parse_vector(str(session.get("actual", "")))
        predicted = parse_vector(str(session.get("predicted", "")))
        check_pair(actual, predicted)
        return [[a, p] for a, p in zip(actual.tolist(), predicted.tolist(), strict=True)]

    return state.VECTOR_TABLE.rows(session, read)


def _table_editor() -> None:
    session = st.session_state
    if session.get("upload") is not None:
        st.info(tr("inputs.table_upload"))
        return
    try:
        key, rows = table_rows(session)
    except InputError:
        st.info(tr("inputs.table_fix_text"))
        return
    if len(rows) > EDITOR_MAX_ROWS:
        st.info(tr("inputs.table_too_long", count=len(rows), limit=num(EDITOR_MAX_ROWS)))
        return
    state.VECTOR_TABLE.guarded(session, lambda: _draw_table(*table_rows(session)))
    st.caption(tr("inputs.table_help"))
    incomplete = session.get("editor_incomplete", 0)
    if incomplete:
        st.warning(tr("inputs.table_incomplete", count=incomplete))


def _draw_table(key: str, rows: list[Row]) -> None:
    low, high = state.RATING_RANGE
    st.data_editor(
        {name: [row[k] for row in rows] for k, name in enumerate(TABLE_COLUMNS)},
        key=key,
        num_rows="dynamic",
        width="stretch",
        placeholder="—",  # an empty cell of a new row, instead of Streamlit's "None"
        column_config={
            name: st.column_config.NumberColumn(tr(f"inputs.column_{name}"), step=1,
                                                format="%d", min_value=low, max_value=high)
            for name in TABLE_COLUMNS},
        height=min(38 + 35 * (len(rows) + 1), 420),
    )


def apply_table_edits(session: Session) -> None:
    """Write the table editor's rows back as text (rows with an empty cell are left out, and
    counted for the page to say so).

    Called at the start of a run, before any widget is drawn, so the text fields can still be
    updated in the same run; replaying the edits is idempotent, so it may run on every rerun.
    With nothing edited the text stays exactly as the user typed it.
    """
    rows = state.VECTOR_TABLE.replay(session, TABLE_COLUMNS)
    if rows is None:
        return
    ratings = [[table_rating(value) for value in row] for row in rows]
    complete = [row for row in ratings if row[0] is not None and row[1] is not None]
    session["editor_incomplete"] = len(rows) - len(complete)
    for name, column in zip(TABLE_COLUMNS, (0, 1), strict=True):
        text = ", ".join(str(row[column]) for row in complete)
        if session.get(name) != text:
            state.set_value(name, text, session=session)


def table_rating(value: object) -> int | None:
    """A cell of the table editor as a rating, or ``None`` (an empty cell).

    The editor's number columns send whole numbers within :data:`qwk_app.state.RATING_RANGE`
    (an int, or a float such as 3.0); anything else only comes from a forged message and is
    read as an empty cell, never truncated (1.5) or taken for a number (``true``, ``"x"``).

    >>> [table_rating(v) for v in (3, 3.0, -2, 1.5, True, "x", [1], None, 10**6)]
    [3, 3, -2, None, None, None, None, None, None]
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    low, high = state.RATING_RANGE
    return value if type(value) is int and low <= value <= high else None


# --- random examples --------------------------------------------------------------------------

#: The random example's settings and their defaults (the agreement in whole percent).
RANDOM_DEFAULTS = {"random_n": 20, "random_classes": 5, "random_agreement": 60, "random_seed": 42}


def _keep_random_settings(session: Session) -> None:
    """Keep the random form's values while its tab is closed (every run, before any widget).

    Streamlit drops the value of a widget that a run does not draw; one the script has set
    itself is kept. The widgets then take their values from here, not from ``value=``.
    """
    for key, default in RANDOM_DEFAULTS.items():
        session[key] = session.get(key, default)


def _random_form() -> None:
    with st.form("random_form", border=False):
        left, middle, right, last = st.columns(4)
        left.number_input(tr("inputs.random_n"), min_value=2, max_value=RANDOM_MAX_ITEMS,
                          step=1, key="random_n")
        middle.number_input(tr("inputs.random_classes"), min_value=2, max_value=10,
                            step=1, key="random_classes")
        # A percentage, written by the language's pattern ("60 %", "%60"): the slider formats its
        # value in the browser with printf, which would write 0.60 in every language.
        right.slider(tr("inputs.random_agreement"), min_value=0, max_value=100, step=5,
                     format=printf_percent(state.lang()), key="random_agreement",
                     help=tr("inputs.random_agreement_help"))
        last.number_input(tr("inputs.random_seed"), min_value=0, max_value=2**31 - 1,
                          step=1, key="random_seed", help=tr("inputs.random_seed_help"))
        st.form_submit_button(tr("inputs.random_generate"), on_click=_generate,
                              args=(st.session_state,))


def _generate(session: Session) -> None:
    actual, predicted = random_ratings(int(session["random_n"]), int(session["random_classes"]),
                                       int(session["random_agreement"]) / 100,
                                       int(session["random_seed"]))
    state.remember("random", session=session, n_items=num(len(actual)))
    state.set_vectors(state.vector_text(actual), state.vector_text(predicted), session=session)


# --- CSV upload -------------------------------------------------------------------------------

def _upload() -> None:
    session = st.session_state
    limit = st.get_option("server.maxUploadSize")
    # A row of two one-digit ratings is 4 bytes ("3,4\n"): the cap in rows a teacher can picture,
    # rounded as an "about" quantity (5 million, not 5,242,880).
    st.caption(tr("inputs.upload_help", limit=num(limit), count=about(limit * 2**20 // 4)))
    left, right = st.columns(2)
    for column, key in ((left, "upload_first"), (right, "upload_second")):
        column.file_uploader(tr(f"inputs.{key}"), type=["csv", "txt", "tsv"], key=key,
                             on_change=take_upload, args=(session,))
    show_error(session.get("upload_error"))
    notice = session.get("upload_notice")
    if notice:
        st.success(tr("inputs.upload_loaded", name=escape_markdown(notice[0]), count=notice[1]))


def take_upload(session: Session) -> None:
    """The uploaders' ``on_change``: the ratings of one file of two columns, or of two files of
    one column each, replace the vectors (undoable); a problem is kept for the page to show.

    Up to :data:`UPLOAD_AS_TEXT_MAX` items they become the typed text, where they stay editable;
    a larger file is kept as arrays (``upload``), out of the text fields and the link.
    """
    session["upload_error"] = None
    session["upload_notice"] = None
    first, second = session.get("upload_first"), session.get("upload_second")
    if first is None:
        return
    try:
        columns = parse_csv(first.getvalue()).columns
        if second is not None:
            if len(columns) != 1:
                raise InputError("csv_too_many_columns", count=len(columns))
            other = parse_csv(second.getvalue()).columns
            if len(other) != 1:
                raise InputError("csv_too_many_columns", count=len(other))
            actual, predicted = columns[0], other[0]
        elif len(columns) == 2:
            actual, predicted = columns
        else:
            session["upload_error"] = InputError("upload_needs_second")
            return
        check_pair(actual, predicted)
    except InputError as error:
        session["upload_error"] = error
        return
    name = first.name if second is None else f"{first.name} + {second.name}"
    state.remember("upload", session=session, name=escape_markdown(name))
    if len(actual) <= UPLOAD_AS_TEXT_MAX:
        state.set_vectors(state.vector_text(actual), state.vector_text(predicted),
                          session=session)
    else:
        digest = compute.ratings_key(actual, predicted)
        actual.setflags(write=False)
        predicted.setflags(write=False)
        session["upload"] = {"name": name, "actual": actual, "predicted": predicted,
                             "digest": digest}
    session["upload_notice"] = (name, len(actual))


def clear_upload(session: Session) -> None:
    """Back to the typed vectors (they were kept while the upload was shown)."""
    session["upload"] = None
    session["upload_notice"] = None
