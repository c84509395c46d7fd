"""A revealed poll leaves the projection with its step, in Chromium: the step after it never shows the poll's
answers under it, not even for a frame while its run goes on (the cover's place is emptied first:
ui/steps/stepper.py). The run is made slow in the browser: each of the server's messages is handed to
Streamlit 40 ms after the one before (a loaded server's run, drawn as it goes)."""

from __future__ import annotations

from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle
from tests.browser.lecture import STAGE, answer, open_console, open_projection, open_student, says, wait_step
from ui.lecture.walkthrough import load_bundled
from ui.words.content import app_text, page_text
from ui.words.plain import plain_text

# The delay is read when a message is handed over, not when it arrives: once it is set back to 0, the messages queued
# behind the slow ones (a run's own) are handed over at once. __queued counts those not
# handed over yet.
SLOW_JS = """(() => { const add = WebSocket.prototype.addEventListener; let chain = Promise.resolve();
  window.__queued = 0;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    return add.call(this, type, (event) => { window.__queued += 1;
      chain = chain.then(() => new Promise((done) => setTimeout(() => {
        window.__queued -= 1; listener.call(this, event); done(); }, window.__wsDelay || 0))); }, options); }; })();"""
WATCH_JS = """([caption, right]) => { window.__both = []; const look = () => {
    const main = document.querySelector('[data-testid="stMain"]')?.innerText || '';
    if (main.includes(caption) && main.includes(right)) window.__both.push(performance.now()); };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


def test_the_next_step_never_shows_the_revealed_polls_answers_under_it(browser, app_server):
    step = load_bundled().steps[4]  # step 5, after the poll of step 4
    (caption,) = [s.caption for s in page_text(step.page).steps if s.name == step.step]
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        context.add_init_script(SLOW_JS)
        projection, room = open_projection(context, app_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        pupil = open_student(stack, browser, app_server.url, room)
        box = console.locator(".st-key-poll-console")
        box.get_by_role("button", name="Ask the class").click()
        projection.wait_for_selector(STAGE, timeout=PATIENT_MS)
        answer(pupil, "0.1385")
        says(projection, STAGE, "Answers: 1")
        box.get_by_role("button", name="Reveal the answers").click()
        right = plain_text(app_text("poll_right", answer="0.9544"))
        says(projection, STAGE, right)
        projection.wait_for_selector(f"{STAGE} [data-testid='stVegaLiteChart'] svg", timeout=PATIENT_MS)
        wait_idle(projection)

        projection.evaluate(WATCH_JS, [caption, right])
        projection.evaluate("window.__wsDelay = 40")
        projection.bring_to_front()
        projection.keyboard.press("PageDown")
        wait_step(projection, 5)
        says(projection, '[data-testid="stMain"]', caption)
        projection.evaluate("window.__wsDelay = 0")  # the step is drawn: the messages flow again
        projection.wait_for_function("() => window.__queued === 0", timeout=60_000)  # every message handed over
        wait_idle(projection, 60_000)
        assert projection.evaluate("window.__both") == [], "the poll's answers under the next step"
        assert right not in projection.inner_text('[data-testid="stMain"]')
