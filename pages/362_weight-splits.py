import streamlit as st

from attention import MultiHeadAttention, batched_product
from attention.explore import weight_splits
from ui.draw import show_comparisons, show_heads, show_shapes, show_source, show_tensor, show_tensors
from ui.page import start_page
from ui.settings import limits

page = start_page("weight-splits")
ctl = page.module_controls(heads="divisors", d_out_max=limits().max_dim)
splits = page.compute(lambda: weight_splits(page.inputs, page.attention_config(ctl), ctl.run()))
page.step_through(splits, heads=ctl.num_heads, d_out=ctl.d_out, qkv_bias=ctl.qkv_bias)
trace, labels = splits.trace, page.labels
if splits.reduced:
    st.info(page.text("large", tokens=page.matrix.num_tokens, heads=ctl.num_heads))
st.header(page.text("tracer_heading"))
show_shapes(trace)
st.header(page.text("batched_heading"))
st.markdown(page.text("batched_body"))
show_tensors(splits.batched_product, ("a", "product"))
show_comparisons(splits.batched_product)
st.header(page.text("heads_heading", head_dim=splits.head_dim))
show_heads(trace, labels, labels)
if not splits.reduced:
    show_tensor(trace, "output")
st.header(page.text("gpt2_heading"))
st.markdown(page.text("gpt2_body"))  # the counts are Check yourself's answers: not printed here
show_source(MultiHeadAttention, batched_product)
page.check_yourself()
