"""The app's stylesheet (ui/style.css), added to every page, and the sidebar width the matrix needs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import streamlit as st

__all__ = ["COLUMN_PX", "TOKEN_PX", "apply_style", "sidebar_px"]

CSS = Path(__file__).with_name("style.css")
LECTURE_CSS = Path(__file__).with_name("lecture.css")
LANGUAGE_CSS = {"ko": Path(__file__).with_name("lang-ko.css")}  # rules a language's script needs
TOKEN_PX, COLUMN_PX = 64, 54  # the editor's token column and each dimension ("0.4419" fits unclipped)
ROW_MARKERS_PX, PADDING_PX = 34, 64  # the editor's row-marker column; the sidebar's own padding
# room for a classic (non-overlay) scrollbar: browsers that draw one inside the grid take it from the columns
SCROLLBAR_PX = 24
DEFAULT_PX, MAX_DIMS_SHOWN = 336, 8  # Streamlit's default sidebar; wider than 8 dims scrolls sideways


@cache
def _css(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def sidebar_px(dim: int) -> int:
    """The sidebar width that shows a token column and ``dim`` dimensions (at most 8) whole."""
    needed = PADDING_PX + SCROLLBAR_PX + ROW_MARKERS_PX + TOKEN_PX + COLUMN_PX * min(dim, MAX_DIMS_SHOWN)
    return max(DEFAULT_PX, needed)


def apply_style(dim: int, *, lecture: bool = False, lang: str = "en") -> None:
    """Style-only HTML: Streamlit applies it without taking any room on the page.

    Two style elements: the rules, which a run rarely changes, and the sidebar's width, which
    follows the matrix. A new width then replaces one rule scoped to the sidebar, and the browser
    restyles the sidebar alone (a rule on :root would restyle the whole page: 16 ms on a width
    change, measured with benchmarks/bench_latency.py's method).
    """
    rules = _css(CSS) + (_css(LECTURE_CSS) if lecture else "")
    rules += _css(LANGUAGE_CSS[lang]) if lang in LANGUAGE_CSS else ""
    st.html(f"<style>{rules}</style>")
    st.html(f'<style>[data-testid="stSidebar"] {{ --matrix-sidebar-width: {sidebar_px(dim)}px; }}</style>')
