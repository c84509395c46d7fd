import streamlit as st

from attention import CausalAttention, MultiHeadAttentionWrapper
from attention.explore import stacking_heads
from ui.draw import show_comparisons, show_heads, show_source, show_tensor
from ui.page import start_page

page = start_page("stacking-heads")
ctl = page.module_controls(heads="count", heads_label=page.text("heads_label"), d_out_label=page.text("d_out_label"))
heads = page.compute(lambda: stacking_heads(
    page.inputs,
    page.attention_config(ctl, d_out=ctl.d_out * ctl.num_heads),  # each head is d_out wide
    ctl.run(),
))
page.step_through(heads, heads=ctl.num_heads, d_out=ctl.d_out, qkv_bias=ctl.qkv_bias)
trace, labels = heads.trace, page.labels
st.header(page.text("heads_heading", heads=ctl.num_heads))
show_heads(trace, labels, labels)
if ctl.num_heads > 1:  # untrained heads often look the same, and nothing said why
    st.caption(page.text("heads_alike"))
st.markdown(page.text("output_shape", shape=tuple(trace["output"].shape), d_out=ctl.d_out, heads=ctl.num_heads,
                      parameters=heads.parameters))
show_tensor(trace, "output")
st.header(page.text("splits_heading"))
st.markdown(page.text("splits_body"))
if trace.comparisons:
    show_comparisons(trace)
else:
    st.info(page.text("dropout_differs"))
show_source(MultiHeadAttentionWrapper, CausalAttention)
page.check_yourself()
