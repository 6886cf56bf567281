"""The default output: the seven steps in the terminal, every formula with the user's numbers.

The terminal writes the walkthrough's one outline (:func:`qwk_explained.present.outline.outline`:
the header, the steps of the catalogue as every surface shows them, the statistics) as plain
text (:func:`qwk_explained.present.markup.plain_text`), at the terminal's width: nothing here
knows a step.
"""

from __future__ import annotations

import shutil
from typing import Any

from qwk_explained.core.resampling import Bootstrap
from qwk_explained.core.stats import KappaStatistics, KappaTest
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell, Scale
from qwk_explained.present import columns
from qwk_explained.present.i18n import t
from qwk_explained.present.markup import MAX_WIDTH, plain_text
from qwk_explained.present.numbers import format_number
from qwk_explained.present.outline import TERMINAL, Source, header_blocks, outline


def width() -> int:
    """The terminal's width, at most :data:`~qwk_explained.present.markup.MAX_WIDTH` columns
    (and at least 40)."""
    return max(40, min(shutil.get_terminal_size((MAX_WIDTH, 24)).columns, MAX_WIDTH))


class TerminalText:
    """Helpers bound to one language: numbers and sentences wrapped to the terminal."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def num(self, value: float | int) -> str:
        return format_number(value, self.lang)

    def __call__(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    def prose(self, key: str, **params: Any) -> str:
        """A translated sentence wrapped to the terminal."""
        return self.prose_text(self(key, **params))

    def prose_text(self, text: str) -> str:
        """Text wrapped to the terminal's width, measured in columns: a Han character takes two,
        and Chinese breaks between characters (:mod:`qwk_explained.present.columns`)."""
        return columns.fill(text, width())


def header_lines(tx: TerminalText, result: Walkthrough, scale: Scale) -> list[str]:
    """The terminal's header: the title, then what is compared, with which weighting and scale."""
    head = header_blocks(result, tx.lang, Source(scale=scale), TERMINAL)[:-1]  # not the layout
    return plain_text(head, width()).splitlines()


def render_text(result: Walkthrough, stats: KappaStatistics, lang: str, scale: Scale = "range",
                cell: Cell | None = None, boot: Bootstrap | None = None,
                test: KappaTest | None = None) -> str:
    """The whole walkthrough as terminal text in ``lang`` (what the CLI prints by default).

    ``scale`` is the convention the labels were built with (the result does not record it);
    ``cell`` (positions) is the one the steps work out, by default the app's first one; ``boot``
    and ``test`` (the bootstrap, the test against kappa0) follow the statistics when given.
    """
    blocks = outline(result, lang, Source(scale=scale), stats.confidence, cell=cell,
                     surface=TERMINAL, boot=boot, test=test)
    return plain_text(blocks, width())
