"""What the app tells the browser about setting its text: the faces, the slider's number format,
the uploader's words, the page's language.

Sources of truth: ``qwk_explained.present.typography`` (the faces), the language record through
``numbers.format_percent`` (the agreement as a percentage), the locale files (the uploader's
words). The browser tests (``tests/browser/test_typesetting.py``) check what Chromium draws.
"""

from __future__ import annotations

import json

import pytest
import tomllib

from qwk_app import frame
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_percent
from qwk_explained.present.typography import APP_LATIN, font_family
from tests import ROOT
from tests.app.helpers import assert_clean, open_app, open_tab


def test_streamlits_theme_font_is_the_typography_modules():
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    assert settings["theme"]["font"] == font_family(APP_LATIN)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_agreement_slider_is_a_percentage_written_as_the_language_does(lang):
    at = open_tab(open_app(lang=lang), "random")
    slider = at.slider(key="random_agreement")
    assert (slider.value, slider.min, slider.max, slider.step) == (60, 0, 100, 5)
    # What the browser fills in (sprintf-js reads %d and %% as Python's % does).
    assert slider.proto.format % slider.value == format_percent(0.6, lang, 0)
    assert_clean(at)


def test_the_agreement_is_the_generators_probability():
    """60 % on the slider is the probability 0.6 the generator was always given."""
    from qwk_explained.teaching.examples import random_ratings

    at = open_tab(open_app(lang="es"), "random")
    at.number_input(key="random_seed").set_value(7)
    at.slider(key="random_agreement").set_value(85)
    at.button(key="FormSubmitter:random_form-" + t("es", "inputs.random_generate")).click().run()
    actual, predicted = random_ratings(20, 5, 0.85, 7)
    assert at.text_input(key="actual_input").value == ", ".join(map(str, actual))
    assert at.text_input(key="predicted_input").value == ", ".join(map(str, predicted))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_style_carries_the_uploaders_words_in_the_language(lang):
    at = open_app(lang=lang)
    (style,) = [element.proto.body for element in at.get("html")
                if "stFileUploaderDropzone" in element.proto.body]
    for key in ("inputs.upload_button", "inputs.upload_drop"):
        assert f"content: {frame.css_string(t(lang, key))};" in style


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_charts_tell_the_page_its_language(lang):
    """Every component (the share box's copy button on every page, each chart) carries the
    language it sets as the page's own (``<html lang>``)."""
    at = open_app(lang=lang)
    sent = [json.loads(element.proto.json) for element in at.get("bidi_component")]
    assert sent and {data["lang"] for data in sent} == {lang}
