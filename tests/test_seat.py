"""The lecturer's seat kept in the lecturer's browser (ui/lecture/seat.py): a reloaded projection or console drives
again; nobody else becomes a driver by it; and nothing about keys or rooms is projected.

The browser's cookie is what a session's ``st.context.cookies`` holds; AppTest sends none, so the cookie the
browser would send is put in its place (``kept``). tests/browser/test_reload.py does it in Chromium.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import APP, BY_ID
from tests.lecture_apptest import lecture, open_console, poll, step_on, student, texts, token_of, walk_app
from ui.lecture import seat
from ui.lecture.records import Lecturer, Student
from ui.state import Key
from ui.words.content import app_text


@pytest.fixture
def kept(monkeypatch):
    """The secrets this test's browser kept, by room (what its cookies would say)."""
    cookies: dict[str, str] = {}
    monkeypatch.setattr(seat, "_kept", lambda room: cookies.get(room))
    return cookies


def lecture_step(room: str) -> int:
    """The step (1-based) the room's deck is on: what the class's light pages show."""
    from ui.lecture.deck import Deck
    from ui.lecture.window import rooms

    return Deck.from_json(rooms().read(room)[1]).position + 1


def press_next(at: AppTest) -> None:
    (button,) = [b for b in at.button if (b.key or "").startswith("step_next:")]
    button.click().run()
    assert not at.exception, at.exception


def seat_script(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html") if 'class="lecture-seat"' in h.proto.body)


def test_a_projection_writes_its_seat_and_a_student_does_not():
    projection, room = lecture()
    secret = projection.session_state[Key.ROOM].record.secret
    script = seat_script(projection)
    assert f'data-name="attention_seat_{room}"' in script and f'data-value="{secret}"' in script
    assert "SameSite=Strict" in script and seat.SEAT_PARAM not in projection.query_params
    assert seat_script(student(room)) == ""
    assert secret not in repr(dict(projection.query_params))  # never in the address


def test_a_reloaded_projection_takes_its_seat_back_and_moves_the_class(kept):
    projection, room = lecture(walk="4")
    kept[room] = projection.session_state[Key.ROOM].record.secret
    reloaded = walk_app(lecture="1", room=room, walk="4")  # F5 on the projection: its browser sends the cookie
    member = reloaded.session_state[Key.ROOM].record
    assert isinstance(member, Lecturer) and not member.console and step_on(reloaded) == "4"
    assert app_text("class_exploring") not in texts(reloaded) and not reloaded.warning
    assert any(b.key == Key.JOIN_BUTTON for b in reloaded.button)  # J, and the console's opener (P), are back
    assert token_of(reloaded)
    press_next(reloaded)
    assert lecture_step(room) == 5  # the class (its light pages) moved with it


def test_a_projection_reopened_from_an_older_address_takes_the_rooms_step(kept):
    projection, room = lecture(walk="2")
    for _ in range(3):
        press_next(projection)
    kept[room] = projection.session_state[Key.ROOM].record.secret
    reopened = walk_app(lecture="1", room=room, walk="2")  # from the browser's history, at step 2
    assert isinstance(reopened.session_state[Key.ROOM].record, Lecturer) and step_on(reopened) == "5"
    assert lecture_step(room) == 5  # the class (its light pages) stays where the lecture is


def test_a_reloaded_console_takes_its_seat_back(kept):
    projection, room = lecture()
    console = open_console(token_of(projection))
    assert console.query_params[seat.SEAT_PARAM] == seat.CONSOLE_SEAT  # the console marks its address
    assert seat_script(console) != ""  # its browser had no seat for the room yet
    kept[room] = console.session_state[Key.ROOM].record.secret
    reloaded = walk_app(room=room, seat=seat.CONSOLE_SEAT)  # its token is long gone from the address
    member = reloaded.session_state[Key.ROOM].record
    assert isinstance(member, Lecturer) and member.console
    assert seat_script(reloaded) == ""  # the seat its browser sent is kept as it is
    press_next(reloaded)
    poll(projection)
    assert step_on(projection) == "2"


def test_the_lecturers_own_tab_on_the_class_link_joins_as_a_student(kept):
    projection, room = lecture()
    kept[room] = projection.session_state[Key.ROOM].record.secret
    assert isinstance(student(room).session_state[Key.ROOM].record, Student)  # no ?lecture=1, no seat=console
    assert isinstance(walk_app(room=room).session_state[Key.ROOM].record, Student)


@pytest.mark.parametrize("wrong", ["", "x" * 32, "not a secret", "<script>"])
def test_a_seat_that_does_not_drive_the_room_is_no_seat(kept, wrong):
    projection, room = lecture()
    kept[room] = wrong
    reloaded = walk_app(lecture="1", room=room)
    assert isinstance(reloaded.session_state[Key.ROOM].record, Student)  # a student of the room, who drives nothing
    assert not reloaded.warning and not reloaded.info  # and says nothing about it on the screen
    shown = [m.value for m in reloaded.markdown] + [b.label for b in reloaded.button]  # nor a student's line
    assert not any(app_text(k) in t for t in shown for k in ("class_exploring", "class_rejoin"))


@pytest.mark.parametrize("cookie", [None, "x" * 32])  # none sent (blocked, another browser), or one that is void
def test_a_console_that_lost_its_seat_is_told_so_and_joins_nothing(kept, cookie):
    projection, room = lecture()
    if cookie is not None:
        kept[room] = cookie
    console = AppTest.from_file(APP, default_timeout=120)  # F5 on the console: its address has no token any more
    console.query_params.update(room=room, seat=seat.CONSOLE_SEAT, lang="ko")
    console.run()
    assert any(app_text("console_seat_lost", lang="ko") in w.value for w in console.warning)  # in its language
    assert all(k not in console.query_params for k in ("room", seat.SEAT_PARAM, "away"))  # out of the room
    console.switch_page(BY_ID["walkthrough"].file).run()
    member = console.session_state[Key.ROOM].record if Key.ROOM in console.session_state else None
    assert member is None and not console.exception  # never a student of its own lecture: a plain walkthrough
    assert seat_script(console) == "" and "room" not in console.query_params


def test_nothing_about_rooms_is_projected():
    for bad in ("AAAAAAAAAAAA", "abc"):
        projection = walk_app(lecture="1", room=bad)
        assert not projection.warning and not projection.info
        assert app_text("room_unknown", room=bad) not in texts(projection)
    console = AppTest.from_file(APP, default_timeout=120)  # a console's used link is said on the console
    console.query_params["console"] = "used-or-made-up"
    console.run()
    assert app_text("console_expired") in texts(console)
