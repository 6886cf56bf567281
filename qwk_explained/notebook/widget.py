"""The live widget: two rating vectors to edit, and O, w, E and kappa following every edit.

An anywidget (:class:`KappaExplorer`): its view is a small ES module shipped inside the package
(``explorer.js``, ``explorer.css``), so it runs offline, with no CDN and no server besides the
notebook's kernel. The kernel does all the work: it parses what the learner types with the
engine's parser, computes the walkthrough and writes the view's matrices and formula as HTML from
the same outline as the rich display (:mod:`qwk_explained.present.outline`, :mod:`.render`). The
browser only shows fields, menus and that HTML.

What was typed is the source of truth for each field: a bad entry stays in its field, with the
app's message under it in the chosen language, and the matrices keep showing the last valid
ratings (as on the app's walkthrough page). Setting ``actual`` or ``predicted`` from Python
rewrites the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from qwk_explained.core.errors import InputError, QwkError
from qwk_explained.core.parse import IntArray, parse_vector, shorten
from qwk_explained.core.steps import Walkthrough, walkthrough
from qwk_explained.core.types import WEIGHTINGS, is_weighting
from qwk_explained.core.validate import as_ratings
from qwk_explained.present.blocks import Block, Chart
from qwk_explained.present.catalogue import step
from qwk_explained.present.i18n import message, t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.outline import chart_blocks

from . import render

_HERE = Path(__file__).parent
#: The fields an error can belong to: one of the two vectors, or the pair (lengths, scale).
FIELDS = ("actual", "predicted", "pair")


def _as_text(values: Any) -> str:
    """What a field shows for ratings given from Python: text as it is (the parser says what is
    wrong with it, in the field), a vector of whole numbers joined. Anything else (a dict, a
    table, booleans, a masked array) is the engine's InputError, as for :func:`walkthrough`:
    joining it would show something else than what was given (a dict's keys, a flattened
    table)."""
    if isinstance(values, str):
        return values
    return ", ".join(map(str, as_ratings(values).tolist()))


class _Ratings(traitlets.TraitType[list[int], Any]):
    """Ratings set from Python, checked by the engine (one numpy pass, not a trait per item) and
    kept as a list of int; a value that is no ratings is a ``TraitError`` with the engine's
    sentence in the widget's language. The parser's own results are taken as they are."""

    default_value: list[int] = []
    allow_none = False
    info_text = "ratings"

    def validate(self, obj: Any, value: Any) -> list[int]:
        if obj._parsing:
            return list(value)
        try:
            return as_ratings(value).tolist()
        except InputError as error:
            raise traitlets.TraitError(message(str(obj.lang), error)) from None


def view_blocks(result: Walkthrough, lang: str) -> list[Block]:
    """What the widget shows below the fields: O, w and E as tables, then kappa worked out."""
    blocks: list[Block] = []
    for name in ("observed", "weights", "expected"):
        blocks += chart_blocks(Chart(name, result), lang)
    # Kappa's result and verdict as step 7 says them everywhere (no interval: the widget is for
    # trying ratings); the formula needs MathML (the notebook extra), else the value alone.
    roles = ("result", "verdict") if render.mathml_available() else ("verdict",)
    return blocks + [block for block in step("kappa").blocks(result, (0, 0), lang)
                     if block.role in roles]


class KappaExplorer(anywidget.AnyWidget):
    """Edit two rating vectors and watch O, w, E and kappa follow (see :func:`explore`).

    Traits, readable and settable from Python: ``actual``, ``predicted`` (lists of int: the
    last ratings that parsed; a value set from Python must be ratings, else a ``TraitError``
    says why in ``lang``), and, synced with the view, ``actual_text``, ``predicted_text`` (what
    the fields hold), ``weights``, ``lang``; read-only: ``kappa`` (``None`` when undefined, or
    before any valid pair) and ``errors`` (field -> message in ``lang``). The lists themselves
    are not sent to the view, which shows the text: a million ratings would be sent twice.
    """

    _esm = _HERE / "explorer.js"
    _css = _HERE / "explorer.css"

    actual = _Ratings()
    predicted = _Ratings()
    actual_text = traitlets.Unicode("").tag(sync=True)
    predicted_text = traitlets.Unicode("").tag(sync=True)
    weights = traitlets.Enum(WEIGHTINGS, default_value="quadratic").tag(sync=True)
    lang = traitlets.Enum(tuple(LANGUAGES), default_value="en").tag(sync=True)
    kappa = traitlets.Float(None, allow_none=True, read_only=True).tag(sync=True)
    errors = traitlets.Dict(read_only=True).tag(sync=True)
    #: Whether the view shows an older result than the fields (an input has a problem).
    stale = traitlets.Bool(False, read_only=True).tag(sync=True)
    #: The view's words in ``lang`` and its HTML, written by the kernel.
    _labels = traitlets.Dict().tag(sync=True)
    _view = traitlets.Unicode("").tag(sync=True)

    def __init__(self, actual: Any, predicted: Any, *, weights: str = "quadratic",
                 lang: str = "en") -> None:
        if not is_weighting(weights):
            raise InputError("unknown_weights", value=shorten(str(weights)),
                             choices=", ".join(WEIGHTINGS))
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise InputError("unknown_language", value=shorten(str(lang)),
                             choices=", ".join(LANGUAGES))
        self._problems: dict[str, QwkError] = {}
        self._result: Walkthrough | None = None
        self._parsing = False
        #: The last ratings each field parsed to, as the engine's vectors: the walkthrough is
        #: computed from them, not from the traits' lists (a million Python ints to convert on
        #: every change of weighting or language).
        self._vectors: dict[str, IntArray] = {}
        #: Whether the view follows changes: not while the constructor sets the traits one by one
        #: (each would compute the walkthrough again).
        self._ready = False
        super().__init__(weights=weights, lang=lang)
        with self.hold_sync():
            self.actual_text = _as_text(actual)
            self.predicted_text = _as_text(predicted)
            # A text equal to the trait's default ("") fires no change: read it here.
            for name in ("actual", "predicted"):
                if name not in self._vectors and name not in self._problems:
                    self._read(name, getattr(self, f"{name}_text"))
            self._ready = True
            self._refresh()

    # --- what the learner types ------------------------------------------------------------------

    @traitlets.observe("actual_text", "predicted_text")
    def _text_changed(self, change: dict[str, Any]) -> None:
        self._read(change["name"].removesuffix("_text"), change["new"])
        self._refresh()

    def _read(self, name: str, text: str) -> None:
        """Parse one field's text into its vector, or record its problem."""
        try:
            values = parse_vector(text)
        except InputError as error:
            self._problems[name] = error
        else:
            self._problems.pop(name, None)
            self._vectors[name] = values
            # The parsed list must not rewrite the field: "4, " is being typed, not "4".
            self._parsing = True
            try:
                self.set_trait(name, values.tolist())
            finally:
                self._parsing = False

    @traitlets.observe("actual", "predicted")
    def _ratings_set(self, change: dict[str, Any]) -> None:
        if self._parsing:
            return
        # Set from Python: the field shows the new ratings (which re-parses them).
        self.set_trait(f"{change['name']}_text", _as_text(change["new"]))

    @traitlets.observe("weights", "lang")
    def _settings_changed(self, change: dict[str, Any]) -> None:
        self._refresh()

    # --- the view --------------------------------------------------------------------------------

    def _compute(self) -> Walkthrough | None:
        """The walkthrough of the current ratings, or ``None`` with the problem recorded."""
        self._problems.pop("pair", None)
        if "actual" in self._problems or "predicted" in self._problems:
            return None
        try:
            return walkthrough(self._vectors["actual"], self._vectors["predicted"],
                               weights=self.weights)
        except InputError as error:
            self._problems["pair"] = error
            return None

    def _refresh(self) -> None:
        if not self._ready:
            return
        lang = str(self.lang)
        result = self._compute()
        if result is not None:
            self._result = result
        with self.hold_sync():
            self.set_trait("errors", {name: message(lang, self._problems[name])
                                      for name in FIELDS if name in self._problems})
            self.set_trait("stale", result is None and self._result is not None)
            self._labels = self._words(lang)
            if self._result is not None:
                self.set_trait("kappa", self._result.kappa)
                self._view = render.html_fragment(view_blocks(self._result, lang))

    @staticmethod
    def _words(lang: str) -> dict[str, Any]:
        return {
            "lang": lang,
            "actual": t(lang, "inputs.actual_label"),
            "predicted": t(lang, "inputs.predicted_label"),
            "help": t(lang, "inputs.text_help"),
            "hint": t(lang, "notebook.explorer_hint"),
            "weights": t(lang, "frame.weights"),
            "language": t(lang, "frame.language"),
            "stale": t(lang, "walkthrough.stale"),
            "weightings": {name: t(lang, f"common.weights.{name}") for name in WEIGHTINGS},
            "languages": {code: record.name for code, record in LANGUAGES.items()},
        }
