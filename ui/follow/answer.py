"""A following student's answer to the class poll, and their own verdict after the reveal, from the light page.

``POST /room/<room>/answer?lang=xx`` (JSON ``{"poll": n, "text": "..."}`` or a form with the same fields) keeps the
answer of the student whose cookie the page set (ui/follow/student.py), replacing theirs:
read as Check yourself reads it in the student's language and kept in its plain
form (ui/check/tally.py ``canonical``). Everything is checked like any client's input: the room, the student's id,
the poll (the deck's open poll on the step on screen), the text's length, the reading, a cap per student and minute,
and the room's own caps (a full class). A refusal is 400, 403, 404, 429 or 503 (the store out of reach) with the
reason in the student's language, as plain text the page shows beside the box.

``GET /room/<room>/verdict?poll=n&lang=xx`` says that student's verdict once the poll is revealed (ui/follow/
verdict.py). A GET rather than the answer's response: the reveal comes later, to every follower at once in the
shared stream (one view for all), so each page then asks for its own; it changes nothing, so a reload asks again.
Asking is capped per student too: a page asks once a reveal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import parse_qs

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..check.answers import Unparsed
from ..check.tally import canonical
from ..lecture.deck import Deck, DeckError, Poll
from ..lecture.documents import Mismatch, convert, decode
from ..lecture.poll import option_names, question_of
from ..lecture.rooms import MAX_ANSWER, MAX_POLLS, RoomError, Rooms, RoomsUnavailable, is_room_id
from ..state import speaking
from ..words.content import app_text
from ..words.i18n import decimal_comma
from .student import RateCap, language, student_of
from .verdict import verdict

__all__ = ["ANSWER_ROUTE", "MAX_BODY", "VERDICT_ROUTE", "routes"]

ANSWER_ROUTE, VERDICT_ROUTE = "/room/{room}/answer", "/room/{room}/verdict"
MAX_BODY = 2_000  # bytes of an answer's request: a poll number and a short text
_HEADERS = {"Cache-Control": "no-store", "Vary": "Cookie"}


class Refused(Exception):
    """A request refused: its status and why, in the student's language."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def routes(rooms: Callable[[], Rooms], cap: RateCap | None = None) -> list[Route]:
    """The two routes on the process's rooms (``rooms()``, asked per request: the store is made on first use)."""
    follower = Answers(rooms, cap or RateCap())
    return [Route(ANSWER_ROUTE, follower.answer, methods=["POST"]),
            Route(VERDICT_ROUTE, follower.verdict, methods=["GET"])]


class Answers:
    """The two routes' handlers, on one store and one cap."""

    def __init__(self, rooms: Callable[[], Rooms], cap: RateCap) -> None:
        self.rooms, self.cap = rooms, cap

    async def answer(self, request: Request) -> Response:
        lang = language(request.query_params.get("lang"), request.headers.get("accept-language"))
        try:
            room, student = _who(request, lang)
            if not self.cap.take((room, student)):  # before any work: a loop costs the server nothing more
                raise Refused(429, app_text("follow_answer_busy", lang))
            number, text = _sent(await _body(request, lang), lang)
            if len(text) > MAX_ANSWER:
                raise Refused(400, app_text("answer_too_long", lang, limit=MAX_ANSWER))
            said = await run_in_threadpool(self._take, room, student, number, text, lang)
        except Refused as refused:
            return _refusal(refused)
        return JSONResponse({"poll": number, "sent": said}, headers=_HEADERS)

    def _take(self, room: str, student: str, number: int, text: str, lang: str) -> str:
        """Keep the answer (in a worker thread: the store may be across a network); what the page says of it."""
        rooms = self.rooms()
        poll = _open_poll(rooms, room, number, lang)
        with speaking(lang):
            question = question_of(poll)
            kept = canonical(question, text, poll.options, decimal_comma=decimal_comma(lang))
            if isinstance(kept, Unparsed):
                raise Refused(400, app_text(f"answer_{kept.reason}", lang, **kept.fields))
            if len(kept) > MAX_ANSWER:
                raise Refused(400, app_text("answer_too_long", lang, limit=MAX_ANSWER))
            _store(rooms, room, student, number, kept, lang)
            shown = option_names(poll, question).get(kept, kept) if poll.options else text.strip()
            return app_text("poll_sent", lang, answer=shown)

    async def verdict(self, request: Request) -> Response:
        lang = language(request.query_params.get("lang"), request.headers.get("accept-language"))
        try:
            room, student = _who(request, lang)
            if not self.cap.take(("verdict", room, student)):  # a page asks once a reveal (a few tries at most)
                raise Refused(429, app_text("follow_answer_busy", lang))
            number = _number(request.query_params.get("poll"), lang)
            said = await run_in_threadpool(self._judge, room, student, number, lang)
        except Refused as refused:
            return _refusal(refused)
        return JSONResponse(said, headers=_HEADERS)

    def _judge(self, room: str, student: str, number: int, lang: str) -> dict[str, Any]:
        rooms = self.rooms()
        try:
            poll = _deck(rooms, room, lang).poll
            if poll is None or poll.number != number:
                raise Refused(404, app_text("poll_closed", lang))
            if not poll.revealed:
                raise Refused(404, app_text("follow_verdict_later", lang))
            given = rooms.answers(room, number).get(student)
        except RoomsUnavailable:
            raise Refused(503, app_text("poll_store_down", lang)) from None
        return verdict(poll, given, lang)


def _who(request: Request, lang: str) -> tuple[str, str]:
    room = request.path_params["room"]
    if not is_room_id(room):
        raise Refused(404, app_text("follow_malformed", lang))
    student = student_of(request, room)
    if student is None:  # no cookie of this room's page: a reload of the page sets one
        raise Refused(403, app_text("follow_answer_refused", lang))
    return room, student


class AnswerSent(msgspec.Struct, frozen=True):
    """What a light page sends with an answer: the poll's number (a JSON number, or text as a form writes it) and the
    text typed or chosen. Other fields are ignored, as a form may carry more."""

    poll: int | Annotated[str, msgspec.Meta(max_length=8)]
    text: str


async def _body(request: Request, lang: str) -> AnswerSent:
    """The request's answer, from JSON or a urlencoded form; Refused for anything else or anything larger."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise Refused(400, app_text("follow_answer_refused", lang))
    body = await request.body()
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if len(body) > MAX_BODY:
            raise ValueError
        if kind == "application/json":
            return decode(body, AnswerSent)
        if kind == "application/x-www-form-urlencoded":
            fields = {k: v[0] for k, v in parse_qs(body.decode(), strict_parsing=True).items() if len(v) == 1}
            return convert(fields, AnswerSent)
        raise ValueError
    except (ValueError, UnicodeDecodeError, Mismatch):
        raise Refused(400, app_text("follow_answer_refused", lang)) from None


def _sent(sent: AnswerSent, lang: str) -> tuple[int, str]:
    return _number(str(sent.poll), lang), sent.text


def _number(raw: str | None, lang: str) -> int:
    """A poll's number as sent: 1 to MAX_POLLS, in plain digits."""
    if raw is None or not raw.isascii() or not raw.isdigit() or not 1 <= int(raw[:6]) <= MAX_POLLS:
        raise Refused(400, app_text("follow_answer_refused", lang))
    return int(raw)


def _open_poll(rooms: Rooms, room: str, number: int, lang: str) -> Poll:
    """The deck's poll on the step on screen, if it is poll ``number`` and still takes answers."""
    try:
        poll = _deck(rooms, room, lang).asked()
    except RoomsUnavailable:
        raise Refused(503, app_text("poll_store_down", lang)) from None
    if poll is None or poll.number != number or poll.revealed:
        raise Refused(404, app_text("poll_closed", lang))
    return poll


def _store(rooms: Rooms, room: str, student: str, number: int, text: str, lang: str) -> None:
    """Say the student is here (their answer is their presence: a light page sends no heartbeat), then answer."""
    try:
        if not rooms.attend(room, student):
            raise Refused(403, app_text("room_class_full", lang))
        if not rooms.answer(room, student, number, text):
            raise Refused(404, app_text("poll_closed", lang))
    except RoomsUnavailable:
        raise Refused(503, app_text("poll_store_down", lang)) from None
    except RoomError:  # the room ended meanwhile
        raise Refused(404, app_text("follow_no_room", lang)) from None


def _deck(rooms: Rooms, room: str, lang: str) -> Deck:
    found = rooms.read(room)
    if found is None:
        raise Refused(404, app_text("follow_no_room", lang))
    try:
        return _parsed(found[1])
    except DeckError:  # a deck this app cannot use has no poll a student could answer
        raise Refused(404, app_text("poll_closed", lang)) from None


@functools.lru_cache(maxsize=16)
def _parsed(document: str) -> Deck:
    """A room's document checked once: a class answering at once reads the same deck."""
    return Deck.from_json(document)


def _refusal(refused: Refused) -> Response:
    headers = {**_HEADERS, **({"Retry-After": "60"} if refused.status == 429 else {})}
    return PlainTextResponse(refused.message, status_code=refused.status, headers=headers)
