"""The floor for a hall of followers: a bare Starlette event-stream fan-out, served beside Streamlit as the app serves
its own (``st.App`` routes, started with ``python -m ui.shell.serve``), with nothing of the app in it.

The routes are the app's (ui/shell/push.py with its benchmark hooks): ``POST /bench/room`` makes a room of the body
(``?room=<id>``: that id, so that benchmarks/bench_room.py makes the same room on each replica),
``POST /bench/room/<id>/publish`` moves it, ``GET /room/<id>/events`` streams it. The fan-out is what one writes first:
each stream an ``asyncio.Queue`` fed by the publish, Starlette's StreamingResponse over it, the event encoded once per
move. benchmarks/bench_hall.py runs the same readers and moves against this and the app: the gap is the app's own.
"""

import asyncio
import json
import secrets

import streamlit as st
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

_rooms: dict[str, list] = {}  # room -> [version, its event's bytes, the streams' queues]


def _event(version: int, document: str) -> bytes:
    return f"id: {version}\ndata: {document}\n\n".encode()


async def _create(request: Request) -> Response:
    room = request.query_params.get("room") or secrets.token_urlsafe(9)  # bench_room: one room on every replica
    _rooms[room] = [1, _event(1, (await request.body()).decode()), set()]
    return JSONResponse({"room": room, "secret": ""})


async def _publish(request: Request) -> Response:
    entry = _rooms[request.path_params["room"]]
    entry[0] += 1
    entry[1] = _event(entry[0], (await request.body()).decode())
    for queue in entry[2]:
        queue.put_nowait(entry[1])
    return PlainTextResponse(json.dumps(entry[0]))


async def _events(request: Request) -> Response:
    entry = _rooms.get(request.path_params["room"])
    if entry is None:
        return PlainTextResponse("no such room", status_code=404)
    queue: asyncio.Queue = asyncio.Queue()
    queue.put_nowait(entry[1])
    entry[2].add(queue)

    async def stream():
        try:
            while True:
                yield await queue.get()
        finally:
            entry[2].discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


if __name__ == "__main__":
    st.write("The hall's floor: its event streams are served beside this page.")
else:
    app = st.App(__file__, routes=[Route("/bench/room", _create, methods=["POST"]),
                                   Route("/bench/room/{room}/publish", _publish, methods=["POST"]),
                                   Route("/room/{room}/events", _events, methods=["GET"])])
