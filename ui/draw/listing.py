"""The code that ran: the ``attention`` package's own source for what is on screen, read with ``inspect``, and the
lines that computed a step, marked in their function.

Apart from the charts (show.py): a listing is drawn in a fold (layout.py ``folded``), only while it is open.
"""

from __future__ import annotations

import functools
import inspect

import streamlit as st

from attention import Trace

from ..words.content import app_text
from .highlight import highlighted
from .layout import folded, narrow_screen
from .source import excerpt

__all__ = ["show_source", "show_step_code"]


def show_source(*objects: object) -> None:
    """The package's own source for the step on screen (what ran is what is shown)."""
    with folded(app_text("code_that_ran"), "source", heading=True) as shown:
        if not shown:
            return
        sources = [(obj, source) for obj in objects if (source := _source(obj)) is not None]
        # what the lines that are not the book's do; the "# new:" note only where a class marks some (m14)
        st.caption(app_text("code_records"))
        if any("# new:" in source for _, source in sources):
            st.caption(app_text("code_new_marker"))
        wrap = narrow_screen()  # a phone wraps long lines instead of scrolling each one sideways
        for obj, source in sources:
            st.caption(f"`{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}`")
            _code(source, wrap=wrap)


@functools.lru_cache(maxsize=256)
def _source(obj: object) -> str | None:
    """An object's source, read once per process (the package does not change while it runs)."""
    try:
        return inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return None


def show_step_code(trace: Trace, name: str, *, lines: bool = True, whole: bool = True) -> None:
    """The lines that computed a step (``lines``), and the whole function they belong to, those lines marked, in
    a fold (``whole``: a widget, which a drawing shared between sessions cannot hold)."""
    code = excerpt(trace.step(name).where, name)
    if code is None:
        return
    if lines:
        st.caption(app_text("step_code", function=code.qualname))
        _code(code.snippet(), wrap=True)
    if not whole:
        return
    with folded(app_text("code_that_ran"), "step_source", heading=True) as shown:
        if shown:
            _code(code.marked(app_text("code_step_marker")), numbered=True)


def _code(source: str, *, wrap: bool = False, numbered: bool = False) -> None:
    """Python source: on a phone, coloured on the server and wrapped (highlight.py: Streamlit's code element would
    load its 1.56 MB highlighter there); elsewhere Streamlit's code element, with its copy button."""
    if narrow_screen():
        st.html(highlighted(source, numbered=numbered))
    else:
        st.code(source, language="python", wrap_lines=wrap, line_numbers=numbered)
