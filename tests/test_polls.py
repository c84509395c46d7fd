"""Class polls in a lecture's room: the console asks, students answer on their light pages, the projection shows
only a count until the reveal, then the spread, the right answer and the known mistakes by name.

AppTest sessions of one process stand for the projection and its console, and the light page's routes on the same
process's rooms (Starlette's TestClient) for three students, as browsers on one server would. The right answer and
the known mistakes come from the console's own live result (the page computed it, as the book's values are tested
in tests/test_tally.py): the poll must be judged on the room's state, whatever that is.
"""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from streamlit.testing.v1 import AppTest

from tests.lecture_apptest import lecture, open_console, poll, student, texts, token_of
from ui.check.questions import QUESTIONS, Answer
from ui.follow import page as follow
from ui.inputs.matrix import random_matrix
from ui.lecture import store
from ui.lecture.rooms import MAX_POLLS
from ui.shell.activity import activity
from ui.state import Key
from ui.words.content import app_text, page_text

SCORE = {q.id: q for q in QUESTIONS["one-query"]}["score"]  # step 4 of the walkthrough is on 3.3.1


def answer_charts(at: AppTest) -> list[str]:
    """The poll charts the window drew (their dataset is the class's answers: ui/draw/chart_grids.py answers_chart)."""
    return [c.proto.spec for c in at.get("vega_lite_chart") if '"answers"' in c.proto.spec]


def live_answer(at: AppTest) -> Answer:
    """The score question's answer under the live result the window's page computed in its last run."""
    page_id, live = at.session_state[Key.LIVE]
    assert page_id == "one-query"
    return SCORE.answer(live)


class Pupil:
    """A student's light page on the process's rooms: loaded (which gives them an id), and their answers."""

    def __init__(self, room: str, lang: str = "en") -> None:
        self.room, self.lang = room, lang
        self.client = TestClient(Starlette(routes=follow.routes(store.rooms)))
        assert self.client.get(f"/follow/{room}?lang={lang}").status_code == 200
        self.said = ""

    def send(self, number: int, typed: str) -> None:
        answer = self.client.post(f"/room/{self.room}/answer?lang={self.lang}", json={"poll": number, "text": typed})
        self.said = answer.text


def classroom(n: int = 3) -> tuple[AppTest, AppTest, list[Pupil]]:
    projection, room = lecture(walk="4")
    token = token_of(projection)
    console = open_console(token)
    return projection, console, [Pupil(room) for _ in range(n)]


def ask(console: AppTest, projection: AppTest) -> int:
    """The console asks the score question; its number."""
    console.selectbox(key=Key.POLL_QUESTION).set_value("score").run()
    console.button(key=Key.POLL_ASK).click().run()
    assert not console.exception, console.exception
    poll(projection)
    return console.session_state[Key.ROOM].record.poll.number


def reveal(console: AppTest, projection: AppTest) -> str:
    console.button(key=Key.POLL_REVEAL).click().run()
    poll(projection)
    return texts(projection)


def test_a_poll_is_answered_on_devices_counted_and_revealed_with_its_mistakes_by_name():
    projection, console, (right, mistaken, other) = classroom()
    number = ask(console, projection)
    prompt = page_text("one-query").questions["score"]("prompt", **live_answer(console).fields)
    assert prompt in texts(projection)
    answer = live_answer(console)
    assert f"{answer.value:.4f}" == "0.9544"  # the book's ω(2,1) at step 4's query "journey"
    right.send(number, f"{answer.value:.4f}")
    mistaken.send(number, f"{answer.mistakes['weight']:.4f}")  # the weight for the score: a known mistake
    other.send(number, "0.5")
    assert app_text("poll_sent", answer="0.5") in other.said
    poll(projection)
    shown = texts(projection)
    assert app_text("poll_answers", n=3) in shown  # a count, and nothing of the answers
    assert "0.9544" not in shown and app_text("poll_mistakes") not in shown and not answer_charts(projection)
    console.run()
    assert app_text("poll_answered", n=3, of=3) in texts(console) and len(answer_charts(console)) == 1
    shown = reveal(console, projection)
    assert app_text("poll_right", answer="0.9544") in shown and app_text("poll_right_count", n=1, total=3) in shown
    feedback = page_text("one-query").questions["score"]("feedback_weight", **{
        **answer.fields, "given": f"{answer.mistakes['weight']:.4f}", "answer": "0.9544"})
    assert feedback.startswith("Not yet: ")  # said to one learner; to the class, the mistake itself
    explanation = feedback.removeprefix("Not yet: ")
    assert app_text("poll_mistake", n=1, answer=f"{answer.mistakes['weight']:.4f}", explanation=explanation) in shown
    assert len(answer_charts(projection)) == 1  # the spread
    other.send(number, "0.9544")  # too late: revealed polls take no more answers
    assert app_text("poll_closed") in other.said
    console.button(key=Key.POLL_CLOSE).click().run()
    poll(projection)
    assert prompt not in texts(projection) and app_text("poll_answers", n=3) not in texts(projection)


def test_a_poll_is_judged_on_the_rooms_state_when_counted_not_when_asked():
    projection, console, students = classroom(2)
    number = ask(console, projection)
    before = live_answer(console)
    for pupil in students:
        pupil.send(number, f"{before.value:.4f}")
    console.session_state[Key.MATRIX] = random_matrix(6, 3, 11)  # the lecturer loads another matrix meanwhile
    console.run()
    poll(projection)
    after = live_answer(projection)
    assert f"{after.value:.4f}" != f"{before.value:.4f}"
    shown = reveal(console, projection)
    assert app_text("poll_right", answer=f"{after.value:.4f}") in shown
    assert app_text("poll_right_count", n=0, total=2) in shown  # right before the change, wrong after it


@pytest.mark.parametrize("lang, typed", [("id", "0,9544"), ("vi", "0,9544"), ("ko", "0.9544")])
def test_a_student_answers_in_their_own_language_and_convention(lang, typed):
    projection, room = lecture(walk="4")
    token = token_of(projection)
    console = open_console(token)
    pupil = Pupil(room, lang)
    pupil.send(ask(console, projection), typed)
    assert app_text("poll_sent", lang, answer=typed) in pupil.said
    assert app_text("poll_right_count", n=1, total=1) in reveal(console, projection)


def test_only_a_pollable_question_is_offered_and_a_students_device_cannot_ask():
    projection, console, _ = classroom(1)
    at = student(console.session_state[Key.ROOM].record.room, page="walkthrough", walk="4")  # exploring in the app
    offered = console.selectbox(key=Key.POLL_QUESTION).options
    assert len(offered) == len([q for q in QUESTIONS["one-query"] if q.kind in ("number", "choice", "shape",
                                                                                   "predict")])
    assert not [o for o in offered if "**" in o or "`" in o], offered  # the list shows plain text, not Markdown
    chosen = console.selectbox(key=Key.POLL_QUESTION)  # and the question chosen, in full, under the list
    assert offered[chosen.index].split(". ", 1)[1] in [m.value for m in console.markdown]
    assert not [b for b in at.button if b.key in (Key.POLL_ASK, Key.POLL_REVEAL, Key.POLL_CLOSE)]


def test_answers_never_enter_a_link_and_a_room_out_of_polls_says_so():
    projection, console, (pupil,) = classroom(1)
    pupil.send(ask(console, projection), "0.9544")
    for window in (projection, console):  # an address is a share link
        assert all("0.9544" not in value for value in window.query_params.values())
    from ui.lecture.window import rooms

    member = console.session_state[Key.ROOM].record
    console.button(key=Key.POLL_CLOSE).click().run()
    rooms()._rooms[member.room].poll = MAX_POLLS  # this room has asked all it may
    console.button(key=Key.POLL_ASK).click().run()
    assert app_text("poll_too_many", limit=MAX_POLLS) in texts(console)
    assert console.session_state[Key.ROOM].record.poll is None


def test_what_a_window_drew_of_the_room_is_what_the_activity_route_answers_until_a_student_answers():
    """A lecturer's window reruns when the room's activity (ui/shell/activity.py) differs from what its last full run
    drew (ui/lecture/listen.js): on the projection and on the console, the two agree while nothing happens, differ
    once a student answers, and agree again after the rerun, with the new count on screen."""
    projection, console, (pupil, _, _) = classroom()
    member = console.session_state[Key.ROOM].record

    def drawn_and_now(at: AppTest) -> tuple[dict, dict]:
        drawn = at.session_state[Key.WALK_POSITION].activity
        now = activity(store.rooms(), member.room, member.secret)
        return drawn, {name: now.get(name) for name in drawn}

    number = ask(console, projection)
    for window in (projection, console):
        drawn, now = drawn_and_now(window)
        assert drawn == now and drawn["answers"] == 0 and "present" in drawn
    assert "sent" in drawn_and_now(console)[0]  # the console lists what the class sent
    pupil.send(number, "0.5")
    for window in (projection, console):
        drawn, now = drawn_and_now(window)
        assert (drawn["answers"], now["answers"]) == (0, 1)  # news: its listener reruns it
        window.run()
        drawn, now = drawn_and_now(window)
        assert drawn == now and drawn["answers"] == 1
    assert app_text("poll_answers", n=1) in texts(projection)
    console.button(key=Key.POLL_CLOSE).click().run()
    poll(projection)
    assert "answers" not in drawn_and_now(projection)[0]
    assert "answers" not in activity(store.rooms(), member.room, member.secret)
