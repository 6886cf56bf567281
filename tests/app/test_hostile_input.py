"""Links and websocket messages nobody types by hand, each from the reliability report: they get a
message in the reader's language, or are read as no value, and the page stays whole.

- M7: ``/guided?step=<4,301 digits>`` (now ``/step_by_step``) showed Streamlit's error box
  (``int()`` refuses the digits).
- L2: a first visit with no valid result (``/?min=5&max=1``) never wrote the address bar or the
  share box (the page's ``st.stop()`` ended the frame's run too).
- L3: ``/?min=<5,000 digits>`` said "Item 1 is ..., which is not a whole number".
- L8: the theory page said "The scale would have 2,000,000,001 different ratings" as an error for
  observed-scale ratings that every other page reads, and that they use every rating of their
  range, which was false.
- L9: number inputs given NaN, an infinity or text, and data editors given edits that are no
  JSON object of edits, or that name cells and rows that do not exist, crashed the sender's run;
  the table editor truncated 1.5 to 1 and took ``true`` for 1.

Sources of truth: the locale files, the engine (``qwk_explained.walkthrough``), the address bar
(``at.query_params``).
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from qwk_app import checker, inputs, state
from qwk_explained import InputError
from qwk_explained.core.limits import MAX_ABS_RATING
from qwk_explained.core.parse import parse_vector
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.numbers import format_number
from tests.app.helpers import assert_clean, open_app, open_tab


def messages(at: AppTest) -> list[str]:
    return [element.value for kind in (at.error, at.warning, at.info) for element in kind]


# --- M7 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("step", ["9" * 4301, "1" + "0" * 5000, "0" * 5000 + "3"])
def test_a_step_of_thousands_of_digits_is_a_bad_step_not_an_error_box(step):
    at = open_app("step_by_step", lang="es", step=step)
    assert_clean(at)
    if step.lstrip("0") == "3":  # leading zeros: still step 3
        assert at.session_state["shown_step"] == 3
    else:
        assert t("es", "step_by_step.bad_step", total="7") in messages(at)
        assert at.session_state["shown_step"] == 1
    assert at.query_params["step"] == str(at.session_state["shown_step"])


# --- L2 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("page", ["walkthrough", "step_by_step", "pitfalls"])
@pytest.mark.parametrize("params", [{"min": "5", "max": "1"}, {"actual": "x", "predicted": "1"},
                                    {"min": "1", "max": "51"}])
def test_a_first_visit_with_nothing_to_show_still_writes_the_link(page, params):
    at = open_app(page, **params)
    assert_clean(at)
    assert t("en", f"{page}.nothing_yet") in messages(at)
    assert at.query_params["lang"] == "en", "the address bar holds the view"
    link = at.sidebar.code[0].value
    assert "lang=en" in link and all(f"{key}={value}" in link for key, value in params.items())


# --- L3 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(("value", "code"), [("9" * 5000, "link_too_large"),
                                             ("-" + "1" * 11, "link_too_large"),
                                             (str(MAX_ABS_RATING + 1), "link_too_large"),
                                             ("abc", "link_not_integer"),
                                             ("1.5", "link_not_integer")])
def test_a_bad_end_of_the_scale_in_the_link_names_the_parameter(lang, value, code):
    at = open_app(lang=lang, min=value)
    assert_clean(at)
    params = {"parameter": "min", "value": value if len(value) <= 20 else value[:19] + "…"}
    if code == "link_too_large":
        params["limit"] = MAX_ABS_RATING
    assert error_message(lang, InputError(code, **params)) in messages(at)
    assert at.session_state["min"] is None
    assert "min" not in at.query_params


class File:
    """What an uploader holds: a name and the file's bytes."""

    def __init__(self, data: bytes) -> None:
        self.name, self._data = "class.csv", data

    def getvalue(self) -> bytes:
        return self._data


@pytest.mark.parametrize(("data", "outcome"), [
    (b"actual,predicted\n", InputError("csv_header_only")),  # was "Item 1 is 'actual'"
    (b"1,2\n3\n4,5,6\n", InputError("csv_ragged", line=2, count=1)),  # M1: was re-paired
    (b"1,2,\n3,4,\n", ("1, 3", "2, 4")),  # a trailing delimiter: "predicted ratings missing"
    (b"1,2\n,\n3,4\n", ("1, 3", "2, 4")),  # an empty row of a spreadsheet
    (b"actual;predicted\n1,0;2,0\n3,0;4,0\n", ("1, 3", "2, 4")),  # L4: a decimal-comma export
])
def test_an_uploaded_csv_is_read_as_a_spreadsheet_wrote_it_or_its_problem_named(data, outcome):
    """The uploader reads a file as the command line does (L3, M1 and L4 on the app's side)."""
    session: dict = {"actual": "1, 2", "predicted": "2, 1", "upload": None,
                     "upload_first": File(data), "upload_second": None}
    inputs.take_upload(session)
    if isinstance(outcome, InputError):
        error = session["upload_error"]
        assert (error.code, error.params) == (outcome.code, outcome.params)
        assert (session["actual"], session["predicted"]) == ("1, 2", "2, 1"), "nothing lost"
    else:
        assert session["upload_error"] is None
        assert (session["actual"], session["predicted"]) == outcome


# --- L8 ------------------------------------------------------------------------------------------

def test_theory_reads_wide_observed_ratings_and_says_only_what_is_true():
    low, high = -1_000_000_000, 1_000_000_000
    at = open_app("theory", lang="en", actual=f"{low},{high},5", predicted=f"{high},{low},5",
                  scale="observed")
    assert_clean(at)
    assert not at.error
    shown = messages(at)
    assert t("en", "theory.closed_range_too_wide", count=high - low + 1, limit="50",
             low=format_number(low, "en"), high=format_number(high, "en")) in shown
    assert t("en", "theory.closed_observed_general") not in shown, "they leave ratings unused"


# --- L9 ------------------------------------------------------------------------------------------

def send(at: AppTest, widget_id: str, **value) -> AppTest:
    """Rerun with one widget's value replaced (``double_value=...``, ``string_value=...``)."""
    states = at._tree.get_widget_states()
    found = [w for w in states.widgets if w.id == widget_id]
    widget = found[0] if found else states.widgets.add()
    widget.id = widget_id
    for field, forged in value.items():
        setattr(widget, field, forged)
    return at._run(states)


NAN, INFINITY, TEXT = ({"double_value": float("nan")}, {"double_value": -float("inf")},
                      {"string_value": "x"})
FIELDS = [("theory", {}, "theory_n00_input"),
          ("checker", {"mode": "table"}, "checker_first_input"),
          ("walkthrough", {"min": "0", "max": "4"}, "min_input"),
          ("step_by_step", {"step": "7"}, "whatif_item")]


@pytest.mark.parametrize(("value", "page", "params", "key"), [
    *((value, *where) for value in (NAN, TEXT) for where in FIELDS), (INFINITY, *FIELDS[0])])
def test_a_number_field_given_no_number_keeps_the_page(value, page, params, key):
    at = open_app(page, lang="en", **params)
    send(at, at.number_input(key=key).id, **value)
    assert_clean(at)
    send(at, at.number_input(key=key).id, **value)  # the browser would send it again
    assert_clean(at)
    assert at.number_input(key=key).value is not None


EDITS = ['{"edited_rows": {"0": {"actual": "x"}}}', '{"edited_rows": {"0": {"actual": [1]}}}',
         '{"deleted_rows": [-1, 99, "a"]}', '{"deleted_rows": [99]}', "{", "[1, 2]", "null",
         '{"edited_rows": [1]}', '{"added_rows": [{"actual": "x", "predicted": 1}]}',
         '{"edited_rows": {"0": {"actual": 1.5}}}', '{"edited_rows": {"0": {"actual": true}}}',
         '{"edited_rows": {"x": {"actual": 1}}}']


@pytest.mark.parametrize("edits", EDITS)
def test_the_table_editor_given_forged_edits_keeps_the_page_and_never_invents_a_rating(edits):
    at = open_tab(open_app(lang="en", actual="4,4,3", predicted="0,2,1"), "table")
    send(at, at.dataframe[0].proto.id, string_value=edits)
    assert_clean(at)
    ratings = parse_vector(at.session_state["actual"]).tolist()
    # Unchanged, or the forged row left out as incomplete: 1.5 is not truncated to 1, true is
    # not 1, "x" is no rating.
    assert ratings in ([4, 4, 3], [4, 3]), ratings


@pytest.mark.parametrize("edits", ['{"deleted_rows": [99]}', "{", '{"edited_rows": [1]}',
                                   '{"edited_rows": {"0": {"0": [1, 2]}}}', "null", "[1, 2]",
                                   '{"edited_rows": {"99": {"0": "1"}, "x": {"0": "1"}}}',
                                   '{"edited_rows": {"0": {"9": "1", "0": {"a": 1}}}}',
                                   '{"edited_rows": {"0": {"0": 1e308}}, "added_rows": [{}]}'])
def test_a_checker_grid_given_forged_edits_keeps_the_page(edits):
    """The grid of fields reports its edits in its state, as JSON from the browser: rows and
    columns it does not have, values that are not text and broken JSON are left out or kept as
    plain text, never a traceback, and the table stays."""
    at = open_app("checker", lang="en", table="0,4,1;0,8,0;0,1,5")
    grid = checker.editor("observed")
    key = grid.key(grid.version(at.session_state))
    fields = [element for element in at.get("bidi_component")
              if element.proto.id.endswith(f"-{key}")]
    send(at, fields[0].proto.id, json_value=edits)
    assert_clean(at)
    send(at, fields[0].proto.id, json_value=edits)  # the browser would send it again
    assert_clean(at)
    assert at.text_area(key="checker_table_input").value == "0,4,1;0,8,0;0,1,5"
    json.loads(json.dumps(at.session_state[checker.CELLS]))  # the cells are plain text still


def test_the_rating_ends_read_only_whole_numbers():
    assert [state.rating_end(v) for v in (3, -2, 2.0, True, "3", None, 10**10)] == [
        3, -2, None, None, None, None, None]


@pytest.mark.parametrize("state", ["{", "[1, 2]", "null", '{"cell": {"a": 1}}'])
def test_a_chart_given_a_forged_state_keeps_the_page(state):
    """Streamlit parses a custom component's state as JSON before the app runs; text that is
    not JSON (only a forged message carries it) is read as no state (``qwk_app.wire``)."""
    at = open_app("walkthrough", lang="en", actual="4,4,3", predicted="0,2,1")
    chart = next(element for element in at.get("bidi_component")
                 if element.proto.id.endswith("-chart_observed"))
    send(at, chart.proto.id, json_value=state)
    assert_clean(at)
    send(at, chart.proto.id, json_value=state)
    assert_clean(at)
    assert at.session_state["actual"] == "4,4,3"
