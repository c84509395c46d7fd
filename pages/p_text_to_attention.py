import streamlit as st

from attention import TextMultiHeadAttention, sinusoidal_positions, text_to_attention
from ui.state import adopt_matrix
from ui.view import hidden_cells, show_heads, show_matrix, show_source, start_page

DEFAULT = "I wonder what will come next!\nThis is a basic example paragraph.\nWhat comes next?"

page = start_page(
    "text-to-attention",
    """
The chapter starts from ready-made embeddings. Here is where they come from. Each
sentence is **tokenized** into lower-case words, each word gets an id from a
**vocabulary**, an `nn.Embedding` looks up a vector per id, and a **sinusoidal
positional encoding** is added so that attention can tell positions apart.
Sentences of different lengths are **padded** to one length; a padding mask keeps
every query from attending to padding. Choose a different key sentence to see
**cross-attention**: the queries come from one sentence, keys and values from another.
""",
    r"PE_{pos,2i} = \sin\!\left(\frac{pos}{10000^{2i/d}}\right) \quad "
    r"PE_{pos,2i+1} = \cos\!\left(\frac{pos}{10000^{2i/d}}\right)",
)
text = page.control("sentences", DEFAULT, st.text_area, "Sentences, one per line", height=100,
                    max_chars=2000)
sentences = [s for s in text.splitlines() if s.strip()][:8]
if not sentences:
    st.error("Type at least one sentence.")
    st.stop()
c1, c2, c3, c4 = st.columns(4)
options = list(range(len(sentences)))
with c1:
    d_model = page.control("d_model", 8, st.select_slider, "d_model", options=[2, 4, 8, 12, 16, 32, 64])
    seed = page.seed(123)
with c2:
    heads_options = [h for h in (1, 2, 4, 8) if d_model % h == 0]
    num_heads = page.control("num_heads", 4 if 4 in heads_options else 1, st.select_slider, "Number of heads",
                             options=heads_options, valid=lambda v: v in heads_options)
with c3:
    qs = page.control("query_sentence", 0, st.selectbox, "Query sentence", options=options,
                      format_func=lambda i: f"{i + 1}: {sentences[i][:30]}", valid=lambda v: v in options)
    ks = page.control("key_sentence", 0, st.selectbox, "Key/value sentence", options=options,
                      format_func=lambda i: f"{i + 1}: {sentences[i][:30]}", valid=lambda v: v in options)
with c4:
    positional = page.control("positional", True, st.toggle, "Add positional encoding")
    causal = page.causal(default=False)

trace = page.compute(text_to_attention, sentences, d_model=d_model, num_heads=num_heads, seed=seed,
                     positional=positional, causal=causal, query_sentence=qs, key_sentence=ks)
if trace is None:
    st.stop()
info = trace.info
st.subheader("Tokens and vocabulary")
st.dataframe([{"sentence": i + 1, "tokens": " | ".join(t), "ids": str(trace["ids"][i].tolist())}
              for i, t in enumerate(info["tokens"])], hide_index=True, width="stretch")
st.caption(f"Vocabulary of {len(info['vocab'])} entries (id 0 is `<pad>`): "
           + ", ".join(f"{w}={i}" for w, i in list(info["vocab"].items())[:40]))
rows = [f"{i + 1}" for i in range(trace["ids"].shape[0])]
cols = [f"pos {j}" for j in range(trace["ids"].shape[1])]
c1, c2 = st.columns(2)
with c1:
    show_matrix(trace, "padding_mask", rows, cols, row_title="sentence", col_title="position",
                title="Padding mask (1 = real token)", printed=False)
with c2:
    show_matrix(trace, "positions", cols, [f"d{j}" for j in range(d_model)], kind="values",
                row_title="position", col_title="dimension", title="Sinusoidal positional encoding",
                printed=False)
st.caption("This page builds its own embeddings from the sentences above; the sidebar's matrix is not used "
           "here. The button sends them the other way: the query sentence's inputs become the matrix of every "
           "other page.")
query_text = " ".join(info["query_tokens"])
st.button(
    f"Use “{query_text[:40]}” as the input on every page", icon=":material/input:",
    on_click=adopt_matrix,
    args=(info["query_tokens"], trace["query_inputs"].tolist(),
          f"the embeddings{' + positions' if positional else ''} of “{query_text[:40]}”"),
    help="Copies this sentence's inputs (one row per token, d_model columns) into the sidebar's matrix.",
)
kind = "cross-attention" if info["cross"] else "self-attention"
st.subheader(f"Per-head attention ({kind})")
show_heads(trace["weights"][0], info["query_tokens"], info["key_tokens"],
           masked=hidden_cells(trace, "masked_scores", (0, 0)))
show_source(text_to_attention, TextMultiHeadAttention, sinusoidal_positions)
