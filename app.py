"""Attention, live: Chapter 3 of *Build a Large Language Model From Scratch*.

The entry point is a frame around every page: it declares the pages with
st.navigation, grouped by the chapter's headings, and draws the shared
input-matrix panel in the sidebar, so the panel and its state are the same
on every page.
"""

import streamlit as st

from ui.pages import GROUPS, PAGES
from ui.sidebar import input_panel

st.set_page_config(page_title="Attention, live — LLMs from scratch, ch. 3", page_icon="🔦", layout="wide")

pages = {
    group: [
        st.Page(p.file, title=p.title, url_path=p.page_id, default=(i == 0))
        for i, p in enumerate(PAGES)
        if p.group == group
    ]
    for group in GROUPS
}
current = st.navigation(pages)
input_panel()
current.run()
