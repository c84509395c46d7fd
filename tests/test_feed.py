"""The room's event feed (ui/lecture/feed.py): a subscriber gets the room's current state first, then each newer
one; a slow subscriber skips to the newest and never ends behind it; rooms are kept apart; the caps hold; and a move
made on another replica (a real redis-server) reaches this process's subscribers.

Every test runs its own event loop (``asyncio.run``) with the in-process store, or Redis; waits are for events,
never for a time, and nothing asserts a duration.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from tests.redis_server import redis_server_path, running_redis
from ui.lecture.feed import KEEPALIVE, Feed, FeedFull, NoSuchRoom, encode
from ui.lecture.memory_rooms import MemoryRooms

DECK = '{"step": %d, "matrix": [[0.1, 0.2], [0.3, 0.4]]}'


def made_room(rooms, steps: int = 1) -> tuple[str, str]:
    """A room moved to version ``steps``."""
    room, secret = rooms.create(DECK % 1)
    for step in range(2, steps + 1):
        rooms.publish(room, secret, DECK % step)
    return room, secret


def state(version: int) -> bytes:
    return encode(version, DECK % version)


async def next_state(subscription) -> bytes | None:
    """The next state handed over, past any keep-alive."""
    while (data := await subscription.next()) == KEEPALIVE:
        pass
    return data


def run(work) -> None:
    asyncio.run(work())


def test_an_event_is_the_version_and_each_line_of_the_document():
    assert encode(7, '{"a": 1}') == b'id: 7\ndata: {"a": 1}\n\n'
    assert encode(8, "one\ntwo") == b"id: 8\ndata: one\ndata: two\n\n"


def test_a_subscriber_first_gets_the_rooms_current_state_then_each_move():
    rooms = MemoryRooms()
    room, secret = made_room(rooms, steps=3)

    async def work():
        feed = Feed(rooms)
        subscription = await feed.subscribe(room)
        assert await next_state(subscription) == state(3)
        rooms.publish(room, secret, DECK % 4)
        assert await next_state(subscription) == state(4)
        late = await feed.subscribe(room)  # a reconnect: the newest state at once, nothing older
        assert await next_state(late) == state(4)
        await feed.close()

    run(work)


def test_a_slow_subscriber_skips_to_the_newest_and_every_subscriber_gets_the_same_bytes():
    rooms = MemoryRooms()
    room, secret = made_room(rooms)

    async def work():
        feed = Feed(rooms)
        slow, other = await feed.subscribe(room), await feed.subscribe(room)
        assert await next_state(slow) == state(1)
        for step in range(2, 12):  # ten moves while the subscriber takes nothing
            rooms.publish(room, secret, DECK % step)
        first, second = await next_state(slow), await next_state(other)
        assert first == state(11) and first is second  # encoded once for the room, not once per subscriber
        rooms.publish(room, secret, DECK % 12)
        assert await next_state(slow) == state(12)  # nothing of 2..10 was queued behind the newest
        await feed.close()

    run(work)


def test_moves_from_many_threads_never_leave_a_subscriber_behind_the_newest():
    rooms = MemoryRooms()
    room, secret = made_room(rooms)
    moves_per_thread, threads = 50, 4

    async def work():
        feed = Feed(rooms)
        subscription = await feed.subscribe(room)
        seen = []
        publishers = [threading.Thread(target=lambda: [rooms.publish(room, secret, '{"x": 0}')
                                                       for _ in range(moves_per_thread)]) for _ in range(threads)]
        for thread in publishers:
            thread.start()
        final = 1 + moves_per_thread * threads
        while not seen or seen[-1] < final:
            data = await next_state(subscription)
            seen.append(int(data.split(b"\n")[0].removeprefix(b"id: ")))
            await asyncio.sleep(0)  # a reader that lets moves pile up between its reads
        for thread in publishers:
            thread.join()
        assert seen == sorted(set(seen)) and seen[-1] == final == rooms.version(room)
        await feed.close()

    run(work)


def test_rooms_are_kept_apart():
    rooms = MemoryRooms()
    one, one_secret = made_room(rooms)
    other, other_secret = made_room(rooms)

    async def work():
        feed = Feed(rooms)
        watching_one, watching_other = await feed.subscribe(one), await feed.subscribe(other)
        await next_state(watching_one), await next_state(watching_other)
        rooms.publish(one, one_secret, '{"room": "one"}')
        rooms.publish(other, other_secret, '{"room": "other"}')
        assert await next_state(watching_other) == encode(2, '{"room": "other"}')
        assert await next_state(watching_one) == encode(2, '{"room": "one"}')
        await feed.close()

    run(work)


def test_the_caps_refuse_a_subscriber_and_a_closed_one_frees_its_place():
    rooms = MemoryRooms()
    one, _ = made_room(rooms)
    other, _ = made_room(rooms)

    async def work():
        feed = Feed(rooms, max_connections=3, max_per_room=2)
        first, _ = await feed.subscribe(one), await feed.subscribe(one)
        with pytest.raises(FeedFull):
            await feed.subscribe(one)  # the room's cap
        await feed.subscribe(other)
        with pytest.raises(FeedFull):
            await feed.subscribe(other)  # the process's cap
        first.close()
        assert feed.connections == 2 and feed.subscribers(one) == 1
        await feed.subscribe(one)
        await feed.close()
        assert feed.connections == 0

    run(work)


def test_an_unknown_room_is_refused_and_not_followed():
    async def work():
        feed = Feed(MemoryRooms())
        with pytest.raises(NoSuchRoom):
            await feed.subscribe("abcdefghijkl")
        assert feed.subscribers("abcdefghijkl") == 0 and feed.connections == 0
        await feed.close()

    run(work)


def test_an_idle_stream_gets_keepalives_and_a_room_that_is_gone_ends_its_streams():
    rooms = MemoryRooms()
    room, _ = made_room(rooms)

    async def work():
        feed = Feed(rooms, keepalive_seconds=0.01)
        subscription = await feed.subscribe(room)
        assert await subscription.next() == state(1)
        assert await subscription.next() == KEEPALIVE
        rooms._rooms.pop(room)  # the store forgot the room (expired)
        assert await next_state(subscription) is None
        assert subscription.closed and feed.connections == 0
        await feed.close()

    run(work)


# ----- across replicas: a real redis-server --------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_url():
    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        yield url


async def listening(rooms, listeners: int = 1) -> None:
    """Until the feeds' pub/sub connections are subscribed to the moves' channel (Redis says so)."""
    from ui.lecture.redis_moves import MOVES

    while (await asyncio.to_thread(rooms._redis.pubsub_numsub, MOVES))[0][1] < listeners:
        await asyncio.sleep(0.02)


async def no_listener_left(rooms) -> None:
    """Until an earlier test's feed has left the moves' channel (Redis drops a closed connection's subscription a
    moment later): counted from none, a new feed's subscription is the one :func:`listening` sees."""
    from ui.lecture.redis_moves import MOVES

    for _ in range(500):
        if (await asyncio.to_thread(rooms._redis.pubsub_numsub, MOVES))[0][1] == 0:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("an earlier feed still listens on the moves' channel")


def test_a_move_published_on_one_replica_reaches_a_subscriber_of_another(redis_url):
    from ui.lecture.redis_rooms import RedisRooms

    replica_a, replica_b = RedisRooms(redis_url), RedisRooms(redis_url)  # two processes' stores
    room, secret = made_room(replica_a, steps=2)

    async def work():
        await no_listener_left(replica_a)
        feed_b = Feed(replica_b, keepalive_seconds=3600)  # no periodic look: only the announcement can bring it
        subscription = await feed_b.subscribe(room)
        assert await next_state(subscription) == state(2)
        await listening(replica_a)
        for step in (3, 4, 5):
            await asyncio.to_thread(replica_a.publish, room, secret, DECK % step)
        assert await next_state(subscription) in (state(3), state(4), state(5))
        while subscription.version < 5:
            await next_state(subscription)
        assert subscription.version == 5
        await feed_b.close()

    run(work)


def test_a_move_made_while_the_listener_was_away_is_caught_when_it_is_back(redis_url):
    from ui.lecture.redis_rooms import RedisRooms

    replica_a, replica_b = RedisRooms(redis_url), RedisRooms(redis_url)
    room, secret = made_room(replica_a)

    async def work():
        await no_listener_left(replica_a)
        feed_b = Feed(replica_b, keepalive_seconds=3600)
        subscription = await feed_b.subscribe(room)
        assert await next_state(subscription) == state(1)
        await listening(replica_a)
        await asyncio.to_thread(replica_a._redis.client_kill_filter, _type="pubsub")  # the connection is lost
        await asyncio.to_thread(replica_a.publish, room, secret, DECK % 2)  # announced to nobody
        assert await next_state(subscription) == state(2)  # the listener is back and looked at the room
        await feed_b.close()

    run(work)


def test_a_state_is_rendered_once_per_language_and_a_render_overtaken_by_a_move_goes_on_to_the_newest():
    """Subscribers in a language get the state's view: one render per (version, language), the same bytes to all of
    them; a move while a render is under way is rendered next, and the older view is never sent after it."""
    rooms = MemoryRooms()
    room, secret = made_room(rooms)
    calls: list[tuple[int, str]] = []
    release = asyncio.Event()

    async def render(in_room: str, document: str, version: int, lang: str) -> str:
        assert in_room == room  # the room's own view (its explore link names it)
        calls.append((version, lang))
        if version == 1:
            await release.wait()  # the first render is slow: the lecturer moves meanwhile
        return f"{lang}:{document}"

    async def work():
        feed = Feed(rooms, render=render)
        first, second, other = (await feed.subscribe(room, "vi"), await feed.subscribe(room, "vi"),
                                await feed.subscribe(room, "ko"))
        raw = await feed.subscribe(room)
        assert await next_state(raw) == state(1)
        while len(calls) < 2:  # both renders of version 1 under way
            await asyncio.sleep(0)
        rooms.publish(room, secret, DECK % 2)
        assert await next_state(raw) == state(2)  # the move has reached the feed, the renders still wait
        release.set()
        got = [await next_state(s) for s in (first, second, other)]
        assert got[0] == encode(2, f"vi:{DECK % 2}") and got[0] is got[1]
        assert got[2] == encode(2, f"ko:{DECK % 2}")
        assert sorted(calls) == [(1, "ko"), (1, "vi"), (2, "ko"), (2, "vi")]  # one render each, none twice
        await feed.close()

    run(work)


def test_a_rooms_cap_on_streams_holds_its_whole_class_and_the_lecturers_windows():
    """The settings' cap is a number of its own (ui/settings.py sits below the rooms): it must stay above the class
    a room admits, or a full class's last students would be refused a stream."""
    from ui.lecture.rooms import MAX_STUDENTS
    from ui.settings import ROOM_STREAMS

    assert ROOM_STREAMS >= MAX_STUDENTS + 8


def test_a_student_counts_as_present_while_their_stream_is_open_and_no_longer_once_it_closed():
    """A light page's stream says its student is there every few seconds: the class's count is who has the page
    open, long after the page's load (the room forgets a student PRESENCE_SECONDS after they were last heard)."""
    from ui.lecture.rooms import PRESENCE_SECONDS

    now = [1000.0]
    rooms = MemoryRooms(clock=lambda: now[0])
    room, _ = made_room(rooms)
    said = threading.Event()
    real = rooms.attend

    def attend(in_room: str, student: str) -> bool:
        said.set()
        return real(in_room, student)

    rooms.attend = attend

    async def heard() -> None:  # bounded: a feed that never says anyone present fails here instead of hanging
        said.clear()
        async with asyncio.timeout(30):
            while not said.is_set():
                await asyncio.sleep(0.001)

    async def work():
        feed = Feed(rooms, attend_seconds=0.001)
        raw = await feed.subscribe(room)  # a tool's raw stream: no one's, counts no one
        first = await feed.subscribe(room, "en", "abcdefghijkl")
        await feed.subscribe(room, "en", "mnopqrstuvwx")
        for _ in range(3):  # the clock runs on: each round says them present again
            now[0] += PRESENCE_SECONDS - 1
            await heard()
            await heard()  # a whole round after the clock moved
            assert rooms.attendance(room) == 2
        first.close()
        for _ in range(3):  # a round under way when it closed (two calls at most) has ended
            await heard()
        now[0] += PRESENCE_SECONDS + 1  # the closed one was last heard more than PRESENCE_SECONDS ago
        await heard()
        await heard()
        assert rooms.attendance(room) == 1
        raw.close()
        await feed.close()

    run(work)


def test_a_full_class_keeps_a_connected_newcomer_out_of_the_count(monkeypatch):
    from ui.lecture import rooms as contract

    monkeypatch.setattr(contract, "MAX_STUDENTS", 1)
    rooms = MemoryRooms()
    room, _ = made_room(rooms)
    rooms.attend(room, "abcdefghijkl")

    async def work():
        feed = Feed(rooms, attend_seconds=0.001)
        await feed.subscribe(room, "en", "mnopqrstuvwx")
        for _ in range(20):
            await asyncio.sleep(0.002)
        assert rooms.attendance(room) == 1  # the room's cap holds, whatever the streams
        await feed.close()

    run(work)
