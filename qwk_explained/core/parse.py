"""Rating vectors typed as text: ``"4, 4;3\n1"`` -> an int64 array, or the first bad token named.

Parsing is vectorised: a million ratings go through one ``str.split`` and one numpy conversion;
the slow per-token scan only runs to *explain* a failure, with an
:class:`~qwk_explained.core.errors.InputError` whose code the locales translate.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from . import limits
from .errors import InputError

SEPARATORS = re.compile(r"[\s,;、]+")
INTEGRAL = re.compile(r"^[+-]?[0-9]+(?:\.0*)?$")
DECIMAL = re.compile(r"^[+-]?(?:[0-9]+[.,][0-9]*|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?$")
_NONFINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
_BRACKETS = "[](){}"
_ASCII_NUMBER = re.compile(r"[0-9+\-.]*")

IntArray = NDArray[np.int64]


def normalise(text: str) -> str:
    """Fold full-width digits and punctuation (common in Chinese input) to ASCII, drop brackets."""
    text = unicodedata.normalize("NFKC", text)
    return text.translate({ord(c): " " for c in _BRACKETS})


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
    One split and one numpy conversion read a million ratings; the token-by-token scan only runs
    once that conversion has failed, to name the first bad token.

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
    # Separators at either end (any Unicode whitespace included) leave empty tokens: drop them.
    tokens = [token for token in SEPARATORS.split(normalise(text)) if token]
    if not tokens:
        raise InputError("empty")
    return tokens_to_ints(tokens)
