"""The records of a lecture window's state machine (ui/lecture/protocol.py): windows, events, actions.

All frozen and plain: a window is replaced whole, never changed in place. No Streamlit here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .deck import DEFAULT_BUDGET_MIN, Deck, Poll
from .explorations import Spotlight

__all__ = ["ATTEND_SECONDS", "WALK_PAGE", "Action", "Attend", "Event", "Gone", "Joined", "Leave", "Lecturer", "Moment",
           "Publish", "Published", "Rerun", "Room", "Seen", "SetBudget", "SetPoll", "SetSpotlight", "ShareNotes",
           "StartClock", "Student", "Take", "Took", "Window"]

WALK_PAGE = "walkthrough"
ATTEND_SECONDS = 5.0  # a student's run says it is still there at most this often (the room forgets it after 15 s)


class Moment(Enum):
    BEFORE = "before"  # a full run, before the page is drawn
    AFTER = "after"  # the page has run (a full run, or the page's own run)


# ----- windows ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lecturer:
    room: str
    secret: str
    console: bool = False  # the presenter console; False: the projection that opened the room
    seen: int = 0  # the room's version this window last published or took
    last: Deck | None = None  # the room's deck at ``seen``, as this window last knew it
    announced: bool = False  # the projection told the class that the deck at ``seen`` is on its screen
    clock_start: float | None = None  # the talk's clock, length and question: this window's parts of the deck
    budget_min: int = DEFAULT_BUDGET_MIN
    poll: Poll | None = None
    notes_shared: bool = False
    spotlight: Spotlight | None = None  # new: a student's exploration on the projector


@dataclass(frozen=True)
class Student:
    """A student exploring on their own in the app (following is the light page's, ui/follow): the room counts them
    and takes what they send the lecturer; nothing of the room is drawn on their screen."""

    room: str
    student: str  # an anonymous id in the room's attendance
    heard: float = 0.0  # when the room last heard this student is there


Window = Lecturer | Student


# ----- what a run sees, and what a person asks for ----------------------------------------------------

@dataclass(frozen=True)
class Room:
    """The room as a run saw it: ``version`` None means it is gone; ``deck`` is read only when the version
    differs from the window's; ``reachable`` False: the store did not answer (nothing is concluded)."""

    version: int | None
    deck: Deck | None = None
    reachable: bool = True


@dataclass(frozen=True)
class Seen:
    moment: Moment
    page: str  # the page on screen
    mine: Deck | None  # this window's deck as it stands now (its own change included); None: an explorer's
    room: Room
    now: float


@dataclass(frozen=True)
class Published:
    """The store's answer to a Publish: the new version, or None (refused: another window published first)."""

    deck: Deck
    version: int | None
    shown: bool = False
    reachable: bool = True


@dataclass(frozen=True)
class Took:
    """A Take was applied to the session: ``mine`` is the window's deck now."""

    mine: Deck


@dataclass(frozen=True)
class Joined:
    """Entry: the store admitted this window. A lecturer has ``secret``; a student has none."""

    room: str
    secret: str = ""
    student: str = ""
    console: bool = False
    now: float = 0.0
    mine: Deck | None = None


@dataclass(frozen=True)
class Gone:
    """The store refused a write because the room no longer exists (a restart, or hours idle)."""


@dataclass(frozen=True)
class SetPoll:
    poll: Poll | None  # asked, revealed (the same poll, revealed) or closed (None)


@dataclass(frozen=True)
class SetSpotlight:
    spotlight: Spotlight | None  # a student's exploration projected, or None: back to the lecture


@dataclass(frozen=True)
class ShareNotes:
    shared: bool  # the console's "Share notes with the class"


@dataclass(frozen=True)
class StartClock:
    now: float


@dataclass(frozen=True)
class SetBudget:
    minutes: int


Event = Seen | Published | Took | Joined | SetPoll | StartClock | SetBudget | ShareNotes \
    | SetSpotlight | Gone


# ----- what the caller does ------------------------------------------------------------------------

@dataclass(frozen=True)
class Publish:
    deck: Deck
    expected: int  # compare and set: only over this version
    shown: bool = False  # the projection has drawn it: the class takes it now


@dataclass(frozen=True)
class Take:
    deck: Deck  # put this deck on this window's screen
    whole: bool = True  # the room's deck as it is (False: merged with this window's own change)


@dataclass(frozen=True)
class Attend:
    pass


@dataclass(frozen=True)
class Rerun:
    pass


@dataclass(frozen=True)
class Leave:
    pass  # the room is gone: this window goes on alone


Action = Publish | Take | Attend | Rerun | Leave


