"""The rooms' file, row by row: its table, a room as a row, and a row read back as a room only if it is what
:class:`~ui.lecture.sqlite_rooms.SqliteRooms` writes (the contract's caps and shapes: a file is checked like
anything a client sends). A row is a typed :class:`Row` (``ui/lecture/documents.py``), and each of its JSON columns
is decoded into its own type; what types cannot say (how the numbers in the inbox relate) is checked after.

One row per room: its drivers' hashes, deck and version, token, poll and answers, how many explorations it took,
the numbers of the students who sent, the newest explorations and the lesson record (JSON, as the answers are). A
file of the version before lacks the last four columns: :func:`add_columns` adds them, so its rooms load.
"""

from __future__ import annotations

import json
import sqlite3
from itertools import pairwise
from typing import Annotated, Literal

from msgspec import Meta

from . import rooms as contract
from .documents import Document, Finite, Mismatch, convert, decode
from .memory_rooms import _Room

__all__ = ["COLUMNS", "PLACES", "SCHEMA", "SIZED", "add_columns", "room_of", "row_of"]

_HASH = 32  # bytes of a SHA-256 digest
_ESCAPED = 12  # JSON's longest spelling of one character: an escaped surrogate pair (\ud83d\ude00)
_MAX_ANSWERS = contract.MAX_STUDENTS * (contract.MAX_ANSWER + 24)  # characters of a poll's answers as JSON
_MAX_SENDERS = contract.MAX_SENDS * 20 + 2  # "<id>":<number>, for each student who sent
_MAX_SENT = contract.MAX_SENT * (_ESCAPED * contract.MAX_SENT_CHARS + 16) + 2  # [number,student,"<document>"], ...
_MAX_RECORD = contract.MAX_RECORD * (_ESCAPED * contract.MAX_RECORD_CHARS + 3) + 2  # "<entry>", ...
_ADDED = (("taken", "INTEGER NOT NULL DEFAULT 0"), ("senders", "TEXT NOT NULL DEFAULT '{}'"),
          ("sent", "TEXT NOT NULL DEFAULT '[]'"), ("record", "TEXT NOT NULL DEFAULT '[]'"))  # after the first ten
COLUMNS = "id, drivers, document, version, touched, token, token_until, poll, taking, answers, " + ", ".join(
    name for name, _ in _ADDED)
PLACES = ", ".join("?" for _ in COLUMNS.split(", "))
SCHEMA = f"""CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, drivers BLOB NOT NULL, document TEXT NOT NULL,
    version INTEGER NOT NULL, touched REAL NOT NULL, token BLOB, token_until REAL NOT NULL, poll INTEGER NOT NULL,
    taking INTEGER NOT NULL, answers TEXT NOT NULL, {", ".join(f"{name} {kind}" for name, kind in _ADDED)})"""
SIZED = (f"typeof(id) = 'text' AND length(id) = 12 AND typeof(drivers) = 'blob'"
         f" AND length(drivers) <= {_HASH * contract.MAX_DRIVERS} AND typeof(document) = 'text'"
         f" AND length(document) <= {contract.MAX_DOCUMENT} AND typeof(answers) = 'text'"
         f" AND length(answers) <= {_MAX_ANSWERS} AND typeof(senders) = 'text' AND length(senders) <= {_MAX_SENDERS}"
         f" AND typeof(sent) = 'text' AND length(sent) <= {_MAX_SENT}"
         f" AND typeof(record) = 'text' AND length(record) <= {_MAX_RECORD}")


def add_columns(db: sqlite3.Connection) -> None:
    """Add the columns that a file of the version before lacks, each with its empty value (after the schema's
    check: only the rooms' table is altered)."""
    have = {found[1] for found in db.execute("PRAGMA table_info(rooms)")}
    with db:
        for name, kind in _ADDED:
            if name not in have:
                db.execute(f"ALTER TABLE rooms ADD COLUMN {name} {kind}")


def row_of(room: str, found: _Room) -> tuple:
    """``room`` as the file's row (COLUMNS, in order). Who is in class and when each student sent are not kept."""
    return (room, b"".join(found.drivers), found.document, found.version, found.touched, found.token,
            found.token_until, found.poll, int(found.taking), _dumps(found.answers), found.taken,
            _dumps(found.senders), _dumps(found.sent), _dumps(found.record))


Id = Annotated[str, Meta(pattern=r"\A[A-Za-z0-9_-]{12}\Z")]  # a room's or a student's (rooms.is_room_id)
Number = Annotated[int, Meta(ge=1, le=contract.MAX_SENDS)]
Answers = Annotated[dict[Id, Annotated[str, Meta(min_length=1, max_length=contract.MAX_ANSWER)]],
                    Meta(max_length=contract.MAX_STUDENTS)]
Senders = Annotated[dict[Id, Number], Meta(max_length=contract.MAX_SENDS)]
Sent = Annotated[list[tuple[Number, Number, Annotated[str, Meta(min_length=1, max_length=contract.MAX_SENT_CHARS)]]],
                 Meta(max_length=contract.MAX_SENT)]
Record = Annotated[list[Annotated[str, Meta(min_length=1, max_length=contract.MAX_RECORD_CHARS)]],
                   Meta(max_length=contract.MAX_RECORD)]


class Row(Document):
    """A row of the rooms' table as this store writes it; its JSON columns are text within their caps, each decoded
    into its own type after."""

    id: Id
    drivers: Annotated[bytes, Meta(min_length=_HASH, max_length=_HASH * contract.MAX_DRIVERS)]
    document: Annotated[str, Meta(max_length=contract.MAX_DOCUMENT)]
    version: Annotated[int, Meta(ge=1, le=2**53)]
    touched: Finite
    token: Annotated[bytes, Meta(min_length=_HASH, max_length=_HASH)] | None
    token_until: Finite
    poll: Annotated[int, Meta(ge=0, le=contract.MAX_POLLS)]
    taking: Literal[0, 1]
    answers: Annotated[str, Meta(max_length=_MAX_ANSWERS)]
    taken: Annotated[int, Meta(ge=0, le=contract.MAX_SENDS)]
    senders: Annotated[str, Meta(max_length=_MAX_SENDERS)]
    sent: Annotated[str, Meta(max_length=_MAX_SENT)]
    record: Annotated[str, Meta(max_length=_MAX_RECORD)]


def room_of(row: tuple, now: float) -> _Room | None:
    """A row of the file as a room, if every part of it is what this store writes; else None."""
    try:
        found = convert(dict(zip(COLUMNS.split(", "), row, strict=True)), Row)
        answers, senders = decode(found.answers, Answers), decode(found.senders, Senders)
        sent, record = decode(found.sent, Sent), decode(found.record, Record)
    except (Mismatch, ValueError):  # ValueError: a row of another width
        return None
    if len(found.drivers) % _HASH or not _numbered(senders) or not _newest_first(sent, found.taken, len(senders)):
        return None
    drivers = [found.drivers[i:i + _HASH] for i in range(0, len(found.drivers), _HASH)]
    return _Room(drivers, found.document, found.version, min(found.touched, now), found.token,
                 min(found.token_until, now + contract.TOKEN_SECONDS), poll=found.poll, taking=bool(found.taking),
                 answers=answers, taken=found.taken, senders=senders, sent=sent, record=record)


def _numbered(senders: dict[str, int]) -> bool:
    """Students numbered 1, 2... in the order they first sent: a number given twice would make two students one,
    and a gap would give the next sender a number already taken."""
    return sorted(senders.values()) == list(range(1, len(senders) + 1))


def _newest_first(sent: list[tuple[int, int, str]], taken: int, senders: int) -> bool:
    """The newest explorations first, each numbered at most ``taken``, none twice (the console's buttons are named
    by the number), each by a student numbered already."""
    return all(number <= taken and student <= senders for number, student, _ in sent) \
        and all(newer[0] > older[0] for newer, older in pairwise(sent))


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))  # ASCII: a lone surrogate in a text is written escaped
