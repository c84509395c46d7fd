import streamlit as st

from attention import TextMultiHeadAttention, sinusoidal_positions, text_to_attention
from ui.draw import show_heads, show_matrix, show_source, side_by_side
from ui.inputs.state import adopt_matrix
from ui.page import start_page

page = start_page("text-to-attention")
text = page.control("sentences", page.text("example"), st.text_area, page.text("sentences_label"), height=100,
                    max_chars=2000)
sentences = [s for s in text.splitlines() if s.strip()][:8]
if not sentences:
    st.error(page.text("no_sentence"))
    page.end()
c1, c2, c3, c4 = page.control_columns(4)
options = list(range(len(sentences)))
with c1:
    d_model = page.control("d_model", 8, st.select_slider, "d_model", options=[2, 4, 8, 12, 16, 32, 64])
    seed = page.seed(123)
with c2:
    heads_options = [h for h in (1, 2, 4, 8) if d_model % h == 0]
    num_heads = page.control("num_heads", 4 if 4 in heads_options else 1, st.select_slider,
                             page.text("heads_label"), options=heads_options, valid=lambda v: v in heads_options)
with c3:
    qs = page.control("query_sentence", 0, st.selectbox, page.text("query_label"), options=options,
                      format_func=lambda i: f"{i + 1}: {sentences[i][:30]}", valid=lambda v: v in options)
    ks = page.control("key_sentence", 0, st.selectbox, page.text("key_label"), options=options,
                      format_func=lambda i: f"{i + 1}: {sentences[i][:30]}", valid=lambda v: v in options)
with c4:
    positional = page.control("positional", True, st.toggle, page.text("positional_label"))
    causal = page.causal(default=False)

info = page.compute(lambda: text_to_attention(sentences, d_model=d_model, num_heads=num_heads, seed=seed,
                                               positional=positional, causal=causal, query_sentence=qs,
                                               key_sentence=ks))
page.step_through(info, labels=info.query_tokens, key_labels=info.key_tokens)
trace = info.trace
if causal and qs != ks:  # the toggle would seem to do nothing
    st.info(page.text("causal_cross"), icon=":material/info:")
st.header(page.text("tokens_heading"))
st.table([{page.text("col_sentence"): i + 1, page.text("col_tokens"): " | ".join(t),
           page.text("col_ids"): str(trace["ids"][i].tolist())}
          for i, t in enumerate(info.tokens)], hide_index=True, width="stretch")
st.caption(page.text("vocabulary", count=len(info.vocab),
                     entries=", ".join(f"{w}={i}" for w, i in list(info.vocab.items())[:40])))
rows = [f"{i + 1}" for i in range(trace["ids"].shape[0])]
cols = [page.text("position_tick", j=j) for j in range(trace["ids"].shape[1])]
c1, c2 = side_by_side("padding_positions")
with c1:
    show_matrix(trace, "padding_mask", rows, cols, kind="mask", row_title=page.text("axis_sentence"),
                col_title=page.text("axis_position"), title=page.text("padding_title"), printed=False)
with c2:
    show_matrix(trace, "positions", cols, [f"d{j}" for j in range(d_model)], kind="values",
                row_title=page.text("axis_position"), col_title=page.text("axis_dimension"),
                title=page.text("positions_title"), printed=False, pattern=True)
st.caption(page.text("own_embeddings"))
query_text = " ".join(info.query_tokens)
source = (page.text("source_with_positions", text=query_text[:40]) if positional
          else page.text("source", text=query_text[:40]))
st.button(
    page.text("adopt_button", text=query_text[:40]), icon=":material/input:",
    on_click=adopt_matrix, args=(info.query_tokens, trace["query_inputs"].tolist(), source),
    help=page.text("adopt_help"),
)
st.header(page.text("heads_heading_cross") if info.cross else page.text("heads_heading_self"))
show_heads(trace, info.query_tokens, info.key_tokens)
show_source(text_to_attention, TextMultiHeadAttention, sinusoidal_positions)
