"""What the room's windows say about the room, in Chromium: the projection's live count of the class, and a
bad room link's message on the first screen of a phone."""

from __future__ import annotations

from contextlib import ExitStack

from tests.browser.harness import wait_idle
from tests.browser.lecture import open_projection, open_student, says
from ui.words.content import app_text

COUNT = ".st-key-class-count"  # the projection's count, beside the class's icon (J)


def test_the_projections_count_follows_the_class_without_a_step_change(browser, app_server):
    """Students who join while the step stays put are counted on the projection's line within a few seconds,
    and the join panel (J) says the same number."""
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=2, new_room=True)
        says(projection, COUNT, "0")
        for _ in range(2):
            open_student(stack, browser, app_server.url, room)
        says(projection, COUNT, "2", 10_000)  # read again every 2 s: no key pressed on the projection
        projection.bring_to_front()
        projection.keyboard.press("j")
        says(projection, ".st-key-join-panel", app_text("join_count", n=2), 20_000)
        wait_idle(projection)
        assert projection.inner_text(COUNT).strip() == "2"


def test_a_bad_room_link_says_so_at_the_top_of_a_phones_first_screen(browser, app_server):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                user_agent="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")
    try:
        page = phone.new_page()
        for link, key, fields in (("AAAAAAAAAAAA", "room_unknown", {"room": "AAAAAAAAAAAA"}),
                                  ("x<script>", "room_malformed", {})):
            page.goto(f"{app_server.url}/?room={link}&lang=ko")
            message = app_text(key, lang="ko", **fields)
            alert = page.locator('[data-testid="stAlert"]', has_text=message[:12])
            alert.wait_for(timeout=60_000)
            wait_idle(page)
            box = alert.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= 844 / 2, (link, box)
    finally:
        phone.close()
