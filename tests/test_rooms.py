"""The rooms' contract, on every store: in this process, in this process and a SQLite file (the default; a restart
reads the file again: tests/test_durable_rooms.py), and in a real redis-server.

Two RedisRooms objects on one Redis stand for two replicas of the app: what one writes, the other
reads. Nothing here is mocked.
"""

from __future__ import annotations

import secrets
import time

import pytest

from tests.redis_server import redis_server_path, running_redis
from ui.lecture.memory_rooms import MemoryRooms
from ui.lecture.rooms import (
    MAX_ANSWER,
    MAX_DOCUMENT,
    MAX_POLLS,
    MAX_STUDENTS,
    PRESENCE_SECONDS,
    ROOM_SECONDS,
    TOKEN_SECONDS,
    RoomError,
    RoomsFull,
    RoomsUnavailable,
    digest,
)
from ui.lecture.sqlite_rooms import SqliteRooms

needs_redis = pytest.mark.skipif(redis_server_path() is None,
                                 reason="redis-server is not installed (make test installs Debian's)")


@pytest.fixture(scope="module")
def redis_url():
    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        yield url


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=needs_redis)])
def store(request, tmp_path):
    """(one replica's store, another replica's store): the same object in-process (in memory, or in memory and
    written through to a file)."""
    if request.param == "memory":
        rooms = MemoryRooms()
        return rooms, rooms
    if request.param == "sqlite":
        rooms = SqliteRooms(tmp_path / "rooms.sqlite3")
        return rooms, rooms
    from ui.lecture.redis_rooms import RedisRooms

    url = request.getfixturevalue("redis_url")
    return RedisRooms(url), RedisRooms(url)


def test_a_room_is_read_everywhere_and_driven_only_with_a_secret(store):
    one, other = store
    room, secret = one.create('{"a": 0}')
    assert other.read(room) == (1, '{"a": 0}') and other.version(room) == 1
    assert other.publish(room, secret, '{"a": 1}') == 2  # the lecturer's window on another replica
    assert one.read(room) == (2, '{"a": 1}')
    for wrong in ("", secret[:-1] + ("x" if secret[-1] != "x" else "y"), room, "a" * 5000):
        with pytest.raises(RoomError):
            other.publish(room, wrong, "{}")
        with pytest.raises(RoomError):
            other.issue_token(room, wrong)
    assert one.read(room) == (2, '{"a": 1}')
    for forged in ("no-such-room", "", "../../etc", "x" * 10_000, "attn:rooms"):
        assert other.version(forged) is None and other.read(forged) is None
        with pytest.raises(RoomError):
            other.publish(forged, secret, "{}")


def test_a_token_is_redeemed_once_on_any_replica(store):
    one, other = store
    room, secret = one.create("{}")
    token = one.issue_token(room, secret)
    assert secret not in token and room not in token
    assert one.issue_token(room, secret, token) == token  # the live token, while it lives
    found = other.redeem(token)  # the console's first load lands on the other replica
    assert found is not None and found[0] == room and found[1] != secret  # a secret of the console's own
    assert one.redeem(token) is None and other.redeem(token) is None  # used
    assert one.publish(room, found[1], "{}") == 2 and other.publish(room, secret, "{}") == 3  # both drive
    assert one.issue_token(room, secret, token) != token  # a used token is not handed out again
    older = one.issue_token(room, secret)
    newer = one.issue_token(room, secret)  # without the current token: a new one, the old one void
    assert other.redeem(older) is None and other.redeem(newer) is not None
    for hostile in ("", "x" * 10_000, None, 42):
        assert other.redeem(hostile) is None


def test_only_the_latest_consoles_keep_driving(store):
    one, other = store
    room, secret = one.create("{}")
    consoles = [other.redeem(one.issue_token(room, secret))[1] for _ in range(10)]
    with pytest.raises(RoomError):
        one.publish(room, consoles[0], "{}")  # the oldest consoles were let go
    assert one.publish(room, consoles[-1], "{}") and other.publish(room, secret, "{}")


def test_a_store_keeps_no_secret_in_plain(store):
    one, _ = store
    room, secret = one.create("{}")
    console = one.redeem(one.issue_token(room, secret))[1]
    token = one.issue_token(room, secret)
    if isinstance(one, MemoryRooms):
        kept = repr(vars(one)) + repr(list(vars(one)["_rooms"].values()))
    else:
        db = one._redis
        kept = repr({key: db.dump(key) for key in db.keys("attn:*")})
    assert secret not in kept and console not in kept and token not in kept
    assert digest(secret).hex() in kept or repr(digest(secret)) in kept  # (what the store keeps instead)


def test_a_driver_is_known_by_its_secret_and_nothing_else(store):
    one, other = store
    room, secret = one.create("{}")
    console = other.redeem(one.issue_token(room, secret))[1]
    assert one.is_driver(room, secret) and other.is_driver(room, console)  # a reloaded window takes its seat back
    other_room, other_secret = one.create("{}")
    for wrong in ("", secret[:-1] + ("x" if secret[-1] != "x" else "y"), other_secret, room, "a" * 5000, None, 42,
                  secret + "x", "ä" * 32):
        assert not one.is_driver(room, wrong)
    for forged in ("no-such-room", "", "x" * 10_000, None, other_room[:-1] + "!"):
        assert not other.is_driver(forged, secret)
    consoles = [other.redeem(one.issue_token(room, secret))[1] for _ in range(10)]
    assert not one.is_driver(room, console) and one.is_driver(room, consoles[-1])  # let go with the oldest
    assert one.is_driver(room, secret)  # the creator's (the projection's) never is


def test_a_document_too_large_is_refused(store):
    one, _ = store
    with pytest.raises(RoomError):
        one.create("x" * (MAX_DOCUMENT + 1))
    room, secret = one.create("{}")
    with pytest.raises(RoomError):
        one.publish(room, secret, "x" * (MAX_DOCUMENT + 1))
    assert one.read(room) == (1, "{}")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_memory_store_expires_tokens_caps_rooms_and_forgets_them():
    clock = Clock()
    rooms = MemoryRooms(max_rooms=3, clock=clock)
    room, secret = rooms.create("{}")
    token = rooms.issue_token(room, secret)
    clock.now += TOKEN_SECONDS + 1
    assert rooms.redeem(token) is None
    made = [rooms.create("{}")[0] for _ in range(2)]
    with pytest.raises(RoomsFull):  # a full server says so: an open lecture is never pushed out
        rooms.create("{}")
    assert all(rooms.version(r) == 1 for r in [room, *made]) and len(rooms) == 3
    clock.now += ROOM_SECONDS + 3600
    rooms.create("{}")  # a room no window touched for hours is gone, and its place is free
    assert all(rooms.version(r) is None for r in made) and len(rooms) == 1


@needs_redis
def test_the_redis_store_caps_rooms_and_lets_redis_forget_them(redis_url):
    from ui.lecture.redis_rooms import RedisRooms

    rooms = RedisRooms(redis_url, max_rooms=3)
    rooms._redis.flushdb()
    made = [rooms.create("{}")[0] for _ in range(3)]
    with pytest.raises(RoomsFull):
        rooms.create("{}")
    assert [rooms.version(r) for r in made] == [1, 1, 1] and len(rooms) == 3
    assert 0 < rooms._redis.ttl(f"attn:room:{made[-1]}") <= ROOM_SECONDS


def test_an_unreachable_redis_is_said_as_such():
    from tests.redis_server import _free_port
    from ui.lecture.redis_rooms import RedisRooms

    rooms = RedisRooms(f"redis://127.0.0.1:{_free_port()}/0")  # nothing listens there
    with pytest.raises(RoomsUnavailable):
        rooms.version("abcdefghijkl")
    with pytest.raises(RoomsUnavailable):
        rooms.create("{}")


def test_a_class_is_counted_on_every_replica_and_capped(store):
    one, other = store
    room, _ = one.create("{}")
    students = [secrets.token_urlsafe(9) for _ in range(MAX_STUDENTS)]
    assert all(one.attend(room, s) if i % 2 else other.attend(room, s) for i, s in enumerate(students))
    assert one.attendance(room) == other.attendance(room) == MAX_STUDENTS
    assert other.attend(room, students[0])  # one who is in stays in (the window says so every few seconds)
    assert not one.attend(room, secrets.token_urlsafe(9))  # one more is told the class is full
    assert other.attendance(room) == MAX_STUDENTS


def test_joins_from_nowhere_are_refused(store):
    one, _ = store
    room, _ = one.create("{}")
    for bad_room in ["", "x" * 13, "abcdefghijk!", "ä" * 12, None, 12, ["abcdefghijkl"], one.create("{}")[0][:-1]]:
        with pytest.raises(RoomError):
            one.attend(bad_room, secrets.token_urlsafe(9))
        assert one.version(bad_room) is None and one.read(bad_room) is None and one.attendance(bad_room) == 0
    for bad_student in ["", "s" * 10_000, None, 3.5, {"id": 1}]:
        with pytest.raises(RoomError):
            one.attend(room, bad_student)
    assert one.attendance(room) == 0


def test_ten_thousand_joins_leave_the_store_small():
    rooms = MemoryRooms()
    room, _ = rooms.create("{}")
    admitted = sum(rooms.attend(room, secrets.token_urlsafe(9)) for _ in range(10_000))
    assert admitted == MAX_STUDENTS and rooms.attendance(room) == MAX_STUDENTS
    assert len(rooms._rooms[room].present) == MAX_STUDENTS  # the refused left nothing behind


def test_students_who_left_make_room_for_others():
    clock = Clock()
    rooms = MemoryRooms(clock=clock)
    room, _ = rooms.create("{}")
    assert all(rooms.attend(room, secrets.token_urlsafe(9)) for _ in range(MAX_STUDENTS))
    clock.now += PRESENCE_SECONDS + 1  # the whole class closed its laptops
    assert rooms.attendance(room) == 0
    assert rooms.attend(room, secrets.token_urlsafe(9)) and rooms.attendance(room) == 1


@needs_redis
def test_ten_thousand_joins_leave_redis_small(redis_url):
    from ui.lecture.redis_rooms import RedisRooms

    rooms = RedisRooms(redis_url)
    room, _ = rooms.create("{}")
    admitted = []
    with rooms._redis.pipeline(transaction=False) as pipe:  # one round trip per 1,000 joins
        for _ in range(10):
            for _ in range(1000):
                rooms._attend(keys=[rooms._room_key(room), rooms._class_key(room)],
                              args=[secrets.token_urlsafe(9), time.time(), PRESENCE_SECONDS,
                                    MAX_STUDENTS, ROOM_SECONDS], client=pipe)
            admitted += pipe.execute()
    assert rooms.attendance(room) == MAX_STUDENTS and rooms._redis.zcard(rooms._class_key(room)) == MAX_STUDENTS
    assert not rooms.attend(room, secrets.token_urlsafe(9))
    assert admitted.count(1) == MAX_STUDENTS and admitted.count(0) == 10_000 - MAX_STUDENTS
    assert 0 < rooms._redis.ttl(rooms._class_key(room)) <= ROOM_SECONDS


# ----- class polls: answers beside the attendance ----------------------------------------------------


def test_a_poll_takes_one_answer_per_present_student_on_any_replica(store):
    one, other = store
    room, secret = one.create("{}")
    students = [secrets.token_urlsafe(9) for _ in range(3)]
    for s in students:
        other.attend(room, s)
    poll = one.open_poll(room, secret)
    assert poll == 1
    assert other.answer(room, students[0], poll, "0.9544")  # students on the other replica
    assert one.answer(room, students[1], poll, "0.1385")
    assert other.answer(room, students[1], poll, "0.9544")  # a new answer replaces the old one
    assert not one.answer(room, secrets.token_urlsafe(9), poll, "1.0")  # not in the class
    assert not one.answer(room, students[2], poll + 1, "1.0")  # not the poll open now
    assert one.answers(room, poll) == other.answers(room, poll) == {students[0]: "0.9544", students[1]: "0.9544"}
    one.stop_poll(room, secret)  # revealed: no more answers, those given stay
    assert not other.answer(room, students[2], poll, "2.0")
    assert len(other.answers(room, poll)) == 2
    assert other.open_poll(room, secret) == 2 and one.answers(room, 2) == {} and one.answers(room, 1) == {}
    assert one.answer(room, students[2], 2, "6,6")
    one.stop_poll(room, secret, clear=True)  # the lecturer clears them
    assert other.answers(room, 2) == {}


def test_only_the_lecturer_opens_or_stops_a_poll_and_polls_are_capped(store):
    one, other = store
    room, secret = one.create("{}")
    for wrong in ("", secret[:-1] + ("x" if secret[-1] != "x" else "y"), None):
        with pytest.raises(RoomError):
            other.open_poll(room, wrong)
        with pytest.raises(RoomError):
            other.stop_poll(room, wrong, clear=True)
    for _ in range(MAX_POLLS):
        one.open_poll(room, secret)
    with pytest.raises(RoomError):
        other.open_poll(room, secret)


def test_hostile_answers_are_refused_and_store_nothing(store):
    one, other = store
    room, secret = one.create("{}")
    student = secrets.token_urlsafe(9)
    one.attend(room, student)
    poll = one.open_poll(room, secret)
    for text in ("", "x" * (MAX_ANSWER + 1), None, 3.5, ["0.5"], {"a": 1}):
        with pytest.raises(RoomError):
            other.answer(room, student, poll, text)
    for number in (0, -1, True, "1", 1.0, MAX_POLLS + 1, None):
        with pytest.raises(RoomError):
            other.answer(room, student, number, "0.5")
    for bad in ("", "s" * 10_000, None, "attn:rooms"):
        with pytest.raises(RoomError):
            other.answer(room, bad, poll, "0.5")
        with pytest.raises(RoomError):
            other.answer(bad, student, poll, "0.5")
    assert one.answers(room, poll) == {}
    assert one.answers("no-such-room", poll) == {} and one.answers(room, "1") == {}


def test_a_publish_over_a_version_it_has_not_seen_writes_nothing(store):
    one, other = store
    room, secret = one.create('{"a": 0}')
    assert one.publish(room, secret, '{"a": 1}', expected=1) == 2  # one window, up to date
    assert other.publish(room, secret, '{"a": 9}', expected=1) is None  # another, a version behind
    assert one.read(room) == (2, '{"a": 1}')
    assert other.publish(room, secret, '{"a": 2}', expected=2) == 3  # once it has seen version 2
    assert one.publish(room, secret, '{"a": 3}') == 4  # without expected: as before
    with pytest.raises(RoomError):
        other.publish(room, "wrong", "{}", expected=4)
