r"""An outline (:mod:`.outline`, :mod:`.blocks`) as Markdown and as plain text.

Markdown carries formulas as ``$$ ... $$`` and tables as pipe tables: JupyterLab, Notebook 7,
VS Code, Colab, GitHub and the usual Markdown viewers render both. Plain text is what the command
line prints and what a notebook shows where nothing richer is drawn: sentences wrapped to the
width, formulas read from the same LaTeX (:mod:`.formula_text`), tables as aligned columns. The
LaTeX worksheet (:mod:`.worksheet`), a notebook's HTML (:mod:`qwk_explained.notebook.render`)
and the app (``qwk_app.render``) render the same blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import columns, formula_text
from .blocks import Block, Formula, Heading, Metric, Table, Text

#: Markdown bold, the only emphasis a locale sentence holds (``steps.kappa_band``).
BOLD = re.compile(r"\*\*(.+?)\*\*")
#: The widest line of plain text (a terminal narrower than this gives its own width).
MAX_WIDTH = 100


def md_escape(text: str) -> str:
    """Text made safe inside a pipe table's cell: a pipe would end the cell, and nothing else in
    a cell is Markdown syntax here."""
    return text.replace("|", r"\|")


def _unexpected(block: Block) -> TypeError:
    # A chart reaches a text medium as its table (outline.chart_blocks): drawing is the app's.
    return TypeError(f"{type(block).__name__} is not written as text; see outline.chart_blocks")


def _markdown_table(table: Table) -> list[str]:
    lines = [f"**{table.caption}**", ""] if table.caption else []
    header = [table.corner, *table.columns]
    lines.append("| " + " | ".join(md_escape(c) for c in header) + " |")
    # Numbers align right, labels left, as in a printed table.
    lines.append("|:---|" + "---:|" * len(table.columns))
    lines += ["| " + " | ".join(md_escape(c) for c in (label, *cells)) + " |"
              for label, cells in table.rows]
    return lines


def markdown(blocks: Sequence[Block], top: int = 1) -> str:
    """The blocks as Markdown: headings (level 1 as ``top`` hashes: a file starts at 1, an
    explanation inside a notebook's cells at 3, under the notebook's own titles), sentences as
    the locales write them (the app shows the same strings with ``st.markdown``), ``$$`` display
    formulas and pipe tables."""
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            lines.append("#" * (top + block.level - 1) + f" {block.text}")
        elif isinstance(block, Text | Metric):
            lines.append(block.text)
        elif isinstance(block, Formula):
            lines += ["$$", block.latex, "$$"]
        elif isinstance(block, Table):
            lines += _markdown_table(block)
        else:
            raise _unexpected(block)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _grid(table: Table, max_width: int = MAX_WIDTH) -> list[str]:
    """An aligned table: the column labels, a rule, then one labelled line per row; measured in
    columns (a Han character takes two in a monospaced font). A table wider than
    ``max_width`` (the list of fixes on a narrow terminal) is written row by row, one
    ``column: value`` line each, rather than wrapped into a mess."""
    head = max(columns.width(label) for label in (table.corner, *(row[0] for row in table.rows)))
    width = max(columns.width(cell) for cell in (*table.columns,
                                                *(c for _, cells in table.rows for c in cells)))

    def line(label: str, cells: Sequence[str]) -> str:
        return ("  " + columns.pad(label, head) + " | "
                + " ".join(columns.pad(cell, width, right=True) for cell in cells)).rstrip()

    rule = "  " + "-" * head + "-+-" + "-" * (len(table.columns) * (width + 1) - 1)
    caption = [table.caption] if table.caption else []
    if columns.width(rule) > max_width:  # a row's first cell, then the others indented
        return [*caption, *(line for label, cells in table.rows for line in (
            table.corner + _colon(table.corner) + label,
            *("  " + name + _colon(name) + value
              for name, value in zip(table.columns, cells, strict=True))))]
    return [*caption, line(table.corner, table.columns), rule,
            *(line(label, cells) for label, cells in table.rows)]


def _colon(name: str) -> str:
    """The colon after a label: full-width in a Chinese label ("改后的 kappa："), else ": "."""
    return "\uff1a" if any(columns.is_wide(char) for char in name) else ": "


def plain_text(blocks: Sequence[Block], width: int = MAX_WIDTH) -> str:
    """The blocks as plain text at most ``width`` columns wide: each section after a blank line,
    sentences wrapped (Chinese breaks between characters, :mod:`.columns`), formulas as text,
    tables as aligned columns."""
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            if block.level == 2 and lines:
                lines.append("")
            lines += columns.fill(block.text, width).split("\n")
        elif isinstance(block, Text | Metric):
            lines += columns.fill(BOLD.sub(r"\1", block.text), width).split("\n")
        elif isinstance(block, Formula):
            lines += formula_text.lines(block.latex, width)
        elif isinstance(block, Table):
            lines += _grid(block, width)
        else:
            raise _unexpected(block)
    return "\n".join(lines) + "\n"
