import streamlit as st

from attention import apply_dropout, causal_attention_step_by_step, dropout_demo
from ui.view import show_matrix, show_source, show_tensor, start_page

page = start_page(
    "dropout",
    """
During training, **dropout** zeroes a random fraction p of the attention weights, so
the model cannot lean on any single connection. To keep the expected total the same,
every surviving weight is multiplied by **1/(1 − p)**: with p = 0.5 survivors double.
At inference (**eval mode**) dropout does nothing. The chapter applies dropout with
`torch.manual_seed(123)` first to a 6×6 matrix of ones, then to the causal weights,
so the same cells are dropped in both.

The exact pattern depends on the operating system and PyTorch version; this app
shows PyTorch's Linux/CPU output.
""",
    r"\mathrm{dropout}(a)_{ij} = \frac{m_{ij}\, a_{ij}}{1-p},\quad m_{ij} \sim \mathrm{Bernoulli}(1-p)",
)
c1, c2, c3 = st.columns(3)
with c1:
    p = page.control("dropout", 0.5, st.slider, "Dropout rate p", min_value=0.0, max_value=0.9, step=0.05)
with c2:
    seed = page.seed(123, "Dropout seed")
    training = page.control("training", True, st.toggle, "Training mode")
with c3:
    causal = page.causal(default=True)

weights = page.compute(causal_attention_step_by_step, page.inputs, seed=789, causal=causal)
if weights is None:
    st.stop()
source = "masked_weights" if causal else "weights"
trace = page.compute(dropout_demo, weights[source], p, seed=seed, training=training)
if trace is None:
    st.stop()
labels = page.labels
st.metric("Fraction of cells kept", f"{trace.info['kept_fraction']:.2f}", help=f"expected {1 - p:.2f}")
c1, c2 = st.columns(2)
with c1:
    show_matrix(trace, "dropped_example", labels, labels, kind="values",
                title="dropout(torch.ones) — survivors become 1/(1−p)")
with c2:
    show_matrix(trace, "dropped_weights", labels, labels, masked_from=None,
                title="dropout(causal weights)")
c1, c2 = st.columns(2)
with c1:
    show_tensor(trace, "dropped_example")
with c2:
    show_tensor(trace, "dropped_weights")
show_source(dropout_demo, apply_dropout)
