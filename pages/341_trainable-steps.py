import streamlit as st

from attention import self_attention_step_by_step
from attention.core import attend, attend_one_query
from ui.draw import show_shapes, show_source, show_tensor, show_tensors, show_vector, side_by_side
from ui.page import start_page

page = start_page("trainable-steps")
c1, c2, c3 = page.control_columns(3)
with c1:
    q = page.query_token(default=1)
with c2:
    seed = page.seed(123)
with c3:
    d_out = page.d_out(2)
later = page.later_controls(seed=seed)

trace = page.compute(lambda: self_attention_step_by_step(page.inputs, d_out=d_out, seed=seed, query_index=q,
                                                         causal=later.causal, dropout=later.dropout,
                                                         dropout_seed=later.seed, training=later.training))
page.step_through(trace, query=q)
labels = page.labels
st.header(page.text("weights_heading"))
show_tensors(trace, ("W_query", "W_key", "W_value"))
st.header(page.text("projections_heading", q=q + 1, token=labels[q]))
show_tensors(trace, ("query", "key_of_query", "value_of_query"))
st.header(page.text("keys_values_heading"))
show_tensors(trace, ("keys", "values"))
st.header(page.text("scores_heading"))
show_tensor(trace, "omega_qq")
c1, c2 = side_by_side("scores_weights")
with c1:
    scores = "masked_scores" if later.causal else "scores"  # the keys the mask hides are marked
    show_vector(trace, scores, labels, title=page.text("scores_title", q=q + 1),
                value_title=page.text("axis_score"))
    show_tensor(trace, scores)
with c2:
    weights = trace.applied_weights.name
    show_vector(trace, weights, labels, title=page.text("weights_title"), value_title=page.text("axis_weight"),
                domain=(0, 1))
    show_tensor(trace, weights)
st.header(page.text("context_heading", q=q + 1))
show_tensor(trace, "context")
st.header(page.text("shapes_heading"))
show_shapes(trace)
show_source(self_attention_step_by_step, attend_one_query, attend)
page.check_yourself()
