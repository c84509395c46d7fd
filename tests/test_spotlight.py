"""The spotlight: a student sends their exploration, the lecturer puts it on the projector, and takes it off again;
and the lesson's record. AppTest sessions of one process stand for the projection, its console and the class,
sharing the process's rooms as browsers on one server would (tests/lecture_apptest.py); the browser test on one
server and on two replicas sharing Redis is tests/browser/test_spotlight.py.

Every exploration arrives from a client, so the hostile ones are here too: forged states, notes with script, a
flood of sends. The store's own caps are tested on every store in tests/test_rooms.py.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from html import escape

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import BY_ID, printed_tensors
from tests.lecture_apptest import lecture, open_console, poll, send, student, texts, token_of
from ui.check.questions import QUESTIONS
from ui.inputs.matrix import book_matrix, random_matrix
from ui.lecture import lesson
from ui.lecture.deck import Deck, DeckError
from ui.lecture.explorations import MAX_NOTE, MAX_STATE, Exploration, ExplorationError, Spotlight
from ui.lecture.records import Student
from ui.lecture.rooms import SENDS_PER_MINUTE, RoomError
from ui.lecture.store import rooms
from ui.sharing.codec import encode_state
from ui.state import Key
from ui.words.content import app_text

SCORE = {q.id: q for q in QUESTIONS["one-query"]}["score"]
BANNER = escape(app_text("spotlight_banner"))  # as the banner's html writes it


def classroom(walk: str, n: int) -> tuple[AppTest, AppTest, list[AppTest], str]:
    projection, room = lecture(walk=walk)
    token = token_of(projection)
    console = open_console(token)
    return projection, console, [student(room) for _ in range(n)], room


def explore(at: AppTest, page_id: str, **controls: object) -> None:
    """A student exploring in the app goes to another page, sets ``controls`` and steps through it."""
    at.switch_page(BY_ID[page_id].file).run()
    at.toggle(key=f"{Key.STEP_MODE_PREFIX}{page_id}").set_value(True).run()
    for name, value in controls.items():
        at.number_input(key=f"{Key.CONTROL_PREFIX}{page_id}:{name}").set_value(value).run()
    assert not at.exception, at.exception
    assert isinstance(at.session_state[Key.ROOM].record, Student)


def secret_of(at: AppTest) -> tuple[str, str]:
    record = at.session_state[Key.ROOM].record
    return record.room, record.secret


def test_a_students_exploration_is_projected_on_its_own_state_and_the_lecture_comes_back_whole():
    projection, console, (one, two, watcher), _ = classroom("19", 3)  # 3.5.1, the weights, seed 789
    lecture_tensors = printed_tensors(projection)
    lecture_state = (projection.session_state[Key.WALK_CONTROLS], projection.session_state[Key.MATRIX])
    explore(one, "causal-mask", seed=5)
    mine = printed_tensors(one)  # the student's first step, on their seed
    assert mine and mine != printed_tensors(projection)
    assert app_text("spotlight_sent", student=1) in send(one, "equal tokens, equal weights?", step="queries")
    explore(two, "causal-mask", d_out=3)
    assert app_text("spotlight_sent", student=2) in send(two)
    console.run()
    listed = texts(console)
    assert listed.index(app_text("spotlight_student", student=2)) < listed.index(app_text("spotlight_student",
                                                                                         student=1))  # newest first
    assert "equal tokens, equal weights?" in listed and console.get("html")
    for window in (projection, one, two, watcher):  # nothing a student sends moves anyone
        poll(window)
    assert printed_tensors(projection) == lecture_tensors
    console.button(key=f"{Key.SPOTLIGHT_PROJECT_PREFIX}1").click().run()
    assert not console.exception, console.exception
    assert app_text("spotlight_on", whose="").split("{")[0] in texts(console)
    for window in (projection,):  # the class sees it on the light page, as the projection drew it
        poll(window)
        shown = texts(window)
        assert BANNER in shown and "equal tokens, equal weights?" in shown
        assert printed_tensors(window)[:1] == mine[:1]  # the student's step, on the student's state
    assert (projection.session_state[Key.WALK_CONTROLS], projection.session_state[Key.MATRIX]) == lecture_state
    projection.button(key=Key.SPOTLIGHT_BACK_KEY).click().run()  # B
    for window in (console, projection):
        poll(window)
        assert BANNER not in texts(window)
    assert printed_tensors(projection) == lecture_tensors  # the lecture's step, as it was


def test_a_student_can_never_project_and_sends_change_no_screen():
    projection, console, (one,), room = classroom("19", 1)
    explore(one, "causal-mask", seed=7)
    send(one, "look")
    assert not [b for b in one.button if b.key and b.key.startswith(Key.SPOTLIGHT_PROJECT_PREFIX)]
    assert Key.SPOTLIGHT_BACK not in [b.key for b in one.button]
    member = one.session_state[Key.ROOM].record
    version = rooms().version(room)
    forged = replace(Deck.from_json(rooms().read(room)[1]),
                     spotlight=Spotlight(1, 1, 18, "causal-mask", None, encode_state(book_matrix(), {})[0]))
    for secret in (member.student, "", "x" * 32):  # a student's window holds no secret; a guess is refused
        with pytest.raises(RoomError):
            rooms().publish(room, secret, forged.to_json())
    assert rooms().version(room) == version
    projection.run()
    assert BANNER not in texts(projection)


def test_a_flood_of_sends_is_capped_with_a_message_and_the_windows_stay_well():
    projection, console, (one,), _ = classroom("19", 1)
    explore(one, "causal-mask")
    said = [send(one, f"try {k}") for k in range(SENDS_PER_MINUTE + 2)]
    assert all(app_text("spotlight_sent", student=1) in s for s in said[:SENDS_PER_MINUTE])
    assert app_text("spotlight_refused_busy") in said[-1]
    console.run()
    assert texts(console).count(app_text("spotlight_student", student=1)) == SENDS_PER_MINUTE
    poll(projection)


def test_a_note_with_script_is_shown_as_text_everywhere():
    projection, console, (one,), _ = classroom("19", 1)
    explore(one, "causal-mask")
    note = '<script>alert(1)</script><img src=x onerror="alert(2)"> **bold** [link](javascript:x)'
    send(one, note)
    console.run()
    console.button(key=f"{Key.SPOTLIGHT_PROJECT_PREFIX}1").click().run()
    for window in (console, projection):
        poll(window)
        bodies = "\n".join(h.proto.body for h in window.get("html"))
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img" in bodies
        assert "<script>alert(1)" not in bodies and "<img src=x" not in bodies
        assert not [m for m in window.markdown if "alert(" in m.value]  # never markdown


def test_the_lesson_record_counts_are_the_reveals_and_the_projected_explorations():
    projection, console, students, room = classroom("4", 3)
    console.selectbox(key=Key.POLL_QUESTION).set_value("score").run()
    console.button(key=Key.POLL_ASK).click().run()
    poll(projection)
    answer = SCORE.answer(console.session_state[Key.LIVE][1])
    for at, typed in zip(students, (f"{answer.value:.4f}", f"{answer.mistakes['weight']:.4f}", "0.5"), strict=True):
        assert rooms().answer(room, at.session_state[Key.ROOM].record.student, 1, typed)  # as the light page sends
    console.button(key=Key.POLL_REVEAL).click().run()
    poll(projection)
    shown = texts(projection)
    assert app_text("poll_right_count", n=1, total=3) in shown  # what the class saw at the reveal
    console.button(key=Key.POLL_CLOSE).click().run()
    explore(students[2], "causal-mask", seed=11)
    send(students[2], "=HYPERLINK(\"http://x\")")
    console.run()
    console.button(key=f"{Key.SPOTLIGHT_PROJECT_PREFIX}1").click().run()
    rows = list(csv.DictReader(io.StringIO(lesson.lesson_csv(rooms().kept(*secret_of(console))))))
    polled = {r["kind"]: r for r in rows if r["kind"] in ("poll_total", "poll_right")}
    assert polled["poll_total"]["count"] == "3" and polled["poll_right"]["count"] == "1"
    assert polled["poll_total"]["right_answer"] == "0.9544" and polled["poll_total"]["lecture_step"] == "4"
    answers = {r["answer"]: (r["count"], r["judged"]) for r in rows if r["kind"] == "poll_answer"}
    assert answers == {"0.9544": ("1", "right"), f"{answer.mistakes['weight']:.4f}": ("1", "mistake"),
                       "0.5000": ("1", "other")}
    assert [(r["mistake"], r["count"]) for r in rows if r["kind"] == "poll_mistake"] == [("weight", "1")]
    (projected,) = [r for r in rows if r["kind"] == "exploration"]
    assert projected["student"] == "1" and projected["page"] == "causal-mask" and projected["lecture_step"] == "4"
    assert projected["note"].startswith("'=")  # a spreadsheet reads it as text, not as a formula


# ----- what arrives is checked like a link ---------------------------------------------------------------

def _sent(**changes: object) -> str:
    good = json.loads(Exploration.of("causal-mask", "weights", book_matrix(), {"seed": 5}, "ok").to_json())
    return json.dumps({**good, **changes})


@pytest.mark.parametrize("changes", [
    {"page": "walkthrough"}, {"page": "../../etc/passwd"}, {"page": "start"}, {"step": "no-such-step"},
    {"step": 3}, {"note": "x" * (MAX_NOTE + 1)}, {"note": "two\nlines"}, {"note": 5}, {"shared": "%%%"},
    {"shared": "A" * (MAX_STATE + 1)}, {"preview": [[1.0] * 13]}, {"preview": "x"}, {"preview": [["a"]]},
    {"weights": "yes"}, {"extra": 1},
    {"shared": encode_state(random_matrix(3, 4, 1), {"dropout": {"seed": 5}})[0]},  # another page's controls
    {"shared": "e30"},  # no matrix
])
def test_a_forged_exploration_is_refused(changes):
    with pytest.raises(ExplorationError):
        Exploration.from_json(_sent(**changes))


def test_a_sent_exploration_round_trips_and_a_nan_or_a_huge_matrix_is_refused():
    sent = Exploration.of("causal-mask", "weights", random_matrix(4, 3, 2), {"seed": 5, "causal": False},
                          "  two   spaces\tand a tab  ")
    assert Exploration.from_json(sent.to_json()) == sent and sent.note == "two spaces and a tab"
    with pytest.raises(ExplorationError):
        Exploration.from_json(_sent().replace('"ok"', "NaN"))
    big = random_matrix(40, 60, 1)
    with pytest.raises(ExplorationError):
        Exploration.of("causal-mask", None, replace(big, origin=None), {}, "")


def test_a_deck_with_a_forged_spotlight_is_refused():
    deck = Deck.of(18, 18, book_matrix(), {}, None, None, 50)
    good = Spotlight.of(1, 1, 18, Exploration.from_json(_sent()))
    assert Deck.from_json(replace(deck, spotlight=good).to_json()).spotlight == good
    for forged in ({**json.loads(json.dumps(good.__dict__)), "page": "nope"},
                   {**good.__dict__, "at": -1}, {**good.__dict__, "student": True}, {"number": 1}):
        text = json.loads(deck.to_json())
        text["spotlight"] = forged
        with pytest.raises(DeckError):
            Deck.from_json(json.dumps(text))


def test_with_step_through_off_the_send_form_says_that_the_step_on_screen_is_the_pages_result():
    projection, console, (one,), _ = classroom("19", 1)
    explore(one, "causal-mask", seed=5)
    assert app_text("spotlight_step_result") not in texts(one)  # stepping through: the step on screen is one step
    one.toggle(key=f"{Key.STEP_MODE_PREFIX}causal-mask").set_value(False).run()
    assert app_text("spotlight_step_result") in [c.value for c in one.caption]
    said = send(one, "whole page")
    assert app_text("spotlight_sent", student=1) in said
    console.run()
    (sent,) = rooms().sent(*secret_of(console))[:1]
    assert json.loads(sent[2])["step"] == "context"  # the page's result: 3.5.1's last step
