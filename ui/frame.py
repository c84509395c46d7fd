"""Make sure every page runs inside app.py's frame (navigation, sidebar, links).

Streamlit 1.67 still scans a ``pages/`` folder the legacy (v1) way on the first run
of a server process, before ``st.navigation`` has been called once. The URL paths of the
pages lead to their entry files (ui/entry.py), which run app.py; but a URL naming a page
script itself (``/p332_all_queries``) would run that script on its own, without app.py.
``app.py`` marks the page runs it starts; a page that finds itself outside the frame runs
app.py instead (which resolves the URL as usual) and stops.
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
    from .entry import run_app

    run_app()
    st.stop()
