"""A class without a hitch: a lecture at a lecturer's pace, watched the whole time, in Chromium.

One projection (1280×720) and its console (1280×800), four students on the light page (GET /follow/<room>): two
phones (390×844, Korean and Indonesian) and two laptops (1366×768), one of them joining late. The lecturer presses
PageDown and now and then PageUp, alternating between the console and the projection, about 1.5 s after the
projection shows each step (the pace of the lecturer's report, shared/reviews/lecturer-class.md), and asks two polls,
which every student answers and whose verdict each sees.

Every window is sampled throughout (every ~0.1 s), and the test fails when:
- a student's page showed the lecture's steps out of order (a step the lecture had left shown after a newer one: an
  older move drawn late), or said "Following" with its stream closed: following must never lie;
- the console was blank (its main area empty) when the lecturer pressed the next key;
- at the end, a student is not on the lecture's step (awaited, up to the patient bound).

``make test`` runs a short lecture (SOAK_PRESSES, 10 by default); ``make soak-class`` the full one (60).
"""

from __future__ import annotations

import os
import random
import time
from contextlib import ExitStack
from dataclasses import dataclass, field

from tests.browser.harness import CODE_SELECTOR, CODE_TEXTS_JS, PATIENT_MS, sized_page, wait_idle
from tests.browser.lecture import (
    BAR,
    answer,
    open_console,
    open_projection,
    open_student,
    step_of,
    verdict,
    wait_light,
    wait_step,
)

PRESSES = int(os.environ.get("SOAK_PRESSES", "10"))
PACE_S = 1.5  # after the projection shows a step, the lecturer's next press
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2,
         "user_agent": "Mozilla/5.0 (Linux; Android 13; Pixel 6a) AppleWebKit/537.36 (KHTML, like Gecko) "
                       "Chrome/120.0 Mobile Safari/537.36"}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
POLL_STEPS = (4, 9) if PRESSES >= 16 else (4, 6)  # the lecturer asks the class on these steps (each has a question)
# The steps whose printed values are compared with a fresh /walkthrough?walk=<k> (the lecture walks them all):
# make soak-class compares all 33; make test the steps of the pages whose controls the walkthrough sets, and the last.
COMPARED = range(1, 34) if PRESSES >= 60 else (1, 4, 5, 7, 11, 12, 19, 23, 33)

# What a light page shows, read in one call: whether its line says it follows (its stream open), and its step (the
# number in its line that is not the walkthrough's length, whatever the language).
_STUDENT = """() => { const line = document.getElementById('line');
  const numbers = (line?.textContent.match(/\\d+/g) || []).map(Number);
  if (numbers.length >= 2) numbers.splice(numbers.indexOf(Math.max(...numbers)), 1);
  return {following: line?.dataset.state === 'open', said: line?.textContent || '',
          step: numbers.length === 1 ? numbers[0] : null}; }"""
# An answer to whatever the question is: its first choice, or a number.
_ANY_ANSWER = """() => document.querySelector('#poll-input input[type=radio], #poll-input option:not([value=""])')
    ?.value || '1'"""
_CONSOLE = """() => { const main = document.querySelector('[data-testid="stMain"]');
  return {blank: !main || !main.innerText.trim()}; }"""


@dataclass
class Watch:
    """Samples of the lecture's step and of each window, on one clock."""
    lecture: list[tuple[float, int | None]] = field(default_factory=list)  # the projection's step
    presses: list[tuple[float, int]] = field(default_factory=list)  # when the lecturer pressed, for which step
    students: dict[str, list[tuple[float, dict]]] = field(default_factory=dict)
    console_blank: list[tuple[float, bool]] = field(default_factory=list)

    def sample(self, projection, console, students: dict) -> int | None:
        now = time.monotonic()
        step = step_of(projection, BAR)
        self.lecture.append((now, step))
        for name, page in students.items():
            try:
                self.students.setdefault(name, []).append((now, page.evaluate(_STUDENT)))
            except Exception:  # noqa: BLE001 (a page navigating: no sample this time)
                pass
        try:
            self.console_blank.append((now, console.evaluate(_CONSOLE)["blank"]))
        except Exception:  # noqa: BLE001
            pass
        return step

    def for_(self, seconds: float, projection, console, students: dict) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sample(projection, console, students)
            time.sleep(0.05)

    def lies(self, first: int) -> list[str]:
        """Each student whose steps, in the order the page showed them, are not a subsequence of the lecture's (its
        first step, then each press's): a step shown after the lecture had left it for a newer one. And each sample
        where the line said Following with a step while its stream was closed."""
        lecture = [first, *(k for _, k in self.presses)]
        found = []
        for name, samples in self.students.items():
            shown = []
            for t, s in samples:
                if s["step"] is not None and not s["following"] and s["said"].startswith("Following"):
                    found.append(f"{name} at {t - self.lecture[0][0]:.1f} s: {s['said']!r} with its stream closed")
                if s["step"] is not None and s["following"] and (not shown or shown[-1] != s["step"]):
                    shown.append(s["step"])
            at = 0
            for k in shown:
                while at < len(lecture) and lecture[at] != k:
                    at += 1
                if at == len(lecture):
                    found.append(f"{name} showed the steps {shown}, not in the lecture's order {lecture}")
                    break
        return found

    def console_blank_at_presses(self) -> list[int]:
        """The presses before which the console was blank: its last sample before the lecturer's next key. A
        console redrawing keeps what it showed (Streamlit fades it), so a blank one there had lost its page."""
        found = []
        for n, (pressed, _) in enumerate(self.presses[1:], 2):
            before = [blank for t, blank in self.console_blank if t < pressed]
            if before and before[-1]:
                found.append(n)
        return found


def _student(stack: ExitStack, browser, url: str, room: str, device: dict, lang: str):
    return open_student(stack, browser, url, room, lang, **device)


def _poll(console, projection, watch: Watch, students: dict) -> None:
    """Ask, every student answers, reveal (each sees their own verdict), close: the lecturer's clicks, once each,
    while the class is watched."""
    box = console.locator(".st-key-poll-console")
    box.get_by_role("button", name="Ask the class").click()
    box.get_by_role("button", name="Reveal the answers").wait_for(timeout=PATIENT_MS)
    for page in students.values():
        page.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
        answer(page, page.evaluate(_ANY_ANSWER))
        watch.sample(projection, console, students)
    watch.for_(1.0, projection, console, students)
    box.get_by_role("button", name="Reveal the answers").click()
    projection.wait_for_function("() => (document.querySelector('.st-key-poll-stage')?.innerText || '')"
                                 ".includes('Right answer')", timeout=PATIENT_MS)
    for page in students.values():
        verdict(page)
    watch.for_(1.0, projection, console, students)
    box.get_by_role("button", name="Close the poll").click()
    projection.wait_for_selector(".st-key-poll-stage", state="detached", timeout=PATIENT_MS)


def test_a_lecture_at_a_lecturers_pace_never_loses_a_student(browser, app_server):
    rng = random.Random(34)
    watch = Watch()
    with ExitStack() as stack:
        lecturer = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(lecturer.close)
        projection, room = open_projection(lecturer, app_server.url, walk_to=1, new_room=True)
        console = open_console(lecturer, projection)
        console.set_viewport_size({"width": 1280, "height": 800})
        students = {"ko-phone": _student(stack, browser, app_server.url, room, PHONE, "ko"),
                    "id-phone": _student(stack, browser, app_server.url, room, PHONE, "id"),
                    "laptop-1": _student(stack, browser, app_server.url, room, LAPTOP, "en")}
        for page in students.values():
            wait_light(page, 1)
        step, polls = 1, 0
        started = time.monotonic()
        for n in range(1, PRESSES + 1):
            if n == PRESSES // 3:  # a late joiner
                students["laptop-2"] = _student(stack, browser, app_server.url, room, LAPTOP, "en")
            back = n % 4 == 0 or (n > 16 and rng.random() < 0.2)  # a short lecture reaches both its poll steps
            key, where = ("PageUp" if back else "PageDown"), (console if n % 3 else projection)
            where.bring_to_front()
            where.keyboard.press(key)
            target = max(step - 1, 1) if back else min(step + 1, 33)
            watch.presses.append((time.monotonic(), target))
            deadline = time.monotonic() + PATIENT_MS / 1000
            while (shown := watch.sample(projection, console, students)) != target and time.monotonic() < deadline:
                time.sleep(0.05)
            assert shown == target, f"press {n} ({key} in the {'console' if where is console else 'projection'}):" \
                                    f" the projection shows step {shown}, not {target}" \
                                    f"; the console shows {step_of(console, BAR)}"
            step = target
            watch.for_(PACE_S, projection, console, students)
            if step in POLL_STEPS and polls < 2 and step == POLL_STEPS[polls]:
                _poll(console, projection, watch, students)
                polls += 1
        # The end: every student on the lecture's step, following.
        for page in students.values():
            wait_light(page, step)
            watch.sample(projection, console, students)
        took = time.monotonic() - started
    lies, blank = watch.lies(1), watch.console_blank_at_presses()
    print(f"{PRESSES} presses, {polls} polls, {len(watch.lecture)} samples in {took:.0f} s; "
          f"lies {len(lies)}; console blank before presses {blank}, "
          f"{sum(b for _, b in watch.console_blank)} blank samples in all")
    assert polls == 2, f"{polls} polls asked"
    assert not lies, "\n".join(lies[:10])
    assert not blank, f"the console was blank when the lecturer pressed again (presses {blank})"


def _printed(page) -> list[str]:
    return page.evaluate(CODE_TEXTS_JS, CODE_SELECTOR)


def test_every_step_shows_the_walkthroughs_values_after_polls_a_console_reopen_and_a_reload(browser, app_server):
    """The lecturer's report (finding 3): after polls, a console reopen and a projection reload, the projected
    numbers had drifted from the book's and the notes'. Here each step the lecture walks to after all that
    prints what a fresh ``/walkthrough?walk=<k>`` prints (COMPARED: all 33 in make soak-class)."""
    watch = Watch()
    with ExitStack() as stack:
        lecturer = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(lecturer.close)
        projection, room = open_projection(lecturer, app_server.url, walk_to=4, new_room=True)
        console = open_console(lecturer, projection)
        _poll(console, projection, watch, {})
        _poll(console, projection, watch, {})
        console.reload()  # the console reopened (its seat is in the lecturer's browser)
        console.wait_for_selector(".st-key-console-note", timeout=60_000)
        projection.bring_to_front()
        projection.reload()  # an accidental F5 on the projection (the lecturer's clicker goes to its tab)
        wait_step(projection, 4, 60_000)
        wait_idle(projection)
        fresh = stack.enter_context(sized_page(browser, 1280, 720))
        for k in range(4, 0, -1):
            if k < 4:
                projection.keyboard.press("PageUp")
            wait_step(projection, k, 20_000)
        for k in range(1, 34):
            if k > 1:
                projection.keyboard.press("PageDown")  # the reloaded projection still drives its room
                wait_step(projection, k, 20_000)
            if k not in COMPARED:
                continue
            wait_idle(projection)
            fresh.goto(f"{app_server.url}/walkthrough?lecture=1&walk={k}")
            wait_step(fresh, k, 60_000)
            wait_idle(fresh)
            expected = _printed(fresh)
            # What the projection shows once its run has reached the browser: read again until it agrees, within the
            # patient wait.
            deadline = time.monotonic() + PATIENT_MS / 1000
            while (shown := _printed(projection)) != expected and time.monotonic() < deadline:
                projection.wait_for_timeout(500)
            assert shown == expected, f"step {k} differs from a fresh /walkthrough?walk={k}"
        wait_step(console, 33, 20_000, selector="[data-testid='stMain']")
