"""Rooms in Redis: the store every replica of a deployment shares (``ATTENTION_ROOMS=redis://…``).

The same contract as :class:`~ui.lecture.memory_rooms.MemoryRooms` (tests/test_rooms.py runs one suite on
both), with Redis's own expiry doing the forgetting. Per room:

- ``attn:room:<id>``, a hash: ``doc`` (the deck's JSON), ``ver`` (its version), ``drivers`` (the
  hashes of the drivers' secrets, hex, comma-separated, the creator's first) and ``token`` (the hash
  of the live one-time token); it expires ``ROOM_SECONDS`` after the last touch;
- ``attn:token:<hash>`` → the room, expiring with the token: ``GETDEL`` makes redeeming it atomic,
  so two windows racing for one token cannot both win;
- ``attn:class:<id>``, a sorted set of the students present (anonymous id -> when last there), for
  the attendance and its cap; one small Lua script admits a student atomically;
- ``attn:answers:<id>``, a hash of the latest poll's answers (student id -> answer); the room's hash
  says which poll that is (``poll``) and whether it takes answers (``taking``); one Lua script takes
  an answer only from a student present, for the poll open now;
- the explorations students sent and the lesson record: ui/lecture/redis_inbox.py (with the keys' names);
- ``attn:rooms``, a sorted set of rooms by last touch, for the cap on rooms;
- ``attn:moves``, a pub/sub channel: ``<room> <version>`` after each publish (ui/lecture/redis_moves.py).

A document and its version change together (one ``MULTI``). Secrets and tokens are kept only as
SHA-256 hashes and compared in Python with ``hmac.compare_digest``. A Redis that cannot be reached
raises :class:`RoomsUnavailable`: a window then tries again at its next poll.
"""

from __future__ import annotations

import hmac
import secrets
import time

import redis

from .redis_inbox import PREFIX, RedisInbox, _unavailable
from .redis_moves import MOVES, announcements
from .rooms import (
    MAX_POLLS,
    MAX_ROOMS,
    MAX_STUDENTS,
    PRESENCE_SECONDS,
    ROOM_SECONDS,
    TOKEN_SECONDS,
    RoomError,
    Rooms,
    RoomsFull,
    check_answer,
    check_document,
    digest,
    is_room_id,
    is_secret,
    is_student_id,
    with_driver,
)

__all__ = ["RedisRooms"]

# KEYS: the room, its class; ARGV: the student, now, PRESENCE_SECONDS, MAX_STUDENTS, ROOM_SECONDS.
# -1: no such room; 0: the class is full; 1: present.
_ATTEND = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local now = tonumber(ARGV[2])
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
end
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
"""

# KEYS: the room, the rooms' index, the moves' channel; ARGV: the document, the expected version ('' for any),
# ROOM_SECONDS, now, the room's id. The new version, or -1 if the room is at another version than expected (nothing
# written). The move is announced in the same script: no replica can read the new version before it is announced.
_PUBLISH = """
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'ver') ~= ARGV[2] then return -1 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1])
local version = redis.call('HINCRBY', KEYS[1], 'ver', 1)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('ZADD', KEYS[2], tonumber(ARGV[4]), ARGV[5])
redis.call('PUBLISH', KEYS[3], ARGV[5] .. ' ' .. version)
return version
"""

# KEYS: the room, its class, its answers; ARGV: the student, the poll, the answer, now - PRESENCE_SECONDS,
# ROOM_SECONDS. -1: no such room; 0: refused (not that poll, not taking answers, not present); 1: kept.
_ANSWER = """
local room = redis.call('HMGET', KEYS[1], 'poll', 'taking')
if not room[1] and redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if room[1] ~= ARGV[2] or room[2] ~= '1' then return 0 end
local seen = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not seen or tonumber(seen) < tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[5]))
return 1
"""


class RedisRooms(RedisInbox, Rooms):
    remote = True

    def __init__(self, url: str, *, max_rooms: int = MAX_ROOMS) -> None:
        self._url = url
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True)
        self._max_rooms = max_rooms
        self._attend = self._redis.register_script(_ATTEND)
        self._answer = self._redis.register_script(_ANSWER)
        self._publish = self._redis.register_script(_PUBLISH)
        self._init_inbox()

    @_unavailable
    def create(self, document: str) -> tuple[str, str]:
        check_document(document)
        room, secret = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
        now = time.time()
        self._redis.zremrangebyscore(f"{PREFIX}rooms", 0, now - ROOM_SECONDS)  # rooms Redis has already forgotten
        if self._redis.zcard(f"{PREFIX}rooms") >= self._max_rooms:  # an open lecture is never pushed out
            raise RoomsFull(f"this server has its {self._max_rooms} open rooms")
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(room), mapping={"doc": document, "ver": 1, "drivers": digest(secret).hex(),
                                                     "token": ""})
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            pipe.zadd(f"{PREFIX}rooms", {room: now})
            pipe.execute()
        return room, secret

    @_unavailable
    def issue_token(self, room: str, secret: str, current: str | None = None) -> str:
        live = self._driven(room, secret).get("token") or ""
        if live and isinstance(current, str) and hmac.compare_digest(live, digest(current).hex()) \
                and self._redis.exists(self._token_key(live)):
            return current
        token = secrets.token_urlsafe(18)
        key = digest(token).hex()
        with self._redis.pipeline(transaction=True) as pipe:
            if live:
                pipe.delete(self._token_key(live))
            pipe.set(self._token_key(key), room, ex=TOKEN_SECONDS)
            pipe.hset(self._room_key(room), "token", key)
            pipe.execute()
        return token

    @_unavailable
    def redeem(self, token: str) -> tuple[str, str] | None:
        if not isinstance(token, str) or len(token) > 64:
            return None
        key = digest(token).hex()
        room = self._redis.getdel(self._token_key(key))
        if room is None:
            return None
        found = self._redis.hmget(self._room_key(room), "token", "drivers")
        if found[0] is None or not hmac.compare_digest(found[0], key):
            return None
        secret = secrets.token_urlsafe(24)
        drivers = with_driver(found[1].split(","), digest(secret).hex())
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(room), mapping={"token": "", "drivers": ",".join(drivers)})
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            pipe.execute()
        return room, secret

    @_unavailable
    def is_driver(self, room: str, secret: str) -> bool:
        if not is_room_id(room) or not is_secret(secret):
            return False
        try:
            self._driven(room, secret)
        except RoomError:
            return False
        return True

    @_unavailable
    def publish(self, room: str, secret: str, document: str, expected: int | None = None) -> int | None:
        check_document(document)
        self._driven(room, secret)
        version = int(self._publish(keys=[self._room_key(room), f"{PREFIX}rooms", MOVES],
                                    args=[document, "" if expected is None else int(expected), ROOM_SECONDS,
                                          time.time(), room]))
        if version < 0:
            return None
        self._moved(room, version, document)  # this replica's subscribers at once; the others by the channel
        return version

    def announcements(self):
        return announcements(self._url)

    @_unavailable
    def version(self, room: str) -> int | None:
        found = self._redis.hget(self._room_key(room), "ver") if is_room_id(room) else None
        return None if found is None else int(found)

    @_unavailable
    def read(self, room: str) -> tuple[int, str] | None:
        if not is_room_id(room):
            return None
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hmget(self._room_key(room), "ver", "doc")
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            (version, document), _ = pipe.execute()
        return None if version is None else (int(version), document)

    @_unavailable
    def attend(self, room: str, student: str) -> bool:
        if not is_student_id(student) or not is_room_id(room):
            raise RoomError("no such room, or not a student's id")
        found = self._attend(keys=[self._room_key(room), self._class_key(room)],
                             args=[student, time.time(), PRESENCE_SECONDS, MAX_STUDENTS, ROOM_SECONDS])
        if found == -1:
            raise RoomError("no such room")
        return found == 1

    @_unavailable
    def open_poll(self, room: str, secret: str) -> int:
        found = self._driven(room, secret)
        number = int(found.get("poll") or 0) + 1
        if number > MAX_POLLS:
            raise RoomError(f"a room opens at most {MAX_POLLS} polls")
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._answers_key(room))
            pipe.hset(self._room_key(room), mapping={"poll": number, "taking": 1})
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            pipe.execute()
        return number

    @_unavailable
    def stop_poll(self, room: str, secret: str, clear: bool = False) -> None:
        self._driven(room, secret)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(room), "taking", 0)
            if clear:
                pipe.delete(self._answers_key(room))
            pipe.execute()

    @_unavailable
    def answer(self, room: str, student: str, poll: int, text: str) -> bool:
        check_answer(student, poll, text)
        if not is_room_id(room):
            raise RoomError("no such room")
        found = self._answer(keys=[self._room_key(room), self._class_key(room), self._answers_key(room)],
                             args=[student, poll, text, time.time() - PRESENCE_SECONDS, ROOM_SECONDS])
        if found == -1:
            raise RoomError("no such room")
        return found == 1

    @_unavailable
    def answers(self, room: str, poll: int) -> dict[str, str]:
        if not is_room_id(room):
            return {}
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._room_key(room), "poll")
            pipe.hgetall(self._answers_key(room))
            number, answers = pipe.execute()
        return answers if number is not None and number == str(poll) else {}

    @_unavailable
    def attendance(self, room: str) -> int:
        if not is_room_id(room):
            return 0
        return int(self._redis.zcount(self._class_key(room), time.time() - PRESENCE_SECONDS, "+inf"))

    def __len__(self) -> int:
        return int(self._redis.zcard(f"{PREFIX}rooms"))

    def _driven(self, room: str, secret: str) -> dict:
        found = self._redis.hgetall(self._room_key(room)) if is_room_id(room) else {}
        if not found:
            raise RoomError("no such room")
        offered = digest(str(secret)).hex()
        if not any([hmac.compare_digest(known, offered) for known in found["drivers"].split(",")]):
            raise RoomError("only the lecturer's windows can drive this room")
        return found

