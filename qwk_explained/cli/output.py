"""Writing to the terminal: text any terminal can show, whatever its encoding."""

from __future__ import annotations

from typing import Protocol


class TextSink(Protocol):
    """Where text can be written: a terminal, a file, ``io.StringIO`` (typeshed's SupportsWrite)."""

    def write(self, text: str, /) -> object: ...


def write(stream: TextSink, text: str) -> None:
    """Write even to a terminal that cannot encode Chinese or ×: unknown characters become ?."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))
