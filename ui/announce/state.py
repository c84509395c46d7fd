"""What the page said last, per page, and what this run has to say.

Only this module touches these keys (ui/keys.py lists them).
"""

from __future__ import annotations

import streamlit as st

from ..state import Key

__all__ = ["begin", "count", "heard", "last_text", "note", "noted", "notice", "set_heard", "spoken", "take_notices"]


def begin() -> None:
    """A page run starts: it has said nothing yet."""
    st.session_state[Key.SAY_NOW] = {}


def note(kind: str, text: str) -> None:
    """What the page shows of one kind ("step", "mask", "result", "lecture"), as a sentence."""
    st.session_state.setdefault(Key.SAY_NOW, {})[kind] = text


def notice(text: str, once: str | None = None) -> None:
    """A notice drawn above the page, said with the run's changes, on a page's first run too; ``once`` names a notice
    drawn on every run while it holds (said the first time only)."""
    if once is not None:
        said = st.session_state.setdefault(Key.SAY_ONCE, set())
        if once in said:
            return
        said.add(once)
    st.session_state.setdefault(Key.SAY_NOTICES, []).append(text)


def take_notices() -> list[str]:
    return st.session_state.pop(Key.SAY_NOTICES, [])


def noted() -> dict[str, str]:
    return dict(st.session_state.get(Key.SAY_NOW, {}))


def heard(page_id: str) -> dict[str, str] | None:
    """What a page's last run showed, sentence by kind; None before its first run in this session."""
    return st.session_state.get(Key.SAID, {}).get(page_id)


def set_heard(page_id: str, parts: dict[str, str]) -> None:
    st.session_state.setdefault(Key.SAID, {})[page_id] = parts


def count() -> int:
    """How many announcements this session made: the browser says a new one when this number moves."""
    return int(st.session_state.get(Key.SAY_COUNT, 0))


def spoken(text: str) -> None:
    st.session_state[Key.SAY_COUNT] = count() + 1
    st.session_state[Key.SAY_TEXT] = text


def last_text() -> str:
    return str(st.session_state.get(Key.SAY_TEXT, ""))
