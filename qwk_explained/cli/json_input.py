"""JSON written by learners and teachers (``--answers``, each line of ``--batch``), read so that no
value can stop the reading.

Python's ``json`` module accepts ``NaN`` and ``Infinity``, turns ``1e400`` into ``inf``, refuses an
integer of more than 4,300 digits with a ``ValueError`` of its own, and gives up on brackets nested
about a thousand deep with a ``RecursionError``. Here the first three are kept as the text that
was written (``"NaN"``, ``"1e400"``, the digits): that text then meets the same checks as any
other (a rating that is no whole number, an answer that is no number, an id shown as written),
and every output stays valid JSON. Nesting too deep is :class:`TooDeep`, which the caller names
in its own terms (a line of a batch, an answers file).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

__all__ = ["TooDeep", "load_json"]

#: Python's limit on the digits ``int()`` converts (``sys.get_int_max_str_digits``, 3.11+).
_MAX_INT_DIGITS = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300


class TooDeep(Exception):
    """JSON nested deeper than the parser can follow (far deeper than any submission)."""


def _finite_or_text(text: str) -> float | str:
    value = float(text)
    return value if math.isfinite(value) else text


def _int_or_text(text: str) -> int | str:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= _MAX_INT_DIGITS else text


def load_json(text: str) -> Any:
    """``json.loads``, with non-finite and oversized numbers kept as the text written.

    >>> load_json('{"id": NaN, "kappa": 1e400, "n": 12}')
    {'id': 'NaN', 'kappa': '1e400', 'n': 12}

    Raises ``json.JSONDecodeError`` for text that is not JSON and :class:`TooDeep` for nesting
    too deep to follow.
    """
    try:
        try:
            return json.loads(text, parse_constant=str, parse_float=_finite_or_text)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer beyond int()'s digits: read again, keeping it as text
            return json.loads(text, parse_constant=str, parse_float=_finite_or_text,
                              parse_int=_int_or_text)
    except RecursionError:
        raise TooDeep from None
