"""Text in the session's language: translated strings, numbers and error messages."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from qwk_explained.core.errors import QwkError
from qwk_explained.present.i18n import message, t
from qwk_explained.present.numbers import (
    DECIMALS,
    format_label,
    format_latex,
    format_number,
    format_percent,
)

from . import state


def tr(key: str, /, **params: Any) -> str:
    """The string ``key`` in the session's language, with ``params`` filled in."""
    return t(state.lang(), key, **params)


def num(value: float | int | None, decimals: int = DECIMALS) -> str:
    """A number as the session's language writes it (decimal comma in Spanish and Turkish)."""
    return format_number(value, state.lang(), decimals)


def label(value: int) -> str:
    """A rating (or an item's number) as the session's language writes it, never grouped."""
    return format_label(value, state.lang())


def percent(value: float, decimals: int = 2) -> str:
    """A proportion as a percentage in the session's language (``95%``, ``95 %``, ``%95``)."""
    return format_percent(value, state.lang(), decimals)


def signed(value: float, decimals: int = DECIMALS) -> str:
    """A change, with its sign always written (``+0.0431``, ``-0.2``), as the language writes
    numbers."""
    text = num(value, decimals)
    return "+" + text if value > 0 and not text.startswith("+") else text


def tex(value: float | int | None, decimals: int = DECIMALS) -> str:
    """A number for a LaTeX formula (``0{,}25`` in Spanish and Turkish)."""
    return format_latex(value, state.lang(), decimals)


def error_text(error: QwkError) -> str:
    """Any of the project's errors as a sentence in the session's language."""
    return message(state.lang(), error)


#: Characters that start markdown (or Streamlit's ``:color[...]`` / ``:emoji:``) markup inside a
#: line. Plain tokens such as ``2.5``, ``-3`` or ``1e3`` contain none and are shown unchanged.
_MARKUP = re.compile(r"([\\`*_{}\[\]()#!<>$~|&:@])")
#: ``www.`` starts an autolink (GFM) without any of the characters above.
_AUTOLINK = re.compile(r"(?i)(www)\.")
#: A list marker (``- x``, ``+ x``, ``1. x``) where a value opens a message (Turkish word order).
_LIST_MARKER = re.compile(r"^(\s*\d{0,9})([-+.)])(?=\s|$)")


def escape_markdown(text: str) -> str:
    """``text`` as literal markdown: no emphasis, links, images, HTML, math or autolinks.

    Streamlit renders alert and markdown bodies as markdown, so a token a user typed (or put in a
    shared link) such as ``**x**`` or ``[a](https://...)`` would otherwise be rendered, not shown.
    A backslash before ASCII punctuation is that literal character (CommonMark), so the message
    reads exactly as typed. Line breaks become spaces, so a value cannot start a block of its own.
    """
    text = _AUTOLINK.sub(r"\1\\.", _MARKUP.sub(r"\\\1", " ".join(text.splitlines())))
    return _LIST_MARKER.sub(r"\1\\\2", text, count=1)


def _escaped(value: Any) -> Any:
    # A tuple is a list of names (the quantities a checker accepts): each one escaped.
    if isinstance(value, tuple):
        return tuple(_escaped(item) for item in value)
    return escape_markdown(value) if isinstance(value, str) else value


def error_markdown(error: QwkError) -> str:
    """The translated message for ``error`` with its text placeholders escaped for markdown."""
    params = {key: _escaped(value) for key, value in error.params.items()}
    return message(state.lang(), type(error)(error.code, **params))


def show_error(error: QwkError | None) -> None:
    """A translated input problem, right where it is called (next to the field that is wrong).

    The values quoted from the input are escaped (:func:`error_markdown`): they show as typed.
    """
    if error is not None:
        st.error(error_markdown(error), icon=":material/error:")
