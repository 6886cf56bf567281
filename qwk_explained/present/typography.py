"""The typefaces text is set in: a sans-serif Latin face, then sans-serif CJK faces.

Browsers look for a glyph in each family of a ``font-family`` list in turn, and only when none
has it do they ask the system for a fallback. For Han characters that fallback was the first CJK
face fontconfig found, often a Song (serif) face such as AR PL SungtiL beside the sans-serif Latin
text, where a Chinese interface is set in a Hei (sans-serif) face. So every list names the
sans-serif CJK faces readers have, after the Latin face (whose Latin glyphs stay in use): Noto
Sans CJK and Source Han Sans (Android, most Linux systems), PingFang (Apple), Microsoft YaHei
(Windows) and WenQuanYi Micro Hei (Debian's ``fonts-wqy-microhei``, which ``make test`` installs).

The app's list is ``theme.font`` in ``.streamlit/config.toml`` (Streamlit applies it to every
element; ``tests/app/test_typesetting.py`` checks that it is :func:`font_family` of
:data:`APP_LATIN`); the notebook's plotly figures take :func:`font_family` of
:data:`PLOTLY_LATIN`.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["APP_LATIN", "CJK_SANS_SERIF", "PLOTLY_LATIN", "font_family"]

#: Sans-serif faces with Simplified Chinese glyphs, most common first.
CJK_SANS_SERIF = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC",
                  "Microsoft YaHei", "WenQuanYi Micro Hei")
#: Streamlit's own Latin face, which it serves with the app.
APP_LATIN = ("Source Sans",)
#: plotly's default faces (``layout.font.family``), kept for Latin text in a notebook.
PLOTLY_LATIN = ("Open Sans", "verdana", "arial")


def font_family(latin: Sequence[str]) -> str:
    """A CSS ``font-family`` value: ``latin``, the CJK sans-serif faces, then ``sans-serif``.

    >>> font_family(["Source Sans"])[:45]
    '"Source Sans", "Noto Sans CJK SC", "Noto Sans'
    """
    return ", ".join([*(f'"{name}"' for name in (*latin, *CJK_SANS_SERIF)), "sans-serif"])
