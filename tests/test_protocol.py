"""The lecture window's state machine (ui/lecture/protocol.py), one row per transition: a window, an event,
the window that follows and the actions it takes. Pure: no Streamlit, no store, no clock."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from typing import get_args

import pytest

from ui.lecture.deck import Deck, Poll
from ui.lecture.explorations import Spotlight
from ui.lecture.protocol import transition
from ui.lecture.records import (
    ATTEND_SECONDS,
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
    Room,
    Seen,
    SetBudget,
    SetPoll,
    SetSpotlight,
    ShareNotes,
    StartClock,
    Student,
    Take,
    Took,
)

BEFORE, AFTER = Moment.BEFORE, Moment.AFTER
WALK, OTHER = "walkthrough", "one-query"


def deck(position: int, shared: str = "book", *, shown: bool = False, poll: Poll | None = None) -> Deck:
    """A deck on step ``position``; ``shared`` stands for its matrix and controls (compared, never decoded)."""
    return Deck(position, position, shared, shown=shown, poll=poll)


QUESTION = Poll(1, 5, "one-query", "score")
SPOT = Spotlight(3, 7, 7, "one-query", None, "theirs", "equal tokens, equal weights?")  # student 7's, on step 7
D7, D8, D8_SHOWN = deck(7), deck(8), deck(8, shown=True)
MINE_EDITED = deck(7, "edited")  # the student's (or a lecturer's) own change to the matrix on step 7

STUDENT = Student("room", "s1", heard=100.0)  # a student exploring in the app (the light page follows)
PROJECTION = Lecturer("room", "secret", seen=7, last=D7, announced=True)
CONSOLE = replace(PROJECTION, console=True, announced=False)


def seen(moment: Moment, mine: Deck | None, version: int | None, room_deck: Deck | None = None, *, page: str = WALK,
         now: float = 101.0, reachable: bool = True) -> Seen:
    return Seen(moment, page, mine, Room(version, room_deck, reachable), now)


# (name, window, event, what the window becomes (fields, or None: it leaves its room), the actions)
CASES = [
    # --- a student, exploring in the app ------------------------------------------------------------------
    ("a student joins: counted from now", None, Joined("room", student="s1", now=5.0), dict(heard=5.0), ()),
    ("a student's run: the room is there, and they were said present a moment ago", STUDENT,
     seen(BEFORE, None, 8, page=OTHER, now=100.0 + ATTEND_SECONDS / 2), dict(heard=100.0), ()),
    ("a student's run a while later says they are still there", STUDENT,
     seen(BEFORE, None, 8, page=OTHER, now=100.0 + ATTEND_SECONDS), dict(heard=100.0 + ATTEND_SECONDS), (Attend(),)),
    ("the lecture moves while a student explores: nothing of theirs changes", STUDENT,
     seen(BEFORE, None, 9, D8_SHOWN), dict(heard=100.0), ()),
    ("a student's page-only run asks nothing of the room", STUDENT, seen(AFTER, MINE_EDITED, None, now=200.0),
     dict(heard=100.0), ()),
    ("a question put to the class changes nothing in the app (the light page answers it)", STUDENT,
     seen(BEFORE, None, 9, deck(5, shown=True, poll=QUESTION)), dict(heard=100.0), ()),
    ("the room is gone: the student's run goes on alone", STUDENT, seen(BEFORE, None, None), None, (Leave(),)),
    ("the store refused an attendance: the room is gone", STUDENT, Gone(), None, (Leave(),)),
    ("the store is out of reach: a student stays as they are", STUDENT, seen(BEFORE, None, None, reachable=False),
     dict(heard=100.0), ()),
    # --- a class poll -----------------------------------------------------------------------------------
    ("the lecturer asks", PROJECTION, SetPoll(QUESTION), dict(poll=QUESTION), ()),
    ("the lecturer reveals", replace(PROJECTION, poll=QUESTION), SetPoll(replace(QUESTION, revealed=True)),
     dict(poll=replace(QUESTION, revealed=True)), ()),
    ("the lecturer closes", replace(PROJECTION, poll=QUESTION), SetPoll(None), dict(poll=None), ()),
    # --- a lecturer's windows -----------------------------------------------------------------------------
    ("the projection creates its room", None, Joined("room", secret="secret", mine=D7),
     dict(console=False, seen=1, last=D7), ()),
    ("a console joins", None, Joined("room", secret="secret2", console=True), dict(console=True, seen=0), ()),
    ("a console's first run takes the room's deck", Lecturer("room", "s", console=True),
     seen(BEFORE, deck(0), 4, D7), dict(seen=4, last=D7), (Take(D7),)),
    ("the lecturer's own move is published before the page", PROJECTION, seen(BEFORE, D8, 7),
     dict(seen=7), (Publish(D8, expected=7),)),
    ("the projection's page drew it: the class may take it", PROJECTION, seen(AFTER, D8, 7),
     dict(seen=7), (Publish(D8, expected=7, shown=True),)),
    ("the console's publish is not a drawing", CONSOLE, seen(AFTER, D8, 7), dict(), (Publish(D8, expected=7),)),
    ("the store took it", PROJECTION, Published(D8, 8, shown=True), dict(seen=8, last=D8, announced=True), ()),
    ("a refused publish: the window runs again at once, and that run merges", PROJECTION, Published(D8, None),
     dict(seen=7, last=D7), (Rerun(),)),
    ("a refused publish is merged: the other window's step, this window's matrix", PROJECTION,
     seen(BEFORE, MINE_EDITED, 8, D8),
     dict(seen=8, last=D8), (Take(deck(8, "edited"), whole=False), Publish(deck(8, "edited"), expected=8))),
    ("both windows changed the matrix: the one published first stands, this window's edit is dropped", PROJECTION,
     seen(BEFORE, MINE_EDITED, 8, deck(7, "theirs")), dict(seen=8, last=deck(7, "theirs")),
     (Take(deck(7, "theirs")),)),
    ("both windows asked a question: the one published first stands", PROJECTION,
     seen(BEFORE, replace(D7, poll=QUESTION), 8, replace(D7, poll=replace(QUESTION, number=2))),
     dict(seen=8, last=replace(D7, poll=replace(QUESTION, number=2))),
     (Take(replace(D7, poll=replace(QUESTION, number=2))),)),
    ("the projection heard the console's move: its run takes it before the page", PROJECTION,
     seen(BEFORE, D7, 8, D8), dict(seen=8, last=D8, announced=False), (Take(D8),)),
    ("a move published while a page-only run ran: taken, and the app reruns to draw it", PROJECTION,
     seen(AFTER, D7, 8, D8), dict(seen=8, last=D8, announced=False), (Take(D8), Rerun())),
    ("... and, having drawn it, tells the class", replace(PROJECTION, seen=8, last=D8, announced=False),
     seen(AFTER, D8, 8), dict(), (Publish(D8, expected=8, shown=True),)),
    ("the console published the very deck the projection's run drew: the projection tells the class", PROJECTION,
     seen(AFTER, D8, 8, D8), dict(seen=8, last=D8, announced=False), (Publish(D8, expected=8, shown=True),)),
    ("... but not once the room's deck was told as drawn", PROJECTION, seen(AFTER, D8, 8, D8_SHOWN),
     dict(seen=8, last=D8_SHOWN, announced=False), ()),
    ("a lecturer's take stopped half-way: the room's deck taken again, nothing published",
     PROJECTION, seen(BEFORE, deck(8), 8, deck(8, "new")),
     dict(seen=8, last=deck(8, "new")), (Take(deck(8, "new")),)),
    ("nothing new: nothing to do", PROJECTION, seen(AFTER, D7, 7), dict(seen=7), ()),
    ("the clock starts", PROJECTION, StartClock(300.0), dict(clock_start=300.0), ()),
    ("the talk's length", PROJECTION, SetBudget(90), dict(budget_min=90), ()),
    ("the console shares the notes with the class", CONSOLE, ShareNotes(True), dict(notes_shared=True), ()),
    ("... and the projection takes the shared notes with the console's deck", PROJECTION,
     seen(BEFORE, D7, 8, replace(D7, notes_shared=True)), dict(seen=8, notes_shared=True),
     (Take(replace(D7, notes_shared=True)),)),
    ("the console projects a student's exploration", CONSOLE, SetSpotlight(SPOT), dict(spotlight=SPOT), ()),
    ("... and publishes it with its deck", replace(CONSOLE, spotlight=SPOT),
     seen(AFTER, replace(D7, spotlight=SPOT), 7), dict(spotlight=SPOT),
     (Publish(replace(D7, spotlight=SPOT), expected=7),)),
    ("... the projection takes it, its step and values as they were", PROJECTION,
     seen(BEFORE, D7, 8, replace(D7, spotlight=SPOT)), dict(seen=8, spotlight=SPOT),
     (Take(replace(D7, spotlight=SPOT)),)),
    ("back to the lecture (B): the spotlight goes", replace(PROJECTION, spotlight=SPOT), SetSpotlight(None),
     dict(spotlight=None, last=D7), ()),
    ("a lecturer's session after a take", PROJECTION, Took(deck(8, "x")), dict(last=deck(8, "x")), ()),
    ("a deck this app cannot read is skipped", PROJECTION, seen(BEFORE, D7, 8, None), dict(seen=8, last=D7), ()),
    # --- the store and the runs ------------------------------------------------------------------------------
    ("the store is out of reach: a lecturer publishes nothing, changes nothing", PROJECTION,
     seen(BEFORE, D8, None, reachable=False), dict(seen=7, last=D7), ()),
    ("... its publish did not arrive", PROJECTION, Published(D8, None, reachable=False), dict(seen=7, last=D7), ()),
    ("the room is gone: a lecturer goes on alone", PROJECTION, seen(BEFORE, D7, None), None, (Leave(),)),
    ("the store refused a publish: the room is gone", CONSOLE, Gone(), None, (Leave(),)),
]


@pytest.mark.parametrize("name,window,event,after,actions", CASES, ids=[c[0] for c in CASES])
def test_transition(name, window, event, after, actions):
    new, did = transition(window, event)
    assert did == actions
    if after is None:
        assert new is None
        return
    assert new is not None
    for field_name, value in after.items():
        assert getattr(new, field_name) == value, field_name


def test_every_event_is_met_by_both_kinds_of_window():
    """The table is complete: each event a window of each kind can meet has a row (Joined has no window)."""
    met = {(type(w).__name__, type(e).__name__) for _, w, e, _, _ in CASES if w is not None}
    student_events = {"Seen", "Gone"}
    lecturer_events = {"Seen", "Published", "Took", "SetPoll", "StartClock", "SetBudget", "ShareNotes",
                       "SetSpotlight", "Gone"}
    assert {("Student", e) for e in student_events} <= met
    assert {("Lecturer", e) for e in lecturer_events} <= met
    every = {t.__name__ for t in get_args(Event)}
    assert student_events | lecturer_events | {"Joined"} == every


def test_a_student_has_no_following_state():
    """Following is the light page's: a student's record in the app holds no mode, no deck and no step."""
    assert {f for f in Student.__dataclass_fields__} == {"room", "student", "heard"}
    assert not {"Rejoin", "BackToExploration", "Goto", "Restore", "Kept"} & {t.__name__ for t in get_args(Event)}


def test_a_window_is_replaced_not_changed():
    before = STUDENT
    new, _ = transition(before, seen(BEFORE, None, 7, now=200.0))
    assert new is not before and before.heard == 100.0 and new.heard == 200.0
    with pytest.raises(AttributeError):
        new.heard = 0.0  # frozen


def test_an_event_a_window_does_not_meet_changes_nothing():
    for event in (SetPoll(QUESTION), SetSpotlight(SPOT), Took(D7), Published(D8, 8)):
        assert transition(STUDENT, event) == (STUDENT, ())  # a student's window never drives nor takes a deck
    assert transition(None, seen(BEFORE, D7, 7)) == (None, ())


def test_the_state_machine_imports_no_streamlit():
    code = "import sys, ui.lecture.protocol, ui.lecture.records; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
