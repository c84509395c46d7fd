"""The rooms' moves announced between replicas: one Redis pub/sub channel, ``attn:moves``.

Each publish (ui/lecture/redis_rooms.py) announces ``<room> <version>`` on the channel in the same Lua script that
writes the version. A replica listens with one connection for the whole process (not one per subscriber) and reads
a moved room's document itself, once per version, only when it has subscribers of that room (ui/lecture/feed.py).
A channel loses what is sent while a listener is away, so each time the connection is made (again) the listener
says so (None), and the feed looks at every room it follows.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import redis
import redis.asyncio as aioredis

from .redis_inbox import PREFIX

__all__ = ["MOVES", "announcements"]

MOVES = f"{PREFIX}moves"
RETRY_SECONDS = (0.5, 1, 2, 5)  # between attempts to listen again after the connection was lost
HEALTH_SECONDS = 15  # a silent connection is pinged this often, so a dead one is noticed and made again

_log = logging.getLogger("attention_app")


async def announcements(url: str) -> AsyncIterator[tuple[str, int] | None]:
    """(room, version) for each move announced; None once subscribed (again): moves may have been missed."""
    failures = 0
    while True:
        client = aioredis.Redis.from_url(url, decode_responses=True, health_check_interval=HEALTH_SECONDS,
                                         socket_connect_timeout=2, socket_keepalive=True)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(MOVES)
                while True:
                    # A bounded wait, not listen(): each call pings a connection idle for HEALTH_SECONDS.
                    message = await pubsub.get_message(timeout=HEALTH_SECONDS)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":  # Redis has it: from now on no move passes unannounced
                        failures = 0
                        yield None
                    elif message["type"] == "message":
                        room, _, version = str(message["data"]).partition(" ")
                        if version.isdigit():
                            yield room, int(version)
        except (redis.RedisError, OSError) as exc:
            _log.warning("the rooms' moves cannot be heard (%s): listening again", type(exc).__name__)
        finally:
            await client.aclose()
        await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
        failures += 1
