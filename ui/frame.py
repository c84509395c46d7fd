"""Run a page inside app.py's frame (navigation, sidebar, links), as a fragment.

A page runs in an ``st.fragment``: a change to one of the page's own controls reruns the
page alone, not the frame around it (navigation, the sidebar and its matrix editor), so the
browser redraws only what can change. Whatever the frame shows (the matrix, language, lecture
mode, the ✓ of finished sections) is compared before and after the page ran; if the page
changed any of it (e.g. a button that makes its embeddings the shared input), the whole app
reruns at once. The page ends by writing the address bar, which a fragment run must keep
current too.

Streamlit 1.67 still scans a ``pages/`` folder the legacy (v1) way on the first run
of a server process, before ``st.navigation`` has been called once. The URL paths of the
pages lead to their entry files (ui/entry.py), which run app.py; but a URL naming a page
script itself (``/p332_all_queries``) would run that script on its own, without app.py.
``app.py`` marks the page runs it starts; a page that finds itself outside the frame runs
app.py instead (which resolves the URL as usual) and stops.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from types import CodeType

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


@functools.lru_cache(maxsize=64)
def _compiled(path: str, mtime_ns: int) -> CodeType:
    """A page script's code, compiled once per version of the file (not on every run, as runpy does)."""
    with open(path, encoding="utf-8") as f:
        return compile(f.read(), path, "exec")


def run_script(path: str) -> None:
    """Run a script (a page, or app.py) as ``__main__`` in a namespace of its own, like ``runpy.run_path``."""
    code = _compiled(path, os.stat(path).st_mtime_ns)
    exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})


class PageEnded(Exception):
    """Raised by ``Page.end()``: the page has drawn all it has for now (not an error)."""


@st.fragment
def run_page(file: str, frame: Hashable, frame_now: Callable[[], Hashable], on_failure: Callable[[], None],
             after: Callable[[], None]) -> None:
    """Run the page script ``file``; ``frame`` is what the frame showed when it was drawn."""
    try:
        with frame_active():
            run_script(file)
    except PageEnded:
        pass
    except Exception:  # the last line of defence: a learner never sees a traceback
        logging.getLogger("attention_app").exception("page failed")
        on_failure()
    finally:  # however the page ended: the address bar always holds the current view
        after()
    if frame_now() != frame:
        st.rerun(scope="app")
