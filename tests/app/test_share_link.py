"""A link students can open, a presenter mode, a sidebar with only what applies, a warm start.

Sources of truth: the address rules of ``qwk_app.links.public_base`` (a configured address, then
Streamlit's ``browser.serverAddress``, never ``localhost`` for others); ZXing reading the QR
code's pixels; the locale files; the page settings of ``qwk_app.frame.PAGE_SETTINGS``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from qwk_app import frame, launch, links, state
from qwk_explained import walkthrough
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import BY_NAME, random_ratings
from tests.app.helpers import assert_clean, open_app, type_ratings

SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}


def share_box_link(at) -> str:
    return at.sidebar.code[0].value


# --- the address --------------------------------------------------------------------------------

@pytest.mark.parametrize(("configured", "server", "opened", "expected"), [
    ("https://kappa.example.org/class/", "localhost", "http://localhost:8501/",
     ("https://kappa.example.org/class", True)),
    (None, "192.168.1.20", "http://localhost:8501/step_by_step",
     ("http://192.168.1.20:8501", True)),
    (None, "localhost", "http://localhost:8501/", ("http://localhost:8501", False)),
    (None, "localhost", "http://127.0.0.1:8501/x", ("http://127.0.0.1:8501", False)),
    (None, None, "http://10.0.0.5:8501/", ("http://10.0.0.5:8501", True)),
    (None, "fe80::1", "http://localhost:8501/", ("http://[fe80::1]:8501", True)),
])
def test_the_public_address_is_never_localhost_when_another_is_known(configured, server, opened,
                                                                     expected):
    base = links.public_base(configured=configured, server_address=server, server_port=8501,
                             base_path="", opened=opened)
    assert tuple(base) == expected


def test_an_old_address_is_its_renamed_page():
    """/guided was the step-by-step page's address: links shared then still open it (a hidden
    page at the old path, tests/browser/test_cold_links.py), and the share box gives the new."""
    assert frame.ALIASES == {"guided": "step_by_step"}
    assert all(slug in {spec.slug for spec in frame.PAGES} for slug in frame.ALIASES.values())
    assert frame._slug("/guided") == frame._slug("step_by_step") == "step_by_step"
    assert frame._slug("/nowhere") == frame.DEFAULT_PAGE
    # A cold server runs a deep-linked file of pages/ before the frame: each old path has one.
    assert all((frame.PAGES_DIR / f"{old}.py").is_file() for old in frame.ALIASES)


def test_a_base_path_is_kept():
    base = links.public_base(configured=None, server_address="10.1.2.3", server_port=80,
                             base_path="/qwk/", opened=None)
    assert base.url == "http://10.1.2.3/qwk"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_share_box_uses_the_configured_address_and_keeps_the_cell(monkeypatch, lang):
    """QWK_PUBLIC_URL set: the link starts with it, holds the vectors, settings, language and
    the followed cell, and never presenter mode (the teacher's own)."""
    monkeypatch.setenv(links.PUBLIC_URL_ENV, "http://192.168.1.20:8501")
    at = open_app(lang=lang, cell="4,0", present="1", **SEED)
    assert_clean(at)
    link = share_box_link(at)
    assert link.startswith("http://192.168.1.20:8501/?")
    assert "cell=4,0" in link and f"lang={lang}" in link and "ex=seed_es" in link
    assert "present" not in link
    assert t(lang, "share.local_only", variable=links.PUBLIC_URL_ENV) not in [
        c.value for c in at.sidebar.caption]


def test_a_local_link_says_it_opens_only_here(monkeypatch):
    monkeypatch.delenv(links.PUBLIC_URL_ENV, raising=False)
    at = open_app(lang="es", **SEED)
    assert t("es", "share.local_only", variable=links.PUBLIC_URL_ENV) in [
        c.value for c in at.sidebar.caption]


def _opened_vectors(at) -> tuple[str, str]:
    return at.session_state["actual"], at.session_state["predicted"]


@pytest.mark.parametrize("n", [50, 1000])
def test_a_shared_link_carries_the_vectors_the_short_way_and_opens_them_again(n):
    """User flow: a teacher shares random ratings; the link holds them in the compact form
    (``v=``, no ``actual=``), and a student opening it gets the same ratings, settings and
    kappa (source of truth: the engine on the typed vectors)."""
    actual, predicted = (state.vector_text(v) for v in random_ratings(n, 5, 0.6, seed=n))
    at = open_app(lang="es", actual=actual, predicted=predicted, weights="linear")
    assert_clean(at)
    link = share_box_link(at)
    assert "v=1" in link and "actual=" not in link and "predicted=" not in link
    query = dict(pair.split("=", 1) for pair in link.split("?", 1)[1].split("&"))
    assert len(query["v"]) < len(f"actual={actual}&predicted={predicted}".replace(" ", "")) / 2
    student = open_app(**query)
    assert_clean(student)
    assert _opened_vectors(student) == (actual, predicted)
    assert (student.session_state["weights"], student.session_state["language"]) == ("linear", "es")
    expected = format_number(walkthrough(actual, predicted, weights="linear").kappa, "es")
    assert expected in [metric.value for metric in student.metric]


def test_an_example_is_shared_by_its_name_and_old_long_links_still_open():
    """The seed opened from an old long link (``actual=...&predicted=...``) opens as ever, and
    its share link names the example (``ex=seed_es``); that link opens the same ratings."""
    at = open_app(lang="tr", **SEED)
    assert_clean(at)
    link = share_box_link(at)
    assert "ex=seed_es" in link and "actual" not in link
    again = open_app(lang="tr", ex="seed_en")
    assert_clean(again)
    seed_en = BY_NAME["seed_en"]
    assert _opened_vectors(again) == tuple(state.vector_text(np.array(v))
                                            for v in (seed_en.actual, seed_en.predicted))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("key", "value"), [("v", "1z.0.4.10.AAAA"), ("ex", "seed_xx")])
def test_a_damaged_short_link_says_so_in_the_reader_s_language(lang, key, value):
    at = open_app(lang=lang, **{key: value})
    assert_clean(at)
    code = "link_bad_vectors" if key == "v" else "link_unknown_example"
    assert [error.value.replace("\\", "") for error in at.error] == [  # Markdown's escapes
        t(lang, f"errors.{code}", parameter=key, value=value, choices=", ".join(BY_NAME))]


def test_the_qr_code_holds_the_link():
    """ZXing reads the PNG the share box shows back to the very link."""
    import zxingcpp  # pinned in requirements-dev.txt: a missing reader fails, never skips
    from PIL import Image

    link = "http://192.168.1.20:8501/?lang=tr&actual=4,4,3,4,4,4,1,1,2,1&cell=4,0"
    image = frame.qr_png(link)
    assert image is not None
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(image)))
    assert [code.text for code in decoded] == [link]
    assert frame.qr_png("http://x/?" + "a" * 5000) is None  # too long: the box says so


def test_a_link_s_qr_code_is_drawn_once():
    """Choosing a QR code's mask costs about 50 ms for a link with 200 ratings: the share box,
    drawn on every rerun, draws each link's code once (the same bytes, not drawn again)."""
    link = "http://192.168.1.20:8501/?lang=en&actual=" + ",".join(["3"] * 200)
    assert frame.qr_png(link) is frame.qr_png(link)
    assert frame.qr_png(link + "1") != frame.qr_png(link)


# --- the sidebar and presenter mode -------------------------------------------------------------

@pytest.mark.parametrize("page", [spec.slug for spec in frame.PAGES])
def test_the_sidebar_shows_only_the_settings_the_page_uses(page):
    at = open_app(page, lang="en", **SEED)
    assert_clean(at)
    keys = {w.key for w in at.sidebar.radio}
    assert ("weights_input" in keys) == ("weights" in frame.PAGE_SETTINGS[page])
    assert ("scale_mode_input" in keys) == ("scale" in frame.PAGE_SETTINGS[page])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_presenter_mode_shows_one_step_at_a_time(lang):
    """?present=1: the sidebar starts folded, the steps come one at a time with next/previous,
    the ratings stay editable in an expander."""
    at = open_app(lang=lang, present="1", **SEED)
    assert_clean(at)
    headings = [h.value for h in at.subheader]
    assert [s for s in STEPS if s.heading(lang) in headings] == [STEPS[0]]
    assert at.toggle(key="presenter_input").value is True
    at.button(key="present_next").click().run()
    assert STEPS[1].heading(lang) in [h.value for h in at.subheader]
    assert at.expander[0].label == t(lang, "presenter.ratings")
    assert at.button(key="share_qr_large").label == t(lang, "share.qr_large")
    at.toggle(key="presenter_input").set_value(False).run()
    assert all(step.heading(lang) in [h.value for h in at.subheader] for step in STEPS)
    assert "present" not in at.query_params
    assert not [b for b in at.button if b.key == "share_qr_large"]  # the sidebar has the QR


@pytest.mark.parametrize("lang", LANGUAGES)
def test_presenter_mode_computes_kappa_together_with_the_class(lang):
    """User flow, presenter mode: kappa is withheld (with the step that reveals it) until the
    class reaches the step that computes it, then shown; an edit meanwhile does not give it away
    either; the teacher's switch shows it from step 1. The step is in the URL throughout."""
    at = open_app(lang=lang, present="1", **SEED)
    kappa_step = next(step.number for step in STEPS if step.slug == "kappa")
    later = t(lang, "presenter.kappa_later", step=format_number(kappa_step, lang))
    value = format_number(walkthrough(SEED["actual"], SEED["predicted"]).kappa, lang)

    def shown() -> str:
        return next(m.value for m in at.metric if m.label == t(lang, "common.kappa"))

    assert shown() == later
    assert at.query_params["step"] == "1"
    assert at.toggle(key="together_input").value is True
    type_ratings(at, "4,4,3,4,4,4,1,1,2,2")
    assert shown() == later
    prefix = t(lang, "live.changed", before="\x00", change="").split("\x00", 1)[0]
    assert not [c.value for c in at.caption if c.value.startswith(prefix)]
    for _ in range(kappa_step - 1):
        at.button(key="present_next").click().run()
    assert shown() == format_number(walkthrough("4,4,3,4,4,4,1,1,2,2", SEED["predicted"]).kappa,
                                     lang)
    assert at.query_params["step"] == str(kappa_step)
    at.button(key="present_prev_below").click().run()  # under the step as well as above it
    assert at.query_params["step"] == str(kappa_step - 1)
    at = open_app(lang=lang, present="1", **SEED)
    at.toggle(key="together_input").set_value(False).run()
    assert_clean(at)
    assert shown() == value


# --- a warm start -------------------------------------------------------------------------------

def test_in_class_the_links_use_the_network_address(monkeypatch):
    monkeypatch.delenv(links.PUBLIC_URL_ENV, raising=False)
    monkeypatch.setattr(links, "network_address", lambda: "192.168.1.20")
    arguments = launch.streamlit_arguments(port=8600, address="0.0.0.0", classroom=True)
    assert arguments[arguments.index("--browser.serverAddress") + 1] == "192.168.1.20"
    assert arguments[arguments.index("--server.address") + 1] == "0.0.0.0"
    monkeypatch.setenv(links.PUBLIC_URL_ENV, "https://kappa.example.org")
    assert "--browser.serverAddress" not in launch.streamlit_arguments(
        port=8600, address="0.0.0.0", classroom=True)
