import streamlit as st

from attention import attention_scores_loop, simple_self_attention
from attention.core import attend
from ui.view import show_comparisons, show_matrix, show_source, show_tensor, start_page

page = start_page(
    "all-queries",
    """
Every token takes a turn as the query. Stacking the rows gives a **score matrix**:
entry (i, j) is the dot product of token i with token j, computed at once as
`inputs @ inputs.T`. Softmax along each row turns it into the **weight matrix**,
and one more matrix product, `weights @ inputs`, gives every context vector.
The double loop and the matrix products compute exactly the same numbers.
""",
    r"\Omega = X X^\top \qquad A = \mathrm{softmax}_{\text{row}}(\Omega) \qquad Z = A\,X",
)
c1, c2 = st.columns(2)
with c1:
    norm = page.normalisation(horizontal=True)
    causal = page.causal(default=False)
with c2:
    p, training = page.dropout(0.0)
    seed = page.seed(123, "Dropout seed")

trace = page.compute(simple_self_attention, page.inputs, normalisation=norm, causal=causal, dropout=p,
                     seed=seed, training=training)
if trace is None:
    st.stop()
labels = page.labels
left, right = st.columns(2)
with left:
    show_matrix(trace, "scores", labels, labels, kind="scores", title="Attention scores Ω = X Xᵀ")
with right:
    final = "dropped_weights" if "dropped_weights" in trace else "weights"
    show_matrix(trace, final, labels, labels, kind="weights", masked_from="masked_scores",
                title="Attention weights A (rows sum to 1)")
st.subheader("Context vectors Z = A X")
dims = [f"d{j + 1}" for j in range(page.matrix.dim)]
show_matrix(trace, "context", labels, dims, kind="values", row_title="token", col_title="dimension",
            title="Context vectors")
show_tensor(trace, "context")
st.subheader("Loop against matrix product")
show_comparisons(trace)
show_source(simple_self_attention, attend, attention_scores_loop)
