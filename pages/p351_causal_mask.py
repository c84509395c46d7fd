import streamlit as st

from attention import causal_attention_step_by_step
from ui.view import show_comparisons, show_matrix, show_source, show_tensor, start_page

page = start_page(
    "causal-mask",
    """
A language model predicts the next token, so when it processes token i it must not
peek at tokens after i. **Causal attention** hides every key to the right of the
query: all entries above the diagonal. The chapter shows two ways:

1. take the softmax weights, **zero** the future (multiply by a lower-triangular
   mask) and **renormalise** each row so it sums to 1 again;
2. set the future **scores** to **−∞** before the softmax, since e^(−∞) = 0.

Both give the same weights; the second does it in one pass. The weights come from
a `SelfAttention_v2` built after `torch.manual_seed(789)`, as in the book.
""",
    r"\tilde\omega_{ij} = \begin{cases}\omega_{ij} & j \le i\\ -\infty & j > i\end{cases}\qquad"
    r"\alpha_{ij} = \mathrm{softmax}_j\!\left(\tilde\omega_{ij} / \sqrt{d_k}\right)",
)
c1, c2, c3 = st.columns(3)
with c1:
    seed = page.seed(789)
with c2:
    d_out = page.d_out(2)
    qkv_bias = page.control("qkv_bias", False, st.toggle, "qkv_bias")
with c3:
    causal = page.causal(default=True)

trace = page.compute(causal_attention_step_by_step, page.inputs, d_out=d_out, seed=seed,
                     qkv_bias=qkv_bias, causal=causal)
if trace is None:
    st.stop()
labels = page.labels
c1, c2 = st.columns(2)
with c1:
    show_matrix(trace, "weights", labels, labels, title="Weights before masking")
with c2:
    if causal:
        show_matrix(trace, "masked_scores", labels, labels, kind="scores", masked_from="masked_scores",
                    title="Scores with the future set to −∞")
if not causal:
    st.info("The causal mask is off: every query sees every key. Turn it on to see both masking methods.")
    show_tensor(trace, "context")
    st.stop()
st.subheader("Way 1: zero out, then renormalise")
c1, c2 = st.columns(2)
with c1:
    show_tensor(trace, "mask_simple")
    show_tensor(trace, "masked_simple")
with c2:
    show_tensor(trace, "masked_simple_norm")
st.subheader("Way 2: −∞ before the softmax")
show_tensor(trace, "masked_scores")
show_matrix(trace, "masked_weights", labels, labels, masked_from="masked_scores",
            title="softmax(masked scores / √d_k)")
show_comparisons(trace)
show_tensor(trace, "context")
show_source(causal_attention_step_by_step)
