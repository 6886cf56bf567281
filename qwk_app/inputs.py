"""Ways to enter the two rating vectors, all kept in step: text, table, presets, random, CSV upload.

The typed text is the single source of truth (``state["actual"]``, ``state["predicted"]``): every
other control writes text, so what a user typed is never lost when another control fails.
Only a large upload is kept as arrays instead (it would not fit in a text box or a URL).

The two text fields are live: the page follows a moment after the learner stops typing, with no
Enter to press. An example, a random draw or an upload replaces what was typed, so each first
keeps it for undo (:func:`qwk_app.state.remember`) and the page offers to put it back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Literal, get_args

import numpy as np
import streamlit as st

from qwk_explained.core.csvfile import parse_csv
from qwk_explained.core.errors import InputError
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.validate import check_pair
from qwk_explained.present.i18n import t
from qwk_explained.teaching.examples import BY_NAME, EXAMPLES, random_ratings

from . import state, widgets
from .compute import Outcome
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
#: How long the fields wait after the last keystroke before the page follows.
LIVE_PAUSE = "300ms"


def vector_panel() -> None:
    """The walkthrough's other ways to enter ratings, below its live text fields and kappa.

    The table editor and the random form are built only while their tab is open: the editor
    alone was a tenth of every rerun, and thirty students editing at once wait for each other's
    reruns. The examples and the uploaders (cheap, and a file uploader that is not drawn forgets
    its file) are always built. Opening a tab reruns the page.
    """
    _keep_random_settings()
    widgets.undo_offer("undo_inputs", ("example", "random", "upload"))
    labels = [tr(f"inputs.tab_{slug}") for slug in INPUT_TABS]
    # The open tab is kept as a slug, so it survives a language switch (the labels change).
    opened = st.session_state.get("input_tab", INPUT_TABS[0])
    st.session_state["input_tab_input"] = labels[INPUT_TABS.index(opened)
                                                 if opened in INPUT_TABS else 0]
    examples, table, generate, upload = st.tabs(labels, key="input_tab_input",
                                                on_change=_tab_opened, args=(labels,))
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


def _tab_opened(labels: list[str]) -> None:
    label = st.session_state.get("input_tab_input")
    st.session_state["input_tab"] = (INPUT_TABS[labels.index(label)] if label in labels
                                     else INPUT_TABS[0])


def text_fields(outcome: Outcome) -> None:
    """The two text areas, each with its own problem shown right below it."""
    session = st.session_state
    upload = session.get("upload")
    if upload is not None:
        st.info(tr("inputs.upload_active", name=escape_markdown(upload["name"]),
                   count=len(upload["actual"])),
                icon=":material/upload_file:")
        st.button(tr("inputs.upload_clear"), on_click=_clear_upload, key="upload_clear")
        show_error(outcome.errors.get("scale"))
        return
    left, right = st.columns(2)
    for column, name in ((left, "actual"), (right, "predicted")):
        with column:
            # rebind, not bind: the walkthrough, guided and checker pages all draw these two.
            st.text_input(tr(f"inputs.{name}_label"), key=state.rebind(name),
                          on_change=_typed(name), help=tr("inputs.text_help"), live=LIVE_PAUSE,
                          autocomplete="off")
            _field_status(outcome, name)
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


def _typed(name: str) -> Callable[[], None]:
    copy = state.commit(name)

    def _changed() -> None:
        copy()
        _reset_editor()
        # Undo would now take back the typing too: it is only offered right after a replacement.
        state.forget_replaced()

    return _changed


def _reset_editor() -> None:
    st.session_state["editor_version"] = st.session_state.get("editor_version", 0) + 1


def _presets() -> None:
    lang = state.lang()  # bound now: format_func may run outside the script (tests)
    st.pills(tr("inputs.presets"), options=[e.name for e in EXAMPLES], key="preset_pick",
             format_func=lambda name: t(lang, f"presets.{name}"), on_change=_apply_preset,
             help=tr("inputs.presets_help"))


def load_example(name: str) -> None:
    """Put a named example into the shared vectors, on the scale its data spans (undoable)."""
    example = BY_NAME[name]
    state.remember("example", example=name)
    state.set_vectors(state.vector_text(np.array(example.actual)),
                      state.vector_text(np.array(example.predicted)))
    state.set_value("min", None)
    state.set_value("max", None)
    st.session_state["scale_mode_input"] = st.session_state.get("scale", "range")


def _apply_preset() -> None:
    name = st.session_state.get("preset_pick")
    if name in BY_NAME:
        load_example(name)
    st.session_state["preset_pick"] = None


# --- the table editor -------------------------------------------------------------------------

def _table_editor() -> None:
    session = st.session_state
    if session.get("upload") is not None:
        st.info(tr("inputs.table_upload"))
        return
    version = session.get("editor_version", 0)
    base = session.get("editor_base")
    # The editor holds its edits relative to the rows it was drawn with, in its widget state, and
    # Streamlit drops that state while the editor is not drawn (another tab or page open) once
    # the edits are in the text. Without live edits, the rows are read again from the text; if
    # they changed, a new key draws a fresh editor instead of the old rows.
    if base is None or base[0] != version or f"editor_{version}" not in session:
        try:
            actual = parse_vector(str(session.get("actual", ""))).tolist()
            predicted = parse_vector(str(session.get("predicted", ""))).tolist()
        except InputError:
            st.info(tr("inputs.table_fix_text"))
            return
        if len(actual) != len(predicted):
            st.info(tr("inputs.table_fix_text"))
            return
        if base is not None and base[0] == version and (base[1], base[2]) != (actual, predicted):
            version += 1
            session["editor_version"] = version
        base = (version, actual, predicted)
        session["editor_base"] = base
    _, actual, predicted = base
    if len(actual) > EDITOR_MAX_ROWS:
        st.info(tr("inputs.table_too_long", count=len(actual), limit=num(EDITOR_MAX_ROWS)))
        return
    actual_label, predicted_label = tr("inputs.column_actual"), tr("inputs.column_predicted")
    st.data_editor(
        {"actual": actual, "predicted": predicted},
        key=f"editor_{version}",
        num_rows="dynamic",
        width="stretch",
        placeholder="—",  # an empty cell of a new row, instead of Streamlit's "None"
        column_config={
            "actual": st.column_config.NumberColumn(actual_label, step=1, format="%d",
                                                    min_value=-1000, max_value=1000),
            "predicted": st.column_config.NumberColumn(predicted_label, step=1, format="%d",
                                                       min_value=-1000, max_value=1000),
        },
        height=min(38 + 35 * (len(actual) + 1), 420),
    )
    st.caption(tr("inputs.table_help"))
    incomplete = session.get("editor_incomplete", 0)
    if incomplete:
        st.warning(tr("inputs.table_incomplete", count=incomplete))


def apply_table_edits() -> None:
    """Apply the table editor's edits to its frozen base and write the result back as text.

    Called at the start of a run, before any widget is drawn, so the text fields can still be
    updated in the same run. The editor keeps its edits relative to the base it was drawn from;
    replaying them is idempotent, so this may run on every rerun.
    """
    session = st.session_state
    base = session.get("editor_base")
    if base is None or base[0] != session.get("editor_version", 0):
        return
    version, actual, predicted = base
    delta = session.get(f"editor_{version}") or {}
    if not any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows")):
        return  # nothing edited: leave the text exactly as the user typed it
    rows = [[a, p] for a, p in zip(actual, predicted, strict=True)]
    for index, change in delta.get("edited_rows", {}).items():
        for column, value in change.items():
            rows[int(index)][0 if column == "actual" else 1] = value
    for added in delta.get("added_rows", []):
        rows.append([added.get("actual"), added.get("predicted")])
    deleted = {int(i) for i in delta.get("deleted_rows", [])}
    rows = [row for index, row in enumerate(rows) if index not in deleted]
    complete = [row for row in rows if row[0] is not None and row[1] is not None]
    session["editor_incomplete"] = len(rows) - len(complete)
    for name, column in (("actual", 0), ("predicted", 1)):
        text = ", ".join(str(int(row[column])) for row in complete)
        if session.get(name) != text:
            state.set_value(name, text)


# --- random examples --------------------------------------------------------------------------

#: The random example's settings and their defaults.
RANDOM_DEFAULTS = {"random_n": 20, "random_classes": 5, "random_agreement": 0.6, "random_seed": 42}


def _keep_random_settings() -> None:
    """Keep the random form's values while its tab is closed (every run, before any widget).

    Streamlit drops the value of a widget that a run does not draw; one the script has set
    itself is kept. The widgets then take their values from here, not from ``value=``.
    """
    session = st.session_state
    for key, default in RANDOM_DEFAULTS.items():
        session[key] = session.get(key, default)


def _random_form() -> None:
    with st.form("random_form", border=False):
        left, middle, right, last = st.columns(4)
        left.number_input(tr("inputs.random_n"), min_value=2, max_value=RANDOM_MAX_ITEMS,
                          step=1, key="random_n")
        middle.number_input(tr("inputs.random_classes"), min_value=2, max_value=10,
                            step=1, key="random_classes")
        right.slider(tr("inputs.random_agreement"), min_value=0.0, max_value=1.0,
                     step=0.05, key="random_agreement", help=tr("inputs.random_agreement_help"))
        last.number_input(tr("inputs.random_seed"), min_value=0, max_value=2**31 - 1,
                          step=1, key="random_seed", help=tr("inputs.random_seed_help"))
        st.form_submit_button(tr("inputs.random_generate"), on_click=_generate)


def _generate() -> None:
    session = st.session_state
    actual, predicted = random_ratings(int(session["random_n"]), int(session["random_classes"]),
                                       float(session["random_agreement"]),
                                       int(session["random_seed"]))
    state.remember("random", n_items=num(len(actual)))
    state.set_vectors(state.vector_text(actual), state.vector_text(predicted))


# --- CSV upload -------------------------------------------------------------------------------

def _upload() -> None:
    limit = st.get_option("server.maxUploadSize")
    # A row of two one-digit ratings is 4 bytes ("3,4\n"): the cap in rows a teacher can picture.
    st.caption(tr("inputs.upload_help", limit=num(limit), count=limit * 2**20 // 4))
    left, right = st.columns(2)
    left.file_uploader(tr("inputs.upload_first"), type=["csv", "txt", "tsv"], key="upload_first",
                       on_change=_uploaded)
    right.file_uploader(tr("inputs.upload_second"), type=["csv", "txt", "tsv"],
                        key="upload_second", on_change=_uploaded)
    show_error(st.session_state.get("upload_error"))
    notice = st.session_state.get("upload_notice")
    if notice:
        st.success(tr("inputs.upload_loaded", name=escape_markdown(notice[0]), count=notice[1]))


def _uploaded() -> None:
    session = st.session_state
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
    state.remember("upload", name=escape_markdown(name))
    if len(actual) <= UPLOAD_AS_TEXT_MAX:
        state.set_vectors(state.vector_text(actual), state.vector_text(predicted))
    else:
        # Hashed in place (``.data`` is a memoryview of the array, no copy); hashlib lets other
        # sessions run meanwhile.
        hasher = hashlib.blake2b(np.ascontiguousarray(actual).data, digest_size=20)
        hasher.update(b"|")
        hasher.update(np.ascontiguousarray(predicted).data)
        digest = hasher.hexdigest()
        actual.setflags(write=False)
        predicted.setflags(write=False)
        session["upload"] = {"name": name, "actual": actual, "predicted": predicted,
                             "digest": digest}
    session["upload_notice"] = (name, len(actual))


def _clear_upload() -> None:
    st.session_state["upload"] = None
    st.session_state["upload_notice"] = None
