"""CLDR plural rules, evaluated without Babel: which form of a message a count takes.

A language's record (``locales/languages.json``) holds its CLDR plural rules as text, for
example Spanish ``one: "n in 1"`` and ``many: "e in 0 and i not in 0 and i mod 1000000 in 0 and
v in 0 or e not in 0..5"``. :func:`compile_rules` turns them into a function from a count to
its category (``zero``, ``one``, ``two``, ``few``, ``many`` or ``other``), so the CLI keeps
needing nothing but numpy. The rules come from Babel (``python -m
qwk_explained.present.cldr --write``); the tests check this evaluator against Babel's own.

The syntax is CLDR's (Unicode TR35, "Language Plural Rules"): a condition is relations joined by
``and``/``or``; a relation compares an operand (optionally ``mod`` a value) with a list of values
and ranges through ``in``/``within``/``=``/``!=``/``is``, each possibly negated. The operands of
a number are ``n`` (its absolute value), ``i`` (integer digits), ``v``/``w`` (visible fraction
digits, with and without trailing zeros), ``f``/``t`` (those fraction digits as an integer) and
``c``/``e`` (a compact exponent, always 0 here).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Literal

__all__ = ["CATEGORIES", "Category", "compile_rules", "operands"]

Category = Literal["zero", "one", "two", "few", "many", "other"]
#: Every CLDR plural category, in CLDR's order.
CATEGORIES: tuple[Category, ...] = ("zero", "one", "two", "few", "many", "other")

_NUMBER = r"\d+(?:\.\d+)?"
#: A range ``0..5``, a value, a symbol or a word.
_TOKEN = re.compile(rf"\s*(?:({_NUMBER})\.\.({_NUMBER})|({_NUMBER})|(!=|=|,|%)|([a-z]+))")

Operands = dict[str, Decimal]
_Test = Callable[[Operands], bool]


def operands(number: int | float | Decimal | str) -> Operands:
    """The CLDR operands of a number as it is shown (``1.50`` keeps its two fraction digits).

    >>> sorted((k, int(v)) for k, v in operands("1.50").items())
    [('c', 0), ('e', 0), ('f', 50), ('i', 1), ('n', 1), ('t', 5), ('v', 2), ('w', 1)]
    """
    text = str(number).strip().lstrip("-+")
    if "." in text:
        integer, fraction = text.split(".", 1)
    else:
        integer, fraction = text, ""
    trimmed = fraction.rstrip("0")
    zero = Decimal(0)
    return {
        "n": abs(Decimal(text)), "i": Decimal(integer or "0"),
        "v": Decimal(len(fraction)), "w": Decimal(len(trimmed)),
        "f": Decimal(fraction or "0"), "t": Decimal(trimmed or "0"),
        "c": zero, "e": zero,
    }


class _Tokens:
    def __init__(self, text: str) -> None:
        self.items: list[tuple[str, tuple[Decimal, Decimal] | str]] = []
        position = 0
        text = text.strip()
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise ValueError(f"cannot read the plural rule {text!r} at {position}")
            low, high, value, symbol, word = match.groups()
            if low is not None:
                self.items.append(("range", (Decimal(low), Decimal(high))))
            elif value is not None:
                self.items.append(("range", (Decimal(value), Decimal(value))))
            else:
                self.items.append(("word", symbol or word))
            position = match.end()
        self.position = 0

    def peek(self) -> str | None:
        if self.position < len(self.items) and self.items[self.position][0] == "word":
            return str(self.items[self.position][1])
        return None

    def take(self, word: str) -> bool:
        if self.peek() == word:
            self.position += 1
            return True
        return False

    def word(self) -> str:
        word = self.peek()
        if word is None:
            raise ValueError("expected a word in a plural rule")
        self.position += 1
        return word

    def value(self) -> tuple[Decimal, Decimal]:
        if self.position >= len(self.items) or self.items[self.position][0] != "range":
            raise ValueError("expected a number in a plural rule")
        item = self.items[self.position][1]
        self.position += 1
        return item  # type: ignore[return-value]

    def done(self) -> bool:
        return self.position == len(self.items)


def _relation(tokens: _Tokens) -> _Test:
    operand = tokens.word()
    if operand not in "nivwftce" or len(operand) != 1:
        raise ValueError(f"unknown plural operand {operand!r}")
    modulo: Decimal | None = None
    if tokens.take("mod") or tokens.take("%"):
        modulo = tokens.value()[0]
    negate = False
    integer_only = True
    if tokens.take("is"):
        negate = tokens.take("not")
    elif tokens.take("="):
        pass
    elif tokens.take("!="):
        negate = True
    else:
        negate = tokens.take("not")
        if tokens.take("within"):
            integer_only = False
        elif not tokens.take("in"):
            raise ValueError("expected in, within, is, = or != in a plural rule")
    ranges = [tokens.value()]
    while tokens.take(","):
        ranges.append(tokens.value())

    def test(values: Operands) -> bool:
        x = values[operand]
        if modulo is not None:
            x = x % modulo
        if integer_only and x != x.to_integral_value():
            found = False
        else:
            found = any(low <= x <= high for low, high in ranges)
        return found != negate

    return test


def _condition(tokens: _Tokens) -> _Test:
    alternatives: list[list[_Test]] = [[_relation(tokens)]]
    while not tokens.done():
        if tokens.take("and"):
            alternatives[-1].append(_relation(tokens))
        elif tokens.take("or"):
            alternatives.append([_relation(tokens)])
        else:
            raise ValueError(f"unexpected {tokens.peek()!r} in a plural rule")
    return lambda values: any(all(test(values) for test in tests) for tests in alternatives)


def compile_rules(rules: Mapping[str, str]) -> Callable[[int | float | Decimal | str], Category]:
    """A function from a number to its CLDR plural category under ``rules``.

    >>> category = compile_rules({"one": "n in 1",
    ...     "many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5"})
    >>> [category(n) for n in (0, 1, 2, 1_000_000)]
    ['other', 'one', 'other', 'many']
    """
    tests: list[tuple[Category, _Test]] = []
    for name, text in rules.items():
        if name not in CATEGORIES or name == "other":
            raise ValueError(f"{name!r} is not a CLDR plural category with a rule")
        tokens = _Tokens(text)
        tests.append((name, _condition(tokens)))

    def category(number: int | float | Decimal | str) -> Category:
        values = operands(number)
        for name, test in tests:
            if test(values):
                return name
        return "other"

    return category
