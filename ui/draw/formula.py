"""A page's or a step's formula: its equations allowed to wrap between them on a narrow screen, never inside one."""

from __future__ import annotations

import re

import streamlit as st

__all__ = ["breakable", "show_formula"]


_SPACE = re.compile(r"\\q?quad(?![A-Za-z])")
_OPEN = re.compile(r"\\(left|right|begin|end)(?![A-Za-z])")


def breakable(latex: str) -> str:
    """A formula of several equations (``a = b \\quad c = d``) whose lines may break between them, never inside one.

    Each equation becomes a group (KaTeX breaks a line only between top-level atoms, and a group is one), with a
    break allowed after the space that separates it from the next. On a phone (ui/shell/results.css) the display
    then wraps: 3.4.1's five equations are 648 px on one line, and a phone has 358."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        ch = latex[i]
        if ch == "\\" and i + 1 < len(latex) and latex[i + 1] in "{}":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        opened = _OPEN.match(latex, i)  # \left( ... \right) and \begin{..} ... \end{..} are one piece too
        if opened:
            depth += 1 if opened.group(1) in ("left", "begin") else -1
            i = opened.end()
            continue
        match = _SPACE.match(latex, i) if depth == 0 else None
        if match:
            parts.append((latex[start:i], match.group()))
            start = i = match.end()
            continue
        i += 1
    if not parts:
        return latex
    last = latex[start:]
    return "".join(f"{{{part.strip()}}} {space}\\allowbreak " for part, space in parts) + f"{{{last.strip()}}}"


def show_formula(latex: str) -> None:
    """A page's or a step's formula, its equations allowed to wrap on a narrow screen."""
    st.latex(breakable(latex))
