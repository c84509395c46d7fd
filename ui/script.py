"""Running a script of the app (app.py, a page script) the way Streamlit runs its main script.

Every page script starts with :func:`ui.page.start_page`, which calls :func:`ensure_frame`. A
page runs inside app.py's frame (navigation, sidebar, links), but on the very first run of a
server process Streamlit 1.67 still scans ``pages/`` the legacy way, before ``st.navigation``
has been called once: a first visitor's deep link (``/causal-mask?s=…``) then runs the page
file named after that URL path (``pages/351_causal-mask.py``) on its own. That page finds
itself outside the frame, runs app.py instead (whose ``st.navigation`` resolves the same URL
path to the same page, inside the frame) and stops. The legacy scan finds a file for every
URL path, so no "Page not found" dialog is sent, and no second file per page is needed.
No private Streamlit attribute is involved.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType

import streamlit as st

__all__ = ["APP", "PageEnded", "ensure_frame", "frame_active", "rerun_alone", "run_app", "run_script"]

APP = Path(__file__).resolve().parents[1] / "app.py"
_state = threading.local()


class PageEnded(Exception):
    """Raised by ``Page.end()``: the page has drawn all it has for now (not an error)."""


@functools.lru_cache(maxsize=64)
def _compiled(path: str, mtime_ns: int) -> CodeType:
    """A script's code, compiled once per version of the file (not on every run, as runpy does)."""
    with open(path, encoding="utf-8") as f:
        return compile(f.read(), path, "exec")


def run_script(path: str) -> None:
    """Run a script (a page, or app.py) as ``__main__`` in a namespace of its own, like ``runpy.run_path``."""
    code = _compiled(path, os.stat(path).st_mtime_ns)
    exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})


def run_app() -> None:
    """Run app.py in the current script run (its navigation resolves the URL to the page)."""
    run_script(str(APP))


@contextmanager
def frame_active(after: Callable[[], None] | None = None,
                 on_failure: Callable[[], None] | None = None) -> Iterator[None]:
    """While app.py's frame runs a page (ui/shell/frame.py). ``after`` is what ends each of the page's runs (the
    address, what a screen reader hears); ``on_failure`` tells the learner that a run failed."""
    _state.active, _state.after, _state.on_failure = True, after, on_failure
    try:
        yield
    finally:
        _state.active, _state.after, _state.on_failure = False, None, None


def rerun_alone(draw: Callable[[], None]) -> None:
    """Draw ``draw`` as a part of the page that reruns alone when one of its own widgets changes (an ``st.fragment``
    inside the page's): a step's ← → redraw the step, not the page's controls above it.

    Run alone, the part ends as the page's run ends (the frame's ``after``): the frame's code does not run then. A
    failure, in the page's run or alone, is said as a page's is (the frame's ``on_failure``), never as a traceback.
    The part keeps what ``draw`` holds until the page's next run.
    """
    after, on_failure = getattr(_state, "after", None), getattr(_state, "on_failure", None)

    @st.fragment
    def part() -> None:
        alone = not getattr(_state, "active", False)  # in the page's run the frame is active; run alone, it is not
        try:
            draw()
        except Exception:  # caught here in either run: Streamlit's fragment would draw its own error box first
            logging.getLogger("attention_app").exception("a part of the page failed")
            if on_failure is not None:
                on_failure()
        finally:
            if alone and after is not None:
                after()

    part()


def ensure_frame() -> None:
    """Called first by every page: outside app.py's frame, run app.py instead and stop."""
    if getattr(_state, "active", False):
        return
    run_app()
    st.stop()
