"""The rooms in this process's memory: one server's lecture rooms, for a lecture on one replica.

The contract (and its caps, read here through the module so that a test may lower one) is ui/lecture/rooms.py;
tests/test_rooms.py runs one suite on this store and on Redis (ui/lecture/redis_rooms.py).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from . import rooms as contract
from .rooms import (
    RoomError,
    Rooms,
    RoomsFull,
    SendRefused,
    check_answer,
    check_document,
    check_entry,
    check_sent,
    digest,
    is_room_id,
    is_secret,
    is_student_id,
    with_driver,
)

__all__ = ["MemoryRooms"]


@dataclass
class _Room:
    drivers: list[bytes]  # the hashes of the drivers' secrets (the creator's first); secrets are never kept
    document: str
    version: int
    touched: float
    token: bytes | None = None  # the live token's hash
    token_until: float = 0.0
    present: dict[str, float] = field(default_factory=dict)  # a student's anonymous id -> when last there
    poll: int = 0  # the latest poll's number
    taking: bool = False  # it takes answers
    answers: dict[str, str] = field(default_factory=dict)  # the latest poll's: student id -> answer
    taken: int = 0  # explorations the room took in all (the last one's number)
    senders: dict[str, int] = field(default_factory=dict)  # a student who sent -> their number (1, 2...)
    sends: dict[str, list[float]] = field(default_factory=dict)  # a sender -> when they sent in the last minute
    sent: list[tuple[int, int, str]] = field(default_factory=list)  # (number, student's number, document), newest first
    record: list[str] = field(default_factory=list)  # the lesson record, in the order kept


class MemoryRooms(Rooms):
    """Rooms in this process's memory, safe across the threads of Streamlit's sessions."""

    def __init__(self, *, max_rooms: int = contract.MAX_ROOMS, clock: Callable[[], float] = time.monotonic) -> None:
        self._rooms: OrderedDict[str, _Room] = OrderedDict()
        self._tokens: dict[bytes, str] = {}  # a live token's hash -> its room
        self._lock = threading.Lock()
        self._max_rooms = max_rooms
        self._clock = clock

    def create(self, document: str) -> tuple[str, str]:
        check_document(document)
        room, secret = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
        with self._lock:
            self._expire()
            if len(self._rooms) >= self._max_rooms:  # an open lecture is never pushed out by new rooms
                raise RoomsFull(f"this server has its {self._max_rooms} open rooms")
            self._rooms[room] = _Room([digest(secret)], document, 1, self._clock())
        return room, secret

    def issue_token(self, room: str, secret: str, current: str | None = None) -> str:
        with self._lock:
            found = self._driven(room, secret)
            live = found.token is not None and self._clock() <= found.token_until
            if live and isinstance(current, str) and hmac.compare_digest(found.token, digest(current)):
                return current
            if found.token is not None:
                self._tokens.pop(found.token, None)
            token = secrets.token_urlsafe(18)
            found.token, found.token_until = digest(token), self._clock() + contract.TOKEN_SECONDS
            self._tokens[found.token] = room
        return token

    def redeem(self, token: str) -> tuple[str, str] | None:
        if not isinstance(token, str) or len(token) > 64:
            return None
        key = digest(token)
        with self._lock:
            room = self._tokens.pop(key, None)
            found = self._rooms.get(room) if room is not None else None
            if found is None or found.token != key:
                return None
            found.token = None
            if self._clock() > found.token_until:
                return None
            secret = secrets.token_urlsafe(24)
            found.drivers = with_driver(found.drivers, digest(secret))
            self._touch(room)
            return room, secret

    def is_driver(self, room: str, secret: str) -> bool:
        if not is_room_id(room) or not is_secret(secret):
            return False
        with self._lock:
            try:
                self._driven(room, secret)
            except RoomError:
                return False
            return True

    def publish(self, room: str, secret: str, document: str, expected: int | None = None) -> int | None:
        check_document(document)
        with self._lock:
            found = self._driven(room, secret)
            if expected is not None and found.version != expected:
                return None
            found.document, found.version = document, found.version + 1
            version = found.version
        self._moved(room, version, document)  # outside the lock: a listener never holds up the store
        return version

    def version(self, room: str) -> int | None:
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            return None if found is None else found.version

    def read(self, room: str) -> tuple[int, str] | None:
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            if found is None:
                return None
            self._touch(room)
            return found.version, found.document

    def attend(self, room: str, student: str) -> bool:
        if not is_student_id(student):
            raise RoomError("a student's id is a short random string")
        now = self._clock()
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            if found is None:
                raise RoomError("no such room")
            if student not in found.present and len(found.present) >= contract.MAX_STUDENTS:
                found.present = {s: t for s, t in found.present.items() if t >= now - contract.PRESENCE_SECONDS}
                if len(found.present) >= contract.MAX_STUDENTS:
                    return False
            found.present[student] = now
            self._touch(room)
            return True

    def open_poll(self, room: str, secret: str) -> int:
        with self._lock:
            found = self._driven(room, secret)
            if found.poll >= contract.MAX_POLLS:
                raise RoomError(f"a room opens at most {contract.MAX_POLLS} polls")
            found.poll, found.taking, found.answers = found.poll + 1, True, {}
            return found.poll

    def stop_poll(self, room: str, secret: str, clear: bool = False) -> None:
        with self._lock:
            found = self._driven(room, secret)
            found.taking = False
            if clear:
                found.answers = {}

    def answer(self, room: str, student: str, poll: int, text: str) -> bool:
        check_answer(student, poll, text)
        since = self._clock() - contract.PRESENCE_SECONDS
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            if found is None:
                raise RoomError("no such room")
            if not found.taking or found.poll != poll or found.present.get(student, -1.0) < since:
                return False
            found.answers[student] = text
            return True

    def answers(self, room: str, poll: int) -> dict[str, str]:
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            return {} if found is None or found.poll != poll else dict(found.answers)

    def attendance(self, room: str) -> int:
        since = self._clock() - contract.PRESENCE_SECONDS
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            return 0 if found is None else sum(1 for t in found.present.values() if t >= since)

    def send(self, room: str, student: str, document: str) -> tuple[int, int]:
        check_sent(student, document)
        now = self._clock()
        with self._lock:
            found = self._rooms.get(room) if is_room_id(room) else None
            if found is None:
                raise RoomError("no such room")
            recent = _admitted(found, student, now)
            found.taken += 1
            number = found.senders.setdefault(student, len(found.senders) + 1)
            found.sends[student] = [*recent, now]
            found.sent.insert(0, (found.taken, number, document))
            del found.sent[contract.MAX_SENT:]
            self._touch(room)
            return found.taken, number

    def sent(self, room: str, secret: str, limit: int | None = None) -> list[tuple[int, int, str]]:
        with self._lock:
            return self._driven(room, secret).sent[:_newest(limit)]

    def keep(self, room: str, secret: str, entry: str) -> bool:
        check_entry(entry)
        with self._lock:
            found = self._driven(room, secret)
            if len(found.record) >= contract.MAX_RECORD:
                return False
            found.record.append(entry)
            return True

    def kept(self, room: str, secret: str) -> list[str]:
        with self._lock:
            return list(self._driven(room, secret).record)

    def __len__(self) -> int:
        with self._lock:
            return len(self._rooms)

    # ----- under the lock ------------------------------------------------------------------------
    def _driven(self, room: str, secret: str) -> _Room:
        found = self._rooms.get(room) if is_room_id(room) else None
        if found is None:
            raise RoomError("no such room")
        offered = digest(str(secret))
        if not any([hmac.compare_digest(known, offered) for known in found.drivers]):  # no early exit
            raise RoomError("only the lecturer's windows can drive this room")
        self._touch(room)
        return found

    def _touch(self, room: str) -> None:
        self._rooms[room].touched = self._clock()
        self._rooms.move_to_end(room)

    def _expire(self) -> None:
        limit = self._clock() - contract.ROOM_SECONDS
        while self._rooms and next(iter(self._rooms.values())).touched < limit:
            self._drop(next(iter(self._rooms)))

    def _drop(self, room: str) -> None:
        found = self._rooms.pop(room)
        if found.token is not None:
            self._tokens.pop(found.token, None)


def _admitted(found: _Room, student: str, now: float) -> list[float]:
    """When ``student`` sent in the last minute, if the room takes their exploration now; else SendRefused."""
    if found.present.get(student, -1.0) < now - contract.PRESENCE_SECONDS:
        raise SendRefused("absent")
    if found.taken >= contract.MAX_SENDS:
        raise SendRefused("full")
    recent = [t for t in found.sends.get(student, []) if t > now - 60.0]
    if len(recent) >= contract.SENDS_PER_MINUTE:
        raise SendRefused("busy")
    return recent


def _newest(limit: int | None) -> int:
    """How many of the newest explorations to read: ``limit``, within 1..MAX_SENT."""
    return contract.MAX_SENT if limit is None else max(1, min(int(limit), contract.MAX_SENT))
