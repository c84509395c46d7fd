import streamlit as st

from attention import SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1
from attention.core import attend
from attention.explore import self_attention_classes
from ui.view import show_comparisons, show_matrix, show_source, show_tensor, start_page

page = start_page(
    "self-attention-classes",
    """
The step-by-step code becomes a module. **SelfAttention_v1** keeps the three
matrices as `nn.Parameter(torch.rand(d_in, d_out))`. **SelfAttention_v2** uses
`nn.Linear`, which stores its weight transposed, `(d_out, d_in)`, initialises it
more carefully and can add a bias. With the same seed the two give different
numbers, because they draw different weights. **Exercise 3.1**: copy v2's
weights into v1, transposed, and the outputs become identical.
""",
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V",
)
c1, c2, c3 = st.columns(3)
with c1:
    seed_v1 = page.seed(123, "Seed for v1", name="seed_v1")
    seed_v2 = page.seed(789, "Seed for v2", name="seed_v2")
with c2:
    d_out = page.d_out(2)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias (v2 only)")
with c3:
    causal = page.causal(default=False)

result = page.compute(self_attention_classes, page.inputs, d_out=d_out, seed_v1=seed_v1, seed_v2=seed_v2,
                      qkv_bias=qkv_bias, causal=causal)
if result is None:
    st.stop()
labels = page.labels
dims = [f"o{j + 1}" for j in range(d_out)]
c1, c2 = st.columns(2)
with c1:
    st.markdown(f"**SelfAttention_v1** (seed {seed_v1})")
    show_matrix(result.v1, "weights", labels, labels, masked_from="masked_scores", title="v1 weights")
    show_tensor(result.v1, "context")
with c2:
    st.markdown(f"**SelfAttention_v2** (seed {seed_v2}{', with bias' if qkv_bias else ''})")
    show_matrix(result.v2, "weights", labels, labels, masked_from="masked_scores", title="v2 weights")
    show_tensor(result.v2, "context")
st.subheader("Exercise 3.1: v1 with v2's weights")
if result.v1_from_v2 is None:
    st.warning(result.note)
else:
    show_matrix(result.v1_from_v2, "context", labels, dims, kind="values", row_title="token",
                col_title="output dim", title="v1 loaded with v2's weights: context")
    show_comparisons(result.v1_from_v2)
show_source(SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1, attend)
