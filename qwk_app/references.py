"""The theory page's reference list, as markdown: the only links the app writes itself.

Every other markdown body escapes what it shows (:func:`qwk_app.text.escape_markdown`), and the
injection tests check that no page holds a link. These two lists are the exception: their links
are the addresses in :mod:`qwk_explained.present.sources`, fixed in the code, never user input.
"""

from __future__ import annotations

from qwk_explained.present import sources
from qwk_explained.present.i18n import t

from .text import escape_markdown


def _link(address: str) -> str:
    # The address itself as the link text, without its scheme: readable on a printed page too.
    return f"[{escape_markdown(address.split('://', 1)[-1].rstrip('/'))}]({address})"


def references_markdown(lang: str) -> str:
    """Each published work: its citation, what the app takes from it, and its DOI or address."""
    return "\n".join(
        f"- {escape_markdown(sources.cite(ref, lang))} {t(lang, f'theory.ref.{ref.code}')}"
        + (f" {_link(ref.link)}" if ref.link else "") for ref in sources.REFERENCES)


def sources_markdown(lang: str) -> str:
    """Each document an example comes from, described in ``lang``, with its address if known."""
    return "\n".join(
        "- " + t(lang, f"theory.source.{source.code}", title=source.title or "",
                 example=t(lang, f"presets.{source.example}") if source.example else "")
        + (f" {_link(source.link)}" if source.link else "") for source in sources.SOURCES)
