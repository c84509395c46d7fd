"""A lecturer's commands are never lost: Reveal, Close and Next, 15 times each, clicked once at random moments
while the console reruns for the room's activity (each answer that comes in) and for the moves it hears.

A lecturer's window runs its page in the app's own run (ui/shell/frame.py run_whole_page), so each of these
clicks reruns the app: Streamlit merges it into any run pending instead of dropping it, as it can a click on a
button inside a fragment. No command here is clicked a second time; each must show within 10 s.
"""

from __future__ import annotations

import random
import time

from tests.browser.lecture import open_console, open_projection, wait_step

POLL_BOX = ".st-key-poll-console"
STAGE = ".st-key-poll-stage"  # the projection's poll, in place of the step
ROUNDS = 15  # 45 commands and 15 Asks, each clicked once at a random moment
EFFECT_MS = 45_000  # a behaviour (one click takes effect), not a speed: generous for a busy machine


def _jitter(rng: random.Random) -> None:
    time.sleep(rng.uniform(0.0, 0.6))  # lands anywhere in a count's rerun


def _took(command: str, n: int, effect) -> None:
    """``effect()`` waits for what the command shows; a timeout means its one click was lost."""
    try:
        effect()
    except Exception:  # noqa: BLE001 (Playwright's TimeoutError)
        raise AssertionError(f"{command} #{n} did not take on its one click within {EFFECT_MS} ms") from None


def test_reveal_close_and_next_take_effect_on_the_first_click(browser, app_server):
    rng = random.Random(20261125)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        projection, _ = open_projection(context, app_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=POLL_BOX)
        box = console.locator(POLL_BOX)
        started = time.monotonic()
        for n in range(1, ROUNDS + 1):  # on step 4 (3.3.1): ask, then reveal and close at random moments
            box.get_by_role("button", name="Ask the class").click()
            _took("Ask", n, lambda: box.get_by_role("button", name="Reveal the answers").wait_for(timeout=EFFECT_MS))
            _jitter(rng)
            box.get_by_role("button", name="Reveal the answers").click()
            _took("Reveal", n, lambda: projection.wait_for_function(  # the projection shows the right answer
                f"() => (document.querySelector('{STAGE}')?.innerText || '').includes('Right answer')",
                timeout=EFFECT_MS))
            _jitter(rng)
            _took("Close", n, lambda: (  # the old defect: Close itself vanished while the count redrew
                box.get_by_role("button", name="Close the poll").click(timeout=EFFECT_MS),
                box.get_by_role("button", name="Ask the class").wait_for(timeout=EFFECT_MS),
                projection.wait_for_selector(STAGE, state="detached", timeout=EFFECT_MS)))
        console.locator(".st-key-console-list [role='radiogroup'] label").first.click()  # the list: step 1
        wait_step(projection, 1, EFFECT_MS)
        for k in range(1, 1 + ROUNDS):  # Next: alternately the console's button and the projection's PageDown
            _jitter(rng)
            if k % 2:
                console.locator("[class*='st-key-step_next'] button").first.click()
            else:
                projection.keyboard.press("PageDown")
            _took("Next", k, lambda k=k: (wait_step(projection, k + 1, EFFECT_MS),
                                          wait_step(console, k + 1, EFFECT_MS, selector="[data-testid='stMain']")))
        print(f"{3 * ROUNDS} commands (and {ROUNDS} Asks), each on one click, in {time.monotonic() - started:.1f} s")
    finally:
        context.close()
