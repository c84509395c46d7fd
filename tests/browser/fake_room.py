"""A fake room for the follower's light page: the page's own routes (ui/follow/page.py) beside a fake
``/room/<room>/events`` that the test drives, served by uvicorn in a thread on a free port.

The real view stream (a view per move, ``id: <version>``, ``data: <view JSON>``) is built elsewhere; this one keeps
its contract as the page sees it: on connecting, a stream gets the newest event first, then each one the test
pushes. The test can also end every stream and keep the room "down": new connections then wait (the browser's
EventSource stays connecting, as behind a restarting server) or are refused with a 503 (an EventSource gives up on
those, and the page must try again itself), until :meth:`FakeRoom.restore`.
"""

from __future__ import annotations

import asyncio
import json
import threading

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.browser.harness import free_port
from ui.follow import page as follow
from ui.lecture.memory_rooms import MemoryRooms

__all__ = ["FakeRoom", "view"]

RETRY_MS = 300  # the browser's wait before it reconnects a stream that ended


def view(version: int, index: int, caption: str, *, lang: str = "en", line: str | None = None, **more) -> dict:
    """A view as the real stream sends it (every field of the contract; ``more`` overrides any)."""
    found = {"version": version, "lang": lang, "index": index, "total": 33,
             "line": line or f"Step {index + 1} of 33", "section": "3.3.1 A simple self-attention mechanism",
             "caption": caption, "formula": None, "tensor": f"tensor([{index}.0000])", "chart": None, "table": None,
             "code": None, "explore": f"walkthrough?lecture=1&walk={index}", "poll": None, "picture": True}
    found.update(more)
    return found


class FakeRoom:
    """The fake server and its one room's stream. Methods are called from the test's thread."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._lock = threading.Lock()
        self._newest: bytes | None = None
        self._streams: list[asyncio.Queue] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._up = threading.Event()
        self._up.set()
        self._refuse = False
        self.connections = 0  # streams opened, for a test that wants to see a reconnect happened
        rooms = _AnyRoom()  # every room is there for the page (its presence call), and no store file is written
        app = Starlette(routes=[*follow.routes(lambda: rooms), Route("/room/{room}/events", self._events)])
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> FakeRoom:
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the fake room's server did not start")
            self._thread.join(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self._up.set()
        self._send(None)
        self._server.should_exit = True
        self._thread.join(10)

    def push(self, document: dict | str) -> None:
        """A move: ``document`` (a view, or raw text for a damaged event) to every open stream, and to new ones."""
        data = document if isinstance(document, str) else json.dumps(document)
        version = document["version"] if isinstance(document, dict) else 0
        event = f"id: {version}\ndata: {data}\n\n".encode()
        with self._lock:
            self._newest = event
        self._send(event)

    def push_only_now(self, document: dict | str) -> None:
        """An event the open streams get but a new one does not (a late, older move must not be the newest)."""
        data = document if isinstance(document, str) else json.dumps(document)
        self._send(f"data: {data}\n\n".encode())

    def kill(self, *, refuse: bool = False) -> None:
        """Every stream ends; the room stays down (new streams wait, or are refused) until :meth:`restore`."""
        self._refuse = refuse
        self._up.clear()
        self._send(None)

    def restore(self) -> None:
        self._up.set()

    def _send(self, event: bytes | None) -> None:
        with self._lock:
            streams, loop = list(self._streams), self._loop
        for queue in streams:
            loop.call_soon_threadsafe(queue.put_nowait, event)

    async def _events(self, request: Request) -> Response:
        while not self._up.is_set():
            if self._refuse:
                return PlainTextResponse("down", status_code=503, headers={"Cache-Control": "no-store"})
            await asyncio.sleep(0.05)
        queue: asyncio.Queue = asyncio.Queue()
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._streams.append(queue)
            newest = self._newest
            self.connections += 1

        async def body():
            try:
                yield f"retry: {RETRY_MS}\n\n".encode()
                if newest is not None:
                    yield newest
                while (event := await queue.get()) is not None:
                    yield event
            finally:
                with self._lock:
                    self._streams.remove(queue)

        return StreamingResponse(body(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


class _AnyRoom(MemoryRooms):
    """An in-process store in which every well-formed room exists for the page's presence call: the fake stream,
    not the store, is the room the test drives (a page of a room that does not exist says it is closed)."""

    def attend(self, room: str, student: str) -> bool:
        return True
