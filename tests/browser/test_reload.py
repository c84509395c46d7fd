"""The lecturer's seat survives a reload, and the room survives a restart (ui/lecture/seat.py,
ui/lecture/sqlite_rooms.py), in Chromium.

- The projection reloaded mid-lecture (an accidental F5) still drives: its next PageDown moves the class, and it
  never projects "Exploring on your own" or a note about keys. With its console closed, P opens a new one.
- The server restarted (SIGTERM, then started again on the same port and the same rooms file): a student's window
  is back in the same room at the same step within seconds, and the projection still drives it.
"""

from __future__ import annotations

import time
from contextlib import ExitStack

from tests.browser.harness import ROOT, Server, wait_idle
from tests.browser.lecture import BAR, CLASS_BAR, open_console, open_projection, open_student, says, wait_step
from ui.words.content import app_text

KEY_WORDS = [app_text(key) for key in ("class_exploring", "class_rejoin", "room_joined", "console_expired")]


def projected(page) -> str:
    return page.inner_text('[data-testid="stApp"]')


def assert_driving(projection, student, k: int) -> None:
    """PageDown on the projection takes it, and the student following, to step ``k``; nothing about keys shows."""
    projection.keyboard.press("PageDown")
    wait_step(projection, k)
    wait_step(student, k, selector=CLASS_BAR)
    says(student, CLASS_BAR, app_text("class_following"))
    wait_idle(projection)
    text = projected(projection)
    assert not [words for words in KEY_WORDS if words in text], text[:500]


def test_a_reloaded_projection_goes_on_driving_and_opens_a_console(browser, app_server):
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=3)
        assert room and "seat" not in projection.evaluate("location.href")
        student = open_student(stack, browser, app_server.url, room)
        wait_step(student, 3, selector=CLASS_BAR)
        projection.reload()  # F5 mid-lecture
        wait_step(projection, 3, 60_000)
        wait_idle(projection)
        assert projection.evaluate("new URL(location.href).searchParams.get('room')") == room
        assert_driving(projection, student, 4)
        console = open_console(context, projection)  # no console was open: P opens one, which drives too
        assert "seat=console" in console.evaluate("location.href") and "console=" not in console.evaluate(
            "new URL(location.href).search.replace('seat=console', '')")
        console.keyboard.press("PageDown")
        wait_step(projection, 5)
        wait_step(student, 5, selector=CLASS_BAR)
        console.reload()  # the console reloaded: still the console (its note), still driving
        console.wait_for_selector(".st-key-console-note", timeout=60_000)
        wait_idle(console)
        console.keyboard.press("PageDown")
        wait_step(projection, 6)
        wait_step(student, 6, selector=CLASS_BAR)


def test_a_restarted_server_finds_its_room_and_the_projection_still_drives(browser, tmp_path):
    (ROOT / "artifacts").mkdir(exist_ok=True)
    env = {"ATTENTION_ROOMS": f"sqlite:///{tmp_path}/rooms.sqlite3"}
    server = Server(ROOT / "app.py", env=env)
    with ExitStack() as stack:
        stack.callback(lambda: server.stop())
        server.wait_healthy()
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, server.url, walk_to=2)
        student = open_student(stack, browser, server.url, room)
        projection.keyboard.press("PageDown")
        wait_step(projection, 3)
        wait_step(student, 3, selector=CLASS_BAR)
        wait_idle(projection)
        opened = {"student": 0, "projection": 0}  # websockets opened since: a reconnect is a new one
        for name, page in (("student", student), ("projection", projection)):
            page.on("websocket", lambda _ws, name=name: opened.__setitem__(name, opened[name] + 1))
        server.stop()  # SIGTERM
        server = Server(ROOT / "app.py", env=env, port=server.port)  # the same port, the same rooms file
        server.wait_healthy()
        started = time.monotonic()
        while min(opened.values()) == 0 and time.monotonic() - started < 30:  # each page reconnects on its own
            student.wait_for_timeout(100)
        reconnected = time.monotonic() - started
        wait_idle(student)  # its first run on the new server has drawn
        assert student.evaluate("new URL(location.href).searchParams.get('room')") == room
        assert app_text("room_unknown", room=room) not in projected(student)
        says(student, CLASS_BAR, app_text("class_following"))
        wait_step(student, 3, selector=CLASS_BAR)  # the same room, at the same step
        back = time.monotonic() - started
        wait_idle(projection)
        assert projection.evaluate("new URL(location.href).searchParams.get('room')") == room
        wait_step(projection, 3)
        assert_driving(projection, student, 4)  # and the projection still drives it
        moved = time.monotonic() - started
        print(f"after the restarted server answered: both windows reconnected in {reconnected:.1f} s, the student"
              f" was back in its room at step 3 in {back:.1f} s, and followed the projection's next move in"
              f" {moved:.1f} s")
        assert back <= 10, back
        assert projection.locator(BAR).count() == 1
