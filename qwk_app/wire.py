"""Widget values no browser sends, read as no value instead of ending the sender's run.

Streamlit reads the value of every widget from the websocket message before the script runs (to
call the changed widgets' ``on_change``), with its own readers. Two of them fail on values only a
forged message carries (reliability report, L9): an integer number input given NaN, an infinity
or a string (``int(nan)``), and a data editor given edits that are not the JSON object of edits it
expects (``"{"``, ``[1, 2]``, ``null``, ``{"edited_rows": [1]}``). The failure is raised before
any line of the app runs, so only a wrapper around those two readers can catch it; the
sender's run then showed Streamlit's error box, every time it sent the same state. The same holds
for a custom component's state (the charts, the checker's grids), which Streamlit parses as JSON
before any reader sees it: text that is not JSON failed there.

:func:`install` wraps them: such a value reads as *no value* (the widget keeps its default, the
editor has no edits, a component's state is empty). Values a browser sends pass through
unchanged. Every other widget the app draws either cannot fail on a forged value (text, toggles)
or is checked by the app itself (choices: :func:`qwk_app.state.checked`; the edits of a data
editor or a grid: :mod:`qwk_app.editor`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from streamlit.elements.widgets import data_editor, number_input
from streamlit.runtime.state import session_state

_INSTALLED = "_qwk_wire_guard"


def finite_number(value: object) -> bool:
    """Whether a number input's value is one a browser sends: a finite int or float.

    >>> [finite_number(v) for v in (3, 2.5, float("nan"), float("inf"), "3", True, None)]
    [True, True, False, False, False, False, False]
    """
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def editor_edits(text: object) -> bool:
    """Whether a data editor's value is the JSON object of edits a browser sends.

    >>> editor_edits('{"edited_rows": {"0": {"a": 1}}, "added_rows": [{}], "deleted_rows": [1]}')
    True
    >>> [editor_edits(v) for v in ("{", "[1, 2]", "null", '{"edited_rows": [1]}', 3)]
    [False, False, False, False, False]
    """
    if not isinstance(text, str):
        return False
    try:
        edits = json.loads(text)
    except ValueError:
        return False
    if not isinstance(edits, dict):
        return False
    edited = edits.get("edited_rows", {})
    added, deleted = edits.get("added_rows", []), edits.get("deleted_rows", [])
    return (isinstance(edited, dict) and all(_row_key(key) for key in edited)
            and all(isinstance(change, dict) for change in edited.values())
            and isinstance(added, list) and all(isinstance(row, dict) for row in added)
            and isinstance(deleted, list) and all(type(row) is int for row in deleted))


def _row_key(key: object) -> bool:
    try:
        int(str(key))
    except ValueError:
        return False
    return True


def _guard(cls: Any, valid: Callable[[object], bool]) -> None:
    """Wrap ``cls.deserialize``: a value that is not ``valid`` is read as no value (None)."""
    original = cls.deserialize
    if getattr(original, _INSTALLED, False):
        return

    def deserialize(self: Any, ui_value: Any) -> Any:
        return original(self, ui_value if ui_value is None or valid(ui_value) else None)

    setattr(deserialize, _INSTALLED, True)
    cls.deserialize = deserialize


def _guard_json() -> None:
    """Wrap the unpacking of a widget's value: a component's state that is not JSON (only a
    forged message carries one: the browser writes it with ``JSON.stringify``) is no value."""
    original = getattr(session_state, "unpack_widget_state_value")  # noqa: B009 (not exported)
    if getattr(original, _INSTALLED, False):
        return

    def unpack(widget_state: Any) -> Any:
        try:
            return original(widget_state)
        except ValueError:  # json.JSONDecodeError
            return None

    setattr(unpack, _INSTALLED, True)
    setattr(session_state, "unpack_widget_state_value", unpack)  # noqa: B010


def install() -> None:
    """Guard the three readers (idempotent: the frame calls it on import)."""
    _guard(number_input.NumberInputSerde, finite_number)
    _guard(data_editor.DataEditorSerde, editor_edits)
    _guard_json()
