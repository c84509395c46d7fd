"""A room's event stream (ui/shell/push.py, ``GET /room/<id>/events``), called as uvicorn calls it: an ASGI request
whose body arrives piece by piece, and a browser that leaves.

Starlette's TestClient (and httpx's ASGI transport) wait for a response to end, and an event stream does not, so the
routes are driven here with ASGI messages directly, in one event loop with the process's feed on an in-process store.
"""

from __future__ import annotations

import asyncio
import json

from starlette.applications import Starlette

from ui.follow.render import view
from ui.inputs.matrix import book_matrix
from ui.lecture.deck import Deck
from ui.lecture.feed import Feed, encode
from ui.lecture.memory_rooms import MemoryRooms
from ui.shell import push

DECK = '{"step": %d}'


class Stream:
    """One GET as uvicorn hands it to the app: the messages the app sends, and a browser that may leave."""

    def __init__(self, app, path: str, headers: dict[str, str] | None = None) -> None:
        path, _, query = path.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(),
                 "root_path": "", "server": ("127.0.0.1", 8501), "client": ("127.0.0.1", 5000),
                 "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]}
        self.messages: asyncio.Queue = asyncio.Queue()
        self._left = asyncio.Event()
        self.body = b""
        self.task = asyncio.get_running_loop().create_task(app(scope, self._receive, self.messages.put))

    async def _receive(self) -> dict:
        await self._left.wait()
        return {"type": "http.disconnect"}

    async def start(self) -> tuple[int, dict[str, str]]:
        message = await self.messages.get()
        return message["status"], {k.decode(): v.decode() for k, v in message["headers"]}

    async def event(self) -> bytes:
        """The next state event (``id:`` ...), past the reconnect delay and keep-alives."""
        while True:
            while b"\n\n" not in self.body:
                message = await self.messages.get()
                self.body += message.get("body", b"")
            event, self.body = self.body.split(b"\n\n", 1)
            if event.startswith(b"id: "):
                return event + b"\n\n"

    async def leave(self) -> None:
        self._left.set()
        await self.task


def run(work, **caps) -> None:
    async def main():
        rooms = MemoryRooms()
        push._feed = Feed(rooms, render=push.render, **caps)  # the process's feed, on a store of this test's own
        try:
            await work(rooms, Starlette(routes=push.routes()))
        finally:
            await push._feed.close()
            push._feed = None

    asyncio.run(main())


def test_a_stream_sends_the_current_state_then_each_move_and_ends_when_the_browser_leaves():
    async def work(rooms, app):
        room, secret = rooms.create(DECK % 1)
        rooms.publish(room, secret, DECK % 2)
        stream = Stream(app, f"/room/{room}/events?raw=1")
        status, headers = await stream.start()
        assert status == 200 and headers["content-type"].startswith("text/event-stream")
        assert headers["cache-control"] == "no-store" and headers["x-accel-buffering"] == "no"
        assert await stream.event() == encode(2, DECK % 2)
        rooms.publish(room, secret, DECK % 3)
        assert await stream.event() == encode(3, DECK % 3)
        assert push.feed().subscribers(room) == 1
        await stream.leave()
        assert push.feed().subscribers(room) == 0 and push.feed().connections == 0

    run(work)


def test_a_reconnect_with_a_last_event_id_gets_the_rooms_current_state():
    async def work(rooms, app):
        room, secret = rooms.create(DECK % 1)
        for step in (2, 3, 4):
            rooms.publish(room, secret, DECK % step)
        stream = Stream(app, f"/room/{room}/events?raw=1", {"Last-Event-ID": "2"})
        assert (await stream.start())[0] == 200
        assert await stream.event() == encode(4, DECK % 4)
        await stream.leave()

    run(work)


def test_a_malformed_or_unknown_room_is_not_found():
    async def work(rooms, app):
        for path in ("/room/abcdefghijkl/events", "/room/short/events", "/room/abcdefghij%2F/events"):
            stream = Stream(app, path)
            assert (await stream.start())[0] == 404
            await stream.task
        assert push.feed().connections == 0

    run(work)


def test_a_full_room_or_process_answers_503_and_a_place_freed_is_taken_again():
    async def work(rooms, app):
        one, _ = rooms.create(DECK % 1)
        other, _ = rooms.create(DECK % 1)
        first, second = Stream(app, f"/room/{one}/events"), Stream(app, f"/room/{one}/events")
        assert (await first.start())[0] == 200 and (await second.start())[0] == 200
        refused = Stream(app, f"/room/{one}/events")
        status, headers = await refused.start()
        assert status == 503 and "retry-after" in headers  # the room's cap
        third = Stream(app, f"/room/{other}/events")
        assert (await third.start())[0] == 200
        assert (await Stream(app, f"/room/{other}/events").start())[0] == 503  # the process's cap
        await first.leave()
        again = Stream(app, f"/room/{one}/events")
        assert (await again.start())[0] == 200
        for stream in (second, third, again):
            await stream.leave()

    run(work, max_connections=3, max_per_room=2)


def test_the_benchmarks_hooks_are_not_served_unless_asked(monkeypatch):
    assert [route.path for route in push.routes()] == [push.ROUTE]
    monkeypatch.setenv(push.HOOKS_VAR, "1")
    assert len(push.routes()) == 3


def test_the_app_serves_the_event_stream_beside_the_downloads():
    import app

    assert push.ROUTE in {getattr(route, "path", None) for route in app.app._user_routes}


def test_a_stream_in_a_language_sends_the_steps_view_in_it_and_refuses_a_language_the_app_has_not():
    """A following student's light page (?lang=vi): each version's view, worded once for every follower in vi."""
    async def work(rooms, app):
        decks = [Deck.of(step, step, book_matrix(), {}, None, None, 50) for step in (7, 8)]
        room, secret = rooms.create(decks[0].to_json())
        first, second = Stream(app, f"/room/{room}/events?lang=vi"), Stream(app, f"/room/{room}/events?lang=vi")
        assert (await first.start())[0] == 200 and (await second.start())[0] == 200
        shown = view(decks[0].to_json(), 1, "vi", room)
        expected = encode(1, json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
        assert await first.event() == expected and await second.event() == expected
        version = rooms.publish(room, secret, decks[1].to_json())
        shown = json.loads((await first.event()).split(b"data: ", 1)[1])
        assert shown["version"] == version and shown["lang"] == "vi" and shown["index"] == 8
        worded = [view(decks[1].to_json(), version, lang, room)["line"] for lang in ("vi", "en")]
        assert shown["line"] == worded[0] != worded[1]
        refused = Stream(app, f"/room/{room}/events?lang=xx")
        assert (await refused.start())[0] == 400
        for stream in (first, second):
            await stream.leave()

    run(work)


def test_a_light_pages_stream_says_its_student_present_and_a_forged_cookie_or_a_raw_stream_counts_no_one():
    """The light page's cookie names its student (ui/follow/student.py): their stream says them present while it is
    open. A cookie that is not an id this app makes, or a raw stream, is no one's."""
    async def work(rooms, app):
        room, _ = rooms.create(DECK % 1)
        said: list[tuple[str, str]] = []
        real = rooms.attend
        rooms.attend = lambda r, s: said.append((r, s)) or real(r, s)
        streams = [Stream(app, f"/room/{room}/events?lang=en", {"cookie": f"attention_student_{room}=abcdefghijkl"}),
                   Stream(app, f"/room/{room}/events?lang=en", {"cookie": f"attention_student_{room}=<script>"}),
                   Stream(app, f"/room/{room}/events?raw=1", {"cookie": f"attention_student_{room}=mnopqrstuvwx"})]
        for stream in streams:
            assert (await stream.start())[0] == 200
        while not said:
            await asyncio.sleep(0.001)
        assert set(said) == {(room, "abcdefghijkl")} and rooms.attendance(room) == 1
        for stream in streams:
            await stream.leave()

    run(work, attend_seconds=0.001)
