"""Values that come from outside the app's widgets: URL parameters and plotly click events.

A shared link carries the step (``step=3``) and the followed cell (``cell=4,0``, rating labels); a
click on a heatmap sends the clicked point. Neither is trusted: each is read back into positions
on the current scale, or ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qwk_explained import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present.catalogue import STEPS


def parse_step(value: Any, total: int = len(STEPS)) -> int | None:
    """A 1-based step number from text (``"3"``), or ``None`` when it is not 1..total.

    >>> parse_step("3"), parse_step(" 7 "), parse_step("0"), parse_step("99"), parse_step("x")
    (3, 7, None, None, None)
    """
    text = str(value).strip()
    if not text.isdigit() or not text.isascii():
        return None
    step = int(text)
    return step if 1 <= step <= total else None


def _label_position(value: Any, labels: Sequence[int] | NDArray[np.int64]) -> int | None:
    try:
        label = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    positions = [k for k, x in enumerate(labels) if int(x) == label]
    return positions[0] if positions else None


def parse_cell(value: Any, labels: Sequence[int] | NDArray[np.int64]) -> Cell | None:
    """Positions (i, j) of a cell written with rating labels (``"4,0"``); ``None`` if invalid.

    >>> parse_cell("4,0", [0, 1, 2, 3, 4]), parse_cell("5,1", [1, 2, 3]), parse_cell("a", [1])
    ((4, 0), None, None)
    """
    parts = str(value).split(",")
    if len(parts) != 2:
        return None
    row, col = (_label_position(part, labels) for part in parts)
    if row is None or col is None:
        return None
    return row, col


def cell_text(result: Walkthrough, i: int, j: int) -> str:
    """The cell as ``"4,0"`` (rating labels), the inverse of :func:`parse_cell`."""
    return f"{int(result.labels[i])},{int(result.labels[j])}"


def cell_from_point(point: Mapping[str, Any],
                    labels: Sequence[int] | NDArray[np.int64]) -> Cell | None:
    """The cell (i, j) of a clicked heatmap point: ``x`` is the predicted label, ``y`` the actual.

    Falls back to ``customdata`` holding the positions ``[i, j]``.

    >>> cell_from_point({"x": "0", "y": "4"}, [0, 1, 2, 3, 4])
    (4, 0)
    """
    row = _label_position(point.get("y"), labels)
    col = _label_position(point.get("x"), labels)
    if row is not None and col is not None:
        return row, col
    custom = point.get("customdata")
    if isinstance(custom, Sequence) and not isinstance(custom, str) and len(custom) == 2:
        try:
            i, j = int(custom[0]), int(custom[1])
        except (TypeError, ValueError):
            return None
        if 0 <= i < len(labels) and 0 <= j < len(labels):
            return i, j
    return None
