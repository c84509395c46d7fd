"""Rooms in Redis: the store every replica of a deployment shares (``ATTENTION_ROOMS=redis://…``).

The same contract as :class:`~ui.lecture.rooms.MemoryRooms` (tests/test_rooms.py runs one suite on
both), with Redis's own expiry doing the forgetting. Per room:

- ``attn:room:<id>``, a hash: ``doc`` (the deck's JSON), ``ver`` (its version), ``drivers`` (the
  hashes of the drivers' secrets, hex, comma-separated, the creator's first) and ``token`` (the hash
  of the live one-time token); it expires ``ROOM_SECONDS`` after the last touch;
- ``attn:token:<hash>`` → the room, expiring with the token: ``GETDEL`` makes redeeming it atomic,
  so two windows racing for one token cannot both win;
- ``attn:rooms``, a sorted set of rooms by last touch, for the cap on rooms.

A document and its version change together (one ``MULTI``). Secrets and tokens are kept only as
SHA-256 hashes and compared in Python with ``hmac.compare_digest``. A Redis that cannot be reached
raises :class:`RoomsUnavailable`: a window then tries again at its next poll.
"""

from __future__ import annotations

import hmac
import secrets
import time

import redis

from .rooms import (
    MAX_ROOMS,
    ROOM_SECONDS,
    TOKEN_SECONDS,
    RoomError,
    Rooms,
    RoomsUnavailable,
    check_document,
    digest,
    with_driver,
)

__all__ = ["RedisRooms"]

PREFIX = "attn:"


def _unavailable(method):
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except redis.RedisError as exc:
            raise RoomsUnavailable(f"the rooms' store cannot be reached ({type(exc).__name__})") from None
    guarded.__doc__ = method.__doc__
    return guarded


class RedisRooms(Rooms):
    def __init__(self, url: str, *, max_rooms: int = MAX_ROOMS) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True)
        self._max_rooms = max_rooms

    @staticmethod
    def _room_key(room: str) -> str:
        return f"{PREFIX}room:{room}"

    @staticmethod
    def _token_key(token_hash: str) -> str:
        return f"{PREFIX}token:{token_hash}"

    @_unavailable
    def create(self, document: str) -> tuple[str, str]:
        check_document(document)
        room, secret = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
        now = time.time()
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(room), mapping={"doc": document, "ver": 1, "drivers": digest(secret).hex(),
                                                     "token": ""})
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            pipe.zadd(f"{PREFIX}rooms", {room: now})
            pipe.zremrangebyscore(f"{PREFIX}rooms", 0, now - ROOM_SECONDS)  # rooms Redis has already forgotten
            pipe.execute()
        over = self._redis.zcard(f"{PREFIX}rooms") - self._max_rooms
        if over > 0:  # the least recently used go, as in the in-process store
            for oldest, _ in self._redis.zpopmin(f"{PREFIX}rooms", over):
                self._redis.delete(self._room_key(oldest))
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
    def publish(self, room: str, secret: str, document: str) -> int:
        check_document(document)
        self._driven(room, secret)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(room), "doc", document)
            pipe.hincrby(self._room_key(room), "ver", 1)
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            pipe.zadd(f"{PREFIX}rooms", {room: time.time()})
            version = pipe.execute()[1]
        return int(version)

    @_unavailable
    def version(self, room: str) -> int | None:
        found = self._redis.hget(self._room_key(room), "ver") if _plausible(room) else None
        return None if found is None else int(found)

    @_unavailable
    def read(self, room: str) -> tuple[int, str] | None:
        if not _plausible(room):
            return None
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hmget(self._room_key(room), "ver", "doc")
            pipe.expire(self._room_key(room), ROOM_SECONDS)
            (version, document), _ = pipe.execute()
        return None if version is None else (int(version), document)

    def __len__(self) -> int:
        return int(self._redis.zcard(f"{PREFIX}rooms"))

    def _driven(self, room: str, secret: str) -> dict:
        found = self._redis.hgetall(self._room_key(room)) if _plausible(room) else {}
        if not found:
            raise RoomError("no such room")
        offered = digest(str(secret)).hex()
        if not any([hmac.compare_digest(known, offered) for known in found["drivers"].split(",")]):
            raise RoomError("only the lecturer's windows can drive this room")
        return found


def _plausible(room: object) -> bool:
    """A room id as this app makes them (12 URL-safe characters); anything else names no room."""
    return isinstance(room, str) and 1 <= len(room) <= 64 and all(c.isalnum() or c in "-_" for c in room)
