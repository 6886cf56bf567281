"""Text measured in columns of a terminal or a monospaced font: a Han character takes two, a
Latin letter one.

``len()`` counts characters, so text wrapped or aligned with it runs twice too wide in Chinese
and options in ``--help`` drift out of their column. Widths here follow Unicode's East Asian
Width property (``unicodedata.east_asian_width``: "W" and "F" characters take two columns,
combining marks none), and wrapping breaks at spaces and between Han characters, never before a
closing mark such as "，" or "）" nor after an opening one such as "（" (the line-breaking rule
Chinese typesetting calls 避头尾).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["collapse", "fill", "is_wide", "pad", "width", "wrap"]

#: Spaces that must not break a line: "95 %" in Spanish keeps its sign with its number.
_NO_BREAK = set("\u00a0\u202f\u2007\u2060")
#: Marks that may not start a line (they close something) or end one (they open something).
_CLOSING = set("，。、；：！？）》」』】〕”’…—,.;:!?)]}%")
_OPENING = set("（《「『【〔“‘([{")


def is_wide(char: str) -> bool:
    """Whether ``char`` takes two columns (Han characters, kana, full-width marks)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if is_wide(char) else 1


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal.

    >>> width("kappa"), width("二次加权 kappa"), width("，")
    (5, 14, 2)
    """
    return sum(_char_width(char) for char in text)


def pad(text: str, columns: int, *, right: bool = False) -> str:
    """``text`` aligned in ``columns`` columns, left or ``right`` (what ``str.ljust`` and
    ``str.rjust`` do for characters).

    >>> pad("评分", 6) + "|", pad("0,25", 6, right=True)
    ('评分  |', '  0,25')
    """
    padding = " " * max(columns - width(text), 0)
    return padding + text if right else text + padding


def _units(text: str) -> list[tuple[str, bool]]:
    """Unbreakable pieces of ``text``, each with whether a space came before it."""
    units: list[tuple[str, bool]] = []
    word, space = "", False
    for char in text:
        if char.isspace() and char not in _NO_BREAK:
            if word:
                units.append((word, space))
                word = ""
            space = True
        elif _char_width(char) == 2:
            if word:
                units.append((word, space))
                word, space = "", False
            units.append((char, space))
            space = False
        else:
            word += char
    if word:
        units.append((word, space))
    glued: list[tuple[str, bool]] = []
    for piece, spaced in units:
        previous = glued[-1] if glued else None
        if previous is not None and not spaced and _touching(previous[0], piece):
            glued[-1] = (previous[0] + piece, previous[1])
        elif previous is not None and spaced and _bound(previous[0], piece):
            glued[-1] = (previous[0] + " " + piece, previous[1])
        else:
            glued.append((piece, spaced))
    return glued


def _touching(before: str, after: str) -> bool:
    """Whether two pieces with no space between them stay together: a closing mark with what it
    closes, an opening one with what it opens, Latin letters in one word, and a no-break space
    with both its neighbours ("第 3 步")."""
    left, right = before[-1], after[0]
    return (right in _CLOSING or left in _OPENING or left in _NO_BREAK or right in _NO_BREAK
            or (_char_width(right) == 1 and _char_width(left) == 1))


def _bound(before: str, after: str) -> bool:
    """Whether a space between two pieces is no place to break a line.

    Next to a Han character the space is only the gap Chinese sets between Han and Latin text
    ("第 3 步", "50 个"): the Han characters around it give the line its breaks, so breaking there
    would strand a number away from its unit. Around an operator ("1 − num/den", "n = 10") a
    break splits a formula, and inside a short bracket ("[−1, 1]", "O[4, 0]") it splits an
    interval or a cell."""
    return (is_wide(before[-1]) or is_wide(after[0]) or before.rsplit(" ", 1)[-1] in _OPERATORS
            or after in _OPERATORS or _open_bracket(before))


#: Signs a formula keeps on one line with both their operands.
_OPERATORS = frozenset("−+×÷±·=≈<>≤≥")
#: Longest bracketed text kept on one line: an interval or a cell, not a bracketed phrase.
_SHORT_BRACKET = 24


def _open_bracket(text: str) -> bool:
    start = text.rfind("[")
    return start > text.rfind("]") and len(text) - start < _SHORT_BRACKET


def wrap(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` columns (a longer word stays whole on its line).

    >>> wrap("一二三四五，六七", 10)
    ['一二三四', '五，六七']
    >>> wrap("one two three", 8)
    ['one two', 'three']
    """
    lines: list[str] = []
    line, used = "", 0
    for piece, spaced in _units(text):
        gap = 1 if spaced and line else 0
        size = width(piece)
        if line and used + gap + size > columns:
            lines.append(line)
            line, used = piece, size
        else:
            line += " " * gap + piece
            used += gap + size
    if line or not lines:
        lines.append(line)
    return lines


def collapse(text: str) -> str:
    """Runs of breaking whitespace as one space (no-break spaces are kept, as they are)."""
    return " ".join(piece for piece in re.split(r"[ \t\n\r\f\v]+", text) if piece)


def fill(text: str, columns: int) -> str:
    """:func:`wrap` joined into one string, each paragraph (line of ``text``) on its own."""
    return "\n".join(line for paragraph in text.split("\n") for line in wrap(paragraph, columns))
