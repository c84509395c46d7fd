"""A class poll in Chromium: the console asks, three students answer on their devices, the projection
shows a count only, then the reveal: the spread, the right answer marked, the known mistake by name.

Run twice, as tests/browser/test_class.py: one server with the in-process store, and two replicas
sharing a real redis-server (the lecturer's windows on one, the students on the other). At step 4 the
question is the book's ω(2,1) for "journey": 0.9544, and giving the weight α(2,1) = 0.1385 instead is
the known mistake "weight" (the chapter's printed values).
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from tests.browser.harness import ROOT, wait_idle
from tests.browser.test_class import open_student, servers  # noqa: F401  (servers: the fixture)
from tests.browser.test_projection import wait_step

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
STAGE = ".st-key-poll-stage"  # the projection's poll, in place of the step
ASKED = ".st-key-poll-student"  # a student's question box


def says(page, selector: str, words: str, timeout_ms: float = 20_000) -> None:
    page.wait_for_function("([sel, w]) => (document.querySelector(sel)?.innerText || '').includes(w)",
                           arg=[selector, words], timeout=timeout_ms, polling="raf")


def answer(page, typed: str) -> None:
    page.wait_for_selector(ASKED, timeout=20_000)
    box = page.locator(ASKED)
    box.locator("input").fill(typed)
    box.locator("input").press("Enter")
    wait_idle(page)
    box.get_by_role("button", name="Send").click()
    says(page, ASKED, f"Sent: {typed}")


def test_a_poll_is_answered_counted_and_revealed(browser, servers):  # noqa: F811
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection = context.new_page()
        projection.goto(lecturer_server.url + "/walkthrough?lecture=1&room=new&walk=4")
        wait_step(projection, 4, 60_000)
        wait_idle(projection)
        room = projection.evaluate("new URL(location.href).searchParams.get('room')")
        with context.expect_page() as opened:
            projection.keyboard.press("p")
        console = opened.value
        console.set_viewport_size({"width": 1440, "height": 900})
        console.wait_for_selector(".st-key-poll-console", timeout=60_000)
        wait_idle(console)
        students = [open_student(stack, browser, class_server.url, room) for _ in range(3)]

        console.locator(".st-key-poll-console").get_by_role("button", name="Ask the class").click()
        projection.wait_for_selector(STAGE, timeout=20_000)
        right, mistaken, other = students
        answer(right, "0.9544")
        answer(mistaken, "0.1385")
        answer(other, "0.5")
        SHOTS.mkdir(parents=True, exist_ok=True)
        other.screenshot(path=str(SHOTS / "poll-student.png"))

        says(projection, STAGE, "Answers: 3")
        before = projection.inner_text(STAGE)
        assert "0.9544" not in before and "0.1385" not in before and "Right answer" not in before
        assert projection.locator(f"{STAGE} [data-testid='stVegaLiteChart']").count() == 0
        says(console, ".st-key-poll-console", "3 of 3 following answered")

        console.locator(".st-key-poll-console").get_by_role("button", name="Reveal the answers").click()
        says(projection, STAGE, "Right answer: 0.9544")
        says(projection, STAGE, "1 of 3 right")
        revealed = projection.inner_text(STAGE)
        assert "1 × 0.1385" in revealed and "is the weight α(2,1)" in revealed  # the mistake, counted by name
        projection.wait_for_selector(f"{STAGE} [data-testid='stVegaLiteChart'] svg", timeout=20_000)
        wait_idle(projection)
        projection.screenshot(path=str(SHOTS / "poll-revealed.png"))
        console.screenshot(path=str(SHOTS / "poll-console.png"))
        says(other, ASKED, "The answers are on the projection.")

        console.locator(".st-key-poll-console").get_by_role("button", name="Close the poll").click()
        projection.wait_for_selector(STAGE, state="detached", timeout=20_000)
        wait_step(projection, 4)
        right.wait_for_selector(ASKED, state="detached", timeout=20_000)
