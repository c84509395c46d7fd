import streamlit as st

from attention import additive_attention
from ui.draw import show_matrix, show_row, show_source, show_vector, side_by_side
from ui.page import start_page

page = start_page("dependencies")
c1, c2, c3 = page.control_columns(3)
with c1:
    hidden = page.control("hidden", 4, st.slider, page.text("hidden_label"), min_value=1, max_value=32)
with c2:
    q = page.query_token(default=len(page.labels) - 1, label=page.text("step_label"))
with c3:
    seed = page.seed(123)

trace = page.compute(lambda: additive_attention(page.inputs, hidden=hidden, seed=seed))
page.step_through(trace, query=q)
labels = page.labels
left, right = side_by_side("weights")
with left:
    show_matrix(trace, "weights", labels, labels, title=page.text("weights_title"),
                row_title=page.text("axis_decoder_step"), col_title=page.text("axis_encoder_state"))
with right:
    st.markdown(page.text("step_heading", step=q + 1, token=labels[q]))
    show_row(trace, "weights", q, labels, title=page.text("step_title"))
    show_vector(trace, "influence_share", labels, title=page.text("rnn_title"),
                value_title=page.text("axis_share"), domain=(0, 1))
show_source(additive_attention)
page.check_yourself()
