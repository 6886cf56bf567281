"""Translations (the documented import path; the code lives in :mod:`.present.i18n`)."""

from __future__ import annotations

from .present.i18n import DEFAULT_LANGUAGE, LANGUAGES, error_message, load, message, t

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "error_message", "load", "message", "t"]
