"""Values from outside the widgets (``qwk_app.links``): the step and cell of a shared link, and the
cell a click on a chart reports.

Sources of truth: the rating labels of the result (a cell is written with labels, read back as
positions), the step catalogue (steps 1 to 7), and the charts' click trigger (``"i,j"``, positions
on the scale). Anything else reads as ``None``.
"""

from __future__ import annotations

import pytest

from qwk_app import links
from qwk_explained import walkthrough


@pytest.mark.parametrize("value, expected", [
    ("1", 1), ("7", 7), (" 3 ", 3), ("0", None), ("8", None), ("99", None), ("-1", None),
    ("abc", None), ("3.5", None), ("", None), ("٣", None),
])
def test_parse_step_accepts_only_1_to_7(value, expected):
    assert links.parse_step(value) == expected


def test_cell_text_and_parse_cell_round_trip_with_labels():
    result = walkthrough([5, 5, 3], [1, 2, 1])  # labels 1..5: positions are not the labels
    assert links.cell_text(result, 4, 0) == "5,1"
    assert links.parse_cell("5,1", result.labels) == (4, 0)
    assert links.parse_cell(" 5 , 1 ", result.labels) == (4, 0)
    assert links.parse_cell("5;1", result.labels) == (4, 0)  # read as a submission's cell is read
    for bad in ("5", "5,1,2", "x,1", "6,1", "", "5,", "99999999999,1"):
        assert links.parse_cell(bad, result.labels) is None


def test_a_clicked_cell_is_read_as_positions_on_the_scale():
    assert links.cell_from_trigger("4,0", 5) == (4, 0)
    assert links.cell_from_trigger(" 0 , 2 ", 3) == (0, 2)
    for bad in ("5,0", "4", "4,0,1", "-1,0", "x,1", "", None):
        assert links.cell_from_trigger(bad, 5) is None
