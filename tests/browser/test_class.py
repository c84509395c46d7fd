"""The class follows along, in Chromium: a lecturer's projection and three students' windows.

Run twice: on one app server with the in-process store, and on two app servers sharing a real
redis-server (two replicas: the lecturer on one, the students on the other), where every move
crosses Redis. Each window is a browser context of its own, as each device is.
"""

from __future__ import annotations

import os
import time
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, ROOT, edit_matrix_cell, wait_idle
from tests.browser.lecture import CLASS_BAR, open_projection, open_student, says, step_of, wait_step

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
SETTLE_SECONDS = 1.5  # long enough for a move to have reached a student, had one been made


def test_a_class_follows_breaks_away_and_rejoins(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=4, new_room=True)
        assert room and room != "new" and len(room) == 12
        students = [open_student(stack, browser, class_server.url, room) for _ in range(3)]
        assert [step_of(s, CLASS_BAR) for s in students] == [4, 4, 4]

        # PageDown on the lecturer's projection moves every student (how fast is make bench-room's to measure).
        projection.bring_to_front()
        projection.keyboard.press("PageDown")
        for s in students:
            wait_step(s, 5, 60_000, CLASS_BAR)
        wait_step(projection, 5)

        # A student's own → moves no one else (PageDown scrolls a following student's page: test_follower.py).
        one, two, three = students
        wait_idle(one)
        one.keyboard.press("ArrowRight")
        says(one, CLASS_BAR, "Exploring on your own")
        wait_idle(one)
        one.keyboard.press("ArrowRight")  # and on: an explorer's page runs as a fragment, its clicker there too
        one.wait_for_function("() => new URL(location.href).searchParams.get('walk') === '7'", timeout=60_000)
        time.sleep(SETTLE_SECONDS)
        assert [step_of(two, CLASS_BAR), step_of(three, CLASS_BAR)] == [5, 5]
        assert "Step 5 of" in projection.locator(".st-key-projection-bar").inner_text()

        # A cell edit makes a student explore; Rejoin brings the lecturer's step back.
        assert two.locator('[data-testid="stSidebar"] [data-testid="stDataFrame"]').count() == 0  # folded
        two.locator('[data-testid="stSidebar"] summary', has_text="The lecture's matrix").click()
        edit_matrix_cell(two, 0, 1, "0.99")
        says(two, CLASS_BAR, "Exploring on your own")
        projection.keyboard.press("PageDown")
        wait_step(three, 6, 60_000, CLASS_BAR)
        two.get_by_role("button", name="Rejoin").click()
        says(two, CLASS_BAR, "Following the lecture")
        wait_step(two, 6, 20_000, CLASS_BAR)
        assert two.get_by_role("button", name="Back to my exploration").count() == 1

        # A late joiner lands on the current step.
        late = open_student(stack, browser, class_server.url, room)
        assert step_of(late, CLASS_BAR) == 6
        assert "Exploring on your own" in one.locator(CLASS_BAR).inner_text()  # still their own

        # The join panel (J) on the projection, and a student on a phone in Korean: what the room and a student see.
        projection.keyboard.press("j")
        projection.wait_for_selector(".st-key-join-panel img", timeout=PATIENT_MS)
        assert f"/?room={room}" in projection.inner_text(".st-key-join-panel")
        assert "4 following" in projection.inner_text(".st-key-join-panel")  # one store: every replica counts them
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
        stack.callback(phone.close)
        korean = phone.new_page()
        korean.goto(f"{class_server.url}/?room={room}&lang=ko")
        says(korean, CLASS_BAR, "강의를 따라가는 중", 60_000)
        assert "33단계 중 6단계" in korean.locator(CLASS_BAR).inner_text()  # a late joiner, on the current step
        wait_idle(korean)
        wait_idle(projection)
        SHOTS.mkdir(parents=True, exist_ok=True)
        projection.screenshot(path=str(SHOTS / "join.png"))
        korean.screenshot(path=str(SHOTS / "class-phone.png"))
