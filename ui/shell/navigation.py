"""The frame's navigation: Streamlit's page objects, built once per process and shared by every session.

``st.Page`` resolves its script's path on the file system each time it is built; the frame declares all 15
pages on every run of every session (a following student's update included), so building them was about a
tenth of a run (benchmarks/profile_room.py). A page object holds only its file, title, address and whether it
is the default; the title varies with the language and the session's ✓, so one object is kept per distinct
title: at most pages × languages × 2.
"""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

__all__ = ["page"]


@lru_cache(maxsize=256)
def page(file: str, title: str, default: bool, url_path: str | None) -> st.Page:
    """The page object for ``file`` under ``title`` (the first call builds it; every later one shares it)."""
    return st.Page(file, title=title, default=default, **({} if url_path is None else {"url_path": url_path}))
