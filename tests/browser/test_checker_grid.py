"""The checker's grids in a real browser: one tap to type into a cell on a phone, the keys of a
spreadsheet on a desktop, and each verdict back in the cell it grades.

Streamlit's data editor (a canvas) selected a cell on the first tap and opened it on the second,
and its toolbar covered the last row and the help text on touch screens (review: student on a
phone, 2.7 and 2.8). The grids are now text fields (``qwk_app/answer_grid.py``).

Sources of truth: the engine's O of the data (``walkthrough`` / ``walkthrough_from_table``), the
locale files for every name and message, ``present.feedback.MARKS`` for the marks.
"""

from __future__ import annotations

import pytest

from qwk_explained import walkthrough, walkthrough_from_table
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from tests.browser.helpers import PHONE, SEED_ACTUAL, SEED_PREDICTED, App, expect

pytestmark = pytest.mark.browser


def cell(app: App, lang: str, grid: str, row: int, column: int):
    """The field of one cell, found by the name a screen reader gives it."""
    name = t(lang, "checker.cell_label_matrix", grid=t(lang, f"checker.grid.{grid}"),
             row=str(row), column=str(column))
    return app.textbox(name)


def uncovered(app: App, selector: str) -> tuple[int, list[str]]:
    """How many elements matching ``selector`` are whole on the screen, and those of them whose
    centre is under something else (a toolbar, an overlay), by their name or text."""
    return tuple(app.page.evaluate(
        """selector => {
            const shown = [...document.querySelectorAll(selector)].filter(e => {
                const box = e.getBoundingClientRect();
                return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
                    && box.right <= innerWidth && box.width > 0;
            });
            return [shown.length, shown.filter(e => {
                const box = e.getBoundingClientRect();
                const top = document.elementFromPoint(box.x + box.width / 2,
                                                      box.y + box.height / 2);
                return !(top === e || e.contains(top));
            }).map(e => e.getAttribute('aria-label') || e.textContent.slice(0, 40))];
        }""", selector))


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_on_a_phone_one_tap_on_a_cell_types_into_it_and_the_verdict_comes_back(new_app,
                                                                               app_url: str,
                                                                               lang: str):
    """Phone (390 x 844, touch): one tap on a cell of O focuses its field (the keyboard opens,
    for decimals), the digits typed are in the cell, and leaving the field grades it in place:
    the right count gets ✓, a wrong one ✗ and a message naming the cell. Nothing covers a cell
    or the help text above the grid, and the grids fit the screen's width."""
    expected = walkthrough(SEED_ACTUAL, SEED_PREDICTED).observed
    app = new_app(app_url, PHONE, device_scale_factor=3, is_mobile=True, has_touch=True)
    app.open(f"/checker?lang={lang}&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    right, wrong = cell(app, lang, "observed", 4, 0), cell(app, lang, "observed", 4, 1)
    right.scroll_into_view_if_needed()
    help_text = app.page.get_by_text(t(lang, "checker.grid_help_matrix"), exact=True).first
    assert help_text.is_visible()
    box = right.bounding_box()
    assert box is not None and box["height"] >= 44, box  # a finger's target
    app.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(right).to_be_focused()
    assert right.get_attribute("inputmode") == "decimal"
    app.page.keyboard.type(str(int(expected[4, 0])))
    box = wrong.bounding_box()
    assert box is not None
    app.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(wrong).to_be_focused()  # the second tap typed into the next cell, at once
    app.page.keyboard.type(str(int(expected[4, 1]) + 3))
    app.page.keyboard.press("Enter")
    expect(right).to_have_attribute("data-mark", "✓")
    expect(wrong).to_have_attribute("data-mark", "✗")
    app.settle()
    assert (right.input_value(), wrong.input_value()) == (
        str(int(expected[4, 0])), str(int(expected[4, 1]) + 3))
    errors = app.page.locator('[data-testid="stAlertContentError"]')
    assert [text for text in errors.all_inner_texts() if "O[4, 1]" in text], (
        errors.all_inner_texts())
    assert app.page.locator('[data-testid="stElementToolbar"]:visible').count() == 0
    right.scroll_into_view_if_needed()
    shown, covered = uncovered(app, ".qwk-cells input")
    assert shown >= 25 and covered == [], (shown, covered)  # all of O's 5 x 5 cells
    # Five ratings fit a phone's width: no grid scrolls sideways.
    assert app.page.evaluate("""() => [...document.querySelectorAll('.qwk-cells')]
        .every(t => t.parentElement.scrollWidth <= t.parentElement.clientWidth)""")
    help_text.scroll_into_view_if_needed()
    shown, covered = uncovered(app, '[data-testid="stCaptionContainer"]')
    assert shown and covered == [], (shown, covered)
    app.assert_clean()


def test_on_a_desktop_tab_enter_and_the_arrows_move_between_cells(app: App):
    """Desktop keyboard: Tab goes along the row, Enter down, the arrows to the next field (right
    once the caret is at the end); the five counts typed this way are all graded right."""
    table = walkthrough_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
    app.open("/checker?lang=en&table=0,4,1;0,8,0;0,1,5")
    counts = table.observed.astype(int)
    start = cell(app, "en", "observed", 0, 0)
    start.click()
    keyboard = app.page.keyboard
    keyboard.type(str(counts[0, 0]))
    keyboard.press("Tab")  # (0, 1)
    keyboard.type(str(counts[0, 1]))
    keyboard.press("Enter")  # (1, 1)
    keyboard.type(str(counts[1, 1]))
    keyboard.press("ArrowRight")  # the caret is at the end: (1, 2)
    keyboard.type(str(counts[1, 2]))
    keyboard.press("ArrowUp")  # (0, 2)
    expect(cell(app, "en", "observed", 0, 2)).to_be_focused()
    keyboard.type(str(counts[0, 2]))
    keyboard.press("Enter")
    typed = [(0, 0), (0, 1), (1, 1), (1, 2), (0, 2)]
    for row, column in typed:
        field = cell(app, "en", "observed", row, column)
        expect(field).to_have_attribute("data-mark", "✓")
        assert field.input_value() == str(counts[row, column])
    expect(app.page.get_by_text(t("en", "checker.summary_all_right", count=len(typed)))
           ).to_be_visible()
    app.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_field_has_its_name_in_the_readers_language(app: App, lang: str):
    """A screen reader hears each field's grid, row and column in the reader's language (the
    histograms' rows by their rater)."""
    app.open(f"/checker?lang={lang}&table=0,4,1;0,8,0;0,1,5")
    expect(cell(app, lang, "expected", 2, 1)).to_have_count(1)
    name = t(lang, "checker.cell_label_histograms", grid=t(lang, "checker.grid.histograms"),
             row=t(lang, "steps.predicted_name"), column="2")
    expect(app.textbox(name)).to_have_count(1)
    assert app.page.locator(".qwk-cells input:not([aria-label])").count() == 0
