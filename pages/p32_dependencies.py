import streamlit as st

from attention import additive_attention
from ui.view import show_matrix, show_row, show_source, show_vector, start_page

page = start_page(
    "dependencies",
    """
Bahdanau attention (2014) let the decoder **look back at every encoder state** at
each step, instead of only the last one. For decoding step i it scores each encoder
state h_j, turns the scores into weights with softmax, and uses the weighted sum as
that step's context. How much step i relies on input j is exactly its **attention
weight**. Self-attention (3.3 onwards) keeps this idea and drops the RNN.

Here the decoder states are the encoder states themselves, so row i asks which
inputs matter for position i. Change the hidden size or the seed and watch the
weights shift; every row still sums to 1.
""",
    r"e_{ij} = v^\top \tanh(W_s s_i + W_h h_j) \qquad \alpha_{ij} = \mathrm{softmax}_j(e_{ij})"
    r"\qquad c_i = \sum_j \alpha_{ij} h_j",
)
c1, c2, c3 = st.columns(3)
with c1:
    hidden = page.control("hidden", 4, st.slider, "Hidden-state size", min_value=1, max_value=32)
with c2:
    q = page.query_token(default=len(page.labels) - 1, label="Decoder step to inspect")
with c3:
    seed = page.seed(123)

trace = page.compute(additive_attention, page.inputs, hidden=hidden, seed=seed)
if trace is None:
    st.stop()
labels = page.labels
left, right = st.columns(2)
with left:
    show_matrix(trace, "weights", labels, labels, title="Attention weights α (decoder step × encoder state)",
                row_title="decoder step", col_title="encoder state")
with right:
    st.markdown(f"**Decoder step {q + 1} (“{labels[q]}”)** draws on every encoder state:")
    show_row(trace, "weights", q, labels, title="α for this step")
    show_vector(trace, "influence_share", labels,
                title="Compare: the RNN bottleneck's share of influence on h_T", value_title="share",
                domain=(0, 1))
show_source(additive_attention)
