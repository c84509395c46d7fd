"""A following student answers the class poll on the light page and hears their own verdict (ui/follow/answer.py,
ui/follow/verdict.py), through Starlette's TestClient on an in-process store; and the deck carries the right answer
only in a revealed poll (ui/lecture/right.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from ui.check.questions import QUESTIONS, Answer
from ui.follow import page as follow
from ui.follow.student import ANSWERS_PER_MINUTE, RateCap, cookie_name
from ui.inputs.matrix import book_matrix
from ui.lecture.deck import Deck, DeckError, Poll
from ui.lecture.memory_rooms import MemoryRooms
from ui.lecture.right import Right
from ui.lecture.rooms import MAX_ANSWER, PRESENCE_SECONDS, is_student_id
from ui.words.content import app_text, page_text

FIELDS = (("q", 2), ("token", "journey"), ("first", "Your"))
SCORE = Poll(1, 5, "one-query", "score", fields=FIELDS)  # ω(2,1) = 0.9544; the weight α(2,1) = 0.1385 a known mistake
RIGHT = Right(0.9544, (("weight", 0.1385), ("self", 0.9995)))
LABELS = tuple((str(i), f"x({i + 1}) “{t}”") for i, t in enumerate(("Your", "journey", "starts")))
TOP_KEY = Poll(1, 5, "one-query", "top_key", fields=FIELDS[:2], options=("0", "1", "2"), labels=LABELS)


class Lecture:
    """A room on an in-process store with the page's routes, a lecturer who asks and reveals, and students."""

    def __init__(self, cap: RateCap | None = None) -> None:
        self.now = 0.0
        self.rooms = MemoryRooms(clock=lambda: self.now)
        self.room, self.secret = self.rooms.create(self.deck(None).to_json())
        routes = follow.routes(lambda: self.rooms)
        if cap is not None:  # the same routes, with a cap the test holds
            from ui.follow import answer
            routes = [*routes[:2], *answer.routes(lambda: self.rooms, cap)]
        self.app = Starlette(routes=routes)

    @staticmethod
    def deck(poll: Poll | None) -> Deck:
        return replace(Deck.of(5, 5, book_matrix(), {}, None, None, 50), poll=poll)

    def ask(self, poll: Poll) -> None:
        assert self.rooms.open_poll(self.room, self.secret) == poll.number
        self.rooms.publish(self.room, self.secret, self.deck(poll).to_json())

    def reveal(self, poll: Poll, right: Right | None) -> None:
        self.rooms.stop_poll(self.room, self.secret)
        self.rooms.publish(self.room, self.secret, self.deck(replace(poll, revealed=True, right=right)).to_json())

    def student(self, lang: str = "en") -> TestClient:
        client = TestClient(self.app)
        assert client.get(f"/follow/{self.room}?lang={lang}").status_code == 200
        return client

    def send(self, client: TestClient, text: object, poll: object = 1, lang: str = "en", **more):
        return client.post(f"/room/{self.room}/answer?lang={lang}", json={"poll": poll, "text": text}, **more)

    def verdict(self, client: TestClient, poll: int = 1, lang: str = "en"):
        return client.get(f"/room/{self.room}/verdict?poll={poll}&lang={lang}")


@pytest.fixture
def lecture() -> Lecture:
    return Lecture()


def student_id(lecture: Lecture, client: TestClient) -> str:
    return client.cookies.get(cookie_name(lecture.room))


def test_the_page_gives_a_student_id_in_an_httponly_lax_cookie_and_counts_them_present(lecture):
    client = TestClient(lecture.app)
    response = client.get(f"/follow/{lecture.room}?lang=en")
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(cookie_name(lecture.room) + "=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    student = student_id(lecture, client)
    assert is_student_id(student) and lecture.rooms.attendance(lecture.room) == 1
    client.get(f"/follow/{lecture.room}?lang=en")  # a reload keeps the id
    assert student_id(lecture, client) == student and lecture.rooms.attendance(lecture.room) == 1


def test_an_answer_is_read_in_the_students_language_kept_plain_and_replaced_by_the_next(lecture):
    lecture.ask(SCORE)
    client = lecture.student("id")
    response = lecture.send(client, "0,9544", lang="id")  # a decimal comma, as Indonesian writes it
    assert response.status_code == 200
    assert response.json() == {"poll": 1, "sent": app_text("poll_sent", "id", answer="0,9544")}
    assert lecture.rooms.answers(lecture.room, 1) == {student_id(lecture, client): "0.9544"}
    form = client.post(f"/room/{lecture.room}/answer?lang=id", data={"poll": "1", "text": "0,1385"})
    assert form.status_code == 200
    assert lecture.rooms.answers(lecture.room, 1) == {student_id(lecture, client): "0.1385"}


def test_a_choice_is_sent_by_its_id_and_answered_by_its_name(lecture):
    lecture.ask(TOP_KEY)
    client = lecture.student()
    response = lecture.send(client, "1")
    assert response.json()["sent"] == app_text("poll_sent", "en", answer="x(2) “journey”")
    refused = lecture.send(client, "7")
    assert refused.status_code == 400 and refused.text == app_text("answer_not_an_option", "en", text="7")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize(("text", "poll", "status", "key", "fields"), [
    ("zero point nine", 1, 400, "answer_not_a_number", {"text": "zero point nine"}),
    ("   ", 1, 400, "answer_blank", {}),
    ("9" * (MAX_ANSWER + 1), 1, 400, "answer_too_long", {"limit": MAX_ANSWER}),
    (0.9544, 1, 400, "follow_answer_refused", {}),  # not text
    ("0.9544", "1; drop", 400, "follow_answer_refused", {}),
    ("0.9544", True, 400, "follow_answer_refused", {}),
    ("0.9544", 0, 400, "follow_answer_refused", {}),
    ("0.9544", 2, 404, "poll_closed", {}),  # not the deck's open poll
])
def test_hostile_or_unreadable_answers_are_refused_with_the_reason_in_the_students_language(
        lecture, lang, text, poll, status, key, fields):
    lecture.ask(SCORE)
    client = lecture.student(lang)
    response = lecture.send(client, text, poll=poll, lang=lang)
    assert (response.status_code, response.text) == (status, app_text(key, lang, **fields))
    assert lecture.rooms.answers(lecture.room, 1) == {}


def test_requests_without_the_rooms_cookie_of_the_wrong_shape_or_for_no_room_are_refused(lecture):
    lecture.ask(SCORE)
    stranger = TestClient(lecture.app)  # never loaded the page: no id
    assert lecture.send(stranger, "0.9544").status_code == 403
    stranger.cookies.set(cookie_name(lecture.room), "<script>x</script>")
    assert lecture.send(stranger, "0.9544").status_code == 403
    client = lecture.student()
    bad = client.post(f"/room/{lecture.room}/answer", content=b"<xml/>", headers={"content-type": "text/xml"})
    assert bad.status_code == 400 and bad.text == app_text("follow_answer_refused", "en")
    huge = client.post(f"/room/{lecture.room}/answer", json={"poll": 1, "text": "1", "pad": "x" * 5000})
    assert huge.status_code == 400
    nested = client.post(f"/room/{lecture.room}/answer", content=b"[" * 1500,
                         headers={"content-type": "application/json"})
    assert nested.status_code == 400
    assert client.post("/room/not-a-room!/answer", json={"poll": 1, "text": "1"}).status_code == 404
    other = "AbC-12_xyZ09"
    client.cookies.set(cookie_name(other), student_id(lecture, client))
    gone = client.post(f"/room/{other}/answer?lang=vi", json={"poll": 1, "text": "1"})
    assert (gone.status_code, gone.text) == (404, app_text("follow_no_room", "vi"))
    assert lecture.rooms.answers(lecture.room, 1) == {}


def test_no_poll_open_or_a_revealed_one_takes_no_answer(lecture):
    client = lecture.student()
    assert lecture.send(client, "0.9544").status_code == 404  # nothing asked yet
    lecture.ask(SCORE)
    lecture.reveal(SCORE, RIGHT)
    response = lecture.send(client, "0.9544")
    assert (response.status_code, response.text) == (404, app_text("poll_closed", "en"))


def test_a_student_answers_at_most_ten_times_a_minute():
    now = [0.0]
    lecture = Lecture(cap=RateCap(clock=lambda: now[0]))
    lecture.ask(SCORE)
    client, other = lecture.student(), lecture.student()
    assert all(lecture.send(client, f"0.{n}").status_code == 200 for n in range(ANSWERS_PER_MINUTE))
    busy = lecture.send(client, "0.9544", lang="vi")
    assert (busy.status_code, busy.text) == (429, app_text("follow_answer_busy", "vi"))
    assert "retry-after" in busy.headers
    assert lecture.send(other, "0.9544").status_code == 200  # a cap per student, not per room
    assert lecture.rooms.answers(lecture.room, 1)[student_id(lecture, client)] == f"0.{ANSWERS_PER_MINUTE - 1}"
    now[0] = 61.0
    assert lecture.send(client, "0.9544").status_code == 200


def test_an_answer_says_the_student_is_present_however_long_ago_the_page_loaded(lecture):
    lecture.ask(SCORE)
    client = lecture.student()
    lecture.now += 10 * PRESENCE_SECONDS  # the page sends no heartbeat: the room has counted them gone
    assert lecture.rooms.attendance(lecture.room) == 0
    assert lecture.send(client, "0.9544").status_code == 200
    assert lecture.rooms.attendance(lecture.room) == 1


def test_a_full_class_refuses_a_new_students_answer(lecture, monkeypatch):
    lecture.ask(SCORE)
    client = lecture.student("ko")
    monkeypatch.setattr(lecture.rooms, "attend", lambda room, student: False)
    response = lecture.send(client, "0.9544", lang="ko")
    assert (response.status_code, response.text) == (403, app_text("room_class_full", "ko"))


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_each_student_hears_their_own_verdict_as_check_yourself_says_it(lecture, lang):
    lecture.ask(SCORE)
    right, mistaken, other, silent = (lecture.student(lang) for _ in range(4))
    for client, text in ((right, "0.9544"), (mistaken, "0.1385"), (other, "0.5")):
        assert lecture.send(client, text).status_code == 200
    early = lecture.verdict(right, lang=lang)
    assert (early.status_code, early.text) == (404, app_text("follow_verdict_later", lang))
    lecture.reveal(SCORE, RIGHT)
    words = page_text("one-query", lang).questions["score"]
    comma = lang == "vi"
    shown = (lambda s: s.replace(".", ",")) if comma else (lambda s: s)
    said = {name: lecture.verdict(client, lang=lang).json()
            for name, client in (("right", right), ("mistaken", mistaken), ("other", other), ("silent", silent))}
    assert said["right"]["verdict"] == "right"
    assert said["right"]["message"] == app_text("check_correct", lang, given=shown("0.9544"))
    assert said["mistaken"]["verdict"] == "not_yet"
    plain = words("feedback_weight", **dict(FIELDS), given=shown("0.1385")).replace("**", "")
    assert said["mistaken"]["message"] == plain
    assert said["mistaken"]["answer"] == app_text("check_the_answer", lang, answer=shown("0.9544")).replace("**", "")
    assert said["other"]["verdict"] == "not_yet"
    assert said["other"]["message"] == app_text("check_too_low", lang, given=shown("0.5000"),
                                                 answer=shown("0.9544")).replace("**", "")
    assert said["silent"] == {"poll": 1, "verdict": "none", "message": app_text("follow_no_answer", lang),
                              "answer": None}


def test_a_choice_verdict_names_the_options_in_the_students_language(lecture):
    lecture.ask(TOP_KEY)
    client = lecture.student("ko")
    lecture.send(client, "0", lang="ko")
    lecture.reveal(TOP_KEY, Right("1", (("self", "1"), ("least", "0"))))
    said = lecture.verdict(client, lang="ko").json()
    words = page_text("one-query", "ko").questions["top_key"]
    assert said["verdict"] == "not_yet"
    assert said["message"] == words("feedback_least", **dict(FIELDS[:2]), given="x(1) “Your”").replace("**", "")


def test_a_verdict_is_asked_for_the_decks_poll_by_a_student_of_the_room(lecture):
    lecture.ask(SCORE)
    client, silent = lecture.student(), lecture.student()
    assert lecture.send(client, "0.9544").status_code == 200
    lecture.reveal(SCORE, None)  # the console had no live result: the page points at the projection
    assert lecture.verdict(client).json() == {"poll": 1, "verdict": None, "message": app_text("poll_revealed", "en"),
                                              "answer": None}
    assert lecture.verdict(silent).json()["verdict"] == "none"
    assert lecture.verdict(client, poll=2).status_code == 404
    assert TestClient(lecture.app).get(f"/room/{lecture.room}/verdict?poll=1").status_code == 403
    assert client.get(f"/room/{lecture.room}/verdict?poll=x").status_code == 400
    asked = [lecture.verdict(client).status_code for _ in range(ANSWERS_PER_MINUTE)]
    assert asked[-1] == 429 and set(asked[:ANSWERS_PER_MINUTE - 4]) == {200}  # a loop is stopped too


def test_the_right_answer_travels_only_in_a_revealed_poll_and_is_checked_like_the_rest():
    deck = Lecture.deck(replace(SCORE, revealed=True, right=RIGHT))
    assert Deck.from_json(deck.to_json()).poll.right == RIGHT
    data = json.loads(deck.to_json())

    def refused(**poll) -> None:
        broken = {**data, "poll": {**data["poll"], **poll}}
        with pytest.raises(DeckError):
            Deck.from_json(json.dumps(broken))

    refused(revealed=False)  # the answer before the reveal
    refused(right={"value": "0.95", "mistakes": [], "whole": False})  # a number as text
    refused(right={"value": 0.95, "mistakes": [["invented", 1.0]], "whole": False})
    refused(right={"value": 0.95, "mistakes": [], "whole": 1})
    refused(right={"value": 0.95, "mistakes": [], "whole": False, "extra": 1})
    refused(right={"value": 0.95, "mistakes": [["weight", 0.1]] * 17, "whole": False})
    refused(right=[0.95])
    older = {**data, "poll": {k: v for k, v in data["poll"].items() if k != "right"}}
    assert Deck.from_json(json.dumps(older)).poll.right is None  # a deck from before the light page's verdicts
    choice = Lecture.deck(replace(TOP_KEY, revealed=True, right=Right("1"))).to_json()
    assert Deck.from_json(choice).poll.right == Right("1")
    with pytest.raises(DeckError):
        Deck.from_json(choice.replace('"value":"1"', '"value":"9"'))  # not one of the choices


def test_the_console_s_live_answer_becomes_the_revealed_polls_right_answer():
    question = next(q for q in QUESTIONS["one-query"] if q.id == "score")
    answer = Answer(0.9544, dict(FIELDS), {"weight": 0.1385, "not_a_mistake_it_knows": 2.0})
    assert Right.of(question, answer) == Right(0.9544, (("weight", 0.1385),))
    assert Right.of(question, None) is None
    assert Right.of(question, Answer(float("nan"))) is None


def test_every_pollable_questions_live_answer_travels_whole_and_judges_as_on_the_console():
    """At each section's settings (tests/test_check.py), the right answer a revealed poll carries, read back from
    the deck's JSON, judges the right answer and each known mistake's as the console's live answer does."""
    from tests.check_lives import lives as _lives
    from ui.check.questions import SHAPE, judge
    from ui.check.tally import POLL_KINDS

    checked = 0
    for page_id, live in _lives():
        for question in (q for q in QUESTIONS.get(page_id, ()) if q.kind in POLL_KINDS):
            answer = question.answer(live)
            if not isinstance(answer, Answer):
                continue
            right = Right.of(question, answer)
            poll = Poll(1, 5, page_id, question.id, True, (), tuple(answer.options),
                        tuple((k, str(v)) for k, v in answer.labels.items()), right)
            carried = Deck.from_json(Lecture.deck(poll).to_json()).poll.right
            assert carried == right and dict(carried.mistakes).keys() == answer.mistakes.keys(), question.id
            rebuilt = carried.answer((), poll.options, poll.labels)
            several = [m if isinstance(m, tuple) and question.kind != SHAPE else (m,) for m in answer.mistakes.values()]
            values = [answer.value, *(v for group in several for v in group)]
            for value in values:
                given = ",".join(map(str, value)) if question.kind == SHAPE else str(value)
                assert judge(question, rebuilt, given, 0.005) == judge(question, answer, given, 0.005), question.id
            checked += 1
    assert checked > 50
