"""The walkthrough in the session: its position, a lecturer's own walkthrough file, the step last arrived at.

The window's place in a lecture's room is its own record (ui/lecture/window.py). Only this module touches
these keys (ui/state.py lists them).

Every read or write of ``st.session_state`` is a point where Streamlit may stop the run, to start the one the
browser asked for meanwhile (a lecturer's next PageDown). Two writes in a row can be cut between them: a press
taken but the step not moved, or a deck published but the window's record not told. Values that must change
together are therefore fields of one holder (:class:`Walk`, :class:`Slot`): it is fetched before the change,
and setting its fields is plain Python, which nothing stops half-way.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from ..page import state as page_state
from ..state import Key
from ..steps import clicker
from .picture import picture_of
from .rooms import MAX_DOCUMENT

__all__ = ["Slot", "Walk", "arrive_at_walk_step", "arrived_at", "custom_walkthrough", "details_shown", "draw_activity",
           "drawn_activity", "drawn_picture", "first_run_of_walkthrough", "join_shown", "keep_picture", "lecture_lock",
           "new_activity", "picture_for", "replace_walk_controls", "reset_walk_controls", "set_custom_walkthrough",
           "set_drawn_picture", "set_place", "set_walk_position", "take_press", "toggle_details", "toggle_join",
           "walk_controls", "walk_drift", "walk_position", "window_slot", "window_token"]


@dataclass
class Walk:
    """Where this session's walkthrough is, the step whose controls were last applied, and the clicker's presses
    taken so far (their seq and net): a press taken is a step moved, and a deck taken sets both steps."""

    position: int = 0
    press: tuple[int, int] = (0, 0)
    arrived: int | None = None
    activity: dict[str, int] = field(default_factory=dict)  # what of the room's activity its last full run drew
    picture: Any = None  # the projection's: the step its last full run drew (ui/lecture/picture.py), None: none


@dataclass
class Slot:
    """This window's record in a lecture's room (ui/lecture/records.py), in a holder fetched before a moment's
    effects, so that publishing a deck and noting it in the record are not cut apart. ``pending``: a take begun
    and not finished (the record it leads to, and the decks to put on screen), done again by the next moment."""

    record: Any = None
    pending: Any = None


def lecture_lock() -> threading.RLock:
    """This session's lock on its lecture state (a run stopped while it holds it lets it go as it unwinds)."""
    return st.session_state.setdefault(Key.LECTURE_LOCK, threading.RLock())


def _walk() -> Walk:
    return st.session_state.setdefault(Key.WALK_POSITION, Walk())


def walk_position() -> int:
    return _walk().position


def set_walk_position(index: int) -> None:
    _walk().position = index


def drawn_activity() -> dict[str, int]:
    """What of the room's activity (ui/shell/activity.py) this window's last full run drew: its listener reruns the
    app when the room's differs (ui/lecture/listen.js)."""
    return _walk().activity


def draw_activity(name: str, value: int) -> None:
    _walk().activity[name] = value


def new_activity() -> None:
    """A full run begins: it draws the activity anew (what it does not draw, its listener does not watch)."""
    _walk().activity = {}


def drawn_picture() -> Any:
    """The step the projection's last full run drew, as a Picture (None: it drew none, a cover or an exploration
    instead); its shown publish carries it to the class's light pages (ui/lecture/window.py)."""
    return _walk().picture


def set_drawn_picture(picture: Any) -> None:
    _walk().picture = picture


def keep_picture(index: int, total: int) -> Callable[..., None]:
    """The projection's stepper hands the step it drew to this: kept as the Picture its shown publish carries."""
    def keep(page: str, slide: Any, labels: Any, keys: Any) -> None:
        set_drawn_picture(picture_of(page, slide.text.name, index, total, slide.trace, slide.step, labels, keys))
    return keep


def picture_for(deck: Any, drawn: Any, shown: bool, last: Any = None) -> Any:
    """The picture a publish of ``deck`` carries to the class's light pages. A ``shown`` publish of the very deck this
    run drew (``drawn``) carries what it drew. Any other publish (the console's poll or clock, a deck merged with
    another window's move) carries on the picture of the room's deck as last seen (``last``) if that picture is
    still true of ``deck``: same step, matrix, controls, walkthrough and projected exploration. Without it, a
    console's Ask would leave the class's pages without the step's numbers until the projection's next full run,
    and nothing may start one. A deck too large for a room with its picture goes without it (line only)."""
    picture = drawn_picture() if shown and drawn is not None and deck == drawn else None
    if picture is None or picture.index != deck.position:
        picture = last.picture if last is not None and _draws_the_same(last, deck) else None
    if picture is None or picture.index != deck.position:
        return None
    return picture if len(deck.to_json()) + picture.size() + 20 <= MAX_DOCUMENT else None


def _draws_the_same(last: Any, deck: Any) -> bool:
    """The projection draws ``deck`` as it drew ``last``: what a step's picture depends on is unchanged."""
    return (last.position, last.shared, last.walkthrough, last.spotlit()) == \
        (deck.position, deck.shared, deck.walkthrough, deck.spotlit())


def take_press() -> bool:
    """The clicker's presses (ui/steps/clicker.py) that no run has taken yet move the walkthrough from the step it is
    at, within its length. True if it moved; taken before anything is drawn."""
    press, walk, lock = clicker.pressed(), _walk(), lecture_lock()
    with lock:  # another run of this session, overlapping, takes the same press after this one: it moves nothing
        taken, target = clicker.advance(press, walk.press, walk.position)
        moved = target != walk.position
        walk.press, walk.position = taken, target  # one plain assignment: nothing stops the run between the two
    return moved


def window_token() -> str:
    """This window's token, known to its browser: the room's events that this window published carry it
    (``Deck.by``), so its listener knows them."""
    return st.session_state.setdefault(Key.WINDOW_TOKEN, secrets.token_urlsafe(9))


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
    walk = _walk()
    if walk.arrived == index:
        return
    walk.arrived = index
    reset_walk_controls(page_id, values)


def reset_walk_controls(page_id: str, values: dict[str, Any]) -> None:
    """The page's walkthrough values back to the step's: ``values``, and the page's defaults for the rest."""
    page_state.put_walk_values({**walk_controls(), page_id: dict(values)})


def walk_drift(page_id: str, values: dict[str, Any], defaults: dict[str, Any],
               refused: set[str] = frozenset()) -> dict[str, tuple[Any, Any]]:
    """The page's live walkthrough values that differ from the step's: name -> (live, the step's), for the controls
    the page drew (``defaults``: name -> default, what the page drew) and took (not ``refused``); a control the
    step does not set is at its default."""
    live = walk_controls().get(page_id, {})
    expected = {name: values.get(name, default) for name, default in defaults.items() if name not in refused}
    return {name: (live.get(name, defaults[name]), want) for name, want in sorted(expected.items())
            if live.get(name, defaults[name]) != want}


# ----- the walkthrough's own control values (read by ui/page/state.py page_controls while it drives) --

def walk_controls() -> dict[str, dict[str, Any]]:
    return st.session_state.setdefault(Key.WALK_CONTROLS, {})


def replace_walk_controls(new: dict[str, dict[str, Any]]) -> None:
    page_state.put_walk_values(new)


def arrived_at() -> int | None:
    return _walk().arrived


def set_place(position: int, arrived: int | None) -> None:
    """The step on screen and the step whose controls were applied, set together (a deck taken)."""
    walk = _walk()
    walk.position, walk.arrived = position, arrived


# ----- the projection's folds: its details (explanation, controls) are one key away ----------------

def join_shown() -> bool:
    return bool(st.session_state.get(Key.PROJECTION_JOIN, False))


def toggle_join() -> None:
    st.session_state[Key.PROJECTION_JOIN] = not join_shown()


def details_shown() -> bool:
    return bool(st.session_state.get(Key.PROJECTION_DETAILS, False))


def toggle_details() -> None:
    st.session_state[Key.PROJECTION_DETAILS] = not details_shown()


# ----- this window in a lecture's room: one frozen record in a holder, replaced whole (ui/lecture/window.py) --

def window_slot() -> Slot | None:
    """The holder of the window's record, or None outside a room."""
    slot = st.session_state.get(Key.ROOM)
    return slot if slot is not None and slot.record is not None else None


def window_record() -> Any:
    """The window's record (ui/lecture/records.py Lecturer or Student), or None outside a room."""
    slot = window_slot()
    return None if slot is None else slot.record


def set_window_record(record: Any) -> None:
    """The record replaced whole: in the window's holder if it has one (a moment may hold it already)."""
    slot = st.session_state.get(Key.ROOM)
    if record is None:
        st.session_state.pop(Key.ROOM, None)
    elif slot is None:
        st.session_state[Key.ROOM] = Slot(record)
    else:
        slot.record = record


def console_token() -> str | None:
    """The projection's one-time token for a console, while it lives (ui/lecture/console.py)."""
    return st.session_state.get(Key.CONSOLE_TOKEN)


def set_console_token(token: str | None) -> None:
    st.session_state[Key.CONSOLE_TOKEN] = token
