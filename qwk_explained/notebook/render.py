r"""An outline (:mod:`qwk_explained.present.outline`) as HTML, a notebook's richest output.

Its Markdown and plain text are :mod:`qwk_explained.present.markup`'s, as the worksheet's are.
HTML lives here because its formulas need the ``notebook`` extra: HTML must read well where no
script typesets TeX inside it (VS Code by design, nbviewer and a saved ``.ipynb`` depending on the
page), so its formulas are MathML, which browsers draw natively, converted from the same LaTeX by
``latex2mathml``. Without that package there is no HTML, and
every front end shows the Markdown instead. (JupyterLab's sanitizer drops MathML from the outputs
of a notebook it does not trust, one saved on another machine: there the formulas read as flat
text until it is run again.)

Front ends prefer HTML to Markdown when a result offers both (JupyterLab ranks ``text/html``
before ``text/markdown``, VS Code too), so the two must say the same thing: they are written from
the same blocks, and the tests compare them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import lru_cache

from qwk_explained.present.blocks import Block, Formula, Heading, Metric, Table, Text
from qwk_explained.present.markup import BOLD

#: HTML heading of each block level (an explanation sits inside a notebook's cells, under the
#: notebook's own titles, as its Markdown does).
_HTML_LEVEL = {1: "h3", 2: "h4", 3: "h5"}


# --- MathML --------------------------------------------------------------------------------------

# latex2mathml writes the decimal comma that formulas.py braces ({,}) as an operator between two
# numbers, which a browser spaces like punctuation ("0, 25"): glue it back into one number, as
# TeX does. The same for the grouping mark of Spanish and Turkish (1{.}000).
_SPLIT_NUMBER = re.compile(
    r"<mn>([0-9.,]+)</mn><mrow><mo>(&#x0002C;|&#x0002E;|,|\.)</mo></mrow><mn>([0-9]+)</mn>")
_PUNCTUATION = {"&#x0002C;": ",", "&#x0002E;": "."}
# A minus right after an operator or an opening bracket is a sign, not a subtraction: MathML
# Core spaces an <mo> by its form, and only the first child of a row is taken as a prefix.
_SIGN = re.compile(r"(<mo>[^<]*</mo>|<mo [^>]*>[^<]*</mo>|<mrow>)<mo>&#x02212;</mo>")


def _glue_numbers(mathml: str) -> str:
    while True:
        glued = _SPLIT_NUMBER.sub(
            lambda m: f"<mn>{m[1]}{_PUNCTUATION.get(m[2], m[2])}{m[3]}</mn>", mathml)
        if glued == mathml:
            return glued
        mathml = glued


@lru_cache(maxsize=1)
def mathml_available() -> bool:
    """Whether formulas can be written as MathML (``latex2mathml``, the ``notebook`` extra)."""
    try:
        import latex2mathml.converter  # noqa: F401
    except ImportError:
        return False
    return True


# latex2mathml writes the alignment marks of an aligned environment as the identifier "&": the
# phone-width lines of a long formula (formulas.wrapped: every line starts at its "&") are one
# left-aligned column, which it draws as a table.
_ALIGNED = re.compile(r"\\begin\{aligned\}(.*?)\\end\{aligned\}", re.DOTALL)


def _left_column(latex: str) -> str:
    return _ALIGNED.sub(lambda m: r"\begin{array}{l}" + m[1].replace("&", "") + r"\end{array}",
                        latex)


def mathml(latex: str) -> str:
    """One display formula as MathML, numbers written as the language writes them."""
    from latex2mathml.converter import convert  # the notebook extra; see mathml_available()

    text = _glue_numbers(convert(_left_column(latex), display="block"))
    # latex2mathml writes \pm as an identifier, which gets no space around it.
    text = text.replace("<mi>&#x000B1;</mi>", "<mo>&#x000B1;</mo>")
    return _SIGN.sub(r'\1<mo form="prefix">&#x02212;</mo>', text)


# --- HTML ----------------------------------------------------------------------------------------


def _html_text(text: str) -> str:
    # Locale sentences are plain text with at most Markdown bold (steps.kappa_band).
    return BOLD.sub(r"<strong>\1</strong>", html.escape(text, quote=False))


def _html_table(table: Table) -> str:
    name = f' class="qwk-{table.name}"' if table.name else ""
    caption = f"<caption>{html.escape(table.caption)}</caption>" if table.caption else ""
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in (table.corner,
                                                                         *table.columns))
    body = "".join(
        f'<tr><th scope="row">{html.escape(label)}</th>'
        + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"
        for label, cells in table.rows)
    return f"<table{name}>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_fragment(blocks: Sequence[Block]) -> str:
    """The blocks as HTML elements (no wrapper), for the widget's view and :func:`html_document`."""
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            tag = _HTML_LEVEL[block.level]
            parts.append(f"<{tag}>{html.escape(block.text)}</{tag}>")
        elif isinstance(block, Text | Metric):
            name = f' class="qwk-{block.name}"' if block.name else ""
            parts.append(f"<p{name}>{_html_text(block.text)}</p>")
        elif isinstance(block, Formula):
            # Browsers draw MathML a little smaller than the text around it.
            parts.append(f'<div class="qwk-formula" style="font-size: 1.2em">'
                         f'{mathml(block.latex)}</div>')
        elif isinstance(block, Table):
            parts.append(_html_table(block))
        else:  # a chart reaches a notebook as its table (outline.chart_blocks)
            raise TypeError(f"{type(block).__name__} is not written as HTML")
    return "\n".join(parts)


def html_document(blocks: Sequence[Block], lang: str) -> str | None:
    """The blocks as one HTML element with no script and no style sheet, or ``None`` when MathML
    cannot be written (then the Markdown is the richest output)."""
    if not mathml_available():
        return None
    body = html_fragment(blocks)
    return f'<div class="qwk-explained" lang="{html.escape(lang)}">\n{body}\n</div>'
