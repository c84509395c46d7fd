"""What the room's windows say about the room, in Chromium: the projection's live count of the class (students on the
light page, present while their event stream is open), the join link (the light page), an old ``/?room=<id>`` link
led there, and a bad room link's message on the first screen of a phone."""

from __future__ import annotations

import time
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle
from tests.browser.lecture import open_projection, open_student, says, wait_open
from ui.lecture.rooms import PRESENCE_SECONDS
from ui.words.content import app_text

COUNT = ".st-key-class-count"  # the projection's count, beside the class's icon (J)
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "user_agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"}


def test_the_projections_count_follows_the_class_without_a_step_change(browser, app_server):
    """Students who join while the step stays put are counted on the projection's line within a few seconds,
    the join panel (J) says the same number, and they stay counted while their page is open; one who closes
    the page is counted out."""
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=2, new_room=True)
        says(projection, COUNT, "0")
        students = [open_student(stack, browser, app_server.url, room) for _ in range(2)]
        says(projection, COUNT, "2")  # read again every 2 s: no key pressed on the projection
        projection.bring_to_front()
        projection.keyboard.press("j")
        says(projection, ".st-key-join-panel", app_text("join_count", n=2))
        wait_idle(projection)
        # Present while the stream is open: still two, read after read, for longer than a presence lasts without
        # news (ui/lecture/rooms.py PRESENCE_SECONDS); then one once a student's page is closed.
        read = []
        deadline = time.monotonic() + PRESENCE_SECONDS + 6
        while time.monotonic() < deadline:
            read.append(projection.inner_text(COUNT).strip())
            projection.wait_for_timeout(500)
        assert {r for r in read if r} == {"2"}, read  # (empty: the fragment drawing its next read)
        students[0].context.close()
        says(projection, ".st-key-join-panel", app_text("join_count", n=1))


def test_the_join_link_is_the_light_page_and_an_old_room_link_leads_there(browser, app_server):
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=2, new_room=True)
        projection.bring_to_front()
        projection.keyboard.press("j")
        projection.wait_for_selector(".st-key-join-panel .join-link", timeout=PATIENT_MS)
        link = projection.inner_text(".st-key-join-panel .join-link").strip()
        assert link.endswith(f"/follow/{room}"), link

        phone = browser.new_context(**PHONE)
        stack.callback(phone.close)
        page = phone.new_page()
        answered = page.goto(f"{app_server.url}/?room={room}&lang=ko")  # a link from before the light page
        first = answered.request.redirected_from
        assert first is not None and first.response().status == 303, first
        page.wait_for_url(f"**/follow/{room}?lang=ko", timeout=PATIENT_MS)
        wait_open(page)
        says(page, "#line", "33단계 중 2단계")


def test_a_bad_room_link_says_so_at_the_top_of_a_phones_first_screen(browser, app_server):
    """A malformed room id is refused with the reason; a room that does not exist (any more) is said so on the
    page rather than "Reconnecting…" for ever."""
    phone = browser.new_context(**PHONE)
    try:
        page = phone.new_page()
        refused = page.goto(f"{app_server.url}/follow/x%3Cscript%3E?lang=ko")
        assert refused.status == 404
        assert page.inner_text("body").strip() == app_text("follow_malformed", lang="ko")
        page.goto(f"{app_server.url}/follow/AAAAAAAAAAAA?lang=ko")
        message = app_text("follow_no_room", lang="ko")
        said = page.get_by_text(message)
        said.first.wait_for(timeout=PATIENT_MS)
        box = said.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= 844 / 2, box
    finally:
        phone.close()
