"""A class poll in Chromium: the console asks, three students answer on their devices (the light page, GET
/follow/<room>), the projection shows a count only, then the reveal: the spread, the right answer marked, the known
mistake by name, and each student's own verdict on their device.

Run twice, as tests/browser/test_class.py: one server with the in-process store, and two replicas
sharing a real redis-server (the lecturer's windows on one, the students on the other). At step 4 the
question is the book's ω(2,1) for "journey": 0.9544, and giving the weight α(2,1) = 0.1385 instead is
the known mistake "weight" (the chapter's printed values).
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from tests.browser.harness import LISTEN_FROM_LOAD_JS, LISTEN_JS, PATIENT_MS, ROOT, wait_idle
from tests.browser.lecture import (
    STAGE,
    answer,
    explore,
    open_console,
    open_projection,
    open_student,
    says,
    verdict,
    wait_step,
)
from ui.words.content import app_text

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")

def test_a_poll_is_answered_counted_and_revealed(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        students = [open_student(stack, browser, class_server.url, room) for _ in range(3)]

        box = console.locator(".st-key-poll-console")
        box.get_by_role("button", name="Ask the class").click()  # a lecturer's command: clicked once
        projection.wait_for_selector(STAGE, timeout=PATIENT_MS)
        right, mistaken, other = students
        for student, typed in ((right, "0.9544"), (mistaken, "0.1385"), (other, "0.5")):
            answer(student, typed)
        SHOTS.mkdir(parents=True, exist_ok=True)
        other.screenshot(path=str(SHOTS / "poll-student.png"))

        says(projection, STAGE, "Answers: 3")
        before = projection.inner_text(STAGE)
        assert "0.9544" not in before and "0.1385" not in before and "Right answer" not in before
        assert projection.locator(f"{STAGE} [data-testid='stVegaLiteChart']").count() == 0
        # The console counts the class present (a light page while its stream is open) and those who answered.
        says(console, ".st-key-poll-console", "3 of 3 following answered")
        # A student who explores in the app meanwhile is told of the open question on their line, and hears it;
        # the lecturer's windows hear what the poll does from here on.
        explorer = open_student(stack, browser, class_server.url, room)
        # its stream is open, but the state that holds the question may come a moment later: read it once shown
        explorer.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
        asked = explorer.inner_text("#poll-prompt")
        assert asked.strip(), "the light page shows the open question"
        explorer.context.add_init_script(LISTEN_FROM_LOAD_JS)  # the app's page may say it as it loads
        explore(explorer, room)
        for window in (console, projection):
            window.evaluate(LISTEN_JS)
        told = explorer.locator(".st-key-class-poll .class-poll")
        told.wait_for(timeout=PATIENT_MS)
        assert told.inner_text().startswith(app_text("class_poll_open", prompt=asked))
        assert f"/follow/{room}" in told.locator("a").get_attribute("href")
        said_in(explorer, app_text("class_poll_open", prompt=asked))
        explorer.screenshot(path=str(SHOTS / "poll-explorer.png"))

        box.get_by_role("button", name="Reveal the answers").click()
        says(projection, STAGE, "Right answer: 0.9544")
        says(projection, STAGE, "1 of 3 right")
        revealed_said = app_text("say_poll_revealed", right="Right answer: 0.9544", share="1 of 3 right")
        said_in(projection, revealed_said)
        said_in(console, revealed_said)
        said_in(explorer, app_text("class_poll_revealed"))
        revealed = projection.inner_text(STAGE)
        assert "1 × 0.1385" in revealed and "is the weight α(2,1)" in revealed  # the mistake, counted by name
        projection.wait_for_selector(f"{STAGE} [data-testid='stVegaLiteChart'] svg", timeout=PATIENT_MS)
        wait_idle(projection)
        projection.screenshot(path=str(SHOTS / "poll-revealed.png"))
        console.screenshot(path=str(SHOTS / "poll-console.png"))
        assert verdict(right).startswith("Correct: 0.9544")
        assert verdict(mistaken).startswith("Not yet: 0.1385 is the weight α(2,1)")
        assert verdict(other).startswith("Not yet: 0.5")

        box.get_by_role("button", name="Close the poll").click()
        projection.wait_for_selector(STAGE, state="detached", timeout=PATIENT_MS)
        wait_step(projection, 4)
        right.locator("#poll").wait_for(state="hidden", timeout=PATIENT_MS)
        for window in (projection, console):
            said_in(window, app_text("say_poll_closed"))
        told.wait_for(state="detached", timeout=PATIENT_MS)
        # each was said once in each window, and the question was said before anything else of it
        for window in (projection, console):
            spoken = window.evaluate("() => window.__heard")
            assert sum(revealed_said in t for t in spoken) == 1, spoken
        spoken = explorer.evaluate("() => window.__heard")
        assert [t for t in spoken if t in (app_text("class_poll_open", prompt=asked),
                                           app_text("class_poll_revealed"))] == [
            app_text("class_poll_open", prompt=asked), app_text("class_poll_revealed")], spoken


def said_in(page, words: str) -> None:
    """Until the page's live region has said ``words`` (within one of its texts), since its listener was set."""
    try:
        page.wait_for_function("(w) => window.__heard.some((t) => t.includes(w))", arg=words, timeout=PATIENT_MS)
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what it did say
        raise AssertionError(f"never said {words!r}: {page.evaluate('() => window.__heard')}") from exc


def test_five_reveals_in_a_row_each_reach_the_projection(browser, app_server):
    """A lecturer's command must reach the projection: five polls in a row, each answered by four students, each
    revealed with one click on the console; the projection shows every reveal (its spread and how many were right),
    never left on "Answers: 4" while the class sees its verdicts. Each answer reaches the projection's count through
    its listener's ask for the room's activity (ui/lecture/listen.js). Waits are generous for a loaded machine."""
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        students = [open_student(stack, browser, app_server.url, room) for _ in range(4)]
        box = console.locator(".st-key-poll-console")
        for n in range(1, 6):
            box.get_by_role("button", name="Ask the class").click()
            says(projection, STAGE, "Answers: 0", 60_000)
            right = n % 4 + 1  # a different number right each time: the projection's count is this poll's
            for k, s in enumerate(students):
                answer(s, "0.9544" if k < right else "0.1385")
            says(projection, STAGE, "Answers: 4", 60_000)
            box.get_by_role("button", name="Reveal the answers").click()
            says(projection, STAGE, "Right answer: 0.9544", 60_000)
            says(projection, STAGE, f"{right} of 4 right", 60_000)
            for k, s in enumerate(students):  # each student's own verdict on this poll
                s.wait_for_function("(n) => !document.getElementById('verdict').hidden"
                                    " && document.getElementById('verdict-message').textContent.startsWith(n)",
                                    arg="Correct" if k < right else "Not yet", timeout=PATIENT_MS)
            box.get_by_role("button", name="Close the poll").click()
            projection.wait_for_selector(STAGE, state="detached", timeout=60_000)
            box.get_by_role("button", name="Ask the class").wait_for(timeout=60_000)
