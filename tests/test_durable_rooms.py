"""The default store's file: a restart (a second store on the same file) finds every room as it was, and the file
is read like anything a client sends: a forged or broken one costs rooms, never the server.

The contract itself runs on this store in tests/test_rooms.py. Every file here is in a test's own folder. One store
holds its file at a time (a second server's keeps its rooms in memory): a restart here drops the store before.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading

import pytest

from ui.lecture import rooms as contract
from ui.lecture import sqlite_rooms, sqlite_rows
from ui.lecture.rooms import (
    MAX_DOCUMENT,
    MAX_RECORD,
    MAX_RECORD_CHARS,
    MAX_SENDS,
    MAX_SENT,
    MAX_SENT_CHARS,
    ROOM_SECONDS,
    SENDS_PER_MINUTE,
    TOKEN_SECONDS,
    RoomError,
    SendRefused,
    digest,
)
from ui.lecture.sqlite_rooms import DEFAULT_FILE, SqliteRooms, rooms_file


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def path(tmp_path):
    return tmp_path / "rooms.sqlite3"


def test_a_restart_finds_the_rooms_their_decks_versions_secrets_token_and_poll(path):
    before = SqliteRooms(path)
    room, secret = before.create('{"a": 0}')
    console = before.redeem(before.issue_token(room, secret))[1]
    token = before.issue_token(room, secret)  # the projection's next console link, not used yet
    assert before.publish(room, console, '{"a": 1, "clock": 12.5}') == 2
    student = secrets.token_urlsafe(9)
    before.attend(room, student)
    poll = before.open_poll(room, secret)
    assert before.answer(room, student, poll, "0.9544")
    quiet, _ = before.create("{}")
    del before  # the server stops (nothing is closed on purpose: a SIGTERM does not ask)

    after = SqliteRooms(path)  # the server starts again on the same file
    assert after.read(room) == (2, '{"a": 1, "clock": 12.5}') and after.version(quiet) == 1 and len(after) == 2
    assert after.is_driver(room, secret) and after.is_driver(room, console)  # reloaded windows take their seats
    assert after.publish(room, secret, '{"a": 2}', expected=2) == 3
    assert after.answers(room, poll) == {student: "0.9544"}
    assert after.attendance(room) == 0 and after.attend(room, student)  # the class says it is there again
    assert after.answer(room, student, poll, "1.0")  # the poll still takes answers
    assert after.open_poll(room, secret) == poll + 1  # polls go on numbering
    assert after.redeem(token)[0] == room and after.redeem(token) is None  # the live token, once
    del after
    assert SqliteRooms(path).read(room) == (3, '{"a": 2}')  # and a third start sees what the second wrote


def test_the_file_keeps_no_secret_in_plain_and_only_its_owner_reads_it(path):
    rooms = SqliteRooms(path)
    room, secret = rooms.create("{}")
    console = rooms.redeem(rooms.issue_token(room, secret))[1]
    token = rooms.issue_token(room, secret)
    kept = b"".join(p.read_bytes() for p in path.parent.iterdir())  # the file, its write-ahead log and index
    assert digest(secret) in kept and room.encode() in kept
    assert not any(s.encode() in kept for s in (secret, console, token))
    assert path.stat().st_mode & 0o077 == 0


def test_rooms_idle_for_hours_leave_the_file(path):
    clock = Clock()
    rooms = SqliteRooms(path, clock=clock)
    old, _ = rooms.create("{}")
    clock.now += ROOM_SECONDS / 2
    kept, secret = rooms.create("{}")
    clock.now += ROOM_SECONDS / 2 + 60
    rooms.create("{}")  # making a room forgets the idle ones, in memory and in the file
    assert rooms.version(old) is None and rooms.version(kept) == 1
    assert [r for (r,) in sqlite3.connect(path).execute("SELECT id FROM rooms")].count(old) == 0
    clock.now += ROOM_SECONDS / 2 + 60
    del rooms
    later = SqliteRooms(path, clock=clock)  # a restart after hours: the room idle since is gone too
    assert later.version(kept) is None and len(later) == 1


def test_a_room_read_all_lecture_long_is_not_forgotten_by_a_restart(path):
    clock = Clock()
    rooms = SqliteRooms(path, clock=clock)
    room, _ = rooms.create("{}")
    student = secrets.token_urlsafe(9)
    for _ in range(10):  # five hours of a class following, and nobody publishing
        clock.now += ROOM_SECONDS / 8
        rooms.attend(room, student)
        rooms.read(room)
    del rooms
    assert SqliteRooms(path, clock=clock).version(room) == 1


def test_a_token_that_expired_while_the_server_was_down_is_void(path):
    clock = Clock()
    rooms = SqliteRooms(path, clock=clock)
    room, secret = rooms.create("{}")
    token = rooms.issue_token(room, secret)
    clock.now += TOKEN_SECONDS + 1
    del rooms
    assert SqliteRooms(path, clock=clock).redeem(token) is None


@pytest.mark.parametrize("garbage", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 5000])
def test_a_corrupt_file_is_moved_aside_and_the_server_starts_with_no_rooms(path, garbage, caplog):
    path.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        rooms = SqliteRooms(path)
    assert len(rooms) == 0 and "cannot be read" in caplog.text
    assert path.with_name(path.name + ".corrupt").read_bytes() == garbage  # kept for whoever looks into it
    room, secret = rooms.create("{}")  # and the new file works
    del rooms
    assert SqliteRooms(path).is_driver(room, secret)


def test_a_rooms_table_of_another_shape_is_moved_aside(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rooms (id TEXT PRIMARY KEY, evil TEXT)")
        db.execute("INSERT INTO rooms VALUES ('abcdefghijkl', 'x')")
    rooms = SqliteRooms(path)
    assert len(rooms) == 0 and path.with_name(path.name + ".corrupt").exists()
    room, _ = rooms.create("{}")
    del rooms
    assert SqliteRooms(path).version(room) == 1


def test_forged_rows_are_refused_one_by_one_and_leave_the_file(path, caplog):
    rooms = SqliteRooms(path)
    good, secret = rooms.create('{"a": 1}')
    row = list(sqlite3.connect(path).execute(f"SELECT {sqlite_rows.COLUMNS} FROM rooms").fetchone())
    forged = {  # column -> a value this store never writes
        0: "x" * 12 + "!", 1: b"\x00" * 31, 2: "x" * (MAX_DOCUMENT + 1), 3: 0, 4: "yesterday", 5: b"\x01" * 5,
        6: float("inf"), 7: -1, 8: 2, 9: json.dumps({"not a student": "1"}),
    }
    with sqlite3.connect(path) as db:
        for column, value in forged.items():
            bad = [secrets.token_urlsafe(9), *row[1:]]
            bad[column] = value
            db.execute(f"INSERT INTO rooms ({sqlite_rows.COLUMNS}) VALUES ({sqlite_rows.PLACES})", bad)
        db.execute(f"INSERT INTO rooms ({sqlite_rows.COLUMNS}) VALUES ({sqlite_rows.PLACES})",
                   [secrets.token_urlsafe(9), *row[1:9], "[" * 100_000, *row[10:]])  # answers too long to parse
    del rooms
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        later = SqliteRooms(path)
    assert len(later) == 1 and later.read(good) == (1, '{"a": 1}') and later.is_driver(good, secret)
    assert sqlite3.connect(path).execute("SELECT count(*) FROM rooms").fetchone() == (1,)


def test_a_file_that_cannot_be_written_leaves_the_rooms_in_memory(tmp_path, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        rooms = SqliteRooms(blocker / "rooms.sqlite3")  # its folder cannot be made
    room, secret = rooms.create("{}")
    assert rooms.publish(room, secret, "{}") == 2 and "memory" in caplog.text
    with pytest.raises(RoomError):
        rooms.publish(room, "wrong", "{}")


def test_the_file_is_named_by_its_address_and_is_beside_the_app_by_default(tmp_path):
    assert rooms_file(None) == DEFAULT_FILE and DEFAULT_FILE.parent == sqlite_rooms.Path(__file__).parents[1]
    assert rooms_file(f"sqlite://{tmp_path}/r.sqlite3") == tmp_path / "r.sqlite3"
    assert rooms_file("sqlite://rooms/r.sqlite3") == DEFAULT_FILE.parent / "rooms" / "r.sqlite3"


def test_the_tests_app_keeps_its_rooms_in_memory():
    from ui.settings import rooms_url

    assert rooms_url() == "memory"  # tests/conftest.py: the app the tests run never writes the repository's file


def test_many_sessions_writing_at_once_leave_the_file_as_memory_holds_it(path):
    rooms = SqliteRooms(path)
    room, secret = rooms.create("{}")
    students = [secrets.token_urlsafe(9) for _ in range(40)]
    poll = rooms.open_poll(room, secret)

    def session(rooms: SqliteRooms, i: int) -> None:  # a lecturer's window publishing, or a student answering
        for n in range(25):
            if i < 4:
                rooms.publish(room, secret, json.dumps({"window": i, "n": n}))
            else:
                rooms.attend(room, students[i])
                rooms.read(room)
                rooms.answer(room, students[i], poll, str(n))

    threads = [threading.Thread(target=session, args=(rooms, i)) for i in range(len(students))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert rooms.version(room) == 1 + 4 * 25
    held = rooms.read(room), rooms.answers(room, poll)
    del rooms
    later = SqliteRooms(path)
    assert (later.read(room), later.answers(room, poll)) == held
    assert len(later.answers(room, poll)) == len(students) - 4


@pytest.mark.parametrize("forged", [
    "CREATE TRIGGER spy AFTER INSERT ON rooms BEGIN DELETE FROM rooms; END",  # a trigger on the real table
    "CREATE TABLE other (x)",  # anything beside the rooms' table
])
def test_a_file_whose_schema_holds_more_than_the_rooms_table_is_moved_aside(path, forged, caplog):
    room, _ = SqliteRooms(path).create("{}")
    with sqlite3.connect(path) as db:
        db.execute(forged)
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        rooms = SqliteRooms(path)
    assert len(rooms) == 0 and rooms.version(room) is None and "schema" in caplog.text
    assert path.with_name(path.name + ".corrupt").exists()
    made, secret = rooms.create("{}")  # the new file has the rooms' table alone, and works
    del rooms
    with sqlite3.connect(path) as db:
        assert {n for (n,) in db.execute("SELECT name FROM sqlite_master")} == {"rooms", "sqlite_autoindex_rooms_1"}
    assert SqliteRooms(path).is_driver(made, secret)


def test_a_file_where_rooms_is_a_view_is_moved_aside(path, caplog):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE hidden (id TEXT, drivers BLOB, document TEXT, version INTEGER, touched REAL, "
                   "token BLOB, token_until REAL, poll INTEGER, taking INTEGER, answers TEXT, taken INTEGER, "
                   "senders TEXT, sent TEXT, record TEXT)")
        db.execute(f"CREATE VIEW rooms AS SELECT {sqlite_rows.COLUMNS} FROM hidden")
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        rooms = SqliteRooms(path)
    assert len(rooms) == 0 and "schema" in caplog.text and path.with_name(path.name + ".corrupt").exists()
    room, _ = rooms.create("{}")
    del rooms
    assert SqliteRooms(path).version(room) == 1


def test_the_files_log_and_index_are_its_owners_only_too(path):
    umask = os.umask(0o022)  # a usual umask: files readable by all
    try:
        rooms = SqliteRooms(path)
        rooms.create("{}")
        assert os.umask(0o022) == 0o022  # the process's umask is given back
    finally:
        os.umask(umask)
    made = [path.with_name(path.name + extra) for extra in ("", "-wal", "-shm", ".lock")]
    assert all(p.exists() and p.stat().st_mode & 0o077 == 0 for p in made)


def test_a_second_server_on_the_same_file_keeps_its_rooms_in_memory(path, caplog):
    first = SqliteRooms(path)
    kept, secret = first.create('{"a": 1}')
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        second = SqliteRooms(path)
    assert "second server" in caplog.text and "ATTENTION_ROOMS=redis://" in caplog.text
    assert second.version(kept) is None  # it did not read the file (nor trim it)
    own, own_secret = second.create("{}")
    assert second.publish(own, own_secret, "{}") == 2  # it works, in memory
    assert first.publish(kept, secret, '{"a": 2}') == 2  # and the first one still writes the file
    ids = {r for (r,) in sqlite3.connect(path).execute("SELECT id FROM rooms")}
    assert kept in ids and own not in ids
    del first, second
    assert SqliteRooms(path).read(kept) == (2, '{"a": 2}')  # the lock went with its store


@pytest.mark.parametrize(("raw", "url"), [
    ("", None), ("  ", None), ("memory", "memory"), (" Memory ", "memory"), ("MEMORY", "memory"),
    ("sqlite:///tmp/r.sqlite3", "sqlite:///tmp/r.sqlite3"), ("SQLite://rooms/r.sqlite3", "sqlite://rooms/r.sqlite3"),
    ("redis://h:6379/0", "redis://h:6379/0"), ("Redis://h:6379/0", "redis://h:6379/0"),
    ("rediss://h:6380/1", "rediss://h:6380/1"), ("unix:///run/redis.sock", "unix:///run/redis.sock"),
])
def test_the_rooms_address_is_read_in_any_case(monkeypatch, raw, url):
    from ui.settings import rooms_url

    monkeypatch.setenv("ATTENTION_ROOMS", raw)
    assert rooms_url() == url


@pytest.mark.parametrize("raw", ["sqlite:", "sqlite:rooms.sqlite3", "sqlite://", "sqlite:///", "memory:", "memroy",
                                 "redis:", "redis://", "http://h/", "h:6379", "/tmp/rooms.sqlite3"])
def test_a_malformed_rooms_address_stops_the_app_saying_what_it_takes(monkeypatch, raw):
    from ui.settings import rooms_url
    from ui.shell import process

    monkeypatch.setenv("ATTENTION_ROOMS", raw)
    with pytest.raises(ValueError, match="ATTENTION_ROOMS=.* is not a rooms address.*memory.*sqlite:///.*redis://"):
        rooms_url()
    monkeypatch.setattr(process, "_prepared", False)  # the app's first run in a process checks it
    with pytest.raises(ValueError, match="not a rooms address"):
        process.prepare_process()


def test_a_restart_finds_the_explorations_sent_their_senders_numbers_and_the_lesson_record(path):
    before = SqliteRooms(path)
    room, secret = before.create("{}")
    ann, bob, cem = (secrets.token_urlsafe(9) for _ in range(3))
    for student in (ann, bob):
        before.attend(room, student)
    assert before.send(room, ann, '{"page": 1}') == (1, 1)
    assert before.send(room, bob, '{"note": "a \\"quote\\",\\n a line"}') == (2, 2)
    assert before.send(room, ann, "é 😀 \x01 \ud800") == (3, 1)  # any text comes back whole, a lone surrogate too
    assert before.keep(room, secret, "poll,1,12") and before.keep(room, secret, 'projected,"3"')
    del before

    after = SqliteRooms(path)
    assert after.sent(room, secret) == [(3, 1, "é 😀 \x01 \ud800"), (2, 2, '{"note": "a \\"quote\\",\\n a line"}'),
                                        (1, 1, '{"page": 1}')]  # newest first, with their numbers
    assert after.kept(room, secret) == ["poll,1,12", 'projected,"3"']
    for student in (ann, bob, cem):
        after.attend(room, student)  # the class says it is there again
    assert after.send(room, bob, "{}") == (4, 2)  # the room's count goes on, and a sender keeps their number
    assert after.send(room, cem, "{}") == (5, 3)  # a new student gets the next one
    assert after.keep(room, secret, "step,2")
    del after
    again = SqliteRooms(path)  # and a third start sees what the second wrote
    assert [(n, s) for n, s, _ in again.sent(room, secret)] == [(5, 3), (4, 2), (3, 1), (2, 2), (1, 1)]
    assert again.kept(room, secret) == ["poll,1,12", 'projected,"3"', "step,2"]


def test_a_restart_keeps_the_newest_explorations_and_forgets_only_the_rates_clock(path, monkeypatch):
    monkeypatch.setattr(contract, "MAX_SENT", 2)
    clock = Clock()
    before = SqliteRooms(path, clock=clock)
    room, secret = before.create("{}")
    student = secrets.token_urlsafe(9)
    before.attend(room, student)
    for n in range(SENDS_PER_MINUTE):
        assert before.send(room, student, str(n)) == (n + 1, 1)
    with pytest.raises(SendRefused):
        before.send(room, student, "one more")
    del before

    after = SqliteRooms(path, clock=clock)
    assert [n for n, _, _ in after.sent(room, secret)] == [SENDS_PER_MINUTE, SENDS_PER_MINUTE - 1]
    after.attend(room, student)
    assert after.send(room, student, "one more") == (SENDS_PER_MINUTE + 1, 1)  # numbered past the ones cut


_SCHEMA_BEFORE = """CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, drivers BLOB NOT NULL,
    document TEXT NOT NULL, version INTEGER NOT NULL, touched REAL NOT NULL, token BLOB, token_until REAL NOT NULL,
    poll INTEGER NOT NULL, taking INTEGER NOT NULL, answers TEXT NOT NULL)"""  # the version before's: ten columns


def test_a_file_of_the_version_before_loads_its_rooms_and_then_keeps_their_explorations(path):
    room, secret, student = secrets.token_urlsafe(9), secrets.token_urlsafe(24), secrets.token_urlsafe(9)
    with sqlite3.connect(path) as db:
        db.execute(_SCHEMA_BEFORE)
        db.execute("INSERT OR REPLACE INTO rooms (id, drivers, document, version, touched, token, token_until, poll, "
                   "taking, answers) VALUES (?,?,?,?,?,?,?,?,?,?)",
                   (room, digest(secret), '{"a": 1}', 2, Clock()(), None, 0.0, 1, 1, json.dumps({student: "0.5"})))
    clock = Clock()
    rooms = SqliteRooms(path, clock=clock)
    assert rooms.read(room) == (2, '{"a": 1}') and rooms.is_driver(room, secret)
    assert rooms.answers(room, 1) == {student: "0.5"} and rooms.sent(room, secret) == [] == rooms.kept(room, secret)
    assert not path.with_name(path.name + ".corrupt").exists()
    rooms.attend(room, student)
    assert rooms.send(room, student, "{}") == (1, 1) and rooms.keep(room, secret, "poll,1")
    del rooms

    later = SqliteRooms(path, clock=clock)  # the widened table is still the rooms' table alone
    assert later.sent(room, secret) == [(1, 1, "{}")] and later.kept(room, secret) == ["poll,1"]
    assert later.read(room) == (2, '{"a": 1}') and later.answers(room, 1) == {student: "0.5"}
    with sqlite3.connect(path) as db:
        assert [c for _, c, *_ in db.execute("PRAGMA table_info(rooms)")] == sqlite_rows.COLUMNS.split(", ")


def _sent_and_kept(path) -> tuple[SqliteRooms, str, str, dict]:
    """A room that took one exploration and kept one entry, and its row in the file (column -> value)."""
    rooms = SqliteRooms(path)
    room, secret = rooms.create("{}")
    student = secrets.token_urlsafe(9)
    rooms.attend(room, student)
    rooms.send(room, student, '{"page": 1}')
    rooms.keep(room, secret, "poll,1")
    names = sqlite_rows.COLUMNS.split(", ")
    row = sqlite3.connect(path).execute(f"SELECT {sqlite_rows.COLUMNS} FROM rooms").fetchone()
    return rooms, room, secret, dict(zip(names, row, strict=True))


def _forge(path, row: dict, **changed) -> str:
    """A copy of ``row`` under a new id, with ``changed`` columns: the forged room's id."""
    forged = {**row, "id": secrets.token_urlsafe(9), **changed}
    with sqlite3.connect(path) as db:
        db.execute(f"INSERT INTO rooms ({sqlite_rows.COLUMNS}) VALUES ({sqlite_rows.PLACES})",
                   [forged[name] for name in sqlite_rows.COLUMNS.split(", ")])
    return forged["id"]


@pytest.mark.parametrize("changed", [
    {"taken": -1}, {"taken": 1.5}, {"taken": "one"}, {"taken": MAX_SENDS + 1},
    {"taken": 0},  # fewer than the exploration it lists: the next send would take a number again
    {"sent": json.dumps([[1, 1, "x" * (MAX_SENT_CHARS + 1)]])}, {"sent": json.dumps([[1, 1, ""]])},
    {"sent": json.dumps([[1, 1, 7]])}, {"sent": json.dumps([[1, 1, "{}", "more"]])}, {"sent": json.dumps([[1, 1]])},
    {"sent": json.dumps([[1, True, "{}"]])}, {"sent": json.dumps({"1": [1, 1, "{}"]})},
    {"sent": json.dumps([[2, 1, "{}"], [2, 1, "{}"]]), "taken": 2},  # a number twice
    {"sent": json.dumps([[1, 1, "{}"], [2, 1, "{}"]]), "taken": 2},  # the oldest first
    {"sent": json.dumps([[2, 1, "{}"]])},  # a number the room never gave
    {"sent": json.dumps([[1, 2, "{}"]])},  # a student the room never numbered
    {"sent": json.dumps([[n, 1, "{}"] for n in range(MAX_SENT + 1, 0, -1)]), "taken": MAX_SENT + 1},
    {"sent": "[[1, 1, "}, {"sent": "[" * 50_000},  # not JSON; nested deeper than the parser goes
    {"senders": json.dumps({"not a student": 1})}, {"senders": json.dumps({"x" * 12: 2})},
    {"senders": json.dumps({"x" * 12: 1, "y" * 12: 1})}, {"senders": json.dumps({"x" * 12: True})},
    {"senders": json.dumps([["x" * 12, 1]])}, {"senders": "{'x': 1}"},
    {"record": json.dumps("poll,1")}, {"record": json.dumps({"0": "poll,1"})}, {"record": json.dumps([""])},
    {"record": json.dumps([1])}, {"record": json.dumps(["x" * (MAX_RECORD_CHARS + 1)])},
    {"record": json.dumps(["poll,1"] * (MAX_RECORD + 1))}, {"record": "not JSON"}, {"record": "[" * 50_000},
    {"answers": "[" * 20_000},  # within the answers' cap, and nested deeper than the parser goes
], ids="-".join)
def test_a_forged_inbox_or_record_is_refused_and_leaves_the_file(path, changed, caplog):
    rooms, good, secret, row = _sent_and_kept(path)
    forged = _forge(path, row, **changed)
    del rooms
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        later = SqliteRooms(path)
    assert "was refused" in caplog.text and later.version(forged) is None and len(later) == 1
    assert later.sent(good, secret) == [(1, 1, '{"page": 1}')] and later.kept(good, secret) == ["poll,1"]
    assert sqlite3.connect(path).execute("SELECT id FROM rooms").fetchall() == [(good,)]


@pytest.mark.parametrize("changed", [{"senders": "{" * 100_000}, {"sent": b"[]"}, {"record": b'["poll,1"]'}],
                         ids="-".join)
def test_an_inbox_or_record_over_its_cap_or_not_text_is_deleted_unread(path, changed):
    rooms, good, _, row = _sent_and_kept(path)
    forged = _forge(path, row, **changed)
    del rooms
    later = SqliteRooms(path)
    assert later.version(forged) is None and later.version(good) == 1
    assert sqlite3.connect(path).execute("SELECT id FROM rooms").fetchall() == [(good,)]
