import streamlit as st

from attention import apply_dropout, causal_attention_step_by_step, dropout_demo
from ui.draw import show_matrix, show_source, show_tensors, side_by_side
from ui.page import start_page
from ui.words.content import app_text

page = start_page("dropout")
c1, c2, c3 = page.control_columns(3)
with c1:
    p = page.stepped("dropout", 0.5, page.text("rate_label"), low=0.0, high=0.9, step=0.05)
with c2:
    seed = page.seed(123, page.text("seed_label"), help=app_text("dropout_seed_help"))
    training = page.control("training", True, st.toggle, page.text("training_label"))
with c3:
    causal = page.causal(default=True)

weights = page.compute(lambda: causal_attention_step_by_step(page.inputs, seed=789, causal=causal))
source = weights["masked_weights"] if causal else weights["weights"]
demo = page.compute(lambda: dropout_demo(source, p, seed=seed, training=training,
                                      mask=weights.mask if causal else None))
page.step_through(demo, p=p, training=training)
labels = page.labels
st.metric(page.text("kept_label"), page.number(demo.kept_fraction), help=page.text("kept_help", expected=1 - p))
c1, c2 = side_by_side("charts")
with c1:
    show_matrix(demo.trace, "dropped_example", labels, labels, kind="values", title=page.text("ones_title"))
with c2:
    show_matrix(demo.trace, "dropped_weights", labels, labels, title=page.text("weights_title"))
show_tensors(demo.trace, ("dropped_example", "dropped_weights"))
show_source(dropout_demo, apply_dropout)
page.check_yourself()
