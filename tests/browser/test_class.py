"""The class follows along, in Chromium: a lecturer's projection and three students' windows.

Run twice: on one app server with the in-process store, and on two app servers sharing a real
redis-server (two replicas: the lecturer on one, the students on the other), where every move
crosses Redis. Each window is a browser context of its own, as each device is.
"""

from __future__ import annotations

import os
import time
from contextlib import ExitStack

import pytest

from tests.browser.harness import ROOT, Server, edit_matrix_cell, wait_idle
from tests.browser.test_projection import wait_step
from tests.redis_server import redis_server_path, running_redis

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
CLASS_BAR = ".st-key-class-bar"
FOLLOW_SECONDS = 1.5  # the bound: a lecturer's move is on every student's screen within this


def bar_says(page, words: str, timeout_ms: float = 20_000) -> None:
    page.wait_for_function("([sel, w]) => (document.querySelector(sel)?.innerText || '').includes(w)",
                           arg=[CLASS_BAR, words], timeout=timeout_ms, polling="raf")


def student_step(page) -> int | None:
    text = page.locator(CLASS_BAR).inner_text() if page.locator(CLASS_BAR).count() else ""
    digits = text.split("Step", 1)[-1].split("of", 1)[0].strip()
    return int(digits) if "Step" in text and digits.isdigit() else None


def wait_student_step(page, k: int, timeout_ms: float) -> None:
    page.wait_for_function("([sel, k]) => /Step\\s*(\\d+)\\s*of/.exec(document.querySelector(sel)?.innerText || '')"
                           "?.[1] === String(k)", arg=[CLASS_BAR, k], timeout=timeout_ms, polling="raf")


def open_student(stack: ExitStack, browser, url: str, room: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    stack.callback(context.close)
    page = context.new_page()
    page.goto(f"{url}/?room={room}")
    bar_says(page, "Following the lecture", 60_000)
    wait_idle(page)
    return page


@pytest.fixture(params=["memory", "redis"])
def servers(request, app_server):
    """(the lecturer's server, the students' server): one server, or two replicas sharing Redis."""
    if request.param == "memory":
        yield app_server, app_server
        return
    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        replicas = [Server(ROOT / "app.py", env={"ATTENTION_ROOMS": url}) for _ in range(2)]
        try:
            for replica in replicas:
                replica.wait_healthy()
            yield replicas[0], replicas[1]
        finally:
            for replica in replicas:
                replica.stop()


def test_a_class_follows_breaks_away_and_rejoins(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection = context.new_page()
        projection.goto(lecturer_server.url + "/walkthrough?lecture=1&room=new&walk=4")
        wait_step(projection, 4, 60_000)
        wait_idle(projection)
        room = projection.evaluate("new URL(location.href).searchParams.get('room')")
        assert room and room != "new" and len(room) == 12
        students = [open_student(stack, browser, class_server.url, room) for _ in range(3)]
        assert [student_step(s) for s in students] == [4, 4, 4]

        # PageDown on the lecturer's projection moves every student.
        projection.bring_to_front()
        projection.keyboard.press("PageDown")
        start = time.monotonic()
        for s in students:
            wait_student_step(s, 5, FOLLOW_SECONDS * 1000 * 4)
        took = time.monotonic() - start
        assert took <= FOLLOW_SECONDS, f"the class followed in {took:.2f} s"
        wait_step(projection, 5)

        # A student's own PageDown moves no one else.
        one, two, three = students
        wait_idle(one)
        one.keyboard.press("PageDown")
        bar_says(one, "Exploring on your own")
        time.sleep(FOLLOW_SECONDS)
        assert [student_step(two), student_step(three)] == [5, 5]
        assert "Step 5 of" in projection.locator(".st-key-projection-bar").inner_text()

        # A cell edit makes a student explore; Rejoin brings the lecturer's step back.
        edit_matrix_cell(two, 0, 1, "0.99")
        bar_says(two, "Exploring on your own")
        projection.keyboard.press("PageDown")
        wait_student_step(three, 6, FOLLOW_SECONDS * 1000 * 4)
        two.get_by_role("button", name="Rejoin").click()
        bar_says(two, "Following the lecture")
        wait_student_step(two, 6, 20_000)
        assert two.get_by_role("button", name="Back to my exploration").count() == 1

        # A late joiner lands on the current step.
        late = open_student(stack, browser, class_server.url, room)
        assert student_step(late) == 6
        assert "Exploring on your own" in one.locator(CLASS_BAR).inner_text()  # still their own

        # The join panel (J) on the projection, and a student on a phone in Korean: what the room and a student see.
        projection.keyboard.press("j")
        projection.wait_for_selector(".st-key-join-panel img", timeout=20_000)
        assert f"/?room={room}" in projection.inner_text(".st-key-join-panel")
        assert "4 following" in projection.inner_text(".st-key-join-panel")  # one store: every replica counts them
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
        stack.callback(phone.close)
        korean = phone.new_page()
        korean.goto(f"{class_server.url}/?room={room}&lang=ko")
        bar_says(korean, "강의를 따라가는 중", 60_000)
        assert "33단계 중 6단계" in korean.locator(CLASS_BAR).inner_text()  # a late joiner, on the current step
        wait_idle(korean)
        wait_idle(projection)
        SHOTS.mkdir(parents=True, exist_ok=True)
        projection.screenshot(path=str(SHOTS / "join.png"))
        korean.screenshot(path=str(SHOTS / "class-phone.png"))
