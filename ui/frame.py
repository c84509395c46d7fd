"""Make sure every page runs inside app.py's frame (navigation, sidebar, links).

Streamlit 1.67 still scans a ``pages/`` folder the legacy (v1) way on the first run
of a server process, before ``st.navigation`` has been called once. A deep link such
as ``/all-queries`` then runs ``pages/all-queries.py`` on its own, without app.py.
``app.py`` marks the page runs it starts; a page that finds itself outside the frame
switches the legacy mode off and reruns, which goes through app.py as usual.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

_state = threading.local()


@contextmanager
def frame_active() -> Iterator[None]:
    _state.active = True
    try:
        yield
    finally:
        _state.active = False


def ensure_frame() -> None:
    if getattr(_state, "active", False):
        return
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    st.rerun()
