import streamlit as st

from attention import NORMALISATIONS, simple_attention_for_query, softmax_stability_demo
from attention.ops import normalise, softmax_naive
from ui.view import NORMALISATION_NAMES as NAMES
from ui.view import show_comparisons, show_source, show_tensor, show_vector, start_page

page = start_page(
    "one-query",
    """
Pick one token as the **query**. Its attention **score** with every token is a dot
product: large when two embeddings point the same way. The scores are then
**normalised** into **weights** that sum to 1, and the **context vector** is the
weighted sum of all the inputs: a new embedding for the query that blends in
what it found relevant. There are no trainable weights yet: the inputs are the
queries, keys and values at once.
""",
    r"\omega_{qj} = x^{(q)} \cdot x^{(j)} \qquad \alpha_{qj} = \frac{e^{\omega_{qj}}}{\sum_k e^{\omega_{qk}}}"
    r"\qquad z^{(q)} = \sum_j \alpha_{qj}\, x^{(j)}",
)

c1, c2, c3 = st.columns(3)
with c1:
    q = page.query_token(default=1)
with c2:
    norm = page.normalisation()
with c3:
    causal = page.causal(default=False)
    p, training = page.dropout(0.0)
    seed = page.seed(123, "Dropout seed")

trace = page.compute(simple_attention_for_query, page.inputs, q, normalisation=norm, causal=causal,
                     dropout=p, seed=seed, training=training)
if trace is None:
    st.stop()

labels = page.labels
left, right = st.columns(2)
with left:
    show_vector(trace, "scores", labels, title=f"Scores ω({q + 1}, j) for query “{labels[q]}”",
                value_title="score")
    show_tensor(trace, "scores")
with right:
    final = "dropped_weights" if "dropped_weights" in trace else "weights"
    show_vector(trace, final, labels, title=f"Weights α({q + 1}, j) — {NAMES[norm]}",
                value_title="weight", domain=(0, 1))
    show_tensor(trace, final)

st.subheader("Three ways to normalise")
st.markdown(
    "Dividing by the sum also gives weights that add up to 1, but it misbehaves with negative "
    "scores; softmax keeps every weight positive and stresses the largest scores."
)
for method in NORMALISATIONS:
    show_tensor(trace, f"weights_{method}", caption=f"**{NAMES[method]}**")

st.subheader(f"Context vector z({q + 1})")
show_tensor(trace, "context")
show_comparisons(trace)

with st.expander("Why the naive softmax is not used: overflow and underflow"):
    st.markdown(
        "`exp(1000)` is infinite in float32, and `exp(-1000)` is 0, so exp/sum gives "
        "`nan` for such rows. Subtracting each row's maximum first changes nothing "
        "mathematically but keeps every exponent ≤ 0; `torch.softmax` does this for you."
    )
    rows = softmax_stability_demo()
    st.dataframe(
        [{k: (str(v.tolist()) if hasattr(v, "tolist") else v) for k, v in r.items()} for r in rows],
        hide_index=True, width="stretch",
    )

show_source(simple_attention_for_query, normalise, softmax_naive)
