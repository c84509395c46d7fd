import streamlit as st

from attention import attention_scores_loop, simple_self_attention
from attention.core import attend
from ui.draw import show_comparisons, show_matrix, show_source, show_tensor, side_by_side
from ui.page import start_page

page = start_page("all-queries")
norm = page.normalisation(horizontal=True)
later = page.later_controls()

trace = page.compute(lambda: simple_self_attention(page.inputs, normalisation=norm, causal=later.causal,
                                                   dropout=later.dropout, seed=later.seed, training=later.training))
page.step_through(trace)
labels = page.labels
scores = "masked_scores" if later.causal else "scores"  # the mask shows on the scores too
left, right = side_by_side("scores_weights")
with left:
    show_matrix(trace, scores, labels, labels, kind="scores", title=page.text("scores_title"))
with right:  # the heatmap is revealed in Check yourself, once the learner has predicted it
    st.info(page.text("weights_hidden"), icon=":material/visibility_off:")
    with st.expander(page.text("weights_printed")):  # the book's printed tensor, for reading side by side
        show_tensor(trace, trace.applied_weights.name)
st.header(page.text("context_heading"))
dims = [f"d{j + 1}" for j in range(page.matrix.dim)]
show_matrix(trace, "context", labels, dims, kind="values", row_title=page.text("axis_token"),  # printed once, below
            col_title=page.text("axis_dimension"), title=page.text("context_title"), printed=False)
show_tensor(trace, "context")
st.header(page.text("comparison_heading"))
show_comparisons(trace)
show_source(simple_self_attention, attend, attention_scores_loop)
page.check_yourself()
