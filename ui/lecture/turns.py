"""A class's runs take turns: at most a few following students' runs of one server process execute at once.

A replica is one Python process, and only one of its threads runs Python at a time (the GIL). When the lecturer
moves, every following student on the replica reruns within half a second. If all of those runs go at once, they
share the GIL in slices of 5 ms: every run lasts about as long as the whole wave, and the event loop, which sends
each finished run to its browser, is one thread among thirty and gets the GIL late. Measured on 2 cores with 60
students on 2 replicas (bench_room, server logs): a student's run took 0.10–0.15 s from start to end for about
12 ms of CPU, and its finished page then waited another 0.4 s to be sent.

Taking turns, the runs finish one after the other, in the order they asked: the first student's update is sent
after one run instead of after thirty, and the event loop competes with one script thread, not thirty. The work
is the same; its order is better. Same bench: a run's start to end 0.015 s, sent at once.

Only a following student's runs take turns (their full runs and their heartbeats): they draw the lecture's step
at the lecture's settings, a bounded run. A lecturer's window is served at once while the class queues, and an
exploring student's run (which may be a GPT-2-size model) never holds the class up. More: while a lecturer's run
goes (:meth:`Turns.ahead`), no new turn starts, so the press competes with one student's run at most, not with
the wave it started. And a student's beat that sees a move hands its turn to the full run it starts
(:meth:`Turns.hand_over`): that run goes first in line, so a student's update is one visit to the line, not two.
A turn is taken at the top of a run (app.py) or of a heartbeat's run, and is reentrant in its thread: the heartbeat
drawn inside a full run is already inside that run's turn. A run stopped for a newer one (Streamlit raises through
the ``with``) gives its turn back as it unwinds.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Iterator

__all__ = ["HANDOVER_SECONDS", "Turns"]

HANDOVER_SECONDS = 1.0  # a handed-over turn waits this long for the student's next run (Streamlit starts it at once)
MAX_HANDOVERS = 10_000  # at most this many students' handovers kept at once (each is one small dict entry)


class Turns:
    """At most ``slots`` holders at once, served in the order they asked; reentrant within a thread.

    One place in the line per ``key`` (a student): a run that asks while an older run of the same student is
    still waiting takes that run's place, and the older run goes on without a turn. With ``runner.fastReruns``,
    Streamlit starts a session's newer run in a new thread and stops the older one at its next Streamlit call,
    so the older run ends at once; kept in the line, it would hold a place for nothing. (Whether a heartbeat's
    fragment rerun stops an older full run the same way is not checked yet: if not, that run goes on outside
    the line.) Without this, a class of 60 on one process healed a run that waited too long
    (ui/lecture/watchdog.js) with another run, which queued too: 319 heals in one walk, and moves taken up to
    8 s late.
    """

    def __init__(self, slots: int = 1):
        self._free = max(1, slots)  # ATTENTION_CLASS_SLOTS (ui/settings.py), at least one
        self._ready = threading.Condition()
        self._line: collections.deque[_Ticket] = collections.deque()
        self._holders: collections.Counter[str | None] = collections.Counter()  # whose runs hold a turn now
        self._held = threading.local()
        self._ahead = 0  # lecturer's runs going now: no new turn starts meanwhile
        self._first: dict[str, float] = {}  # a student -> when a run of theirs handed its turn to their next run

    @contextlib.contextmanager
    def turn(self, key: str | None = None) -> Iterator[None]:
        depth = getattr(self._held, "depth", 0)
        if depth == 0:
            self._held.key = key
        took = self._take(key) if depth == 0 else getattr(self._held, "took", False)
        self._held.depth, self._held.took = depth + 1, took
        try:
            yield
        finally:
            self._held.depth -= 1
            if self._held.depth == 0 and self._held.took:
                self._held.took = False
                self._give()

    @contextlib.contextmanager
    def ahead(self) -> Iterator[None]:
        """A lecturer's run: it never waits, and while it goes no student's turn starts (the one running goes on).
        Inside it, :meth:`aside` lets the class go while this run waits on the store."""
        self._gate(+1)
        self._held.ahead = True
        try:
            yield
        finally:
            self._held.ahead = False
            self._gate(-1)

    def hand_over(self, key: str) -> None:
        """The run holding ``key``'s turn is about to rerun the app for that student: the next run of ``key``
        that asks within :data:`HANDOVER_SECONDS` goes first in line (the update finishes what its beat began)."""
        with self._ready:
            now = time.monotonic()
            for stale in [k for k, at in self._first.items() if now - at > HANDOVER_SECONDS]:
                del self._first[stale]
            if len(self._first) < MAX_HANDOVERS:
                self._first[key] = now

    def _gate(self, change: int) -> None:
        with self._ready:
            self._ahead += change
            if not self._ahead:
                self._ready.notify_all()

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Give the turn back while this run waits on something else (the store over the network), and take it
        again first in line: a run that waits holds no place the next one could use.

        Except where a run of the same key (the same student) holds the turn meanwhile: then this one goes on
        without it. The store is asked under the session's lecture lock (ui/lecture/window.py ``see``), and the
        session's other run may hold the turn and wait for that lock (``take_press``): waiting for each other,
        the two would stop the whole line behind them (benchmarks/PROFILE-ROOM.md, the slowed store)."""
        if getattr(self._held, "ahead", False):  # a lecturer's run: the class goes while it waits
            self._gate(-1)
            try:
                yield
            finally:
                self._gate(+1)
            return
        if not getattr(self._held, "took", False):
            yield
            return
        self._give()
        self._held.took = False
        try:
            yield
        finally:
            self._held.took = self._take(None, first=True, mine=self._held.key)

    def _take(self, key: str | None, first: bool = False, mine: str | None = None) -> bool:
        """Wait for this run's turn; False if a newer run of the same key took its place meanwhile, or (``mine``,
        a run taking its turn back) if a run of key ``mine`` holds a turn."""
        with self._ready:
            older = next((t for t in self._line if key is not None and t.key == key), None)
            ticket = _Ticket(key)
            handed = key is not None and time.monotonic() - self._first.pop(key, -HANDOVER_SECONDS) < HANDOVER_SECONDS
            if older is not None:  # the newer run takes the older one's place; the older one goes
                self._line[self._line.index(older)] = ticket
                older.superseded = True
                self._ready.notify_all()
            elif first or handed:
                self._line.appendleft(ticket)
            else:
                self._line.append(ticket)
            try:
                while not ticket.superseded and not (self._free > 0 and not self._ahead and self._line[0] is ticket):
                    if mine is not None and self._holders[mine]:  # the same student's run holds it: go on
                        self._line.remove(ticket)
                        self._ready.notify_all()
                        return False
                    self._ready.wait()
            except BaseException:  # stopped while waiting: out of the line, and the next one may go
                if not ticket.superseded:
                    self._line.remove(ticket)
                self._ready.notify_all()
                raise
            if ticket.superseded:
                return False
            self._line.popleft()
            self._free -= 1
            owner = key if mine is None else mine
            self._holders[owner] += 1
            self._held.owner = owner
            self._ready.notify_all()  # with more than one slot, the next in line may go too
            return True

    def _give(self) -> None:
        with self._ready:
            self._free += 1
            self._holders[self._held.owner] -= 1
            if not self._holders[self._held.owner]:  # one entry per student holding a turn, not per student ever
                del self._holders[self._held.owner]
            self._ready.notify_all()


class _Ticket:
    __slots__ = ("key", "superseded")

    def __init__(self, key: str | None):
        self.key, self.superseded = key, False
