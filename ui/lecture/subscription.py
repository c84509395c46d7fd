"""One subscriber of a room's event feed (ui/lecture/feed.py): its slot, and a state as event bytes. No Streamlit.

A subscriber follows one room either raw (the deck's JSON, as the store holds it) or in one language (``lang``: the
step as a following student's light page shows it, ui/follow/render.py); the feed hands each the bytes of its kind.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .rooms import RoomError, Rooms, RoomsUnavailable

__all__ = ["KEEPALIVE", "Subscription", "attend_all", "encode"]

_log = logging.getLogger("attention_app")

KEEPALIVE = b": keep-alive\n\n"


def encode(version: int, document: str) -> bytes:
    """One state as an event: ``id`` is the version (a reconnecting browser sends it back as Last-Event-ID); each
    line of the document its own ``data`` field, as the format asks (a deck's JSON has one line)."""
    data = "".join(f"data: {line}\n" for line in document.split("\n"))
    return f"id: {version}\n{data}\n".encode()


class Subscription:
    """One subscriber's slot: the newest state it has not taken yet."""

    __slots__ = ("_event", "_feed", "_pending", "closed", "lang", "room", "student", "version")

    def __init__(self, feed: Any, room: str, lang: str | None = None, student: str | None = None) -> None:
        self._feed, self.room = feed, room
        self.lang = lang  # None: the raw deck; else the language its views are worded in
        self.student = student  # the room's student this stream is (said present while it is open), if any
        self.version = 0  # the newest version put in the slot
        self._pending: bytes | None = None
        self._event = asyncio.Event()
        self.closed = False

    def offer(self, version: int, data: bytes) -> None:
        if version > self.version:
            self.version, self._pending = version, data  # an untaken older state is dropped: only the newest counts
            self._event.set()

    def keepalive(self) -> None:
        if self._pending is None:
            self._pending = KEEPALIVE
            self._event.set()

    async def next(self) -> bytes | None:
        """The next bytes to send (a state or a keep-alive); None once the subscription is closed."""
        while not self.closed:
            if self._pending is not None:
                data, self._pending = self._pending, None
                return data
            self._event.clear()
            await self._event.wait()
        return None

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._event.set()
            self._feed._drop(self)


def attend_all(rooms: Rooms, present: list[tuple[str, str]]) -> None:
    """Tell the store each connected student (room, student) is there. A full class keeps a newcomer out (its cap);
    a room that is gone ends its streams at the feed's next look; a store out of reach waits for the next round."""
    for room, student in dict.fromkeys(present):  # a student's two tabs: said once
        try:
            rooms.attend(room, student)
        except RoomsUnavailable as exc:
            _log.warning("the connected students could not be said present (%s): the next round tries again", exc)
            return
        except RoomError:
            continue
