import streamlit as st

from attention import MultiHeadAttention, future_mask
from attention.explore import weight_splits
from ui.settings import limits
from ui.view import show_heads, show_shapes, show_source, show_tensor, start_page

page = start_page("weight-splits")
lim = limits()
n = page.matrix.num_tokens
c1, c2, c3, c4 = st.columns(4)
with c1:
    d_out = page.d_out(2, max_value=lim.max_dim)
    seed = page.seed(123)
with c2:
    num_heads = page.heads(d_out, default=2, max_heads=lim.max_heads)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    batch_size = page.control("batch", 2, st.number_input, page.text("batch_label"), min_value=1,
                              max_value=lim.max_batch)
    causal = page.causal(default=True)
with c4:
    p, training = page.dropout(0.0)

large = n * n * num_heads * batch_size > 4_000_000
keep = ("queries", "queries_split", "queries_by_head", "weights", "dropped_weights", "context",
        "context_by_token", "context_merged", "output") if large else None
trace = page.compute(weight_splits, page.inputs, batch_size=1 if large else batch_size, d_out=d_out,
                     num_heads=num_heads, dropout=p, training=training, causal=causal, qkv_bias=qkv_bias,
                     seed=seed, keep=keep)
if trace is None:
    st.stop()
if large:
    st.info(page.text("large", tokens=n, heads=num_heads))
labels = page.labels
final = "dropped_weights" if "dropped_weights" in trace else "weights"
st.subheader(page.text("tracer_heading"))
show_shapes(trace)
st.subheader(page.text("heads_heading", head_dim=trace.info["head_dim"]))
show_heads(trace[final][0], labels, labels, masked=future_mask(n) if causal else None)
if not large:
    show_tensor(trace, "output")
st.subheader(page.text("gpt2_heading"))
st.markdown(page.text("gpt2_body", gpt2_parameters=trace.info["gpt2_parameters"],
                      parameters=trace.info["parameters"]))
show_source(MultiHeadAttention)
