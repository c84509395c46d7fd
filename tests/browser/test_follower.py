"""A following student's phone (390x844), in Chromium: the step first, under a slim sticky line, on every one of
the walkthrough's steps; no speaker note; PageDown scrolls instead of detaching; an open question brought into
view; and, after the reveal, each student's own verdict in their own language. A screen reader hears each of the
lecture's moves once, and the focus goes to the new step's heading.

One server, one browser: the lecturer's projection and console (a context of their own), and phone students,
each a context of its own. The lecture is driven through the room, as a lecturer drives it (PageDown on the
projection, the console's poll buttons). At step 4 the question is the book's ω(2,1) = 0.9544; the weight
α(2,1) = 0.1385 instead is the known mistake "weight" (tests/browser/test_polls.py).
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.harness import LISTEN_JS, PATIENT_MS, ROOT, heard, wait_charts, wait_idle
from tests.browser.lecture import ASKED, CLASS_BAR, open_console, open_projection, says, wait_step
from tests.browser.lecture import answer as shared_answer
from ui.lecture.walkthrough import load_bundled
from ui.words.content import app_text

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
PHONE = {"width": 390, "height": 844}
VERDICT = ".st-key-poll-verdict"  # in it, after the reveal: the student's own answer judged
# Where the page begins to show the step's first visual (a chart or a printed tensor), in page pixels; and what
# of the walkthrough's own page shows (its title, the speaker note's icon).
LAYOUT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');  // the step is the page's first visual
  const seen = Array.from(main.querySelectorAll('[data-testid="stVegaLiteChart"], .printed-tensor'))
    .filter(e => e.getClientRects().length);
  const scrolled = main.scrollTop;
  const top = seen.length ? Math.min(...seen.map(e => e.getBoundingClientRect().top + scrolled)) : null;
  const icons = Array.from(main.querySelectorAll('[data-testid="stIconMaterial"]'))
    .map(e => e.textContent);
  return {top, titles: main.querySelectorAll('h1').length,
          note: icons.includes('record_voice_over') || !!document.querySelector('.st-key-class-note')};
}"""
MAIN = '[data-testid="stMain"]'  # the page's scrolling box (Streamlit scrolls it, not the window)
IN_VIEW_JS = """(sel) => { const r = document.querySelector(sel)?.getBoundingClientRect();
  const bar = document.querySelector('.st-key-class-bar')?.getBoundingClientRect();
  return !!r && !!bar && r.top >= bar.bottom - 1 && r.bottom <= window.innerHeight; }"""


def phone(stack: ExitStack, browser, url: str, room: str, lang: str = "en"):
    """A student's phone following ``room``."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    stack.callback(context.close)
    page = context.new_page()
    page.goto(f"{url}/?room={room}&lang={lang}")
    says(page, CLASS_BAR, app_text("class_following", lang=lang), 60_000)
    wait_idle(page)
    return page


def follow(projection, students, k: int) -> None:
    """PageDown on the projection, until it and every student show step ``k``."""
    projection.bring_to_front()
    projection.keyboard.press("PageDown")
    wait_step(projection, k)
    for s in students:
        wait_step(s, k, 30_000, CLASS_BAR)
        wait_idle(s)


def check_layout(student, k: int) -> None:
    wait_charts(student)
    try:  # the step's visual is drawn by the end of the run that drew the line's "Step k"; give it a moment
        student.wait_for_function(f"() => ({LAYOUT_JS})().top !== null", timeout=PATIENT_MS, polling="raf")
    except PlaywrightTimeout:
        pass  # said below, with what the page shows
    shown = student.evaluate(LAYOUT_JS)
    assert shown["top"] is not None and shown["top"] < PHONE["height"], (k, shown)
    assert shown["titles"] == 0 and not shown["note"], (k, shown)


def answer(page, typed: str) -> None:
    """The shared answer, with the Send button in the page's language."""
    shared_answer(page, typed, app_text("poll_send", lang=page_lang(page)), sent=typed)


def page_lang(page) -> str:
    return page.evaluate("new URL(location.href).searchParams.get('lang') || 'en'")


def test_a_following_phone_sees_the_step_first_its_question_and_its_own_verdict(browser, app_server):
    steps = len(load_bundled().steps)
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=1, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        one = phone(stack, browser, app_server.url, room)
        check_layout(one, 1)
        one.evaluate(LISTEN_JS)
        for k in range(2, 5):
            follow(projection, [one], k)
            check_layout(one, k)
            # A screen reader hears the move once, with the new step's heading, where the focus now is.
            one.wait_for_function("() => document.activeElement?.classList.contains('step-heading')",
                                  timeout=PATIENT_MS)
            heading = one.evaluate("() => document.activeElement.textContent")
            moved = app_text("say_lecture", k=k, n=steps, page="", caption="").split(":")[0]
            said = heard(one)
            assert len(said) == 1 and said[0].startswith(moved) and heading.rstrip(".") in said[0], (k, said)

        # PageDown on a follower's device scrolls their page: they still follow, on the lecture's step.
        one.locator(".st-key-follower-bar p").first.click()  # the reader's place on the page: the step's line
        one.keyboard.press("PageDown")
        one.wait_for_function(f"() => document.querySelector('{MAIN}').scrollTop > 0", timeout=PATIENT_MS)
        one.wait_for_timeout(600)
        assert app_text("class_following") in one.locator(CLASS_BAR).inner_text()
        wait_step(one, 4, 1_000, CLASS_BAR)
        assert one.evaluate(IN_VIEW_JS.replace("r.top >= bar.bottom - 1 && ", ""), CLASS_BAR)  # the sticky line

        # Scrolled down to the step's chart, a student sees the question when it opens.
        mistaken = phone(stack, browser, app_server.url, room, lang="ko")
        wrong = phone(stack, browser, app_server.url, room, lang="id")
        one.evaluate(f"() => document.querySelector('{MAIN}').scrollTo(0, 1e6)")
        console.bring_to_front()
        console.locator(".st-key-poll-console").get_by_role("button", name="Ask the class").click()
        one.wait_for_selector(ASKED, timeout=PATIENT_MS)
        one.wait_for_function(IN_VIEW_JS, arg=ASKED, timeout=PATIENT_MS)
        one.locator(f"{ASKED} input").wait_for(state="visible", timeout=PATIENT_MS)
        answer(one, "0.9544")
        answer(mistaken, "0.1385")
        answer(wrong, "0,5")
        says(console, ".st-key-poll-console", "3 of 3 following answered")
        SHOTS.mkdir(parents=True, exist_ok=True)
        one.screenshot(path=str(SHOTS / "follower-poll.png"))

        # After the reveal, each sees their own answer judged, in their language, a known mistake explained.
        console.locator(".st-key-poll-console").get_by_role("button", name="Reveal the answers").click()
        for student in (one, mistaken, wrong):
            student.wait_for_selector(VERDICT, timeout=PATIENT_MS)
        right_words = one.locator(VERDICT).inner_text()
        assert "Correct" in right_words and "0.9544" in right_words, right_words
        mistake = mistaken.locator(VERDICT).inner_text()
        assert app_text("poll_feedback_opening", lang="ko").strip() in mistake and "0.1385" in mistake, mistake
        assert "α(2,1)" in mistake and "0.9544" in mistake, mistake  # the mistake explained, the right answer
        other = wrong.locator(VERDICT).inner_text()
        assert app_text("poll_feedback_opening", lang="id").strip() in other, other
        assert "0,5" in other and "0,9544" in other, other  # in the Indonesian convention
        one.wait_for_function(IN_VIEW_JS, arg=VERDICT, timeout=PATIENT_MS)
        mistaken.screenshot(path=str(SHOTS / "follower-verdict.png"))
        console.locator(".st-key-poll-console").get_by_role("button", name="Close the poll").click()
        one.wait_for_selector(ASKED, state="detached", timeout=PATIENT_MS)
        for student in (mistaken, wrong):
            student.context.close()

        # The rest of the walkthrough, step by step: the step's first visual within the phone's first screen.
        one.evaluate(f"() => document.querySelector('{MAIN}').scrollTo(0, 0)")
        for k in range(5, steps + 1):
            follow(projection, [one], k)
            check_layout(one, k)
        one.screenshot(path=str(SHOTS / "follower-last-step.png"))
