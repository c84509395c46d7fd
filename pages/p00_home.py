import streamlit as st

from ui.page import start_page
from ui.pages import PAGES, group_title

page = start_page("home")

st.subheader(page.text("sections"))
group = None
for info in PAGES[1:]:
    if info.group != group:
        group = info.group
        st.markdown(f"**{group_title(group)}**")
    st.page_link(info.file, label=info.title)
