"""Rooms: where the windows of one lecture meet: the projection, the presenter console and the class.

A room holds one small document, the lecture's :class:`~ui.lecture.deck.Deck` as JSON, and a
version number that grows with every change. Windows poll the version (cheap) and read the
document when it moved; or a light subscriber is told of each move (:meth:`Rooms.watch`,
:meth:`Rooms.announcements`, ui/lecture/feed.py). Only the holders of a driver's secret may write: the lecturer's own
windows. A secret never travels in an address: a driving window lets a new window become a
driver through a one-time token (:meth:`Rooms.issue_token`, :meth:`Rooms.redeem`), which gives
it a secret of its own. The store keeps only hashes of secrets and tokens.

:class:`Rooms` is the interface; :class:`MemoryRooms` keeps rooms in this process (one server,
one store per process: ui/lecture/store.py); :class:`SqliteRooms` (the default) keeps them there too and writes each
durable change through to a file, so that the server's restart finds its rooms again. A store shared by several replicas
(Redis) implements the same methods.

A room also knows who is in class: each student's window calls :meth:`Rooms.attend` now and then
with an anonymous id of its own (a random string per browser session, nothing else), so the room
can count its class and cap it. A class poll: the deck says which question is asked (ui/lecture/deck.py
``Poll``); the room numbers the polls (:meth:`Rooms.open_poll`), takes answers while one is open, one per
present student id (a new answer replaces the old one), and keeps only the latest poll's answers. They
are deleted with the room, when the next poll opens, or when the lecturer clears them.

A student may send the lecturer what they explored (:meth:`Rooms.send`: a page's settings as JSON, which the
console may put on the projector): only a student present, a few a minute, a capped number per room, numbered in
the order taken, each student numbered too (the lecturer sees "student 3", never an id). The lecturer's windows
read the newest (:meth:`Rooms.sent`) and keep a lesson record, short entries in order (:meth:`Rooms.keep`,
:meth:`Rooms.kept`). Both go with the room.

Everything here is plain Python: no Streamlit. A room's document is what a client sent, so its
readers validate it (``Deck.from_json``); the store itself caps its size and the number of rooms.
"""

from __future__ import annotations

import hashlib
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable

__all__ = ["MAX_ANSWER", "MAX_DOCUMENT", "MAX_DRIVERS", "MAX_POLLS", "MAX_RECORD", "MAX_RECORD_CHARS", "MAX_ROOMS",
           "MAX_SENDS", "MAX_SENT", "MAX_SENT_CHARS", "MAX_STUDENTS", "PRESENCE_SECONDS", "ROOM_SECONDS",
           "SENDS_PER_MINUTE", "TOKEN_SECONDS", "RoomError", "Rooms", "RoomsFull", "RoomsUnavailable", "SendRefused",
           "check_answer", "check_document", "check_entry", "check_sent", "digest", "is_room_id", "is_secret",
           "is_student_id", "with_driver"]

MAX_DOCUMENT = 64_000  # characters of a room's document (a deck is about 1 kB with the book's matrix)
MAX_ROOMS = 1_000  # open rooms per server (per Redis when replicas share one); then a new room is refused
ROOM_SECONDS = 4 * 3600  # a room no window touched for this long is gone
MAX_STUDENTS = 300  # students present in one room at once; one more is told the class is full
PRESENCE_SECONDS = 15  # a student not said to be there for this long has left (their light page's stream closed,
# or no run of their exploring window since)
TOKEN_SECONDS = 3600  # a one-time token not redeemed within this is void
MAX_POLLS = 200  # polls one room may open (a lecture asks a few dozen at most)
MAX_ANSWER = 64  # characters of an answer as a window sends it (a number, a shape, a choice's id)
MAX_DRIVERS = 8  # the creator and the last consoles opened: an older console's secret stops working
SENDS_PER_MINUTE = 3  # explorations one student may send in any 60 seconds (a click to share, not a stream)
MAX_SENDS = 200  # explorations a room takes in all; then every send is refused (a lecture shows a few dozen)
MAX_SENT = 60  # the newest a room keeps for the lecturer's list: older ones are dropped as new ones come
MAX_SENT_CHARS = 12_000  # characters of one sent exploration (its JSON: a page's settings and a small preview)
MAX_RECORD = 500  # entries in a room's lesson record (a step, a poll, a projected exploration: a few per minute)
MAX_RECORD_CHARS = 8_000  # characters of one entry


class RoomError(Exception):
    """A write the room refuses: an unknown room, a wrong secret, a document too large."""


class RoomsFull(RoomError):
    """A new room refused: this server (or this Redis) already holds its cap of open rooms."""


class RoomsUnavailable(RoomError):
    """The store cannot be reached just now (a shared store's network): a window tries again later."""


class SendRefused(RoomError):
    """A student's exploration not taken, and why (``reason``, which the student's window says in their words):
    ``"absent"``, the student is not in the class now; ``"busy"``, they sent SENDS_PER_MINUTE in the last 60
    seconds; ``"full"``, the room took MAX_SENDS already."""

    def __init__(self, reason: str) -> None:
        why = {"absent": "only a student in the class sends to the lecturer",
               "busy": f"at most {SENDS_PER_MINUTE} explorations a minute", "full": "this room takes no more"}
        super().__init__(why.get(reason, reason))
        self.reason = reason


class Rooms(ABC):
    """The rooms of the app: create, hand over the right to drive, publish, follow."""

    remote = False  # True: a call waits on the network (the event feed calls it from a worker thread)
    _listeners: tuple[Callable[[str, int, str], None], ...] = ()

    def watch(self, listener: Callable[[str, int, str], None]) -> None:
        """Call ``listener(room, version, document)`` after each publish this process makes (from the publishing
        thread: a listener only hands the move on, ui/lecture/feed.py). Replicas learn of each other's moves from
        :meth:`announcements`."""
        self._listeners = (*self._listeners, listener)

    def _moved(self, room: str, version: int, document: str) -> None:
        for listener in self._listeners:
            try:
                listener(room, version, document)
            except Exception:  # the publish has happened: a listener's fault must not make it look failed
                logging.getLogger("attention_app").exception("a room's listener failed")

    def announcements(self) -> AsyncIterator[tuple[str, int] | None] | None:
        """Other processes' moves, for a store several replicas share: (room, new version) for each, and None
        whenever some may have been missed (a connection made again). None (the default): this process sees every
        move itself (:meth:`watch`)."""
        return None

    @abstractmethod
    def create(self, document: str) -> tuple[str, str]:
        """A new room holding ``document`` (version 1): its id, and the secret that lets a window drive it."""

    @abstractmethod
    def issue_token(self, room: str, secret: str, current: str | None = None) -> str:
        """A one-time token that makes whoever redeems it first a driver of the room: ``current`` if
        it is still the room's live token, else a new one. One room, one live token."""

    @abstractmethod
    def redeem(self, token: str) -> tuple[str, str] | None:
        """(room, a new secret of the redeemer's own) for a live token, which is then void; None for
        anything else."""

    @abstractmethod
    def is_driver(self, room: str, secret: str) -> bool:
        """Whether ``secret`` drives the room now: a lecturer's window that was reloaded takes its seat back with
        the secret its browser kept (ui/lecture/seat.py). False for anything else, a malformed offer included."""

    @abstractmethod
    def publish(self, room: str, secret: str, document: str, expected: int | None = None) -> int | None:
        """Replace the room's document; the new version. With ``expected``, only if the room is still at
        that version (compare and set): else nothing is written and the answer is None, since another
        window's newer deck must not be overwritten by one that has not seen it. Raises RoomError if the
        secret is wrong."""

    @abstractmethod
    def version(self, room: str) -> int | None:
        """The room's current version, or None if there is no such room (any more)."""

    @abstractmethod
    def read(self, room: str) -> tuple[int, str] | None:
        """(version, document), or None if there is no such room."""

    @abstractmethod
    def attend(self, room: str, student: str) -> bool:
        """A student says they are in the room (now, and every few seconds while they stay). False if
        the class is full and this student was not in it; raises RoomError if there is no such room."""

    @abstractmethod
    def open_poll(self, room: str, secret: str) -> int:
        """Start taking answers to a new poll; its number (1, 2...). The previous poll's answers are gone.
        Raises RoomError for a wrong secret, or once the room has opened MAX_POLLS."""

    @abstractmethod
    def stop_poll(self, room: str, secret: str, clear: bool = False) -> None:
        """Take no more answers (the poll is revealed or closed); ``clear``: delete the answers too."""

    @abstractmethod
    def answer(self, room: str, student: str, poll: int, text: str) -> bool:
        """Keep ``student``'s answer to poll number ``poll``, replacing theirs; False if that poll is not
        taking answers or the student is not in the class. RoomError for an answer that is not short text."""

    @abstractmethod
    def answers(self, room: str, poll: int) -> dict[str, str]:
        """Poll ``poll``'s answers by student id (empty for an older poll, or none)."""

    @abstractmethod
    def attendance(self, room: str) -> int:
        """How many students are in the room now (each said so within PRESENCE_SECONDS)."""

    @abstractmethod
    def send(self, room: str, student: str, document: str) -> tuple[int, int]:
        """Keep ``student``'s exploration for the lecturer; (its number in the room: 1, 2... in the order taken, the
        student's number: 1 for the first who sent anything, 2 for the next, the same for one student always).
        RoomError for no such room or a malformed id or document (:func:`check_sent`); SendRefused for a student
        not present, one who sent SENDS_PER_MINUTE in the last 60 seconds, or a room that took MAX_SENDS. A
        refused send stores nothing, and only sends taken count towards the rate. It touches the room."""

    @abstractmethod
    def sent(self, room: str, secret: str, limit: int | None = None) -> list[tuple[int, int, str]]:
        """The explorations kept, newest first: (number, student's number, document), at most MAX_SENT (or the
        newest ``limit``). Only a driver reads them: RoomError for a wrong secret or no such room."""

    @abstractmethod
    def keep(self, room: str, secret: str, entry: str) -> bool:
        """Add ``entry`` to the end of the room's lesson record (:func:`check_entry`); False, and nothing kept,
        once the record holds MAX_RECORD. Only a driver: RoomError for a wrong secret or no such room."""

    @abstractmethod
    def kept(self, room: str, secret: str) -> list[str]:
        """The lesson record's entries in the order kept. Only a driver: RoomError otherwise."""


def digest(secret: str) -> bytes:
    """A secret or token as a store keeps it. A secret is 192 random bits: a plain hash suffices (no salt or
    slow hash, which guard guessable passwords)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest()


def with_driver(drivers: list, new: object) -> list:
    """The drivers after a new one joins: the room's creator, and the latest consoles (MAX_DRIVERS in all)."""
    return [drivers[0], *drivers[1:][-(MAX_DRIVERS - 2):], new]


def is_room_id(room: object) -> bool:
    """A room id as this app makes them (``secrets.token_urlsafe(9)``: 12 URL-safe characters, 72 random bits)."""
    return isinstance(room, str) and len(room) == 12 and all(c.isascii() and (c.isalnum() or c in "-_") for c in room)


def is_student_id(student: object) -> bool:
    """A student's anonymous id as a window makes it (``secrets.token_urlsafe(9)``)."""
    return is_room_id(student)


def check_answer(student: object, poll: object, text: object) -> None:
    """What a student's window sends with an answer, before anything is stored."""
    if not is_student_id(student):
        raise RoomError("a student's id is a short random string")
    if not isinstance(poll, int) or isinstance(poll, bool) or not 1 <= poll <= MAX_POLLS:
        raise RoomError("a poll's number is a whole number")
    if not isinstance(text, str) or not text or len(text) > MAX_ANSWER:
        raise RoomError(f"an answer is text of 1 to {MAX_ANSWER} characters")


def check_sent(student: object, document: object) -> None:
    """What a student's window sends with an exploration, before anything is stored."""
    if not isinstance(document, str) or not document or len(document) > MAX_SENT_CHARS:
        raise RoomError(f"an exploration is text of 1 to {MAX_SENT_CHARS} characters")
    if not is_student_id(student):
        raise RoomError("a student's id is a short random string")


def check_entry(entry: object) -> None:
    """An entry of a lesson record, before it is stored."""
    if not isinstance(entry, str) or not entry or len(entry) > MAX_RECORD_CHARS:
        raise RoomError(f"an entry of the lesson record is text of 1 to {MAX_RECORD_CHARS} characters")


def is_secret(secret: object) -> bool:
    """A secret as this app makes them (``secrets.token_urlsafe(24)``), offered back by a browser: checked before
    it is hashed or compared."""
    return isinstance(secret, str) and len(secret) == 32 and all(c.isascii() and (c.isalnum() or c in "-_")
                                                                 for c in secret)


def check_document(document: str) -> None:
    if not isinstance(document, str) or len(document) > MAX_DOCUMENT:
        raise RoomError(f"a room's document is text of at most {MAX_DOCUMENT} characters")
