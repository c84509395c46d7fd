"""No English prose on a translated page (issue 38), read in Chromium as a reader sees it: every page in
Indonesian, Vietnamese and Korean; in Korean a projected lecture's 33 steps, its presenter console, a following
student's light page (GET /follow/<room>) and a poll as the class answers it there. Code, printed tensors, formulas
and icons are not prose; the words each glossary keeps in English on purpose are allowed (tests/english.py). The
test proves it can fail: an untranslated string planted in a page is found."""

from __future__ import annotations

import re
from contextlib import ExitStack

import pytest

from tests.browser.harness import PATIENT_MS, wait_idle
from tests.browser.lecture import STAGE, wait_keys, wait_light
from tests.english import english_runs
from ui.chapter import PAGES
from ui.words.content import app_text

LANGS = ("id", "vi", "ko")
BAR = ".st-key-projection-bar"

# The words a reader sees or hears as text, node by node ("|" between nodes, so that a run never joins two):
# not code, printed tensors, formulas, icon ligatures, scripts.
TEXT_JS = """() => {
    const skip = 'pre, code, .katex, math, [data-testid="stCode"], pre.listing, .printed-tensor, '
        + '[data-testid="stIconMaterial"], '
        + 'script, style, noscript, .attention-live';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.textContent.trim();
        if (t && !(n.parentElement && n.parentElement.closest(skip))) parts.push(t);
    }
    return parts.join(' | ');
}"""


HANGUL = re.compile(r"[\uac00-\ud7a3]")


def english_on(page, lang: str, read: list[str] | None = None) -> list[str]:
    """The runs of English prose on the page; ``read`` keeps the text read (to show it was the page's language)."""
    text = page.evaluate(TEXT_JS)
    if read is not None:
        read.append(text)
    return english_runs(text, lang)


def open_from_navigation(page, page_id: str) -> None:
    link = page.locator(f'[data-testid="stSidebarNavLink"][href$="/{"" if page_id == "home" else page_id}"]')
    link.first.click()
    page.wait_for_function("(id) => document.querySelector('.attention-say')?.dataset.page === id", arg=page_id,
                           timeout=PATIENT_MS)
    wait_idle(page)


@pytest.fixture(scope="module")
def reader(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reads_without_english_prose(reader, app_server, lang):
    reader.goto(f"{app_server.url}/?lang={lang}")
    reader.wait_for_selector('[data-testid="stMain"] h1')
    wait_idle(reader)
    found = {}
    for info in PAGES:
        open_from_navigation(reader, info.page_id)
        runs = english_on(reader, lang)
        if runs:
            found[info.page_id] = runs
    assert not found, found

    # It can fail: a string left in English, planted where the page's prose is, is found.
    planted = app_text("causal_help", lang="en")
    reader.evaluate("(t) => { const p = document.createElement('p'); p.textContent = t;"
                    " document.querySelector('[data-testid=\"stMain\"] h1').after(p); }", planted)
    runs = english_on(reader, lang)
    assert runs and all(run in planted for run in runs), (planted, runs)


def test_a_korean_lecture_projection_console_student_and_poll_read_without_english_prose(browser, app_server):
    lang, found, read = "ko", {}, []
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection = context.new_page()
        projection.goto(f"{app_server.url}/walkthrough?lecture=1&walk=4&room=new&lang={lang}")
        projection.wait_for_selector(BAR, timeout=60_000)
        wait_idle(projection)
        wait_keys(projection)
        room = projection.evaluate("new URL(location.href).searchParams.get('room')")
        with context.expect_page() as opened:
            projection.keyboard.press("p")
        console = opened.value
        console.set_viewport_size({"width": 1440, "height": 900})
        console.wait_for_selector(".st-key-poll-console", timeout=60_000)
        wait_idle(console)
        found["console"] = english_on(console, lang, read)

        student_context = browser.new_context(viewport={"width": 1280, "height": 800})
        stack.callback(student_context.close)
        student = student_context.new_page()
        student.goto(f"{app_server.url}/follow/{room}?lang={lang}")
        wait_light(student, 4)
        for summary in student.locator("details > summary:visible").all():
            summary.click()  # every fold open: the formula, the code and the table are read too
        found["student"] = english_on(student, lang, read)

        console.locator(".st-key-poll-console").get_by_role("button", name=app_text("poll_ask", lang=lang)).click()
        student.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
        projection.wait_for_selector(STAGE, timeout=PATIENT_MS)
        wait_idle(console)
        found["poll: student"] = english_on(student, lang, read)
        found["poll: projection"] = english_on(projection, lang, read)
        found["poll: console"] = english_on(console, lang, read)
        console.locator(".st-key-poll-console").get_by_role(
            "button", name=app_text("poll_close", lang=lang)).click()
        projection.wait_for_selector(STAGE, state="detached", timeout=PATIENT_MS)
        wait_idle(projection)

        console.close()  # read: the walk below is the projection's, with the clicker's keys
        steps = {4: english_on(projection, lang, read)}
        moves = [("PageUp", k) for k in (3, 2, 1)] + [("PageDown", k) for k in range(2, 34)]
        for key, k in moves:  # back to the first step, then every step to the last
            bar = projection.inner_text(BAR)
            projection.keyboard.press(key)
            projection.wait_for_function("([sel, b]) => document.querySelector(sel)?.innerText !== b",
                                         arg=[BAR, bar], timeout=PATIENT_MS)
            wait_idle(projection)
            if k not in steps:
                steps[k] = english_on(projection, lang, read)
        found.update({f"step {k}": runs for k, runs in steps.items()})
    found = {where: runs for where, runs in found.items() if runs}
    assert not found, found
    assert len(read) == 38 and all(len(HANGUL.findall(text)) > 20 for text in read)  # 33 steps, 5 other views
