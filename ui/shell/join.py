"""The class's old link, ``/?room=<id>``, sent to the room's light page: ``303`` to ``/follow/<id>``.

A student follows the lecture on the light page (ui/follow); the app's pages are for exploring. So a GET of one of
the app's pages (``/``, ``/walkthrough``, any page, under the app's base path) whose address names a room, and not
``away=1`` (the light page's "Explore this step": a student who explores in the app), is answered with a redirect
to that room's light page, ``lang=`` kept when it is one of the app's. Nothing else is touched: ``?room=new`` (a
lecturer opening a room), a presenter console's address (``seat=console``), a projection reloaded in the browser
that keeps the room's seat (``lecture=1`` and the seat's cookie: the app takes the seat back, ui/lecture/seat.py),
Streamlit's own paths, the app's routes and static files. A plain ASGI middleware: it reads the address and the
cookies, and passes every other request through untouched (a websocket, an event stream).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from ..chapter import PAGES
from ..lecture.address import AWAY_PARAM, ROOM_PARAM, follow_path
from ..lecture.rooms import is_room_id, is_secret
from ..lecture.seat import CONSOLE_SEAT, COOKIE_PREFIX, SEAT_PARAM
from ..sharing.link import LANG_PARAM, LECTURE_PARAM
from ..words.i18n import LANGUAGES

__all__ = ["JoinRedirect", "follow_target"]

PAGE_IDS = frozenset(p.page_id for p in PAGES)
_MAX_QUERY = 8_192  # an address longer than this is not a class's link: passed on as it is


class JoinRedirect:
    """The ASGI middleware (``st.App(..., middleware=[Middleware(JoinRedirect)])``, app.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        target = follow_target(scope) if scope["type"] == "http" and scope.get("method") == "GET" else None
        if target is None:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", target.encode()), (b"cache-control", b"no-store"),
                                (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})


def follow_target(scope: Scope) -> str | None:
    """The light page this request is sent to (a path from the server's root, with ``lang=``), or None."""
    base = _page_base(scope.get("path", ""))
    raw = scope.get("query_string", b"")
    if base is None or not raw or len(raw) > _MAX_QUERY:
        return None
    params = parse_qs(raw.decode("latin-1"), keep_blank_values=True)
    rooms = params.get(ROOM_PARAM, [])
    if len(rooms) != 1 or not is_room_id(rooms[0]) or AWAY_PARAM in params:
        return None
    room = rooms[0]
    if params.get(SEAT_PARAM) == [CONSOLE_SEAT] or (LECTURE_PARAM in params and _keeps_seat(scope, room)):
        return None  # a lecturer's window: the app decides whether it drives the room
    lang = params.get(LANG_PARAM, [])
    query = f"?{urlencode({LANG_PARAM: lang[0]})}" if len(lang) == 1 and lang[0] in LANGUAGES else ""
    return f"{base}{follow_path(room)}{query}"


def _page_base(path: str) -> str | None:
    """The app's base path if ``path`` is one of its pages (``/``, ``/<page>``, under the base); else None."""
    head, _, last = path.rpartition("/")
    if last == "":
        return head
    return head if last in PAGE_IDS else None


def _keeps_seat(scope: Scope, room: str) -> bool:
    """The browser sent a seat cookie for ``room`` that looks like a secret (the app checks it drives the room)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header: no seat  # noqa: BLE001
                continue
            seat = jar.get(COOKIE_PREFIX + room)
            if seat is not None and is_secret(seat.value):
                return True
    return False
