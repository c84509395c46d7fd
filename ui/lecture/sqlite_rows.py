"""The rooms' file, row by row: its table, a room as a row, and a row read back as a room only if it is what
:class:`~ui.lecture.sqlite_rooms.SqliteRooms` writes (the contract's caps and shapes: a file is checked like
anything a client sends).

One row per room: its drivers' hashes, deck and version, token, poll and answers, how many explorations it took,
the numbers of the students who sent, the newest explorations and the lesson record (JSON, as the answers are). A
file of the version before lacks the last four columns: :func:`add_columns` adds them, so its rooms load.
"""

from __future__ import annotations

import json
import math
import sqlite3
from itertools import pairwise

from . import rooms as contract
from .memory_rooms import _Room
from .rooms import is_room_id, is_student_id

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


def room_of(row: tuple, now: float) -> _Room | None:
    """A row of the file as a room, if every part of it is what this store writes; else None."""
    room, drivers, document, version, touched, token, token_until, poll, taking, answers, *inbox = row
    if not (is_room_id(room) and isinstance(drivers, bytes) and 0 < len(drivers) <= _HASH * contract.MAX_DRIVERS
            and len(drivers) % _HASH == 0 and isinstance(document, str) and len(document) <= contract.MAX_DOCUMENT
            and _whole(version, 1, 2**53) and _whole(poll, 0, contract.MAX_POLLS) and taking in (0, 1)
            and (token is None or (isinstance(token, bytes) and len(token) == _HASH))
            and all(isinstance(t, float) and math.isfinite(t) for t in (touched, token_until))):
        return None
    kept, sent = _answers(answers), _inbox(*inbox)
    if kept is None or sent is None:
        return None
    return _Room([drivers[i:i + _HASH] for i in range(0, len(drivers), _HASH)], document, version,
                 min(touched, now), token, min(token_until, now + contract.TOKEN_SECONDS), poll=poll,
                 taking=bool(taking), answers=kept, **sent)


def _answers(text: object) -> dict[str, str] | None:
    found = _loads(text, _MAX_ANSWERS)
    if not isinstance(found, dict) or len(found) > contract.MAX_STUDENTS:
        return None
    ok = all(is_student_id(s) and isinstance(a, str) and 0 < len(a) <= contract.MAX_ANSWER for s, a in found.items())
    return found if ok else None


def _inbox(taken: object, senders: object, sent: object, record: object) -> dict | None:
    """The explorations a room took, its senders' numbers and its lesson record, as a room's fields; else None."""
    numbers, items, entries = _loads(senders, _MAX_SENDERS), _loads(sent, _MAX_SENT), _loads(record, _MAX_RECORD)
    if not (_whole(taken, 0, contract.MAX_SENDS) and _senders(numbers) and _sent(items, taken, len(numbers))
            and isinstance(entries, list) and len(entries) <= contract.MAX_RECORD
            and all(isinstance(e, str) and 0 < len(e) <= contract.MAX_RECORD_CHARS for e in entries)):
        return None
    return {"taken": taken, "senders": numbers, "sent": [tuple(item) for item in items], "record": entries}


def _senders(found: object) -> bool:
    """Students numbered 1, 2... in the order they first sent: a number given twice would make two students one,
    and a gap would give the next sender a number already taken."""
    return (isinstance(found, dict) and len(found) <= contract.MAX_SENDS
            and all(is_student_id(s) and _whole(n, 1, contract.MAX_SENDS) for s, n in found.items())
            and sorted(found.values()) == list(range(1, len(found) + 1)))


def _sent(found: object, taken: int, senders: int) -> bool:
    """The newest explorations first, each numbered at most ``taken``, none twice (the console's buttons are named
    by the number), each by a student numbered already."""
    if not isinstance(found, list) or len(found) > contract.MAX_SENT:
        return False
    if not all(isinstance(item, list) and len(item) == 3 and _whole(item[0], 1, taken) and _whole(item[1], 1, senders)
               and isinstance(item[2], str) and 0 < len(item[2]) <= contract.MAX_SENT_CHARS for item in found):
        return False
    return all(newer[0] > older[0] for newer, older in pairwise(found))


def _loads(text: object, cap: int) -> object:
    """``text`` as JSON if it is text within ``cap`` and parses (nested too deep for the parser too); else None."""
    try:
        return json.loads(text) if isinstance(text, str) and len(text) <= cap else None
    except (ValueError, RecursionError):
        return None


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))  # ASCII: a lone surrogate in a text is written escaped


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
