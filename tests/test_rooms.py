"""The rooms' contract, on every store: in this process, in this process and a SQLite file (the default; a restart
reads the file again: tests/test_durable_rooms.py), and in a real redis-server.

Two RedisRooms objects on one Redis stand for two replicas of the app: what one writes, the other
reads. Nothing here is mocked.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

import pytest

from tests.redis_server import redis_server_path, running_redis
from ui.lecture import rooms as contract
from ui.lecture import store as process_store
from ui.lecture.memory_rooms import MemoryRooms
from ui.lecture.rooms import (
    MAX_ANSWER,
    MAX_DOCUMENT,
    MAX_POLLS,
    MAX_RECORD_CHARS,
    MAX_SENDS,
    MAX_SENT,
    MAX_SENT_CHARS,
    MAX_STUDENTS,
    PRESENCE_SECONDS,
    ROOM_SECONDS,
    SENDS_PER_MINUTE,
    TOKEN_SECONDS,
    RoomError,
    RoomsFull,
    RoomsUnavailable,
    SendRefused,
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


# ----- explorations a student sends, and the lesson record ------------------------------------------


def _class(rooms, room: str, n: int) -> list[str]:
    """``n`` students who said they are in the room just now."""
    students = [secrets.token_urlsafe(9) for _ in range(n)]
    assert all(rooms.attend(room, s) for s in students)
    return students


def _refused(call) -> str:
    """Why a send was refused (SendRefused's reason)."""
    with pytest.raises(SendRefused) as refused:
        call()
    return refused.value.reason


def _redis_keys(rooms, room: str) -> dict[str, int]:
    """A RedisRooms' keys about ``room``, each with the bytes Redis holds for it."""
    db = rooms._redis
    return {key: db.memory_usage(key) for key in db.scan_iter(f"attn:*{room}*")}


def test_students_send_and_the_lecturer_reads_them_on_another_replica(store):
    one, other = store
    room, secret = one.create("{}")
    first, second = _class(other, room, 2)
    assert one.send(room, first, '{"page": "a"}') == (1, 1)
    assert one.send(room, second, '{"page": "b"}') == (2, 2)
    assert other.sent(room, secret) == [(2, 2, '{"page": "b"}'), (1, 1, '{"page": "a"}')]  # newest first
    assert one.send(room, first, '{"page": "c"}') == (3, 1)  # the same student, the same number
    assert [(n, who) for n, who, _ in other.sent(room, secret)] == [(3, 1), (2, 2), (1, 1)]
    console = other.redeem(one.issue_token(room, secret))[1]
    assert one.sent(room, console) == other.sent(room, secret)  # every driver reads them
    assert other.sent(room, secret, limit=1) == [(3, 1, '{"page": "c"}')]  # the newest only (the console's watch)
    assert other.sent(room, secret, limit=0) == other.sent(room, secret, limit=1)
    assert len(other.sent(room, secret, limit=10_000)) == 3


def test_only_a_driver_reads_what_was_sent_or_keeps_the_record(store):
    one, other = store
    room, secret = one.create("{}")
    other_room, other_secret = one.create("{}")
    (student,) = _class(one, room, 1)
    one.send(room, student, "{}")
    assert one.keep(room, secret, "step 1")
    for wrong in ("", secret[:-1] + ("x" if secret[-1] != "x" else "y"), "a" * 5000, None, 42, other_secret, room,
                  student):  # a student's id never drives
        with pytest.raises(RoomError):
            other.sent(room, wrong)
        with pytest.raises(RoomError):
            other.kept(room, wrong)
        with pytest.raises(RoomError):
            other.keep(room, wrong, "forged")
    for forged in ("../x", "no-such-room", "", "x" * 10_000, None, ["a"], "attn:rooms", other_room[:-1] + "!"):
        with pytest.raises(RoomError):
            other.sent(forged, secret)
        with pytest.raises(RoomError):
            other.keep(forged, secret, "forged")
        with pytest.raises(RoomError):
            other.kept(forged, secret)
    assert other.kept(room, secret) == ["step 1"] and len(other.sent(room, secret)) == 1
    assert other.kept(other_room, other_secret) == [] and other.sent(other_room, other_secret) == []


def test_a_student_not_in_the_class_cannot_send(store):
    one, other = store
    room, secret = one.create("{}")
    assert _refused(lambda: other.send(room, secrets.token_urlsafe(9), "{}")) == "absent"  # never attended
    (student,) = _class(one, room, 1)
    elsewhere, _ = one.create("{}")
    assert _refused(lambda: other.send(elsewhere, student, "{}")) == "absent"  # in another room's class
    assert other.sent(room, secret) == []


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_student_who_left_cannot_send(kind, tmp_path):
    clock = Clock()
    rooms = MemoryRooms(clock=clock) if kind == "memory" else SqliteRooms(tmp_path / "rooms.sqlite3", clock=clock)
    room, secret = rooms.create("{}")
    (student,) = _class(rooms, room, 1)
    clock.now += PRESENCE_SECONDS + 1  # their window stopped saying it is there
    assert _refused(lambda: rooms.send(room, student, "{}")) == "absent"
    assert rooms.attend(room, student) and rooms.send(room, student, "{}") == (1, 1)  # back in class


def test_a_student_sends_a_few_a_minute(store):
    one, other = store
    room, secret = one.create("{}")
    student, classmate = _class(one, room, 2)
    assert [other.send(room, student, f"{i}")[0] for i in range(SENDS_PER_MINUTE)] == [*range(1, SENDS_PER_MINUTE + 1)]
    assert _refused(lambda: one.send(room, student, "one more")) == "busy"
    assert other.send(room, classmate, "mine") == (SENDS_PER_MINUTE + 1, 2)  # the rate is each student's own
    assert len(one.sent(room, secret)) == SENDS_PER_MINUTE + 1


def test_a_minute_later_a_student_sends_again():
    clock = Clock()
    rooms = MemoryRooms(clock=clock)
    room, secret = rooms.create("{}")
    (student,) = _class(rooms, room, 1)
    rooms.send(room, student, "{}")
    clock.now += 30
    rooms.attend(room, student)  # the window's heartbeat, every few seconds
    for _ in range(SENDS_PER_MINUTE - 1):
        rooms.send(room, student, "{}")
    assert _refused(lambda: rooms.send(room, student, "{}")) == "busy"
    clock.now += 31  # 61 s after the first send, 31 s after the others
    rooms.attend(room, student)
    assert rooms.send(room, student, "{}") == (SENDS_PER_MINUTE + 1, 1)  # the first one's place is free
    assert _refused(lambda: rooms.send(room, student, "{}")) == "busy"  # the others are still within the minute
    clock.now += 30
    rooms.attend(room, student)
    assert [rooms.send(room, student, "{}")[0] for _ in range(SENDS_PER_MINUTE - 1)] == \
        [*range(SENDS_PER_MINUTE + 2, 2 * SENDS_PER_MINUTE + 1)]
    assert len(rooms._rooms[room].sends[student]) == SENDS_PER_MINUTE  # the times kept stay few


def test_a_thousand_sends_from_one_student_keep_a_few(store):
    one, other = store
    room, secret = one.create("{}")
    (student,) = _class(one, room, 1)
    reasons = []
    for i in range(1000):
        try:
            other.send(room, student, f'{{"i": {i}}}')
        except SendRefused as refused:
            reasons.append(refused.reason)
    assert reasons == ["busy"] * (1000 - SENDS_PER_MINUTE)
    assert [doc for _, _, doc in one.sent(room, secret)] == [f'{{"i": {i}}}' for i in reversed(range(SENDS_PER_MINUTE))]


def test_a_thousand_sends_from_a_class_fill_the_room_and_no_more(store):
    one, other = store
    room, secret = one.create("{}")
    students = _class(one, room, 250)
    taken, reasons = [], []
    for i in range(1000):  # each student in turn, four times round
        try:
            taken.append((one if i % 2 else other).send(room, students[i % 250], f"{i}"))
        except SendRefused as refused:
            reasons.append(refused.reason)
    assert [n for n, _ in taken] == [*range(1, MAX_SENDS + 1)] and reasons == ["full"] * (1000 - MAX_SENDS)
    assert [who for _, who in taken] == [*range(1, MAX_SENDS + 1)]  # each a new student, numbered in turn
    kept = other.sent(room, secret)
    assert [n for n, _, _ in kept] == [*range(MAX_SENDS, MAX_SENDS - MAX_SENT, -1)]  # the newest MAX_SENT
    assert _refused(lambda: one.send(room, students[-1], "late")) == "full"  # one who never sent: full too
    if not isinstance(one, MemoryRooms):
        keys = _redis_keys(one, room)  # the room, its class, explorations, senders and their times
        assert len(keys) == 5 and sum(keys.values()) < 200_000, keys
        assert one._redis.llen(one._sent_key(room)) == MAX_SENT
        assert all(0 < one._redis.ttl(key) <= ROOM_SECONDS for key in keys)
    else:
        found = one._rooms[room]
        assert len(found.sent) == MAX_SENT and len(found.senders) == len(found.sends) == MAX_SENDS


def test_lowered_caps_are_read_at_each_send(store, monkeypatch):
    one, other = store
    room, secret = one.create("{}")
    monkeypatch.setattr(contract, "MAX_SENDS", 20)
    monkeypatch.setattr(contract, "MAX_SENT", 5)
    students = _class(one, room, 10)
    taken = []
    for i in range(100):
        try:
            taken.append(other.send(room, students[i % 10], "{}")[0])
        except SendRefused as refused:
            assert refused.reason == "full"
    assert taken == [*range(1, 21)] and [n for n, _, _ in one.sent(room, secret)] == [20, 19, 18, 17, 16]


def test_hostile_sends_are_refused_and_store_nothing(store):
    one, other = store
    room, secret = one.create("{}")
    (student,) = _class(one, room, 1)
    for document in (None, 42, b"{}", ["{}"], {"a": 1}, "", "x" * (MAX_SENT_CHARS + 1)):
        with pytest.raises(RoomError) as refused:
            other.send(room, student, document)
        assert not isinstance(refused.value, SendRefused)
    for bad in ("", "s" * 10_000, None, 3.5, "attn:rooms", "../x"):
        with pytest.raises(RoomError) as refused:
            other.send(room, bad, "{}")
        assert not isinstance(refused.value, SendRefused)
    for forged in ("../x", "no-such-room", "", "x" * 10_000, None, ["a"], "attn:rooms", one.create("{}")[0][:-1]):
        with pytest.raises(RoomError) as refused:
            other.send(forged, student, "{}")
        assert not isinstance(refused.value, SendRefused)
    assert one.sent(room, secret) == []
    if not isinstance(one, MemoryRooms):
        assert sorted(_redis_keys(one, room)) == [f"attn:class:{room}", f"attn:room:{room}"]
    hostile = '{"note": "\\"quoted\\" \\u0000 </script><script>alert(1)</script>",\n"x": "\u00e9\U0001F600\u2028"}' \
        + "\r\n\x00\ud800 ]\",1]"
    assert one.send(room, student, hostile) == (1, 1)
    longest = "y" * MAX_SENT_CHARS
    assert one.send(room, student, longest) == (2, 1)
    assert other.sent(room, secret) == [(2, 1, longest), (1, 1, hostile)]  # exactly as sent


def test_the_lesson_record_keeps_entries_in_order_up_to_its_cap(store, monkeypatch):
    one, other = store
    room, secret = one.create("{}")
    monkeypatch.setattr(contract, "MAX_RECORD", 7)
    entries = [f"entry {i}" for i in range(6)] + ['"quoted"\n<script>\U0001F600\ud800']
    assert all((one if i % 2 else other).keep(room, secret, e) for i, e in enumerate(entries))
    assert not one.keep(room, secret, "one too many") and not other.keep(room, secret, "x")
    assert other.kept(room, secret) == one.kept(room, secret) == entries
    for entry in ("", "x" * (MAX_RECORD_CHARS + 1), None, 42, ["a"]):
        with pytest.raises(RoomError):
            one.keep(room, secret, entry)
    assert one.kept(room, secret) == entries
    monkeypatch.setattr(contract, "MAX_RECORD", 8)
    assert one.keep(room, secret, "z" * MAX_RECORD_CHARS) and one.kept(room, secret)[-1] == "z" * MAX_RECORD_CHARS


def test_a_room_that_is_gone_takes_its_explorations_and_record_along():
    clock = Clock()
    rooms = MemoryRooms(clock=clock)
    room, secret = rooms.create("{}")
    (student,) = _class(rooms, room, 1)
    rooms.send(room, student, '{"a": 1}')
    rooms.keep(room, secret, "step 1")
    clock.now += ROOM_SECONDS + 1
    rooms.create("{}")  # a new room makes the store forget those no window touched for hours
    assert room not in rooms._rooms and len(rooms) == 1
    with pytest.raises(RoomError):
        rooms.sent(room, secret)
    with pytest.raises(RoomError):
        rooms.kept(room, secret)
    with pytest.raises(RoomError) as refused:
        rooms.send(room, student, "{}")
    assert not isinstance(refused.value, SendRefused)


@needs_redis
def test_the_redis_inbox_and_record_expire_with_the_room(redis_url):
    from ui.lecture.redis_rooms import RedisRooms

    rooms = RedisRooms(redis_url)
    room, secret = rooms.create("{}")
    (student,) = _class(rooms, room, 1)
    rooms.send(room, student, "{}")
    rooms.keep(room, secret, "step 1")
    keys = _redis_keys(rooms, room)
    assert len(keys) == 6 and all(0 < rooms._redis.ttl(key) <= ROOM_SECONDS for key in keys)
    rooms._redis.delete(rooms._room_key(room))  # Redis forgot the room (its time ran out first)
    with pytest.raises(RoomError):
        rooms.sent(room, secret)
    with pytest.raises(RoomError) as refused:
        rooms.send(room, student, "{}")
    assert not isinstance(refused.value, SendRefused)
    with pytest.raises(RoomError):
        rooms.keep(room, secret, "step 2")


def test_the_routes_worker_threads_share_the_processs_rooms_and_log_nothing(caplog):
    """The event stream, the activity and the light page ask for the rooms from the server's worker threads, where
    no Streamlit run is: one store for all of them (two in-process stores would split the rooms), and no warning."""
    found: list[object] = []
    threads = [threading.Thread(target=lambda: found.append(process_store.rooms()), name="AnyIO worker thread")
               for _ in range(8)]
    with caplog.at_level(logging.WARNING):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(found) == 8 and len({id(rooms) for rooms in found}) == 1 and found[0] is process_store.rooms()
    assert not [r for r in caplog.records if "ScriptRunContext" in r.getMessage()]
