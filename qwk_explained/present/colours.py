"""The colours of every matrix and bar, and the text colour that stays readable on each cell.

Each meaning of the numbers has one colour-blind-safe sequential scale (counts and proportions
blue, weights orange, products w*O and w*E purple, each cell's cost red; never red against
green), and the cost against chance, which has a sign, a diverging one (blue below 0, white at 0,
red above, with 0 in the middle whatever the values), the same in the
app's charts, the plotly figures and the notebook. The number written in a cell is white on dark
cells and near-black on light ones, chosen by the WCAG 2 contrast ratio against the cell's exact
colour, so it reads on Streamlit's light and dark themes alike.

No plotly here: the app's light charts (:mod:`qwk_explained.present.charts`) use these colours
without loading plotly, and :mod:`qwk_explained.present.figures` hands the same stops to plotly.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

ColourScale = Literal["Blues", "Oranges", "Purples", "Reds", "RdBu_r"]
#: What the numbers of a heatmap mean; each meaning has its colour scale.
HeatmapKind = Literal["counts", "proportions", "weights", "products", "costs", "signed"]

# ColorBrewer sequential scales (as in plotly.colors.sequential), written out so the text colour is
# computed from exactly the colours that are painted (interpolated linearly in RGB between stops).
_BLUES = ((247, 251, 255), (222, 235, 247), (198, 219, 239), (158, 202, 225), (107, 174, 214),
          (66, 146, 198), (33, 113, 181), (8, 81, 156), (8, 48, 107))
_ORANGES = ((255, 245, 235), (254, 230, 206), (253, 208, 162), (253, 174, 107), (253, 141, 60),
            (241, 105, 19), (217, 72, 1), (166, 54, 3), (127, 39, 4))
_PURPLES = ((252, 251, 253), (239, 237, 245), (218, 218, 235), (188, 189, 220), (158, 154, 200),
            (128, 125, 186), (106, 81, 163), (84, 39, 143), (63, 0, 125))
_REDS = ((255, 245, 240), (254, 224, 210), (252, 187, 161), (252, 146, 114), (251, 106, 74),
         (239, 59, 44), (203, 24, 29), (165, 15, 21), (103, 0, 13))
# ColorBrewer's RdBu, reversed: blue for the lowest values, white in the middle, red at the top.
_RDBU_R = ((5, 48, 97), (33, 102, 172), (67, 147, 195), (146, 197, 222), (209, 229, 240),
           (247, 247, 247), (253, 219, 199), (244, 165, 130), (214, 96, 77), (178, 24, 43),
           (103, 0, 31))

#: Colour scale name per meaning of the numbers in a heatmap.
SCALE_OF_KIND: dict[HeatmapKind, ColourScale] = {"counts": "Blues", "proportions": "Blues",
                                                  "weights": "Oranges", "products": "Purples",
                                                  "costs": "Reds", "signed": "RdBu_r"}
#: The kinds whose numbers have a sign: 0 sits in the middle of their scale.
DIVERGING: frozenset[HeatmapKind] = frozenset({"signed"})
_STOPS: dict[ColourScale, tuple[tuple[int, int, int], ...]] = {
    "Blues": _BLUES, "Oranges": _ORANGES, "Purples": _PURPLES, "Reds": _REDS, "RdBu_r": _RDBU_R}

#: Okabe-Ito blue and orange: distinguishable with every common colour-vision deficiency.
ACTUAL_COLOR = "#0072B2"
PREDICTED_COLOR = "#E69F00"

LIGHT_TEXT = "#FFFFFF"
DARK_TEXT = "#000000"


def colorscale(name: ColourScale) -> list[list[Any]]:
    """A named scale as plotly's ``colorscale``: ``[[0.0, "rgb(247,251,255)"], ...]``."""
    stops = _STOPS[name]
    last = len(stops) - 1
    return [[k / last, f"rgb({r},{g},{b})"] for k, (r, g, b) in enumerate(stops)]


def _relative_luminance(rgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """WCAG 2 relative luminance of sRGB colours given as floats 0..255 in the last axis."""
    c = rgb / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    luminance: NDArray[np.float64] = linear @ np.array([0.2126, 0.7152, 0.0722])
    return luminance


def _hex_luminance(color: str) -> float:
    rgb = np.array([int(color[k:k + 2], 16) for k in (1, 3, 5)], dtype=np.float64)
    return float(_relative_luminance(rgb))


_LIGHT_LUMINANCE = _hex_luminance(LIGHT_TEXT)
_DARK_LUMINANCE = _hex_luminance(DARK_TEXT)


def cell_colors(values: Any, scale: ColourScale, zmin: float, zmax: float) -> NDArray[np.float64]:
    """The RGB colour (0..255, last axis) painted for each value on a named scale."""
    stops = np.asarray(_STOPS[scale], dtype=np.float64)
    positions = np.linspace(0.0, 1.0, len(stops))
    span = zmax - zmin if zmax > zmin else 1.0
    t = np.clip((np.asarray(values, dtype=np.float64) - zmin) / span, 0.0, 1.0)
    t = np.nan_to_num(t, nan=0.0)
    return np.stack([np.interp(t, positions, stops[:, k]) for k in range(3)], axis=-1)


def light_text_mask(values: Any, scale: ColourScale, zmin: float, zmax: float) -> NDArray[np.bool_]:
    """True where white text contrasts more with the cell than near-black text (WCAG ratio)."""
    luminance = _relative_luminance(cell_colors(values, scale, zmin, zmax))
    with_light = (_LIGHT_LUMINANCE + 0.05) / (luminance + 0.05)
    with_dark = (luminance + 0.05) / (_DARK_LUMINANCE + 0.05)
    return with_light > with_dark


def value_range(values: NDArray[np.float64], zmax: float | None = None, *,
                diverging: bool = False) -> tuple[float, float]:
    """The ends of the colour scale: from 0 (or a negative minimum) to the largest value; for a
    ``diverging`` scale, symmetric around 0 so that 0 is painted its middle (white).

    All zeros are painted the lightest colour, not the middle one: the range is then 0..1.

    >>> value_range(np.array([-0.3, 0.5]), diverging=True), value_range(np.array([0.0, 2.0]))
    ((-0.5, 0.5), (0.0, 2.0))
    """
    finite = values[np.isfinite(values)]
    if diverging:
        reach = float(np.abs(finite).max()) if finite.size else 0.0
        reach = reach if reach > 0 else 1.0
        return -reach, reach
    zmin = min(0.0, float(finite.min())) if finite.size else 0.0
    top = float(finite.max()) if finite.size else 0.0
    high = float(zmax) if zmax is not None else top
    if not high > zmin:
        high = zmin + 1.0
    return zmin, high
