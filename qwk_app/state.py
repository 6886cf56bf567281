"""Shared state of one user's session, and its mirror in the URL.

Canonical values live in ``st.session_state`` under the keys below (never widget keys that depend on
the language, never module globals). A new session (a first visit, a reload, a shared link) reads
them once from the URL; every run writes them back, so the address bar always holds a link to the
current view. Widgets hold copies under their own keys (``<key>_input``), so a widget that is not on
the current page cannot take its value with it when Streamlit cleans up unused widget state.

A setting chosen from a fixed set (the weighting, the scale, the language, a page's mode or
level...) is a :class:`Choice`: kept as its code, never as a label, and every value that would
become it, from a widget, the URL or the session, is checked against its set first
(:func:`checked`). A radio whose labels change with the language sends back the label it showed
before the switch (Streamlit 1.67), and a forged message sends anything; neither gets in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, get_args
from urllib.parse import urlencode

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_ABS_RATING
from qwk_explained.core.parse import parse_vector, shorten
from qwk_explained.core.types import SCALES, WEIGHTINGS, Scale, Weighting, WeightsName
from qwk_explained.present.languages import DEFAULT_LANGUAGE, LANGUAGES, resolve_language
from qwk_explained.teaching.custom_weights import parse_weights_text, weights_text

from . import links
from .editor import Editor

#: Where state lives: ``st.session_state``, or a plain ``dict`` when a page's state machine runs in
#: a unit test (Streamlit's keys may be ``str`` or ``int``, hence ``Any``).
Session = MutableMapping[Any, Any]

T = TypeVar("T")


def checked(value: object, options: Sequence[T]) -> T | None:
    """``value`` if it is one of ``options``, else ``None``: the one check every choice goes
    through before it is kept, whatever brought it (a widget, the URL, the session).

    One of the options means equal *and* of the same type, so a label is not its code, ``True``
    is not ``1`` and ``"1"`` is not ``1``; an unhashable or array value is simply not one.

    >>> checked("linear", ("quadratic", "linear")), checked("Linear", ("quadratic", "linear"))
    ('linear', None)
    >>> checked(True, (0, 1)), checked(1, (0, 1)), checked([1], (0, 1))
    (None, 1, None)
    """
    for option in options:
        if type(value) is type(option) and value == option:
            return option
    return None


@dataclass(frozen=True)
class Choice(Generic[T]):
    """A setting that is one of a fixed set of codes, kept under ``key`` in a session, and the
    widget that shows it (``<key>_input``, or ``widget`` when given).

    The widget's labels may change with the language, so the widget is given the setting's code
    right before it is drawn (:meth:`show`): it then shows this run's label, and the browser
    sends that label back, never the label of a language that is gone. Its ``on_change``
    (:meth:`commit`) keeps the value only when it is one of the codes.
    """

    key: str
    options: tuple[T, ...]
    default: T
    widget: str = ""

    @property
    def widget_key(self) -> str:
        """The key of the widget that shows this setting."""
        return self.widget or f"{self.key}_input"

    def read(self, value: object) -> T | None:
        """``value`` if it is one of the codes (a value from the URL, a widget...), else None."""
        return checked(value, self.options)

    def get(self, session: Session) -> T:
        """The setting: the session's value when it is one of the codes, else the default."""
        value = self.read(session.get(self.key))
        return self.default if value is None else value

    def set(self, session: Session, value: object) -> bool:
        """Keep ``value`` (and show it in the widget) if it is one of the codes; whether it was."""
        code = self.read(value)
        if code is None:
            return False
        session[self.key] = code
        if self.widget_key != self.key:
            session[self.widget_key] = code
        return True

    def show(self, session: Session, value: T | None = None) -> str:
        """Right before the widget is drawn: give it the setting's code (or ``value``, a code
        worked out from other settings); returns the widget's key."""
        session[self.widget_key] = self.get(session) if value is None else value
        return self.widget_key

    def commit(self, session: Session) -> None:
        """The widget's ``on_change``: its value becomes the setting if it is one of the codes.
        Anything else (an old language's label, a forged value) leaves the setting as it was,
        and the next draw shows it again."""
        self.set(session, session.get(self.widget_key))


#: The language (the sidebar's select box is ``lang``, as the language is named in links).
LANGUAGE: Choice[str] = Choice("language", tuple(LANGUAGES), DEFAULT_LANGUAGE, widget="lang")
#: The weighting shared by the pages (the sidebar's radio).
WEIGHTS: Choice[WeightsName] = Choice("weights", (*WEIGHTINGS, "custom"), "quadratic")
#: The scale convention; no widget of its own (the sidebar's scale radio, :data:`SCALE_MODE`,
#: sets it).
SCALE: Choice[Scale] = Choice("scale", SCALES, "range", widget="scale")

#: Defaults of the shareable state (also what a bare URL shows: the Spanish seed's worked example).
DEFAULTS: dict[str, Any] = {
    "actual": "4, 4, 3, 4, 4, 4, 1, 1, 2, 1",
    "predicted": "0, 2, 1, 0, 0, 0, 1, 1, 2, 1",
    "weights": WEIGHTS.default,
    "scale": SCALE.default,
    "min": None,
    "max": None,
    "w": None,
    # Presenter mode's "compute it together": kappa hidden until the class reaches its step.
    "together": True,
}
#: The keys that may carry the two vectors: as typed, or the short way (:func:`vector_params`).
VECTOR_PARAMS = ("actual", "predicted", links.EXAMPLE_PARAM, links.VECTORS_PARAM)
#: Shareable keys in the order they appear in the URL.
URL_KEYS = ("lang", *VECTOR_PARAMS, "weights", "scale", "min", "max", "w")
#: Page-specific keys a page may add to the URL (``share``); read on session start like the rest.
PAGE_URL_KEYS = ("step", "table", "seed", "cell", "mode", "level", "first", "kappa0",
                 "class", "key", "me")
#: Page parameters that are secrets of one browser (a class's teacher key, a student's token):
#: in that browser's own address bar, never in a link it shares.
SECRET_PARAMS = ("key", "me")
#: ``?present=1`` opens the app in presenter mode (the teacher's own link; never in shared ones).
PRESENTER_PARAM = "present"
#: Vectors longer than this (in characters) stay out of the URL: browsers and proxies cut long URLs.
MAX_URL_VECTOR_CHARS = 3000
#: A typed text longer than this is not squeezed to see whether it fits (squeezing a paste of
#: millions of ratings held every other session 0.3 s, on every rerun of its session): once
#: squeezed it would still be longer than :data:`MAX_URL_VECTOR_CHARS` unless nine tenths of it
#: were spaces.
_SQUEEZED_MAX_CHARS = 10 * MAX_URL_VECTOR_CHARS
#: The vectors' short form for links, kept with the two texts it was made from.
_PACKED = "_qwk_packed"

_INIT = "_qwk_initialised"
#: The page this run draws (its URL path), set by the frame before the page runs.
PAGE_KEY = "_qwk_page"
_DRAWN_ON = "_qwk_drawn_on"
_UNDO = "_qwk_undo"
#: Replaced inputs kept for undo (each a few vectors of text).
UNDO_DEPTH = 10
#: The inputs an example, a random draw or a moved item replaces, and undo restores.
UNDOABLE = ("actual", "predicted", "scale", "min", "max", "upload")
#: What can replace the inputs and be undone (``undo.<action>`` in the locales says what it did).
UndoAction = Literal["example", "random", "upload", "move"]
_PROBLEMS = "_qwk_url_problems"
_PAGE_PARAMS = "_qwk_page_params"
#: The last valid result (:func:`qwk_app.compute.current` keeps it): shown while the input has a
#: problem, and the scale an explicit range starts from.
LAST_VALID = "last_valid"
#: Set when the two typed lists had different lengths (one being typed), until the walkthrough
#: measures its next change (:func:`qwk_app.render.track_change`).
LENGTHS_DIFFERED = "_qwk_lengths_differed"

#: Lowest and highest rating a number field of the app takes (the sidebar's ends, the table
#: editor's cells, a typed table's first rating): any rating a class uses, within reason.
RATING_RANGE = (-1000, 1000)
#: The table editor of the two rating vectors: typed text is its canonical state, so every change
#: of the text from code draws it afresh (:meth:`Editor.redraw`).
VECTOR_TABLE = Editor("editor")

#: Scale choices in the sidebar: the two conventions, plus a range with explicit ends.
ScaleMode = Literal["range", "observed", "explicit"]
SCALE_MODES: tuple[ScaleMode, ...] = get_args(ScaleMode)
#: The sidebar's scale radio: not the mirror of one canonical value but of three (scale, min and
#: max): it is shown with :func:`scale_mode` and changes them through :func:`set_scale_mode`.
SCALE_MODE: Choice[ScaleMode] = Choice("scale_mode", SCALE_MODES, "range")


def init_session() -> None:
    """On a session's first run, fill the state from the URL, the browser's language, defaults."""
    state = st.session_state
    if state.get(_INIT):
        state[_PAGE_PARAMS] = {}
        return
    params = st.query_params
    problems: list[InputError] = []
    LANGUAGE.set(state, resolve_language(st.context.locale))
    for name, choice, code in (("lang", LANGUAGE, "unknown_language"),
                               ("weights", WEIGHTS, "unknown_weights"),
                               ("scale", SCALE, "unknown_scale")):
        value = params.get(name)
        if value is not None and not choice.set(state, value):
            problems.append(InputError(code, value=shorten(value),
                                       choices=", ".join(map(str, choice.options))))
    state.setdefault("weights", WEIGHTS.default)
    state.setdefault("scale", SCALE.default)
    for key in ("actual", "predicted"):
        state[key] = params.get(key, DEFAULTS[key])
    short = _short_vectors(params, problems)
    if short is not None:
        state["actual"], state["predicted"] = map(vector_text, short)
    # A custom weighting comes with its matrix (``w``), checked here like the codes above.
    state["w"] = None
    if state["weights"] == "custom":
        try:
            state["w"] = link_weights(params.get("w"))
        except InputError as error:
            problems.append(error)
            WEIGHTS.set(state, WEIGHTS.default)
    for key in ("min", "max"):
        state[key] = _url_rating(key, params.get(key), problems)
    for key in PAGE_URL_KEYS:
        if key in params:
            state[f"url_{key}"] = params.get(key)
    state["presenter"] = params.get(PRESENTER_PARAM) == "1"
    state["upload"] = None
    state[_PROBLEMS] = problems
    state[_PAGE_PARAMS] = {}
    state[_INIT] = True


def _short_vectors(params: Any, problems: list[InputError]
                   ) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """The vectors a short link holds (``v``, else ``ex``; either wins over ``actual`` and
    ``predicted``), or ``None`` with the problem kept."""
    try:
        if (packed := params.get(links.VECTORS_PARAM)) is not None:
            return links.unpack_vectors(packed)
        if (name := params.get(links.EXAMPLE_PARAM)) is not None:
            example = links.read_example(name)
            return np.array(example.actual), np.array(example.predicted)
    except InputError as error:
        problems.append(error)
    return None


_URL_INTEGER = re.compile(r"[+-]?[0-9]+")


def _url_rating(name: str, value: str | None, problems: list[InputError]) -> int | None:
    """An end of the scale from the link (``min``, ``max``), or ``None`` with the problem kept.

    Read by its digits before ``int()``, which refuses more than 4,300 of them.
    """
    if value is None or value == "":
        return None
    text = value.strip()
    if not _URL_INTEGER.fullmatch(text):
        problems.append(InputError("link_not_integer", parameter=name, value=shorten(value)))
        return None
    digits = text.lstrip("+-").lstrip("0") or "0"
    if len(digits) > len(str(MAX_ABS_RATING)) or int(digits) > MAX_ABS_RATING:
        problems.append(InputError("link_too_large", parameter=name, value=shorten(value),
                                   limit=MAX_ABS_RATING))
        return None
    return -int(digits) if text.startswith("-") else int(digits)


def link_weights(text: str | None) -> str:
    """A link's custom matrix (``w``) as kept: checked cell by cell, written back the short way.

    Its size is checked against the scale only when kappa is computed (the scale depends on the
    ratings, which may change first); a matrix that is not one raises the reason's ``InputError``.
    """
    if not text:
        raise InputError("weights_custom_missing")
    return weights_text(parse_weights_text(text, text.count(";") + 1))


def url_problems() -> list[InputError]:
    """Problems found in the URL of this session's first visit (shown once, then forgotten)."""
    return st.session_state.pop(_PROBLEMS, [])


def lang() -> str:
    """The session's language (English until the frame has set one)."""
    return LANGUAGE.get(st.session_state)


def share(key: str, value: Any) -> None:
    """Put a page-specific value (``step``, ``table``...) into this run's URL."""
    st.session_state.setdefault(_PAGE_PARAMS, {})[key] = value


def url_value(key: str, default: Any = None, *, session: Session | None = None) -> Any:
    """A page-specific value that arrived in the session's first URL (``?step=3``), read once.

    ``session`` is ``st.session_state`` unless given: a page's state machine passes the mapping
    it works on, so it runs in a unit test without a Streamlit script.
    """
    return _session(session).pop(f"url_{key}", default)


def write_url() -> None:
    """Mirror the shareable state into the address bar (only when it changed, to avoid reruns)."""
    state = st.session_state
    wanted: dict[str, str] = {"lang": lang()}
    wanted.update(vector_params(state))
    for key in ("weights", "scale", "min", "max"):
        value = state.get(key)
        if value is not None:
            wanted[key] = str(value)
    matrix = settings(state).matrix
    if matrix is not None:
        wanted["w"] = matrix
    # A page value of the first link that no page has read yet (``cell`` while there is nothing
    # valid to follow it on) stays in the link, so a reload still finds it.
    unread = {key: state[f"url_{key}"] for key in PAGE_URL_KEYS if f"url_{key}" in state}
    for key, value in {**unread, **state.get(_PAGE_PARAMS, {})}.items():
        if value is not None:
            wanted[key] = str(value)
    if state.get("presenter"):
        wanted[PRESENTER_PARAM] = "1"
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def vector_params(session: Session, *, short: bool = False) -> dict[str, str]:
    """The two vectors as a link carries them (none for an upload).

    The address bar keeps them readable (``actual=4,4,3&predicted=0,2,1``) while each fits in
    :data:`MAX_URL_VECTOR_CHARS`. A shared link (``short``), and an address bar whose vectors are
    too long to read, carry them the short way when that is shorter: the bundled example's name
    (``ex=seed_es``) or the compact form (``v=``, :func:`links.pack_vectors`), so the QR code
    stays coarse enough to scan from the back of a room. Text that does not parse yet (half
    typed) goes as typed, each vector if it fits.
    """
    if session.get("upload") is not None:
        return {}
    texts: dict[str, str] = {}
    for key in ("actual", "predicted"):
        text = str(session.get(key, ""))
        if len(text) <= _SQUEEZED_MAX_CHARS:
            text = " ".join(text.split())
        if len(text) <= MAX_URL_VECTOR_CHARS:
            texts[key] = link_vector(text)
    if len(texts) == 2 and not short:
        return texts
    packed = _packed(session)
    if packed is not None and (len(texts) < 2 or len(urlencode(packed)) < len(urlencode(texts))):
        return packed
    return texts


def _packed(session: Session) -> dict[str, str] | None:
    """The short form of the session's vectors (parsed once per pair of texts), or ``None``."""
    texts = (str(session.get("actual", "")), str(session.get("predicted", "")))
    kept = session.get(_PACKED)
    if kept is None or kept[0] != texts:
        kept = (texts, _pack(*texts))
        session[_PACKED] = kept
    packed: dict[str, str] | None = kept[1]
    return packed


def _pack(actual_text: str, predicted_text: str) -> dict[str, str] | None:
    """``{"ex": name}`` or ``{"v": compact form}`` for two valid vectors of the same length whose
    compact form fits in :data:`links.MAX_PACKED_CHARS`; ``None`` for anything else.

    Texts longer than a link could hold are not parsed: this runs on every rerun.
    """
    if max(len(actual_text), len(predicted_text)) > _SQUEEZED_MAX_CHARS:
        return None
    try:
        actual, predicted = parse_vector(actual_text), parse_vector(predicted_text)
    except InputError:
        return None
    if len(actual) != len(predicted):
        return None
    example = links.example_named_by(actual, predicted)
    if example is not None:
        return {links.EXAMPLE_PARAM: example.name}
    packed = links.pack_vectors(actual, predicted)
    return {links.VECTORS_PARAM: packed} if len(packed) <= links.MAX_PACKED_CHARS else None


def link_vector(text: str) -> str:
    """A typed vector as it goes into a link: commas, no spaces, the same ratings.

    Spaces next to a separator are dropped (``4, 4`` -> ``4,4``); spaces that are the separator
    become commas (``1 2 3`` -> ``1,2,3``, not ``123``), so the link parses to the same ratings.
    """
    return _SPACE.sub(",", _SPACED_SEPARATOR.sub(r"\1", text.strip()))


_SPACED_SEPARATOR = re.compile(r"\s*([,;、])\s*")
_SPACE = re.compile(r"\s+")


def url_fits() -> bool:
    """Whether both vectors are in a shared link (an upload or a very long paste is not)."""
    carried = vector_params(st.session_state, short=True)
    return len(carried) == 2 or links.EXAMPLE_PARAM in carried or links.VECTORS_PARAM in carried


def bind(key: str, *, session: Session | None = None) -> str:
    """The widget key mirroring canonical ``key``, filled from the canonical value when missing."""
    session = _session(session)
    widget_key = f"{key}_input"
    if widget_key not in session:
        session[widget_key] = session.get(key, DEFAULTS.get(key))
    return widget_key


def rebind(key: str) -> str:
    """Like :func:`bind`, but refill the widget from the canonical value when a page needs it.

    For widgets that several pages draw under the same key (the two rating texts): Streamlit
    gives each page its own widget id, so right after a page switch the key still names the
    other page's widget, and the new widget would start empty; it is refilled then, and whenever
    code changed the canonical value. Otherwise the widget is left alone: a value written from
    code is sent back to the browser, which replaces the field's text with it: that
    would move the caret and drop what was typed while the page reran.
    """
    session = st.session_state
    widget_key = f"{key}_input"
    canonical = session.get(key, DEFAULTS.get(key))
    drawn_on: dict[str, Any] = session.setdefault(_DRAWN_ON, {})
    page = session.get(PAGE_KEY)
    if drawn_on.get(widget_key) != page or session.get(widget_key) != canonical:
        session[widget_key] = canonical
    drawn_on[widget_key] = page
    return widget_key


def commit(key: str) -> Callable[[], None]:
    """An ``on_change`` callback copying a widget's value back to its canonical key."""

    def _copy() -> None:
        st.session_state[key] = st.session_state[f"{key}_input"]

    return _copy


def set_value(key: str, value: Any, *, session: Session | None = None) -> None:
    """Change a canonical value from code (a preset, the table editor); keep its widget in step."""
    session = _session(session)
    session[key] = value
    session[f"{key}_input"] = value


def set_vectors(actual: str, predicted: str, *, session: Session | None = None) -> None:
    """Replace both rating vectors (typed text), dropping any uploaded file."""
    session = _session(session)
    set_value("actual", actual, session=session)
    set_value("predicted", predicted, session=session)
    session["upload"] = None
    VECTOR_TABLE.redraw(session)


def _session(session: Session | None) -> Session:
    return st.session_state if session is None else session


def vector_text(values: NDArray[np.int64]) -> str:
    """Ratings as the text a user would type: ``4, 4, 3``."""
    return ", ".join(map(str, values.tolist()))


@dataclass(frozen=True)
class Settings:
    """The computation settings shared by every page."""

    weights: WeightsName
    scale: Scale
    min_rating: int | None
    max_rating: int | None
    #: The custom matrix as a link writes it, when ``weights`` is ``custom``.
    matrix: str | None = None

    @property
    def named(self) -> Weighting:
        """The weighting of the pages that know only the named ones (scikit-learn's conventions,
        the cut points' search): quadratic in place of a custom matrix, as those pages say."""
        return "quadratic" if self.weights == "custom" else self.weights

    def weighting(self, size: int | None = None) -> Weighting | NDArray[np.float64]:
        """What the engine takes: the weighting's name, or the custom matrix (checked against a
        scale of ``size`` ratings when given, so a matrix of the wrong size is named as such)."""
        if self.matrix is None:
            return self.named
        return parse_weights_text(self.matrix, self.matrix.count(";") + 1 if size is None
                                  else size)


def settings(session: Session | None = None) -> Settings:
    """The settings of this session, each checked against its set (an end of the scale:
    :func:`rating_end`); custom weights without a kept matrix (none was ever valid) are not a
    setting: quadratic is used."""
    session = _session(session)
    weights, matrix = WEIGHTS.get(session), session.get("w")
    if weights == "custom" and not isinstance(matrix, str):
        weights = "quadratic"
    return Settings(weights, SCALE.get(session), rating_end(session.get("min")),
                    rating_end(session.get("max")), matrix if weights == "custom" else None)


def rating_end(value: object) -> int | None:
    """An end of the scale as kept: a whole number within the engine's limit, else ``None``.

    >>> rating_end(3), rating_end(-2000), rating_end(2.0), rating_end(True), rating_end(10**10)
    (3, -2000, None, None, None)
    """
    return value if type(value) is int and abs(value) <= MAX_ABS_RATING else None


def scale_mode(session: Session) -> ScaleMode:
    """The sidebar's scale choice for the session's settings: explicit once an end is set."""
    current = settings(session)
    if current.min_rating is not None or current.max_rating is not None:
        return "explicit"
    return current.scale


def set_scale_mode(session: Session) -> None:
    """The scale radio's ``on_change``: a convention clears the ends; an explicit range starts
    from the ends of the scale shown (the last valid result's, else 0 to 4). A value that is no
    mode changes nothing."""
    mode = SCALE_MODE.read(session.get(SCALE_MODE.widget_key))
    if mode is None:
        return
    if mode == "explicit":
        last = session.get(LAST_VALID)
        labels = last.labels if last is not None else (0, 4)
        SCALE.set(session, "range")
        set_value("min", int(labels[0]), session=session)
        set_value("max", int(labels[-1]), session=session)
    else:
        SCALE.set(session, mode)
        set_value("min", None, session=session)
        set_value("max", None, session=session)


# --- undo ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replaced:
    """What an action replaced, to put back: the inputs, and what the action was (a locale key
    under ``undo.`` and its parameters), so the page can say what undo would undo."""

    values: dict[str, Any]
    action: UndoAction
    params: dict[str, Any]


def remember(action: UndoAction, *, session: Session | None = None, **params: Any) -> None:
    """Keep the current inputs before ``action`` replaces them (an example, a random draw...)."""
    session = _session(session)
    replaced = Replaced({key: session.get(key, DEFAULTS.get(key)) for key in UNDOABLE}, action,
                        params)
    stack: list[Replaced] = list(session.get(_UNDO, []))
    if replaced.values["upload"] is not None:
        # An upload's ratings weigh up to a few hundred MB: undo keeps the last one replaced.
        stack = [entry for entry in stack if entry.values["upload"] is None]
    stack.append(replaced)
    session[_UNDO] = stack[-UNDO_DEPTH:]


def last_replaced(*, session: Session | None = None) -> Replaced | None:
    """The most recent action that undo would take back, if any."""
    stack = _session(session).get(_UNDO) or []
    return stack[-1] if stack else None


def forget_replaced(*, session: Session | None = None) -> None:
    """Drop the undo history: the learner typed since, and undo would now lose that typing."""
    _session(session).pop(_UNDO, None)


def undo(*, session: Session | None = None) -> None:
    """Put back the inputs the last remembered action replaced (a button's ``on_click``)."""
    session = _session(session)
    stack: list[Replaced] = list(session.get(_UNDO, []))
    if not stack:
        return
    replaced = stack.pop()
    session[_UNDO] = stack
    for key, value in replaced.values.items():
        if key == "upload":
            session["upload"] = value
        else:
            set_value(key, value, session=session)
    VECTOR_TABLE.redraw(session)
