"""The app's own routes, served beside Streamlit in its process (``st.App``, app.py): the downloads.

- ``/download/notebook?page=…&s=…&step=…&lang=…``: a page's notebook (ui/sharing/offer.py);
- ``/download/walkthrough?m=…&wt=…&at=…&lang=…``: the walkthrough's notebook (ui/lecture/files.py);
- ``/download/lesson-record?room=…``: the lesson's record, for a browser whose seat cookie drives the room.

Each is a plain GET, answered from its address alone (and the seat cookie), so no rerun of a session can cancel it
and any replica can answer it. An address is a client's: a long one is refused before it is read (414), a damaged
or hostile one gets a 400 with the reason in the reader's language, a record without a seat a 403; at most
:data:`BUILDS` files are built at once (a notebook costs some milliseconds of CPU), the rest wait their turn up to
:data:`WAIT_SECONDS` and are then told to try again (503).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..lecture import files
from ..lecture.rooms import RoomError
from ..sharing import offer
from ..words.content import app_text
from ..words.i18n import explain

__all__ = ["BUILDS", "MAX_QUERY", "WAIT_SECONDS", "routes"]

_log = logging.getLogger("attention_app")

MAX_QUERY = 24_000  # characters of a download's query: a matrix, and a walkthrough file as its link carries it
BUILDS = 2  # files built at once in this process (one per core of the machine the app is sized for)
WAIT_SECONDS = 20.0
_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_builds: asyncio.Semaphore | None = None


def routes() -> list[Route]:
    return [Route(f"{offer.ROUTE}/notebook", _notebook, methods=["GET"]),
            Route(f"{offer.ROUTE}/walkthrough", _walkthrough, methods=["GET"]),
            Route(f"{offer.ROUTE}/lesson-record", _lesson_record, methods=["GET"])]


async def _notebook(request: Request) -> Response:
    return await _answer(request, lambda: offer.notebook_file(request.query_params), offer.MIME)


async def _walkthrough(request: Request) -> Response:
    return await _answer(request, lambda: files.walkthrough_file(request.query_params), offer.MIME)


async def _lesson_record(request: Request) -> Response:
    return await _answer(request, lambda: files.record_file(request.query_params, request.cookies),
                         "text/csv; charset=utf-8")


async def _answer(request: Request, build: Callable[[], tuple[str, bytes]], mime: str) -> Response:
    lang = offer.language_of(request.query_params) if len(request.url.query) <= MAX_QUERY else "en"
    if len(request.url.query) > MAX_QUERY:
        return _refusal(414, app_text("download_too_long", lang=lang))
    global _builds
    if _builds is None:  # made in the server's event loop, on its first download
        _builds = asyncio.Semaphore(BUILDS)
    try:
        await asyncio.wait_for(_builds.acquire(), WAIT_SECONDS)
    except TimeoutError:
        return _refusal(503, app_text("download_busy", lang=lang), {"Retry-After": "5"})
    try:
        name, data = await run_in_threadpool(build)
    except offer.NotebookRequestError as exc:
        return _refusal(400, app_text("notebook_refused", lang=lang, error=explain(exc.error, lang)))
    except files.RecordRefused:
        return _refusal(403, app_text("download_no_seat", lang=lang))
    except RoomError as exc:  # the store out of reach
        _log.warning("a lesson record could not be read: %s", exc)
        return _refusal(503, app_text("download_busy", lang=lang), {"Retry-After": "5"})
    finally:
        _builds.release()
    disposition = f"attachment; filename=\"{name}\"; filename*=UTF-8''{quote(name)}"
    return Response(data, media_type=mime, headers={**_NO_STORE, "Content-Disposition": disposition})


def _refusal(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return PlainTextResponse(message, status_code=status, headers={**_NO_STORE, **(headers or {})})
