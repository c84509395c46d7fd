"""The lecturer's seat, kept in the lecturer's browser: a reloaded projection or console goes on driving.

A window that drives a room (a :class:`~ui.lecture.records.Lecturer`) keeps its secret in a cookie of its browser,
``attention_seat_<room>`` (path ``/``, ``SameSite=Strict``, for as long as an idle room lives), written by a small
script on its page; the secret never goes in an address. The projection writes its own; a console writes its own
only where its browser holds none for the room (the projection's, the room's creator's, is never let go).

A window that an address brings into ``room=<id>`` (a reload, a reconnect, a restarted server) takes the seat back
before it would join as a student: when it is the projection (``?lecture=1``) or a console (``seat=console``,
which a console keeps in its address), and the cookie its browser sent holds a secret that still drives the room
(:meth:`~ui.lecture.rooms.Rooms.is_driver`). A student's device has no such cookie; the lecturer's own tab on the
class's link (neither mark) joins as a student, as the class does. A console whose seat is not taken back (a
blocked cookie, an evicted secret, another browser) joins nothing: it is told so (ui/lecture/lecture.py).
"""

from __future__ import annotations

from html import escape

import streamlit as st

from .. import state
from ..state import Key
from . import state as walk_state
from . import window
from .records import Joined, Lecturer
from .rooms import ROOM_SECONDS, RoomError, is_secret

__all__ = ["COOKIE_PREFIX", "CONSOLE_SEAT", "SEAT_PARAM", "console_address", "keep", "taken"]

COOKIE_PREFIX = "attention_seat_"  # + the room's id
SEAT_PARAM = "seat"  # ?seat=console: this address is a presenter console's (it holds no secret)
CONSOLE_SEAT = "console"

_SCRIPT = """
(() => {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.querySelectorAll('.lecture-seat').forEach((seat) => {
    document.cookie = seat.dataset.name + '=' + seat.dataset.value + '; path=/; max-age=' + seat.dataset.age
      + '; SameSite=Strict' + secure;
  });
})();
"""


def taken(room: str) -> bool:
    """This window takes back the seat its browser kept for ``room``, if it has one that still drives the room:
    the projection (a console may be open and driving it), or a console. True if it did."""
    projection = state.lecture_mode()
    if not projection and not console_address():
        return False
    secret = _kept(room)
    try:
        if secret is None or not window.rooms().is_driver(room, secret):
            return False
    except RoomError:  # the store out of reach: the window joins as the address says, and a reload tries again
        return False
    if projection:
        window.dispatch(Joined(room, secret=secret, mine=window.snapshot()))
        walk_state.first_run_of_walkthrough()  # the room's step is this window's: an older ?walk= moves no one
    else:
        window.dispatch(Joined(room, secret=secret, console=True))
    return True


def console_address() -> bool:
    """Whether this window's address is a presenter console's (``seat=console``; the projection's never is)."""
    return not state.lecture_mode() and st.query_params.get(SEAT_PARAM) == CONSOLE_SEAT


def keep() -> None:
    """A lecturer's window: keep its secret in its browser (a hidden script), and a console's mark in its address."""
    member = window.current()
    if not isinstance(member, Lecturer):
        return
    if member.console and st.query_params.get(SEAT_PARAM) != CONSOLE_SEAT:
        st.query_params[SEAT_PARAM] = CONSOLE_SEAT
    if member.console and _kept(member.room) is not None:  # the projection's seat is kept already
        return
    if not is_secret(member.secret):
        return
    with st.container(key=Key.SEAT):
        st.html(f'<span hidden class="lecture-seat" data-name="{escape(COOKIE_PREFIX + member.room)}" '
                f'data-value="{escape(member.secret)}" data-age="{ROOM_SECONDS}"></span><script>{_SCRIPT}</script>',
                unsafe_allow_javascript=True)


def _kept(room: str) -> str | None:
    """The secret this window's browser kept for ``room`` (sent when the session began), if it looks like one."""
    try:
        secret = st.context.cookies.get(COOKIE_PREFIX + room)
    except (AttributeError, RuntimeError):  # no browser behind this session (a test's run)
        return None
    return secret if is_secret(secret) else None
