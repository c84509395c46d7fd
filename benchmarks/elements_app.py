"""The minimal app plus N elements of one kind: what one more element costs per edit (bench_elements.py).

BENCH_ELEMENTS="<kind>:<n>[:still]" adds n elements of the kind below the minimal app's chart. Their
content follows the minimal app's number input (so every edit changes them), or stays the same
with ":still". Chart kinds draw specs from the file BENCH_SPECS names (written by the benchmark
with ui/draw/charts.py, so they are the app's own charts), alternating between two of them.
"""

import json
import os
import runpy
from pathlib import Path

import pyarrow as pa
import streamlit as st

scale = runpy.run_path(str(Path(__file__).with_name("minimal_app.py")))["scale"]
kind, n, *still = os.environ["BENCH_ELEMENTS"].split(":")
v = 0 if still else scale
TENSOR = f"tensor([[0.{v}234, 0.5678, 0.9012],\n        [0.9012, 0.3456, 0.{v}789]])"
TEXT = f"**step {{k}}** (batch=2, token=6, d_out={v}): the *queries* of `x`, projected"
SPECS = json.loads(Path(os.environ["BENCH_SPECS"]).read_text()) if os.environ.get("BENCH_SPECS") else {}


def chart(name: str) -> None:
    spec = SPECS[f"{name}{v % 2}"]
    datasets = {key: pa.Table.from_pylist(rows) for key, rows in spec["datasets"].items()}
    st.vega_lite_chart(spec={**spec, "datasets": datasets}, width="content")


DRAW = {
    "markdown": lambda k: st.markdown(TEXT.format(k=k)),
    "caption": lambda k: st.caption(TEXT.format(k=k)),
    "subheader": lambda k: st.subheader(f"Heading {k}, {v}"),
    "code_text": lambda k: st.code(TENSOR, language="text"),
    "code_python": lambda k: st.code(TENSOR, language="python"),
    "text_input": lambda k: st.text_input(f"Answer {k}", key=f"answer{k}"),
    "button": lambda k: st.button(f"Check {k}", key=f"check{k}"),
    # a printed tensor under its caption: two elements (as the app drew them), or one HTML element (ui/draw/tensors.py)
    "tensor": lambda k: (st.caption(TEXT.format(k=k)), st.code(TENSOR, language="text")),
    "tensor_html": lambda k: st.html(f'<div class="printed-tensor" style="--chars: 40"><p><code>x</code> step {k}, '
                                     f"{v}</p><pre><code>{TENSOR}</code></pre></div>"),
    "table": lambda k: st.table([{"step": f"s{i}", "shape": f"(2, 6, {v})"} for i in range(8)]),
    "heatmap": lambda k: chart("heatmap"),  # 6x6 weights, values in the cells: new data, same size
    "heatmap_resized": lambda k: chart("resized"),  # 6x8 <-> 6x12 values: the chart changes width
    "head_grid": lambda k: chart("grid"),  # four heads of 6x6, as ui/charts.head_grid draws them
}
for k in range(int(n)):
    DRAW[kind](k)
