"""A room's event stream, served beside Streamlit (``st.App``, app.py): ``GET /room/<id>/events?lang=<lang>``.

The stream is ``text/event-stream``: the room's current state first, then each new one (``id: <version>``,
``data: <the step's view in lang>``: ui/follow/render.py's JSON, what a following student's light page shows; ``lang``
one of the app's languages, English if not given), and a keep-alive comment every ui/lecture/feed.py
KEEPALIVE_SECONDS. A view is rendered once per (version, language) in a worker thread, and every subscriber of that
language gets the same bytes. ``?raw=1`` streams the deck's own JSON instead (a tool that reads the room as it is).
A subscriber slower than the lecturer skips to the newest state (the feed's slot): it never queues moves. The headers
keep caches and buffering proxies (nginx: ``X-Accel-Buffering``) from holding events back.

A plain ASGI response rather than Starlette's StreamingResponse (or sse-starlette): the only work per event is one
send of bytes the feed encoded once for every subscriber, and one small task per stream notices a browser that left
(uvicorn's h11 ignores a send to a closed connection, so a stream would otherwise wait for its next send to end).

A light page's stream carries its student's cookie (ui/follow/student.py): while it is open, the feed says that
student is present in the room (ui/lecture/feed.py), so the class's count is who has the page open.

Refusals: a malformed or unknown room 404, a process or room at its cap of streams 503 (``Retry-After``; the caps are
``ATTENTION_STREAMS`` and ``ATTENTION_ROOM_STREAMS``, ui/settings.py), and the store out of reach 503.

``ATTENTION_BENCH_ROOM_HOOKS=1`` (benchmarks/bench_hall.py only) adds two routes that create a room and publish to
it through the process's store, in a worker thread as a lecturer's page run does; never in a deployment.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..follow.student import student_of
from ..lecture import store
from ..lecture.address import EVENTS_ROUTE
from ..lecture.feed import Feed, FeedFull, NoSuchRoom, Subscription
from ..lecture.rooms import RoomError, RoomsUnavailable, is_room_id
from ..settings import limits
from ..words.i18n import DEFAULT_LANG, LANGUAGES

__all__ = ["EventStream", "ROUTE", "feed", "render", "routes"]

ROUTE = EVENTS_ROUTE
HOOKS_VAR = "ATTENTION_BENCH_ROOM_HOOKS"
SLOW_FANOUT_VAR = "ATTENTION_SLOW_FANOUT_MS"  # a benchmark's deliberately slowed fan-out: this much work per stream
RETRY_MS = 2_000  # how soon a browser's EventSource reconnects after the stream ended
_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"), (b"x-content-type-options", b"nosniff")]
_NO_STORE = {"Cache-Control": "no-store"}
_raw_slow = os.environ.get(SLOW_FANOUT_VAR, "")
_SLOW_SECONDS = int(_raw_slow) / 1000 if _raw_slow.isdigit() else 0.0  # read once: the loop runs per stream and event
_feed: Feed | None = None


def feed() -> Feed:
    """The process's feed, on the process's store (made on the first stream)."""
    global _feed
    if _feed is None:
        lim = limits()
        _feed = Feed(store.rooms(), max_connections=lim.streams, max_per_room=lim.room_streams, render=render)
    return _feed


async def render(room: str, document: str, version: int, lang: str) -> str:
    """A state of ``room``'s view in ``lang``, as one line of JSON, worked out in a worker thread: the event loop
    serves every stream meanwhile (a view with its chart takes a tenth of a second)."""
    return await run_in_threadpool(_view_json, room, document, version, lang)


def _view_json(room: str, document: str, version: int, lang: str) -> str:
    # Imported with the first view, not with the app: vl-convert's engine is loaded only where a class follows.
    from ..follow.render import view

    shown = view(document, version, lang, room)
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def routes() -> list[Route]:
    found = [Route(ROUTE, _events, methods=["GET"])]
    if os.environ.get(HOOKS_VAR) == "1":
        found += [Route("/bench/room", _bench_create, methods=["POST"]),
                  Route("/bench/room/{room}/publish", _bench_publish, methods=["POST"])]
    return found


async def _events(request: Request) -> Response | EventStream:
    room = request.path_params["room"]
    if not is_room_id(room):
        return _refusal(404, "no such room")
    lang = None if request.query_params.get("raw") == "1" else request.query_params.get("lang", DEFAULT_LANG)
    if lang is not None and lang not in LANGUAGES:
        return _refusal(400, "no such language")
    try:
        student = student_of(request, room) if lang is not None else None  # a raw stream is a tool's, no one's
        subscription = await feed().subscribe(room, lang, student)
    except NoSuchRoom:
        return _refusal(404, "no such room")
    except FeedFull:
        return _refusal(503, "too many followers here just now", {"Retry-After": "10"})
    except RoomsUnavailable:
        return _refusal(503, "the rooms cannot be reached just now", {"Retry-After": "5"})
    return EventStream(subscription)


class EventStream:
    """One subscriber's stream, as an ASGI response: it owns the subscription and closes it however it ends."""

    def __init__(self, subscription: Subscription) -> None:
        self.subscription = subscription

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        subscription = self.subscription
        gone = asyncio.get_running_loop().create_task(_until_disconnect(receive, subscription))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
            await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode(), "more_body": True})
            while (data := await subscription.next()) is not None:
                _slowed_fanout()
                await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the connection broke under a send
            pass
        finally:
            subscription.close()
            gone.cancel()


async def _until_disconnect(receive: Receive, subscription: Subscription) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    subscription.close()


def _slowed_fanout() -> None:
    """Nothing, unless a benchmark asks for a slower fan-out to prove it sees one: Python work per stream and event,
    holding the event loop as a real per-subscriber cost would (a sleep would let the other streams go on)."""
    if not _SLOW_SECONDS:
        return
    deadline = time.thread_time() + _SLOW_SECONDS
    while time.thread_time() < deadline:
        pass


async def _bench_create(request: Request) -> Response:
    document = (await request.body()).decode()
    try:
        room, secret = await run_in_threadpool(store.rooms().create, document)
    except RoomError as exc:
        return _refusal(400, str(exc))
    return JSONResponse({"room": room, "secret": secret}, headers=_NO_STORE)


async def _bench_publish(request: Request) -> Response:
    document = (await request.body()).decode()
    secret = request.headers.get("x-room-secret", "")
    try:
        version = await run_in_threadpool(store.rooms().publish, request.path_params["room"], secret, document)
    except RoomError as exc:
        return _refusal(403, str(exc))
    return PlainTextResponse(json.dumps(version), headers=_NO_STORE)


def _refusal(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return PlainTextResponse(message, status_code=status, headers={**_NO_STORE, **(headers or {})})
