import streamlit as st

from ui.chapter import PAGES
from ui.page import start_page

page = start_page("home")

# Where to begin: two links (every section is also in the navigation, grouped as in the chapter).
walkthrough, first_section = PAGES[1], PAGES[2]
st.header(page.text("start_heading"))
st.page_link(first_section.file, label=page.text("start_first", title=first_section.title), icon=":material/menu_book:")
st.page_link(walkthrough.file, label=page.text("start_walk", title=walkthrough.title), icon=":material/slideshow:")
st.caption(page.text("start_nav"))
