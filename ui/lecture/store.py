"""The room as a window's run sees it: the process's rooms (the store), and one look at a room.

A look is what every moment of a window's run does first (ui/lecture/window.py). It asks the store for the room's
version, and for its deck only when the version is new to the window. The decks are shared: every window of a
room on one replica reads the same new deck, so the process keeps each room's newest deck it read (:class:`Latest`)
and reads it from the store once, and checks it once (:func:`_parse`).
"""

from __future__ import annotations

import functools
import logging
import threading

from ..settings import rooms_url
from .deck import Deck, DeckError
from .memory_rooms import MemoryRooms
from .records import Room, Student, Window
from .rooms import Rooms, RoomsUnavailable

__all__ = ["Latest", "look", "rooms"]

_log = logging.getLogger("attention_app")


_made = threading.Lock()


@functools.cache
def rooms() -> Rooms:
    """The process's rooms (one object for every session of this server): in Redis when
    ``ATTENTION_ROOMS`` names one (every replica then sees every room); ``memory``: in this process only; else
    (unset, or ``sqlite:///path``) in this process and a file beside the app, which a restart reads again.

    Kept by the process, not by Streamlit's resource cache: the app's routes (the event stream, the activity, the
    light page) ask for it from the server's worker threads, where that cache logged "missing ScriptRunContext". The
    lock makes the first two callers share one store: two in-process stores would split the rooms."""
    with _made:
        return _made_once()


@functools.cache
def _made_once() -> Rooms:
    url = rooms_url()
    if url == "memory":
        return MemoryRooms()
    if url is None or url.startswith("sqlite:"):
        from .sqlite_rooms import SqliteRooms, rooms_file

        return SqliteRooms(rooms_file(url))
    from .redis_rooms import RedisRooms  # the redis client is imported only where it is used

    return RedisRooms(url)


class Latest:
    """Each room's newest deck read by this process, with its version (a version is never reused for another
    deck: the store counts up), so that a class's windows on one replica read a new deck from the store once."""

    def __init__(self, size: int = 256):
        self._lock, self._decks, self._size = threading.Lock(), {}, size

    def get(self, room: str, version: int) -> Deck | None:
        with self._lock:
            found = self._decks.get(room)
        return found[1] if found is not None and found[0] == version else None

    def put(self, room: str, version: int, deck: Deck) -> None:
        with self._lock:
            if room not in self._decks and len(self._decks) >= self._size:
                self._decks.pop(next(iter(self._decks)))  # the oldest room read
            if room not in self._decks or self._decks[room][0] < version:
                self._decks[room] = (version, deck)


@functools.cache
def _latest() -> Latest:
    return Latest()  # one per process (two made by a race would only be two caches of what the store holds)


@functools.lru_cache(maxsize=16)
def _parse(document: str) -> Deck:
    """A room's document as a deck, checked once per document (every window of a room reads the same one)."""
    return Deck.from_json(document)


def look(window: Window) -> Room:
    """The room as this window sees it now: its version, and (a lecturer's) its deck when the version is new to
    the window. A student exploring needs only to know the room is still there."""
    try:
        version = rooms().version(window.room)
        if version is None or isinstance(window, Student) or version == window.seen:
            return Room(version)
        deck = _latest().get(window.room, version)  # the windows of a replica read each new deck once
        if deck is not None:
            return Room(version, deck)
        found = rooms().read(window.room)
    except RoomsUnavailable:
        return Room(None, reachable=False)
    if found is None:
        return Room(None)
    version, document = found
    try:
        deck = _parse(document)
    except DeckError as exc:  # written by this app's lecturer windows only, yet checked like a link
        _log.warning("a room's deck was refused: %s", exc)
        return Room(version)
    _latest().put(window.room, version, deck)
    return Room(version, deck)
