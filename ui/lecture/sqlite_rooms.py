"""The rooms of one server, in its memory and in a SQLite file beside the app: a restart finds them again.

The default store (``ATTENTION_ROOMS`` unset, or ``sqlite:///path``). It is :class:`MemoryRooms` (every read stays a
dictionary lookup: a class polls its room's version twice a second), and each durable change is written through to
the file, in the order the rooms changed: a room made, a deck published (and its version), the hashes of the
drivers' secrets and of the live token, a poll's number and its answers, the explorations students sent (with the
room's count and each sender's number) and the lesson record (:meth:`~ui.lecture.rooms.Rooms.send`,
:meth:`~ui.lecture.rooms.Rooms.keep`): a restart finds them all. The clock is in the deck. What a restart may lose
is not written: who is in class (a student's window says so again within seconds), when each student last sent
(the rate's clock: a restart lets a student send again at once) and the exact time of a room's last read (written
at most every :data:`TOUCH_SECONDS`). A room's row, and its check, are in ui/lecture/sqlite_rows.py.

The file is read once, when the store starts, and its content is checked like anything a client sends (the
contract's caps and shapes, row by row); a row that fails is dropped, and a file that is not a rooms file is moved
aside (``<file>.corrupt``) with a warning: the server starts with no rooms, it does not crash. So is a file whose
schema holds anything but the rooms' table (a view, a trigger), and no schema is trusted to call functions.
A file that cannot be written (a read-only disk, a full one) leaves the rooms in memory, with one warning. The
file, its write-ahead log and its index are its user's only. One server holds the file (``<file>.lock``): a
second one started beside it keeps its rooms in memory, with a warning (replicas share rooms in Redis).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from . import rooms as contract
from .memory_rooms import MemoryRooms
from .sqlite_rows import COLUMNS, PLACES, SCHEMA, SIZED, add_columns, room_of, row_of

__all__ = ["DEFAULT_FILE", "TOUCH_SECONDS", "SqliteRooms", "rooms_file"]

DEFAULT_FILE = Path(__file__).resolve().parents[2] / ".rooms.sqlite3"  # beside app.py (git ignores it)
TOUCH_SECONDS = 60.0  # a room read or attended reaches the file at most this often (a restart may make it older)
_SHAPE = {("table", "rooms", "rooms"), ("index", "sqlite_autoindex_rooms_1", "rooms")}  # and nothing else
_log = logging.getLogger("attention_app")


def rooms_file(url: str | None) -> Path:
    """The file a ``sqlite://`` address names (``sqlite:///abs/path``; a relative path is beside the app), or the
    default one for no address."""
    if url is None:
        return DEFAULT_FILE
    path = Path(url.removeprefix("sqlite://"))
    return path if path.is_absolute() else DEFAULT_FILE.parent / path


class SqliteRooms(MemoryRooms):
    """:class:`MemoryRooms` whose durable changes are written through to a SQLite file (one process, many threads)."""

    def __init__(self, path: str | os.PathLike, *, max_rooms: int = contract.MAX_ROOMS,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(max_rooms=max_rooms, clock=clock)  # wall-clock time: it must mean the same after a restart
        self._path = Path(path)
        self._writes = threading.Lock()  # held around a change and its write, so the file sees them in order
        self._dropped: list[str] = []  # rooms forgotten in memory, to delete from the file
        self._saved: dict[str, float] = {}  # a room's last touch, as written
        self._failing = False
        self._db = self._open() if self._locked() else None

    # ----- the contract: each durable change, then its write --------------------------------------
    def create(self, document: str) -> tuple[str, str]:
        with self._writes:
            room, secret = super().create(document)
            self._save(room)
        return room, secret

    def issue_token(self, room: str, secret: str, current: str | None = None) -> str:
        with self._writes:
            token = super().issue_token(room, secret, current)
            if token != current:  # a new one (the live one again changes nothing)
                self._save(room)
        return token

    def redeem(self, token: str) -> tuple[str, str] | None:
        with self._writes:
            found = super().redeem(token)
            if found is not None:
                self._save(found[0])
        return found

    def publish(self, room: str, secret: str, document: str, expected: int | None = None) -> int | None:
        with self._writes:
            version = super().publish(room, secret, document, expected)
            if version is not None:
                self._save(room)
        return version

    def open_poll(self, room: str, secret: str) -> int:
        with self._writes:
            number = super().open_poll(room, secret)
            self._save(room)
        return number

    def stop_poll(self, room: str, secret: str, clear: bool = False) -> None:
        with self._writes:
            super().stop_poll(room, secret, clear)
            self._save(room)

    def answer(self, room: str, student: str, poll: int, text: str) -> bool:
        with self._writes:
            kept = super().answer(room, student, poll, text)
            if kept:
                self._save(room)
        return kept

    def send(self, room: str, student: str, document: str) -> tuple[int, int]:
        with self._writes:
            numbers = super().send(room, student, document)  # a send refused raises: nothing to write
            self._save(room)
        return numbers

    def keep(self, room: str, secret: str, entry: str) -> bool:
        with self._writes:
            kept = super().keep(room, secret, entry)
            if kept:
                self._save(room)
        return kept

    def read(self, room: str) -> tuple[int, str] | None:
        found = super().read(room)
        if found is not None:
            self._touched(room)
        return found

    def attend(self, room: str, student: str) -> bool:
        present = super().attend(room, student)
        self._touched(room)
        return present

    # ----- writing ------------------------------------------------------------------------------
    def _drop(self, room: str) -> None:  # under the memory's lock (MemoryRooms._expire)
        super()._drop(room)
        self._dropped.append(room)

    def _touched(self, room: str) -> None:
        """A room read or attended: its touch reaches the file if the file's is older than TOUCH_SECONDS."""
        if self._clock() - self._saved.get(room, 0.0) >= TOUCH_SECONDS:
            with self._writes:
                self._save(room)

    def _save(self, room: str) -> None:
        """Write ``room`` as memory holds it now (or delete it), and delete the rooms memory forgot (under _writes)."""
        with self._lock:
            found = self._rooms.get(room)
            row = None if found is None else row_of(room, found)
            dropped, self._dropped = self._dropped, []
            if found is not None:
                self._saved[room] = found.touched
            for gone in dropped:
                self._saved.pop(gone, None)
        if self._db is None:
            return
        try:
            with self._db:  # one transaction
                self._db.executemany("DELETE FROM rooms WHERE id = ?", [(gone,) for gone in dropped])
                if row is None:
                    self._db.execute("DELETE FROM rooms WHERE id = ?", (room,))
                else:
                    self._db.execute(f"INSERT OR REPLACE INTO rooms ({COLUMNS}) VALUES ({PLACES})", row)
            self._failing = False
        except sqlite3.Error as exc:
            if not self._failing:  # once per run of failures: a lecture goes on in memory meanwhile
                _log.warning("the rooms' file %s cannot be written (%s): rooms stay in memory", self._path, str(exc))
            self._failing = True

    # ----- opening and loading ------------------------------------------------------------------
    def _locked(self) -> bool:
        """Hold ``<file>.lock`` while this store lives; False (one warning) if another server holds it."""
        lock = self._path.with_name(self._path.name + ".lock")
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return True  # not even a lock can be made here: opening the file says why, and memory keeps the rooms
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            _log.warning("a second server uses the rooms' file %s: this one keeps its rooms in memory only (a "
                         "restart loses them); to share rooms between replicas, set ATTENTION_ROOMS=redis://…",
                         self._path)
            return False
        weakref.finalize(self, os.close, fd)  # released with the store (and by the system with the process)
        return True

    def _open(self) -> sqlite3.Connection | None:
        """The file's connection, its rooms loaded; a file that is not a rooms file is moved aside and begun again."""
        for attempt in range(2):
            db = None
            try:
                db = _connect(self._path)
                self._load(db)
                return db
            except (sqlite3.Error, OSError) as exc:
                if db is not None:
                    db.close()
                _log.warning("the rooms' file %s cannot be read (%s): starting with no rooms", self._path, str(exc))
                self._rooms.clear()
                self._tokens.clear()
                if attempt == 0 and isinstance(exc, sqlite3.DatabaseError) and self._path.exists():
                    with contextlib.suppress(OSError):
                        self._path.replace(self._path.with_name(self._path.name + ".corrupt"))
                        for extra in ("-wal", "-shm"):
                            self._path.with_name(self._path.name + extra).unlink(missing_ok=True)
                        continue
                break
        _log.warning("the rooms stay in this server's memory: a restart loses them")
        return None

    def _load(self, db: sqlite3.Connection) -> None:
        """The file's rooms into memory: the checked, live ones (the latest touched, up to the cap); the rest go."""
        now = self._clock()
        shape = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        if {row[:3] for row in shape} != _SHAPE or len(shape) != len(_SHAPE) or not any(
                str(sql).startswith("CREATE TABLE rooms (") for *_, sql in shape):
            raise sqlite3.DatabaseError("its schema is not the rooms' table alone")
        add_columns(db)  # a file of the version before: its rooms load, with no explorations and no record yet
        with db:
            db.execute(f"DELETE FROM rooms WHERE NOT ({SIZED}) OR NOT touched >= ?", (now - contract.ROOM_SECONDS,))
        rows = db.execute(f"SELECT {COLUMNS} FROM rooms ORDER BY touched DESC LIMIT ?", (self._max_rooms,))
        kept = []
        for row in rows.fetchall():
            found = room_of(row, now)
            if found is None:
                _log.warning("a room in the rooms' file %s was refused", self._path)
                continue
            kept.append((row[0], found))
        for room, found in reversed(kept):  # the least recently touched first (MemoryRooms forgets from the front)
            self._rooms[room] = found
            self._saved[room] = found.touched
            if found.token is not None:
                self._tokens[found.token] = room
        with db:
            db.execute("DELETE FROM rooms WHERE id NOT IN (SELECT value FROM json_each(?))",
                       (json.dumps([room for room, _ in kept]),))


def _connect(path: Path) -> sqlite3.Connection:
    """The file's connection, made with its log and index (hashes and decks) for this server's user only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    umask = os.umask(0o077)  # once, as the server starts: the -wal and -shm files are made now
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        db = sqlite3.connect(path, timeout=5, check_same_thread=False)  # used under a lock; ``with db``: a transaction
        db.execute("PRAGMA trusted_schema=OFF")  # a file's schema (a view, a trigger, a default) calls no function
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(SCHEMA)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the index (-shm) is made by a read
    finally:
        os.umask(umask)
    for extra in ("-wal", "-shm"):  # made before this server, under another umask
        with contextlib.suppress(OSError):
            os.chmod(path.with_name(path.name + extra), 0o600)
    return db

