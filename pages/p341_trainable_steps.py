import streamlit as st

from attention import self_attention_step_by_step
from attention.core import attend
from ui.view import show_shapes, show_source, show_tensor, show_vector, start_page

page = start_page(
    "trainable-steps",
    """
Now three matrices, **W_query**, **W_key** and **W_value**, project each input into
a query, a key and a value of width `d_out`. During training they are learned;
here they are drawn with `torch.rand` after `torch.manual_seed(seed)`, as in the
book. The score of the query with key j is `q · k(j)`; before the softmax it is
divided by √d_k so that wide vectors do not push the softmax into a region with
tiny gradients.
""",
    r"q^{(i)} = x^{(i)} W_q \quad k^{(j)} = x^{(j)} W_k \quad v^{(j)} = x^{(j)} W_v \qquad"
    r"\alpha_{ij} = \mathrm{softmax}_j\!\left(\frac{q^{(i)}\cdot k^{(j)}}{\sqrt{d_k}}\right) \quad "
    r"z^{(i)} = \sum_j \alpha_{ij} v^{(j)}",
)
c1, c2, c3 = st.columns(3)
with c1:
    q = page.query_token(default=1)
    seed = page.seed(123)
with c2:
    d_out = page.d_out(2)
    causal = page.causal(default=False)
with c3:
    p, training = page.dropout(0.0)

trace = page.compute(self_attention_step_by_step, page.inputs, d_out=d_out, seed=seed, query_index=q,
                     causal=causal, dropout=p, dropout_seed=123, training=training)
if trace is None:
    st.stop()
labels = page.labels
st.subheader("1. The weight matrices")
cols = st.columns(3)
for col, name in zip(cols, ("W_query", "W_key", "W_value"), strict=True):
    with col:
        show_tensor(trace, name)
st.subheader(f"2. Query, key and value of x({q + 1}) “{labels[q]}”")
cols = st.columns(3)
for col, name in zip(cols, ("query", "key_of_query", "value_of_query"), strict=True):
    with col:
        show_tensor(trace, name)
st.subheader("3. All keys and values")
c1, c2 = st.columns(2)
with c1:
    show_tensor(trace, "keys")
with c2:
    show_tensor(trace, "values")
st.subheader("4. Scores, scaling and weights")
show_tensor(trace, "omega_qq")
c1, c2 = st.columns(2)
with c1:
    show_vector(trace, "scores", labels, title=f"Scores ω({q + 1}, j) = q · k(j)", value_title="score")
    show_tensor(trace, "scores")
with c2:
    final = "dropped_weights" if "dropped_weights" in trace else "weights"
    show_vector(trace, final, labels, title="Weights softmax(ω / √d_k)", value_title="weight",
                domain=(0, 1))
    show_tensor(trace, final)
st.subheader(f"5. Context vector z({q + 1})")
show_tensor(trace, "context")
st.subheader("Shapes")
show_shapes(trace)
show_source(self_attention_step_by_step, attend)
