"""A data editor over state kept elsewhere: its base, its version, and replaying its edits.

Two tables are edited this way: the walkthrough's table of the two rating vectors (whose state is
the typed text), in a data editor, and each grid of the checker (whose state is the typed cells,
by rating), in text fields that report as a data editor does (:mod:`qwk_app.answer_grid`). A data
editor reports its edits relative to the rows it was drawn with, its *base*, as
``edited_rows``/``added_rows``/``deleted_rows`` in its widget state; it never reports the rows it
shows. So the base is kept, with a *version* that names the widget (``<name>_<version>``):

- at the start of a run, :meth:`Editor.replay` applies the edits to the base and the caller writes
  the rows into its state; the editor reports every edit since it was drawn, so replaying on every
  run is idempotent;
- :meth:`Editor.rows` gives the rows to draw: the base's while the editor holds edits, else the
  rows read from the state now, under a new version (a new widget) when they differ from the base,
  since an editor drawn again under its key would keep showing its old rows;
- :meth:`Editor.redraw` is called when code changes the state (an example, a paste, undo, a new
  scale): the next draw starts from a new base.

Streamlit drops a widget's state when a run does not draw it (another tab or page is open); its
edits are in the caller's state by then, so the base is read again from there.

Everything works on a session mapping (``st.session_state``, or a dict in a unit test).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # state keeps the vectors' editor, so it imports this module
    from .state import Session

#: One row of a table, its values in the order of the editor's columns.
Row = list[Any]


@dataclass(frozen=True)
class Editor:
    """The session keys of one data editor: ``<name>_version``, ``<name>_base`` (the version and
    rows it was drawn with) and the widget ``<name>_<version>``."""

    name: str

    def key(self, version: int) -> str:
        """The widget key of the editor drawn at ``version``."""
        return f"{self.name}_{version}"

    def version(self, session: Session) -> int:
        """The version the next draw uses (0 until the first :meth:`redraw`)."""
        version = session.get(f"{self.name}_version", 0)
        return version if isinstance(version, int) else 0

    def redraw(self, session: Session) -> None:
        """The state changed from code: the next draw starts from a new base, in a new widget."""
        session[f"{self.name}_version"] = self.version(session) + 1

    def rows(self, session: Session, read: Callable[[], list[Row]]) -> tuple[str, list[Row]]:
        """The widget key and the rows to draw it with.

        ``read`` gives the rows of the state now; it is called only when the base must be made
        again (its exceptions pass through: the caller says why there is no table).
        """
        version = self.version(session)
        base = session.get(f"{self.name}_base")
        if base is None or base[0] != version or self.key(version) not in session:
            rows = read()
            if base is not None and base[0] == version and base[1] != rows:
                version += 1
                session[f"{self.name}_version"] = version
            base = (version, rows)
            session[f"{self.name}_base"] = base
        return self.key(base[0]), base[1]

    def guarded(self, session: Session, draw: Callable[[], object]) -> None:
        """Call ``draw``, which draws this editor from :meth:`rows`. Streamlit applies the
        editor's edits to its rows while drawing it, and fails on edits no browser sends (a
        deleted row that does not exist): the editor is then drawn afresh from the state, under
        a new key, without them."""
        try:
            draw()
        except (IndexError, KeyError, TypeError, ValueError):
            self.redraw(session)
            draw()

    def replay(self, session: Session, columns: Sequence[str]) -> list[Row] | None:
        """The base's rows with the editor's edits, or ``None`` when there is nothing to replay
        (nothing edited, no editor drawn, or the state changed since it was drawn).

        ``columns`` name the values of a row in order. The edits come from the browser: a row
        that is not in the base and a column that is not in ``columns`` are ignored.
        """
        base = session.get(f"{self.name}_base")
        if base is None or base[0] != self.version(session):
            return None
        delta = session.get(self.key(base[0]))
        if not isinstance(delta, Mapping):
            return None
        # The checker's grids send their state as JSON the browser wrote, which nothing parsed
        # into shape before: each part of the wrong type counts as no edits.
        edited = _of_type(delta.get("edited_rows"), Mapping, {})
        added = _of_type(delta.get("added_rows"), list, [])
        deleted = _of_type(delta.get("deleted_rows"), list, [])
        if not (edited or added or deleted):
            return None
        rows = [list(row) for row in base[1]]
        position = {column: k for k, column in enumerate(columns)}
        for index, change in edited.items():
            row = _row(index, len(rows))
            if row is None or not isinstance(change, Mapping):
                continue
            for column, value in change.items():
                if str(column) in position:
                    rows[row][position[str(column)]] = value
        rows += [[new.get(column) for column in columns] for new in added
                 if isinstance(new, Mapping)]
        gone = {_row(index, len(rows)) for index in deleted}
        return [row for k, row in enumerate(rows) if k not in gone]


def _of_type(value: Any, kind: type, empty: Any) -> Any:
    """``value`` if it is a ``kind``, else ``empty``."""
    return value if isinstance(value, kind) else empty


def _row(index: Any, count: int) -> int | None:
    """A row index as the editor reports it (an int, or its text), if it names one of ``count``
    rows."""
    try:
        row = int(index)
    except (TypeError, ValueError):
        return None
    return row if 0 <= row < count else None
