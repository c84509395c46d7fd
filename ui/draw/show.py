"""Drawing helpers: a trace's steps as heatmaps, bars, printed tensors, tables and source.

They take plain records from the ``attention`` package (traces, steps, comparisons)
and draw them; they compute nothing but the chart data.

This module draws a trace's steps as charts (heatmaps, grids of heads, bars), and any step by its axes. What sits
around them is beside it: layout.py (columns, folds, headings), tensors.py (printed tensors, tables, shapes),
formula.py and listing.py (the code that ran); their names are gathered here too, as they always were.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from html import escape

import numpy as np
import pyarrow as pa
import streamlit as st
import torch

from attention import Trace

from .. import state
from ..words.content import app_text
from ..words.i18n import decimal_comma
from . import charts, stepchart
from .formula import breakable, show_formula
from .layout import _read_not_seen, narrow_screen, side_by_side, step_heading
from .listing import show_source, show_step_code
from .printed import tensor_text
from .tensors import PRINTED_SELECTOR, print_tensor, printed_in, show_comparisons, show_shapes, show_table, show_tensor

__all__ = [
    "PRINTED_SELECTOR", "breakable", "narrow_screen", "per_head", "print_tensor", "printed_in", "show_chart",
    "show_comparisons", "show_formula", "show_heads", "show_matrix",
    "show_row", "show_shapes", "show_source", "show_step", "show_step_code", "show_table", "show_tensor",
    "show_vector", "side_by_side", "step_heading", "tensor_text",
]


# The level of a chart's heading: 2 on a page, 3 under a step's heading (show_step)
_chart_level: contextvars.ContextVar[int] = contextvars.ContextVar("chart_level", default=2)

# Vega's number locale for a language that writes a decimal comma (Indonesian, Vietnamese)
READER_NUMBERS = {"number": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["", ""]}}


def show_chart(spec: dict, width: str = "content") -> None:
    """Draw a Vega-Lite spec from ui.draw.charts.

    Its named datasets (lists of records) go to Streamlit as Arrow tables, which it sends as they
    are; a list of records would go through a pandas DataFrame first, on every chart of every rerun.
    """
    datasets = {name: pa.Table.from_pylist(rows) for name, rows in spec.get("datasets", {}).items()}
    if decimal_comma(state.language()):  # cell labels, axes, legends and tooltips: 0,9995 and 99.980.000
        spec = {**spec, "config": {**spec.get("config", {}), "locale": READER_NUMBERS}}
    # Read, not seen, before the chart: its heading (H2, or H3 under a step's heading) and its values as tables.
    _read_not_seen(charts.heading(spec), _chart_level.get(), "".join(map(_table_html, charts.tables(spec))),
                   css="chart-heading")
    st.vega_lite_chart(spec={**spec, "datasets": datasets} if datasets else spec, width=width)


def _table_html(table: charts.Table) -> str:
    """A chart's values as an HTML table with row and column headers, for a screen reader: not on
    screen (``sr-only``, ui/shell/access.css), after the chart in the reading order."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in [table.corner, *table.columns])
    body = "".join(f'<tr><th scope="row">{escape(row)}</th>{"".join(f"<td>{escape(c)}</td>" for c in cells)}</tr>'
                   for row, cells in table.rows)
    return (f"<table><caption>{escape(table.caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def _numpy(t: torch.Tensor | None) -> np.ndarray | None:
    return None if t is None else t.detach().cpu().float().numpy()


def show_matrix(
    trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str], *, kind: str = "weights",
    index: tuple[int, ...] = (), title: str | None = None, row_title: str | None = None, col_title: str | None = None,
    printed: bool = True, pattern: bool = False, swappable: bool = False,
) -> None:
    """A heatmap of a 2-D slice of a step (``index`` picks batch/head), with its printed tensor.

    Cells the computation hid are hatched and labelled "masked" wherever the step carries the mask
    (:meth:`Trace.hidden_in`: not the weights before the mask), and cells dropout zeroed are
    labelled "dropped". ``pattern`` draws a picture of fixed width, values in the tooltip;
    ``swappable`` keeps one spec whatever the step shows (:func:`ui.draw.charts.heatmap`).
    """
    tensor = trace[name][index] if index else trace[name]
    show_chart(charts.heatmap(_numpy(tensor), rows, cols, title=title or name, kind=kind,
                              masked=_numpy(trace.hidden_in(name, index)),
                              dropped=_numpy(trace.dropped_in(name, index)), row_title=row_title, col_title=col_title,
                              lecture=state.lecture_mode(), pattern=pattern, swappable=swappable))
    if printed:
        with st.expander(app_text("printed_tensor", name=name, shape=tuple(tensor.shape))):
            print_tensor(tensor)


def show_heads(trace: Trace, rows: Sequence[str], cols: Sequence[str], *, batch: int = 0, name: str | None = None,
               kind: str = "weights", swappable: bool = False) -> None:
    """One heatmap per head of a (batch, head, query, key) step (the applied weights unless ``name``),
    batch element ``batch``; hidden cells hatched where the step carries the mask."""
    step = trace.step(name) if name else trace.applied_weights
    per_head = step.tensor[batch]  # (heads, queries, keys)
    hidden = _numpy(trace.hidden_in(step.name, (batch, 0)))
    show_chart(charts.head_grid(_numpy(per_head), rows, cols, masked=hidden, lecture=state.lecture_mode(), kind=kind,
                                title=step.name if swappable else "", swappable=swappable,
                                columns=1 if narrow_screen() else 4))


def show_vector(trace: Trace, name: str, labels: Sequence[str], *, title: str | None = None,
                value_title: str | None = None, domain: tuple[float, float] | None = None) -> None:
    """A 1-D step as one bar per token; a key the step hides is labelled "masked", not drawn as 0."""
    show_chart(charts.bars(_numpy(trace[name]), labels, title=title or name, value_title=value_title,
                           domain=domain, masked=_numpy(trace.hidden_in(name)), lecture=state.lecture_mode()),
               width="stretch")


def show_row(trace: Trace, name: str, row: int, labels: Sequence[str], *, title: str,
             value_title: str | None = None, domain: tuple[float, float] | None = (0, 1)) -> None:
    """One row of a 2-D step as bars (e.g. one query's weights)."""
    show_chart(charts.bars(_numpy(trace[name])[row], labels, title=title,
                           value_title=value_title or app_text("axis_weight"), domain=domain,
                           lecture=state.lecture_mode()), width="stretch")


WEIGHT_LIKE = stepchart.WEIGHT_LIKE


def per_head(trace: Trace, name: str) -> bool:
    """Whether :func:`show_step` draws this step as a grid of heads, one heatmap per head."""
    return stepchart.grid_of_heads(trace.step(name).dims)


def show_step(trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str] | None = None) -> None:
    """Any recorded step, drawn by its axes: a heatmap for (query, key), per head when it has heads,
    bars for a vector over the tokens, a heatmap of values for (token, width); always printed.

    ``rows`` name the queries (and tokens), ``cols`` the keys (the same tokens unless cross-attention). It is
    drawn under the step's heading (an H2): its chart's heading is an H3.
    """
    level = _chart_level.set(3)
    try:
        _show_step(trace, name, rows, rows if cols is None else cols)
    finally:
        _chart_level.reset(level)


def _show_step(trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str]) -> None:
    step = trace.step(name)
    spec = stepchart.step_chart(name, step.dims, _numpy(step.tensor), rows, cols, hidden=_numpy(trace.hidden_in(name)),
                                dropped=_numpy(trace.dropped_in(name)), lecture=state.lecture_mode(),
                                columns=1 if narrow_screen() else 4)
    if spec is not None:  # bars take the column's width; a heatmap its cells'
        show_chart(spec, width="stretch" if len(step.dims) == 1 else "content")
    show_tensor(trace, name)
