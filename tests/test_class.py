"""The class in a lecture's room: students join by link, follow, break away, rejoin, and never drive.

AppTest sessions of one process stand for the lecturer's projection and the students' devices: they
share the process's rooms (ui/lecture/window.py rooms(), a st.cache_resource) as browsers on one server
would. A student's poll is one more run of their session. The browser test with real timings, and
with Redis and two replicas, is tests/browser/test_class.py.
"""

from __future__ import annotations

import base64
import re

import pytest
import segno
from streamlit.testing.v1 import AppTest

from tests.apptest import APP, BY_ID, printed_tensors
from tests.lecture_apptest import (
    lecture,
    open_console,
    open_controls,
    poll,
    press_next,
    step_on,
    student,
    texts,
    token_of,
    walk_app,
)
from ui.lecture import rooms as rooms_module
from ui.lecture.records import Student
from ui.lecture.walkthrough import load_bundled
from ui.state import Key, fold_key
from ui.words.content import app_text, page_text
from ui.words.i18n import LANGUAGES


def status(at: AppTest, lang: str = "en") -> str:
    words = texts(at)
    following, exploring = app_text("class_following", lang=lang), app_text("class_exploring", lang=lang)
    assert (following in words) != (exploring in words), "a student's line says one mode"
    return "following" if following in words else "exploring"


def test_a_student_joins_at_the_current_step_and_follows():
    projection, room = lecture()
    press_next(projection)
    press_next(projection)
    late = student(room)  # joins on the home page: taken to the lecture, at step 3
    assert step_on(late) == "3" and status(late) == "following"
    assert app_text("step_of", k=3, n=len(load_bundled().steps)) in texts(late)  # as the projection says it
    assert app_text("room_joined") in texts(late)
    press_next(projection)
    poll(late)
    assert step_on(late) == "4" and page_text("one-query").title in texts(late)
    assert printed_tensors(late) == printed_tensors(projection)  # the same live tensors
    assert len(late.sidebar.selectbox) and late.sidebar.expander  # the full page: the sidebar and its matrix panel


def test_a_following_students_address_is_the_rooms_link_and_an_explorers_is_their_own():
    projection, room = lecture(walk="4")
    pupil = student(room, lang="id")
    for _ in range(2):
        press_next(projection)
        poll(pupil)
    assert step_on(pupil) == "6" and status(pupil, "id") == "following"
    # Following, the address holds the room and the student's language: the room holds the rest.
    assert set(pupil.query_params) == {"room", "lang"} and pupil.query_params["lang"] == "id"
    press_next(pupil)  # their own step: they explore, and their address is a link to what they see again
    assert status(pupil, "id") == "exploring"
    assert pupil.query_params["walk"] == "7" and pupil.query_params["away"] == "1" and "s" in pupil.query_params


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_student_follows_in_their_own_language(lang):
    projection, room = lecture(walk="4")
    own = student(room, lang=lang)
    assert step_on(own) == "4" and status(own, lang) == "following"
    assert page_text("one-query", lang).title in texts(own)
    assert printed_tensors(own) == printed_tensors(projection)


def test_a_students_own_step_moves_no_one_and_rejoin_brings_the_lecture_back():
    projection, room = lecture(walk="4")
    one, other = student(room), student(room)
    press_next(one)  # the student's own PageDown
    assert step_on(one) == "5" and status(one) == "exploring"
    projection.run()
    poll(other)
    assert step_on(projection) == "4" and step_on(other) == "4" and status(other) == "following"
    assert one.query_params["away"] == "1"  # a reconnect keeps the student exploring
    press_next(projection)
    poll(one)
    assert step_on(one) == "5"  # exploring: the lecture's moves wait for Rejoin
    one.button(key=Key.CLASS_REJOIN).click().run()
    assert status(one) == "following" and step_on(one) == "5"  # the lecture's step 5 now
    press_next(projection)
    poll(one)
    assert step_on(one) == "6" and "away" not in one.query_params
    one.button(key=Key.CLASS_BACK).click().run()  # their own exploration back, where they left it
    assert not one.exception and status(one) == "exploring" and step_on(one) == "5"


def test_a_follower_sees_the_step_first_and_the_notes_only_once_the_lecturer_shares_them():
    projection, room = lecture(walk="4")
    console = open_console(token_of(projection))
    pupil = student(room)
    note = load_bundled().steps[3].note
    words = texts(pupil)
    assert pupil.session_state[Key.ROOM].record.following and step_on(pupil) == "4"
    assert page_text("walkthrough").title not in words and page_text("walkthrough").intro not in words  # no header
    assert note not in words and Key.CLASS_NOTE not in str(pupil)  # the speaker note is the lecturer's
    assert not [b for b in pupil.button if (b.key or "").startswith("step_pagedown:")]  # PageDown scrolls the page
    console.toggle(key=Key.CONSOLE_SHARE_NOTES).set_value(True).run()
    assert not console.exception
    poll(projection)
    poll(pupil)
    assert note in texts(pupil) and pupil.session_state[Key.ROOM].record.following  # shared: under the step
    console.toggle(key=Key.CONSOLE_SHARE_NOTES).set_value(False).run()
    poll(projection)
    poll(pupil)
    assert note not in texts(pupil)


def test_an_explorers_line_says_where_the_lecture_is():
    projection, room = lecture(walk="4")
    pupil = student(room)
    press_next(pupil)  # their own step 5
    assert not pupil.session_state[Key.ROOM].record.following and app_text("class_lecture_at", k=4) in texts(pupil)
    press_next(projection)
    press_next(projection)
    poll(pupil)
    poll(pupil)
    assert step_on(pupil) == "5" and app_text("class_lecture_at", k=6) in texts(pupil)


def test_a_cell_edit_breaks_away_and_the_exploration_stays_one_click_away():
    projection, room = lecture(walk="4")
    pupil = student(room)
    lecture_tensors = printed_tensors(pupil)
    open_controls(pupil)
    pupil.selectbox(key="walk:one-query:query").set_value(4).run()  # the student's own query
    assert status(pupil) == "exploring"
    own_tensors = printed_tensors(pupil)
    assert own_tensors != lecture_tensors
    poll(projection)
    assert projection.selectbox(key="walk:one-query:query").value != 4  # the lecturer is not moved
    pupil.button(key=Key.CLASS_REJOIN).click().run()
    assert status(pupil) == "following" and printed_tensors(pupil) == lecture_tensors
    pupil.button(key=Key.CLASS_BACK).click().run()
    assert status(pupil) == "exploring" and printed_tensors(pupil) == own_tensors  # nothing they did is lost


def test_a_following_students_matrix_editor_is_folded_until_opened_and_unfolded_once_they_explore():
    """Every move of the lecture reruns every student's app, and the sidebar's data editor was about a fifth of
    that run's server CPU (benchmarks/PROFILE-ROOM.md): while a student follows, it is drawn only once opened."""
    projection, room = lecture(walk="4")
    pupil = student(room)
    assert status(pupil) == "following" and not pupil.sidebar.dataframe
    assert app_text("lecture_matrix_fold") in [e.label for e in pupil.sidebar.expander]
    pupil.session_state[fold_key("lecture_matrix")] = True  # the student opens the fold
    pupil.run()
    (editor,) = pupil.sidebar.dataframe
    assert status(pupil) == "following" and len(editor.value) == 6  # opening it is not exploring
    pupil.session_state[fold_key("lecture_matrix")] = False
    open_controls(pupil)
    pupil.selectbox(key="walk:one-query:query").set_value(4).run()
    assert status(pupil) == "exploring" and len(pupil.sidebar.dataframe) == 1  # their own matrix: unfolded
    pupil.button(key=Key.CLASS_REJOIN).click().run()
    assert status(pupil) == "following" and not pupil.sidebar.dataframe


def test_a_following_students_controls_are_folded_under_the_step_and_hold_the_lectures_values():
    """A widget is most of a run's cost, and every move reruns every student (benchmarks/PROFILE-ROOM.md): a
    follower's device draws the step, and the page's controls only once opened; opening them is not exploring."""
    projection, room = lecture(walk="4")
    pupil = student(room)
    folded_tensors = printed_tensors(pupil)
    assert status(pupil) == "following" and not pupil.main.selectbox and not pupil.main.toggle and not pupil.main.radio
    assert app_text("follower_controls_fold") in [e.label for e in pupil.expander]
    assert folded_tensors == printed_tensors(projection)  # the lecture's values, with no widget drawn
    open_controls(pupil)
    assert status(pupil) == "following" and printed_tensors(pupil) == folded_tensors
    assert pupil.selectbox(key="walk:one-query:query").value == projection.selectbox(key="walk:one-query:query").value
    projection.selectbox(key="walk:one-query:query").set_value(3).run()  # the lecturer changes the query
    poll(pupil)
    assert status(pupil) == "following" and pupil.selectbox(key="walk:one-query:query").value == 3
    pupil.session_state[fold_key("follower_controls")] = False
    pupil.run()
    assert not pupil.main.selectbox and printed_tensors(pupil) == printed_tensors(projection)


def test_following_students_share_one_computation_and_an_explorer_computes_their_own():
    from ui.page import _shared_results

    shared = _shared_results()
    shared._results.clear()
    projection, room = lecture(walk="4")
    first = student(room)
    made = [key for key in shared._results if key[0] == "one-query"]
    assert made, "a follower's computation is shared"
    second = student(room)
    assert [key for key in shared._results if key[0] == "one-query"] == made  # the second one reused it
    assert printed_tensors(second) == printed_tensors(first) == printed_tensors(projection)
    open_controls(second)
    second.selectbox(key="walk:one-query:query").set_value(4).run()
    assert status(second) == "exploring" and printed_tensors(second) != printed_tensors(first)
    assert [key for key in shared._results if key[0] == "one-query"] == made  # an explorer's is their own


def test_following_students_replay_one_drawing_of_the_step_in_their_language(monkeypatch):
    """The step's chart, tensor, formula and lines of code are built once per process for the class (the first
    follower's run) and replayed to every other follower; another language, or an explorer, builds its own."""
    import ui.draw
    from ui.steps import stepper

    stepper._shared_picture.clear()
    stepper._shared_words.clear()
    built, show_step = [], ui.draw.show_step
    monkeypatch.setattr(ui.draw, "show_step", lambda *a, **k: (built.append(a[1]), show_step(*a, **k))[1])
    projection, room = lecture(walk="4")
    built.clear()  # the projection's own
    first = student(room)
    assert len(built) == 1
    second = student(room)
    assert len(built) == 1  # replayed: not built again
    assert printed_tensors(second) == printed_tensors(first) == printed_tensors(projection)
    assert [c.proto.spec for c in second.get("vega_lite_chart")] == [
        c.proto.spec for c in first.get("vega_lite_chart")]
    assert second.latex and [m.value for m in second.latex] == [m.value for m in first.latex]
    korean = student(room, lang="ko")
    assert len(built) == 2 and printed_tensors(korean) == printed_tensors(first)
    poll(second)
    assert len(built) == 2 and printed_tensors(second) == printed_tensors(first)
    open_controls(second)  # their controls drawn (not the lecture's quiet ones): their own drawing from here
    before = len(built)
    second.selectbox(key="walk:one-query:query").set_value(4).run()
    assert status(second) == "exploring" and len(built) == before + 1  # an explorer's step is their own
    assert printed_tensors(second) != printed_tensors(first)


def test_a_followers_beat_says_which_step_their_last_full_run_drew_and_an_explorers_does_not():
    """The watchdog (ui/lecture/watchdog.js, tests/browser/test_watchdog.py) compares it with the line's step."""
    projection, room = lecture(walk="4")
    pupil = student(room)

    def drawn(at: AppTest) -> list[str]:
        return re.findall(r'data-beat="\d+" data-behind="\d"(?: data-step="(\d+)")?', "".join(
            h.proto.body for h in at.get("html")))

    assert drawn(pupil) == ["4"]
    press_next(projection)
    poll(pupil)
    assert step_on(pupil) == "5" and drawn(pupil) == ["5"]
    pupil.switch_page(BY_ID["dropout"].file).run()  # exploring: no line with a step to compare
    assert status(pupil) == "exploring" and drawn(pupil) == [""]


def test_another_page_is_exploring_and_rejoin_comes_back_to_the_lecture():
    projection, room = lecture(walk="9")
    pupil = student(room)
    pupil.switch_page(BY_ID["dropout"].file).run()
    assert status(pupil) == "exploring" and page_text("dropout").title in texts(pupil)
    pupil.button(key=Key.CLASS_REJOIN).click().run()
    assert status(pupil) == "following" and step_on(pupil) == "9"
    pupil.switch_page(BY_ID["walkthrough"].file).run()  # (AppTest stays on the page a test switched to)
    assert status(pupil) == "following" and step_on(pupil) == "9"
    pupil.button(key=Key.CLASS_BACK).click().run()
    assert status(pupil) == "exploring" and page_text("dropout").title in texts(pupil)


def test_a_student_holds_no_key_and_cannot_move_the_room():
    projection, room = lecture(walk="4")
    pupil = student(room)
    member = pupil.session_state[Key.ROOM].record
    assert isinstance(member, Student) and not hasattr(member, "secret")
    from ui.lecture.window import rooms

    version = rooms().version(room)
    press_next(pupil)
    open_controls(pupil)
    pupil.selectbox(key="walk:one-query:query").set_value(3).run()
    assert rooms().version(room) == version  # nothing a student does reaches the room
    with pytest.raises(rooms_module.RoomError):
        rooms().publish(room, "", "{}")
    with pytest.raises(rooms_module.RoomError):
        rooms().publish(room, "guess" * 8, "{}")


@pytest.mark.parametrize("bad", ["abc", "x" * 5000, "<script>alert(1)</script>", "ÄÖÜäöüßÄÖÜä", "../../etc/pass",
                                 "new" + "A" * 9])
def test_a_malformed_or_unknown_room_gets_a_message_and_the_app(bad):
    at = student(bad)
    assert Key.ROOM not in at.session_state and "room" not in at.query_params
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
    assert status(first) == status(second) == "following"
    assert app_text("room_class_full") in texts(third) and Key.ROOM not in third.session_state


def test_the_projection_shows_the_join_link_and_its_qr_code():
    projection, room = lecture()
    student(room)
    projection.button(key=Key.JOIN_BUTTON).click().run()
    words = texts(projection)
    assert f"/?room={room}" in words and app_text("join_count", n=1) in words
    (image,) = projection.get("image")
    svg = base64.b64decode(image.proto.imgs[0].url.split(",", 1)[1]).decode()
    (link,) = set(re.findall(rf"https?://[^\s<]+/\?room={room}", words))
    drawn = segno.make(link, error="m").svg_inline(scale=10, border=2, dark="#000", light="#fff")
    assert svg.split('d="', 1)[1] == drawn.split('d="', 1)[1]  # the code's modules are the link's, as shown
    projection.button(key=Key.JOIN_BUTTON).click().run()
    assert f"/?room={room}" not in texts(projection)  # J again: back to the step


def test_a_reloaded_projection_follows_its_room_instead_of_opening_another():
    projection, room = lecture(walk="4")
    from ui.lecture.window import rooms

    reloaded = walk_app(lecture="1", room=room)  # a reload, or a reconnect after its replica died: no key
    assert reloaded.query_params["room"] == room and isinstance(reloaded.session_state[Key.ROOM].record, Student)
    assert step_on(reloaded) == "4" and not reloaded.warning  # nothing about keys or rooms is projected
    assert app_text("room_joined") not in texts(reloaded)
    press_next(projection)
    poll(reloaded)
    assert step_on(reloaded) == "5"
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
        assert status(pupil) == "following"
    finally:
        store._max_rooms = saved


class _Stopped(Exception):
    """Stands for Streamlit stopping a run at a session write, for the rerun a browser asked for meanwhile."""


def test_a_take_stopped_half_way_is_taken_again_and_the_student_still_follows(monkeypatch):
    """Every session write is a point where a run may stop. A student's run stopped while it put the lecture's new
    step on screen (the step set, its controls not yet) must leave a record that says the deck is still to take:
    set first, the half-taken screen would read as the student's own change, and they would silently explore."""
    from ui.lecture import state as walk_state

    projection, room = lecture(walk="22")
    pupil = student(room)
    press_next(projection)  # to 3.5.2's dropout, whose step sets the rate: the step's controls differ
    real, calls = walk_state.replace_walk_controls, []

    def stopped_once(new):
        calls.append(new)
        if len(calls) == 1:
            raise _Stopped
        real(new)

    monkeypatch.setattr(walk_state, "replace_walk_controls", stopped_once)
    pupil.run()
    assert calls and pupil.exception  # the run stopped inside the take
    monkeypatch.setattr(walk_state, "replace_walk_controls", real)
    poll(pupil)
    assert pupil.session_state[Key.ROOM].record.following and status(pupil) == "following"
    assert step_on(pupil) == "23" and printed_tensors(pupil) == printed_tensors(projection)


def test_a_students_device_draws_no_reconnect_fragment_and_other_windows_do(monkeypatch):
    """A student's heartbeat is a timed fragment on every page, and that is what makes Streamlit's frontend ask for
    a run after a reconnect: the reconnect fragment (ui/shell/reconnect.py) would be two more messages in every
    follower's update. Every other window still draws it: a lone learner, the projection."""
    import ui.shell.reconnect as reconnect

    calls = []
    monkeypatch.setattr(reconnect, "rerun_after_reconnect", lambda: calls.append("drawn"))
    projection, room = lecture()
    pupil = student(room)
    calls.clear()
    poll(pupil)
    assert calls == [] and status(pupil) == "following"
    projection.run()
    assert calls == ["drawn"]
    alone = AppTest.from_file(APP, default_timeout=120).run()
    assert not alone.exception and calls == ["drawn", "drawn"]
