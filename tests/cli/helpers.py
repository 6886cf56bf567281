"""What the command-line tests share."""

from __future__ import annotations

import re


def flat(text: str) -> str:
    """Whitespace collapsed, as prose wrapped to the terminal width is compared: none at all next
    to a Han character or full-width mark (Chinese wraps between them, with or without a space
    at the break), one space elsewhere."""
    joined = " ".join(text.split())
    return re.sub(r"(?<=[^\x00-\u2e7f]) | (?=[^\x00-\u2e7f])", "", joined)
