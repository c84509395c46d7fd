"""A following student's light page, served beside Streamlit (``st.App``, app.py): ``GET /follow/<room>?lang=xx``.

A student who only follows the lecture needs the step the lecturer shows, not the whole app: this page is one small
HTML document, in the student's language, whose script opens the room's event stream (``/room/<room>/events``,
ui/shell/push.py) and draws each move the stream sends (its view: line, section, caption, chart, tensor, formula,
code, table, poll; see static/follow.js). No Streamlit session, no websocket, no heartbeat.

The HTML is answered per request and never cached (it names the room; its words follow the catalogs). Its script
and stylesheet are separate files at ``/follow-static/<name>.<hash>.<ext>``: a content hash in the address lets
every browser keep them for a year (a class that reloads, or follows the next lecture, loads only the HTML again),
and a changed file gets a new address. Separate files also let the page forbid inline script altogether
(Content-Security-Policy ``script-src 'self'``): the chart's SVG and the formula's MathML are inserted as markup,
and whatever might slip into them could not run.

Every visible word is the catalog's (``app_text``), filled into the HTML here; the script has none of its own.
Templates it fills itself (``Following · {line}``) reach it with their field left as ``{line}``.

The page also answers the class poll and shows its student's own verdict after the reveal (ui/follow/answer.py): the
page's route gives the browser a student id of the room in a cookie (ui/follow/student.py) and says it is present.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from string import Template

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..lecture.address import FOLLOW_ROUTE
from ..lecture.rooms import RoomError, Rooms, RoomsUnavailable, is_room_id
from ..words.content import app_text
from . import answer
from .student import give_id, language, new_id, student_of

__all__ = ["ASSETS", "ROUTE", "STATIC", "Asset", "language", "render", "routes"]

ROUTE = FOLLOW_ROUTE
STATIC = "/follow-static"
_DIR = Path(__file__).with_name("static")
_YEAR = "public, max-age=31536000, immutable"
# The page's own script and stylesheet only; the stream on this origin; styles may sit in attributes (a chart's SVG).
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_PAGE_HEADERS = {"Cache-Control": "no-store", "Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff",
                 "Referrer-Policy": "same-origin"}


@dataclass(frozen=True)
class Asset:
    """One static file, read once per process: its bytes, its type, and its hashed name."""

    body: bytes
    media_type: str
    name: str  # e.g. follow.3f2a9c1d0b7e.js


def _asset(file: str, media_type: str) -> Asset:
    body = (_DIR / file).read_bytes()
    stem, ext = file.rsplit(".", 1)
    return Asset(body, media_type, f"{stem}.{hashlib.sha256(body).hexdigest()[:12]}.{ext}")


_FILES = {"js": _asset("follow.js", "text/javascript; charset=utf-8"),
          "css": _asset("follow.css", "text/css; charset=utf-8")}
ASSETS: dict[str, Asset] = {a.name: a for a in _FILES.values()}  # by hashed name, as the static route is asked
_TEMPLATE = Template((_DIR / "follow.html").read_text(encoding="utf-8"))


def routes(rooms: Callable[[], Rooms] | None = None) -> list[Route]:
    """The page, its files, and its answer and verdict routes, on ``rooms()`` (the process's store if not given)."""
    rooms = rooms or _store_rooms

    async def page(request: Request) -> Response:
        return await _page(request, rooms)

    return [Route(ROUTE, page, methods=["GET"]), Route(f"{STATIC}/{{name}}", _static, methods=["GET"]),
            *answer.routes(rooms)]


def _store_rooms() -> Rooms:
    from ..lecture import store  # Streamlit's cached resource: made with the first request that needs it

    return store.rooms()


def render(room: str, lang: str, closed: bool = False) -> str:
    """The page for ``room`` (a valid room id) in ``lang``. Addresses are relative to /follow/<room>, so the page
    works wherever the app is mounted (a base URL path included). ``closed``: there is no such room (the lecture
    ended, or the link is wrong): the page says so where its line would be, and opens no stream, which would only
    be refused again and again while the student read "Reconnecting"."""
    words = _words(lang)
    if closed:
        words = {**words, "reconnecting": escape(app_text("follow_no_room", lang=lang)), "waiting": words["title"]}
    return _TEMPLATE.substitute(
        words, lang=lang, root="../", stream="" if closed else escape(f"../room/{room}/events?lang={lang}"),
        answer=escape(f"../room/{room}/answer?lang={lang}"), verdict=escape(f"../room/{room}/verdict?lang={lang}"),
        js=f"..{STATIC}/{_FILES['js'].name}", css=f"..{STATIC}/{_FILES['css'].name}")


@cache
def _words(lang: str) -> dict[str, str]:
    """The page's words in ``lang``, escaped for HTML text and attributes."""
    words = {
        "title": app_text("follow_title", lang=lang),
        "line": app_text("follow_line", lang=lang, line="{line}"),
        "reconnecting": app_text("follow_reconnecting", lang=lang),
        "waiting": app_text("follow_waiting", lang=lang),
        "announce": app_text("follow_announce", lang=lang, line="{line}", caption="{caption}"),
        "poll": app_text("follow_poll", lang=lang, prompt="{prompt}"),
        "poll_heading": app_text("poll_asks", lang=lang),
        "explore": app_text("follow_explore", lang=lang),
        "tensor": app_text("follow_tensor", lang=lang),
        "chart": app_text("follow_chart", lang=lang),
        "formula": app_text("follow_formula", lang=lang),
        "code": app_text("code_that_ran", lang=lang),
        "table": app_text("follow_table", lang=lang),
        "send": app_text("poll_send", lang=lang),
        "sending": app_text("follow_sending", lang=lang),
        "offline": app_text("follow_offline", lang=lang),
    }
    return {key: escape(value) for key, value in words.items()}


async def _page(request: Request, rooms: Callable[[], Rooms]) -> Response:
    lang = language(request.query_params.get("lang"), request.headers.get("accept-language"))
    room = request.path_params["room"]
    if not is_room_id(room):
        return PlainTextResponse(app_text("follow_malformed", lang=lang), status_code=404,
                                 headers={"Cache-Control": "no-store"})
    student = student_of(request, room) or new_id()
    if not await run_in_threadpool(_attend, rooms, room, student):
        return HTMLResponse(render(room, lang, closed=True), status_code=404, headers=_PAGE_HEADERS)
    response = HTMLResponse(render(room, lang), headers=_PAGE_HEADERS)
    give_id(request, response, room, student)
    return response


def _attend(rooms: Callable[[], Rooms], room: str, student: str) -> bool:
    """The student is in class from the page's load (the room counts them). False if there is no such room; a full
    class or a store out of reach changes nothing here (the page follows; an answer says why when one is sent)."""
    try:
        rooms().attend(room, student)
    except RoomsUnavailable:
        return True
    except RoomError:
        return False
    return True


async def _static(request: Request) -> Response:
    asset = ASSETS.get(request.path_params["name"])
    if asset is None:  # an old hash after a deploy: the HTML it came with is gone too, and a reload fetches the new
        return PlainTextResponse("not found", status_code=404, headers={"Cache-Control": "no-store"})
    return Response(asset.body, media_type=asset.media_type,
                    headers={"Cache-Control": _YEAR, "X-Content-Type-Options": "nosniff"})
