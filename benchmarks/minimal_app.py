"""The latency baseline: the app's job in one plain script, with nothing of the app in it.

An editable 6x3 input matrix in the sidebar (the book's six tokens) with its width below it
(a new width gives the editor new columns, as the app's "Embedding width" does), one control in the main
area, and one 6x6 heatmap with the values written in its cells: the softmax of X Xᵀ scaled by
the control. The chart's data travels in a named dataset and its spec never changes, so a new
matrix or scale updates the drawn chart in place, as in the app (ui/draw/charts.py).

BENCH_FRAME=1 draws, beside that job, what a control change on the app's 3.3.1 sends, element for element (counted
on the wire: 43 messages), with none of the app's logic: its controls in columns and a fold, two bar charts with
their hidden tables and printed tensors, headings, sentences, five more printed tensors and three folds, all in a
fragment as the app's page runs. benchmarks/trace_edit.py compares the browser's work for it with the app's.
BENCH_FRAME=controls draws 3.3.1's controls alone in that fragment, no result: the floor for any page that has them.

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

FRAME = os.environ.get("BENCH_FRAME")  # "1": the whole of 3.3.1's elements; "controls": its controls alone
TENSOR = "tensor([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])"


def bars(name: str, values: np.ndarray) -> None:
    """A bar chart of one query's row, its hidden table and its printed tensor, as the app's show_vector draws."""
    data = [{"token": t, "value": float(v)} for t, v in zip(tokens, values, strict=True)]
    st.vega_lite_chart(spec={"datasets": {"bars": data}, "data": {"name": "bars"}, "mark": "bar", "encoding": {
        "x": {"field": "token", "type": "nominal", "sort": None}, "y": {"field": "value", "type": "quantitative"}}},
        width="stretch")
    rows = "".join(f"<tr><th>{t}</th><td>{v:.4f}</td></tr>" for t, v in zip(tokens, values, strict=True))
    st.html(f'<div class="sr-only"><table><caption>{name}</caption>{rows}</table></div>')
    st.html(f'<div class="printed-tensor"><pre><code>{TENSOR}</code></pre></div>')


def framed_controls() -> None:
    """3.3.1's controls, as the app draws them: step-through, the query and the normalisation, the later
    section's fold, the download."""
    with st.container():
        st.checkbox("Step through", key="f_step")
    left, right = st.columns(2)
    left.selectbox("Query token", tokens, index=1, key="f_query")
    right.radio("Normalisation", ["softmax", "sum", "naive"], key="f_norm", horizontal=True)
    with st.expander("Mask and dropout", expanded=True), st.container(), st.container():
        st.checkbox("Causal mask", key="f_causal")
        st.number_input("Dropout seed", value=123, key="f_seed")
        st.slider("Dropout rate", 0.0, 0.9, 0.0, key="f_rate")
        st.checkbox("Training", key="f_training")
    st.download_button("Download", "x", key="f_download")


@st.fragment
def framed_page() -> None:
    framed_controls()
    if FRAME == "controls":
        return
    left, right = st.columns(2)
    with left, st.container():
        bars("Scores", scores[1])
    with right, st.container():
        bars("Weights", weights[1])
    st.subheader("Three ways to normalise")
    st.markdown("Dividing by the sum also gives weights that add up to 1, but only softmax keeps them positive.")
    for _ in range(3):
        st.html(f'<div class="printed-tensor"><p>method</p><pre><code>{TENSOR}</code></pre></div>')
    st.subheader("The context vector")
    st.html(f'<div class="printed-tensor"><pre><code>{TENSOR[:30]}])</code></pre></div>')
    st.markdown(":green-badge[agree] **loop of torch.dot** vs **matrix product**")
    st.markdown(":green-badge[agree] **loop of weighted sums** vs **matrix product**")
    for fold in ("Softmax's stability", "The code", "Check yourself"):
        st.expander(fold)


if FRAME:
    framed_page()
