"""Who a following student is on the light page, and how often they may answer: an anonymous id in a cookie of the
room, and a cap on answers per student. Plain Python and Starlette: no Streamlit.

The id is what a Streamlit student's window makes for itself (``secrets.token_urlsafe(9)``, ``is_student_id``): the
room counts light pages and Streamlit windows alike. It lives in an HttpOnly cookie (no script reads it, so a script
that slipped into the page could not answer as another student) with SameSite=Lax (another site's form cannot post an
answer with it), one cookie per room, kept as long as a room lives.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Hashable

from starlette.requests import Request
from starlette.responses import Response

from ..lecture.address import STUDENT_COOKIE
from ..lecture.rooms import ROOM_SECONDS, is_student_id
from ..words.i18n import DEFAULT_LANG, LANGUAGES, negotiate

__all__ = ["ANSWERS_PER_MINUTE", "COOKIE", "RateCap", "cookie_name", "give_id", "language", "new_id", "student_of"]

COOKIE = STUDENT_COOKIE  # + the room's id
ANSWERS_PER_MINUTE = 10  # a student changing their mind a few times; a script sending in a loop is stopped


def language(query: str | None, accept_language: str | None) -> str:
    """``?lang=`` when it is one of the app's languages, else the browser's first that is, else English."""
    if query in LANGUAGES:
        return query
    for part in (accept_language or "").split(","):
        if found := negotiate(part.split(";")[0].strip()):
            return found
    return DEFAULT_LANG


def cookie_name(room: str) -> str:
    return COOKIE + room


def student_of(request: Request, room: str) -> str | None:
    """The student id the browser offers for ``room``, if it is one this app could have made."""
    found = request.cookies.get(cookie_name(room))
    return found if is_student_id(found) else None


def give_id(request: Request, response: Response, room: str, student: str) -> None:
    """Set (or renew) the room's student cookie, for the app's whole path: the answer and verdict routes sit beside
    the page (``/room/<room>/...``), wherever the app is mounted."""
    path = request.url.path
    root = path[: path.rfind("/follow/")] + "/"
    response.set_cookie(cookie_name(room), student, max_age=ROOM_SECONDS, path=root, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def new_id() -> str:
    return secrets.token_urlsafe(9)


class RateCap:
    """At most ``per_minute`` events per key in any 60 seconds, in this process (each replica counts its own: a
    student's answers go to the replica their balancer picked, a cap per replica still stops a loop). The keys kept
    are bounded: the oldest is forgotten first."""

    def __init__(self, per_minute: int = ANSWERS_PER_MINUTE, *, clock: Callable[[], float] = time.monotonic,
                 size: int = 20_000) -> None:
        self._per_minute, self._clock, self._size = per_minute, clock, size
        self._seen: dict[Hashable, list[float]] = {}
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> bool:
        """Count one event for ``key``; False (and nothing counted) if it already had its share this minute."""
        now = self._clock()
        with self._lock:
            recent = [t for t in self._seen.pop(key, ()) if t > now - 60]
            taken = len(recent) < self._per_minute
            if taken:
                recent.append(now)
            self._seen[key] = recent  # last in order: the newest key
            while len(self._seen) > self._size:
                self._seen.pop(next(iter(self._seen)))
            return taken
