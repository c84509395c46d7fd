import streamlit as st

from attention import CausalAttention
from attention.core import attend
from attention.explore import causal_class_demo
from ui.settings import limits
from ui.view import show_matrix, show_shapes, show_source, show_tensor, start_page

page = start_page("causal-class")
lim = limits()
n = page.matrix.num_tokens
c1, c2, c3, c4 = st.columns(4)
with c1:
    batch_size = page.control("batch", 2, st.number_input, page.text("batch_label"), min_value=1,
                              max_value=lim.max_batch)
    seed = page.seed(123)
with c2:
    d_out = page.d_out(2)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    context_length = page.control("context_length", n, st.number_input, "context_length",
                                  min_value=1, max_value=lim.max_tokens, help=page.text("context_length_help"))
    causal = page.causal(default=True)
with c4:
    p, training = page.dropout(0.0)

trace = page.compute(causal_class_demo, page.inputs, batch_size=batch_size, d_out=d_out,
                     context_length=context_length, dropout=p, training=training, causal=causal,
                     qkv_bias=qkv_bias, seed=seed)
if trace is None:
    st.stop()
labels = page.labels
batch_index = 0
if batch_size > 1:
    batch_index = page.control("show_batch", 0, st.number_input, page.text("show_batch_label"),
                               min_value=0, max_value=batch_size - 1, valid=lambda v: v < batch_size)
st.markdown(page.text("shapes", batch_shape=trace.info["batch_shape"], context_shape=tuple(trace["context"].shape),
                      buffers=trace.info["buffers"], state_dict_keys=trace.info["state_dict_keys"]))
final = "dropped_weights" if "dropped_weights" in trace else "weights"
c1, c2 = st.columns(2)
with c1:
    show_matrix(trace, final, labels, labels, index=(batch_index,), masked_from="masked_scores",
                title=page.text("weights_title", batch=batch_index))
with c2:
    show_matrix(trace, "context", labels, [f"o{j + 1}" for j in range(d_out)], index=(batch_index,),
                kind="values", row_title=page.text("axis_token"), col_title=page.text("axis_output_dim"),
                title=page.text("context_title"))
show_tensor(trace, "context")
show_shapes(trace)
show_source(CausalAttention, attend)
