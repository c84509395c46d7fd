"""The walkthrough in the session: its position, a lecturer's own walkthrough file, the step last arrived at.

The window's place in a lecture's room is its own record (ui/lecture/window.py). Only this module touches
these keys (ui/state.py lists them).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..state import Key

__all__ = ["arrive_at_walk_step", "arrived_at", "custom_walkthrough", "details_shown", "first_run_of_walkthrough",
           "join_shown", "replace_walk_controls", "set_arrived_at", "set_custom_walkthrough", "set_walk_position",
           "toggle_details", "toggle_join", "walk_controls", "walk_position"]


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


# ----- the walkthrough's own control values (read by ui/state.py page_controls while it drives) --

def walk_controls() -> dict[str, dict[str, Any]]:
    return st.session_state.setdefault(Key.WALK_CONTROLS, {})


def replace_walk_controls(new: dict[str, dict[str, Any]]) -> None:
    st.session_state[Key.WALK_CONTROLS] = new


def arrived_at() -> int | None:
    return st.session_state.get(Key.WALK_ARRIVED)


def set_arrived_at(index: int | None) -> None:
    st.session_state[Key.WALK_ARRIVED] = index


# ----- the projection's folds: its details (explanation, controls) are one key away ----------------

def join_shown() -> bool:
    return bool(st.session_state.get(Key.PROJECTION_JOIN, False))


def toggle_join() -> None:
    st.session_state[Key.PROJECTION_JOIN] = not join_shown()


def details_shown() -> bool:
    return bool(st.session_state.get(Key.PROJECTION_DETAILS, False))


def toggle_details() -> None:
    st.session_state[Key.PROJECTION_DETAILS] = not details_shown()


# ----- this window in a lecture's room: one frozen record, replaced whole (ui/lecture/window.py) ----------

def window_record() -> Any:
    """The window's record (ui/lecture/records.py Lecturer or Student), or None outside a room."""
    return st.session_state.get(Key.ROOM)


def set_window_record(record: Any) -> None:
    if record is None:
        st.session_state.pop(Key.ROOM, None)
    else:
        st.session_state[Key.ROOM] = record


def console_token() -> str | None:
    """The projection's one-time token for a console, while it lives (ui/lecture/console.py)."""
    return st.session_state.get(Key.CONSOLE_TOKEN)


def set_console_token(token: str | None) -> None:
    st.session_state[Key.CONSOLE_TOKEN] = token


def poll_said(kind: str) -> tuple | None:
    """A student's last send to a class poll: ``"sent"`` (poll, what they sent) or ``"note"`` (poll, kind,
    message said about it) (ui/lecture/answers.py)."""
    return st.session_state.get(Key.POLL_SENT if kind == "sent" else Key.POLL_NOTE)


def set_poll_said(kind: str, value: tuple | None) -> None:
    st.session_state[Key.POLL_SENT if kind == "sent" else Key.POLL_NOTE] = value
