"""The latency baseline: one number input and one small Altair heatmap that depends on it."""

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

value = st.number_input("value", min_value=0, max_value=100, value=3, step=1)
st.write(f"value = {value}")
grid = np.add.outer(np.arange(6), np.arange(6)) * value / 10.0
df = pd.DataFrame([(i, j, grid[i, j]) for i in range(6) for j in range(6)], columns=["row", "col", "v"])
st.altair_chart(
    alt.Chart(df).mark_rect().encode(x="col:O", y="row:O", color="v:Q", tooltip=["row", "col", "v"]),
    width="content",
)
