"""This window in a lecture's room, on the Streamlit side: the window's one record in the session, what a
run sees of the room, and the actions the state machine (ui/lecture/protocol.py) decides, carried out.

Streamlit pushes nothing from one session to another, so a lecturer's window on the walkthrough has a **listener**
(``listen.js``, drawn last in each full run: :func:`listen`): it hears the room's event stream (ui/shell/push.py) in
the browser, and a version newer than the run saw and published becomes its state, which reruns the app at once.
The same script asks the room's activity (ui/shell/activity.py: who is here, how many answered, the newest
exploration sent) every few seconds and reruns the app when it differs from what the run drew. No timed fragment
runs in a lecturer's window: a run starts only for a key, a click, or the room. The deck itself is taken in the full
run, before anything is drawn. A student's window (one exploring: following is the light page's, ui/follow) has no
listener: its full runs look at the room's version only, to leave a room that is gone and to stay counted.

Every change to the window goes through :func:`dispatch`: the record is replaced whole, never changed in place.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path

import streamlit as st

from ..draw import script_component
from ..inputs import state as matrix_state
from ..settings import limits
from ..state import Key
from . import protocol
from . import state as walk_state
from .address import activity_path, events_path
from .deck import DEFAULT_BUDGET_MIN, Deck
from .records import (
    WALK_PAGE,
    Action,
    Attend,
    Event,
    Gone,
    Lecturer,
    Moment,
    Publish,
    Published,
    Rerun,
    Seen,
    Student,
    Take,
    Took,
    Window,
)
from .rooms import RoomError, RoomsUnavailable
from .store import look, rooms
from .walkthrough import FILE_PARAM, WalkthroughError, decode_text, encode

__all__ = ["attendance", "current", "dispatch", "listen", "rooms", "see", "snapshot"]

_log = logging.getLogger("attention_app")
PUBLISH_ATTEMPTS = 2  # a publish the store did not answer is tried once more, PUBLISH_RETRY_SECONDS later
PUBLISH_RETRY_SECONDS = 0.25


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
    talk = window if isinstance(window, Lecturer) else None
    return Deck.of(walk_state.walk_position(), walk_state.arrived_at(), matrix_state.get_matrix(),
                   walk_state.walk_controls(), walk, talk.clock_start if talk else None,
                   talk.budget_min if talk else DEFAULT_BUDGET_MIN, talk.poll if talk else None,
                   talk.notes_shared if talk else False, talk.spotlight if talk else None)


def see(moment: Moment, page: str) -> None:
    """One moment of this window's run: what it sees goes through the protocol, and its actions are carried out."""
    slot, lock = walk_state.window_slot(), walk_state.lecture_lock()
    if slot is None:  # held from here: the record is set in it, not written to the session again
        return
    if isinstance(slot.record, Student) and moment is not Moment.BEFORE:  # an explorer's page changes no one
        return
    with lock:  # another run of this session, overlapping this one, sees the room after this one's moment
        _see(slot, moment, page)


def _see(slot: walk_state.Slot, moment: Moment, page: str) -> None:
    if slot.pending is not None:  # the last moment's take was stopped half-way: finished first
        _take(slot, *slot.pending)
    window = slot.record
    room = look(window)
    mine = None if isinstance(window, Student) else snapshot(window)  # an explorer's own state is no one else's
    after, actions = protocol.transition(window, Seen(moment, page, mine, room, time.time()))
    done = carry_out(actions, slot, after, drawn=mine if moment is Moment.AFTER else None)
    if any(isinstance(a, Rerun) for a in (*actions, *done)):
        st.rerun(scope="app")


def carry_out(actions: tuple[Action, ...], slot: walk_state.Slot, after: Window | None,
              drawn: Deck | None = None) -> tuple[Action, ...]:
    """Carry out a transition's actions but a Rerun (the caller's): ``slot`` is held since before it, ``after`` the
    record it gave, ``drawn`` the deck the page drew (its picture goes with a shown publish); takes go first.
    Returns the actions the outcomes asked for in turn (a refused publish: a Rerun)."""
    _take(slot, after, tuple((a.deck, a.whole) for a in actions if isinstance(a, Take)))
    done: tuple[Action, ...] = ()
    for action in actions:
        if isinstance(action, Publish):
            done += _publish(action, slot, drawn)
        elif isinstance(action, Attend):
            _attend(slot)
        # Leave: nothing to carry out; the window's record is already gone, and the address's room= leads a
        # reload to the room's "no such room" message. Rerun: the caller's, once all else is done.
    return done


def _take(slot: walk_state.Slot, after: Window | None, decks: tuple[tuple[Deck, bool], ...]) -> None:
    """Put ``decks`` on screen, then set the record to ``after``. Any session write is a point where Streamlit may
    stop the run (for the rerun a browser asked for): the take is noted as pending first, and done again by the
    next moment if it was stopped. Set before it, the record would say the deck was taken, and a half-taken screen
    would read as the window's own change (a lecturer would publish it)."""
    slot.pending = (after, decks)
    for deck, whole in decks:
        _apply(deck)
        if whole:  # what the session holds now is what it took
            after = protocol.transition(after, Took(snapshot(after)))[0]
    slot.pending = None
    _set(slot, after)


def _note(slot: walk_state.Slot, event: Event) -> tuple[Action, ...]:
    """An outcome noted in the held slot's record (no session write, so no run is stopped before it); what it asks."""
    record, actions = protocol.transition(slot.record, event)
    _set(slot, record)
    return actions


def _set(slot: walk_state.Slot, record: Window | None) -> None:
    slot.record = record
    if record is None:  # out of the room: no holder left in the session
        walk_state.set_window_record(None)


def _publish(action: Publish, slot: walk_state.Slot, drawn: Deck | None = None) -> tuple[Action, ...]:
    window = slot.record
    if not isinstance(window, Lecturer):
        return ()
    picture = walk_state.picture_for(action.deck, drawn, action.shown, window.last)
    unchanged = action.expected == window.seen and action.deck == window.last  # only marked: shown, its picture
    deck = replace(action.deck, shown=action.shown, picture=picture, by=walk_state.window_token(), unchanged=unchanged)
    for attempt in range(1, PUBLISH_ATTEMPTS + 1):
        try:  # compare and set: a window that has not seen another's newer deck must not undo it
            version = rooms().publish(window.room, window.secret, deck.to_json(), expected=action.expected)
            break
        except RoomsUnavailable as exc:
            # Tried again after a moment: a projection alone has no next run until the lecturer's next key, and its
            # class would wait until then for the step on its screen (a store's answer slowed past its timeout).
            if attempt < PUBLISH_ATTEMPTS:
                time.sleep(PUBLISH_RETRY_SECONDS)
                continue
            _log.warning("room %s: a publish did not reach the store (%s); the next run tries again", window.room, exc)
            return _note(slot, Published(action.deck, None, reachable=False))
        except RoomError:  # the room is gone (a restart, or hours idle): this window goes on alone
            return _note(slot, Gone())
    return _note(slot, Published(deck, version, action.shown))  # its picture kept: the next publish may carry it on


def _attend(slot: walk_state.Slot) -> None:
    window = slot.record
    try:
        rooms().attend(window.room, window.student)  # False (the class filled up meanwhile): they go on exploring
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
        count = 0 if window is None else rooms().attendance(window.room)
    except RoomError:
        return 0
    walk_state.draw_activity("present", count)  # its listener reruns the window when the count changes
    return count


def _ignore() -> None:
    """A version heard reruns the app, whose first moment reads the room: nothing to do in a callback."""


def listen(page: str) -> None:
    """Last in a full run of a lecturer's window on the walkthrough: the room's event stream, heard in the browser,
    and its activity, asked every ``activity_ms`` (ui/settings.py). A version newer than the one this run saw and
    published reruns the app at once, which takes the other window's move; so does activity other than the run
    drew. Drawn after this run's own publishes, so that they do not come back as news (a rerun for nothing)."""
    lecturer = current()
    if not isinstance(lecturer, Lecturer) or page != WALK_PAGE:
        return
    component = script_component("attention_listen", Path(__file__).with_name("listen.js"))
    with st.container(key=Key.LISTENING):
        # both addresses relative to the page, as the app may be served under a prefix
        component(key=Key.LISTEN, data={"events": f"{events_path(lecturer.room)[1:]}?raw=1", "seen": lecturer.seen,
                                            "me": walk_state.window_token(), "drawn": walk_state.drawn_activity(),
                                            "activity": activity_path(lecturer.room)[1:],
                                            "every": limits().activity_ms},
                  on_heard_change=_ignore, on_activity_change=_ignore, height=0)
