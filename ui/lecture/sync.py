"""Keeping a lecture's windows in step: each publishes its deck to the room when it changed it, and
follows the room's deck when another window changed it.

Streamlit pushes nothing from one session to another, so a following window polls: a fragment that
reruns every :data:`POLL_SECONDS` (``st.fragment(run_every=...)``, timed by the browser) compares the
room's version with the one it last saw, a dictionary lookup, and reruns the app only when the deck
moved. A driving window publishes as soon as a change is known: before the step's page runs
(Back/Next and the controls' callbacks have run by then) and after it (a step's own control values,
the matrix). Publishing happens only when this window's deck differs from the one it last saw in the
room, so a window that merely followed never sends the room's deck back; and only over the version it
last saw (compare and set), so a window that has not yet seen another's move never undoes it. Its own
change then meets the newer deck in ``follow``, which merges the two (``Deck.merged``).

The projection creates the room when it is first drawn (it holds the secret); the console is a
second window that redeems the room's one-time token (``?console=<token>``) for a secret of its own,
after which the token is void and leaves the address bar.

A following window keeps its poll alive on its own. Streamlit's frontend clears every fragment's timer when
a full run starts, and the timer comes back when that run draws the fragment again. app.py therefore draws
the poll before the page, and notes when each full run starts and ends. A full run that was cut short
leaves a page half drawn, so a poll that finds one older than ``REPAIR_SECONDS`` reruns the app; and a
student's poll reruns it whenever the last full run that ended did not draw the room's version the window
holds (a rerun merged away under load: measured by ``make bench-room`` as missed steps).

Students' windows (ui/lecture/classroom.py) follow too, on a poll of their own (``ATTENTION_CLASS_POLL_MS``),
which also tells the room every ``ATTEND_SECONDS`` that the student is still there. A student never
publishes: a change of their own makes them explore instead of follow.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

import streamlit as st

from ..inputs import state as matrix_state
from ..settings import limits, rooms_url
from . import state as walk_state
from .deck import DEFAULT_BUDGET_MIN, Deck, DeckError
from .rooms import MemoryRooms, RoomError, Rooms, RoomsUnavailable
from .walkthrough import FILE_PARAM, WalkthroughError, decode_text, encode

__all__ = ["ATTEND_SECONDS", "CLASS_POLL_SECONDS", "CONSOLE_PARAM", "POLL_SECONDS", "attendance", "begin_full_run",
           "end_full_run", "follow", "following", "host", "join_console", "poll", "publish", "restart_clock",
           "restore", "rooms", "set_budget", "snapshot", "start_following", "token"]

# A following window's poll: half of it on average is added to a move (ATTENTION_POLL_MS, default 250).
POLL_SECONDS = limits().poll_ms / 1000
CLASS_POLL_SECONDS = limits().class_poll_ms / 1000  # a student's (ATTENTION_CLASS_POLL_MS)
REPAIR_SECONDS = 2.0  # a full run not finished after this was cut short: the next poll redraws the page
UNSHOWN_SECONDS = 1.0  # a deck no projection has drawn reaches the class after this
ATTEND_SECONDS = 10  # a student's window says it is still there this often (rooms.PRESENCE_SECONDS: three misses)
CONSOLE_PARAM = "console"  # ?console=<one-time token>: this window becomes the room's presenter console
_log = logging.getLogger("attention_app")


@st.cache_resource
def rooms() -> Rooms:
    """The process's rooms (one object for every session of this server): in Redis when
    ``ATTENTION_ROOMS`` names one (every replica then sees every room), else in this process."""
    url = rooms_url()
    if url is None:
        return MemoryRooms()
    from .redis_rooms import RedisRooms  # the redis client is imported only where it is used

    return RedisRooms(url)


def snapshot() -> Deck:
    """This window's deck, as it stands."""
    member = walk_state.membership()
    custom = walk_state.custom_walkthrough()
    linked = st.query_params.get(FILE_PARAM)
    return Deck.of(walk_state.walk_position(), walk_state.arrived_at(), matrix_state.get_matrix(),
                   walk_state.walk_controls(), encode(custom) if custom is not None else linked or None,
                   member.clock_start if member else None,
                   member.budget_min if member and member.budget_min else DEFAULT_BUDGET_MIN,
                   member.poll if member else None)


def host() -> walk_state.Membership:
    """This window's room as its lecturer: created on the projection's first run, or by ``?room=new``.
    Raises RoomsFull or RoomsUnavailable when the store cannot open one."""
    member = walk_state.membership()
    if member is None:
        deck = snapshot()
        room, secret = rooms().create(deck.to_json())
        member = walk_state.Membership(room, secret, "host", seen=1, last=deck)
        walk_state.set_membership(member)
    return member


def token() -> str | None:
    """The one-time token that opens a console on this room (the projection's P), or None."""
    member = walk_state.membership()
    if member is None:
        return None
    try:  # the store keeps only the token's hash: the window keeps the token, and the store says if it lives
        member.token = rooms().issue_token(member.room, member.secret, member.token)
        return member.token
    except RoomsUnavailable:
        return member.token
    except RoomError:
        walk_state.set_membership(None)
        return None


def attendance() -> int:
    """How many students are in this window's room now (0 when the store cannot say)."""
    member = walk_state.membership()
    try:
        return 0 if member is None else rooms().attendance(member.room)
    except RoomError:
        return 0


def start_following() -> None:
    """The projection opened a console: from now on it follows the room (its poll starts)."""
    member = walk_state.membership()
    if member is not None:
        member.following = True


def join_console() -> bool | None:
    """On a first run with ``?console=<token>``: join the token's room as its console.

    True: joined (the room's deck is applied, the token leaves the address); False: the token
    was used or is void; None: the address carries no token.
    """
    raw = st.query_params.get(CONSOLE_PARAM)
    if raw is None:
        return None
    del st.query_params[CONSOLE_PARAM]
    found = rooms().redeem(raw[:64])
    if found is None:
        return False
    room, secret = found
    walk_state.set_membership(walk_state.Membership(room, secret, "console", following=True))
    follow()
    return True


def publish(final: bool = False) -> None:
    """Send this window's deck to its room if this window changed it. ``final``: the page has run; the
    projection then also tells the class that the deck on its screen is drawn (``Deck.shown``), so that
    the students' reruns start after the projection's own run, not against it."""
    member = walk_state.membership()
    if member is None:
        return
    deck = snapshot()
    changed = deck != member.last
    if member.role == "student":  # a student's own change: from now on they explore (ui/lecture/classroom.py)
        if changed:
            member.following = False
        return
    announce = final and member.role == "host" and (changed or not member.announced)
    if not changed and not announce:
        return
    try:  # only over the version this window last saw: a deck that has not seen another window's newer one
        version = rooms().publish(member.room, member.secret, replace(deck, shown=announce).to_json(),
                                  expected=member.seen)  # must not undo it (a step that window moved to)
    except RoomsUnavailable:  # the store is out of reach: the next run publishes again
        return
    except RoomError:  # the room is gone (a restart, or hours idle): this window goes on alone
        walk_state.set_membership(None)
        return
    if version is None:  # another window published first: follow() merges this window's change into theirs,
        return  # and the next publish sends the merged deck
    member.seen, member.last, member.announced = version, deck, announce


def follow(force: bool = False) -> bool:
    """Take the room's deck if another window moved it; True if this window changed. A student takes a
    deck once the projection has drawn it (``force``: at once, as on joining)."""
    member = walk_state.membership()
    if member is None:
        return False
    exploring = member.role == "student" and not member.following  # takes only the question put to the class
    try:
        version = rooms().version(member.room)
    except RoomsUnavailable:  # the next poll tries again
        return False
    if version is None:
        walk_state.set_membership(None)
        return False
    if version == member.seen:
        return False
    try:
        found = rooms().read(member.room)
    except RoomsUnavailable:
        return False
    if found is None:
        return False
    version, document = found
    try:
        deck = Deck.from_json(document)
    except DeckError as exc:  # written by this app's lecturer's windows only, yet checked like a link
        _log.warning("a room's deck was refused: %s", exc)
        member.seen = version
        return False
    if exploring:
        member.seen, asked = version, deck.asked()
        changed, member.poll = asked != member.poll, asked
        return changed
    if not force and member.role == "student" and not _shown_or_overdue(deck, version, member):
        return False  # the projection is still drawing it: the next poll looks again
    member.seen, member.waiting = version, None
    mine = snapshot()  # a lecturer's window keeps what it changed that the other window did not (Deck.merged)
    target = deck if member.role == "student" else mine.merged(member.last, deck)
    if target == mine:
        member.last = deck
        return False
    _apply(target, member)
    member.last, member.announced = (snapshot() if target == deck else deck), False
    return True


def _shown_or_overdue(deck: Deck, version: int, member: walk_state.Membership) -> bool:
    """Whether a student takes this deck now: the projection has drawn it, or it has waited UNSHOWN_SECONDS
    (a lecturer driving from the console alone, with no projection open)."""
    if deck.shown:
        return True
    if member.waiting is None or member.waiting[0] != version:
        member.waiting = (version, time.monotonic())
    return time.monotonic() - member.waiting[1] >= UNSHOWN_SECONDS


def _apply(deck: Deck, member: walk_state.Membership) -> None:
    shared = deck.state()
    walk_state.set_walk_position(deck.position)
    walk_state.set_arrived_at(deck.arrived)
    walk_state.replace_walk_controls(shared.controls)
    if shared.matrix is not None and shared.matrix != matrix_state.get_matrix():
        matrix_state.set_matrix(shared.matrix)
    if deck.walkthrough is None:
        walk_state.set_custom_walkthrough(None)
        if FILE_PARAM in st.query_params:
            del st.query_params[FILE_PARAM]
    elif deck.walkthrough != st.query_params.get(FILE_PARAM):
        try:
            walk_state.set_custom_walkthrough(decode_text(deck.walkthrough))
        except WalkthroughError:
            walk_state.set_custom_walkthrough(None)
    member.clock_start, member.budget_min, member.poll = deck.clock_start, deck.budget_min, deck.poll


def restore(deck: Deck) -> None:
    """Put a deck this window kept back on screen (a student's own exploration)."""
    member = walk_state.membership()
    if member is not None:
        asked = member.poll  # the question the room asks now, not the one asked when the exploration began
        _apply(deck, member)
        member.poll, member.last = asked, snapshot()


def restart_clock() -> None:
    member = walk_state.membership()
    if member is not None:
        member.clock_start = time.time()


def set_budget(minutes: int) -> None:
    member = walk_state.membership()
    if member is not None:
        member.budget_min = int(minutes)


def begin_full_run() -> None:
    """app.py, as a full run starts (see the module's docstring)."""
    member = walk_state.membership()
    if member is not None:
        member.run_started, member.run_seen = time.monotonic(), member.seen


def end_full_run() -> None:
    """app.py, as a full run ends: what it drew is the room's version this window holds."""
    member = walk_state.membership()
    if member is not None:
        member.run_ended, member.drawn = time.monotonic(), member.run_seen  # a deck taken mid-run: not drawn


def _cut_short(member: walk_state.Membership) -> bool:
    return member.run_started > member.run_ended and time.monotonic() - member.run_started > REPAIR_SECONDS


@st.fragment(run_every=POLL_SECONDS)
def _poll() -> None:
    publish()  # this window's own change first (a callback ran before this run): else the room's older deck wins
    member = walk_state.membership()
    if follow() or (member is not None and _cut_short(member)):
        st.rerun(scope="app")


@st.fragment(run_every=CLASS_POLL_SECONDS)
def _class_poll() -> None:
    member = walk_state.membership()
    if member is None:
        return
    if time.time() - member.heard >= ATTEND_SECONDS:
        _attend(member)
    if follow() or _undrawn(member) or _cut_short(member):
        st.rerun(scope="app")


def _undrawn(member: walk_state.Membership) -> bool:
    """A following student holds a deck no full run has drawn to its end: the rerun that should have drawn it
    never came (merged away, or cut short). Without this, the student would wait for the lecturer's next move."""
    running = member.run_started > member.run_ended  # a full run (this one) is drawing what it started with
    return member.following and member.seen != (member.run_seen if running else member.drawn)


def _attend(member: walk_state.Membership) -> None:
    try:
        rooms().attend(member.room, member.student)  # False (the class filled up meanwhile): they still follow
    except RoomsUnavailable:
        return
    except RoomError:  # the room is gone: the lecture has ended
        walk_state.set_membership(None)
        st.rerun(scope="app")
    member.heard = time.time()


def following() -> bool:
    """Whether this window polls a room (then app.py draws the poll): a lecturer's window that follows
    the other, or a student's (who polls while exploring too, to stay counted in the class)."""
    member = walk_state.membership()
    return member is not None and (member.following or member.role == "student")


def poll(page_id: str) -> None:
    """In a window that follows its room: the poll (draws nothing). A lecturer's windows live on the
    walkthrough; a student's poll wherever they are."""
    member = walk_state.membership()
    if member is None:
        return
    if member.role == "student":
        _class_poll()
    elif member.following and page_id == "walkthrough":
        _poll()
