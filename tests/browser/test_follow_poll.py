"""A class poll answered on the light page (GET /follow/<room>), in Chromium, on the real app: the console asks at
step 4 (the book's ω(2,1) for "journey": 0.9544; the weight α(2,1) = 0.1385 is the known mistake "weight", as in
tests/browser/test_polls.py), one light page answers right and one wrong, the projection counts two answers, the
console reveals, and each light page shows its own verdict: Correct for one, Not yet with the mistake explained for
the other. The question and the verdict are said in each page's live region.

Run on one server with the in-process store, and on two replicas sharing a real redis-server (the lecturer on one,
the light pages and their answers on the other)."""

from __future__ import annotations

from contextlib import ExitStack

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.fake_room import FakeRoom, view
from tests.browser.harness import PATIENT_MS, axe_run, sized_page
from tests.browser.lecture import STAGE, open_console, open_projection, says
from ui.words.content import app_text

# Everything the live region says, in order: its text kept at each change (the page replaces it as it speaks).
LISTEN = """document.addEventListener("DOMContentLoaded", () => {
  window.said = [];
  const say = document.getElementById("say");
  new MutationObserver(() => window.said.push(say.textContent)).observe(say, {childList: true, characterData: true,
    subtree: true});
});"""


def light_page(stack: ExitStack, browser, url: str, room: str):
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    stack.callback(phone.close)
    phone.add_init_script(LISTEN)
    page = phone.new_page()
    page.goto(f"{url}/follow/{room}?lang=en")
    return page


def send(page, typed: str) -> None:
    page.locator("#poll-form").wait_for(state="visible", timeout=60_000)
    page.get_by_label("Your answer").fill(typed)
    page.get_by_role("button", name="Send").click()
    page.wait_for_function("() => document.getElementById('poll-status').textContent.startsWith('Sent: ')",
                           timeout=PATIENT_MS)


def test_two_light_pages_answer_and_each_hears_its_own_verdict(browser, servers):
    lecturer_server, class_server = servers
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=4, new_room=True)
        console = open_console(context, projection, ready=".st-key-poll-console")
        right, wrong = (light_page(stack, browser, class_server.url, room) for _ in range(2))

        box = console.locator(".st-key-poll-console")
        box.get_by_role("button", name="Ask the class").click()
        projection.wait_for_selector(STAGE, timeout=PATIENT_MS)
        typo = wrong.locator("#poll-form")
        send(right, "0.9544")
        typo.wait_for(state="visible", timeout=60_000)
        wrong.get_by_label("Your answer").fill("nine")  # refused with the reason, and the text kept to correct
        wrong.get_by_role("button", name="Send").click()
        reason = app_text("answer_not_a_number", "en", text="nine")
        wrong.wait_for_function("(r) => document.getElementById('poll-status').textContent === r", arg=reason,
                                timeout=PATIENT_MS)
        assert wrong.get_by_label("Your answer").input_value() == "nine"
        send(wrong, "0.1385")
        says(projection, STAGE, "Answers: 2")

        box.get_by_role("button", name="Reveal the answers").click()
        says(projection, STAGE, "Right answer: 0.9544")
        for page in (right, wrong):
            page.locator("#verdict").wait_for(state="visible", timeout=60_000)
            assert page.locator("#poll-form").is_hidden()
        assert right.inner_text("#verdict-message").startswith("Correct: 0.9544")
        assert right.locator("#verdict").get_attribute("data-verdict") == "right"
        mistaken = wrong.inner_text("#verdict-message")
        assert mistaken.startswith("Not yet: 0.1385 is the weight α(2,1)"), mistaken
        assert wrong.inner_text("#verdict-answer") == "The answer: 0.9544"

        for page, verdict in ((right, "Correct: 0.9544"), (wrong, "Not yet: 0.1385")):
            said = page.evaluate("() => window.said")
            assert any("The lecturer asks: ω(2,1)" in s for s in said), said
            assert any(s.startswith(verdict) for s in said), said


def test_a_choice_is_a_row_of_named_radio_buttons_and_a_refusal_is_said_beside_it(browser):
    """The fake room's stream (tests/browser/fake_room.py) asks a choice in Korean; its store holds no such room, so
    Send is refused with the reason in the student's language, next to the box, the choice kept."""
    options = [{"value": "0", "label": "x(1) “Your”"}, {"value": "1", "label": "x(2) “journey”"}]
    poll = {"number": 1, "prompt": "?", "revealed": False, "kind": "choice", "options": options,
            "label": app_text("your_answer", "ko"), "placeholder": app_text("choose", "ko")}
    with FakeRoom() as room, sized_page(browser, 360, 740) as page:
        room.push(view(1, 3, "caption", lang="ko", poll=poll))
        page.goto(f"{room.url}/follow/AbC-12_xyZ09?lang=ko")
        group = page.get_by_role("group", name=app_text("your_answer", "ko"))
        expect(group.get_by_role("radio")).to_have_count(2)
        group.get_by_role("radio", name="x(2) “journey”").check()
        page.get_by_role("button", name=app_text("poll_send", "ko")).click()
        expect(page.get_by_role("status")).to_have_text(app_text("follow_no_room", "ko"))
        expect(group.get_by_role("radio", name="x(2) “journey”")).to_be_checked()
        assert axe_run(Axe(), page) == {}
