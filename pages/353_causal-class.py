import streamlit as st

from attention import CausalAttention
from attention.core import attend
from attention.explore import causal_class_demo
from ui.draw import show_matrix, show_shapes, show_source, show_tensor, side_by_side
from ui.page import start_page
from ui.settings import limits

page = start_page("causal-class")
ctl = page.module_controls(heads=None)
context_length = page.control("context_length", page.matrix.num_tokens, st.number_input, "context_length",
                              min_value=1, max_value=limits().max_tokens, help=page.text("context_length_help"))
result = page.compute(lambda: causal_class_demo(
    page.inputs, page.attention_config(ctl, context_length=context_length), ctl.run()
))
page.step_through(result)
trace, labels = result.trace, page.labels
batch_index = 0
if ctl.batch_size > 1:
    batch_index = page.control("show_batch", 0, st.number_input, page.text("show_batch_label"),
                               min_value=0, max_value=ctl.batch_size - 1, valid=lambda v: v < ctl.batch_size)
st.markdown(page.text("shapes", batch_shape=result.batch_shape, context_shape=tuple(trace["context"].shape),
                      buffers=result.buffers, state_dict_keys=result.state_dict_keys))
c1, c2 = side_by_side("weights_context")
with c1:
    show_matrix(trace, trace.applied_weights.name, labels, labels, index=(batch_index,),
                title=page.text("weights_title", batch=batch_index))
with c2:
    show_matrix(trace, "context", labels, [f"o{j + 1}" for j in range(ctl.d_out)], index=(batch_index,),
                kind="values", row_title=page.text("axis_token"), col_title=page.text("axis_output_dim"),
                title=page.text("context_title"))
show_tensor(trace, "context")
show_shapes(trace)
show_source(CausalAttention, attend)
page.check_yourself()
