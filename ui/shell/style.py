"""The app's stylesheets (style.css, lecture.css, projection.css, console.css, lang-ko.css beside this
file), added to every page: the base, and the rules of the view (lecture mode, the walkthrough's projection
or presenter console) and of the language."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import streamlit as st

from ..inputs.sidebar import sidebar_px

__all__ = ["apply_style"]

CSS = Path(__file__).with_name("style.css")
LECTURE_CSS = Path(__file__).with_name("lecture.css")
VIEW_CSS = {view: Path(__file__).with_name(f"{view}.css") for view in ("projection", "console", "class")}
LANGUAGE_CSS = {"ko": Path(__file__).with_name("lang-ko.css")}  # rules a language's script needs


@cache
def _css(path: Path) -> str:
    """A style sheet as sent: without its comments and indentation. Streamlit dedents an HTML element's text on
    every run of every session (its ``clean_text``), and the commented sheets were about 3% of a following
    student's run (benchmarks/PROFILE-ROOM.md)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def apply_style(dim: int, *, lecture: bool = False, lang: str = "en", view: str | None = None) -> None:
    """Style-only HTML: Streamlit applies it without taking any room on the page.

    Two style elements: the rules, which a run rarely changes, and the sidebar's width, which
    follows the matrix. A new width then replaces one rule scoped to the sidebar, and the browser
    restyles the sidebar alone (a rule on :root would restyle the whole page: 16 ms on a width
    change, measured with benchmarks/bench_latency.py's method).
    """
    rules = _css(CSS) + (_css(LECTURE_CSS) if lecture else "") + (_css(VIEW_CSS[view]) if view in VIEW_CSS else "")
    rules += _css(LANGUAGE_CSS[lang]) if lang in LANGUAGE_CSS else ""
    st.html(f"<style>{rules}</style>")
    st.html(f'<style>[data-testid="stSidebar"] {{ --matrix-sidebar-width: {sidebar_px(dim)}px; }}</style>')
