"""Chart builders: plain data in, a Vega-Lite spec (a plain dict) out.

The specs are what Altair would produce, written directly: building and validating a
heatmap with Altair costs about 35 ms on the target CPU (schema validation and deep
copies), three heatmaps a rerun add ~100 ms, more than the minimal app's whole round
trip. The tests validate every spec against Altair's bundled Vega-Lite schema instead,
once, so the rules are still checked.

The data travels in named ``datasets`` and the spec itself depends only on the kind of
chart, its titles and its size class, never on the values or the labels: the axes are
sorted by a position column (``i``, ``j``) of the data, not by a list of labels. Streamlit
sends named datasets beside the spec, and when the spec of a chart is unchanged the browser
swaps the data into the chart already drawn instead of compiling and drawing a new one. So a
new seed, an edited cell, a renamed token or another d_out costs a data update per chart,
not a new chart. The step-through goes further (``swappable``): its charts carry their title and
kind in the data and pick the colour scale in the browser, so going from one step to the next
of the same shape (scores to weights) swaps data too.

Heatmaps write the value in each cell when there are few enough cells to
read, name the query and key tokens in the tooltip, draw weights on a colour
scale from 0 to their largest (a row of weights near 1/6 still shows its pattern; the legend says
the top), scores and values on a scale symmetric around 0 out to their largest magnitude, and draw
masked cells in hatched grey with a "masked" label so they never look like a weight of zero.
Matrices too large to read are averaged in blocks first, and the chart title says so.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..words.content import app_text, label_number
from . import colours

__all__ = ["HeatmapData", "heatmap_data", "heatmap", "head_grid", "bars", "positional_labels", "MAX_CELLS_WITH_TEXT",
           "Table", "tables", "heatmap_name", "hidden_note", "kind_word"]

MAX_CELLS_WITH_TEXT = 144  # up to 12 x 12 the numbers are written in the cells
MAX_SIDE = 64  # larger matrices are averaged down to at most 64 x 64 blocks
PATTERN_WIDTH = 280  # a pattern heatmap's width: it fits half the main area at 1280 px, legend included
HEADS_IN_FULL = 8  # a head grid of up to 8 heads has full-size panels
HEAD_PANEL_PX = 276  # two panels side by side fill the main area at 1280 px; 46 px per token of six
MASKED_COLOUR = "#cfcfcf"
# Legends under the cells: a heatmap is then no wider than its cells and labels, and fits a phone.
LEGEND = {"orient": "bottom", "direction": "horizontal", "gradientLength": 160, "titleOrient": "left"}
# A tall heatmap (a few columns: d_out = 2) projected: its legend beside it, where the screen has room.
LEGEND_BESIDE = {"orient": "right", "direction": "vertical", "gradientLength": 160}


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


def positional_labels(labels: Sequence[str]) -> list[str]:
    """The tokens as axis labels that name one position each: a repeated token gets its position.

    Vega-Lite draws one band per distinct label, so "the cat sat on the mat" would lose a row and a
    column if the two "the" were the same label: ``["the (1)", "cat", "sat", "on", "the (5)", "mat"]``.
    Every chart builder labels its axes through this.
    """
    labels = [str(label) for label in labels]
    counts = Counter(labels)
    named = [f"{label} ({i + 1})" if counts[label] > 1 else label for i, label in enumerate(labels)]
    if len(set(named)) < len(named):  # "x (5)" given as a token, beside a fifth "x": number every position
        named = [f"{label} ({i + 1})" for i, label in enumerate(labels)]
    return named


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


SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"

# Text sizes (px) on a laptop and projected in a lecture hall: at least 20 px, readable from the back of a
# 60-seat room at 1280x720 (the projection scales its charts up to its column, never below these).
TEXT_SIZES = {
    False: {"cell": 11, "axis": 11, "axis_title": 12, "legend": 11, "title": 13},
    True: {"cell": 20, "axis": 20, "axis_title": 20, "legend": 20, "title": 22},
}


def styled(spec: dict, lecture: bool = False) -> dict:
    """The spec with the text sizes of the mode (a Vega-Lite ``config``; cells grow in lecture mode)."""
    size = TEXT_SIZES[lecture]
    spec["config"] = {
        "text": {"fontSize": size["cell"]},
        "axis": {"labelFontSize": size["axis"], "titleFontSize": size["axis_title"]},
        "legend": {"labelFontSize": size["legend"], "titleFontSize": size["legend"]},
        "title": {"fontSize": size["title"]},
        "header": {"labelFontSize": size["title"]},
    }
    return spec


DATASET = "cells"  # the name of a heatmap's dataset
KINDS = ("weights", "scores", "values", "mask")  # what a heatmap shows; its legend is app_text("legend_<kind>")
ZERO_TO_ONE = ("weights", "mask")  # kinds drawn on the blue scale from 0: weights to their largest, a mask to 1


def heatmap(
    values: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    title: str = "",
    row_title: str | None = None,  # default: the word for "query" in the current language
    col_title: str | None = None,  # default: "key"
    kind: str = "weights",
    masked: np.ndarray | None = None,
    dropped: np.ndarray | None = None,
    show_values: bool | None = None,
    width: int | None = None,
    max_side: int = MAX_SIDE,
    note_scale: bool = True,
    dataset: str = DATASET,
    lecture: bool = False,
    pattern: bool = False,
    swappable: bool = False,
) -> dict:
    """One heatmap. ``kind``: "weights" ([0, largest]) or "mask" ([0, 1]), "scores" or "values" (diverging).

    ``lecture``: larger cells and text. ``pattern``: a picture read as a whole (the positions), values in
    the tooltip. ``swappable``: one spec for every kind and title. ``masked`` cells are hatched and say
    "masked", ``dropped`` ones (dropout) say "dropped": neither reads as a weight the softmax made 0.
    """
    data = heatmap_data(values, row_labels, col_labels, masked, max_side, dropped)
    if data.aggregated:
        title = app_text("chart_averaged", title=title, rows=data.block[0], cols=data.block[1])
    if show_values is None or pattern:
        show_values = not pattern and data.cells <= MAX_CELLS_WITH_TEXT
    # What depends on the values lives in the data, never in the spec: see the module docstring.
    scale, params, ends = _colour_scale(kind, dataset, swappable)
    if kind == "weights" and data.aggregated and note_scale:
        title = app_text("chart_scale_note", title=title)
    row_title, col_title = row_title or app_text("axis_query"), col_title or app_text("axis_key")
    records = _cell_records(data, kind, row_title, col_title)
    name = heatmap_name(data, kind, title, row_title, col_title, swappable)
    if swappable:
        records, title = _swappable(records, kind, title, dataset)
    spec = {
        "$schema": SCHEMA, "description": name, "title": title, "datasets": {dataset: records},
        "data": {"name": dataset},
        **_cell_size(data, show_values, width, lecture, pattern),
        "encoding": _axes(data, row_title, col_title, show_values, upright=pattern),
        "layer": _layers(data, scale, None if swappable else kind, show_values, always_hatch=swappable,
                         legend={**(LEGEND_BESIDE if lecture and 2 * len(data.col_order) <= len(data.row_order)
                                    else LEGEND), **ends}),
    }
    return styled({**spec, "params": params} if params else spec, lecture)


def _swappable(records: list[dict], kind: str, title: str, dataset: str) -> tuple[list[dict], dict]:
    """The records with their kind and title in them, and a title read from the data.

    Heatmaps of one shape then share one spec whatever they show, and a step-through going from
    scores to weights swaps the data into the drawn chart instead of building a new one.
    """
    return [{**cell, "kind": kind, "title": title} for cell in records], {
        "text": {"expr": f"pluck(data('{dataset}'), 'title')[0]"}}


def _colour_scale(kind: str, dataset: str, swappable: bool = False) -> tuple[dict, list[dict], dict]:
    """The colour scale, the Vega parameters it needs (computed in the browser from the data), and what its
    legend labels: the domain's ends (and 0 between a diverging scale's), so that the legend says how far the
    colours go (a legend of "-1 … 1" on a scale out to 1.495 read as a clamped one).

    ``swappable``: one scale for every kind, chosen in the browser by the data's ``kind`` column.
    """
    if kind == "mask" and not swappable:
        return {"domain": [0, 1], "scheme": "blues", "clamp": True}, [], {}
    # Weights from 0 to their largest: on [0, 1], six weights near 1/6 (or block means near 1/T) would
    # all look one pale blue. Scores symmetric around zero: equal colour for equal magnitude, white at 0.
    values_of = f"pluck(data('{dataset}'), 'value')"
    top, bound = f"{dataset}_top", f"{dataset}_bound"
    params = [{"name": top, "expr": f"max(1e-9, extent({values_of})[1])"},
              {"name": bound, "expr": f"max(1e-9, abs(extent({values_of})[0]), abs(extent({values_of})[1]))"}]
    ends = {"format": ".3~f"}
    if kind in ZERO_TO_ONE and not swappable:
        return ({"domain": {"expr": f"[0, {top}]"}, "scheme": "blues", "clamp": True}, params[:1],
                {**ends, "values": {"expr": f"[0, {top}]"}})
    if not swappable:
        return ({"domain": {"expr": f"[-{bound}, {bound}]"}, "scheme": "redblue", "reverse": True}, params[1:],
                {**ends, "values": {"expr": f"[-{bound}, 0, {bound}]"}})
    weights = f"{dataset}_is_weights"
    params.append({"name": weights, "expr": f"indexof(pluck(data('{dataset}'), 'kind'), 'weights') >= 0"})
    return ({"domain": {"expr": f"{weights} ? [0, {top}] : [-{bound}, {bound}]"},
             "scheme": {"expr": f"{weights} ? 'blues' : 'redblue'"},
             "reverse": {"expr": f"!{weights}"}, "clamp": True}, params,
            {**ends, "values": {"expr": f"{weights} ? [0, {top}] : [-{bound}, 0, {bound}]"}})


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


def _cell_size(data: HeatmapData, show_values: bool, width: int | None, lecture: bool = False,
               pattern: bool = False) -> dict:
    """Streamlit sizes charts itself; a step (pixels per cell), or a fixed width, is the size that survives."""
    if pattern:
        return {"width": (width or PATTERN_WIDTH) * (2 if lecture else 1), "height": {"step": 40 if lecture else 28}}
    if show_values:
        return {"width": {"step": 80}, "height": {"step": 44}} if lecture else {"width": {"step": 46},
                                                                                 "height": {"step": 28}}
    target = (width or 400) * (2 if lecture else 1)
    return {"width": {"step": max(4, min(40, target // max(len(data.col_order), 1)))},
            "height": {"step": max(4, min(30, target // max(len(data.row_order), 1)))}}


def _axes(data: HeatmapData, row_title: str, col_title: str, show_values: bool, upright: bool = False) -> dict:
    # Upright labels while they fit: few columns, or short ones ("d12") in cells wide enough for values
    # (or always, for a pattern, whose labels thin out). Counting columns alone would change the spec,
    # and redraw the chart, when d_model goes from 8 to 12.
    longest = max(map(len, data.col_order), default=0)
    fits = upright or (len(data.col_order) <= 8 and (show_values or longest <= 5)) or (show_values and longest <= 4)
    label_angle = 0 if fits else -45
    return {
        "x": {"field": "col", "type": "nominal", "sort": {"field": "j", "op": "min"}, "title": col_title,
              # every token's label while they can all be read (a greedy overlap test dropped "journey")
              "axis": {"labelAngle": label_angle, "labelLimit": 90,
                       "labelOverlap": "greedy" if upright or len(data.col_order) > 16 else False}},
        "y": {"field": "row", "type": "nominal", "sort": {"field": "i", "op": "min"}, "title": row_title,
              "axis": {"labelLimit": 90, "labelOverlap": True}},
        "tooltip": [
            {"field": "row", "type": "nominal", "title": row_title},
            {"field": "col", "type": "nominal", "title": col_title},
            {"field": "label", "type": "nominal", "title": app_text("axis_value")},
        ],
    }


def _layers(data: HeatmapData, scale: dict, kind: str | None, show_values: bool,
            always_hatch: bool = False, legend: dict = LEGEND) -> list[dict]:
    """Coloured cells, hatching on hidden cells, and the values written in the cells.

    ``kind`` None: a legend without a title. ``always_hatch``: the hatching layer even when no cell
    is hidden (it then draws nothing), so that a mask coming and going does not change the spec.
    """
    n_cells = data.cells
    layers: list[dict] = [{
        # "show": a hidden cell (no value) is drawn too, in its grey, and says "masked" to a screen reader, as the
        # table does; filtered out, as Vega-Lite does by default, the chart's cell sentences skipped every one
        "mark": {"type": "rect", "stroke": "white", "strokeWidth": 0.5 if n_cells <= 4096 else 0, "invalid": "show"},
        "encoding": {"color": {
            "condition": {"test": "datum.masked", "value": MASKED_COLOUR},
            "field": "value", "type": "quantitative", "scale": scale,
            "title": app_text(f"legend_{kind}") if kind else None,
            "legend": legend,
        }, "description": {"field": "says", "type": "nominal"}},  # what a screen reader reads for the cell
    }]
    hides = always_hatch or bool(data.hidden.any())
    if hides:  # hidden cells have no value: their grey is a layer of its own (drawn under the hatching)
        layers.append({"transform": [{"filter": "datum.masked"}],
                       "mark": {"type": "rect", "color": MASKED_COLOUR, "stroke": "white", "aria": False,
                                "strokeWidth": 0.5 if n_cells <= 4096 else 0}})
    if hides and n_cells <= 4096 and not show_values:
        # A diagonal stroke marks hidden cells, so grey never reads as "weight 0".
        layers.append({"transform": [{"filter": "datum.masked"}],
                       "mark": {"type": "text", "text": "╱", "fontSize": 18, "color": "#8a8a8a", "aria": False}})
    if show_values:
        layers.append({
            "mark": {"type": "text", "baseline": "middle", "aria": False},  # the cell's sentence says it
            "encoding": {"text": {"field": "label", "type": "nominal"},
                         "color": {"condition": {"test": "datum.strong", "value": "white"}, "value": "black"}},
        })
    return layers


def head_grid(
    weights: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    masked: np.ndarray | None = None,
    columns: int = 4,
    title_prefix: str | None = None,  # default: "head" in the current language
    lecture: bool = False,
    kind: str = "weights",
    title: str = "",
    swappable: bool = False,
) -> dict:
    """One heatmap per head (weights by default), in a grid: one faceted chart, a panel per head.

    The heads are a column of the data, so changing 1, 2, 4 or 8 heads (up to HEADS_IN_FULL, and
    again above it) updates the drawn chart in place. Each panel shows its head's pattern, the
    values in the tooltip: 8 heads of 6 tokens written out would be 288 numbers to redraw per edit.
    In lecture mode up to 4 heads of up to 64 cells have their values written in.
    """
    if columns > 1:  # one column (a phone) stays one
        columns = 2 if len(col_labels) <= 8 else (3 if len(col_labels) > MAX_SIDE else columns)
    unit, records = _panels(weights, row_labels, col_labels, masked=masked, lecture=lecture, kind=kind, title=title,
                            swappable=swappable)
    title = unit["title"] if swappable else unit["title"].strip()  # else "(averaged over ...)", or empty
    spec: dict = {
        "$schema": SCHEMA,
        "description": _grid_name(len(row_labels), len(col_labels), None if swappable else masked),
        "datasets": {"heads": records},
        "data": {"name": "heads"},
        "facet": {"field": "head", "type": "ordinal", "title": None, "header": _head_header(title_prefix)},
        "columns": columns,
        "spec": {key: unit[key] for key in ("width", "height", "encoding", "layer")},
        # each panel its own key axis: no axis under the empty place of an odd number of heads
        "resolve": {"scale": {"color": "shared"}, "axis": {"x": "independent"}},
    }
    if title:
        spec["title"] = title
    if unit.get("params"):  # the diverging scale's bound (and kind), computed from the data
        spec["params"] = unit["params"]
    return styled(spec, lecture)


def _panels(weights: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str], **options: Any
            ) -> tuple[dict, list[dict]]:
    """One head's heatmap spec (the grid's unit) and every head's cells, each cell's sentence naming its head."""
    n_heads = weights.shape[0]
    few = n_heads <= HEADS_IN_FULL
    written = _values_written(options["lecture"], n_heads, len(row_labels) * len(col_labels))
    records: list[dict] = []
    unit: dict = {}
    for h in range(n_heads):
        unit = heatmap(weights[h], row_labels, col_labels, width=HEAD_PANEL_PX if few else 150, show_values=written,
                       max_side=MAX_SIDE if few else 32, note_scale=False, dataset="heads", **options)
        head = f"{app_text('head_label')} {h + 1}: "
        records += [{**cell, "head": h + 1, "says": head + cell["says"]} for cell in unit["datasets"]["heads"]]
    return unit, records


def _grid_name(rows: int, cols: int, masked: np.ndarray | None) -> str:
    """A grid of heads' accessible name: the size of each panel and the mask, not the number of heads
    (1, 2, 4 or 8 heads keep one spec; the tables and the cells name each head)."""
    name = app_text("a11y_heads", rows=rows, cols=cols, row_title=app_text("axis_query"),
                    col_title=app_text("axis_key"))
    return name if masked is None else name + hidden_note(np.asarray(masked, dtype=bool))


def _values_written(lecture: bool, n_heads: int, cells: int) -> bool:
    """Projected, a few small heads are read aloud: their values are written in (at most 4 x 64 numbers)."""
    return lecture and n_heads <= 4 and cells <= 64


def _head_header(title_prefix: str | None) -> dict:
    """Each panel's header: "head 1", "head 2"... in the reader's language."""
    return {"labelExpr": f"{json.dumps((title_prefix or app_text('head_label')) + ' ')} + datum.value",
            "labelFontWeight": "bold", "labelAnchor": "start"}


def bars(values: Sequence[float], labels: Sequence[str], *, title: str = "", value_title: str | None = None,
         domain: tuple[float, float] | None = None, masked: np.ndarray | None = None, lecture: bool = False) -> dict:
    """A labelled bar per token (e.g. one query's weights, or each token's influence).

    A ``masked`` key has no bar: the word "masked" stands at the baseline, on a hatched grey band,
    as in the heatmaps, so that it never reads as a weight of 0.
    """
    value_title = value_title or app_text("axis_value")
    records = _bar_records(values, labels, masked, value_title)
    hidden = sum(r["masked"] for r in records)
    name = app_text("a11y_bars", title=title, what=value_title, n=len(records)) + (
        app_text("a11y_masked", n=hidden) if hidden else "")
    y: dict = {"field": "value", "type": "quantitative", "title": value_title}
    if domain:
        y["scale"] = {"domain": list(domain)}
    return styled({
        "$schema": SCHEMA,
        "description": name,
        "title": title,
        "datasets": {"bars": records},
        "data": {"name": "bars"},
        "height": 380 if lecture else 220,
        "encoding": {
            "x": {"field": "token", "type": "nominal", "sort": {"field": "i", "op": "min"},
                  "title": app_text("axis_token"),
                  "axis": {"labelAngle": -45}},
            "y": y,
            "tooltip": [{"field": "token", "type": "nominal"}, {"field": "label", "type": "nominal",
                                                                 "title": value_title}],
        },
        "layer": [
            {"mark": {"type": "bar"}, "encoding": {"description": {"field": "says", "type": "nominal"}}},
            {"mark": {"type": "text", "dy": -7, "aria": False},
             "encoding": {"text": {"field": "label", "type": "nominal"}}},
            *_masked_bars(),
        ],
    }, lecture)


def _bar_records(values: Sequence[float], labels: Sequence[str], masked: np.ndarray | None,
                 value_title: str) -> list[dict]:
    hidden = np.zeros(len(labels), dtype=bool) if masked is None else np.asarray(masked, dtype=bool)
    masked_word = app_text("cell_masked")
    return [{"token": t, "i": i, "value": None if m else float(v), "masked": bool(m),
             "label": masked_word if m else label_number(float(v)),
             "says": app_text("a11y_bar_masked", token=t) if m
             else app_text("a11y_bar", token=t, what=value_title, value=label_number(float(v)))}
            for i, (t, v, m) in enumerate(zip(positional_labels(labels), values, hidden, strict=True))]


def _masked_bars() -> list[dict]:
    """The masked keys of a bar chart: a grey band across the plot, hatched, with the word "masked"."""
    only_masked = [{"filter": "datum.masked"}]
    return [
        {"transform": only_masked, "mark": {"type": "bar", "color": MASKED_COLOUR, "opacity": 0.6, "aria": False},
         "encoding": {"y": {"value": 0}, "y2": {"value": {"expr": "height"}}}},
        {"transform": only_masked, "mark": {"type": "text", "angle": 270, "color": "#555555", "fontStyle": "italic",
                                            "aria": False},
         "encoding": {"y": {"value": {"expr": "height / 2"}}, "text": {"field": "label", "type": "nominal"}}},
    ]


# Blue, orange, grey: apart under deuteranopia and protanopia too (tests/test_colours.py); green and orange are not.
POLL_COLOURS = {"right": "#1565c0", "mistake": "#e65100", "other": "#9e9e9e"}


def answers_chart(bars: Sequence[Any], *, other_label: str, kind_words: dict[str, str], answer_title: str,
                  count_title: str, legend_title: str, lecture: bool = False) -> dict:
    """A class poll's answers (ui/check/tally.py ``Bar``s): one horizontal bar per distinct answer, most
    given first, coloured right / a known mistake / another answer, with its count written at its end."""
    records = [{"answer": bar.shown if bar.shown is not None else other_label, "n": bar.count, "i": i,
                "kind": kind_words["right" if bar.correct else "mistake" if bar.mistake else "other"]}
               for i, bar in enumerate(bars)]
    for record in records:
        record["says"] = app_text("a11y_poll_bar", answer=record["answer"], n=record["n"], kind=record["kind"])
    order = [kind_words[k] for k in POLL_COLOURS]
    return styled({
        "$schema": SCHEMA,
        "description": app_text("a11y_poll", n=sum(r["n"] for r in records), distinct=len(records)),
        "datasets": {"answers": records},
        "data": {"name": "answers"},
        "height": {"step": 44 if lecture else 26},
        "encoding": {
            "y": {"field": "answer", "type": "nominal", "sort": {"field": "i", "op": "min"}, "title": answer_title},
            "x": {"field": "n", "type": "quantitative", "title": count_title, "axis": {"tickMinStep": 1}},
            "color": {"field": "kind", "type": "nominal", "title": legend_title,
                      "scale": {"domain": order, "range": list(POLL_COLOURS.values())},
                      "legend": {"orient": "bottom"}},
            "tooltip": [{"field": "answer", "type": "nominal", "title": answer_title},
                        {"field": "n", "type": "quantitative", "title": count_title},
                        {"field": "kind", "type": "nominal", "title": legend_title}],
        },
        "layer": [
            {"mark": {"type": "bar"}, "encoding": {"description": {"field": "says", "type": "nominal"}}},
            {"mark": {"type": "text", "align": "left", "dx": 4, "aria": False}, "encoding": {"text": {"field": "n"},
                                                                             "color": {"value": "#000"}}},
        ],
    }, lecture)


MAX_TABLE_CELLS = 1024  # a chart of more cells (up to 64 x 64 blocks) gets no table: no one reads 4,096 cells aloud


@dataclass(frozen=True)
class Table:
    """A chart's values as a table with row and column headers, for a screen reader (plain data)."""

    caption: str
    corner: str  # the header above the row headers: "query \\ key"
    columns: list[str]
    rows: list[tuple[str, list[str]]]  # (row header, the row's cells as labels: "0.1646", "masked", ...)


def heading(spec: dict) -> str:
    """A chart's title in words, for the heading a screen reader jumps to: a swappable chart's comes from its data
    (its spec's title is an expression), and a chart without a title is called by its accessible name."""
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    if isinstance(title, str) and title:
        return title
    records = next(iter(spec.get("datasets", {}).values()), [])
    if records and isinstance(records[0], dict) and records[0].get("title"):
        return str(records[0]["title"])
    return str(spec.get("description", ""))


def tables(spec: dict) -> list[Table]:
    """The tables a chart built here reads as: one per heatmap (per head in a grid), one for bars."""
    name, (records,) = spec.get("description", ""), spec["datasets"].values()
    if not records or len(records) > MAX_TABLE_CELLS:
        return []
    first = records[0]
    if "title" in first and "kind" in first and "i" in first:  # swappable: the data says what it shows
        name = f"{first['title']} ({kind_word(first['kind'])}) · {name}"
    caption = app_text("a11y_table", name=name)
    if "token" in first:
        title = spec["encoding"]["y"]["title"]
        return [Table(caption, app_text("axis_token"), [title], [(r["token"], [r["label"]]) for r in records])]
    if "answer" in first:
        y, x = spec["encoding"]["y"]["title"], spec["encoding"]["x"]["title"]
        return [Table(caption, y, [x, spec["encoding"]["color"]["title"]],
                      [(r["answer"], [str(r["n"]), r["kind"]]) for r in records])]
    encoding = spec.get("spec", spec)["encoding"]
    corner = f"{encoding['y']['title']} \\ {encoding['x']['title']}"
    if "head" not in first:
        return [_grid_table(caption, corner, records)]
    heads = sorted({r["head"] for r in records})
    return [_grid_table(f"{caption} {app_text('head_label')} {h}", corner, [r for r in records if r["head"] == h])
            for h in heads]


def _grid_table(caption: str, corner: str, records: list[dict]) -> Table:
    columns = [r["col"] for r in sorted({r["j"]: r for r in records}.values(), key=lambda r: r["j"])]
    rows: dict[int, tuple[str, list[str]]] = {}
    for r in records:  # row by row, column by column (as _cell_records lists them)
        rows.setdefault(r["i"], (r["row"], []))[1].append(r["label"])
    return Table(caption, corner, columns, list(rows.values()))
