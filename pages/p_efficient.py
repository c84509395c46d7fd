import pandas as pd
import streamlit as st

from attention import ATTENTION_BACKENDS, BACKEND_RETURNS_WEIGHTS, FastMultiHeadAttention, future_mask, time_variants
from attention.explore import efficient_variants
from ui.settings import limits
from ui.view import show_heads, show_source, start_page, tensor_text

page = start_page("efficient")
lim = limits()
d_in = page.matrix.dim
c1, c2, c3 = st.columns(3)
with c1:
    d_out = page.d_out(d_in, label=page.text("d_out_label"), max_value=lim.max_dim)
    seed = page.seed(123)
with c2:
    num_heads = page.heads(d_out, default=1, max_heads=lim.max_heads)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    batch_size = page.control("batch", 2, st.number_input, page.text("batch_label"), min_value=1,
                              max_value=lim.max_batch)
    causal = page.causal(default=True)

result = page.compute(efficient_variants, page.inputs, batch_size=batch_size, d_out=d_out,
                      num_heads=num_heads, qkv_bias=qkv_bias, causal=causal, seed=seed)
if result is None:
    st.stop()
book, config, batch, variants = result
st.markdown(page.text("config", d_in=config.d_in, d_out=config.d_out, context_length=config.context_length,
                      num_heads=config.num_heads, qkv_bias=config.qkv_bias, causal=config.causal,
                      shape=tuple(batch.shape), head_dim=config.head_dim))
st.subheader(page.text("outputs_heading"))
rows = [
    {
        page.text("col_variant"): v.name,
        page.text("col_how"): v.description,
        page.text("col_output_diff"): (page.text("no_value") if v.comparison is None
                                       else f"{v.comparison.max_abs_diff:.2e}"),
        page.text("col_weights_diff"): (page.text("not_returned") if v.weights_comparison is None
                                        else f"{v.weights_comparison.max_abs_diff:.2e}"),
        page.text("col_equal"): (page.text("unavailable", reason=v.unavailable) if v.unavailable
                                 else page.text("yes") if v.agrees(1e-5) else page.text("no")),
    }
    for v in variants
]
st.table(pd.DataFrame(rows).set_index(page.text("col_variant")))  # static: cheaper to redraw than a grid
reference = variants[0]
with st.expander(page.text("printed_output", shape=tuple(reference.output.shape)), expanded=False):
    st.code(tensor_text(reference.output), language="text")
st.subheader(page.text("weights_heading"))
heads = (page.text("heads_many", n=config.num_heads) if config.num_heads > 1
         else page.text("heads_one", n=config.num_heads))
st.caption(page.text("weights_caption", heads=heads))
labels = page.labels
show_heads(reference.weights[0], labels, labels, masked=future_mask(len(labels)) if causal else None)
st.subheader(page.text("timing_heading"))
st.markdown(page.text("timing_body"))
if st.button(page.text("timing_button"), key="time_variants"):
    times = time_variants(book, config, batch, repeats=5)
    base = times.get("combined QKV + SDPA")
    st.dataframe(
        [{page.text("col_variant"): name, page.text("col_median_ms"): None if t is None else round(t * 1e3, 3),
          page.text("col_vs_sdpa"): None if (t is None or not base) else round(t / base, 2)}
         for name, t in times.items()],
        hide_index=True, width="stretch",
    )
st.subheader(page.text("backends_heading"))
st.markdown(", ".join(page.text("backend_weights", name=name) if BACKEND_RETURNS_WEIGHTS[name]
                      else page.text("backend_no_weights", name=name) for name in ATTENTION_BACKENDS))
show_source(FastMultiHeadAttention, *ATTENTION_BACKENDS.values())
