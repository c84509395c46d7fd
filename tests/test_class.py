"""The class in a lecture's room, in the app: students follow on the light page (tests/test_follow_*.py), and the
app's windows of a room's student explore on their own, with a way back to the lecture, and never drive.

AppTest sessions of one process stand for the lecturer's projection and the students' devices: they
share the process's rooms (ui/lecture/store.py rooms(), one per process) as browsers on one server
would. The browser tests with real timings, and with Redis and two replicas, are in tests/browser/.
"""

from __future__ import annotations

import base64
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
import segno
from streamlit.testing.v1 import AppTest

from tests.apptest import APP, BY_ID, printed_tensors
from tests.lecture_apptest import lecture, poll, press_next, step_on, student, texts, walk_app, walk_select
from ui.follow import render
from ui.lecture import classroom, store
from ui.lecture import lecture as lecture_module
from ui.lecture import rooms as rooms_module
from ui.lecture.records import WALK_PAGE, Student
from ui.state import Key
from ui.words.content import app_text, page_text
from ui.words.i18n import LANGUAGES


def rejoin_links(at: AppTest) -> list[str]:
    """The hrefs of the student's "Rejoin the lecture" links (plain links, drawn as HTML)."""
    found = []
    for html in at.get("html"):
        for tag in re.findall(rf'<a class="{Key.CLASS_REJOIN}"[^>]*>', html.proto.body):
            assert "target=" not in tag  # the same tab: the light page takes this tab back
            found.append(unescape(re.search(r'href="([^"]*)"', tag).group(1)))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_student_who_explores_is_in_the_room_says_so_and_has_a_link_back_to_the_light_page(lang):
    projection, room = lecture(walk="4")
    pupil = student(room, page="one-query", lang=lang)
    member = pupil.session_state[Key.ROOM].record
    assert isinstance(member, Student) and member.room == room
    assert app_text("class_exploring", lang=lang) in texts(pupil)
    assert app_text("class_rejoin", lang=lang) in texts(pupil)
    assert rejoin_links(pupil) == [f"/follow/{room}?lang={lang}"]
    assert pupil.query_params["room"] == room and pupil.query_params["away"] == "1"  # a reload explores again


def test_a_student_who_explores_the_walkthrough_sees_its_step_before_the_lecturers_explanation():
    """The walkthrough's explanation is written for a lecturer (its keys, "add ?lecture=1 for a projector"): a
    student who explores gets the one-line idea, the explanation folded under it, as lecture mode shows it."""
    projection, room = lecture(walk="4")
    pupil = student(room, page="walkthrough", walk="7")
    words = page_text("walkthrough")
    assert words.idea in texts(pupil)
    folded = [e for e in pupil.expander if e.label == app_text("full_explanation")]
    assert len(folded) == 1 and any(words.intro.strip() in m.value for m in folded[0].markdown)
    assert sum(words.intro.strip() in m.value for m in pupil.markdown) == 1  # only there, folded
    plain = walk_app(walk="7")  # a learner on their own keeps the whole explanation in view
    assert words.intro.strip() in " ".join(m.value for m in plain.markdown)
    assert not [e for e in plain.expander if e.label == app_text("full_explanation")]


def test_the_rejoin_link_keeps_the_apps_base_path():
    assert classroom._base("/") == "" and classroom._base("/walkthrough") == ""
    assert classroom._base("/attention/") == "/attention" and classroom._base("/attention/one-query") == "/attention"
    assert classroom._base("/attention") == "/attention"  # not a page's name: the base itself


def test_a_student_has_no_listener_and_the_lecture_moves_nothing_of_theirs():
    projection, room = lecture(walk="4")
    pupil = student(room, page="walkthrough", walk="4")
    assert f"key='{Key.LISTEN}'" not in str(pupil._tree) and f"key='{Key.LISTEN}'" in str(projection._tree)
    press_next(pupil)  # their own step
    assert step_on(pupil) == "5"
    press_next(projection)
    press_next(projection)
    poll(pupil)
    assert step_on(pupil) == "5" and step_on(projection) == "6"  # the lecture's moves are the light page's
    assert isinstance(pupil.session_state[Key.ROOM].record, Student)


def test_a_student_holds_no_key_and_cannot_move_the_room():
    projection, room = lecture(walk="4")
    pupil = student(room, page="walkthrough", walk="4")
    member = pupil.session_state[Key.ROOM].record
    assert isinstance(member, Student) and not hasattr(member, "secret")
    from ui.lecture.window import rooms

    version = rooms().version(room)
    press_next(pupil)
    walk_select(pupil, "one-query", "query").set_value(3).run()
    assert not pupil.exception and rooms().version(room) == version  # nothing a student does reaches the room
    with pytest.raises(rooms_module.RoomError):
        rooms().publish(room, "", "{}")
    with pytest.raises(rooms_module.RoomError):
        rooms().publish(room, "guess" * 8, "{}")


def test_a_student_in_the_app_is_counted_in_the_class_and_keeps_the_light_pages_id(monkeypatch):
    from ui.lecture.window import rooms

    _, room = lecture()
    student(room)
    assert rooms().attendance(room) == 1
    monkeypatch.setattr(lecture_module, "_light_id", lambda r: "abcdefghijkl" if r == room else None)
    again = student(room, page="one-query")  # the light page's cookie: the same student, counted once
    assert again.session_state[Key.ROOM].record.student == "abcdefghijkl"
    assert rooms().attendance(room) == 2


@pytest.mark.parametrize("bad", ["abc", "x" * 5000, "<script>alert(1)</script>", "ÄÖÜäöüßÄÖÜä", "../../etc/pass",
                                 "new" + "A" * 9])
def test_a_malformed_or_unknown_room_gets_a_message_and_the_app(bad):
    at = student(bad)
    assert Key.ROOM not in at.session_state and "room" not in at.query_params and "away" not in at.query_params
    known = app_text("room_malformed") if len(bad) != 12 or not bad.isascii() or "/" in bad or "<" in bad \
        else app_text("room_unknown", room=bad)
    assert known in texts(at)
    at.switch_page(BY_ID["one-query"].file).run()
    assert not at.exception and printed_tensors(at)  # the normal app


def test_a_full_class_says_so(monkeypatch):
    monkeypatch.setattr(rooms_module, "MAX_STUDENTS", 2)
    _, room = lecture()
    first, second = student(room), student(room)
    third = student(room)
    assert all(isinstance(s.session_state[Key.ROOM].record, Student) for s in (first, second))
    assert app_text("room_class_full") in texts(third) and Key.ROOM not in third.session_state


def test_the_projection_shows_the_light_pages_link_and_its_qr_code():
    projection, room = lecture()
    student(room)
    projection.button(key=Key.JOIN_BUTTON).click().run()
    words = texts(projection)
    assert f"/follow/{room}" in words and app_text("join_count", n=1) in words and "?room=" not in words
    (image,) = projection.get("image")
    svg = base64.b64decode(image.proto.imgs[0].url.split(",", 1)[1]).decode()
    (link,) = set(re.findall(rf"https?://[^\s<]+/follow/{room}", words))
    drawn = segno.make(link, error="m").svg_inline(scale=10, border=2, dark="#000", light="#fff")
    assert svg.split('d="', 1)[1] == drawn.split('d="', 1)[1]  # the code's modules are the link's, as shown
    projection.button(key=Key.JOIN_BUTTON).click().run()
    assert f"/follow/{room}" not in texts(projection)  # J again: back to the step


def test_the_join_link_at_a_public_address_is_the_light_page(monkeypatch):
    monkeypatch.setenv(classroom.PUBLIC_URL, "https://class.example.org/attention/")
    assert classroom.join_link("abcdefghijkl") == "https://class.example.org/attention/follow/abcdefghijkl"


def test_a_reloaded_projection_without_its_seat_opens_no_other_room_and_moves_no_one():
    projection, room = lecture(walk="4")
    from ui.lecture.window import rooms

    reloaded = walk_app(lecture="1", room=room)  # a void seat: the app keeps it out of driving
    assert reloaded.query_params["room"] == room and isinstance(reloaded.session_state[Key.ROOM].record, Student)
    assert not reloaded.warning and not reloaded.info  # nothing about keys or rooms is projected
    assert app_text("class_exploring") not in texts(reloaded)  # nor a student's line
    version = rooms().version(room)
    press_next(reloaded)  # its own key press moves only itself
    assert rooms().version(room) == version


def test_a_full_server_refuses_a_new_room_with_a_message_and_keeps_the_open_ones():
    from ui.lecture.window import rooms

    projection, room = lecture()
    store = rooms()
    saved = store._max_rooms
    store._max_rooms = len(store)  # as if 1,000 lectures were open
    try:
        refused = student("new")  # ?room=new, on the page it was opened on (AppTest's first run: the home page)
        assert app_text("room_server_full") in texts(refused) and Key.ROOM not in refused.session_state
        assert "room" not in refused.query_params
        projected = walk_app(lecture="1")  # a projection cannot open its room either: it says so, and shows the step
        assert app_text("room_server_full") in texts(projected) and printed_tensors(projected) is not None
        assert store.version(room) is not None  # the open lecture goes on
        pupil = student(room)
        assert isinstance(pupil.session_state[Key.ROOM].record, Student)
    finally:
        store._max_rooms = saved


def test_every_window_draws_the_reconnect_fragment(monkeypatch):
    """No student's window has a timed fragment of its own any more: each draws the reconnect fragment
    (ui/shell/reconnect.py), which makes Streamlit's frontend ask for a run after a reconnect to another replica."""
    import ui.shell.reconnect as reconnect

    calls = []
    monkeypatch.setattr(reconnect, "rerun_after_reconnect", lambda: calls.append("drawn"))
    projection, room = lecture()
    pupil = student(room)
    calls.clear()
    poll(pupil)
    assert calls == ["drawn"]
    projection.run()
    assert calls == ["drawn", "drawn"]
    alone = AppTest.from_file(APP, default_timeout=120).run()
    assert not alone.exception and calls == ["drawn", "drawn", "drawn"]



def test_explore_this_step_opens_the_walkthrough_at_the_lectures_step_and_state_without_an_error():
    """The light page's link (ui/follow/render.py): the walkthrough page, with the lecture's shared state (?s=),
    as a student of the room who explores. The shared link's "opened" line is said once, above the walkthrough (the
    step's page inside it said it again under the same key, and Streamlit refused the page)."""
    projection, room = lecture(walk="4")
    link = render.view(store.rooms().read(room)[1], 1, "en", room)["explore"]
    assert link.startswith(f"./{WALK_PAGE}?")
    params = {k: v[0] for k, v in parse_qs(urlsplit(link).query).items() if k not in ("room", "away")}
    pupil = student(room, page=WALK_PAGE, **params)
    assert not pupil.error, [e.value for e in pupil.error]
    assert app_text("page_failed") not in texts(pupil)
    assert [s.value for s in pupil.success].count(app_text("link_opened")) == 1
    shown = printed_tensors(projection)
    assert shown and shown[0] in printed_tensors(pupil)  # the lecture's step, at the lecture's state


def test_a_projection_whose_store_misses_one_answer_still_shows_its_class_the_step(monkeypatch):
    """The store did not answer the projection's publish of the step it drew (a timeout under load): the publish is
    tried again at once, so the class gets the step's picture without waiting for the lecturer's next key."""
    from ui.lecture.deck import Deck
    from ui.lecture.memory_rooms import MemoryRooms

    publish, missed = MemoryRooms.publish, []

    def once_unanswered(self, room, secret, document, expected=None):
        if Deck.from_json(document).picture is not None and not missed:
            missed.append(room)
            raise rooms_module.RoomsUnavailable("the store did not answer in time")
        return publish(self, room, secret, document, expected)

    monkeypatch.setattr(MemoryRooms, "publish", once_unanswered)
    _, room = lecture(walk="4")
    assert missed == [room]  # the picture's publish met the missed answer
    _, document = store.rooms().read(room)
    picture = Deck.from_json(document).picture
    assert picture is not None and picture.index == 3  # and the class has the step on the projection (step 4)
