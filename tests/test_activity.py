"""A room's activity for its lecturer's windows (ui/shell/activity.py, ``GET /room/<id>/activity``), through
Starlette's TestClient on rooms of its own: only a driver's seat cookie is answered, and the answer is what the room
holds (who is here, how many answered the deck's question, the newest exploration sent)."""

from __future__ import annotations

import secrets
from dataclasses import replace

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from ui.inputs.matrix import book_matrix
from ui.lecture.deck import Deck, Poll
from ui.lecture.memory_rooms import MemoryRooms
from ui.lecture.seat import COOKIE_PREFIX
from ui.shell import activity

SCORE = Poll(1, 5, "one-query", "score", fields=(("q", 2), ("token", "journey"), ("first", "Your")))


def deck(poll: Poll | None = None) -> str:
    return replace(Deck.of(5, 5, book_matrix(), {}, None, None, 50), poll=poll).to_json()


@pytest.fixture
def room():
    rooms = MemoryRooms()
    name, secret = rooms.create(deck())
    client = TestClient(Starlette(routes=activity.routes(lambda: rooms)))
    return rooms, name, secret, client


def ask(client: TestClient, name: str, secret: str | None):
    client.cookies.clear()
    if secret is not None:
        client.cookies.set(COOKIE_PREFIX + name, secret)
    return client.get(f"/room/{name}/activity")


def test_a_driver_is_told_the_rooms_activity_as_it_changes(room):
    rooms, name, secret, client = room
    answer = ask(client, name, secret)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    assert answer.json() == {"version": 1, "present": 0, "sent": 0}  # no question asked: no count of answers
    students = [secrets.token_urlsafe(9) for _ in range(3)]
    for student in students:
        assert rooms.attend(name, student)
    number = rooms.open_poll(name, secret)
    rooms.publish(name, secret, deck(replace(SCORE, number=number)))
    assert ask(client, name, secret).json() == {"version": 2, "present": 3, "answers": 0, "sent": 0}
    rooms.answer(name, students[0], number, "0.9544")
    rooms.answer(name, students[1], number, "0.5")
    assert ask(client, name, secret).json()["answers"] == 2
    assert rooms.send(name, students[2], '{"page": "one-query"}')[0] == 1  # an exploration sent to the lecturer
    assert ask(client, name, secret).json()["sent"] == 1
    rooms.publish(name, secret, deck())  # the poll closed
    after = ask(client, name, secret).json()
    assert "answers" not in after and after["version"] == 3  # made, asked, closed


@pytest.mark.parametrize("cookie", [None, "", "x" * 5000, "not-the-secret-but-long-enough", "<script>"])
def test_anyone_but_a_driver_is_refused(room, cookie):
    rooms, name, secret, client = room
    answer = ask(client, name, cookie)
    assert answer.status_code == 403 and "sent" not in answer.text


@pytest.mark.parametrize("path", ["/room/../activity", "/room/NOPE/activity", "/room/" + "a" * 200 + "/activity"])
def test_a_hostile_room_is_refused(room, path):
    rooms, name, secret, client = room
    client.cookies.set(COOKIE_PREFIX + name, secret)
    assert client.get(path).status_code in (403, 404)


def test_a_room_that_is_gone_is_refused(room):
    rooms, name, secret, client = room
    other = MemoryRooms()
    gone = TestClient(Starlette(routes=activity.routes(lambda: other)))
    assert ask(gone, name, secret).status_code == 403
