import streamlit as st

from attention import causal_attention_step_by_step
from ui.draw import show_comparisons, show_matrix, show_source, show_tensor, side_by_side
from ui.page import start_page

page = start_page("causal-mask")
c1, c2, c3 = page.control_columns(3)
with c1:
    seed = page.seed(789)
with c2:
    d_out = page.d_out(2)
    qkv_bias = page.qkv_bias()
with c3:
    causal = page.causal(default=True)

trace = page.compute(lambda: causal_attention_step_by_step(page.inputs, d_out=d_out, seed=seed, qkv_bias=qkv_bias,
                                                           causal=causal))
page.step_through(trace)
labels = page.labels
c1, c2 = side_by_side("before_after")
with c1:
    show_matrix(trace, "weights", labels, labels, title=page.text("unmasked_title"))
with c2:
    if causal:
        show_matrix(trace, "masked_weights", labels, labels, title=page.text("masked_weights_title"))
if not causal:
    st.info(page.text("mask_off"))
    show_tensor(trace, "context")
else:
    st.header(page.text("way1_heading"))
    for name in ("mask_simple", "masked_simple", "masked_simple_norm"):  # in the book's order
        show_tensor(trace, name)
    st.header(page.text("way2_heading"))
    show_tensor(trace, "masked_scores")
    show_comparisons(trace)
    show_tensor(trace, "context")
    show_source(causal_attention_step_by_step)
page.check_yourself()
