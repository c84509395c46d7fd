import streamlit as st

from attention import MultiHeadAttention, future_mask
from attention.explore import weight_splits
from ui.settings import limits
from ui.view import show_heads, show_shapes, show_source, show_tensor, start_page

page = start_page(
    "weight-splits",
    """
Instead of separate modules, `MultiHeadAttention` projects once with `d_out`-wide
matrices and **splits** the result into heads: `.view` cuts each token's vector into
`num_heads` pieces of `head_dim = d_out / num_heads`, and `.transpose(1, 2)` groups
the pieces by head. One batched matrix product then computes every head's scores.
Afterwards the heads are transposed back and merged with `.contiguous().view`, and
`out_proj` mixes them. Follow the shapes in the tracer below.
""",
    r"Q \in \mathbb{R}^{B\times T\times d_{out}} \xrightarrow{\text{view}} B\times T\times h\times d_h"
    r"\xrightarrow{\text{transpose}} B\times h\times T\times d_h",
)
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
    batch_size = page.control("batch", 2, st.number_input, "Batch size", min_value=1, max_value=lim.max_batch)
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
    st.info(f"{n} tokens × {num_heads} heads is large: only batch element 0 and the steps below are "
            "kept, and heatmaps are averaged over blocks.")
labels = page.labels
final = "dropped_weights" if "dropped_weights" in trace else "weights"
st.subheader("Shape tracer")
show_shapes(trace)
st.subheader(f"Per-head weights (head_dim = {trace.info['head_dim']})")
show_heads(trace[final][0], labels, labels, masked=future_mask(n) if causal else None)
if not large:
    show_tensor(trace, "output")
st.subheader("Exercise 3.3: GPT-2-sized attention")
st.markdown(
    f"`MultiHeadAttention(768, 768, context_length=1024, dropout=0.0, num_heads=12)` has "
    f"**{trace.info['gpt2_parameters']:,}** parameters: 4 × (768 × 768) weights + 768 output bias. "
    f"This page's module has {trace.info['parameters']:,}."
)
show_source(MultiHeadAttention)
