r"""An outline (:mod:`.outline`) as Markdown and as plain text.

Markdown carries formulas as ``$$ ... $$`` and tables as pipe tables: JupyterLab, Notebook 7,
VS Code, Colab, GitHub and the usual Markdown viewers render both. Plain text is for front ends
that show nothing richer: aligned columns, no formulas (the sentences and tables hold every
number). The LaTeX worksheet (:mod:`.worksheet`) and a notebook's HTML
(:mod:`qwk_explained.notebook.render`) are written from the same blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import columns
from .outline import Block, Formula, Heading, Table, Text

#: Markdown bold, the only emphasis a locale sentence holds (``steps.kappa_band``).
BOLD = re.compile(r"\*\*(.+?)\*\*")


def md_escape(text: str) -> str:
    """Text made safe inside a pipe table's cell: a pipe would end the cell, and nothing else in
    a cell is Markdown syntax here."""
    return text.replace("|", r"\|")


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
        elif isinstance(block, Text):
            lines.append(block.text)
        elif isinstance(block, Formula):
            lines += ["$$", block.latex, "$$"]
        else:
            lines += _markdown_table(block)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def plain_text(blocks: Sequence[Block]) -> str:
    """The blocks as plain text: tables as aligned columns, formulas left out (the sentences and
    tables already hold every number)."""
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading | Text):
            lines.append(BOLD.sub(r"\1", block.text))
        elif isinstance(block, Table):
            grid = [(block.corner, block.columns), *block.rows]
            # Measured in columns: a Han character takes two in a monospaced font.
            head = max(columns.width(label) for label, _ in grid)
            width = max(columns.width(cell) for _, cells in grid for cell in cells)
            lines += [columns.pad(label, head) + "  "
                      + "  ".join(columns.pad(c, width, right=True) for c in cells)
                      for label, cells in grid]
    return "\n".join(lines) + "\n"
