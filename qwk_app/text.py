"""Text in the session's language: translated strings, numbers and error messages."""

from __future__ import annotations

from typing import Any

import streamlit as st

from qwk_explained import InputError
from qwk_explained.i18n import error_message, t
from qwk_explained.numbers import format_latex, format_number

from . import state


def tr(key: str, /, **params: Any) -> str:
    """The string ``key`` in the session's language, with ``params`` filled in."""
    return t(state.lang(), key, **params)


def num(value: float | int | None, decimals: int = 4) -> str:
    """A number as the session's language writes it (decimal comma in Spanish and Turkish)."""
    return format_number(value, state.lang(), decimals)


def tex(value: float | int | None, decimals: int = 4) -> str:
    """A number for a LaTeX formula (``0{,}25`` in Spanish and Turkish)."""
    return format_latex(value, state.lang(), decimals)


def error_text(error: InputError) -> str:
    return error_message(state.lang(), error)


def show_error(error: InputError | None) -> None:
    """A translated input problem, right where it is called (next to the field that is wrong)."""
    if error is not None:
        st.error(error_text(error), icon=":material/error:")
