"""Every following student shows the projection's numbers at every step, in Chromium: the walkthrough walked from
step 1 to 33 with PageDown on the projection, and at each step every printed tensor and every chart's values (the
table a screen reader reads, one cell per chart cell) compared exactly with the projection's.

Run on one server with the in-process store, and on two replicas sharing a real redis-server (the lecturer on one,
the students on the other: each replica computes and draws the step itself). The same walk in AppTest, with a
control changed mid-talk and a projected spotlight, is tests/test_follower_numbers.py.
"""

from __future__ import annotations

import json
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle
from tests.browser.lecture import CLASS_BAR, open_projection, open_student, wait_step
from ui.draw import PRINTED_SELECTOR
from ui.lecture.walkthrough import load_bundled

STEPS = len(load_bundled().steps)
# What a window shows of the step's numbers: its printed tensors, and each chart's values as its table.
NUMBERS_JS = f"""() => ({{
  printed: Array.from(document.querySelectorAll('{PRINTED_SELECTOR}')).map(e => e.textContent),
  tables: Array.from(document.querySelectorAll('[data-testid="stMain"] .sr-only table')).map(t => t.innerText)}})"""
SAME_JS = f"""(want) => JSON.stringify(({NUMBERS_JS})()) === want"""


def test_a_follower_shows_the_projections_numbers_at_every_step(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=1, new_room=True)
        students = [open_student(stack, browser, class_server.url, room) for _ in range(2)]
        charted = 0
        for k in range(1, STEPS + 1):
            if k > 1:
                projection.bring_to_front()
                projection.keyboard.press("PageDown")
                wait_step(projection, k)
            wait_idle(projection)
            shown = projection.evaluate(NUMBERS_JS)
            assert shown["printed"], f"step {k}: the projection printed no tensor"
            charted += bool(shown["tables"])
            for s in students:
                wait_step(s, k, 30_000, CLASS_BAR)
                wait_idle(s)
                try:  # the step's run may still be drawing when its line says k: until it shows the same, or said
                    s.wait_for_function(SAME_JS, arg=_json(shown), timeout=PATIENT_MS, polling=200)
                except Exception:  # noqa: BLE001 (Playwright's TimeoutError): said with what each window shows
                    pass
                assert s.evaluate(NUMBERS_JS) == shown, f"step {k}: a follower's numbers differ from the projection's"
        assert charted >= 20  # most steps draw a chart: the tables were compared, not two empty lists


def _json(value) -> str:
    """As JSON.stringify writes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
