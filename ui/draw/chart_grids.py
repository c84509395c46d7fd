"""Charts of several panels or bars: a grid of heads (one heatmap per head, one faceted chart), a bar per token,
and a class poll's answers.

Each is built from the heatmap's parts (chart_heatmap.py) or the shared basics (chart_spec.py), so that a head's
panel, a bar and a heatmap's cell say "masked" alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..words.content import app_text, label_number
from .chart_cells import MAX_SIDE, hidden_note
from .chart_heatmap import heatmap
from .chart_spec import MASKED_COLOUR, SCHEMA, positional_labels, styled

__all__ = ["HEAD_PANEL_PX", "HEADS_IN_FULL", "POLL_COLOURS", "answers_chart", "bars", "head_grid"]

HEADS_IN_FULL = 8  # a head grid of up to 8 heads has full-size panels
HEAD_PANEL_PX = 276  # two panels side by side fill the main area at 1280 px; 46 px per token of six


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
