import pandas as pd
import streamlit as st

from attention import ATTENTION_BACKENDS, BACKEND_RETURNS_WEIGHTS, FastMultiHeadAttention, future_mask, time_variants
from attention.explore import efficient_variants
from ui.settings import limits
from ui.view import show_heads, show_source, start_page, tensor_text

page = start_page(
    "efficient",
    """
The chapter's `MultiHeadAttention` is clear but not the fastest way to compute the same
function. Below, each variant gets **the same weights** as the chapter's module and its
output is compared with it. **Combined QKV** does the three projections in one matrix
product; **einsum** writes the attention with index notation; PyTorch's
`scaled_dot_product_attention` (**SDPA**) fuses scaling, masking, softmax and the
second product into one kernel that never stores the weight matrix — so it cannot show
you the weights. `torch.nn.MultiheadAttention` is PyTorch's ready-made module.
""",
    r"\mathrm{SDPA}(Q,K,V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_h}} + M\right) V",
)
lim = limits()
d_in = page.matrix.dim
c1, c2, c3 = st.columns(3)
with c1:
    d_out = page.d_out(d_in, label="d_out (torch.nn.MultiheadAttention needs d_out = d_in)",
                       max_value=lim.max_dim)
    seed = page.seed(123)
with c2:
    num_heads = page.heads(d_out, default=1, max_heads=lim.max_heads)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    batch_size = page.control("batch", 2, st.number_input, "Batch size", min_value=1, max_value=lim.max_batch)
    causal = page.causal(default=True)

result = page.compute(efficient_variants, page.inputs, batch_size=batch_size, d_out=d_out,
                      num_heads=num_heads, qkv_bias=qkv_bias, causal=causal, seed=seed)
if result is None:
    st.stop()
book, config, batch, variants = result
st.markdown(
    f"`MultiHeadAttention(d_in={config.d_in}, d_out={config.d_out}, context_length={config.context_length}, "
    f"dropout=0.0, num_heads={config.num_heads}, qkv_bias={config.qkv_bias})`, causal={config.causal}, "
    f"on a batch of shape `{tuple(batch.shape)}`; head_dim = {config.head_dim}."
)
st.subheader("Same weights, same output")
rows = [
    {
        "variant": v.name,
        "how": v.description,
        "output: max |diff| vs book": "—" if v.comparison is None else f"{v.comparison.max_abs_diff:.2e}",
        "weights: max |diff|": ("not returned" if v.weights_comparison is None
                                else f"{v.weights_comparison.max_abs_diff:.2e}"),
        "equal within 1e-5": ("unavailable: " + v.unavailable) if v.unavailable
        else ("yes" if v.agrees(1e-5) else "NO"),
    }
    for v in variants
]
st.table(pd.DataFrame(rows).set_index("variant"))  # static: cheaper to redraw than a grid
reference = variants[0]
with st.expander(f"Printed output of the book's module {tuple(reference.output.shape)}", expanded=False):
    st.code(tensor_text(reference.output), language="text")
st.subheader("The weights behind the outputs")
st.caption(f"The book module's attention weights, {config.num_heads} head{'s' if config.num_heads > 1 else ''}, "
           "first batch element. Every variant that returns weights returns these "
           "(see the weights column above); SDPA computes the same weights inside its kernel and throws "
           "them away, which is where its speed and memory savings come from.")
labels = page.labels
show_heads(reference.weights[0], labels, labels, masked=future_mask(len(labels)) if causal else None)
st.subheader("Timing on this machine")
st.markdown("Runs every variant on the current batch, interleaved, and reports the median of 5 runs. "
            "Small inputs are dominated by Python overhead; the benchmark in the README uses GPT-2 sizes.")
if st.button("Time the variants", key="time_variants"):
    times = time_variants(book, config, batch, repeats=5)
    base = times.get("combined QKV + SDPA")
    st.dataframe(
        [{"variant": name, "median ms": None if t is None else round(t * 1e3, 3),
          "× SDPA": None if (t is None or not base) else round(t / base, 2)} for name, t in times.items()],
        hide_index=True, width="stretch",
    )
st.subheader("Backends")
st.markdown(", ".join(f"`{name}` ({'returns weights' if BACKEND_RETURNS_WEIGHTS[name] else 'no weights'})"
                      for name in ATTENTION_BACKENDS))
show_source(FastMultiHeadAttention, *ATTENTION_BACKENDS.values())
