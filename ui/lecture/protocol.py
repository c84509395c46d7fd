"""A lecture window as a small state machine: what it is, and what it does next. No Streamlit here.

A window in a room is one frozen record: a :class:`Lecturer` (the projection that opened the room, or
its presenter console; both hold the room's secret and drive) or a :class:`Student` (no secret: one exploring
on their own; following the lecture is the light page's, ui/follow, which needs no state machine).
:func:`transition` is the only place a window changes: from the window and one :data:`Event` (what a run saw,
or what a person asked for) to the next window and the :data:`Action` list its caller carries out
(ui/lecture/window.py does the input and output).

What a run sees (:class:`Seen`) is taken at one of two moments: ``BEFORE`` the page is drawn (a full run: a
room that is gone is left here, and a lecturer takes another window's move), and ``AFTER`` the page ran (a full or a
page-only run: what the page changed is published). A lecturer's window runs when its browser hears the room move
(ui/lecture/listen.js): nothing of the room is looked at between runs.
"""

from __future__ import annotations

from dataclasses import replace

from .records import (
    ATTEND_SECONDS,
    Action,
    Attend,
    Event,
    Gone,
    Joined,
    Leave,
    Lecturer,
    Moment,
    Publish,
    Published,
    Rerun,
    Seen,
    SetBudget,
    SetPoll,
    SetSpotlight,
    ShareNotes,
    StartClock,
    Student,
    Take,
    Took,
    Window,
)

__all__ = ["transition"]


# ----- the transition -------------------------------------------------------------------------------

def transition(window: Window | None, event: Event) -> tuple[Window | None, tuple[Action, ...]]:
    """The next window and what to do, for one event. ``None``: this window is in no room."""
    if isinstance(event, Joined):
        return _joined(event)
    if window is None:
        return None, ()
    if isinstance(event, Gone):  # whoever the window was, it goes on alone
        return None, (Leave(),)
    if isinstance(window, Lecturer):
        return _lecturer(window, event)
    return _student(window, event)


def _joined(event: Joined) -> tuple[Window, tuple[Action, ...]]:
    if event.secret:
        if event.console:  # a console takes the room's deck on its first run
            return Lecturer(event.room, event.secret, console=True), ()
        return Lecturer(event.room, event.secret, seen=1, last=event.mine), ()  # the projection made the room
    return Student(event.room, event.student, heard=event.now), ()


# ----- a lecturer's window --------------------------------------------------------------------------

def _lecturer(w: Lecturer, event: Event) -> tuple[Window | None, tuple[Action, ...]]:
    match event:
        case Seen():
            return _lecturer_saw(w, event)
        case Published(reachable=False):  # the store out of reach: the next run tries again
            return w, ()
        case Published(version=None):
            # Refused: another window published first. This window runs again at once, and that run merges its
            # change into the newer deck and publishes it; nothing else would run it (its listener hears no news
            # of its own, nor of a deck only marked as drawn).
            return w, (Rerun(),)
        case Published():
            return replace(w, seen=event.version, last=event.deck, announced=event.shown), ()
        case Took():
            return replace(w, last=event.mine), ()
        case SetPoll():
            return replace(w, poll=event.poll), ()
        case StartClock():
            return replace(w, clock_start=event.now), ()
        case SetBudget():
            return replace(w, budget_min=event.minutes), ()
        case ShareNotes():
            return replace(w, notes_shared=event.shared), ()
        case SetSpotlight():
            return replace(w, spotlight=event.spotlight), ()
    return w, ()


def _lecturer_saw(w: Lecturer, seen: Seen) -> tuple[Window | None, tuple[Action, ...]]:
    """Publish this window's own change; take (merged with it) what another window published meanwhile."""
    room, moment = seen.room, seen.moment
    if room.reachable and room.version is None:
        return None, (Leave(),)
    if not room.reachable:  # nothing is concluded: the next run tries again
        return w, ()
    shown = not w.console and moment is Moment.AFTER  # the projection has drawn it: the class may take it
    if room.version != w.seen and room.deck is None:  # a deck this app cannot read: skipped (logged)
        return replace(w, seen=room.version), ()
    if room.version != w.seen:  # another window moved: its deck, with what only this one changed kept
        target = seen.mine.merged(w.last, room.deck)
        acts: list[Action] = []
        if target != seen.mine:
            acts.append(Take(target, whole=target == room.deck))
        # The room's deck as this run drew it, but published by another window (a console's same move): not a
        # drawing, so the projection announces it, or the class would wait for its picture until the next move.
        if target != room.deck or (shown and target == seen.mine and not room.deck.shown):
            acts.append(Publish(target, expected=room.version, shown=shown))
        if target != seen.mine and moment is not Moment.BEFORE:
            acts.append(Rerun())  # the page on screen shows the old deck
        return replace(w, seen=room.version, last=room.deck, announced=False, clock_start=target.clock_start,
                       budget_min=target.budget_min, poll=target.poll, notes_shared=target.notes_shared,
                       spotlight=target.spotlight), tuple(acts)
    if (seen.mine is not None and seen.mine != w.last) or (shown and not w.announced):
        return w, (Publish(seen.mine, expected=w.seen, shown=shown),)
    return w, ()


# ----- a student's window ---------------------------------------------------------------------------

def _student(s: Student, event: Event) -> tuple[Window | None, tuple[Action, ...]]:
    """A student explores: their run leaves a room that is gone, and says they are there every few seconds."""
    if not isinstance(event, Seen) or event.moment is not Moment.BEFORE:
        return s, ()
    if event.room.reachable and event.room.version is None:
        return None, (Leave(),)
    if event.now - s.heard >= ATTEND_SECONDS:
        return replace(s, heard=event.now), (Attend(),)
    return s, ()
