"""A following student's phone (390x844) on the light page (GET /follow/<room>), in Chromium, on the real app: the
step's caption and its first picture on the first screen (at every one of the walkthrough's steps in
tests/browser/test_follower_numbers.py); the question when
it opens; after the reveal, each student's own verdict in their own language. A screen reader hears each move once,
the question and the verdict, each said in the page's live region (``#say``, aria-live), the same element from the
page's load on (a region made or marked live at the moment it speaks is not read). axe finds nothing on the page in
any of the app's languages, with the question open and with the verdict.

One server, one browser: the lecturer's projection and console (a context of their own), and phone students, each a
context of its own. The lecture is driven through the room, as a lecturer drives it (PageDown on the projection, the
console's poll buttons). At step 4 the question is the book's ω(2,1) = 0.9544; the weight α(2,1) = 0.1385 instead
is the known mistake "weight" (tests/browser/test_polls.py).
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from axe_playwright_python.sync_playwright import Axe

from tests.browser.harness import PATIENT_MS, ROOT, axe_run
from tests.browser.lecture import (
    STAGE,
    answer,
    check_layout,
    heard,
    line_of,
    move,
    open_console,
    open_listening,
    open_projection,
    said,
    says,
    verdict,
    wait_light,
)
from ui.lecture.walkthrough import load_bundled
from ui.words.content import app_text
from ui.words.i18n import LANGUAGES

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")


def test_a_following_phone_sees_each_step_first_its_question_and_its_own_verdict(browser, app_server):
    steps = len(load_bundled().steps)
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=1, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        one = open_listening(stack, browser, app_server.url, room, "en")
        wait_light(one, 1)
        check_layout(one, 1)
        for k in range(2, 5):
            move(projection, k, [one])
            check_layout(one, k)
            heard(one, line_of(k, steps) + ":")  # the move, with the step's caption

        mistaken = open_listening(stack, browser, app_server.url, room, "ko")
        wrong = open_listening(stack, browser, app_server.url, room, "id")
        for s in (mistaken, wrong):
            wait_light(s, 4)
        console.bring_to_front()
        console.locator(".st-key-poll-console").get_by_role("button", name="Ask the class").click()
        projection.wait_for_selector(STAGE, timeout=PATIENT_MS)
        for s, lang in ((one, "en"), (mistaken, "ko"), (wrong, "id")):
            s.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
            prompt = s.inner_text("#poll-prompt")
            heard(s, app_text("follow_poll", lang=lang, prompt=prompt))  # the question, said once it opens
        answer(one, "0.9544")
        answer(mistaken, "0.1385")
        answer(wrong, "0,5")
        says(projection, STAGE, "Answers: 3")
        SHOTS.mkdir(parents=True, exist_ok=True)
        one.screenshot(path=str(SHOTS / "follower-poll.png"))

        # After the reveal, each sees their own answer judged, in their language, a known mistake explained.
        console.locator(".st-key-poll-console").get_by_role("button", name="Reveal the answers").click()
        right_words = verdict(one)
        assert "Correct" in right_words and "0.9544" in right_words, right_words
        mistake = verdict(mistaken)
        assert app_text("poll_feedback_opening", lang="ko").strip() in mistake and "0.1385" in mistake, mistake
        assert "α(2,1)" in mistake and "0.9544" in mistake, mistake  # the mistake explained, the right answer
        other = verdict(wrong)
        assert app_text("poll_feedback_opening", lang="id").strip() in other, other
        assert "0,5" in other and "0,9544" in other, other  # in the Indonesian convention
        for s in (one, mistaken, wrong):  # the verdict, said
            heard(s, s.inner_text("#verdict-message"))
        mistaken.screenshot(path=str(SHOTS / "follower-verdict.png"))
        console.locator(".st-key-poll-console").get_by_role("button", name="Close the poll").click()
        one.locator("#poll").wait_for(state="hidden", timeout=PATIENT_MS)
        for student in (mistaken, wrong):
            student.context.close()

        # Each move was said once, and everything said was said in the live region the page loaded with (the rest
        # of the walkthrough, step by step, is tests/browser/test_follower_numbers.py's, on this phone).
        spoken = said(one)
        assert all(s["live"] for s in spoken), spoken
        for k in range(2, 5):
            assert sum(s["text"].startswith(line_of(k, steps) + ":") for s in spoken) == 1, (k, spoken)


def test_the_light_page_has_no_axe_violation_in_any_language(browser, app_server):
    """The real app's light page in each of the app's languages, on a step with a chart, a tensor, a formula and its
    code: as the step shows, with the question open, and with the verdict after the reveal (every fold opened)."""
    assert set(LANGUAGES) == {"en", "id", "vi", "ko"}
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        pages = {lang: open_listening(stack, browser, app_server.url, room, lang) for lang in LANGUAGES}
        axe = Axe()

        def clean(when: str) -> None:
            for lang, page in pages.items():
                folded = page.locator("details:not([open]) > summary:visible")
                while folded.count():
                    folded.first.click()  # every fold open: axe checks the formula, the code and the table too
                found = axe_run(axe, page)
                assert found == {}, (when, lang, found)

        for page in pages.values():
            wait_light(page, 4)
        clean("the step")
        console.locator(".st-key-poll-console").get_by_role("button", name="Ask the class").click()
        for lang, page in pages.items():
            page.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
            answer(page, "0.9544" if lang != "id" else "0,9544")
        clean("the question")
        console.locator(".st-key-poll-console").get_by_role("button", name="Reveal the answers").click()
        for page in pages.values():
            verdict(page)
            heard(page, page.inner_text("#verdict-message"))
        clean("the verdict")
        for lang, page in pages.items():
            assert all(s["live"] for s in said(page)), (lang, said(page))
