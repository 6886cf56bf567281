"""Numbers as each language writes them (documented import path; see :mod:`.present.numbers`)."""

from __future__ import annotations

from .present.numbers import format_latex, format_number, format_percent

__all__ = ["format_latex", "format_number", "format_percent"]
