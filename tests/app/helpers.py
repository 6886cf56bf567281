"""Helpers for AppTest tests: open the real app (frame + page) with URL parameters and a locale."""

from __future__ import annotations

import json
import re
from typing import Any

from streamlit.testing.v1 import AppTest

from qwk_app.frame import PAGES
from qwk_app.inputs import RATINGS_SUBMIT
from qwk_explained.present.languages import LANGUAGES
from tests import ROOT

#: Every page of the app (a listed page whose file is missing makes its tests fail).
PAGE_SLUGS = tuple(spec.slug for spec in PAGES)


def switch_order(start: str) -> list[str]:
    """The languages a language-switch test visits from ``start``: every other one, in the
    language record's order, then ``start`` again."""
    return [*(code for code in LANGUAGES if code != start), start]


def open_app(page: str | None = None, *, locale: str | None = None, run: bool = True,
             **params: Any) -> AppTest:
    """Run ``app.py`` like a browser opening ``/<page>?<params>`` would (page: ``"checker"``...)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = str(value)
    if locale is not None:
        at.context = {"locale": locale}
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    if run:
        at.run()
    return at


def open_tab(at: AppTest, slug: str) -> AppTest:
    """Open one of the walkthrough's input tabs (``examples``, ``table``, ``random``, ``upload``),
    as a click on it does (the table editor and the random form are built only while their tab is
    open). AppTest cannot click a tab, so this sets the slug the tab's callback stores."""
    at.session_state["input_tab"] = slug
    return at.run()


def assert_clean(at: AppTest) -> None:
    """No exception element (a traceback shown to the user)."""
    assert not at.exception, [e.value for e in at.exception]


def chart_html(at: AppTest, which: str) -> str:
    """The HTML the page sent for chart ``which`` (``observed``, ``histograms``...)."""
    for element in at.get("bidi_component"):
        if element.proto.id.endswith(f"-chart_{which}"):
            return json.loads(element.proto.json)["html"]
    raise AssertionError(f"no chart {which!r} on the page")


def chart_cells(at: AppTest, which: str) -> list[list[str]]:
    """The number written in each cell of matrix chart ``which``, row by row."""
    body = chart_html(at, which).split("<tbody>", 1)[1]
    return [re.findall(r'<span class="qwk-value">([^<]*)</span>', row)
            for row in body.split("</tr>") if "qwk-value" in row]


class Browser:
    """An AppTest session whose choice widgets send back what a browser sends: the *label* shown.

    Streamlit 1.67's frontend keeps the label a radio, select box or segmented control shows and
    sends that string back with every rerun until the server sets another (``set_value`` with
    ``raw_value``); it never recomputes the label from the value. After a language switch the
    label it holds is the old language's. AppTest instead sends the label of the value in the
    current options, so it never sees the labels of another language (reliability report, H1).
    ``pick`` is a click (the label of the value in the options on screen); ``run`` is any rerun
    (a language switch, a typed field, a page change).
    """

    def __init__(self, at: AppTest) -> None:
        self.at = at
        #: Widget id -> the labels the browser shows (one for a radio or select box).
        self.shown: dict[str, list[str]] = {}
        self._remember()

    def _choices(self) -> list[Any]:
        return [*self.at.radio, *self.at.selectbox, *self.at.button_group]

    def _remember(self) -> None:
        for widget in self._choices():
            proto = widget.proto
            if proto.set_value:
                values = list(getattr(proto, "raw_values", [])) if widget.type == "button_group" \
                    else ([proto.raw_value] if proto.HasField("raw_value") else [])
                self.shown[widget.id] = values
            elif widget.id not in self.shown:
                self.shown[widget.id] = list(widget.formatted_values) \
                    if widget.type == "button_group" else (
                        [widget.options[widget.index]] if widget.index is not None else [])

    def widget(self, key: str) -> Any:
        return next(w for w in self._choices() if w.key == key)

    def pick(self, key: str, value: Any) -> AppTest:
        """Click option ``value`` of the choice widget ``key``, as a browser does."""
        widget = self.widget(key)
        label = widget.format_func(value)
        self.shown[widget.id] = [label]
        return self.run()

    def send(self, key: str, label: str) -> AppTest:
        """Send any string as the widget's value (a forged websocket message)."""
        self.shown[self.widget(key).id] = [label]
        return self.run()

    def run(self) -> AppTest:
        states = self.at._tree.get_widget_states()
        for state in states.widgets:
            labels = self.shown.get(state.id)
            if labels is None:
                continue
            if state.WhichOneof("value") == "string_array_value":
                state.string_array_value.data[:] = labels
            elif labels:
                state.string_value = labels[0]
        self.at._run(states)
        self._remember()
        return self.at


def type_ratings(at: AppTest, actual: str | None = None, predicted: str | None = None) -> AppTest:
    """Type into either or both rating fields and send their form, as Enter, the typing pause or
    the Update button does in the browser (:func:`qwk_app.charts.hold_ratings`); then run."""
    for key, text in (("actual_input", actual), ("predicted_input", predicted)):
        if text is not None:
            at.text_input(key=key).input(text)
    at.button(key=RATINGS_SUBMIT).click()
    return at.run()


def enter_text(at: AppTest, kind: str, key: str, text: str) -> AppTest:
    """Type ``text`` into the text widget ``key`` (``kind``: ``"text_input"``, ``"text_area"``)
    and run, as the browser sends it: a field of a form (the rating fields) with its form's
    button, any other field alone."""
    widget = getattr(at, kind)(key=key)
    widget.input(text)
    if widget.proto.form_id:
        next(b for b in at.button if b.proto.form_id == widget.proto.form_id).click()
    return at.run()
