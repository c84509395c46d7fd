"""The explorations students send and the lesson record, in Redis: a part of the shared store.

:class:`RedisInbox` is what :class:`~ui.lecture.redis_rooms.RedisRooms` inherits for
:meth:`~ui.lecture.rooms.Rooms.send`, :meth:`~ui.lecture.rooms.Rooms.sent`, :meth:`~ui.lecture.rooms.Rooms.keep` and
:meth:`~ui.lecture.rooms.Rooms.kept`, with the names of all a room's keys (both modules use them). Per room,
beside its hash:

- ``attn:sent:<id>``, a list of the explorations taken, newest first, cut to ``MAX_SENT``; each item is the JSON
  ``[number, student's number, document]`` (a document is any text: JSON keeps it whole, quotes and newlines too);
- ``attn:senders:<id>``, a hash: a student who sent -> their number; the room's hash counts the explorations
  taken (``taken``) and the students numbered (``senders``);
- ``attn:sends:<id>``, a hash: a sender -> when they sent in the last minute (at most ``SENDS_PER_MINUTE`` times,
  space-separated), for the rate; one hash per room, not a key per student;
- ``attn:record:<id>``, a list of the lesson record's entries (each as JSON), in the order kept.

A send is one Lua script, so two replicas cannot both take the last place or give two students one number: the
room is there, the student present in its class, the room not full, the student under the rate, then the numbers,
the push and the cut. Each write gives its keys and the room's hash ``ROOM_SECONDS`` to live again, so none
outlives its room (a room followed for hours with no send may forget its explorations first: its numbers go on).
The caps are read from the contract at each call (a test may lower one).
"""

from __future__ import annotations

import json
import time

import redis

from . import rooms as contract
from .rooms import RoomError, RoomsUnavailable, SendRefused, check_entry, check_sent, is_room_id

__all__ = ["PREFIX", "RedisInbox"]

PREFIX = "attn:"

# KEYS: the room, its class, its explorations, its senders, their sends; ARGV: the student, the document as JSON,
# now, PRESENCE_SECONDS, SENDS_PER_MINUTE, MAX_SENDS, MAX_SENT, ROOM_SECONDS. {number, student's number}, or why
# not: 'none' (no such room), 'absent', 'full' or 'busy'.
_SEND = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'none' end
local now = tonumber(ARGV[3])
local seen = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not seen or tonumber(seen) < now - tonumber(ARGV[4]) then return 'absent' end
if tonumber(redis.call('HGET', KEYS[1], 'taken') or '0') >= tonumber(ARGV[6]) then return 'full' end
local recent = {}
for t in string.gmatch(redis.call('HGET', KEYS[5], ARGV[1]) or '', '%S+') do
  if tonumber(t) > now - 60 then table.insert(recent, t) end
end
if #recent >= tonumber(ARGV[5]) then return 'busy' end
table.insert(recent, ARGV[3])
local number = redis.call('HINCRBY', KEYS[1], 'taken', 1)
local student = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
if student == 0 then
  student = redis.call('HINCRBY', KEYS[1], 'senders', 1)
  redis.call('HSET', KEYS[4], ARGV[1], student)
end
redis.call('HSET', KEYS[5], ARGV[1], table.concat(recent, ' '))
redis.call('LPUSH', KEYS[3], '[' .. number .. ',' .. student .. ',' .. ARGV[2] .. ']')
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[7]) - 1)
for _, key in ipairs({KEYS[1], KEYS[3], KEYS[4], KEYS[5]}) do redis.call('EXPIRE', key, tonumber(ARGV[8])) end
return {number, student}
"""

# KEYS: the room, its record; ARGV: the entry as JSON, MAX_RECORD, ROOM_SECONDS. -1: no such room; 0: the record is
# full (nothing kept); 1: kept.
_KEEP = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""


def _unavailable(method):
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except redis.RedisError as exc:
            raise RoomsUnavailable(f"the rooms' store cannot be reached ({type(exc).__name__})") from None
    guarded.__doc__ = method.__doc__
    return guarded


def _key(kind: str) -> staticmethod:
    """The name of one of a room's keys, ``attn:<kind>:<room>``, as a method of the store."""
    return staticmethod(lambda room: f"{PREFIX}{kind}:{room}")


class RedisInbox:
    """A room's keys, and the explorations sent and the lesson record (``self._redis`` and ``self._driven`` are
    RedisRooms')."""

    _redis: redis.Redis

    def _init_inbox(self) -> None:
        self._send = self._redis.register_script(_SEND)
        self._keep = self._redis.register_script(_KEEP)

    @_unavailable
    def send(self, room: str, student: str, document: str) -> tuple[int, int]:
        check_sent(student, document)
        if not is_room_id(room):
            raise RoomError("no such room")
        found = self._send(keys=[self._room_key(room), self._class_key(room), self._sent_key(room),
                                 self._senders_key(room), self._sends_key(room)],
                           args=[student, json.dumps(document), time.time(), contract.PRESENCE_SECONDS,
                                 contract.SENDS_PER_MINUTE, contract.MAX_SENDS, contract.MAX_SENT,
                                 contract.ROOM_SECONDS])
        if found == "none":
            raise RoomError("no such room")
        if isinstance(found, str):
            raise SendRefused(found)
        return int(found[0]), int(found[1])

    @_unavailable
    def sent(self, room: str, secret: str, limit: int | None = None) -> list[tuple[int, int, str]]:
        self._driven(room, secret)
        newest = contract.MAX_SENT if limit is None else max(1, min(int(limit), contract.MAX_SENT))
        items = self._redis.lrange(self._sent_key(room), 0, newest - 1)
        return [(int(number), int(student), document) for number, student, document in map(json.loads, items)]

    @_unavailable
    def keep(self, room: str, secret: str, entry: str) -> bool:
        check_entry(entry)
        self._driven(room, secret)
        found = self._keep(keys=[self._room_key(room), self._record_key(room)],
                           args=[json.dumps(entry), contract.MAX_RECORD, contract.ROOM_SECONDS])
        if found == -1:
            raise RoomError("no such room")
        return found == 1

    @_unavailable
    def kept(self, room: str, secret: str) -> list[str]:
        self._driven(room, secret)
        return [json.loads(item) for item in self._redis.lrange(self._record_key(room), 0, -1)]

    # ----- a room's keys (a token's by its hash): one name each, all under PREFIX -------------------
    _room_key = _key("room")
    _class_key = _key("class")
    _answers_key = _key("answers")
    _token_key = _key("token")
    _sent_key = _key("sent")
    _senders_key = _key("senders")
    _sends_key = _key("sends")
    _record_key = _key("record")
