"""The floor for a first visit: a Streamlit page with a heading and one Altair heatmap, nothing of the app.

benchmarks/bench_first_load.py opens it on the same throttled phone, through the same balancer with the same
compression and the same theme (.streamlit/config.toml), beside the app's deep link to 3.5.1. What this page
costs is what Streamlit's own shell and its chart bundle cost before any chart can be drawn: its JavaScript,
the Source Sans font its index.html preloads, the Material Symbols font its code preloads, and the Vega bundle
a first chart loads. The gap between the app and this floor is what the app's own page adds.
"""

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

TOKENS = ["Your", "journey", "starts", "with", "one", "step"]
BOOK = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                 [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])

st.title("3.5.1 Causal attention")
scores = BOOK @ BOOK.T
scores = np.where(np.tri(6, dtype=bool), scores / np.sqrt(2), -np.inf)
weights = np.exp(scores - scores.max(axis=1, keepdims=True))
weights /= weights.sum(axis=1, keepdims=True)
cells = pd.DataFrame([{"query": TOKENS[i], "key": TOKENS[j], "weight": float(weights[i, j]),
                       "label": f"{weights[i, j]:.4f}"} for i in range(6) for j in range(6)])
base = alt.Chart(cells).encode(x=alt.X("key:N", sort=None), y=alt.Y("query:N", sort=None))
st.altair_chart(base.mark_rect().encode(color=alt.Color("weight:Q", scale=alt.Scale(domain=[0, 1])))
                + base.mark_text().encode(text="label:N"))
