"""The walkthrough in the session: its position, a lecturer's own walkthrough file, the step last arrived at.

Which walkthrough step drives the page now is the controls' business (ui/state.py: walk_active).
Only this module touches these keys (ui/state.py lists them).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..state import Key

__all__ = ["arrive_at_walk_step", "custom_walkthrough", "first_run_of_walkthrough", "set_custom_walkthrough",
           "set_walk_position", "walk_position"]


def walk_position() -> int:
    return int(st.session_state.get(Key.WALK_POSITION, 0))


def set_walk_position(index: int) -> None:
    st.session_state[Key.WALK_POSITION] = index


def first_run_of_walkthrough() -> bool:
    """True the first time the walkthrough page runs in a session (it then reads ?walk=)."""
    if st.session_state.get(Key.WALK_OPENED):
        return False
    st.session_state[Key.WALK_OPENED] = True
    return True


def custom_walkthrough() -> str | None:
    return st.session_state.get(Key.WALK_FILE)


def set_custom_walkthrough(text: str | None) -> None:
    st.session_state[Key.WALK_FILE] = text


def arrive_at_walk_step(index: int, page_id: str, values: dict[str, Any]) -> None:
    """Apply a walkthrough step's controls once, on arrival; later changes by the lecturer stay."""
    if st.session_state.get(Key.WALK_ARRIVED) == index:
        return
    st.session_state[Key.WALK_ARRIVED] = index
    st.session_state.setdefault(Key.WALK_CONTROLS, {}).setdefault(page_id, {}).update(values)
