"""The latency baseline: the app's job in one plain script, with nothing of the app in it.

An editable 6x3 input matrix in the sidebar (the book's six tokens) with its width below it
(a new width gives the editor new columns, as the app's "Embedding width" does), one control in the main
area, and one 6x6 heatmap with the values written in its cells: the softmax of X Xᵀ scaled by
the control. The chart's data travels in a named dataset and its spec never changes, so a new
matrix or scale updates the drawn chart in place, as in the app (ui/draw/charts.py).

BENCH_SLOW_CHART_MS=300 makes the chart's update 300 ms late, to prove that the latency
benchmark sees it: the script sleeps before drawing the chart, so the run ends later. (The
browser-side slowdown, a chart redrawn late after the run has ended, is applied by the
benchmark to its browser: benchmarks/completion.py, slow_chart_redraws.)
"""

import os
import time

import numpy as np
import pandas as pd
import streamlit as st

TOKENS = ["Your", "journey", "starts", "with", "one", "step"]
BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
        [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]
SLOW_CHART_S = int(os.environ.get("BENCH_SLOW_CHART_MS") or 0) / 1000
if os.environ.get("BENCH_IMPORT_TORCH") == "1":
    import torch  # noqa: F401

with st.sidebar:
    st.subheader("Input embeddings")
    width = int(st.session_state.get("width", 3))
    dims = [f"d{j + 1}" for j in range(width)]
    edited = st.data_editor(
        pd.DataFrame({"token": TOKENS, **{d: [row[j] if j < 3 else 0.0 for row in BOOK] for j, d in enumerate(dims)}}),
        key="matrix", num_rows="dynamic", hide_index=True, width="stretch",
        column_config={d: st.column_config.NumberColumn(d, format="%.4f") for d in dims},
    )
    st.number_input("Embedding width", min_value=1, max_value=8, value=3, step=1, key="width")
scale = st.number_input("Scale", min_value=0, max_value=100, value=1, step=1)

x = edited[dims].to_numpy(dtype=float)
scores = scale * x @ x.T
weights = np.exp(scores - scores.max(axis=1, keepdims=True))
weights /= weights.sum(axis=1, keepdims=True)
tokens = [str(t) for t in edited["token"]]
cells = [{"row": tokens[i], "col": tokens[j], "value": float(weights[i, j]), "label": f"{weights[i, j]:.4f}",
          "strong": bool(weights[i, j] >= 0.55)} for i in range(len(tokens)) for j in range(len(tokens))]
spec = {
    "datasets": {"cells": cells},
    "data": {"name": "cells"},
    "width": {"step": 50},
    "height": {"step": 28},
    "encoding": {
        "x": {"field": "col", "type": "nominal", "sort": None, "title": "key"},
        "y": {"field": "row", "type": "nominal", "sort": None, "title": "query"},
    },
    "layer": [
        {"mark": {"type": "rect", "stroke": "white"},
         "encoding": {"color": {"field": "value", "type": "quantitative", "title": "weights",
                                "scale": {"domain": [0, 1], "scheme": "blues"}}}},
        {"mark": {"type": "text", "fontSize": 11},
         "encoding": {"text": {"field": "label", "type": "nominal"},
                      "color": {"condition": {"test": "datum.strong", "value": "white"}, "value": "black"}}},
    ],
}
if SLOW_CHART_S:
    time.sleep(SLOW_CHART_S)
st.vega_lite_chart(spec=spec, width="content")
