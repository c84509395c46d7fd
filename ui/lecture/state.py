"""The walkthrough in the session: its position, a lecturer's own walkthrough file, the step last arrived at.

Which walkthrough step drives the page now is the controls' business (ui/state.py: walk_active).
Only this module touches these keys (ui/state.py lists them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from ..state import Key

__all__ = ["Membership", "arrive_at_walk_step", "arrived_at", "custom_walkthrough", "details_shown",
           "first_run_of_walkthrough", "join_shown", "membership", "replace_walk_controls", "set_arrived_at",
           "set_custom_walkthrough", "set_membership", "set_walk_position", "toggle_details", "toggle_join",
           "walk_controls", "walk_position"]


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


# ----- the room this window belongs to (ui/lecture/sync.py) ------------------------------------------

@dataclass
class Membership:
    """This window in a room: the lecturer's (the window that opened it, or a console: both hold a secret
    and drive), or a student's (no secret: it follows, or explores on its own)."""

    room: str
    secret: str
    role: str  # "host" (opened the room: the projection), "console" or "student"
    seen: int = 0  # the room's version this window last published or applied
    following: bool = False  # the host polls the room once a console has opened; a student follows or explores
    clock_start: float | None = None
    budget_min: int = 0  # 0: the deck's default
    last: Any = None  # the deck this window last published or took from the room (ui/lecture/deck.py)
    token: str | None = None  # the projection's one-time token for a console, while it lives
    announced: bool = False  # the host: the deck on its screen went to the room as shown (the class takes it)
    waiting: tuple[int, float] | None = None  # a student: a version not yet shown by the projection, and since when
    run_started: float = 0.0  # when this window's last full run started and ended (ui/lecture/sync.py)
    run_ended: float = 0.0
    run_seen: int = 0  # the room's version this window held when its current full run started
    drawn: int = 0  # ... and when the last full run that ended started: what its frame and page drew
    student: str = ""  # a student's anonymous id in the room's attendance (ui/lecture/classroom.py)
    heard: float = 0.0  # when this student last told the room it is there
    goto: str | None = None  # the page this window must switch to on its next run (joined, rejoined, back)
    steps: int = 0  # how many steps the room's walkthrough has (a student's line says "Step k of n")
    own: Any = None  # a student's exploration while following again: (page id, deck), one click away
    poll: Any = None  # the question put to the class (ui/lecture/deck.py Poll): the lecturer's, or the room's
    answered: tuple[int, str] | None = None  # a student: the poll they answered last, and what they sent
    poll_note: tuple[int, str, str] | None = None  # a student: (poll, kind, message) said about their last send


def membership() -> Membership | None:
    return st.session_state.get(Key.ROOM)


def set_membership(member: Membership | None) -> None:
    if member is None:
        st.session_state.pop(Key.ROOM, None)
    else:
        st.session_state[Key.ROOM] = member
