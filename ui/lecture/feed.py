"""A room's moves pushed to its light subscribers: the event feed of one process.

A subscriber (a student's event stream, ui/shell/push.py) registers for one room and is handed each new state of it
as server-sent-event bytes. What it must never do is miss the newest state, so:

- on subscribing it first gets the room's current state (also after a reconnect: the newest is all it needs);
- it holds one slot, the latest state not yet taken, and an :class:`asyncio.Event`: a subscriber slower than the
  lecturer skips versions in between and always ends on the newest, and its memory stays one state whatever the
  lag (an unbounded queue would grow with it);
- a state is encoded once per (room, version) and the same bytes go to every subscriber, so a move costs each
  subscriber a slot assignment and a wake-up.

Moves reach the feed two ways: a publish in this process calls :meth:`Feed.notify` (the store's hook,
:meth:`~ui.lecture.rooms.Rooms.watch`), from whatever thread published; another replica's, through the store's
:meth:`~ui.lecture.rooms.Rooms.announcements` (Redis pub/sub, one connection per process), after which the feed reads
the document once. Versions only grow, so the same move heard both ways, or late, changes nothing. Every
:data:`KEEPALIVE_SECONDS` the feed also looks at each followed room's version in the store (a move lost with a
connection, a room that is gone) and gives every subscriber a keep-alive comment, so that proxies keep the stream.

A student's stream (its id from the light page's cookie, ui/shell/push.py) says them present every
:data:`ATTEND_SECONDS` while it is open (the room forgets them PRESENCE_SECONDS after), within the room's cap.

A subscriber in a language (a following student's light page) is handed the state's view instead: the feed's
``render`` words it once per (room, version, language), outside the event loop, and the same bytes go to every
subscriber of that language; a render under way when the lecturer moves again goes on to the newest state.

No Streamlit here: the feed lives in the server's event loop, beside Streamlit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from ..settings import ROOM_STREAMS, STREAMS
from .rooms import Rooms, RoomsUnavailable
from .subscription import KEEPALIVE, Subscription, attend_all, encode

__all__ = ["ATTEND_SECONDS", "KEEPALIVE", "KEEPALIVE_SECONDS", "MAX_CONNECTIONS", "MAX_PER_ROOM", "Feed", "FeedFull",
           "NoSuchRoom", "Subscription", "encode"]

KEEPALIVE_SECONDS = 15.0  # under the idle timeouts of common proxies (30-60 s)
ATTEND_SECONDS = 5.0  # a connected student is said present this often (well within the room's PRESENCE_SECONDS)
MAX_CONNECTIONS = STREAMS  # event streams open in one process
MAX_PER_ROOM = ROOM_STREAMS  # the class, the lecturer's windows, and streams a reconnect overlaps

_log = logging.getLogger("attention_app")
Render = Callable[[str, str, int, str], Awaitable[str]]  # (room, document, version, lang) -> the view's JSON


class FeedFull(Exception):
    """No more subscribers: the process or the room holds its cap."""


class NoSuchRoom(Exception):
    """The room is not in the store (or no longer)."""


class _Followed:
    """A room this process has subscribers of: its newest state, encoded once."""

    __slots__ = ("data", "document", "rendering", "subscribers", "version", "views", "wanted")

    def __init__(self) -> None:
        self.version, self.data, self.document = 0, b"", ""
        self.views: dict[str, bytes] = {}  # the newest version's view per language, encoded once for its subscribers
        self.rendering: set[str] = set()  # the languages a view is being rendered in (one render at a time each)
        self.wanted = 0  # the newest version announced: above ``version`` while the document is being read
        self.subscribers: set[Subscription] = set()


class Feed:
    """The rooms' subscribers in this process. Made once per process; used from its event loop, except
    :meth:`notify`, which any thread may call."""

    def __init__(self, rooms: Rooms, *, max_connections: int = MAX_CONNECTIONS, max_per_room: int = MAX_PER_ROOM,
                 keepalive_seconds: float = KEEPALIVE_SECONDS, attend_seconds: float = ATTEND_SECONDS,
                 render: Render | None = None) -> None:
        self._rooms = rooms
        self._render = render  # a state's view in a language (ui/shell/push.py: ui/follow/render.py, in a worker)
        self._max_connections, self._max_per_room = max_connections, max_per_room
        self._keepalive_seconds, self._attend_seconds = keepalive_seconds, attend_seconds
        self._followed: dict[str, _Followed] = {}
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()
        self._reading: set[str] = set()  # rooms whose document is being read after an announcement
        rooms.watch(self.notify)

    @property
    def connections(self) -> int:
        return self._count

    def subscribers(self, room: str) -> int:
        followed = self._followed.get(room)
        return 0 if followed is None else len(followed.subscribers)

    async def subscribe(self, room: str, lang: str | None = None, student: str | None = None) -> Subscription:
        """A new subscriber of ``room``, its slot already holding the room's current state (in ``lang``: its view,
        as soon as it is rendered; None: the raw deck); ``student``: the room's student it is, said present while it
        is connected. FeedFull at a cap; NoSuchRoom; RoomsUnavailable if the store cannot be reached."""
        self._start()
        self._check_caps(room)
        followed = self._followed.get(room)
        if followed is None:
            # Followed before the read: a move announced while the store answers is kept, not lost.
            followed = self._followed[room] = _Followed()
            try:
                found = await self._call(self._rooms.read, room)
            except BaseException:
                self._forget_if_empty(room)
                raise
            if found is None:
                self._forget_if_empty(room)
                raise NoSuchRoom(room)
            self._advance(room, *found)
            self._check_caps(room)  # others may have come while the store answered
        subscription = Subscription(self, room, lang, student)
        followed.subscribers.add(subscription)
        self._count += 1
        if lang is None:
            subscription.offer(followed.version, followed.data)
        elif lang in followed.views:
            subscription.offer(followed.version, followed.views[lang])
        else:
            self._want_view(room, followed, lang)
        return subscription

    def notify(self, room: str, version: int, document: str) -> None:
        """A publish in this process (the store's hook): handed to the event loop, from any thread."""
        loop = self._loop
        if loop is None or room not in self._followed:  # no subscriber has ever come, or none of this room
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
            loop.call_soon_threadsafe(self._advance, room, version, document)

    def announce(self, room: str, version: int) -> None:
        """Another process moved ``room`` to ``version``: read its document once, if this process follows it."""
        followed = self._followed.get(room)
        if followed is None or version <= followed.version:
            return
        followed.wanted = max(followed.wanted, version)
        if room not in self._reading:
            self._reading.add(room)
            self._spawn(self._catch_up(room))

    async def close(self) -> None:
        """Stop the feed's own tasks and close every subscription (a test's end, or the server's)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for followed in list(self._followed.values()):
            for subscription in list(followed.subscribers):
                subscription.close()
        self._loop = None

    # ----- inside the event loop ------------------------------------------------------------------
    def _start(self) -> None:
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._spawn(self._tick())
        self._spawn(self._attend())
        if (heard := self._rooms.announcements()) is not None:
            self._spawn(self._listen(heard))

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(self._tasks.discard)

    def _check_caps(self, room: str) -> None:
        if self._count >= self._max_connections:
            raise FeedFull("this process holds its cap of event streams")
        if self.subscribers(room) >= self._max_per_room:
            raise FeedFull("this room holds its cap of event streams")

    def _advance(self, room: str, version: int, document: str) -> None:
        """The room's new state, to every subscriber of it; an older or repeated version changes nothing."""
        followed = self._followed.get(room)
        if followed is None or version <= followed.version:
            return
        followed.version, followed.data, followed.document = version, encode(version, document), document
        followed.wanted = max(followed.wanted, version)
        followed.views = {}
        languages = set()
        for subscription in followed.subscribers:
            if subscription.lang is None:
                subscription.offer(version, followed.data)
            else:
                languages.add(subscription.lang)
        for lang in languages:
            self._want_view(room, followed, lang)

    def _want_view(self, room: str, followed: _Followed, lang: str) -> None:
        """The newest state's view in ``lang``, rendered once whoever asks: a render already under way for an older
        version goes on to the newest when it ends (:meth:`_view`)."""
        if self._render is None or lang in followed.views or lang in followed.rendering:
            return
        followed.rendering.add(lang)
        self._spawn(self._view(room, followed, lang))

    async def _view(self, room: str, followed: _Followed, lang: str) -> None:
        try:
            while self._followed.get(room) is followed and any(s.lang == lang for s in followed.subscribers):
                version, document = followed.version, followed.document
                try:
                    text = await self._render(room, document, version, lang)
                except Exception:  # a deck the view cannot word: logged, the raw stream and the next move go on
                    _log.exception("room %s version %d could not be rendered in %s", room, version, lang)
                    text = None
                if followed.version != version:
                    continue  # a newer move came while it rendered: that one is what counts
                if text is not None:
                    followed.views[lang] = data = encode(version, text)
                    for subscription in followed.subscribers:
                        if subscription.lang == lang:
                            subscription.offer(version, data)
                return
        finally:
            followed.rendering.discard(lang)

    def _drop(self, subscription: Subscription) -> None:
        followed = self._followed.get(subscription.room)
        if followed is not None and subscription in followed.subscribers:
            followed.subscribers.discard(subscription)
            self._count -= 1
            self._forget_if_empty(subscription.room)

    def _forget_if_empty(self, room: str) -> None:
        followed = self._followed.get(room)
        if followed is not None and not followed.subscribers and room not in self._reading:
            del self._followed[room]

    def _gone(self, room: str) -> None:
        """The store has no such room any more: its streams end (a browser's reconnect then gets a 404)."""
        followed = self._followed.get(room)
        for subscription in list(followed.subscribers if followed is not None else ()):
            subscription.close()

    async def _call(self, method, *args):
        """A store's call: in a worker thread when it waits on the network, so the loop never does."""
        return await asyncio.to_thread(method, *args) if self._rooms.remote else method(*args)

    async def _catch_up(self, room: str) -> None:
        try:
            while (followed := self._followed.get(room)) is not None and followed.wanted > followed.version:
                wanted = followed.wanted
                found = await self._call(self._rooms.read, room)
                if found is None:
                    self._gone(room)
                    return
                self._advance(room, *found)
                if found[0] < wanted:  # the store says older than announced: the next look tries again
                    return
        except RoomsUnavailable as exc:
            _log.warning("a moved room could not be read (%s): the next look tries again", exc)
        finally:
            self._reading.discard(room)
            self._forget_if_empty(room)

    async def _listen(self, heard) -> None:
        async for item in heard:
            if item is None:
                await self._look()  # subscribed (again): a move may have passed meanwhile
            else:
                self.announce(*item)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self._keepalive_seconds)
            for followed in list(self._followed.values()):
                for subscription in followed.subscribers:
                    subscription.keepalive()
            await self._look()

    async def _attend(self) -> None:
        while True:  # in a worker thread, whatever the store: a file's store may write the room's touch
            await asyncio.sleep(self._attend_seconds)
            await asyncio.to_thread(attend_all, self._rooms, [(room, s.student) for room, f in self._followed.items()
                                                              for s in f.subscribers if s.student and not s.closed])

    async def _look(self) -> None:
        """Each followed room's version in the store: a newer one is read, a room gone ends its streams."""
        rooms = list(self._followed)
        try:
            versions = await self._call(lambda: [self._rooms.version(room) for room in rooms])
        except RoomsUnavailable as exc:
            _log.warning("the followed rooms could not be looked at (%s)", exc)
            return
        for room, version in zip(rooms, versions, strict=True):
            if version is None:
                self._gone(room)
            else:
                self.announce(room, version)
