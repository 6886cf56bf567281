"""The comparison page in a real browser: a paste, a mistake and an upload, as a user does them.

Source of truth for every number: :func:`qwk_explained.compare` formatted by
``qwk_explained.present.numbers``; for words, the locale files.
"""

from __future__ import annotations

import os

import pytest

from qwk_app.compare import EXAMPLE
from qwk_explained import InputError, compare
from qwk_explained.present.comparison import signed
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.numbers import format_number
from tests import ROOT
from tests.browser.helpers import App, expect

pytestmark = pytest.mark.browser


def test_paste_a_mistake_and_an_upload_on_the_comparison_page(app: App, tmp_path) -> None:
    lang = "es"
    app.open(f"/compare?lang={lang}")
    assert app.heading() == t(lang, "compare.title")
    expected = compare(EXAMPLE["actual"], EXAMPLE["model_a"], EXAMPLE["model_b"])
    expect(app.metric(t(lang, "compare.model_a"))).to_have_text(
        format_number(expected.kappa_a, lang))
    expect(app.metric(t(lang, "compare_page.difference_label"))).to_have_text(
        signed(expected.difference, lang))
    if os.environ.get("QWK_README_SCREENSHOTS"):  # the README's picture of the page, on demand
        app.page.get_by_text(t(lang, "compare_page.results_title")).evaluate(
            "heading => heading.scrollIntoView({block: 'center'})")
        app.page.screenshot(path=ROOT / "docs" / "compare.png")

    # A column too short: the reason in Spanish, the text as typed, no comparison shown.
    box = app.textbox(t(lang, "compare_page.model_b_label"))
    box.fill("4, 4, 3")
    box.press("Control+Enter")
    n = len(EXAMPLE["actual"].split(","))
    problem = error_message(lang, InputError("columns_length_mismatch", n_actual=n, n_model_a=n,
                                             n_model_b=3))
    expect(app.page.get_by_text(problem)).to_be_visible()
    expect(box).to_have_value("4, 4, 3")
    expect(app.page.locator('[data-testid="stMetric"]')).to_have_count(0)

    # One CSV of three columns (the models swapped) replaces the fields' columns.
    actual, a, b = ([int(x) for x in EXAMPLE[c].split(",")] for c in ("actual", "model_a",
                                                                        "model_b"))
    path = tmp_path / "models.csv"
    path.write_text("real;a;b\n" + "".join(f"{x};{y};{z}\n" for x, y, z in zip(actual, b, a,
                                                                               strict=True)))
    app.page.locator('input[type="file"]').first.set_input_files(str(path))
    swapped = compare(actual, b, a)
    expect(app.metric(t(lang, "compare.model_a"))).to_have_text(
        format_number(swapped.kappa_a, lang), timeout=60_000)
    expect(app.page.get_by_text(t(lang, "compare_page.upload_used"))).to_be_visible()
    expect(box).to_have_value("4, 4, 3")
    app.assert_clean()
