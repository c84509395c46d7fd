"""A following class's runs take turns (ui/lecture/turns.py), and a following student's update asks the store
once (ui/lecture/store.py): the queue's order and bounds, and the lecture's runs through it in AppTest."""

from __future__ import annotations

import threading
import time

import pytest

from tests.lecture_apptest import lecture, poll, student
from ui.inputs.matrix import book_matrix
from ui.lecture import store, window
from ui.lecture.deck import Deck
from ui.lecture.memory_rooms import MemoryRooms
from ui.lecture.records import Lecturer, Moment, Student
from ui.lecture.turns import HANDOVER_SECONDS, Turns


def _waiting(turns: Turns, n: int) -> None:
    deadline = time.monotonic() + 5
    while len(turns._line) < n:
        assert time.monotonic() < deadline, "the threads never queued"
        time.sleep(0.001)


def test_runs_take_their_turns_in_the_order_they_asked():
    turns, order = Turns(1), []

    def run(name: int) -> None:
        with turns.turn():
            order.append(name)

    with turns.turn():  # the queue is busy while five runs line up, one after the other
        threads = []
        for name in range(5):
            threads.append(threading.Thread(target=run, args=(name,)))
            threads[-1].start()
            _waiting(turns, name + 1)
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4]


def test_a_newer_run_of_a_student_takes_the_older_ones_place_in_the_line():
    turns, order, free = Turns(1), [], threading.Event()

    def run(name: str, key: str) -> None:
        with turns.turn(key):
            if name == "older" and not free.is_set():
                free.set()  # let go without a turn: Streamlit stops it at its next call
            order.append(name)

    with turns.turn():
        older = threading.Thread(target=run, args=("older", "student-1"))
        older.start()
        _waiting(turns, 1)
        other = threading.Thread(target=run, args=("other", "student-2"))
        other.start()
        _waiting(turns, 2)
        newer = threading.Thread(target=run, args=("newer", "student-1"))
        newer.start()
        assert free.wait(5), "the older run kept waiting"
        assert len(turns._line) == 2  # one place per student
    for thread in (older, other, newer):
        thread.join(5)
    assert order == ["older", "newer", "other"]  # the newer run went where the older one stood


def test_a_run_waiting_on_the_store_lets_the_next_one_go_and_comes_back_first():
    turns, order = Turns(1), []
    asked, answered, second_done = threading.Event(), threading.Event(), threading.Event()

    def waits_on_the_store() -> None:
        with turns.turn():
            order.append("asks the store")
            with turns.aside():
                asked.set()
                answered.wait(5)  # the network
            order.append("has its answer")

    def second() -> None:
        with turns.turn():
            order.append("second")
            second_done.wait(5)

    def third() -> None:
        with turns.turn():
            order.append("third")

    first = threading.Thread(target=waits_on_the_store)
    first.start()
    assert asked.wait(5)
    threads = [first, threading.Thread(target=second)]
    threads[-1].start()
    while "second" not in order:  # it took the turn the waiting run gave back
        time.sleep(0.001)
    threads.append(threading.Thread(target=third))
    threads[-1].start()
    _waiting(turns, 1)
    answered.set()
    _waiting(turns, 2)  # the answered run lines up again, first
    second_done.set()
    for thread in threads:
        thread.join(5)
    assert order == ["asks the store", "second", "has its answer", "third"]


def test_a_beat_holding_its_sessions_lock_through_a_slow_store_never_deadlocks_the_class():
    """The stall of the slowed-store bench: a student's heartbeat holds the session's lecture lock while it waits
    on the store (its turn given back); the same student's full run takes the turn and waits for that lock. Had
    the heartbeat waited for the turn again after its answer, each would wait for the other, forever, and every
    run queued behind the turn with them."""
    turns, session_lock = Turns(1), threading.RLock()
    in_store, run_waits_for_lock, done = threading.Event(), threading.Event(), []

    def heartbeat() -> None:
        with turns.turn("student"), session_lock:  # window.see: the moment, under the session's lock
            with turns.aside():
                in_store.set()
                assert run_waits_for_lock.wait(5)
                time.sleep(0.05)  # the full run is now blocked on the lock, holding the turn
            done.append("beat")  # it did not wait for the turn its own student's run holds

    def full_run() -> None:
        with turns.turn("student"):
            run_waits_for_lock.set()
            with session_lock:
                done.append("run")

    def class_mate() -> None:
        with turns.turn("another student"):
            done.append("class mate")

    beat = threading.Thread(target=heartbeat, daemon=True)
    beat.start()
    assert in_store.wait(5)
    threads = [beat, threading.Thread(target=full_run, daemon=True), threading.Thread(target=class_mate, daemon=True)]
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert not any(thread.is_alive() for thread in threads), f"deadlocked; finished: {done}"
    assert sorted(done) == ["beat", "class mate", "run"]
    assert not turns._holders and turns._free == 1  # every turn given back, and nobody counted as holding one


def test_no_students_turn_starts_while_a_lecturers_run_goes_and_the_running_one_goes_on():
    turns, order = Turns(1), []
    lecturer_in, lecturer_out, holder_in, holder_out = (threading.Event() for _ in range(4))

    def holder() -> None:
        with turns.turn("running"):
            holder_in.set()
            assert lecturer_in.wait(5)
            order.append("running student ends")  # not stopped by the lecturer's run
        holder_out.set()

    def lecturer() -> None:
        with turns.ahead():
            lecturer_in.set()
            assert holder_out.wait(5)
            time.sleep(0.05)  # the turn is free now, and the waiting student still does not start
            order.append("lecturer ends")
        lecturer_out.set()

    def waiting() -> None:
        with turns.turn("waiting"):
            order.append("waiting student starts")

    threads = [threading.Thread(target=holder, daemon=True)]
    threads[0].start()
    assert holder_in.wait(5)
    threads += [threading.Thread(target=waiting, daemon=True)]
    threads[-1].start()
    _waiting(turns, 1)
    threads += [threading.Thread(target=lecturer, daemon=True)]
    threads[-1].start()
    for thread in threads:
        thread.join(5)
    assert order == ["running student ends", "lecturer ends", "waiting student starts"]
    assert turns._ahead == 0 and turns._free == 1


def test_a_lecturers_run_waiting_on_the_store_lets_the_class_go():
    turns, started = Turns(1), threading.Event()
    in_store, answered = threading.Event(), threading.Event()

    def lecturer() -> None:
        with turns.ahead():
            with turns.aside():
                in_store.set()
                answered.wait(5)
            assert turns._ahead == 1  # the gate is closed again once the answer is in

    def student_run() -> None:
        with turns.turn("student"):
            started.set()

    first = threading.Thread(target=lecturer, daemon=True)
    first.start()
    assert in_store.wait(5)
    second = threading.Thread(target=student_run, daemon=True)
    second.start()
    assert started.wait(5), "the class waited for a lecturer's run that was only waiting on the store"
    answered.set()
    for thread in (first, second):
        thread.join(5)
    assert turns._ahead == 0


def test_a_beat_that_saw_a_move_hands_its_turn_to_the_students_next_run():
    """The beat gives its turn back as Streamlit unwinds it, and the full run it started asks for one at once: that
    run goes first in line, ahead of every run already waiting (it waits for the one running, at most)."""
    turns, order = Turns(1), []

    def run(name: str, key: str) -> None:
        with turns.turn(key):
            order.append(name)

    threads = []
    with turns.turn("class mate 0"):  # the run that took the turn the beat gave back
        for name in ("class mate 1", "class mate 2"):
            threads.append(threading.Thread(target=run, args=(name, name)))
            threads[-1].start()
            _waiting(turns, len(threads))
        turns.hand_over("student")  # the beat, as it reran the app (any thread may say so)
        threads.append(threading.Thread(target=run, args=("the update", "student")))  # the full run it started
        threads[-1].start()
        _waiting(turns, 3)
    for thread in threads:
        thread.join(5)
    assert order == ["the update", "class mate 1", "class mate 2"]
    assert "student" not in turns._first  # used once: the student's next run lines up as any other


def test_a_handover_not_taken_in_time_is_forgotten(monkeypatch):
    turns, clock, order = Turns(1), [100.0], []
    monkeypatch.setattr("ui.lecture.turns.time.monotonic", lambda: clock[0])
    turns.hand_over("student")
    clock[0] += 2 * HANDOVER_SECONDS  # the student's run never came (the tab was closed)

    def run(name: str) -> None:
        with turns.turn(name):
            order.append(name)

    threads = []
    with turns.turn("holder"):
        for name in ("class mate", "student"):  # a late run of the student lines up as any other
            threads.append(threading.Thread(target=run, args=(name,)))
            threads[-1].start()
            _waiting(turns, len(threads))
    for thread in threads:
        thread.join(5)
    assert order == ["class mate", "student"]
    turns.hand_over("another")
    assert list(turns._first) == ["another"]  # the stale one was dropped


@pytest.mark.parametrize("slots", [1, 2])
def test_no_more_runs_than_slots_at_once(slots):
    turns, lock = Turns(slots), threading.Lock()
    inside, most = [0], [0]

    def run() -> None:
        with turns.turn():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.01)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert most[0] == slots


def test_a_turn_is_reentrant_and_given_back_when_a_run_is_stopped():
    turns = Turns(1)
    with pytest.raises(RuntimeError), turns.turn(), turns.turn():  # a heartbeat drawn inside its full run
        raise RuntimeError("stopped for a newer run")
    got = []
    other = threading.Thread(target=lambda: got.append(turns.turn().__enter__()))
    other.start()
    other.join(2)
    assert not other.is_alive(), "the stopped run kept its turn"


def test_the_store_counts_as_slow_only_while_its_recent_answers_are():
    """What decides whether a run waiting on the store gives its turn back (store.waiting_on_store)."""
    delay = store.StoreDelay()
    for _ in range(20):
        delay.note(0.001)  # Redis beside the app
    assert not delay.slow
    for _ in range(8):
        delay.note(0.150)  # a store held back 150 ms
    assert delay.slow
    for _ in range(30):
        delay.note(0.001)
    assert not delay.slow


class _Counting(MemoryRooms):
    def __init__(self):
        super().__init__()
        self.calls: list[str] = []

    def version(self, room):
        self.calls.append("version")
        return super().version(room)

    def read(self, room):
        self.calls.append("read")
        return super().read(room)


def test_a_new_deck_is_read_once_per_process_and_a_students_after_moment_asks_nothing(monkeypatch):
    rooms, latest = _Counting(), store.Latest()
    monkeypatch.setattr(store, "rooms", lambda: rooms)
    monkeypatch.setattr(store, "_latest", lambda: latest)
    deck = Deck.of(3, 3, book_matrix(), {}, None, None, 45)
    room, secret = rooms.create(deck.to_json())
    first, second = Student(room=room, student="a" * 16), Student(room=room, student="b" * 16)
    assert store.look(first, Moment.BEFORE).deck == deck
    assert store.look(second, Moment.BEFORE).deck == deck
    assert rooms.calls == ["version", "read", "version"]  # the second window took the deck the first one read
    rooms.calls.clear()
    assert store.look(first, Moment.AFTER).version == first.seen and rooms.calls == []
    moved = Deck.of(4, 4, book_matrix(), {}, None, None, 45)
    rooms.publish(room, secret, moved.to_json())
    assert store.look(second, Moment.BEFORE).deck == moved and rooms.calls == ["version", "read"]
    rooms.calls.clear()
    lecturer = store.look(Lecturer(room=room, secret=secret), Moment.AFTER)  # a lecturer's AFTER publishes: it looks
    assert lecturer.deck == moved and rooms.calls == ["version"]


def test_a_following_students_full_run_asks_the_store_once(monkeypatch):
    projection, room = lecture()
    at = student(room)
    poll(at)
    assert window.current() is None  # the test's own thread is no window
    rooms, calls = store.rooms(), []

    class Counting:
        def __getattr__(self, name):
            found = getattr(rooms, name)
            if name not in ("version", "read"):
                return found
            return lambda *args: (calls.append(name), found(*args))[1]

    monkeypatch.setattr(store, "rooms", Counting)
    poll(at)
    assert calls == ["version"]  # its BEFORE moment; not its heartbeat drawn inside the run, nor its AFTER


def test_a_following_students_run_waits_its_turn_and_the_projection_does_not():
    projection, room = lecture()
    at = student(room)
    poll(at)
    turns = store.turns()
    released = threading.Event()

    def hold() -> None:
        with turns.turn():
            released.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    _waiting(turns, 0)
    try:
        projection.run()  # served at once while the class's queue is held
        assert not projection.exception
        with pytest.raises(RuntimeError):
            at.run(timeout=1.5)  # a following student's run waits for the turn
    finally:
        released.set()
        holder.join(5)
    poll(at)


def test_a_lecturers_run_goes_ahead_of_the_class_and_a_students_does_not(monkeypatch):
    projection, room = lecture()
    at = student(room)
    poll(at)
    calls = []
    ahead = Turns.ahead

    def counted(self):
        calls.append("ahead")
        return ahead(self)

    monkeypatch.setattr(Turns, "ahead", counted)
    poll(at)
    assert calls == []
    projection.run()
    assert not projection.exception and calls == ["ahead"]
    assert store.turns()._ahead == 0
