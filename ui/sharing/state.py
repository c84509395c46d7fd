"""The shareable link in the session: whether this session has read its link, and the note about it.

Only this module touches these keys (ui/keys.py lists them).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..state import Key

__all__ = ["first_run_of_session", "notebook_spec", "opened_at", "set_notebook_spec", "set_opened_at", "set_share_note",
           "share_note"]


def first_run_of_session() -> bool:
    """True once per session: the run that should adopt a shared link's state."""
    if st.session_state.get(Key.LINK_LOADED):
        return False
    st.session_state[Key.LINK_LOADED] = True
    return True


def share_note() -> str:
    return st.session_state.get(Key.SHARE_NOTE, "")


def set_share_note(note: str) -> None:
    st.session_state[Key.SHARE_NOTE] = note


def opened_at() -> float | None:
    """When (time.monotonic) a shared link was opened, while the page says so."""
    return st.session_state.get(Key.LINK_OPENED_AT)


def set_opened_at(when: float | None) -> None:
    st.session_state[Key.LINK_OPENED_AT] = when


def notebook_spec() -> Any:
    """What the last "Open as a notebook" offered: the page's state as plain data (ui/sharing/notebook_spec.py)."""
    return st.session_state.get(Key.NOTEBOOK_SPEC)


def set_notebook_spec(spec: Any) -> None:
    st.session_state[Key.NOTEBOOK_SPEC] = spec
