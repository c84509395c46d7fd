import streamlit as st

from attention import CausalAttention, MultiHeadAttentionWrapper
from attention.explore import stacking_heads
from ui.settings import limits
from ui.view import hidden_cells, show_comparisons, show_heads, show_source, show_tensor, start_page

page = start_page("stacking-heads")
lim = limits()
c1, c2, c3, c4 = st.columns(4)
with c1:
    num_heads = page.control("num_heads", 2, st.number_input, page.text("heads_label"), min_value=1,
                             max_value=lim.max_heads)
    seed = page.seed(123)
with c2:
    d_out = page.d_out(2, label=page.text("d_out_label"))
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    batch_size = page.control("batch", 2, st.number_input, page.text("batch_label"), min_value=1,
                              max_value=lim.max_batch)
    causal = page.causal(default=True)
with c4:
    p, training = page.dropout(0.0)

trace = page.compute(stacking_heads, page.inputs, batch_size=batch_size, d_out=d_out, num_heads=num_heads,
                     dropout=p, training=training, causal=causal, qkv_bias=qkv_bias, seed=seed)
if trace is None:
    st.stop()
labels = page.labels
final = "dropped_weights" if "dropped_weights" in trace else "weights"
st.subheader(page.text("heads_heading", heads=num_heads))
show_heads(trace[final][0], labels, labels, masked=hidden_cells(trace, "masked_scores", (0, 0)))
st.markdown(page.text("output_shape", shape=tuple(trace["output"].shape), d_out=d_out, heads=num_heads,
                      parameters=trace.info["parameters"]))
show_tensor(trace, "output")
st.subheader(page.text("splits_heading"))
st.markdown(page.text("splits_body"))
if trace.comparisons:
    show_comparisons(trace)
else:
    st.info(page.text("dropout_differs"))
show_source(MultiHeadAttentionWrapper, CausalAttention)
