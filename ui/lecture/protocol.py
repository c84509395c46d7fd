"""A lecture window as a small state machine: what it is, and what it does next. No Streamlit here.

A window in a room is one frozen record: a :class:`Lecturer` (the projection that opened the room, or
its presenter console; both hold the room's secret and drive) or a :class:`Student` (no secret: they
follow the lecture or explore on their own). :func:`transition` is the only place a window changes:
from the window and one :data:`Event` (what a run saw, or what a person asked for) to the next window
and the :data:`Action` list its caller carries out (ui/lecture/window.py does the input and output).

What a run sees (:class:`Seen`) is taken at one of three moments: ``BEFORE`` the page is drawn (a full
run: the mode is decided here, before anything shows it), ``AFTER`` the page ran (a full or a page-only
run: what the page changed is published), and ``BEAT``, the heartbeat: a timed fragment that reads the
room's version and reruns the app only when there is something to draw.
"""

from __future__ import annotations

from dataclasses import replace

from .records import (
    ATTEND_SECONDS,
    REPAIR_SECONDS,
    UNSHOWN_SECONDS,
    WALK_PAGE,
    Action,
    Attend,
    BackToExploration,
    ConsoleOpened,
    Event,
    Gone,
    Goto,
    Joined,
    Kept,
    Leave,
    Lecturer,
    Moment,
    Publish,
    Published,
    Rejoin,
    Rerun,
    Restore,
    Runs,
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

__all__ = ["cut_short", "transition"]


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
        if event.console:  # a console comes in following: it takes the room's deck on its first run
            return Lecturer(event.room, event.secret, console=True, following=True), ()
        return Lecturer(event.room, event.secret, seen=1, last=event.mine), ()  # the projection made the room
    goto = None if event.away or event.page == WALK_PAGE else WALK_PAGE
    return Student(event.room, event.student, following=not event.away, heard=event.now, goto=goto), ()


def started(runs: Runs, seen: Seen, version: int) -> Runs:
    """A full run starts (the BEFORE moment): what it will have drawn, if it ends, is ``version``."""
    return replace(runs, started=seen.now, starting_version=version)


def ended(runs: Runs) -> Runs:
    """The page has run: a full run that started has drawn its version."""
    return runs if runs.started is None else Runs(None, runs.starting_version, runs.starting_version)


def cut_short(runs: Runs, now: float) -> bool:
    """A full run began more than REPAIR_SECONDS ago and never ended: it was cut short, the page half drawn."""
    return runs.started is not None and now - runs.started > REPAIR_SECONDS


# ----- a lecturer's window --------------------------------------------------------------------------

def _lecturer(w: Lecturer, event: Event) -> tuple[Window | None, tuple[Action, ...]]:
    match event:
        case Seen():
            return _lecturer_saw(w, event)
        case Published(version=None) | Published(reachable=False):  # refused: the next run merges; or unreachable
            return w, ()
        case Published():
            return replace(w, seen=event.version, last=event.deck, announced=event.shown), ()
        case Took():
            return replace(w, last=event.mine), ()
        case ConsoleOpened():
            return replace(w, following=True), ()
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
    runs = _runs(w.runs, seen, w.seen)
    if not room.reachable:  # nothing is concluded: the next run tries again
        return replace(w, runs=runs), ()
    shown = not w.console and moment is Moment.AFTER  # the projection has drawn it: the class may take it
    if room.version != w.seen and room.deck is None:  # a deck this app cannot read: skipped (logged)
        return replace(w, seen=room.version, runs=_runs(w.runs, seen, room.version)), ()
    if room.version != w.seen:  # another window moved: its deck, with what only this one changed kept
        target = seen.mine.merged(w.last, room.deck)
        acts: list[Action] = []
        if target != seen.mine:
            acts.append(Take(target, whole=target == room.deck))
        if target != room.deck:
            acts.append(Publish(target, expected=room.version, shown=shown))
        if target != seen.mine and moment is not Moment.BEFORE:
            acts.append(Rerun())  # the page on screen shows the old deck
        return replace(w, seen=room.version, last=room.deck, announced=False, clock_start=target.clock_start,
                       budget_min=target.budget_min, poll=target.poll, notes_shared=target.notes_shared,
                       spotlight=target.spotlight, runs=_runs(w.runs, seen, room.version)), tuple(acts)
    if (seen.mine is not None and seen.mine != w.last) or (shown and not w.announced):
        return replace(w, runs=runs), (Publish(seen.mine, expected=w.seen, shown=shown),)
    if moment is Moment.BEAT and cut_short(w.runs, seen.now):
        return w, (Rerun(),)
    return replace(w, runs=runs), ()


def _runs(runs: Runs, seen: Seen, version: int) -> Runs:
    """The window's full runs after this moment: BEFORE starts one (to draw ``version``), AFTER ends it."""
    if seen.moment is Moment.BEFORE:
        return started(runs, seen, version)
    return ended(runs) if seen.moment is Moment.AFTER else runs


# ----- a student's window ---------------------------------------------------------------------------

def _student(s: Student, event: Event) -> tuple[Window | None, tuple[Action, ...]]:
    match event:
        case Seen():
            return _student_saw(s, event)
        case Took():
            return replace(s, last=event.mine), ()
        case Rejoin():  # the exploration is kept one click away; the lecture is taken at once
            return replace(s, own=Kept(event.page, event.mine), following=True, seen=0, last=None, eager=True,
                           goto=WALK_PAGE), ()
        case BackToExploration() if s.own is not None:
            return replace(s, own=None, following=False, goto=s.own.page), (Restore(s.own.deck),)
    return s, ()


def _student_saw(s: Student, seen: Seen) -> tuple[Window | None, tuple[Action, ...]]:
    """Decide follow or explore before anything is drawn; take the lecture's deck once the projection drew it."""
    room, moment = seen.room, seen.moment
    if room.reachable and room.version is None:
        return None, (Leave(), Rerun()) if moment is Moment.BEAT else (Leave(),)
    if moment is Moment.BEFORE and s.goto is not None:
        if s.goto != seen.page:
            return replace(s, goto=None), (Goto(s.goto),)
        s = replace(s, goto=None)
    acts: list[Action] = []
    if seen.now - s.heard >= ATTEND_SECONDS:
        s, acts = replace(s, heard=seen.now), [Attend()]
    own = seen.mine is not None and s.last is not None and seen.mine != s.last
    if s.following and (seen.page != WALK_PAGE or own):
        s = replace(s, following=False)  # another page, or their own change: from now on they explore
        if moment is Moment.AFTER:
            acts.append(Rerun())  # the line above the page says so
    if room.reachable and room.version != s.seen:
        s, acts = _student_moved(s, seen, acts)
    elif moment is Moment.BEAT and (_undrawn(s) or cut_short(s.runs, seen.now)):
        acts.append(Rerun())
    return replace(s, runs=_runs(s.runs, seen, s.seen)), tuple(acts)


def _student_moved(s: Student, seen: Seen, acts: list[Action]) -> tuple[Student, list[Action]]:
    """The room's deck changed: a following student takes it (before drawing); one exploring takes its question."""
    deck, version, moment = seen.room.deck, seen.room.version, seen.moment
    if deck is None:
        return replace(s, seen=version), acts
    if not s.following:  # their line says where the lecture is, and its question is folded under it
        asked = deck.asked()
        if (asked != s.poll or deck.position != s.lecture_at) and moment is not Moment.BEFORE:
            acts.append(Rerun())
        return replace(s, seen=version, poll=asked, lecture_at=deck.position), acts
    if deck == s.last:  # the same deck again (the projection announcing what the student already took)
        return replace(s, seen=version, waiting=None), acts
    waiting = s.waiting if s.waiting is not None and s.waiting[0] == version else (version, seen.now)
    if not (s.eager or deck.shown or seen.now - waiting[1] >= UNSHOWN_SECONDS):
        return replace(s, waiting=waiting), acts  # the projection is still drawing it
    if moment is not Moment.BEFORE:
        return replace(s, waiting=waiting), [*acts, Rerun()]  # the next full run takes it, before drawing
    return replace(s, seen=version, last=deck, eager=False, waiting=None, poll=deck.asked(),
                   lecture_at=deck.position), [*acts, Take(deck)]


def _undrawn(s: Student) -> bool:
    """A following student holds a deck no full run has drawn to its end (the run that should have was cut)."""
    drawn = s.runs.starting_version if s.runs.started is not None else s.runs.drawn
    return s.following and s.seen != drawn
