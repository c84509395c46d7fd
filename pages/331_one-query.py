import streamlit as st

from attention import NORMALISATIONS, simple_attention_for_query, softmax_stability_demo
from attention.core import attend, attend_one_query
from attention.ops import normalise, softmax_naive
from ui.draw import folded, show_comparisons, show_source, show_table, show_tensor, show_vector, side_by_side
from ui.page import normalisation_name, start_page

page = start_page("one-query")
c1, c2 = page.control_columns(2)
with c1:
    q = page.query_token(default=1)
with c2:
    norm = page.normalisation()
later = page.later_controls()

trace = page.compute(lambda: simple_attention_for_query(page.inputs, q, normalisation=norm, causal=later.causal,
                                                        dropout=later.dropout, seed=later.seed,
                                                        training=later.training))
page.step_through(trace, query=q)
labels = page.labels
scores = "masked_scores" if later.causal else "scores"  # the keys the mask hides are marked
left, right = side_by_side("scores_weights")
with left:
    show_vector(trace, scores, labels, title=page.text("scores_title", q=q + 1, token=labels[q]),
                value_title=page.text("axis_score"))
    show_tensor(trace, scores)
with right:
    weights = trace.applied_weights.name
    show_vector(trace, weights, labels, value_title=page.text("axis_weight"), domain=(0, 1),
                title=page.text("weights_title", q=q + 1, normalisation=normalisation_name(norm)))
    show_tensor(trace, weights)
if later.causal and q == len(labels) - 1:  # the toggle seems to do nothing: say why
    st.caption(page.text("mask_hides_nothing", token=labels[q]))

st.header(page.text("normalise_heading"))
st.markdown(page.text("normalise_body"))
for method in NORMALISATIONS:
    show_tensor(trace, f"weights_{method}", label=normalisation_name(method))

st.header(page.text("context_heading", q=q + 1))
show_tensor(trace, "context")
show_comparisons(trace)

with folded(page.text("stability_heading"), "stability") as shown:
    if shown:
        st.markdown(page.text("stability_body"))
        show_table(softmax_stability_demo())

show_source(simple_attention_for_query, attend_one_query, attend, normalise, softmax_naive)
page.check_yourself()
