"""What app.py's frame asks of the lecture: twice a run, before the page and after it, and nowhere else.

**Before the page** (a full run): a window that the address sends into a room enters it (``?console=<token>``:
the projection's presenter console; ``?room=new``: a room driven by this window; ``?room=<id>``: a student who
explores on their own (a student who follows has the light page, ui/follow: the server sends the class's link
there, ui/shell/join.py), unless the window is the room's projection or console, reloaded, and its browser kept the
seat (ui/lecture/seat.py): a console that lost its seat is told so and left out of the room, never a student; the
projection opens a room on its first run). Then the window sees its room once (a lecturer takes the room's deck
before anything is drawn). Last, a lecturer's seat, or a student's line, is drawn. What is said about
entering (no such room, a used console link) is said above the page, never on the projection.

**After the page** (a full run, or the page's own run): what the page changed is published (a lecturer's
window, whose listener is drawn last: ui/lecture/window.py); and the address bar keeps the room.
"""

from __future__ import annotations

import logging
import secrets
import time

import streamlit as st

from .. import state
from ..words.content import app_text
from . import classroom, seat, window
from . import state as walk_state
from .address import AWAY_PARAM, NEW_ROOM, ROOM_PARAM, student_cookie
from .records import WALK_PAGE, Joined, Lecturer, Moment, Student
from .rooms import RoomError, RoomsFull, RoomsUnavailable, is_room_id, is_student_id

__all__ = ["CONSOLE_PARAM", "after_page", "before_page", "drives", "refusal", "shown", "style", "view"]

CONSOLE_PARAM = "console"  # ?console=<one-time token>: this window becomes the room's presenter console
_log = logging.getLogger("attention_app")


def before_page(page_id: str) -> str | None:
    """Enter a room the address names, see it, draw a lecturer's seat or a student's line. Returns the page this
    window must switch to first, if any (a room just opened: the walkthrough)."""
    if page_id == WALK_PAGE:  # a clicker press not taken yet, before the room is seen (a lecturer publishes it)
        walk_state.take_press()
    goto = _enter(page_id)
    if goto not in (None, page_id):
        return goto
    walk_state.new_activity()
    window.see(Moment.BEFORE, page_id)
    seat.keep()
    if not state.lecture_mode():  # a keyless projection follows as a student; the room sees no student's line
        classroom.status_bar(page_id)
    return None


def after_page(page_id: str) -> None:
    """The page has run: publish what it changed (a lecturer's window), and keep the room in the address (a reload,
    or a reconnect to another replica, comes back to it)."""
    window.see(Moment.AFTER, page_id)
    classroom.write_address()
    window.listen(page_id)


def shown() -> tuple:
    """What the frame shows of the lecture (a page run that changes it reruns the app)."""
    member = window.current()
    if isinstance(member, Student):
        return ("student",)
    return ("lecturer",) if isinstance(member, Lecturer) else ()


def drives(page_id: str) -> bool:
    """Whether this window drives a lecture here: a lecturer's window (the projection, its console) on the
    walkthrough, or the projection before its room is made."""
    return page_id == WALK_PAGE and (isinstance(window.current(), Lecturer) or state.lecture_mode())


def view(page_id: str) -> str | None:
    """The walkthrough's view in this window ("projection", "console", or "plain"); None on another page."""
    if page_id != WALK_PAGE:
        return None
    if state.lecture_mode():
        return "projection"
    member = window.current()
    return "console" if isinstance(member, Lecturer) and member.console else "plain"


def style(page_id: str) -> str | None:
    """The style this window's page takes: a student's ("class"), else its walkthrough view."""
    return "class" if isinstance(window.current(), Student) else view(page_id)


def exploring(page_id: str) -> bool:
    """A student of a room who explores the lecture's walkthrough: the step they came for comes before the
    walkthrough's explanation, which is written for the lecturer (its keys, its projector address)."""
    return page_id == WALK_PAGE and isinstance(window.current(), Student)


def refusal(exc: RoomError) -> str:
    """Why no room could be opened, in the learner's words: a full server, or a store out of reach."""
    return app_text("room_server_full") if isinstance(exc, RoomsFull) else app_text("room_store_down")


# ----- entering a room -----------------------------------------------------------------------------

def _enter(page_id: str) -> str | None:
    """A window in no room enters the one its address names; returns the page to go to."""
    if CONSOLE_PARAM in st.query_params:
        _console()
    if window.current() is not None:
        return None
    raw = st.query_params.get(ROOM_PARAM)
    if raw == NEW_ROOM or (raw is None and state.lecture_mode() and page_id == WALK_PAGE):
        return _open_room()  # ?room=new, or the projection's first run
    if raw is None or seat.taken(raw[:64]):  # a lecturer's window, reloaded, drives again
        return None
    if seat.console_address():  # a console without its seat (a blocked cookie, another browser): never a student
        _say("warning", app_text("console_seat_lost"))
        for name in (ROOM_PARAM, AWAY_PARAM, seat.SEAT_PARAM):  # the plain walkthrough, out of the room
            if name in st.query_params:
                del st.query_params[name]
        return None
    # The projection without its seat (a cookie kept but void: without one the server sends it to the light page,
    # ui/shell/join.py) is a student of its room; nothing about keys or rooms is projected (_say), nor a student's
    # line (before_page).
    _join(raw[:64])
    return None


def _console() -> None:
    """``?console=<token>``: join the token's room as its console; the token is void afterwards."""
    raw = st.query_params.get(CONSOLE_PARAM)
    del st.query_params[CONSOLE_PARAM]
    try:
        found = window.rooms().redeem(raw[:64])
    except RoomsUnavailable:
        found = None
    if found is None:
        _say("warning", app_text("console_expired"))
        return
    window.dispatch(Joined(found[0], secret=found[1], console=True))


def _open_room() -> str | None:
    deck = window.snapshot()
    try:
        room, secret = window.rooms().create(deck.to_json())
    except RoomError as exc:  # said even on the projection: no lecture is on yet, and nothing else would say why
        state.flash("warning", refusal(exc), where="page")
        if ROOM_PARAM in st.query_params:
            del st.query_params[ROOM_PARAM]
        return None
    window.dispatch(Joined(room, secret=secret, mine=deck))
    return WALK_PAGE


def _join(room: str) -> None:
    """Join ``room`` as a student who explores; anything wrong is said, and the address loses the broken link."""
    student, problem = _admit(room)
    if problem is not None:
        _say("warning", problem)
        for name in (ROOM_PARAM, AWAY_PARAM):  # the normal app, without the broken link
            if name in st.query_params:
                del st.query_params[name]
        return
    window.dispatch(Joined(room, student=student, now=time.time()))


def _say(kind: str, message: str) -> None:
    """A note about this window's room or key, above its page; never on the projection, which the room sees (it is
    logged there: a projection without a room opens one on its next run, one without a key follows its room)."""
    if state.lecture_mode():
        _log.info("not projected: %s", message)
        return
    state.flash(kind, message, where="page")


def _admit(room: str) -> tuple[str, str | None]:
    """Ask the store to count this window in ``room``: its anonymous id, and None or why it was refused."""
    if not is_room_id(room):
        return "", app_text("room_malformed")
    student = _light_id(room) or secrets.token_urlsafe(9)  # anonymous: for the attendance and its cap
    try:
        if window.rooms().version(room) is None:
            return student, app_text("room_unknown", room=room)
        if not window.rooms().attend(room, student):
            return student, app_text("room_class_full")
    except RoomsUnavailable:
        return student, app_text("room_store_down")
    except RoomError:
        return student, app_text("room_unknown", room=room)
    return student, None


def _light_id(room: str) -> str | None:
    """The id the light page gave this browser for ``room`` (its cookie, ui/follow/student.py), if it looks like one:
    a student who explores from it is counted once, and what they send is theirs."""
    try:
        found = st.context.cookies.get(student_cookie(room))
    except (AttributeError, RuntimeError):  # no browser behind this session (a test's run)
        return None
    return found if is_student_id(found) else None
