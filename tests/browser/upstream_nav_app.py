"""The smallest Streamlit app whose navigation fails axe's `list` and `listitem` rules: two pages in two
sections (docs/accessibility.md gives it as the reproduction for a report to Streamlit)."""

import streamlit as st

st.navigation({"One": [st.Page(lambda: st.title("A"), title="A", url_path="a")],
               "Two": [st.Page(lambda: st.title("B"), title="B", url_path="b")]}).run()
