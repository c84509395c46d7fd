"""A room's activity, for its lecturer's windows: ``GET /room/<id>/activity``, served beside Streamlit (app.py).

What the projection and its console show of the class besides the deck: how many students are here, how many
answered the question the deck asks, and the newest exploration sent to the lecturer. A lecturer's window asks it
every few seconds from its listener (ui/lecture/listen.js) and reruns only when it differs from what its last run
drew, so no timed fragment runs in that window and a quiet room costs no run at all.

Only a window that drives the room may ask: its browser's seat cookie (ui/lecture/seat.py) must hold a secret that
drives it, else 403. So the route costs a stranger nothing but a cookie check, and what students sent stays the
lecturer's. The answer is ``{"version": the room's, "present": n, "answers": n (with a question asked), "sent": n}``,
never cached. The version lets the listener notice a move its window never took, however it was lost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..lecture import store
from ..lecture.address import ACTIVITY_ROUTE
from ..lecture.deck import Deck, DeckError
from ..lecture.rooms import RoomError, Rooms, RoomsUnavailable, is_room_id, is_secret
from ..lecture.seat import COOKIE_PREFIX

__all__ = ["ROUTE", "activity", "routes"]

ROUTE = ACTIVITY_ROUTE
_NO_STORE = {"Cache-Control": "no-store"}


def routes(rooms: Callable[[], Rooms] = store.rooms) -> list[Route]:
    """The route, on the rooms ``rooms()`` gives (the process's store; a test's own)."""
    return [Route(ROUTE, functools.partial(_answer, rooms), methods=["GET"])]


def activity(rooms: Rooms, room: str, secret: str) -> dict[str, int] | None:
    """``room``'s activity as its driver ``secret`` may see it; None if the room is gone or the secret drives none."""
    found = rooms.read(room)
    if found is None or not rooms.is_driver(room, secret):
        return None
    now = {"version": found[0], "present": rooms.attendance(room)}
    try:
        poll = Deck.from_json(found[1]).poll
    except DeckError:  # a deck this app cannot read asks nothing
        poll = None
    if poll is not None:
        now["answers"] = len(rooms.answers(room, poll.number))
    newest = rooms.sent(room, secret, limit=1)
    now["sent"] = newest[0][0] if newest else 0
    return now


async def _answer(rooms: Callable[[], Rooms], request: Request) -> Response:
    room = request.path_params["room"]
    secret = request.cookies.get(COOKIE_PREFIX + room) if is_room_id(room) else None
    if not is_secret(secret):
        return PlainTextResponse("not a lecturer of this room", status_code=403, headers=_NO_STORE)
    try:
        found = await run_in_threadpool(activity, rooms(), room, secret)
    except RoomsUnavailable:
        return PlainTextResponse("the rooms cannot be reached just now", status_code=503,
                                 headers={**_NO_STORE, "Retry-After": "5"})
    except RoomError:
        found = None
    if found is None:
        return PlainTextResponse("not a lecturer of this room", status_code=403, headers=_NO_STORE)
    return JSONResponse(found, headers=_NO_STORE)
