"""Live, linked and fit for a classroom, in a real browser: what a learner and a teacher do.

Typing updates kappa without Enter, keeps the caret and every keystroke; an item added to both
lists runs the page once; a half-typed list waits in the browser and is not an error; a click on
any cell follows it through every chart; an item moves from one cell of O to another; an example
can be undone; on a phone kappa is on the first screen and every formula fits; the share box's QR
code holds its link and the copy button copies it.

Sources of truth: the engine (``qwk_explained.walkthrough``, ``teaching.cells.move_item``)
formatted by ``present.numbers``; the locale files for words; ZXing decoding the QR code's
pixels; the address bar for the followed cell.
"""

from __future__ import annotations

import io

import pytest

from qwk_app.inputs import HALF_PAIR_PAUSE_MS, RATINGS_SUBMIT
from qwk_explained import parse_vector, walkthrough
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.cells import move_item
from qwk_explained.teaching.examples import random_ratings
from tests.browser.helpers import PHONE, SCREENSHOTS, SEED_ACTUAL, SEED_PREDICTED, App, expect

pytestmark = pytest.mark.browser

SEED_LINK = f"/?actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}"


def kappa_text(actual: str, predicted: str, lang: str) -> str:
    return format_number(walkthrough(actual, predicted).kappa, lang)


def caret(box) -> int:
    return int(box.evaluate("e => e.selectionStart"))


def record_sends(app: App) -> None:
    """From now on, record in the browser's own clock when the rating form is sent (a click on
    its button) and when Enter is pressed or a field loses the focus. A send is judged by when
    the browser made it, not by when the server started its run, which a loaded machine delays."""
    app.page.evaluate(
        """(button) => {
             window.qwkSends = []; window.qwkAt = {};
             document.addEventListener("click", (e) => {
               if (e.target.closest && e.target.closest(`.st-key-${button}`))
                 window.qwkSends.push(performance.now()); }, true);
             document.addEventListener("keydown", (e) => {
               if (e.key === "Enter") window.qwkAt.enter = performance.now(); }, true);
             document.addEventListener("focusout", () => {
               window.qwkAt.focusout = performance.now(); }, true); }""", RATINGS_SUBMIT)


def sends(app: App) -> int:
    """How often the rating form was sent since :func:`record_sends`: each send is one run of
    the page (nothing else on the fields runs it). Counted where it happens, in the browser:
    Streamlit's own "running" mark can be skipped when a quick run starts and ends within one
    of its updates, so counting it missed runs on a loaded machine."""
    return len(app.page.evaluate("() => window.qwkSends"))


def sends_after(app: App, event: str) -> list[float]:
    """The form's sends so far, in ms after the last ``event`` ("enter" or "focusout")."""
    return [float(ms) for ms in app.page.evaluate(
        "(event) => window.qwkSends.map((at) => at - window.qwkAt[event])", event)]


def type_at_end(app: App, label: str, text: str, *, enter: bool = True) -> None:
    """Click into a field, go to its end and type ``text`` key by key (then Enter)."""
    box = app.textbox(label)
    box.click()
    box.press("End")
    box.press_sequentially(text, delay=30)
    if enter:
        box.press("Enter")


def cut_formulas(app: App) -> list[str]:
    """Formulas whose box hides part of them: sideways (a scroll), or the top of a fraction."""
    return app.each_in_view(
        ".katex-display",
        """d => d.scrollWidth > d.clientWidth + 1 || d.scrollHeight > d.clientHeight + 1
             ? d.textContent.slice(0, 60) : null""")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typing_without_enter_updates_kappa(app: App, lang: str):
    """User flow: type a new last rating, press nothing -> kappa follows a moment later."""
    app.open(f"{SEED_LINK}&lang={lang}")
    box = app.textbox(t(lang, "inputs.actual_label"))
    box.click()
    box.press("End")
    box.press("Backspace")
    box.press_sequentially("3", delay=40)
    typed = SEED_ACTUAL[:-1] + "3"
    expect(app.metric(t(lang, "common.kappa"))).to_have_text(
        kappa_text(typed, SEED_PREDICTED, lang))
    app.wait_for_query(actual=typed)
    expect(box).to_have_value(typed)
    assert caret(box) == len(typed)  # the caret stayed at the end, where the learner typed
    app.assert_clean()


def test_keystrokes_during_a_rerun_are_kept_in_order_and_the_caret_stays(app: App):
    """Regression: a value written back by the server replaced the field while the page
    reran, dropping what was typed meanwhile and moving the caret to the end."""
    app.open(f"{SEED_LINK}&lang=en")
    box = app.textbox(t("en", "inputs.actual_label"))
    box.click()
    box.evaluate("e => e.setSelectionRange(2, 2)")  # after "4,"
    box.press_sequentially("1,", delay=30)
    # One more rating than the predictions: the form is sent after the longer pause, and the
    # page starts rerunning.
    app.page.wait_for_timeout(HALF_PAIR_PAUSE_MS + 50)
    box.press_sequentially("2,", delay=30)  # typed while it reruns
    typed = "4,1,2," + SEED_ACTUAL[2:]
    expect(box).to_have_value(typed)
    app.settle()
    expect(box).to_have_value(typed)
    assert caret(box) == 6  # right after what was typed, not at the end
    app.wait_for_query(actual=typed.replace(",,", ","))
    app.assert_clean()


def test_half_typed_list_is_not_an_error(app: App):
    """User flow: type "4, 4, " in a new list -> no error box, a calm count, the old kappa."""
    app.open(f"{SEED_LINK}&lang=en")
    before = kappa_text(SEED_ACTUAL, SEED_PREDICTED, "en")
    box = app.textbox(t("en", "inputs.actual_label"))
    box.fill("")
    box.press_sequentially("4, 4, -", delay=30)
    expect(app.page.get_by_text(t("en", "inputs.typing_sign"), exact=True)).to_be_visible()
    app.settle()
    assert app.page.locator('[data-testid="stAlertContentError"]').count() == 0
    expect(app.metric(t("en", "common.kappa"))).to_have_text(before)
    expect(box).to_have_value("4, 4, -")
    app.assert_clean()


def test_a_click_on_a_cell_follows_it_in_every_chart_and_the_link(app: App):
    """User flow: click cell (4, 0) of E -> outlined in every matrix (the seven steps' and step
    6's two cost maps), both bars marked, the selectors and ?cell=4,0 follow, and step 1 lists
    the items of that cell."""
    app.open(f"{SEED_LINK}&lang=en")
    app.page.locator(".qwk-matrix").nth(2).locator('[data-cell="4,0"]').click()
    app.wait_for_query(cell="4,0")
    app.settle()
    followed = app.page.evaluate(
        "() => [...document.querySelectorAll('.qwk-followed')]"
        ".map(e => e.dataset.cell || e.dataset.bar)")
    matrices = app.page.locator(".qwk-matrix").count()
    assert matrices == 9
    assert sorted(followed) == sorted(["4,0"] * matrices + ["a:4", "p:0"])
    items = ", ".join(str(k) for k in (1, 4, 5, 6))  # actual 4, predicted 0 in the seed
    expect(app.page.get_by_text(t("en", "step_by_step.cell_items", count=4, items=items))
           ).to_be_visible()
    app.assert_clean()


def test_a_click_on_o_in_the_step_by_step_page_follows_that_cell(app: App):
    """User flow on the step-by-step page, step 1, in Turkish: click cell (4, 0) of O -> it is
    outlined, ?cell=4,0 follows, and the cell's items are listed."""
    app.open(f"/step_by_step?lang=tr&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}&step=1&cell=1,1")
    app.page.locator(".qwk-matrix").first.locator('[data-cell="4,0"]').click()
    app.wait_for_query(cell="4,0")
    app.settle()
    followed = app.page.evaluate(
        "() => [...document.querySelectorAll('.qwk-followed')].map(e => e.dataset.cell)")
    assert followed == ["4,0"]
    items = t("tr", "step_by_step.item_separator").join(str(k) for k in (1, 4, 5, 6))
    # Listed in step 1 and again in the followed cell's own section below it.
    expect(app.page.get_by_text(t("tr", "step_by_step.cell_items", count=4, items=items))
           ).to_have_count(2)
    app.assert_clean()


def test_hovering_a_cell_lights_it_up_everywhere_and_shows_its_arithmetic(app: App):
    """Hover E's cell (4, 0): the same cell in every matrix and its two bars light up, and the
    cell shows 5 · 4 / 10 = 2 (h^a_4 = 5, h^p_0 = 4, n = 10). A cell focused from the keyboard
    does the same."""
    app.open(f"{SEED_LINK}&lang=en")
    cell = app.page.locator(".qwk-matrix").nth(2).locator('[data-cell="4,0"]')
    cell.hover()
    matrices = app.page.locator(".qwk-matrix").count()
    expect(app.page.locator(".qwk-matrix .qwk-linked")).to_have_count(matrices)
    # and the two bars, and step 6's row of fixes for that cell where it has one
    assert app.page.locator(".qwk-linked").count() >= matrices + 2
    tip = cell.locator(".qwk-tip")
    expect(tip).to_be_visible()
    assert "5 · 4 / 10 = 2" in tip.inner_text()
    assert not cut_formulas(app)  # on a desktop too, no formula is cut
    # A keyboard reader gets the same: the explanation is drawn when the cell takes the focus.
    other = app.page.locator(".qwk-matrix").nth(2).locator('[data-cell="3,1"]')
    expect(other.locator(".qwk-tip")).to_have_count(0)
    other.focus()
    expect(other.locator(".qwk-tip")).to_contain_text("1 · 4 / 10 = 0.4")
    expect(app.page.locator('.qwk-matrix .qwk-linked[data-cell="3,1"]')).to_have_count(matrices)


def test_moving_an_item_changes_both_lists_every_step_and_kappa(app: App):
    """User flow: with cell (4, 0) followed, switch clicks to moving, click cell (4, 1) of O ->
    one item moves; the lists and kappa are the engine's for the moved item; undo restores."""
    app.open(f"{SEED_LINK}&lang=en&cell=4,0")
    app.page.get_by_text(t("en", "move.click_move"), exact=True).click()
    app.settle()
    app.page.locator(".qwk-matrix").first.locator('[data-cell="4,1"]').click()
    moved = move_item(walkthrough(SEED_ACTUAL, SEED_PREDICTED), (4, 0), (4, 1))
    actual, predicted = (",".join(map(str, v.tolist())) for v in (moved.actual, moved.predicted))
    app.wait_for_query(actual=actual, predicted=predicted, cell="4,1")
    expect(app.metric(t("en", "common.kappa"))).to_have_text(kappa_text(actual, predicted, "en"))
    app.settle()
    assert app.matrix(t("en", "steps.observed_chart"))[4][:2] == ["3", "1"]
    app.page.get_by_role("button", name=t("en", "undo.button")).first.click()
    app.wait_for_query(actual=SEED_ACTUAL, predicted=SEED_PREDICTED)
    app.assert_clean()


def test_an_example_can_be_undone(app: App):
    """Regression: an example button wiped typed ratings with no way back."""
    app.open(f"{SEED_LINK}&lang=en")
    app.page.get_by_text(t("en", "presets.perfect"), exact=True).click()
    app.settle()
    expect(app.textbox(t("en", "inputs.actual_label"))).not_to_have_value(SEED_ACTUAL)
    app.page.get_by_role("button", name=t("en", "undo.button")).first.click()
    expect(app.textbox(t("en", "inputs.actual_label"))).to_have_value(SEED_ACTUAL)
    expect(app.textbox(t("en", "inputs.predicted_label"))).to_have_value(SEED_PREDICTED)
    app.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_phone_shows_kappa_first_and_whole_formulas(new_app, app_url: str, lang: str):
    """A phone (390 x 844): kappa is on the first screen, no formula runs off its box or is
    clipped at the top, and a 10-rating scale's numbers never overflow their matrix."""
    app = new_app(app_url, PHONE)
    actual = "0,1,2,3,4,5,6,7,8,9,9,8,7,6,5,4,3,2,1,0,3,5"
    predicted = "0,2,2,3,5,5,6,8,8,9,8,8,6,6,4,4,2,2,1,1,3,4"
    app.open(f"/?lang={lang}&actual={actual}&predicted={predicted}", formulas=True)
    kappa = app.metric(t(lang, "common.kappa"))
    expect(kappa).to_have_text(kappa_text(actual, predicted, lang))
    box = kappa.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    overflowing = cut_formulas(app)
    assert not overflowing, overflowing
    crowded = app.page.evaluate(
        """() => [...document.querySelectorAll('.qwk-matrix:not(.qwk-compact) .qwk-scroll')]
             .filter(s => s.scrollWidth > s.clientWidth + 1).length""")
    assert crowded == 0
    SCREENSHOTS.mkdir(exist_ok=True)
    app.page.screenshot(path=str(SCREENSHOTS / f"live-phone-{lang}.png"))
    app.assert_clean()


def test_the_qr_code_holds_the_share_link_and_copy_copies_it(new_app, app_url: str):
    """The share box: ZXing reads the QR code's pixels back to exactly the link shown (with the
    followed cell), and the copy button puts that link on the clipboard."""
    import zxingcpp  # pinned in requirements-dev.txt: a missing reader fails, never skips
    from PIL import Image

    app = new_app(app_url)
    app.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    app.open(f"{SEED_LINK}&lang=en&cell=4,0")
    sidebar = app.page.locator('[data-testid="stSidebar"]')
    link = sidebar.locator('[data-testid="stCode"] code').inner_text().strip()
    assert "cell=4%2C0" in link or "cell=4,0" in link
    image = sidebar.locator('[data-testid="stImage"] img').first
    image.scroll_into_view_if_needed()
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
    assert [code.text for code in decoded] == [link]
    sidebar.get_by_role("button", name=t("en", "share.copy"), exact=True).click()
    expect(sidebar.get_by_text(t("en", "share.copied"), exact=True)).to_be_visible()
    assert app.page.evaluate("() => navigator.clipboard.readText()") == link
    app.assert_clean()


def test_the_large_qr_code_holds_the_short_link_that_opens_the_same_view(browser, app_url: str):
    """Projector, presenter mode, 200 random ratings and linear weights: ZXing reads the large QR
    code back to the short link (``v=``, no ``actual=``); a phone opening that link gets the same
    ratings (in its address bar, as typed), settings and kappa (source of truth: the engine)."""
    import zxingcpp  # pinned in requirements-dev.txt: a missing reader fails, never skips
    from PIL import Image

    actual, predicted = (",".join(map(str, v.tolist()))
                         for v in random_ratings(200, 5, 0.6, seed=200))
    view = f"lang=es&weights=linear&scale=observed&actual={actual}&predicted={predicted}"
    projector = browser.new_context(viewport=PROJECTOR, device_scale_factor=1.5, locale="es-ES")
    phone = browser.new_context(viewport=PHONE, device_scale_factor=3, is_mobile=True,
                                has_touch=True, locale="es-ES")
    try:
        teacher = App(projector.new_page(), app_url)
        teacher.open(f"/?{view}&present=1")
        teacher.page.get_by_role("button", name=t("es", "share.qr_large")).click()
        image = teacher.page.get_by_role("dialog").locator("img").first
        teacher.page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                       arg=image.element_handle())
        (code,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
        link = code.text
        assert "v=1" in link and "actual=" not in link and len(link) < len(view) / 2
        assert link.startswith(app_url)
        student = App(phone.new_page(), app_url)
        student.open(link.removeprefix(app_url))
        query = student.wait_for_query(actual=actual, predicted=predicted)
        assert (query["lang"], query["weights"], query["scale"]) == ("es", "linear", "observed")
        kappa = walkthrough(actual, predicted, weights="linear", scale="observed").kappa
        expect(student.metric(t("es", "common.kappa"))).to_have_text(format_number(kappa, "es"))
        student.assert_clean()
    finally:
        projector.close()
        phone.close()


def test_one_chart_goes_full_screen_and_presenter_mode_shows_one_step(app: App):
    """Projector: a chart's full-screen button shows that chart alone, filling the screen;
    presenter mode (the sidebar switch) folds the sidebar and shows one step with previous and
    next."""
    app.open(f"{SEED_LINK}&lang=en")
    chart = app.page.locator(".qwk-matrix").nth(2)
    chart.locator(".qwk-full").click()
    app.page.wait_for_function(
        "() => document.fullscreenElement && document.fullscreenElement.matches('.qwk-chart')"
        " && document.fullscreenElement.dataset.qwkFilled")
    # The matrix fills the screen (the review's filled a quarter of it), and is whole on it.
    grid = chart.locator(".qwk-grid").bounding_box()
    screen = app.page.viewport_size
    assert grid is not None and screen is not None
    assert (grid["width"] >= 0.6 * screen["width"]
            or grid["height"] >= 0.6 * screen["height"]), (grid, screen)
    assert grid["x"] >= 0 and grid["x"] + grid["width"] <= screen["width"], grid
    assert grid["y"] >= 0 and grid["y"] + grid["height"] <= screen["height"], grid
    app.page.evaluate("() => document.exitFullscreen()")
    app.page.get_by_text(t("en", "presenter.toggle"), exact=True).click()
    expect(app.page.get_by_role("button", name=t("en", "presenter.next")).first).to_be_visible()
    app.settle()
    expect(app.page.locator('[data-testid="stSidebar"]')).to_have_attribute(
        "data-collapsed", "true")
    assert app.query()["present"] == "1"
    app.assert_clean()


def test_adding_an_item_runs_the_page_once_and_compares_with_before_it(app: App):
    """User flow: add an item by typing one rating at the end of each field, each with Enter.
    After the first Enter the lists differ in length: the browser holds the form, so the page
    runs once, when the second Enter makes a pair; it shows the engine's kappa and says it was
    the seed's before (counted: the form is sent once, the one run of the page)."""
    app.open(f"{SEED_LINK}&lang=en")
    kappa = app.metric(t("en", "common.kappa"))
    seed = walkthrough(SEED_ACTUAL, SEED_PREDICTED).kappa
    record_sends(app)
    type_at_end(app, t("en", "inputs.actual_label"), ", 3")
    type_at_end(app, t("en", "inputs.predicted_label"), ", 2")
    after = walkthrough(SEED_ACTUAL + ",3", SEED_PREDICTED + ",2").kappa
    expect(kappa).to_have_text(format_number(after, "en"))
    app.settle()
    change = format_number(after - seed, "en")
    expect(app.page.get_by_text(t("en", "live.changed", before=format_number(seed, "en"),
                                  change=("+" if after > seed else "") + change),
                                exact=True)).to_be_visible()
    app.wait_for_query(actual=SEED_ACTUAL + ",3", predicted=SEED_PREDICTED + ",2")
    app.page.wait_for_timeout(HALF_PAIR_PAUSE_MS + 200)  # no late send follows
    assert sends(app) == 1
    app.assert_clean()


def test_a_half_pair_left_alone_is_sent_after_the_longer_pause(app: App):
    """User flow: a rating added to the actual list only, with Enter. Nothing runs at once (the
    other half usually follows); left alone, the form is sent after the longer pause: the page
    says both lengths, keeps the seed's kappa, and the link holds what was typed."""
    app.open(f"{SEED_LINK}&lang=en")
    record_sends(app)
    type_at_end(app, t("en", "inputs.actual_label"), ", 3")
    lengths = app.page.get_by_text(t("en", "inputs.typing_lengths", n_actual="11",
                                     n_predicted="10"), exact=True)
    app.page.wait_for_timeout(HALF_PAIR_PAUSE_MS // 2)
    assert sends(app) == 0
    expect(lengths).to_be_visible()
    app.settle()
    assert sends(app) == 1
    expect(app.metric(t("en", "common.kappa"))).to_have_text(
        kappa_text(SEED_ACTUAL, SEED_PREDICTED, "en"))
    app.wait_for_query(actual=SEED_ACTUAL + ",3")
    app.assert_clean()


def test_the_browser_counts_ratings_as_the_parser_does(app: App):
    """The seed's ten ratings pasted in brackets with full-width and Chinese separators: the
    browser counts ten, as the parser does (``[``, ``]`` dropped, ``、`` and ``，`` separate), so
    Enter sends the pair at once instead of waiting as for a half pair."""
    pasted = "[ 4、4，3; 4 4 4 1 1 2 1 ]"
    assert parse_vector(pasted).tolist() == parse_vector(SEED_ACTUAL).tolist()
    app.open(f"{SEED_LINK}&lang=zh")
    record_sends(app)
    app.type_into(t("zh", "inputs.actual_label"), pasted)
    sent = sends_after(app, "enter")
    # By the Enter itself (or by the short typing pause, if the machine was slow to press it):
    # never after the longer pause of a half pair.
    assert len(sent) == 1 and sent[0] < 100, sent
    app.settle()
    assert sends(app) == 1
    expect(app.metric(t("zh", "common.kappa"))).to_have_text(
        kappa_text(SEED_ACTUAL, SEED_PREDICTED, "zh"))
    app.assert_clean()


def test_leaving_the_fields_sends_a_half_pair_at_once(app: App):
    """A rating added to the actual list, no Enter, then a click elsewhere on the page: the form
    is sent at once (not after the longer pause), so what was typed reaches the page and the
    link before the learner does anything else; a second click sends nothing more."""
    app.open(f"{SEED_LINK}&lang=en")
    record_sends(app)
    type_at_end(app, t("en", "inputs.actual_label"), ", 3", enter=False)
    app.page.locator('[data-testid="stMain"] h1').first.click()  # the field loses focus
    sent = sends_after(app, "focusout")
    assert len(sent) == 1 and 0 <= sent[0] < 100, sent  # as the focus left, not a pause later
    app.wait_for_query(actual=SEED_ACTUAL + ",3")
    assert sends(app) == 1
    app.settle()
    app.page.locator('[data-testid="stMain"] h1').first.click()
    app.page.wait_for_timeout(HALF_PAIR_PAUSE_MS + 200)
    assert sends(app) == 1
    app.assert_clean()


def test_enter_that_confirms_an_input_method_candidate_sends_nothing(app: App):
    """Chinese input: Enter confirms a candidate while the input method composes (the key event
    says ``isComposing``); that Enter, and the typing during composition, send nothing. The
    form is sent once the composition ends, after the typing pause."""
    app.open(f"{SEED_LINK}&lang=zh")
    record_sends(app)
    box = app.textbox(t("zh", "inputs.actual_label"))
    box.click()
    box.evaluate(
        """(e, text) => {
             e.dispatchEvent(new CompositionEvent("compositionstart", { bubbles: true }));
             // the native setter, as typing does (React would not see a plain assignment)
             Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")
               .set.call(e, text);
             e.dispatchEvent(new InputEvent("input", { bubbles: true, isComposing: true,
                                                        data: "２" }));
             e.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, key: "Enter",
                                                            keyCode: 229, isComposing: true }));
           }""", SEED_ACTUAL[:-1] + "２")
    app.page.wait_for_timeout(HALF_PAIR_PAUSE_MS + 200)
    assert sends(app) == 0
    box.evaluate("""e => e.dispatchEvent(new CompositionEvent("compositionend",
                                                             { bubbles: true, data: "２" }))""")
    typed = SEED_ACTUAL[:-1] + "2"
    expect(app.metric(t("zh", "common.kappa"))).to_have_text(
        kappa_text(typed, SEED_PREDICTED, "zh"))
    app.settle()
    assert sends(app) == 1
    app.assert_clean()


PROJECTOR = {"width": 1280, "height": 720}


def test_a_clicker_turns_the_presented_steps_and_a_reload_keeps_the_step(browser, app_url: str):
    """Projector (1280 x 720 at 150 %), presenter mode: the keys a presentation clicker sends
    (PageDown, ArrowRight, space; PageUp, ArrowLeft) move one step each, the step is in the
    address bar, and a reload comes back to it. Typing a space in the ratings does not. Kappa
    is withheld until step 7 ("compute it together"). Previous and next are under the step too."""
    context = browser.new_context(viewport=PROJECTOR, device_scale_factor=1.5, locale="en-US")
    try:
        app = App(context.new_page(), app_url)
        app.open(f"{SEED_LINK}&lang=en&present=1")

        def shown(step: int) -> None:
            expect(app.page.get_by_text(t("en", "presenter.progress", step=str(step),
                                          total="7"), exact=True)).to_have_count(2)

        shown(1)
        # A compact header: step 1 starts well within the first screen (the review's started
        # at its bottom edge).
        first = app.page.get_by_role("heading", name=STEPS[0].heading("en")).first
        top = first.bounding_box()
        assert top is not None and top["y"] + top["height"] <= 0.75 * PROJECTOR["height"], top
        kappa = app.metric(t("en", "common.kappa"))
        expect(kappa).to_have_text(t("en", "presenter.kappa_later", step="7"))  # together
        for key, step in (("PageDown", 2), ("ArrowRight", 3), ("Space", 4), ("PageUp", 3),
                          ("ArrowLeft", 2)):
            app.page.keyboard.press(key)
            app.wait_for_query(step=str(step), present="1")
            shown(step)
        app.settle()
        app.page.reload()
        app.settle()
        # The image the old session served (the share QR) is gone from Streamlit's media store
        # once the page reloads: the browser's late request for it is answered 404, and the new
        # session draws its own.
        app.console_errors[:] = [error for error in app.console_errors
                                 if not ("status of 404" in error and "/media/" in error)]
        shown(2)
        assert app.query()["step"] == "2"
        app.page.get_by_text(t("en", "presenter.ratings"), exact=True).click()
        box = app.textbox(t("en", "inputs.actual_label"))
        box.click()
        box.press("End")
        box.press("Space")
        app.page.keyboard.press("ArrowLeft")
        expect(box).to_have_value(SEED_ACTUAL + " ")
        app.page.wait_for_timeout(500)
        shown(2)
        app.page.locator('[data-testid="stMain"] h1').first.click()  # the field loses focus
        for step in range(3, 8):
            app.page.keyboard.press("PageDown")
            shown(step)
        expect(kappa).to_have_text(kappa_text(SEED_ACTUAL, SEED_PREDICTED, "en"))
        below = app.page.locator(".st-key-present_prev_below button")  # under the step too
        below.click()
        shown(6)
        app.assert_clean()
    finally:
        context.close()


def test_on_a_phone_a_second_tap_in_move_mode_lands_where_it_aims(browser, app_url: str):
    """Phone (390 x 844, touch), "a click moves one item there": a tap on O's cell (4, 1) moves
    one item of the followed cell (4, 0) there; the matrix has not moved under the finger (what
    moved is said in a toast, nothing is inserted above it), so a second tap on the same spot
    hits the same cell, now the followed one, and moves nothing: no actual rating changes."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=3, is_mobile=True,
                                  has_touch=True, locale="en-US")
    try:
        app = App(context.new_page(), app_url)
        app.open(f"{SEED_LINK}&lang=en&cell=4,0")
        app.page.get_by_text(t("en", "move.click_move"), exact=True).tap()
        app.settle()
        target = app.page.locator(".qwk-matrix").first.locator('[data-cell="4,1"]')
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        app.page.touchscreen.tap(x, y)
        moved = move_item(walkthrough(SEED_ACTUAL, SEED_PREDICTED), (4, 0), (4, 1))
        actual, predicted = (",".join(map(str, v.tolist()))
                             for v in (moved.actual, moved.predicted))
        app.wait_for_query(actual=actual, predicted=predicted, cell="4,1")
        app.settle()
        expect(app.page.get_by_text(t("en", "undo.move", item=moved.item, source="4, 0",
                                      target="4, 1"))).to_be_visible()
        after = target.bounding_box()
        assert after is not None and abs(after["y"] - box["y"]) <= 1, (box, after)
        app.page.touchscreen.tap(x, y)
        app.page.wait_for_timeout(500)
        app.settle()
        assert app.query()["actual"] == actual and app.query()["predicted"] == predicted
        assert app.query()["cell"] == "4,1"
        app.assert_clean()
    finally:
        context.close()


def test_presenter_mode_shows_the_share_qr_code_large(browser, app_url: str):
    """Projector (1280 x 720 at 150 %), presenter mode, sidebar folded: one click shows the
    share link's QR code over most of the screen's height, and ZXing reads it back to the link
    the share box holds (without presenter mode: students get the normal view)."""
    import zxingcpp  # pinned in requirements-dev.txt: a missing reader fails, never skips
    from PIL import Image

    context = browser.new_context(viewport=PROJECTOR, device_scale_factor=1.5, locale="en-US")
    try:
        app = App(context.new_page(), app_url)
        app.open(f"{SEED_LINK}&lang=en&present=1")
        app.page.get_by_role("button", name=t("en", "share.qr_large")).click()
        dialog = app.page.get_by_role("dialog")
        image = dialog.locator("img").first
        expect(image).to_be_visible()
        app.page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                   arg=image.element_handle())
        box = image.bounding_box()
        assert box is not None and box["height"] >= 0.6 * PROJECTOR["height"], box
        assert box["y"] >= 0 and box["y"] + box["height"] <= PROJECTOR["height"], box  # whole
        decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
        link = dialog.locator('[data-testid="stCaptionContainer"]').inner_text().strip()
        assert [code.text for code in decoded] == [link]
        assert "present" not in link and "ex=seed_es" in link  # the example, by its name
        app.page.keyboard.press("Escape")  # the dialog closes as any other does
        expect(dialog).to_have_count(0)
        app.assert_clean()
    finally:
        context.close()
