"""The app's stylesheets (style.css, results.css, access.css, lecture.css, projection.css, console.css,
lang-ko.css beside this file), added to every page: the base, and the rules of the view (lecture mode, the
walkthrough's projection or presenter console) and of the language."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import streamlit as st

from ..inputs.sidebar import sidebar_px

__all__ = ["apply_style"]

# The base, in three sheets by concern (layout; results; reading and reaching), sent in this order: one sheet as
# it was, rule for rule.
BASE_CSS = tuple(Path(__file__).with_name(name) for name in ("style.css", "results.css", "access.css"))
LECTURE_CSS = Path(__file__).with_name("lecture.css")
VIEW_CSS = {view: Path(__file__).with_name(f"{view}.css") for view in ("projection", "console", "class")}
LANGUAGE_CSS = {"ko": Path(__file__).with_name("lang-ko.css")}  # rules a language's script needs
PAGE_JS = Path(__file__).with_name("page.js")  # how a page behaves: its top, Back, <html lang>, help icons


@cache
def _css(path: Path) -> str:
    """A style sheet as sent: without its comments and indentation. Streamlit dedents an HTML element's text on
    every run of every session (its ``clean_text``), and the commented sheets were about 3% of a following
    student's run (benchmarks/PROFILE-ROOM.md)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


@cache
def _base() -> str:
    """The base sheets as one, in their order, each joined to the next as a sheet's lines are: by a space."""
    return " ".join(map(_css, BASE_CSS))


@cache
def _script() -> str:
    """page.js without its comment lines."""
    text = PAGE_JS.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def apply_style(dim: int, *, lecture: bool = False, lang: str = "en", view: str | None = None) -> None:
    """Style-only HTML, which Streamlit applies without taking any room on the page, and the page's script.

    Two style elements: the rules, which a run rarely changes, and the sidebar's width, which
    follows the matrix. A new width then replaces one rule scoped to the sidebar, and the browser
    restyles the sidebar alone (a rule on :root would restyle the whole page: 16 ms on a width
    change, measured with benchmarks/bench_latency.py's method).

    The script (page.js, in a hidden element) makes the app behave like pages: a new page opens at its top, Back
    goes to the previous page, ``<html lang>`` is the page's language, and a help icon in a toggle's label does
    not flip the toggle.
    """
    rules = _base() + (_css(LECTURE_CSS) if lecture else "") + (_css(VIEW_CSS[view]) if view in VIEW_CSS else "")
    rules += _css(LANGUAGE_CSS[lang]) if lang in LANGUAGE_CSS else ""
    width = f'[data-testid="stSidebar"] {{ --matrix-sidebar-width: {sidebar_px(dim)}px; }}'
    st.html(f"<style>{rules}</style>")
    st.html(f"<style>{width}</style>")
    st.html(f'<span class="attention-page" hidden data-lang="{lang}"></span><script>{_script()}</script>',
            unsafe_allow_javascript=True)
