import streamlit as st

from ui.pages import PAGES
from ui.view import start_page

page = start_page(
    "home",
    """
### Attention, live: Chapter 3 of *LLMs from scratch*

This app follows **Chapter 3, “Coding Attention Mechanisms”**, of Sebastian Raschka's
*Build a Large Language Model From Scratch*, one page per section. Every page computes
live from the **input embeddings in the sidebar**: six tokens of “Your journey starts
with one step” in three dimensions, exactly as in the book. Edit a number, rename a
token, add a row, and every page follows.

At the default settings each page prints the same tensors as the book (seeds 123 and
789), so you can read the two side by side. Then change things: the query token, the
causal mask, the dropout rate, the number of heads, `d_out`… and watch the scores,
weights and context vectors move.

**Tips.** Hover a heatmap cell to see which query and key it joins. Grey hatched cells
are *masked*, not zero. Every page has “The code that ran” at the bottom: it is the
package source that produced the numbers on screen. The address bar always holds a
link to exactly what you see; copy it to share a view.
""",
)

st.subheader("The sections")
group = None
for info in PAGES[1:]:
    if info.group != group:
        group = info.group
        st.markdown(f"**{group}**")
    st.page_link(info.file, label=info.title)
