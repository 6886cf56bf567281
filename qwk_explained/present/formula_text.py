r"""The formulas of :mod:`.formulas` as plain text, for a terminal and a chart's cell.

A formula is written once, in LaTeX; where no TeX is typeset (the command line, a notebook's
``text/plain``, the explanation a chart's cell shows on hover) it is read as text from the same
LaTeX, so the terminal cannot say a cell's arithmetic differently from the page:

>>> print(text(r"E_{4,0} = \frac{h^{a}_{4} \, h^{p}_{0}}{n} = \frac{5 \cdot 4}{10} = 2"))
E[4, 0] = hᵃ[4] × hᵖ[0] / n = 5 × 4 / 10 = 2
>>> print(text(r"\kappa = 1 - \frac{0{,}45}{0{,}395} = 1 - 1{,}1392 = -0{,}1392"))
κ = 1 − 0,45 / 0,395 = 1 − 1,1392 = −0,1392

Matrices and vectors are indexed with brackets (``O[4, 0]``, ``hᵃ[4]``: a comma between two
subscripts would read as a decimal comma in Spanish); other subscripts are Unicode where it has
them (``SE₀``, ``Pₑ``, ``z₀.₉₇₅``), else written ``_(...)`` (``z_(1 − α/2)``). A fraction is
``a / b`` with parentheses where the precedence needs them; ``\cdot`` and a thin space between
two factors are ``×``.

Only the LaTeX that :mod:`.formulas` writes is read (``tests/present/test_formula_text.py`` reads
every formula of every step): this is not a TeX parser. :func:`equations` keeps the structure a
terminal needs: the equations a formula holds, each on one logical line, which the terminal
packs and wraps to its own width (:func:`wrap`).
"""

from __future__ import annotations

import re

from . import columns

_TOKEN = re.compile(r"\\[a-zA-Z]+|\\.|\{|\}|[_^&]|\s+|.", re.DOTALL)

#: Bases indexed like matrices and vectors: their subscripts are written in brackets.
_INDEXED = set("OEwhap") | {"hᵃ", "hᵖ", "a\u0304", "cost"}
_SUBSCRIPT = str.maketrans("0123456789+-−=()aeoxhklmnpstijruv,.",
                           "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ,.")
_SUPERSCRIPT = str.maketrans("0123456789+-−=()ap", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵖ")
_SYMBOLS = {r"\kappa": "κ", r"\alpha": "α", r"\Phi": "Φ", "~": "\u00a0", r"\dots": "…",
            r"\#": "#", r"\{": "{", r"\}": "}", r"\top": "ᵀ", r"\infty": "∞", r"\max": "max ",
            r"\%": "%", r"\bar": ""}
#: Operators, written with a space on each side.
_OPERATORS = {"=": "=", "+": "+", r"\pm": "±", r"\neq": "≠", r"\geq": "≥", r"\leq": "≤",
              r"\cap": "∩", r"\cdot": "×", r"\times": "×", ":": ":", "/": "/"}
#: Spacing and sizing commands that draw nothing of their own.
_SILENT = {r"\left", r"\right", r"\bigl", r"\bigr", r"\Big", r"\big", r"\Bigl", r"\Bigr",
           r"\displaystyle", r"\quad", r"\qquad", r"\;", r"\!"}
_MINUS = "−"
#: What ends an operand: after it, a minus is a subtraction and a thin space a product.
_OPERAND_END = re.compile(r"[\w)\]}|²³¹⁰-⁹ᵀᵃᵖ₀-₉ₐ-ₜᵢⱼ…?!%κΦ∞.,±]$")


class _Reader:
    """Reads a token list into text, one group at a time."""

    def __init__(self, latex: str) -> None:
        self.tokens = [tok for tok in _TOKEN.findall(latex)]
        self.at = 0

    def _next(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _peek(self) -> str | None:
        while self.at < len(self.tokens) and self.tokens[self.at].isspace():
            self.at += 1
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def group(self) -> list[str]:
        """The tokens of the next group (``{...}`` or one token), braces left out."""
        token = self._peek()
        if token is None:
            return []
        self.at += 1
        if token != "{":
            return [token]
        depth, start = 1, self.at
        while self.at < len(self.tokens) and depth:
            depth += {"{": 1, "}": -1}.get(self.tokens[self.at], 0)
            self.at += 1
        return self.tokens[start:self.at - 1]

    def raw(self) -> str:
        """The next group as its source text (``\\text{num}``, an environment's name)."""
        return "".join(self.group())


def _convert(tokens: list[str], subscript: bool = False) -> str:
    """Tokens as one line of text; ``&`` and ``\\\\`` are left as markers for the caller."""
    reader = _Reader("")
    reader.tokens = tokens
    out = ""

    def operand_before() -> bool:
        return bool(_OPERAND_END.search(out.rstrip()))

    def emit(piece: str) -> None:
        nonlocal out
        out += piece

    while reader.at < len(reader.tokens):
        token = reader._next()
        if token.isspace():
            continue
        if token == "{":
            reader.at -= 1
            inner = reader.group()
            emit("".join(inner) if inner in ([","], ["."]) else _convert(inner, subscript))
        elif token == r"\frac":
            top = _convert(reader.group(), subscript)
            bottom = _convert(reader.group(), subscript)
            emit(f"{_parenthesized(top, False)} / {_parenthesized(bottom, True)}")
        elif token == r"\sqrt":
            emit(f"√({_convert(reader.group(), subscript)})")
        elif token in (r"\text", r"\mathrm"):
            emit(reader.raw())
        elif token == r"\sum":
            if reader._peek() == "_":  # Σ alone: its limits are in the subscripts it sums
                reader._next()
                reader.group()
            emit("Σ ")
        elif token == "_":
            emit(_subscript(out, reader.group()))
        elif token == "^":
            script = _convert(reader.group(), True)
            converted = script.translate(_SUPERSCRIPT)
            # ± has no superscript form: cost^{±} reads as cost± (the signed cost).
            emit(converted if converted != script or script in ("ᵀ", "±")
                 else f"^({script})")
        elif token == r"\begin":
            emit(_environment(reader))
        elif token == r"\,":
            if operand_before() and reader._peek() not in (None, "}", r"\}", r"\,", ")",
                                                           r"\right", r"\bigr"):
                emit(" × ")
        elif token == "-":
            emit(f" {_MINUS} " if operand_before() else _MINUS)
        elif token in _OPERATORS:
            symbol = _OPERATORS[token]
            if subscript and token in (r"\cdot", "/"):  # p_{i·}, z_(1 − α/2): kept tight
                emit("·" if token == r"\cdot" else "/")
            else:
                emit(f" {symbol} ")
        elif token == "|" and reader._peek() == "_":  # \Big|_{i=4, j=0}: evaluated at
            reader._next()
            emit(f" |({_convert(reader.group(), False)})")
        elif token == ",":
            emit(", ")
        elif token == r"\ ":
            emit(" ")
        elif token == ";":
            emit("; ")
        elif token in _SYMBOLS:
            symbol = _SYMBOLS[token]
            if token == r"\bar":
                emit(_convert(reader.group(), subscript) + "\u0304")
            else:
                emit(symbol)
        elif token == r"\left" and operand_before() and not subscript:
            emit(" × ")  # a bracket right after a factor multiplies it
        elif token in _SILENT:
            if token in (r"\quad", r"\qquad") and not subscript:
                emit("\t")  # a separator of equations, for the caller
        elif token in ("&", r"\\"):
            emit(token)
        elif token.startswith("\\"):
            emit(token[1:])  # an unknown command: its name, never a backslash
        else:
            emit(token)
    return _tidy(out)


def _tidy(line: str) -> str:
    line = re.sub(r" {2,}", " ", line)
    line = re.sub(r"([(\[]) ", r"\1", line)
    line = re.sub(r" ([)\]])", r"\1", line)
    return line.strip(" ")


def _parenthesized(part: str, denominator: bool) -> str:
    """``part`` in parentheses where a fraction bar would otherwise bind less than it reads."""
    depth, bars, top_level = 0, False, []
    for char in part:
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(char, 0)
        bars = not bars if char == "|" else bars
        top_level.append(char if depth == 0 and not bars and char != "|" else "")
    flat = "".join(top_level)
    needs = (f" {_MINUS} " in flat or " + " in flat or " / " in flat or flat.startswith("Σ")
             or (denominator and " " in flat.strip()))
    return f"({part})" if needs else part


def _subscript(before: str, tokens: list[str]) -> str:
    """A subscript after ``before``: brackets for an indexed matrix or vector, else Unicode."""
    script = _convert(tokens, True)
    # A base may carry a sign of its own: cost±[4, 0] is indexed like cost[4, 0].
    base = re.search(r"(\w+\u0304?)±?$", before)
    if base is not None and base.group(1) in _INDEXED:
        if re.fullmatch(r"[ij]{2}", script):
            script = f"{script[0]}, {script[1]}"
        return f"[{script}]"
    converted = script.replace(" ", "").translate(_SUBSCRIPT)
    if all(char in "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ,." for char in converted):
        return converted
    return f"_({script})"


def _environment(reader: _Reader) -> str:
    """``aligned`` rows continue one equation; ``gathered`` rows are equations of their own
    (separated by a tab, as ``\\qquad``); ``cases`` is ``0 (i = j), 1 (i ≠ j)``."""
    name = reader.raw()
    if name == "array":
        reader.group()  # its column specification
    depth, start = 1, reader.at
    while reader.at < len(reader.tokens):
        token = reader._next()
        if token == r"\begin":
            depth += 1
        elif token == r"\end":
            depth -= 1
            if depth == 0:
                break
    body = reader.tokens[start:reader.at - 1]
    reader.group()  # the name after \end
    rows = _split(body, r"\\")
    if name == "cases":
        return ", ".join(f"{cells[0]} ({cells[1]})" if len(cells) == 2 else " ".join(cells)
                         for cells in ([_convert(cell) for cell in _split(row, "&")]
                                       for row in rows))
    # An aligned equation's \quad only indents its next line; elsewhere it separates equations.
    spaces = {} if name == "gathered" else {r"\quad": r"\ ", r"\qquad": r"\ "}
    converted = [_convert([spaces.get(tok, tok) for tok in row if tok != "&"]) for row in rows]
    joiner = "\t" if name == "gathered" else " "
    return joiner.join(row for row in converted if row)


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """The tokens cut at every top-level ``separator`` (not inside a group or environment)."""
    parts: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        if token in ("{", r"\begin"):
            depth += 1
        elif token in ("}", r"\end"):
            depth -= 1
        if token == separator and depth == 0:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def equations(latex: str) -> list[str]:
    r"""The equations of a formula as plain text, each on one line.

    Equations the LaTeX sets side by side (``\qquad``) or one under the other (``gathered``) are
    separate; the lines of one long equation (``aligned``, a phone's line breaks) are one.

    >>> equations(r"\frac{O_{5,1}}{n} = \frac{4}{10} = 0.4 \qquad \frac{E_{5,1}}{n} = 2")
    ['O[5, 1] / n = 4 / 10 = 0.4', 'E[5, 1] / n = 2']
    """
    return [_tidy(part) for part in _convert(_Reader(latex).tokens).split("\t")
            if part.strip()]


def text(latex: str) -> str:
    """The whole formula on one line, its equations separated by wide spaces."""
    return "    ".join(equations(latex))


def wrap(equation: str, width: int) -> list[str]:
    """One equation in lines of at most ``width`` columns, broken before an ``=`` or a ``+``
    (continuation lines indented by four), every term kept; a term wider than the line stays
    whole on a line of its own."""
    if columns.width(equation) <= width:
        return [equation]
    pieces = re.split(r" (?=[=+] )", equation)
    lines = [pieces[0]]
    for piece in pieces[1:]:
        candidate = f"{lines[-1]} {piece}"
        if columns.width(candidate) <= width:
            lines[-1] = candidate
        else:
            lines.append("    " + piece)
    return lines


def lines(latex: str, width: int) -> list[str]:
    """A formula for a terminal ``width`` columns wide: its equations side by side while they
    fit (four spaces apart), each wrapped when it alone is too wide."""
    out: list[str] = []
    for equation in equations(latex):
        if out and columns.width(out[-1]) + 4 + columns.width(equation) <= width \
                and not out[-1].startswith("    "):
            out[-1] += "    " + equation
        else:
            out += wrap(equation, width)
    return out
