"""A following student's light page (GET /follow/<room>, no Streamlit session) shows the projection's numbers at
every step, in Chromium: the walkthrough walked from step 1 to 33 with PageDown on the projection, and at each step
the light page's line and printed tensor compared with what the projection printed. The numbers travel in the room
as the projection's own picture of the step (ui/lecture/picture.py), so they are the projection's by construction.

Run on one server with the in-process store, and on two replicas sharing a real redis-server (the lecturer on one,
the light page's event stream on the other: the move crosses Redis's pub/sub)."""

from __future__ import annotations

import time
from contextlib import ExitStack

from tests.browser.lecture import open_projection, wait_step
from ui.draw import PRINTED_SELECTOR
from ui.lecture.walkthrough import load_bundled
from ui.words.content import app_text
from ui.words.plain import plain_text

STEPS = len(load_bundled().steps)
PRINTED_JS = f"() => Array.from(document.querySelectorAll('{PRINTED_SELECTOR}')).map(e => e.textContent)"
LIGHT_JS = """() => [document.getElementById('line')?.textContent, document.getElementById('tensor')?.textContent]"""


def test_a_light_page_shows_the_projections_numbers_at_every_step(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=1, new_room=True)
        phone = browser.new_context(viewport={"width": 390, "height": 844})
        stack.callback(phone.close)
        light = phone.new_page()
        light.goto(f"{class_server.url}/follow/{room}?lang=en")
        for k in range(1, STEPS + 1):
            if k > 1:
                projection.bring_to_front()
                projection.keyboard.press("PageDown")
                wait_step(projection, k)
            line = plain_text(app_text("step_of", "en", k=k, n=STEPS))
            # Until the light page's step and tensor are among what the projection prints now: either window may
            # still be drawing the step when its line says k. A minute without agreement is a wrong number.
            deadline = time.monotonic() + 60
            while True:
                printed, shown = projection.evaluate(PRINTED_JS), light.evaluate(LIGHT_JS)
                if line in (shown[0] or "") and shown[1] in printed:
                    break
                assert time.monotonic() < deadline, f"step {k}: the light page shows {shown}, the projection {printed}"
                light.wait_for_timeout(200)
