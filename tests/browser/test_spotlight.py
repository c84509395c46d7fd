"""The spotlight in Chromium: students send what they found, the lecturer projects one, and everyone comes back.

One lecturer (the projection and its console) and three students, each a browser context of their own: two explore
in the full app as students of the room (the address an explorer keeps: ``?room=<id>&away=1``, as the light page's
"Explore this step" opens it), one follows on the light page (GET /follow/<room>), whose step a spotlight leaves
alone. Run twice: on one server with the in-process store, and on two replicas sharing a real redis-server (the
lecturer on one, the class on the other), where every send, Project and Back crosses Redis.
"""

from __future__ import annotations

import re
import time
import urllib.request
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, axe_run, chart_texts, not_upstream, wait_idle
from tests.browser.lecture import (
    CLASS_BAR,
    light_step,
    open_console,
    open_projection,
    open_student,
    says,
    wait_light,
    wait_step,
)
from ui.lecture.rooms import SENDS_PER_MINUTE

BANNER = ".st-key-spotlight-banner"
ALERT = '[data-testid="stAlert"]'
INBOX = ".st-key-spotlight-console"
PROJECT = ".st-key-spotlight-console button:has-text('Project'):visible"  # (each button has a hidden twin)
_NUMBER = re.compile(r"^-?\d+\.\d{4}$")


def numbers(page) -> list[str]:
    """The values the step's heatmap prints in its cells, in drawing order."""
    wait_idle(page)
    return [t for t in chart_texts(page) if _NUMBER.match(t.strip())]


def numbers_become(page, expected: list[str]) -> list[str]:
    """The step's heatmap values once they are ``expected``, or what they are after the patient bound: a run that
    redraws the lecture's step under load may still be replacing the student's chart when the page first reads idle."""
    deadline = time.monotonic() + PATIENT_MS / 1000
    found = numbers(page)
    while found != expected and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        found = numbers(page)
    return found


def explorer(stack: ExitStack, browser, url: str, room: str, page_path: str):
    """A student of ``room`` exploring ``page_path`` in the full app (a browser context of their own)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    stack.callback(context.close)
    page = context.new_page()
    page.goto(f"{url}/{page_path}?room={room}&away=1&lang=en")
    says(page, CLASS_BAR, "Exploring on your own")
    wait_idle(page)
    return page


def set_number(page, label: str, value: str) -> None:
    """Type ``value`` into the one field called ``label``. While a run redraws the page under load, the field it
    replaces can still be on screen beside the new one for a moment: until there is one, or a minute has passed."""
    field = page.get_by_label(label, exact=True)
    page.wait_for_function("(label) => document.querySelectorAll(`input[aria-label=\"${label}\"]`).length === 1",
                           arg=label, timeout=60_000)
    field.fill(value)
    field.press("Enter")
    wait_idle(page)


def send(page, note: str, told: str) -> None:
    """Send what is on screen with ``note``, until the student is told ``told``."""
    field = page.get_by_label("A note for the lecturer (optional)")
    if not field.is_visible():
        page.get_by_role("button", name="Send to the lecturer").click()
    field.fill(note)
    page.get_by_role("button", name="Send", exact=True).click()
    says(page, "body", told)


def sent_or_refused(page, console, note: str) -> str:
    """Send what is on screen with ``note``; "taken" once the console lists it (its note, shown as text), "refused"
    once the student is told to wait. The console's list is read by what it says, not by how many buttons it
    shows: while a run redraws the box, the entries it replaces stay on screen beside the new ones for a moment.
    A click that never reached the form (the page idle and the note still in the field, which the form empties as
    it submits) is made again once, as a student whose click did nothing would."""
    field = page.get_by_label("A note for the lecturer (optional)")
    if not field.is_visible():
        page.get_by_role("button", name="Send to the lecturer").click()
    field.fill(note)
    page.get_by_role("button", name="Send", exact=True).click()
    started = time.monotonic()
    deadline, resent = started + PATIENT_MS / 1000, False
    while time.monotonic() < deadline:
        if "wait a minute before sending another" in page.inner_text("body"):
            return "refused"
        if lists(console, note):
            return "taken"
        if not resent and time.monotonic() - started > 15 and _untaken(page, field, note):
            page.get_by_role("button", name="Send", exact=True).click()
            resent = True
        page.wait_for_timeout(200)
    sent = "Sent. The lecturer sees it as Student" in page.inner_text("body")  # (a flash of an earlier send, maybe)
    kept = field.input_value() if field.is_visible() else None
    notices = page.locator(ALERT).all_inner_texts()
    raise AssertionError(f"the send {note!r} was neither listed on the console nor refused (sent again: {resent}): "
                         f"the student's page {'shows' if sent else 'does not show'} 'Sent.', its note field holds "
                         f"{kept!r}, its notices say {notices!r}; the console's list says "
                         f"{console.locator(INBOX).inner_text()!r}")


def lists(console, note: str) -> bool:
    """The console lists a send whose note is ``note`` (the list quotes each note)."""
    return f"“{note}”" in console.locator(INBOX).inner_text()


def _untaken(page, field, note: str) -> bool:
    """The student's page is idle and its form still holds ``note``: the click never reached the form."""
    wait_idle(page)
    return field.is_visible() and field.input_value() == note and "wait a minute" not in page.inner_text("body")


def no_axe_violation(pages) -> None:
    """axe-core finds nothing in these windows (Streamlit's own navigation markup aside)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    for page in pages:
        assert not not_upstream(page, axe_run(axe, page)), page.url



def step_on(page, shown: str, clicks: int = 3) -> None:
    """Next on a page explored on one's own, until it says ``shown``. The button is in the page's fragment, and a
    click that lands while a run redraws it can be dropped under load (a student clicks again); a click is
    repeated only once the page is idle and still on the step before, so a slow one is never taken twice."""
    main = '[data-testid="stMain"]'
    for n in range(1, clicks + 1):
        page.locator(main).get_by_role("button", name="Next").click()
        try:
            says(page, main, shown, 20_000 if n < clicks else 60_000)
            return
        except AssertionError:
            if n == clicks:
                raise
            wait_idle(page)
            if shown in page.locator(main).inner_text():
                return

def test_two_students_send_the_lecturer_projects_one_and_everyone_comes_back(browser, servers):
    lecturer_server, class_server = servers
    checked = lecturer_server is class_server  # the windows' markup is checked once, on one server
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=19, new_room=True)  # 3.5.1 weights
        console = open_console(context, projection)
        watcher = open_student(stack, browser, class_server.url, room)
        wait_light(watcher, 19)
        followed = watcher.inner_text("#tensor")
        lecture = numbers(projection)
        assert lecture

        one = explorer(stack, browser, class_server.url, room, "causal-mask")  # their own seed, at the second step
        one.get_by_text("Step through", exact=True).click()
        wait_idle(one)
        set_number(one, "Seed", "5")
        step_on(one, "Step 2 of")
        theirs = numbers(one)
        assert theirs and theirs != lecture
        send(one, "the mask hides the future", "Sent. The lecturer sees it as Student 1.")
        two = explorer(stack, browser, class_server.url, room, "causal-mask")  # d_out 3, and a note that tries script
        set_number(two, "d_out", "3")
        send(two, '<img src=x onerror="window.__xss=1"> d_out 3?', "Sent. The lecturer sees it as Student 2.")

        console.locator(PROJECT).nth(1).wait_for(timeout=PATIENT_MS)  # the list is read again every 2 s
        listed = console.locator(".st-key-spotlight-console").inner_text()
        assert listed.index("Student 2") < listed.index("Student 1")  # newest first
        assert "<img src=x" in listed  # the note as text
        assert watcher.get_by_role("button", name="Project").count() == 0  # a student never has Project
        assert numbers(projection) == lecture  # a send moves no one

        console.locator(PROJECT).nth(1).click()  # Student 1's
        says(projection, BANNER, "Student 1")
        assert "the mask hides the future" in projection.locator(BANNER).inner_text()
        assert numbers(projection) == theirs  # the student's step, on the student's state
        assert light_step(watcher) == 19  # the class's step stays the lecture's
        if checked:  # the banner, the console's list and the send form, to a screen reader and a keyboard
            two.get_by_role("button", name="Send to the lecturer").click()
            no_axe_violation([projection, watcher, console, two])
        console.get_by_role("button", name="Back to the lecture").click()
        projection.wait_for_selector(BANNER, state="detached", timeout=PATIENT_MS)
        wait_step(projection, 19)
        assert numbers_become(projection, lecture) == lecture  # the lecture's step and values, as they were
        wait_light(watcher, 19)
        assert watcher.inner_text("#tensor") == followed

        console.locator(PROJECT).first.click()  # Student 2's, then B on the projection
        says(projection, BANNER, "Student 2")
        assert '<img src=x onerror="window.__xss=1">' in projection.locator(BANNER).inner_text()
        assert projection.evaluate("window.__xss") is None
        projection.bring_to_front()
        projection.keyboard.press("b")
        projection.wait_for_selector(BANNER, state="detached", timeout=PATIENT_MS)
        assert numbers_become(projection, lecture) == lecture
        wait_light(watcher, 19)
        assert watcher.inner_text("#tensor") == followed and watcher.evaluate("window.__xss") is None

        # A few a minute (SENDS_PER_MINUTE): then the student is told to wait, and nothing else happens. The first
        # send may be more than a minute old on a busy machine: the student sends until told to wait, each send
        # awaited until the console lists it or the student is told; at most SENDS_PER_MINUTE more are taken.
        for k in range(SENDS_PER_MINUTE + 1):
            if sent_or_refused(one, console, f"again {k}") == "refused":
                break
        else:
            raise AssertionError(f"{SENDS_PER_MINUTE + 1} sends in a row were all taken")
        console.wait_for_timeout(2_500)  # the console's list is read every 2 s: the refused one must not appear
        wait_idle(console)
        assert not lists(console, f"again {k}")
        for server in {lecturer_server, class_server}:
            with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=10) as answer:
                assert answer.status == 200
