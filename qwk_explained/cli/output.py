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


def write_utf8(stream: TextSink, text: str) -> None:
    """Write ``text`` encoded as UTF-8 whatever the terminal's encoding, and flush it: a CSV file
    or JSON Lines is read by programs that expect UTF-8 (and a "?" would corrupt a name), and
    each line of a batch goes out as soon as it is graded."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (io.StringIO): text as it is
        stream.write(text)
    else:
        flush = getattr(stream, "flush", None)
        if flush is not None:
            flush()  # text written before must come first
        buffer.write(text.encode("utf-8"))
        buffer.flush()
