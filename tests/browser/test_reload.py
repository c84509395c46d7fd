"""The lecturer's seat survives a reload, and the room survives a restart (ui/lecture/seat.py,
ui/lecture/sqlite_rooms.py), in Chromium.

- The projection reloaded mid-lecture (an accidental F5) still drives: its next PageDown moves the class, and it
  never projects "Exploring on your own" or a note about keys. With its console closed, P opens a new one.
- The server restarted (SIGTERM, then started again on the same port and the same rooms file): a student's light page
  (GET /follow/<room>) says it is reconnecting, then is back in the same room at the same step without a reload,
  and the projection still drives it.
"""

from __future__ import annotations

from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, ROOT, Server, wait_idle
from tests.browser.lecture import BAR, open_console, open_projection, open_student, wait_light, wait_open, wait_step
from ui.words.content import app_text

SESSION_JS = "() => document.querySelector('.walk-clicker')?.dataset.s"  # the server session the clicker's keys go to
KEY_WORDS = [app_text(key) for key in ("class_exploring", "class_rejoin", "console_expired")]


def projected(page) -> str:
    return page.inner_text('[data-testid="stApp"]')


def assert_driving(projection, student, k: int) -> None:
    """PageDown on the projection takes it, and the student following, to step ``k``; nothing about keys shows."""
    projection.keyboard.press("PageDown")
    wait_step(projection, k)
    wait_light(student, k)
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
        wait_light(student, 3)
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
        wait_light(student, 5)
        console.reload()  # the console reloaded: still the console (its note), still driving
        console.wait_for_selector(".st-key-console-note", timeout=60_000)
        wait_idle(console)
        console.keyboard.press("PageDown")
        wait_step(projection, 6)
        wait_light(student, 6)


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
        wait_light(student, 3)
        wait_idle(projection)
        student.evaluate("window.__stay = 1")  # gone if the page reloads
        session = projection.evaluate(SESSION_JS)
        server.stop()  # SIGTERM
        student.wait_for_function("() => document.getElementById('line').dataset.state === 'closed'",
                                  timeout=PATIENT_MS)  # the page says it lost the lecture
        assert student.inner_text("#line") == app_text("follow_reconnecting")
        server = Server(ROOT / "app.py", env=env, port=server.port)  # the same port, the same rooms file
        server.wait_healthy()
        wait_open(student)  # it reconnects on its own
        wait_light(student, 3)  # the same room, at the same step
        assert student.evaluate("window.__stay") == 1, "the light page reloaded"
        assert student.evaluate("location.pathname") == f"/follow/{room}"
        # The projection is back once the new server has run its page: its clicker belongs to a new session (a key
        # pressed before, while it reconnects, counts in the old one, which the new server never takes).
        projection.wait_for_function(f"(old) => ({SESSION_JS})() !== old", arg=session, timeout=PATIENT_MS)
        wait_idle(projection)
        assert projection.evaluate("new URL(location.href).searchParams.get('room')") == room
        wait_step(projection, 3)
        assert_driving(projection, student, 4)  # and the projection still drives it
        assert projection.locator(BAR).count() == 1
