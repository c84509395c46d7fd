"""How results sit on the page: columns that stack on a narrow screen, sections drawn only while open, headings a
screen reader finds without seeing them, a step's caption as its heading, and components that are only a script.

Apart from what is drawn (charts in show.py, printed tensors in tensors.py, code in listing.py): the page scripts,
the charts and the code listings are all placed with these.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html import escape
from pathlib import Path

import streamlit as st

from .. import state
from ..state import Key

__all__ = ["folded", "narrow_screen", "script_component", "side_by_side", "step_heading"]


@functools.cache
def script_component(name: str, script: Path):
    """A component that is only a script (read once per process): what a browser keeps as state and sends with every
    request, drawn with ``height=0``."""
    return st.components.v2.component(name, js=script.read_text(encoding="utf-8"))


def side_by_side(name: str, spec: int | Sequence[int] = 2) -> list:
    """Columns of results (charts, printed tensors) that stack, one under the other, where the page is
    too narrow for them side by side (ui/shell/results.css): on a 1024 px laptop, or beside a sidebar
    widened for 8 dimensions. ``name`` tells the blocks of one page apart (a container key)."""
    return st.container(key=f"{Key.RESULTS_PREFIX}{name}").columns(spec)


def _read_not_seen(heading: str, level: int, after: str = "", css: str = "") -> None:
    """A heading (and what follows it) a screen reader finds and jumps to, not shown on screen (``.sr-only``);
    focusable, for "Skip to the results" (ui/shell/page.js)."""
    st.html(f'<div class="sr-only"><h{level} class="{css}" tabindex="-1">{escape(heading)}</h{level}>{after}</div>')


def narrow_screen() -> bool:
    """A phone or a small tablet (its browser says "Mobi"): grids of charts become one column.

    Streamlit tells the server nothing of the screen's width; the user agent is what a phone's
    browser declares (MDN's advice for this). Every chart also shrinks to its column in the browser
    (ui/shell/results.css), so a wrong guess costs size, never a chart cut off.
    """
    return "Mobi" in (st.context.headers.get("User-Agent") or "")


@contextmanager
def folded(label: str, what: str, *, expanded: bool = False, heading: bool = False) -> Iterator[bool]:
    """An expander whose contents are drawn only while it is open (Streamlit's lazy expander).

    Yields whether to draw. A closed section costs the browser nothing on a rerun: a code
    listing is hundreds of highlighted spans that React would otherwise rebuild on every edit.
    Opening it reruns the page (or only the page's fragment) and draws the contents. ``what``
    names the section, so it stays open across reruns, steps and languages. ``heading``: an H2 of the label
    before it, not seen (Check yourself, the code that ran).
    """
    if heading:  # a section of the page a screen reader can jump to, though the expander's label is a button
        _read_not_seen(label, 2)
    box = st.expander(label, expanded=expanded, key=state.fold_key(what), on_change="rerun")
    if box.open:
        with box:
            yield True
    else:
        yield False


def step_heading(caption: str) -> None:
    """A step's caption as the step's heading (an H2), drawn as the bold line it was: a screen reader can jump to
    it, and focus goes to it when a lecture moves (ui/shell/page.js). Its `code` and **bold** are kept."""
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(caption))
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    st.html(f'<h2 class="step-heading" tabindex="-1">{text}</h2>')
