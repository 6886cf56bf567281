"""Rating vectors typed as text: ``"4, 4;3\n1"`` -> an int64 array, or the first bad token named.

Parsing is vectorised: a million ratings go through one ``str.split`` and one numpy conversion,
and a large plain paste (digits, signs and separators only) goes to a C reader that releases the
GIL (:mod:`.plain`); the slow per-token scan only runs to *explain* a failure, with an
:class:`~qwk_explained.core.errors.InputError` whose code the locales translate.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError
from .plain import PANDAS_FROM_BYTES, read_integer_rows

#: What separates two ratings (after :func:`normalise`); the app's rating fields count ratings
#: in the browser with this same pattern and :data:`BRACKETS`.
SEPARATORS = re.compile(r"[\s,;、]+")
INTEGRAL = re.compile(r"^[+-]?[0-9]+(?:\.0*)?$")
DECIMAL = re.compile(r"^[+-]?(?:[0-9]+[.,][0-9]*|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?$")
_NONFINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
#: Brackets a pasted list may come in (``[1, 2]``, ``(1 2)``): :func:`normalise` drops them.
BRACKETS = "[](){}"
_ASCII_NUMBER = re.compile(r"[0-9+\-.]*")

IntArray = NDArray[np.int64]


def normalise(text: str) -> str:
    """Fold full-width digits and punctuation (common in Chinese input) to ASCII, drop brackets."""
    text = unicodedata.normalize("NFKC", text)
    return text.translate({ord(c): " " for c in BRACKETS})


def shorten(token: str, limit: int = 20) -> str:
    """``token`` cut to ``limit`` characters with an ellipsis, to be quoted in a message."""
    return token if len(token) <= limit else token[: limit - 1] + "…"


def explain_token(token: str, position: int) -> InputError:
    """Name the first thing wrong with one token (called only once conversion has failed)."""
    shown = shorten(token)
    if token.lower() in _NONFINITE:
        return InputError("not_finite", token=shown, position=position)
    if DECIMAL.match(token):
        return InputError("not_integer_decimal", token=shown, position=position)
    if INTEGRAL.match(token):
        return InputError("value_too_large", token=shown, position=position,
                          limit=limits.MAX_ABS_RATING)
    return InputError("not_integer", token=shown, position=position)


def tokens_to_ints(tokens: Sequence[str], *, first_position: int = 1) -> IntArray:
    """Convert integer tokens to an int64 array, or raise the error for the first bad token.

    ``"3.0"`` is accepted (spreadsheets export whole numbers that way); ``"3.5"`` is not.
    """
    if len(tokens) > limits.MAX_ITEMS:
        raise InputError("too_many_items", count=len(tokens), limit=limits.MAX_ITEMS)
    try:
        text = np.asarray(tokens, dtype=np.str_)
        # numpy's cast follows Python's int(): it would take "1_0" as 10 and non-ASCII digits;
        # ratings are ASCII digits only, so anything else goes to the per-token explanation.
        if text.size and not _ASCII_NUMBER.fullmatch("".join(tokens)):
            raise ValueError
        values = text.astype(np.int64)
    except (ValueError, OverflowError):
        values = np.empty(len(tokens), dtype=np.int64)
        for index, token in enumerate(tokens):
            if not INTEGRAL.match(token):
                raise explain_token(token, index + first_position) from None
            try:
                values[index] = int(token.split(".")[0])
            except (OverflowError, ValueError):  # ValueError: Python's 4,300-digit limit
                raise explain_token(token, index + first_position) from None
    if values.size:
        extreme = int(max(abs(int(values.min())), abs(int(values.max()))))
        if extreme > limits.MAX_ABS_RATING:
            bad = int(np.argmax(np.abs(values) > limits.MAX_ABS_RATING))
            raise explain_token(str(tokens[bad]), bad + first_position)
    return values


def parse_vector(text: str) -> IntArray:
    """Read integer ratings typed as text into a vector.

    Parameters
    ----------
    text : str
        Ratings separated by commas, spaces, semicolons, ideographic commas or line breaks, in any
        mix. Brackets are ignored (a pasted Python list reads as well), full-width digits and
        punctuation count as their ASCII forms (Chinese input methods type them), and a whole
        number written with a decimal point (``3.0``, as spreadsheets export it) is accepted.

    Returns
    -------
    ndarray of shape (n,), int64
        The ratings in the order typed.

    Raises
    ------
    InputError
        ``empty`` for text without a rating; otherwise the first bad token with its 1-based
        ``position``: ``not_integer`` (a word), ``not_integer_decimal`` (``2.5``),
        ``not_finite`` (``nan``, ``inf``), ``value_too_large`` (beyond
        :data:`~.limits.MAX_ABS_RATING`), or ``too_many_items``.

    See Also
    --------
    qwk_explained.parse_csv : Ratings in a CSV file, one or two columns.
    qwk_explained.parse_table : A contingency table typed as text.

    Notes
    -----
    One split and one numpy conversion read a million ratings. A text of a megabyte or more made
    of ASCII digits, signs and separators only is read by a C reader instead, which releases the
    GIL while it works, so a server's other sessions go on during a large paste
    (:func:`_parse_vector_plain`). The token-by-token scan only runs once a conversion has
    failed, to name the first bad token.

    Examples
    --------
    >>> parse_vector("4, 4;3\\n1").tolist()
    [4, 4, 3, 1]
    >>> parse_vector("[1 2 3.0]").tolist(), parse_vector("４，４；３").tolist()
    ([1, 2, 3], [4, 4, 3])
    >>> try:
    ...     parse_vector("1, 2.5, x")
    ... except InputError as error:
    ...     print(error.code, error.params)
    not_integer_decimal {'token': '2.5', 'position': 2}
    """
    if not isinstance(text, str):
        raise InputError("empty")
    if len(text) > limits.MAX_ITEMS * 12:
        raise InputError("too_many_items", count=len(text) // 2, limit=limits.MAX_ITEMS)
    if len(text) >= PANDAS_FROM_BYTES:
        plain = _parse_vector_plain(text)
        if plain is not None:
            return plain
    # Separators at either end (any Unicode whitespace included) leave empty tokens: drop them.
    tokens = [token for token in SEPARATORS.split(normalise(text)) if token]
    if not tokens:
        raise InputError("empty")
    return tokens_to_ints(tokens)


#: Every ASCII separator of :data:`SEPARATORS` and every bracket :func:`normalise` drops, as a
#: line break: a plain vector becomes one rating per line for the C reader.
_TO_LINES = bytes.maketrans(b" \t\r\n\x0b\x0c,;" + BRACKETS.encode(),
                            b"\n" * (8 + len(BRACKETS)))
#: What a plain vector holds once its separators are line breaks (anything else is explained by
#: the careful path: decimals, words, full-width digits, ``1_0``...).
_PLAIN_VECTOR = b"0123456789+-\n"


def _parse_vector_plain(text: str, *, reader: str = "auto") -> IntArray | None:
    """:func:`parse_vector` of a plain text by a C reader (:mod:`.plain`), or ``None``.

    Plain: ASCII digits and signs separated by spaces, tabs, commas, semicolons, line breaks and
    brackets, every value an int64 within :data:`~.limits.MAX_ABS_RATING`, at most
    :data:`~.limits.MAX_ITEMS` of them. Then the result is exactly the careful path's (the same
    tokens, the same order); otherwise ``None``, and the careful path reads or explains it.
    One-digit ratings (the usual paste) are read by numpy instead (:func:`_one_digit_values`);
    ``reader`` other than ``"auto"`` names the C reader to use for everything (the tests).
    """
    if not text.isascii():
        return None
    body = text.encode("ascii").translate(_TO_LINES)
    if body.translate(None, _PLAIN_VECTOR):
        return None
    if reader == "auto":
        digits = _one_digit_values(body)
        if digits is not None:
            return digits
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy's "input contained no data": explained later
            rows = read_integer_rows(body, ",", reader)
    except (ValueError, OverflowError, UserWarning):
        return None
    if rows.shape[1] != 1 or not 0 < rows.shape[0] <= limits.MAX_ITEMS:
        return None
    values = rows[:, 0]
    if max(-int(values.min()), int(values.max())) > limits.MAX_ABS_RATING:
        return None
    return values


def _one_digit_values(body: bytes) -> IntArray | None:
    """The ratings of a plain vector (one rating a line, :data:`_PLAIN_VECTOR` bytes only) when
    every one is a single digit without a sign, the usual paste (``3, 4, 5``), else ``None``.

    Read straight from the bytes in a few numpy passes, which let other threads run: a third of
    pandas' time for two million ratings, and almost none of it holding a server's other
    sessions (pandas holds the GIL while it gathers its chunks).
    """
    if b"+" in body or b"-" in body:
        return None
    codes = np.frombuffer(body, dtype=np.uint8)
    digit = codes != ord("\n")  # every other byte is a digit here
    if np.any(digit[1:] & digit[:-1]):
        return None  # a rating of two digits or more
    values: IntArray = codes[digit].astype(np.int64)
    if not 0 < values.size <= limits.MAX_ITEMS:
        return None
    values -= ord("0")
    return values
