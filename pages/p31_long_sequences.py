import streamlit as st

from attention import rnn_bottleneck, simple_self_attention
from ui.view import show_matrix, show_source, show_vector, start_page

page = start_page(
    "long-sequences",
    """
Translation cannot go word by word: grammar and context decide each word. Before
transformers, an **encoder–decoder RNN** read the source sentence one token at a
time, updating a **hidden state**, and handed the decoder only the **last** hidden
state. Everything the decoder knows about the sentence must squeeze through that
one vector.

Below, a small tanh RNN encodes the shared input matrix. The bars measure how
strongly each input token can still move the final state (the size of the
gradient ∂h_T/∂x_t). With a contracting recurrent matrix (scale < 1) early tokens
fade: the bottleneck forgets. Attention, on the right, reads every position
directly, however far back it is.
""",
    r"h_t = \tanh(W_x x_t + W_h h_{t-1} + b) \qquad \text{decoder sees only } h_T",
)
c1, c2, c3 = st.columns(3)
with c1:
    hidden = page.control("hidden", 4, st.slider, "Hidden-state size", min_value=1, max_value=32)
with c2:
    scale = page.control("scale", 0.6, st.slider, "Recurrent scale (largest singular value of W_h)",
                         min_value=0.1, max_value=2.0, step=0.1)
with c3:
    seed = page.seed(123)

rnn = page.compute(rnn_bottleneck, page.inputs, hidden=hidden, seed=seed, recurrent_scale=scale)
attn = page.compute(simple_self_attention, page.inputs)
if rnn is None or attn is None:
    st.stop()
labels = page.labels
left, right = st.columns(2)
with left:
    st.markdown("**RNN encoder: what reaches the decoder**")
    show_vector(rnn, "influence_share", labels, title="Share of influence on the final state h_T",
                value_title="share", domain=(0, 1))
    show_matrix(rnn, "hidden_states", labels, [f"h{j + 1}" for j in range(hidden)], kind="values",
                row_title="after token", col_title="hidden unit", title="Hidden states h_t")
with right:
    st.markdown("**Attention: every position, directly**")
    show_matrix(attn, "weights", labels, labels, title="Self-attention weights (3.3)")
    st.caption("Row i shows how much token i draws from each token: no position is out of reach.")
show_source(rnn_bottleneck)
