"""What a heatmap shows, as data: its values (averaged in blocks when too large to draw), the cells it hides,
and one record per cell with the sentence a screen reader reads for it; and the chart's accessible name.

Apart from the spec (chart_heatmap.py), which never depends on the values: this is what changes from one edit to
the next. ``heatmap_data`` is read on its own too, by a thumbnail (thumbnail.py) and a student's exploration
(ui/lecture/spotlight.py).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..words.content import app_text, label_number
from . import colours
from .chart_spec import positional_labels

__all__ = ["KINDS", "MAX_SIDE", "ZERO_TO_ONE", "HeatmapData", "heatmap_data", "heatmap_name", "hidden_note",
           "kind_word"]

MAX_SIDE = 64  # larger matrices are averaged down to at most 64 x 64 blocks
KINDS = ("weights", "scores", "values", "mask")  # what a heatmap shows; its legend is app_text("legend_<kind>")
ZERO_TO_ONE = ("weights", "mask")  # kinds drawn on the blue scale from 0: weights to their largest, a mask to 1


@dataclass(frozen=True)
class HeatmapData:
    values: np.ndarray  # (rows, cols) what each cell shows; NaN where hidden
    hidden: np.ndarray  # (rows, cols) bool: masked cells
    dropped: np.ndarray  # (rows, cols) bool: cells dropout zeroed (none once averaged in blocks)
    row_order: list[str]
    col_order: list[str]
    block: tuple[int, int]  # (1, 1) unless the matrix was aggregated

    @property
    def aggregated(self) -> bool:
        return self.block != (1, 1)

    @property
    def cells(self) -> int:
        return self.values.size


def _block_mean(values: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Mean over (rows x cols) blocks, ignoring NaN (masked) entries."""
    h, w = values.shape
    hb, wb = -(-h // rows), -(-w // cols)
    padded = np.full((hb * rows, wb * cols), np.nan)
    padded[:h, :w] = values
    blocks = padded.reshape(hb, rows, wb, cols).swapaxes(1, 2).reshape(hb, wb, rows * cols)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN (fully masked) blocks
        return np.nanmean(blocks, axis=-1)


def heatmap_data(
    values: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    masked: np.ndarray | None = None,
    max_side: int = MAX_SIDE,
    dropped: np.ndarray | None = None,
) -> HeatmapData:
    """What a heatmap shows: the values (block means when too large to draw), hidden cells NaN."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"a heatmap needs a 2-D matrix, got shape {values.shape}")
    hidden = np.zeros(values.shape, dtype=bool) if masked is None else np.asarray(masked, dtype=bool)
    hidden = hidden | np.isneginf(values)
    shown = np.where(hidden, np.nan, values)
    dropped = np.zeros(values.shape, dtype=bool) if dropped is None else np.asarray(dropped, dtype=bool) & ~hidden
    h, w = shown.shape
    row_labels, col_labels = positional_labels(row_labels), positional_labels(col_labels)
    rows, cols = list(row_labels), list(col_labels)
    block = (1, 1)
    if h > max_side or w > max_side:
        block = (-(-h // max_side), -(-w // max_side))
        shown = _block_mean(shown, *block)
        rows = [f"{row_labels[i]}…" if block[0] > 1 else row_labels[i] for i in range(0, h, block[0])]
        cols = [f"{col_labels[j]}…" if block[1] > 1 else col_labels[j] for j in range(0, w, block[1])]
        hidden = np.isnan(shown)
        dropped = np.zeros(shown.shape, dtype=bool)
    return HeatmapData(shown, hidden, dropped, rows, cols, block)


def _cell_records(data: HeatmapData, kind: str, row_title: str, col_title: str) -> list[dict]:
    """One record per cell, row by row: its value, its label ("masked", "dropped" or the value), the
    sentence a screen reader reads for it, and whether its text is white (ui/draw/colours.py: the text
    colour with the higher contrast on the very colour Vega paints the cell).

    Plain lists, no DataFrame: this runs for every chart on every rerun, and building a pandas
    frame per chart cost more than the page's whole computation.
    """
    values, hidden = data.values, data.hidden
    masked_word, dropped_word = app_text("cell_masked"), app_text("cell_dropped")
    strong = colours.white_text(colours.paint(*_painted(data, kind)))
    records = []
    for i, row in enumerate(data.row_order):
        says = _sentences(row_title, row, col_title, kind)
        for j, col in enumerate(data.col_order):
            m, d, v = bool(hidden[i, j]), bool(data.dropped[i, j]), float(values[i, j])
            label = masked_word if m else (dropped_word if d else label_number(v))
            records.append({"row": row, "col": col, "i": i, "j": j, "value": None if m else v, "masked": m,
                            "label": label, "strong": bool(strong[i, j]) and not m,
                            "says": says["masked" if m else "dropped" if d else "value"].replace(_COL, col)
                            .replace(_VALUE, label)})
    return records


def _painted(data: HeatmapData, kind: str) -> tuple[str, np.ndarray]:
    """The scheme and each cell's position in it, as the scales of :func:`_colour_scale` place them."""
    if kind == "mask":  # [0, 1]
        return colours.scale_position(data.values, True, 1.0)
    return colours.scale_position(data.values, kind in ZERO_TO_ONE)  # weights: [0, largest]; else ±largest


_COL, _VALUE = "\x00col\x00", "\x00value\x00"  # filled per cell: one catalog lookup per row, not per cell


def _sentences(row_title: str, row: str, col_title: str, kind: str) -> dict[str, str]:
    """A row's cell sentences, each with ``_COL`` and ``_VALUE`` left to fill (labels may hold braces)."""
    where = {"row_title": row_title, "row": row, "col_title": col_title, "col": _COL}
    return {"value": app_text("a11y_cell", **where, kind=kind_word(kind), value=_VALUE),
            "masked": app_text("a11y_cell_masked", **where),
            "dropped": app_text("a11y_cell_dropped", **where)}


def kind_word(kind: str) -> str:
    """What one cell of a ``kind`` heatmap holds, in the reader's language ("weight", "score"...)."""
    return {"weights": app_text("a11y_kind_weights"), "scores": app_text("a11y_kind_scores"),
            "values": app_text("a11y_kind_values"), "mask": app_text("a11y_kind_mask")}[kind]


def heatmap_name(data: HeatmapData, kind: str, title: str, row_title: str, col_title: str,
                 swappable: bool = False) -> str:
    """The chart's accessible name: what it shows, its size, and what it hides.

    A ``swappable`` chart keeps one spec across the steps it shows (scores, then weights, masked or
    not), so its name says only its size; its title and cells, and the table beside it, say the rest.
    """
    size = {"rows": len(data.row_order), "cols": len(data.col_order), "row_title": row_title,
            "col_title": col_title}
    if swappable:
        return app_text("a11y_heatmap_shape", **size)
    return app_text("a11y_heatmap", title=title, kind=app_text(f"legend_{kind}") if kind != "mask"
                    else kind_word(kind), **size) + hidden_note(data.hidden, data.dropped)


def hidden_note(hidden: np.ndarray, dropped: np.ndarray | None = None) -> str:
    """"; causal mask: ..." / "; 3 cells masked" / "; dropout: ..." for a chart's name, or nothing."""
    note = ""
    if hidden.any():
        square = hidden.shape[0] == hidden.shape[1]
        causal = square and np.array_equal(hidden, np.triu(np.ones(hidden.shape, dtype=bool), k=1))
        note += app_text("a11y_causal") if causal else app_text("a11y_masked", n=int(hidden.sum()))
    if dropped is not None and dropped.any():
        note += app_text("a11y_dropped")
    return note
