"""This URL path on a server's very first run (Streamlit's legacy pages/ scan): see ui/entry.py."""

from ui.entry import run_app

run_app()
