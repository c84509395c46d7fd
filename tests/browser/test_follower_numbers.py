"""Every following student's light page (GET /follow/<room>) shows the projection's numbers at every step, in
Chromium: the walkthrough walked from step 1 to 33 with PageDown on the projection, and at each step each light
page's printed tensor found among the projection's printed tensors, and its chart's numbers (the table a screen reader
reads, one cell per chart cell) compared exactly with the projection's chart tables, cell by cell. One of the two
students is a phone (390x844) whose screen reader listens: at every step the step's caption and the top of its first
picture are on its first screen, nothing is wider than it, and its live region says each move once, with the step's
caption (the question and the verdict on that phone: tests/browser/test_follower.py).

Run on one server with the in-process store, and on two replicas sharing a real redis-server (the lecturer on one,
the students on the other: the move and its picture cross Redis). The same walk in AppTest, with a control changed
mid-talk and a projected spotlight, is tests/test_follower_numbers.py.
"""

from __future__ import annotations

from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle
from tests.browser.lecture import (
    check_layout,
    heard,
    line_of,
    open_listening,
    open_projection,
    open_student,
    said,
    wait_light,
    wait_step,
)
from ui.draw import PRINTED_SELECTOR
from ui.lecture.walkthrough import load_bundled

STEPS = len(load_bundled().steps)
# What the projection shows of the step's numbers: its printed tensors, and each chart's cells as its tables.
PROJECTED_JS = f"""() => ({{
  printed: Array.from(document.querySelectorAll('{PRINTED_SELECTOR}')).map(e => e.textContent),
  tables: Array.from(document.querySelectorAll('[data-testid="stMain"] .sr-only table'))
    .map(t => Array.from(t.querySelectorAll('td')).map(c => c.textContent))}})"""
# What a light page shows: its printed tensor, and its chart's cells as its table.
LIGHT_JS = """() => ({tensor: document.getElementById('tensor')?.textContent,
  cells: Array.from(document.querySelectorAll('#table td')).map(c => c.textContent)})"""
SAME_JS = """([printed, charted]) => printed.includes(document.getElementById('tensor')?.textContent)
  && (document.querySelectorAll('#table td').length > 0) === charted"""


def among(cells: list[str], tables: list[list[str]]) -> bool:
    """Whether ``cells`` are the cells of one or more consecutive tables of the projection's (a grid of heads is
    one table on the light page, one per head on the projection; a step may draw more than its own chart)."""
    return any(cells == [c for t in tables[i:j] for c in t] for i in range(len(tables))
               for j in range(i + 1, len(tables) + 1))


def test_a_follower_shows_the_projections_numbers_at_every_step(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=1, new_room=True)
        phone = open_listening(stack, browser, class_server.url, room, "en")
        students = [phone, open_student(stack, browser, class_server.url, room)]
        charted = 0
        for k in range(1, STEPS + 1):
            if k > 1:
                projection.bring_to_front()
                projection.keyboard.press("PageDown")
                wait_step(projection, k)
            wait_idle(projection)
            shown = projection.evaluate(PROJECTED_JS)
            assert shown["printed"], f"step {k}: the projection printed no tensor"
            charted += bool(shown["tables"])
            for s in students:
                wait_light(s, k)
                try:  # the picture may reach the page a moment after its line: until it shows the same, or said
                    s.wait_for_function(SAME_JS, arg=[shown["printed"], bool(shown["tables"])], timeout=PATIENT_MS,
                                        polling=200)
                except Exception:  # noqa: BLE001 (Playwright's TimeoutError): said with what each window shows
                    pass
                theirs = s.evaluate(LIGHT_JS)
                assert theirs["tensor"] in shown["printed"], (k, theirs["tensor"], shown["printed"])
                assert among(theirs["cells"], shown["tables"]) if shown["tables"] else not theirs["cells"], \
                    f"step {k}: a follower's chart numbers differ: {theirs['cells']} against {shown['tables']}"
            check_layout(phone, k)
            heard(phone, line_of(k, STEPS) + ":")  # the move, with the step's caption
        assert charted >= 20  # most steps draw a chart: the tables were compared, not two empty lists
        spoken = said(phone)  # each move said once, always in the live region the page loaded with
        assert all(s["live"] for s in spoken), spoken
        for k in range(1, STEPS + 1):
            assert sum(s["text"].startswith(line_of(k, STEPS) + ":") for s in spoken) == 1, (k, spoken)
