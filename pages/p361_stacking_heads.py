import streamlit as st

from attention import CausalAttention, MultiHeadAttentionWrapper
from attention.explore import stacking_heads
from ui.settings import limits
from ui.view import hidden_cells, show_comparisons, show_heads, show_source, show_tensor, start_page

page = start_page(
    "stacking-heads",
    """
One causal attention head learns one way of relating tokens. **Multi-head attention**
runs several heads side by side, each with its own W_query, W_key and W_value, and
concatenates their context vectors. `MultiHeadAttentionWrapper` does exactly that
with a list of `CausalAttention` modules, so its output is `d_out × num_heads` wide.
**Exercise 3.2**: with `d_out = 1` and two heads the output is 2 wide.
""",
    r"\mathrm{MultiHead}(X) = [\,\mathrm{head}_1(X) \;\|\; \cdots \;\|\; \mathrm{head}_h(X)\,]",
)
lim = limits()
c1, c2, c3, c4 = st.columns(4)
with c1:
    num_heads = page.control("num_heads", 2, st.number_input, "Number of heads", min_value=1,
                             max_value=lim.max_heads)
    seed = page.seed(123)
with c2:
    d_out = page.d_out(2, label="d_out per head")
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    batch_size = page.control("batch", 2, st.number_input, "Batch size", min_value=1, max_value=lim.max_batch)
    causal = page.causal(default=True)
with c4:
    p, training = page.dropout(0.0)

trace = page.compute(stacking_heads, page.inputs, batch_size=batch_size, d_out=d_out, num_heads=num_heads,
                     dropout=p, training=training, causal=causal, qkv_bias=qkv_bias, seed=seed)
if trace is None:
    st.stop()
labels = page.labels
final = "dropped_weights" if "dropped_weights" in trace else "weights"
st.subheader(f"{num_heads} heads, one weight matrix each (batch element 0)")
show_heads(trace[final][0], labels, labels, masked=hidden_cells(trace, "masked_scores", (0, 0)))
st.markdown(
    f"Output shape `{tuple(trace['output'].shape)}` = (batch, tokens, d_out × heads = "
    f"{d_out} × {num_heads}); {trace.info['parameters']} parameters."
)
show_tensor(trace, "output")
st.subheader("The same thing with weight splits")
st.markdown(
    "Stack the heads' weight matrices into one projection of width `d_out × heads` and use "
    "an identity output projection: `MultiHeadAttention` (3.6.2) then computes exactly "
    "the wrapper's output in one batched matrix product."
)
if trace.comparisons:
    show_comparisons(trace)
else:
    st.info("With dropout active the two draw different random masks; set p = 0 or eval mode to compare.")
show_source(MultiHeadAttentionWrapper, CausalAttention)
