"""Writing to the terminal: text any terminal can show, whatever its encoding."""

from __future__ import annotations

from typing import TextIO


def write(stream: TextIO, text: str) -> None:
    """Write even to a terminal that cannot encode Chinese or ×: unknown characters become ?."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))
