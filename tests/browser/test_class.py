"""The class follows along, in Chromium: a lecturer's projection and students on the light page (GET
/follow/<room>), one of whom explores a step in the full app and rejoins.

Run twice: on one app server with the in-process store, and on two app servers sharing a real
redis-server (two replicas: the lecturer on one, the students on the other), where every move
crosses Redis. Each student is a browser context of its own, as each device is.
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, ROOT, wait_idle
from tests.browser.lecture import (
    CLASS_BAR,
    explore,
    light_step,
    move,
    open_projection,
    open_student,
    rejoin,
    says,
    wait_keys,
    wait_light,
    wait_step,
)
from ui.words.content import app_text

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True}


def test_a_class_follows_and_a_late_joiner_lands_on_the_current_step(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=4, new_room=True)
        assert room and room != "new" and len(room) == 12
        students = [open_student(stack, browser, class_server.url, room) for _ in range(3)]
        for s in students:
            wait_light(s, 4)

        # PageDown on the lecturer's projection moves every student (how fast is make bench-room's to measure).
        move(projection, 5, students)
        move(projection, 6, students)

        # A late joiner lands on the current step, and a phone in Korean too.
        late = open_student(stack, browser, class_server.url, room)
        wait_light(late, 6)
        assert light_step(late) == 6
        korean = open_student(stack, browser, class_server.url, room, lang="ko", **PHONE)
        says(korean, "#line", "33단계 중 6단계")
        wait_light(korean, 6)
        assert korean.evaluate("document.documentElement.lang") == "ko"

        # The join panel (J) on the projection counts the class: one store, every replica counts them.
        projection.bring_to_front()
        projection.keyboard.press("j")
        projection.wait_for_selector(".st-key-join-panel img", timeout=PATIENT_MS)
        says(projection, ".st-key-join-panel", app_text("join_count", n=5))
        wait_idle(projection)
        SHOTS.mkdir(parents=True, exist_ok=True)
        projection.screenshot(path=str(SHOTS / "join.png"))
        korean.screenshot(path=str(SHOTS / "class-phone.png"))


def test_a_student_explores_the_step_alone_and_rejoins_the_lecture(browser, servers):
    """"Explore this step" opens the full app in the same tab, at the lecture's step, as a student of the room who
    explores: their own moves move no one else; "Rejoin the lecture" brings back the light page at the lecture's
    step, wherever it went meanwhile."""
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=4, new_room=True)
        one, two = (open_student(stack, browser, class_server.url, room) for _ in range(2))
        move(projection, 5, [one, two])

        explore(one, room)  # the full app, at the lecture's step, in the same tab
        assert one.evaluate("new URL(location.href).searchParams.get('walk')") == "5"
        assert len(one.context.pages) == 1
        wait_keys(one)
        one.keyboard.press("ArrowRight")  # their own step: the walkthrough moves on for them alone
        one.wait_for_function("() => new URL(location.href).searchParams.get('walk') === '6'", timeout=PATIENT_MS)
        says(one, CLASS_BAR, app_text("class_exploring"))
        wait_light(two, 5)
        assert light_step(two) == 5
        wait_step(projection, 5)

        move(projection, 6, [two])
        move(projection, 7, [two])
        rejoin(one, room)  # back on the light page, at the lecture's step
        wait_light(one, 7)
        move(projection, 8, [one, two])
