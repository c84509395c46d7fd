"""This window in a lecture's room, on the Streamlit side: the window's one record in the session, what a
run sees of the room, and the actions the state machine (ui/lecture/protocol.py) decides, carried out.

Streamlit pushes nothing from one session to another, so a window in a room has a **heartbeat**: a fragment
that reruns every :data:`HEARTBEAT_SECONDS` (a student's every :data:`CLASS_HEARTBEAT_SECONDS`), reads the
room's version (a dictionary lookup, or one Redis call) and reruns the app only when the protocol says so.
The deck itself is taken in the full run that follows, before anything is drawn. A heartbeat drawn inside a
full run does not look again (the run's BEFORE moment has just looked), and a student's AFTER moment does not
ask the store (ui/lecture/store.py): a following student's update asks the store once.

Every change to the window goes through :func:`dispatch`: the record is replaced whole, never changed in place.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import replace

import streamlit as st

from .. import state
from ..inputs import state as matrix_state
from ..settings import limits
from ..state import Key
from . import protocol, watchdog
from . import state as walk_state
from .deck import DEFAULT_BUDGET_MIN, Deck
from .records import (
    Action,
    Attend,
    Event,
    Gone,
    Goto,
    Lecturer,
    Moment,
    Publish,
    Published,
    Rerun,
    Restore,
    Seen,
    Student,
    Take,
    Took,
    Window,
)
from .rooms import RoomError, RoomsUnavailable
from .store import look, rooms, turns, waiting_on_store
from .walkthrough import FILE_PARAM, WalkthroughError, decode_text, encode

__all__ = ["CLASS_HEARTBEAT_SECONDS", "HEARTBEAT_SECONDS", "act", "attendance", "current", "dispatch", "heartbeat",
           "rooms", "see", "snapshot", "turn"]

HEARTBEAT_SECONDS = limits().heartbeat_ms / 1000  # a lecturer's window: half of it on average is added to a move
CLASS_HEARTBEAT_SECONDS = limits().class_heartbeat_ms / 1000  # a student's
_log = logging.getLogger("attention_app")
_inline = threading.local()  # full_run: this thread is drawing a heartbeat inside a full run, not beating


def turn() -> contextlib.AbstractContextManager:
    """This run's turn in the process's queue of following students' runs (ui/lecture/turns.py). A lecturer's
    window, an exploring student's and a lone learner's never wait there; a lecturer's run goes ahead of it."""
    window = current()
    if isinstance(window, Lecturer):
        return turns().ahead()
    following = isinstance(window, Student) and window.following
    return turns().turn(window.student) if following else contextlib.nullcontext()


def current() -> Window | None:
    """This window's record in its room, or None."""
    return walk_state.window_record()


def dispatch(event: Event) -> tuple[Action, ...]:
    """The one way a window changes: the protocol's transition, its record replaced whole."""
    window, actions = protocol.transition(current(), event)
    walk_state.set_window_record(window)
    return actions


def snapshot(window: Window | None = None) -> Deck:
    """This window's deck as it stands: the walkthrough's place, the matrix and the controls from the session,
    and the talk's clock, length, question and shared notes from the lecturer's record (a student's from the deck
    it took)."""
    window = current() if window is None else window
    custom = walk_state.custom_walkthrough()
    linked = st.query_params.get(FILE_PARAM)
    walk = encode(custom) if custom is not None else linked or None
    talk = window if isinstance(window, Lecturer) else window.last if isinstance(window, Student) else None
    return Deck.of(walk_state.walk_position(), walk_state.arrived_at(), matrix_state.get_matrix(),
                   walk_state.walk_controls(), walk, talk.clock_start if talk else None,
                   talk.budget_min if talk else DEFAULT_BUDGET_MIN, talk.poll if talk else None,
                   talk.notes_shared if talk else False, talk.spotlight if talk else None)


def see(moment: Moment, page: str) -> str | None:
    """One moment of this window's run: what it sees goes through the protocol, and its actions are carried out.
    Returns the page to switch to, if the protocol says so (before anything is drawn)."""
    slot, lock = walk_state.window_slot(), walk_state.lecture_lock()
    if slot is None:  # held from here: the record is set in it, not written to the session again
        return None
    with lock:  # another run of this session, overlapping this one, sees the room after this one's moment
        return _see(slot, moment, page)


def _see(slot: walk_state.Slot, moment: Moment, page: str) -> str | None:
    if slot.pending is not None:  # the last moment's take was stopped half-way: finished first
        _take(slot, *slot.pending)
    window = slot.record
    room = look(window, moment)
    quiet = isinstance(window, Student) and moment is Moment.BEAT and (room.version == window.seen
                                                                       or not room.reachable)
    mine = None if quiet else snapshot(window)  # a student's heartbeat that finds nothing new encodes nothing
    after, actions = protocol.transition(window, Seen(moment, page, mine, room, time.time()))
    goto = carry_out(actions, slot, after, drawn=mine if moment is Moment.AFTER else None)
    if isinstance(window, Student) and window.following and not getattr(slot.record, "following", True):
        mine_now = mine.__dict__ if mine else {}
        changed = sorted(k for k, v in mine_now.items() if v != getattr(window.last, k, None))
        _log.info("a student explores (%s on %s): their own %s", moment.name, page, changed)
    if any(isinstance(a, Rerun) for a in actions):
        if moment is Moment.BEAT and isinstance(window, Student) and window.following:
            watchdog.beat(time.monotonic_ns(), behind=True)  # the run this starts draws the lecture's step: say so
            turns().hand_over(window.student)  # and goes first in the class's line: this beat has waited there
        st.rerun(scope="app")
    return goto


def act(event: Event) -> None:
    """A person's request that puts a deck on screen (Back to my exploration), carried out as a moment's actions:
    the deck taken first, then the record (:func:`_take`)."""
    slot, lock = walk_state.window_slot(), walk_state.lecture_lock()
    if slot is None:
        return
    with lock:
        after, actions = protocol.transition(slot.record, event)
        carry_out(actions, slot, after)


def carry_out(actions: tuple[Action, ...], slot: walk_state.Slot, after: Window | None, drawn: Deck | None = None):
    """Carry out a transition's actions but a Rerun (the caller's): ``slot`` is held since before it, ``after`` the
    record it gave, ``drawn`` the deck the page drew (its picture goes with a shown publish); takes go first."""
    goto = None
    _take(slot, after, tuple((a.deck, isinstance(a, Restore) or a.whole) for a in actions
                             if isinstance(a, Take | Restore)))
    for action in actions:
        if isinstance(action, Publish):
            _publish(action, slot, drawn)
        elif isinstance(action, Attend):
            _attend(slot)
        elif isinstance(action, Goto):
            goto = action.page
        # Leave: nothing to carry out; the window's record is already gone, and the address's room= leads a
        # reload to the room's "no such room" message. Rerun: the caller's, once all else is done.
    return goto


def _take(slot: walk_state.Slot, after: Window | None, decks: tuple[tuple[Deck, bool], ...]) -> None:
    """Put ``decks`` on screen, then set the record to ``after``. Any session write is a point where Streamlit may
    stop the run (for the rerun a browser asked for): the take is noted as pending first, and done again by the
    next moment if it was stopped. Set before it, the record would say the deck was taken, and a half-taken screen
    would read as the window's own change (a student then explores, a lecturer publishes it)."""
    slot.pending = (after, decks)
    for deck, whole in decks:
        _apply(deck)
        if whole:  # what the session holds now is what it took
            after = protocol.transition(after, Took(snapshot(after)))[0]
    slot.pending = None
    _set(slot, after)


def _note(slot: walk_state.Slot, event: Event) -> None:
    """An outcome noted in the held slot's record (no session write, so no run is stopped before it)."""
    _set(slot, protocol.transition(slot.record, event)[0])


def _set(slot: walk_state.Slot, record: Window | None) -> None:
    slot.record = record
    if record is None:  # out of the room: no holder left in the session
        walk_state.set_window_record(None)


def _publish(action: Publish, slot: walk_state.Slot, drawn: Deck | None = None) -> None:
    window = slot.record
    if not isinstance(window, Lecturer):
        return
    deck = replace(action.deck, shown=action.shown, picture=walk_state.picture_for(action.deck, drawn, action.shown))
    try:  # compare and set: a window that has not seen another's newer deck must not undo it
        version = rooms().publish(window.room, window.secret, deck.to_json(), expected=action.expected)
    except RoomsUnavailable:  # the next run publishes again
        _note(slot, Published(action.deck, None, reachable=False))
        return
    except RoomError:  # the room is gone (a restart, or hours idle): this window goes on alone
        _note(slot, Gone())
        return
    _note(slot, Published(action.deck, version, action.shown))


def _attend(slot: walk_state.Slot) -> None:
    window = slot.record
    try:
        with waiting_on_store():  # a following student's run gives its turn back while the store answers
            rooms().attend(window.room, window.student)  # False (the class filled up meanwhile): they still follow
    except RoomsUnavailable:
        return
    except RoomError:  # the room is gone: the lecture has ended
        _note(slot, Gone())


def _apply(deck: Deck) -> None:
    """Put a deck on this window's screen: the walkthrough's place and controls, the matrix, the walkthrough."""
    shared = deck.state()
    walk_state.set_place(deck.position, deck.arrived)
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


def attendance() -> int:
    """How many students are in this window's room now (0 when the store cannot say)."""
    window = current()
    try:
        return 0 if window is None else rooms().attendance(window.room)
    except RoomError:
        return 0


def heartbeat(page: str) -> None:
    """Draw this window's heartbeat and its watchdog (neither is visible): a student's on every page, a
    lecturer's on the walkthrough (its heartbeat once it follows the room: the console always, the projection
    once a console is open)."""
    window = current()
    if isinstance(window, Student):
        beat, expect = _class_heartbeat, f".st-key-{Key.CLASS_BAR}"
    elif isinstance(window, Lecturer) and page == protocol.WALK_PAGE:
        beat = _lecturer_heartbeat if window.follows else None
        expect = f".st-key-{Key.CONSOLE_NOTE if window.console else Key.PROJECTION_BAR}"
    else:
        return
    watchdog.asked()  # a full run is what the watchdog asks for: its asks so far are taken
    with st.container(key=Key.HEARTBEAT):  # alone in its box: nothing the full run draws comes after it there
        watchdog.draw(expect, beats=beat is not None)
        if beat is not None:
            _inline.full_run = True  # its BEFORE moment has just seen the room and taken a press
            try:
                beat(page)
            finally:
                _inline.full_run = False


def _inside_full_run() -> bool:
    """The heartbeat is drawn inside a full run (whose BEFORE moment has just looked), not beating on its own."""
    return getattr(_inline, "full_run", False)


@st.fragment(run_every=HEARTBEAT_SECONDS)
def _lecturer_heartbeat(page: str) -> None:
    if _inside_full_run():  # drawn before the page: the question this run draws is not known yet
        watchdog.beat(time.monotonic_ns(), step=walk_state.walk_position() + 1)
        return
    lecturer = current()  # the step, and on the projection the question, that its last full run drew
    question = walk_state.drawn_question() if isinstance(lecturer, Lecturer) else None
    watchdog.beat(time.monotonic_ns(), step=walk_state.walk_position() + 1, poll=question)
    moved = walk_state.take_press()  # a press whose own request was dropped comes with a beat: published here,
    see(Moment.BEAT, page)
    if moved or watchdog.asked():  # (or the watchdog's ask for a full run, whose own request was dropped)
        st.rerun(scope="app")  # and drawn by the run this starts


@st.fragment(run_every=CLASS_HEARTBEAT_SECONDS)
def _class_heartbeat(page: str) -> None:
    with turn():
        _class_beat(page)


def _class_beat(page: str) -> None:
    if not _inside_full_run():
        see(Moment.BEAT, page)  # a move to take reruns the app here (and the full run draws the new step)
    student = current()
    following = isinstance(student, Student) and student.following
    if not _inside_full_run() and watchdog.asked():  # the watchdog's ask for a full run, its own request dropped
        if following:
            turns().hand_over(student.student)  # first in the class's line, as for a move
        st.rerun(scope="app")
    behind = following and student.waiting is not None  # waiting for the projection to draw the lecture's new step
    drawn = walk_state.walk_position() + 1 if following and page == protocol.WALK_PAGE else None
    # The question a following student's page shows (its box is under their line, drawn outside lecture mode).
    question = (student.poll.mark if student.poll else "") if following and not state.lecture_mode() else None
    watchdog.beat(time.monotonic_ns(), behind, drawn, question)
