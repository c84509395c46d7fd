"""Attention, live: Chapter 3 of *Build a Large Language Model From Scratch*.

The entry point is a frame around every page: it declares the pages with
st.navigation, grouped by the chapter's headings, restores a shared link's state
once per session, draws the shared input-matrix panel in the sidebar, runs the
page, and keeps the URL up to date so the address bar is always a shareable link.
"""

import logging

import streamlit as st

from ui.content import app_text
from ui.frame import frame_active
from ui.heap import freeze_import_heap
from ui.link import load_link_once, write_link
from ui.pages import GROUPS, PAGES, group_title
from ui.reconnect import rerun_after_reconnect
from ui.sidebar import input_panel
from ui.state import get_matrix
from ui.style import apply_style

freeze_import_heap()  # once per process: keeps the after-run GC from walking torch's heap
st.set_page_config(page_title=app_text("page_title"), page_icon="🔦", layout="wide")

pages = {
    group_title(group): [
        st.Page(p.file, title=p.title, default=True) if i == 0 else st.Page(p.file, title=p.title, url_path=p.page_id)
        for i, p in enumerate(PAGES)
        if p.group == group
    ]
    for group in GROUPS
}
current = st.navigation(pages)
load_link_once()
rerun_after_reconnect()  # a browser that reconnects to another replica runs the page there at once
apply_style(get_matrix().dim)
input_panel()
try:
    with frame_active():
        current.run()
except Exception:  # the last line of defence: a learner never sees a traceback
    logging.getLogger("attention_app").exception("page failed")
    st.error(app_text("page_failed"))
write_link()
