import streamlit as st

from attention import SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1
from attention.core import attend
from attention.explore import self_attention_classes
from ui.draw import show_comparisons, show_matrix, show_source, show_tensor, side_by_side
from ui.page import start_page

page = start_page("self-attention-classes")
c1, c2, c3 = page.control_columns(3)
with c1:
    seed_v1 = page.seed(123, page.text("seed_v1_label"), name="seed_v1")
    seed_v2 = page.seed(789, page.text("seed_v2_label"), name="seed_v2")
with c2:
    d_out = page.d_out(2)
    qkv_bias = page.qkv_bias(page.text("bias_label"))
with c3:
    causal = page.causal(default=False)

result = page.compute(lambda: self_attention_classes(page.inputs, d_out=d_out, seed_v1=seed_v1, seed_v2=seed_v2,
                                                     qkv_bias=qkv_bias, causal=causal))
page.step_through(result)
labels = page.labels
c1, c2 = side_by_side("v1_v2")
with c1:
    st.markdown(page.text("v1_heading", seed=seed_v1))
    show_matrix(result.v1, "weights", labels, labels, title=page.text("v1_title"))
    show_tensor(result.v1, "context")
with c2:
    st.markdown(page.text("v2_heading_bias", seed=seed_v2) if qkv_bias else page.text("v2_heading", seed=seed_v2))
    show_matrix(result.v2, "weights", labels, labels, title=page.text("v2_title"))
    show_tensor(result.v2, "context")
st.header(page.text("exercise_heading"))
if result.v1_from_v2 is None:
    st.warning(page.text("exercise_needs_no_bias"))
else:
    show_matrix(result.v1_from_v2, "context", labels, [f"o{j + 1}" for j in range(d_out)], kind="values",
                row_title=page.text("axis_token"), col_title=page.text("axis_output_dim"),
                title=page.text("exercise_title"))
    show_comparisons(result.v1_from_v2)
show_source(SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1, attend)
page.check_yourself()
