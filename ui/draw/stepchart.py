"""Which chart a recorded step is drawn as, and its Vega-Lite spec (plain: no Streamlit).

ui/draw/show.py draws a step in a Streamlit run with this spec; the server's follower view (ui/follow/render.py)
renders the very same spec to SVG for a student's light page. One function for both, so that a follower's chart can
never drift from the projection's. It reads plain arrays, not a trace: what the follower view has is the picture a
projection published (ui/lecture/picture.py), and ``hidden`` and ``dropped`` are what the trace said of the step
(``Trace.hidden_in``, ``Trace.dropped_in``), shaped like the step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..words.content import app_text
from . import charts

__all__ = ["WEIGHT_LIKE", "axis", "grid_of_heads", "step_chart"]

WEIGHT_LIKE = ("weights", "mask", "keep")  # steps drawn on the blue scale from 0


def grid_of_heads(dims: Sequence[str]) -> bool:
    """Whether a step of these axes is drawn as a grid of heads, one heatmap per head."""
    return tuple(dims[-2:]) == ("query", "key") and "head" in dims


def step_chart(name: str, dims: Sequence[str], values: np.ndarray, rows: Sequence[str], cols: Sequence[str], *,
               hidden: np.ndarray | None = None, dropped: np.ndarray | None = None, lecture: bool = False,
               columns: int = 4) -> dict | None:
    """The chart of step ``name`` (its values shaped by ``dims``), or None where it is only printed: a heatmap for
    (query, key), per head when it has heads, bars for a vector over the tokens, a heatmap of values for
    (token, width). Batch element 0, and head 0 unless drawn per head. Swappable charts: going from one step to the
    next (scores to weights) swaps data, not the chart."""
    dims = tuple(dims)
    kind = "weights" if any(w in name for w in WEIGHT_LIKE) else "scores"
    lead = tuple(0 for _ in dims[:-2])
    if grid_of_heads(dims):  # every head, as its own panel (the mask of the first head: the same for all)
        per_head = values[0]  # (heads, queries, keys)
        masked = None if hidden is None else hidden[(0, 0)]
        return charts.head_grid(per_head, axis(rows, values.shape[-2]), axis(cols, values.shape[-1]), masked=masked,
                                lecture=lecture, kind=kind, title=name, swappable=True, columns=columns)
    if dims[-2:] == ("query", "key"):
        return charts.heatmap(_at(values, lead), axis(rows, values.shape[-2]), axis(cols, values.shape[-1]),
                              title=name, kind=kind, masked=_at(hidden, lead), dropped=_at(dropped, lead),
                              lecture=lecture, swappable=True)
    if len(dims) == 1 and dims[0] in ("key", "token") and values.shape[0] == len(cols if dims[0] == "key" else rows):
        return charts.bars(values, cols if dims[0] == "key" else rows, title=name,
                           domain=(0, 1) if kind == "weights" else None, masked=hidden, lecture=lecture)
    if dims[-3:-1] == ("token", "head") and values.shape[-1] * values.shape[-2] <= 64:
        split = _at(values, lead[:-1])  # (token, head, head_dim): d_out columns per token, cut into heads
        tokens, heads, width = split.shape
        names = [f"h{h + 1}·{j + 1}" for h in range(heads) for j in range(width)]
        return charts.heatmap(split.reshape(tokens, heads * width), axis(rows, tokens), names, title=name,
                              kind="values", row_title=app_text("axis_token"), col_title="head·head_dim",
                              lecture=lecture, swappable=True)
    if len(dims) >= 2 and dims[-2] == "token" and values.shape[-1] <= 64:
        return charts.heatmap(_at(values, lead), axis(rows, values.shape[-2]),
                              [str(j + 1) for j in range(values.shape[-1])], title=name, kind="values",
                              masked=_at(hidden, lead), dropped=_at(dropped, lead), row_title=app_text("axis_token"),
                              col_title=_axis_title(dims[-1]), lecture=lecture, swappable=True)
    return None


def _at(values: np.ndarray | None, index: tuple[int, ...]) -> np.ndarray | None:
    return None if values is None else values[index] if index else values


# A step's last axis as the reader's words where it is a word ("hidden"); a code name (d_out, head_dim) stays code.
_AXIS_WORDS = {"dim": lambda: app_text("axis_dim"), "hidden": lambda: app_text("axis_hidden")}


def _axis_title(dim: str) -> str:
    return _AXIS_WORDS[dim]() if dim in _AXIS_WORDS else dim


def axis(labels: Sequence[str], size: int) -> list[str]:
    """Token labels for an axis of the sequence's length, positions otherwise."""
    return list(labels) if size == len(labels) else [str(i + 1) for i in range(size)]
