import pandas as pd
import streamlit as st

from attention import ATTENTION_BACKENDS, BACKEND_RETURNS_WEIGHTS, FastMultiHeadAttention, time_variants
from attention.efficient import relative_times
from attention.explore import efficient_variants
from ui.draw import print_tensor, show_heads, show_source
from ui.page import start_page
from ui.settings import limits
from ui.state import Key

page = start_page("efficient")
ctl = page.module_controls(heads="divisors", heads_default=1, d_out=page.matrix.dim, d_out_max=limits().max_dim,
                           d_out_label=page.text("d_out_label"), dropout=False)
result = page.compute(lambda: efficient_variants(page.inputs, page.attention_config(ctl), ctl.run()))
config, batch, variants = result.config, result.batch, result.variants
st.markdown(page.text("config", d_in=config.d_in, d_out=config.d_out, context_length=config.context_length,
                      num_heads=config.num_heads, qkv_bias=config.qkv_bias, causal=config.causal,
                      shape=tuple(batch.shape), head_dim=config.head_dim))
st.header(page.text("outputs_heading"))
rows = [
    {
        page.text("col_variant"): page.words(v.name),
        page.text("col_how"): page.words(v.description),
        page.text("col_output_diff"): (page.text("no_value") if v.comparison is None
                                       else f"{v.comparison.max_abs_diff:.2e}"),
        page.text("col_weights_diff"): (page.text("not_returned") if v.weights_comparison is None
                                        else f"{v.weights_comparison.max_abs_diff:.2e}"),
        page.text("col_equal"): (page.text("unavailable", reason=page.words(v.error or v.unavailable)) if v.unavailable
                                 else page.text("yes") if v.agrees(1e-5) else page.text("no")),
    }
    for v in variants
]
st.table(pd.DataFrame(rows).set_index(page.text("col_variant")))  # static: cheaper to redraw than a grid
with st.expander(page.text("printed_output", shape=tuple(variants.book.output.shape)), expanded=False):
    print_tensor(variants.book.output)
st.header(page.text("weights_heading"))
heads = (page.text("heads_many", n=config.num_heads) if config.num_heads > 1
         else page.text("heads_one", n=config.num_heads))
st.caption(page.text("weights_caption", heads=heads))
show_heads(result.trace, page.labels, page.labels)
st.header(page.text("timing_heading"))
st.markdown(page.text("timing_body"))
if st.button(page.text("timing_button"), key=Key.TIME_VARIANTS):
    timed = relative_times(time_variants(result.book, config, batch, repeats=5))
    ms, ratio = page.text("col_median_ms"), page.text("col_vs_sdpa")
    st.dataframe(
        [{page.text("col_variant"): page.words(t.name), ms: t.median_ms, ratio: t.vs_sdpa} for t in timed],
        hide_index=True, width="stretch",
        column_config={ms: st.column_config.NumberColumn(format="%.3f"),
                       ratio: st.column_config.NumberColumn(format="%.2f")},
    )
st.header(page.text("backends_heading"))
st.markdown(", ".join(page.text("backend_weights", name=name) if BACKEND_RETURNS_WEIGHTS[name]
                      else page.text("backend_no_weights", name=name) for name in ATTENTION_BACKENDS))
show_source(FastMultiHeadAttention, *ATTENTION_BACKENDS.values())
