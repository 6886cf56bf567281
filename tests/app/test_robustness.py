"""Bad input never breaks the app: random text, URLs and files into every page, driven by AppTest.

Sources of truth: the engine (``qwk_explained.core.parse`` raises the ``InputError`` an input
deserves, ``walkthrough`` computes kappa), the locale files (every message shown is one of the
session language's strings) and ``.streamlit/config.toml`` (the upload cap). Every page listed in
``qwk_app.frame.PAGES`` is covered; a listed page whose file is missing fails.

Hypothesis example counts are kept small (each example is one or two full app runs); on CI the
examples are derandomized so a failure there can be replayed.
"""

from __future__ import annotations

import functools
import os
import re
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qwk_app import links, state
from qwk_app.compute import typed_text
from qwk_app.frame import PAGE_SETTINGS
from qwk_app.text import escape_markdown
from qwk_explained import InputError, walkthrough
from qwk_explained.core.csvfile import parse_csv
from qwk_explained.core.limits import MAX_RATINGS
from qwk_explained.core.parse import parse_vector
from qwk_explained.core.scale import rating_scale
from qwk_explained.core.types import WEIGHTINGS
from qwk_explained.core.validate import check_pair
from qwk_explained.present.i18n import error_message, load, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import about, format_number
from qwk_explained.teaching.examples import random_ratings
from tests import ROOT
from tests.app.helpers import PAGE_SLUGS, assert_clean, enter_text, open_app, open_tab, type_ratings

FEW = settings(max_examples=20, deadline=None, derandomize=bool(os.environ.get("CI")),
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- what the app must show ---------------------------------------------------------------------

def shown(lang: str, error: InputError) -> str:
    """What ``show_error`` renders: the locale sentence, quoted input escaped for markdown."""
    params = {k: escape_markdown(v) if isinstance(v, str) else v for k, v in error.params.items()}
    return error_message(lang, InputError(error.code, **params))


def _forms(entry: Any) -> list[str]:
    """A locale entry's texts: its plural forms, or the one text."""
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def _template_pattern(text: str) -> str:
    """A locale text as a regular expression: its literal parts, anything for a placeholder."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(text):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(".*?")
    return "".join(parts)


@functools.cache
def _locale_pattern(lang: str) -> re.Pattern[str]:
    alternatives = [_template_pattern(text) for entry in load(lang).values()
                    for text in _forms(entry)]
    return re.compile("|".join(f"(?:{a})" for a in alternatives), re.DOTALL)


def is_text_of(lang: str, key: str, body: str) -> bool:
    """Whether ``body`` is locale string ``key`` of ``lang`` with its placeholders filled in."""
    return any(re.fullmatch(_template_pattern(text), body, re.DOTALL) is not None
               for text in _forms(load(lang)[key]))


def is_locale_text(lang: str, body: str) -> bool:
    """Whether ``body`` is one of ``lang``'s strings (placeholders filled with anything)."""
    return _locale_pattern(lang).fullmatch(body) is not None


def assert_messages_translated(at, lang: str) -> None:
    """Every error and warning on screen is a sentence of the session's language."""
    for alert in [*at.error, *at.warning]:
        assert is_locale_text(lang, alert.value), (lang, alert.value)


def expected_vector_errors(actual: str, predicted: str, **scale) -> list[InputError]:
    """The problems ``qwk_app.compute`` must attach to the fields, computed by the engine."""
    errors, arrays = [], {}
    for name, text in (("actual", actual), ("predicted", predicted)):
        try:
            arrays[name] = parse_vector(typed_text(text)[0])  # a trailing sign waits for digits
        except InputError as error:
            errors.append(error)
    if errors:
        return errors
    try:
        check_pair(arrays["actual"], arrays["predicted"])
        rating_scale(arrays["actual"], arrays["predicted"], **scale)
        walkthrough(arrays["actual"], arrays["predicted"], **scale)
    except InputError as error:
        return [error]
    return []


def kappa_shown(at, lang: str) -> str | None:
    values = [m.value for m in at.metric if m.label == t(lang, "common.kappa")]
    return values[0] if values else None


# --- strategies ---------------------------------------------------------------------------------

SEPARATORS = [",", " ", ";", "\n", "\t", ", ", "、", "，", "；", "\r\n"]
TOKENS = st.one_of(
    st.integers(-6, 6).map(str),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["3.0", "3.5", "-0", "+2", "1e3", "nan", "inf", "-inf", "٣", "３", "1_0", "0x1",
                     "", "four", "4,5", "[1", "2]", "(3)", "**4**", "NULL", "½", "🙂"]),
    st.text(max_size=6),
)
VECTOR_TEXT = st.one_of(
    st.builds(lambda tokens, sep: sep.join(tokens), st.lists(TOKENS, max_size=30),
              st.sampled_from(SEPARATORS)),
    st.text(max_size=60),
    st.builds(lambda unit, times: (unit * times)[:100_000], st.text(min_size=1, max_size=8),
              st.integers(1, 40_000)),
    st.just(""),
)
GARBAGE = st.one_of(st.text(max_size=40), st.integers(-(10**12), 10**12).map(str),
                    st.sampled_from(["", " ", "es", "zh", "linear", "observed", "3", "0", "-1",
                                     "999999999999", "1,2;3,4", "nan", "[]", "%00", "?a=b&c",
                                     "<b>x</b>", "**x**"]),
                    st.builds(lambda unit, n: unit * n, st.text(min_size=1, max_size=5),
                              st.integers(100, 3000)))
URL_KEYS = (*state.URL_KEYS, *state.PAGE_URL_KEYS)


# --- typing into the fields ---------------------------------------------------------------------

@functools.cache
def _walkthrough_app(lang: str):
    return open_app("walkthrough", lang=lang)


@FEW
@given(lang=st.sampled_from(list(LANGUAGES)), field=st.sampled_from(["actual", "predicted"]),
       text=VECTOR_TEXT)
def test_random_text_in_the_vector_fields(lang, field, text):
    """Any text in either vector: no traceback; the engine's error, translated, next to the field;
    the text stays as typed; valid text gives the engine's kappa."""
    at = _walkthrough_app(lang)
    enter_text(at, "text_input", f"{field}_input", text)
    assert_clean(at)
    assert at.text_input(key=f"{field}_input").value == text
    actual = at.text_input(key="actual_input").value
    predicted = at.text_input(key="predicted_input").value
    errors = expected_vector_errors(actual, predicted)
    bodies = [e.value for e in at.error]
    captions = [c.value for c in at.caption]
    for error in errors:
        if error.code == "length_mismatch":  # a list still being typed: counted, no error
            assert t(lang, "inputs.typing_lengths",
                     n_actual=format_number(error.params["n_actual"], lang),
                     n_predicted=format_number(error.params["n_predicted"], lang)) in captions
        elif error.code == "empty" and typed_text(text)[1]:  # "-": its digits are coming
            assert t(lang, "inputs.typing_sign") in captions
        else:
            assert shown(lang, error) in bodies
    assert_messages_translated(at, lang)
    if not errors:
        result = walkthrough(actual, predicted)
        want = (t(lang, "common.undefined") if result.kappa is None
                else format_number(result.kappa, lang))
        assert kappa_shown(at, lang) == want


@functools.cache
def _page_text_widgets(slug: str) -> tuple[tuple[str, str], ...]:
    at = open_app(slug, lang="en")
    return tuple([("text_input", w.key) for w in at.text_input]
                 + [("text_input", w.key) for w in at.text_input])


@FEW
@given(data=st.data(), lang=st.sampled_from(list(LANGUAGES)), text=VECTOR_TEXT | GARBAGE)
def test_random_text_in_every_text_field_of_every_page(data, lang, text):
    """Each page's own text fields (answers, tables...): no traceback, text kept, messages in the
    session's language."""
    fields = [(slug, kind, key) for slug in PAGE_SLUGS for kind, key in _page_text_widgets(slug)]
    slug, kind, key = data.draw(st.sampled_from(fields), label="field")
    at = open_app(slug, lang=lang)
    widget = getattr(at, kind)(key=key)
    limit = widget.proto.max_chars
    typed = text[:limit] if limit else text
    enter_text(at, kind, key, typed)
    assert_clean(at)
    assert getattr(at, kind)(key=key).value == typed
    assert_messages_translated(at, lang)


# --- shared links with garbage ------------------------------------------------------------------

@FEW
@given(page=st.sampled_from(PAGE_SLUGS),
       params=st.dictionaries(st.sampled_from(URL_KEYS), GARBAGE, max_size=7))
def test_random_url_parameters_open_every_page(page, params):
    """Any URL: the page opens without a traceback; a bad lang/weights/scale gets its translated
    message; a bad vector keeps its text in the field with the engine's message."""
    at = open_app(page, **params)
    assert_clean(at)
    lang = params.get("lang") if params.get("lang") in LANGUAGES else "en"
    assert at.selectbox(key="lang").value == lang
    assert_messages_translated(at, lang)
    bodies = [e.value for e in at.error]
    for key, code, valid in (("lang", "unknown_language", LANGUAGES),
                             ("weights", "unknown_weights", WEIGHTINGS),
                             ("scale", "unknown_scale", ("range", "observed"))):
        if key in params and params[key] not in valid:
            assert any(is_text_of(lang, f"errors.{code}", body) for body in bodies), (key, bodies)
    if any(w.key == "actual_input" for w in at.text_input):
        for name in ("actual", "predicted"):
            text = params.get(name, state.DEFAULTS[name])
            assert at.text_input(key=f"{name}_input").value == text
            try:
                parse_vector(text)
            except InputError as error:
                assert shown(lang, error) in bodies


# --- CSV uploads --------------------------------------------------------------------------------

CSV_ROWS = st.lists(st.tuples(st.integers(-3, 8), st.integers(-3, 8)), min_size=1, max_size=40)
CSV_BYTES = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda s: s.encode("utf-8")),
    st.builds(lambda rows, sep, header: ((header + "\n") if header else "")
              .encode() + "\n".join(f"{a}{sep}{p}" for a, p in rows).encode(),
              CSV_ROWS, st.sampled_from([",", ";", "\t"]),
              st.sampled_from(["", "actual,predicted", "a;b;c"])),
    st.builds(lambda cells: "\n".join(cells).encode(), st.lists(TOKENS, min_size=1, max_size=20)),
)


@functools.cache
def _upload_app(lang: str):
    return open_tab(open_app("walkthrough", lang=lang), "upload")


@FEW
@given(lang=st.sampled_from(list(LANGUAGES)), data=CSV_BYTES)
def test_random_csv_upload(lang, data):
    """Any file: no traceback; the parser's error in the session's language, or the two columns
    become the vectors and the engine's kappa is shown."""
    at = _upload_app(lang)
    at.file_uploader(key="upload_first").set_value(("ratings.csv", data, "text/csv")).run()
    assert_clean(at)
    assert_messages_translated(at, lang)
    bodies = [e.value for e in at.error]
    try:
        columns = parse_csv(data).columns
        if len(columns) != 2:
            raise InputError("upload_needs_second")
        check_pair(*columns)
    except InputError as error:
        assert shown(lang, error) in bodies
        return
    actual, predicted = (", ".join(map(str, c.tolist())) for c in columns)
    assert at.text_input(key="actual_input").value == actual
    assert at.text_input(key="predicted_input").value == predicted


# --- caps ---------------------------------------------------------------------------------------

def test_too_many_distinct_ratings_is_refused_with_the_reason():
    """Cap: more than MAX_RATINGS ratings on the scale -> the translated too_many_ratings message,
    the typed text kept, the last valid walkthrough still shown."""
    at = open_app("walkthrough", lang="es")
    text = ", ".join(str(k) for k in range(MAX_RATINGS + 1))
    type_ratings(at, text, text)
    assert_clean(at)
    error = InputError("too_many_ratings", count=MAX_RATINGS + 1, limit=MAX_RATINGS)
    assert shown("es", error) in [e.value for e in at.error]
    assert at.text_input(key="actual_input").value == text
    assert kappa_shown(at, "es") == format_number(
        walkthrough(state.DEFAULTS["actual"], state.DEFAULTS["predicted"]).kappa, "es")


def test_too_many_items_is_refused_with_the_reason(monkeypatch):
    """Cap: more than MAX_ITEMS items -> too_many_items, translated. The real cap (10 million) is
    checked on the parser; the page is checked with the cap lowered to keep the test fast."""
    from qwk_explained.core import limits

    with pytest.raises(InputError) as raised:
        parse_vector("1 " * (limits.MAX_ITEMS + 1))
    assert raised.value.code == "too_many_items"
    monkeypatch.setattr(limits, "MAX_ITEMS", 50)
    at = open_app("walkthrough", lang="tr")
    text = " ".join(["1", "2"] * 40)
    type_ratings(at, text)
    assert_clean(at)
    assert shown("tr", InputError("too_many_items", count=80, limit=50)) in [
        e.value for e in at.error]
    assert at.text_input(key="actual_input").value == text


def test_upload_size_cap_and_safe_settings_are_in_the_config():
    """The deployment config caps uploads (room for a 1,000,000-pair CSV, far below the 200 MB
    default) and every setting in it is a real Streamlit option with an accepted value."""
    from streamlit import config as st_config

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    settings_file = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    one_million_pairs_mb = len(b"10,10\r\n") * 1_000_000 / 2**20
    assert one_million_pairs_mb < settings_file["server"]["maxUploadSize"] <= 50
    assert settings_file["client"]["showErrorDetails"] == "none"
    assert settings_file["server"]["enableXsrfProtection"] is True
    assert settings_file["browser"]["gatherUsageStats"] is False
    accepted = {e.value for e in st_config.ShowErrorDetailsConfigOptions}
    assert settings_file["client"]["showErrorDetails"] in accepted
    assert settings_file["client"]["toolbarMode"] in ("auto", "developer", "viewer", "minimal")
    options = st_config.get_config_options()

    def keys(table, prefix):  # nested tables such as [theme.light] give dotted option names
        for name, value in table.items():
            if isinstance(value, dict):
                yield from keys(value, f"{prefix}{name}.")
            else:
                yield f"{prefix}{name}"

    for key in keys(settings_file, ""):
        assert key in options, f"{key} is not a Streamlit option"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_vectors_go_in_the_url_the_short_way_until_even_that_is_too_long(lang):
    """Cap: vectors longer than MAX_URL_VECTOR_CHARS go in the link in the compact form (``v``,
    the same ratings); vectors whose compact form is longer than links.MAX_PACKED_CHARS are not
    put in the link (browsers cut long URLs) and the share caption explains it; a short vector
    goes back into the link as typed."""
    at = open_app("walkthrough", lang=lang)
    long_text = ", ".join(["1", "2", "3"] * (state.MAX_URL_VECTOR_CHARS // 6 + 10))
    assert len(long_text) > state.MAX_URL_VECTOR_CHARS
    type_ratings(at, long_text, long_text)
    assert_clean(at)
    assert "actual" not in at.query_params and "predicted" not in at.query_params
    ratings = parse_vector(long_text).tolist()
    assert [v.tolist() for v in links.unpack_vectors(at.query_params["v"])] == [ratings] * 2
    assert t(lang, "frame.share_help") in [c.value for c in at.caption]
    too_long = [state.vector_text(v) for v in random_ratings(9000, 11, 0.5, seed=1)]
    type_ratings(at, too_long[0], too_long[1])
    assert_clean(at)
    assert not {"actual", "predicted", "v", "ex"} & set(at.query_params)
    assert t(lang, "frame.share_too_long") in [c.value for c in at.caption]
    type_ratings(at, "1, 2", "2, 1")
    assert at.query_params["actual"] == "1,2"
    assert t(lang, "frame.share_help") in [c.value for c in at.caption]


# --- nothing lost ---------------------------------------------------------------------------------

def view(at) -> dict:
    """What a reload must give back: the link, the vectors, the settings, the language."""
    widgets = {w.key: w.value for kind in ("text_input", "radio") for w in at.get(kind)
               if w.key in ("actual_input", "predicted_input", "weights_input",
                            "scale_mode_input")}
    return {"url": dict(at.query_params), "lang": at.selectbox(key="lang").value, **widgets}


def _ratings(text: str) -> list[int] | str:
    try:
        return parse_vector(text).tolist()
    except InputError as error:
        return error.code


VALID_VECTORS = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2,
                         max_size=12).map(lambda rows: (", ".join(str(a) for a, _ in rows),
                                                        ", ".join(str(p) for _, p in rows)))


@settings(FEW, max_examples=12)
@example(page="walkthrough", lang="es", vectors=("1 2 3 4", "1 2 3 3"), weights="linear",
         scale="observed", steps=0)
@given(page=st.sampled_from(PAGE_SLUGS), lang=st.sampled_from(list(LANGUAGES)),
       vectors=VALID_VECTORS | st.tuples(VECTOR_TEXT, VECTOR_TEXT),
       weights=st.sampled_from(WEIGHTINGS), scale=st.sampled_from(["range", "observed"]),
       steps=st.integers(0, 8))
def test_reloading_the_link_restores_the_same_view(page, lang, vectors, weights, scale, steps):
    """User flow: set up a view, reload its URL in a new session -> same page, vectors, settings,
    language, step."""
    at = open_app("walkthrough", lang=lang)
    type_ratings(at, vectors[0], vectors[1])
    at.radio(key="weights_input").set_value(weights).run()
    at.radio(key="scale_mode_input").set_value(scale).run()
    at.switch_page(f"pages/{page}.py").run()
    for _ in range(steps if page == "step_by_step" else 0):
        if at.button(key="step_next").disabled:  # the last step, or nothing to step through
            break
        at.button(key="step_next").click().run()
    assert_clean(at)
    before = view(at)
    fits = all(len(" ".join(v.split())) <= state.MAX_URL_VECTOR_CHARS for v in vectors)
    reloaded = open_app(page, **before["url"])
    assert_clean(reloaded)
    after = view(reloaded)
    if not fits:  # the share box said so: the link holds settings and language, not ratings
        for url in (before["url"], after["url"]):
            url.pop("actual", None), url.pop("predicted", None)
    for key in ("actual_input", "predicted_input"):
        if key in before:
            typed, restored = before.pop(key), after.pop(key)
            if fits:  # the link holds the typed text with commas for spaces: the same ratings
                assert restored == state.link_vector(" ".join(typed.split()))
                before_ratings, after_ratings = _ratings(typed), _ratings(restored)
                assert isinstance(after_ratings, list) == isinstance(before_ratings, list)
                if isinstance(before_ratings, list):  # valid stays the same ratings
                    assert after_ratings == before_ratings
    assert after == before
    if page == "step_by_step":
        assert reloaded.session_state["shown_step"] == at.session_state["shown_step"]


ACTIONS = st.one_of(
    st.tuples(st.just("page"), st.sampled_from(PAGE_SLUGS)),
    st.tuples(st.just("lang"), st.sampled_from(list(LANGUAGES))),
    st.tuples(st.just("weights"), st.sampled_from(WEIGHTINGS)),
    st.tuples(st.just("scale"), st.sampled_from(["range", "observed"])),
    st.tuples(st.sampled_from(["actual", "predicted"]), VALID_VECTORS.map(lambda v: v[0])),
    st.tuples(st.just("step"), st.sampled_from([1, -1])),
)


@settings(FEW, max_examples=8)
@given(actions=st.lists(ACTIONS, min_size=3, max_size=8))
def test_switching_pages_and_languages_in_any_order_keeps_every_value(actions):
    """User flow: pages, languages, settings and edits in random order; after every step the
    session and the widgets on screen still hold every value (vectors, weights, scale, step)."""
    at = open_app("walkthrough", lang="en")
    model = {"actual": state.DEFAULTS["actual"], "predicted": state.DEFAULTS["predicted"],
             "weights": "quadratic", "scale": "range", "lang": "en", "step": None}
    page = "walkthrough"
    for action, value in actions:
        keys = {w.key for w in at.text_input}
        if action == "page":
            at.switch_page(f"pages/{value}.py").run()
            page = value
        elif action == "lang":
            at.selectbox(key="lang").set_value(value).run()
        elif action in ("weights", "scale"):
            if action not in PAGE_SETTINGS[page]:  # the page does not show that setting
                continue
            at.radio(key=f"{action}_input" if action == "weights" else "scale_mode_input"
                     ).set_value(value).run()
        elif action in ("actual", "predicted"):
            if f"{action}_input" not in keys:
                continue
            enter_text(at, "text_input", f"{action}_input", value)
        elif action == "step":
            if page != "step_by_step":
                continue
            button = "step_next" if value > 0 else "step_prev"
            if at.button(key=button).disabled:
                continue
            at.button(key=button).click().run()
        if action in model and action != "step":
            model[action] = value
        if action == "step":
            model["step"] += value
        elif page == "step_by_step" and model["step"] is None:
            model["step"] = at.session_state["shown_step"]
        assert_clean(at)
        session = at.session_state
        for key in ("actual", "predicted", "weights", "scale", "lang"):
            assert session[key] == model[key], (actions, key)
        assert at.selectbox(key="lang").value == model["lang"]
        if "weights" in PAGE_SETTINGS[page]:
            assert at.radio(key="weights_input").value == model["weights"]
        if "scale" in PAGE_SETTINGS[page]:
            assert at.radio(key="scale_mode_input").value == model["scale"]
        for name in ("actual", "predicted"):
            if any(w.key == f"{name}_input" for w in at.text_input):
                assert at.text_input(key=f"{name}_input").value == model[name]
        if model["step"] is not None:
            assert session["shown_step"] == model["step"]
        if page == "step_by_step":
            assert at.query_params["step"] == str(model["step"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_text_over_the_field_cap_is_refused_with_the_upload_suggested(monkeypatch, lang):
    """A rating field takes at most TYPED_MAX_CHARS characters (max_chars: the browser drops a
    longer paste, so the websocket message of both fields stays under Streamlit's limit, over
    which it closes the session; the server cuts a longer text from another client). A full
    field is not read (its last number may be cut): a translated message says so beside it, the
    text stays, the other field keeps its count. The cap is lowered here to keep it fast."""
    from qwk_app import compute

    monkeypatch.setattr(compute, "TYPED_MAX_CHARS", 60)
    at = open_app("walkthrough", lang=lang)
    field = at.text_input(key="actual_input")
    assert field.max_chars == 60
    text = ("1, 2, 3, " * 10)[:60]  # a longer text is cut here by Streamlit's server
    enter_text(at, "text_input", "actual_input", text)
    assert_clean(at)
    refused = shown(lang, InputError("text_too_long", limit=60))
    assert [e.value for e in at.error] == [refused]
    assert at.text_input(key="actual_input").value == text
    predicted = len(parse_vector(state.DEFAULTS["predicted"]))
    count = t(lang, "inputs.count", count=format_number(predicted, lang))
    assert count in [c.value for c in at.caption]  # the other field is still read
    type_ratings(at, "1, 2, 3")  # back under the cap: read again
    assert not at.error


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fields_help_states_their_cap(lang):
    """A browser ignores a paste over the cap without a word, so each field's help states the
    cap, from the constant, as the language writes numbers: the characters and about how many
    one-digit ratings (with their separators) they hold."""
    from qwk_app import compute

    at = open_app("walkthrough", lang=lang)
    assert_clean(at)
    assert compute.TYPED_MAX_RATINGS * 3 - 2 < compute.TYPED_MAX_CHARS  # "3, 3, ..., 3" fits
    chars = format_number(compute.TYPED_MAX_CHARS, lang)
    ratings = format_number(about(compute.TYPED_MAX_RATINGS), lang)
    for key in ("actual_input", "predicted_input"):
        field = at.text_input(key=key)
        assert field.max_chars == compute.TYPED_MAX_CHARS
        assert chars in field.help and ratings in field.help, field.help
        assert field.help == t(lang, "inputs.field_help", limit=compute.TYPED_MAX_CHARS,
                               count=about(compute.TYPED_MAX_RATINGS))


def test_the_field_cap_keeps_a_rerun_under_the_websocket_limit():
    """Both rating fields at their cap, at 4 bytes a character, fit in one message under
    server.maxWidgetStateSize with room for the other widgets."""
    from qwk_app.compute import TYPED_MAX_CHARS

    tomllib = pytest.importorskip("tomllib")
    server = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))["server"]
    assert 2 * 4 * TYPED_MAX_CHARS + 1_000_000 <= server["maxWidgetStateSize"] * 1_000_000
    assert 3 * 2_000_000 <= TYPED_MAX_CHARS  # 2,000,000 one-digit ratings ("3, ") fit
