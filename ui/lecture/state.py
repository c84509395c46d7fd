"""The walkthrough in the session: its position, a lecturer's own walkthrough file, the step last arrived at.

The window's place in a lecture's room is its own record (ui/lecture/window.py). Only this module touches
these keys (ui/state.py lists them).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..state import Key
from ..steps import clicker

__all__ = ["arrive_at_walk_step", "arrived_at", "custom_walkthrough", "details_shown", "first_run_of_walkthrough",
           "join_shown", "replace_walk_controls", "reset_walk_controls", "set_arrived_at", "set_custom_walkthrough",
           "set_walk_position", "take_press",
           "toggle_details", "toggle_join", "walk_controls", "walk_drift", "walk_position"]


def walk_position() -> int:
    return int(st.session_state.get(Key.WALK_POSITION, 0))


def set_walk_position(index: int) -> None:
    st.session_state[Key.WALK_POSITION] = index


def take_press() -> bool:
    """The clicker's presses (ui/steps/clicker.py) that no run has taken yet move the walkthrough from the step it is
    at, within its length. True if it moved; taken before anything is drawn."""
    taken, target = clicker.advance(clicker.pressed(), st.session_state.get(Key.WALK_PRESS, (0, 0)), walk_position())
    st.session_state[Key.WALK_PRESS] = taken
    if target == walk_position():
        return False
    set_walk_position(target)
    return True


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
    """Apply a walkthrough step's full set of control values on arrival: the step's own, and every other
    control of its page at its default (nothing carries over from an earlier step or an earlier change, so a
    step shows what ``/walkthrough?walk=<k>`` shows). A change the lecturer makes on the step stays until
    they leave it (the console says the live values differ, and resets them: :func:`reset_walk_controls`)."""
    if st.session_state.get(Key.WALK_ARRIVED) == index:
        return
    st.session_state[Key.WALK_ARRIVED] = index
    reset_walk_controls(page_id, values)


def reset_walk_controls(page_id: str, values: dict[str, Any]) -> None:
    """The page's walkthrough values back to the step's: ``values``, and the page's defaults for the rest."""
    st.session_state.setdefault(Key.WALK_CONTROLS, {})[page_id] = dict(values)


def walk_drift(page_id: str, values: dict[str, Any], defaults: dict[str, Any],
               refused: set[str] = frozenset()) -> dict[str, tuple[Any, Any]]:
    """The page's live walkthrough values that differ from the step's: name -> (live, the step's), for the controls
    the page drew (``defaults``: name -> default, what the page drew) and took (not ``refused``); a control the
    step does not set is at its default."""
    live = walk_controls().get(page_id, {})
    expected = {name: values.get(name, default) for name, default in defaults.items() if name not in refused}
    return {name: (live.get(name, defaults[name]), want) for name, want in sorted(expected.items())
            if live.get(name, defaults[name]) != want}


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
    """A student's last send to a class poll: ``"sent"`` (poll, what they sent as typed, as sent) or ``"note"``
    (poll, kind, message said about it) (ui/lecture/answers.py)."""
    return st.session_state.get(Key.POLL_SENT if kind == "sent" else Key.POLL_NOTE)


def set_poll_said(kind: str, value: tuple | None) -> None:
    st.session_state[Key.POLL_SENT if kind == "sent" else Key.POLL_NOTE] = value
