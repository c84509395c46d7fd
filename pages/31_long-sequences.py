import streamlit as st

from attention import rnn_bottleneck, simple_self_attention
from ui.draw import show_matrix, show_source, show_vector, side_by_side
from ui.page import start_page

page = start_page("long-sequences")
c1, c2, c3 = page.control_columns(3)
with c1:
    hidden = page.control("hidden", 4, st.slider, page.text("hidden_label"), min_value=1, max_value=32)
with c2:
    scale = page.stepped("scale", 0.6, page.text("scale_label"), low=0.1, high=2.0, step=0.1)
with c3:
    seed = page.seed(123)

rnn = page.compute(lambda: rnn_bottleneck(page.inputs, hidden=hidden, seed=seed, recurrent_scale=scale))
attn = page.compute(lambda: simple_self_attention(page.inputs))
page.step_through(rnn, attention=attn, hidden=hidden, scale=scale)
labels = page.labels
left, right = side_by_side("rnn_vs_attention")
with left:
    st.markdown(page.text("rnn_heading"))
    show_vector(rnn, "influence_share", labels, title=page.text("influence_title"),
                value_title=page.text("axis_share"), domain=(0, 1))
    show_matrix(rnn, "hidden_states", labels, [f"h{j + 1}" for j in range(hidden)], kind="values",
                row_title=page.text("axis_after_token"), col_title=page.text("axis_hidden_unit"),
                title=page.text("hidden_states_title"))
with right:
    st.markdown(page.text("attention_heading"))
    show_matrix(attn, "weights", labels, labels, title=page.text("weights_title"))
    st.caption(page.text("weights_caption"))
show_source(rnn_bottleneck)
page.check_yourself()
