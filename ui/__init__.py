"""Streamlit glue: session state, controls, charts and page helpers shared by every page."""
