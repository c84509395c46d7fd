"""One heatmap's Vega-Lite spec: its cells' size, its axes, its colour scale (computed in the browser from the
data) and its layers (coloured cells, hidden cells in hatched grey, the values written in).

The spec depends only on the kind of chart, its titles and its size class (ui/draw/charts.py says why); the
values travel in the data (chart_cells.py).

The fixed part is built on every call, not cached: measured, the axes, layers, colour scale and size take about
20 µs together, 1 to 3% of a heatmap (0.7 ms at 6 x 6, 2 ms at 12 x 12), and the rest is the cells' records, which
change with the values. A cache would be keyed by the titles, the language, the size class and whether a mask
shows, and would hand the same nested dicts to every caller (Streamlit, the light page's renderer) to mutate, for
a saving no one would see.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..words.content import app_text
from .chart_cells import MAX_SIDE, ZERO_TO_ONE, HeatmapData, _cell_records, heatmap_data, heatmap_name
from .chart_spec import MASKED_COLOUR, SCHEMA, styled

__all__ = ["DATASET", "LEGEND", "LEGEND_BESIDE", "MAX_CELLS_WITH_TEXT", "PATTERN_WIDTH", "heatmap"]

MAX_CELLS_WITH_TEXT = 144  # up to 12 x 12 the numbers are written in the cells
PATTERN_WIDTH = 280  # a pattern heatmap's width: it fits half the main area at 1280 px, legend included
# Legends under the cells: a heatmap is then no wider than its cells and labels, and fits a phone.
LEGEND = {"orient": "bottom", "direction": "horizontal", "gradientLength": 160, "titleOrient": "left"}
# A tall heatmap (a few columns: d_out = 2) projected: its legend beside it, where the screen has room.
LEGEND_BESIDE = {"orient": "right", "direction": "vertical", "gradientLength": 160}
DATASET = "cells"  # the name of a heatmap's dataset


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
    # What depends on the values lives in the data, never in the spec: see ui/draw/charts.py's docstring.
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


