"""A step's picture in small: a few dozen SVG shapes, for the presenter console's "Next" (plain Python).

No Vega: a thumbnail costs a string, not a chart. A matrix (the last two axes of the step's first batch
element and head) is a grid of coloured cells on the heatmaps' own scales (ui/draw/colours.py): blues from
0 to the largest for weights, red-blue around 0 for anything else; a vector is a row of bars; a number has
no picture.
"""

from __future__ import annotations

from html import escape

import numpy as np

from . import colours
from .charts import heatmap_data

__all__ = ["thumbnail_svg"]

WIDTH, HEIGHT = 160, 96  # px: beside the words of the console's "Next"
MAX_CELLS = 12  # a larger matrix is averaged in blocks, as the heatmaps are


def thumbnail_svg(values: np.ndarray, weights: bool, label: str) -> str | None:
    """The picture of ``values`` (any shape; NaN and -inf are hidden cells), or None for a single number.
    ``label`` is its accessible name."""
    values = np.asarray(values, dtype=float)
    while values.ndim > 2:
        values = values[0]
    if values.ndim == 0 or values.size <= 1:
        return None
    shapes = _bars(values, weights) if values.ndim == 1 else _cells(values, weights)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">{shapes}</svg>')


def _fill(rgb: np.ndarray) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(c) for c in rgb))


def _cells(values: np.ndarray, weights: bool) -> str:
    data = heatmap_data(values, [str(i) for i in range(values.shape[0])], [str(j) for j in range(values.shape[1])],
                        max_side=MAX_CELLS)
    rows, cols = data.values.shape
    side = min(WIDTH / cols, HEIGHT / rows)
    left, top = (WIDTH - side * cols) / 2, (HEIGHT - side * rows) / 2
    painted = colours.paint(*colours.scale_position(data.values, weights))
    return "".join(
        f'<rect x="{left + j * side:.1f}" y="{top + i * side:.1f}" width="{side:.1f}" height="{side:.1f}" '
        f'fill="{"#cfcfcf" if data.hidden[i, j] else _fill(painted[i, j])}" stroke="#fff" stroke-width="0.5"/>'
        for i in range(rows) for j in range(cols))


def _bars(values: np.ndarray, weights: bool) -> str:
    shown = np.nan_to_num(np.where(np.isneginf(values), np.nan, values), nan=0.0)[:MAX_CELLS * 2]
    top = max(1e-9, float(np.abs(shown).max()))
    low = 0.0 if shown.min() >= 0 else top
    width = WIDTH / len(shown)
    zero = HEIGHT * top / (top + low) if low else HEIGHT
    colour = _fill(colours.paint("blues", 0.75) if weights else colours.paint("redblue", 0.15))
    return "".join(
        f'<rect x="{k * width + 1:.1f}" y="{min(zero, zero - v / (top + low) * HEIGHT):.1f}" '
        f'width="{max(1.0, width - 2):.1f}" height="{abs(v) / (top + low) * HEIGHT:.1f}" fill="{colour}"/>'
        for k, v in enumerate(shown))
