"""A lecture's windows in Chromium, shared by the projection, class and poll tests: the projection (its
step bar), the presenter console it opens with P, and students following a room on the light page (GET
/follow/<room>): its line, its answer box and verdict, its "Explore this step" into the app and the app's "Rejoin
the lecture" back."""

from __future__ import annotations

import re
from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle
from ui.words.content import app_text
from ui.words.plain import plain_text

# Waits are generous: they are for a behaviour (the window shows it), not a speed, and cost time only on a failure.

BAR = ".st-key-projection-bar"  # the projection's one line: "Step k of n"
CLASS_BAR = ".st-key-class-bar"  # an exploring student's line in the app: "Exploring on your own", Rejoin
LINE = "#line"  # a light page's line (ui/follow/static/follow.html): "Following · Step k of n"
STAGE = ".st-key-poll-stage"  # the projection's poll, in place of the step
_STEP_IN = """([sel, k]) => /Step\\s*(\\d+)\\s*of/.exec(document.querySelector(sel)?.textContent || '')?.[1]
    === String(k)"""
_SHOWN = """(sel) => ({bar: document.querySelector(sel)?.textContent, address: location.search.slice(0, 120),
    clicker: window.attentionClicker && (({seq, net, sent, s}) => ({seq, net, sent, s, loaded: !!window.attentionClicker
        .flush}))(window.attentionClicker), line: document.querySelector('.st-key-class-bar')?.textContent})"""


def wait_step(page, k: int, timeout_ms: float = 60_000, selector: str = BAR) -> None:
    """Until the window's bar says step ``k``; if it never does, what the window showed and what its clicker had
    counted and sent (a press lost, or taken and undone, reads differently)."""
    try:
        page.wait_for_function(_STEP_IN, arg=[selector, k], timeout=timeout_ms, polling="raf")
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what the window showed
        raise AssertionError(f"not at step {k} after {timeout_ms / 1000:g} s: {page.evaluate(_SHOWN, selector)}") \
            from exc


def wait_keys(page, timeout_ms: float = 60_000) -> None:
    """Until the walkthrough's clicker listens for PageDown and PageUp and can send them: its keys are counted from
    the moment the page is drawn (ui/steps/clicker_keys.js), its sender loads a moment later (ui/steps/clicker.js)."""
    page.wait_for_function("() => !!window.attentionClicker?.flush", timeout=timeout_ms, polling="raf")


def step_of(page, selector: str = BAR) -> int | None:
    text = page.locator(selector).first.inner_text() if page.locator(selector).count() else ""
    digits = text.split("Step", 1)[-1].split("of", 1)[0].strip()
    return int(digits) if "Step" in text and digits.isdigit() else None


def says(page, selector: str, words: str, timeout_ms: float = 60_000) -> None:
    """Until the element's text includes ``words``; if it never does, what every window of its browser showed."""
    try:
        page.wait_for_function("([sel, w]) => (document.querySelector(sel)?.innerText || '').includes(w)",
                               arg=[selector, words], timeout=timeout_ms, polling="raf")
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what the windows showed
        raise AssertionError(f"{selector} never said {words!r} in {timeout_ms / 1000:g} s; "
                             f"the windows showed: {_windows(page)}") from exc


def _windows(page) -> list:
    """Each window of ``page``'s browser context: its address, its main area's text and a light page's line; a
    lecturer's: its poll box and what its room's listener (ui/lecture/listen.js) has heard."""
    shown = []
    for other in page.context.pages:
        try:
            shown.append(other.evaluate("""() => ({address: (location.pathname + location.search).slice(0, 80),
                main: (document.querySelector('[data-testid="stMain"], main')?.innerText || '').slice(0, 600),
                line: document.getElementById('line')?.textContent,
                running: document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState,
                poll: document.querySelector('.st-key-poll-console')?.innerText.slice(0, 300),
                listener: window.attentionListen && {seen: window.attentionListen.seen,
                  taken: window.attentionListen.taken, caught: window.attentionListen.caught,
                  stream: window.attentionListen.source?.readyState, drawn: window.attentionListen.drawn}})"""))
        except Exception as exc:  # noqa: BLE001 (a closed window)
            shown.append(repr(exc))
    return shown


def open_projection(context, url: str, walk_to: int = 1, new_room: bool = False):
    """The walkthrough projected at step ``walk_to``; with ``new_room``, in a room of its own.
    Returns (page, room id or None)."""
    projection = context.new_page()
    projection.goto(url + f"/walkthrough?lecture=1&walk={walk_to}" + ("&room=new" if new_room else ""))
    wait_step(projection, walk_to, 60_000)
    wait_idle(projection)
    wait_keys(projection)
    return projection, projection.evaluate("new URL(location.href).searchParams.get('room')")


def open_console(context, projection, ready: str = ".st-key-console-note"):
    """The presenter console, opened from the projection with P (a second tab of its browser), once
    ``ready`` is drawn."""
    with context.expect_page() as opened:
        projection.keyboard.press("p")
    console = opened.value
    console.set_viewport_size({"width": 1440, "height": 900})
    console.wait_for_selector(ready, timeout=60_000)
    wait_idle(console)
    if ready == ".st-key-console-note":  # the console's walkthrough, drawn
        wait_keys(console)
    return console


def open_student(stack: ExitStack, browser, url: str, room: str, lang: str = "en", **device):
    """A student's device (a browser context of its own, ``device`` its options: a laptop's viewport by default)
    following ``room`` on the light page (ui/follow/page.py), once its event stream is open. The join link, and an
    old ``/?room=<id>`` link, lead there; the page is opened directly."""
    context = browser.new_context(**(device or {"viewport": {"width": 1280, "height": 800}}))
    stack.callback(context.close)
    page = context.new_page()
    page.goto(f"{url}/follow/{room}?lang={lang}")
    wait_open(page)
    return page


def wait_open(page, timeout_ms: float = PATIENT_MS) -> None:
    """Until the light page's event stream is open (its line says so in ``data-state``)."""
    try:
        page.wait_for_function("() => document.getElementById('line')?.dataset.state === 'open'",
                               timeout=timeout_ms, polling="raf")
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what the page showed
        raise AssertionError(f"the light page's stream never opened: {page.evaluate(_LIGHT)}") from exc


def wait_light(page, k: int, timeout_ms: float = PATIENT_MS) -> None:
    """Until a light page shows step ``k`` with its picture (the line says the step, and the caption is the step's,
    not "waiting"), whatever its language: the step's number in its line, read as digits."""
    try:
        page.wait_for_function(_LIGHT_AT, arg=k, timeout=timeout_ms, polling="raf")
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what the page showed
        raise AssertionError(f"the light page is not at step {k}: {page.evaluate(_LIGHT)}") from exc


# The light page's line names the step k of n in the student's language ("Step 7 of 33", "33단계 중 7단계"): the
# number that is not the walkthrough's length (the larger). Its caption is the step's once the projection's picture
# arrived.
_LIGHT_AT = """(k) => { const line = document.getElementById('line'), body = document.body.dataset;
  if (!line || line.dataset.state !== 'open') return false;
  const numbers = (line.textContent.match(/\\d+/g) || []).map(Number);
  if (numbers.length < 2) return false;
  numbers.splice(numbers.indexOf(Math.max(...numbers)), 1);  // the walkthrough's length: the step is the other
  return numbers[0] === k && (document.getElementById('caption')?.textContent || '') !== body.waiting; }"""
_LIGHT = """() => ({address: location.pathname + location.search, line: document.getElementById('line')?.textContent,
    state: document.getElementById('line')?.dataset.state, caption: document.getElementById('caption')?.textContent,
    poll: document.getElementById('poll')?.hidden === false, status: document.getElementById('poll-status')
    ?.textContent, verdict: document.getElementById('verdict-message')?.textContent})"""


def light_step(page) -> int | None:
    """The step a light page's line says (English: "Following · Step k of n")."""
    text = page.locator(LINE).inner_text() if page.locator(LINE).count() else ""
    found = re.search(r"Step\s*(\d+)\s*of", text)
    return int(found.group(1)) if found else None


def answer(page, typed: str, sent: str | None = None) -> None:
    """A student answers the open question on the light page: types ``typed`` (or chooses the option whose value it
    is) and presses Send, until the page says it was sent (``sent``: words of what it says; by default the catalog's
    "Sent: {answer}. …" in the page's language, its longer part around the answer)."""
    lang = page.evaluate("document.documentElement.lang") or "en"
    if sent is None:
        sent = max(plain_text(app_text("poll_sent", lang=lang, answer="\x00")).split("\x00"), key=len)
    page.locator("#poll-form").wait_for(state="visible", timeout=PATIENT_MS)
    field = page.locator("#poll-text")
    if page.locator("#poll-input input[type=radio]").count():  # a choice: a row of radio buttons, by value
        page.locator(f'#poll-input input[type=radio][value="{typed}"]').check()
    elif page.evaluate("document.getElementById('poll-text')?.tagName") == "SELECT":
        field.select_option(typed)
    else:
        field.fill(typed)
    page.locator("#poll-send").click()
    try:
        page.wait_for_function("(w) => (document.getElementById('poll-status')?.textContent || '').includes(w)",
                               arg=sent, timeout=PATIENT_MS, polling="raf")
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what the page showed
        raise AssertionError(f"the answer {typed!r} was never sent: {page.evaluate(_LIGHT)}") from exc


def verdict(page, timeout_ms: float = PATIENT_MS) -> str:
    """After the reveal, the student's own verdict as the light page shows it (its message and the right answer)."""
    page.locator("#verdict").wait_for(state="visible", timeout=timeout_ms)
    return page.locator("#verdict").inner_text()


def explore(page, room: str) -> None:
    """A light page's "Explore this step": the full app, in the same tab, at the step's state, as a student of
    ``room`` who explores (the address keeps ``room`` and ``away=1``); once its line says so."""
    link = page.locator("#explore")
    link.wait_for(state="visible", timeout=PATIENT_MS)
    href = link.get_attribute("href")
    link.click()
    try:
        page.wait_for_function("(room) => { const q = new URL(location.href).searchParams;"
                               " return q.get('room') === room && q.get('away') === '1'; }", arg=room,
                               timeout=PATIENT_MS)
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with where the link led
        raise AssertionError(f"Explore this step ({href}) did not open the app in this tab as an exploring student "
                             f"of {room}: this tab is at {page.url}, its browser has {len(page.context.pages)} "
                             "tab(s)") from exc
    says(page, CLASS_BAR, app_text("class_exploring", lang=page_lang(page)))
    wait_idle(page)


def rejoin(page, room: str) -> None:
    """An exploring student's "Rejoin the lecture": the link on their line back to the light page of ``room``."""
    link = page.locator(f'{CLASS_BAR} a[href*="/follow/{room}"]')
    link.first.wait_for(state="visible", timeout=PATIENT_MS)
    link.first.click()
    page.wait_for_url(f"**/follow/{room}?lang=*", timeout=PATIENT_MS)
    wait_open(page)


def page_lang(page) -> str:
    return page.evaluate("new URL(location.href).searchParams.get('lang') || document.documentElement.lang || 'en'")


def move(projection, k: int, students=()) -> None:
    """PageDown on the projection: it, and every student's light page in ``students``, at step ``k``."""
    projection.bring_to_front()
    projection.keyboard.press("PageDown")
    wait_step(projection, k)
    for s in students:
        wait_light(s, k)


# ----- a student whose screen reader listens: what the light page's live region said -----------------------

LISTENING_PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                   "has_touch": True}
# Every text the live region takes, and whether it was then the element the page loaded with, still in the page and
# still marked live (a screen reader reads changes to a live region it already knew).
LISTEN_JS = """document.addEventListener("DOMContentLoaded", () => {
  window.said = [];
  const say = document.getElementById("say");
  new MutationObserver(() => window.said.push({text: say.textContent, live: say.isConnected
    && document.getElementById("say") === say && say.getAttribute("aria-live") === "polite"}))
    .observe(say, {childList: true, characterData: true, subtree: true});
});"""
# Where the step begins on the page: its caption, and its first picture (the chart, else the printed tensor).
LAYOUT_JS = """() => { const top = (id) => { const e = document.getElementById(id);
    return e && e.getClientRects().length ? e.getBoundingClientRect().top + window.scrollY : null; };
  return {caption: top('caption'), picture: top('chart') ?? top('tensor-part'),
          wide: document.documentElement.scrollWidth > window.innerWidth}; }"""


def open_listening(stack: ExitStack, browser, url: str, room: str, lang: str):
    """A student's phone following ``room`` on the light page, its live region listened to from the page's load."""
    context = browser.new_context(**LISTENING_PHONE)
    stack.callback(context.close)
    context.add_init_script(LISTEN_JS)
    page = context.new_page()
    page.goto(f"{url}/follow/{room}?lang={lang}")
    page.wait_for_function("() => document.getElementById('line')?.dataset.state === 'open'", timeout=PATIENT_MS)
    return page


def said(page) -> list[dict]:
    return page.evaluate("() => window.said")


def heard(page, words: str, timeout_ms: float = PATIENT_MS) -> None:
    """Until the live region has said ``words`` (in one of its texts)."""
    try:
        page.wait_for_function("(w) => window.said.some(s => s.text.includes(w))", arg=words, timeout=timeout_ms)
    except Exception as exc:  # noqa: BLE001 (Playwright's TimeoutError), said with what it said
        raise AssertionError(f"the live region never said {words!r}: {said(page)}") from exc


def check_layout(student, k: int) -> None:
    """The step's caption and the top of its first picture on the phone's first screen, nothing wider than it."""
    shown = student.evaluate(LAYOUT_JS)
    assert shown["caption"] is not None and shown["caption"] < LISTENING_PHONE["viewport"]["height"], (k, shown)
    assert shown["picture"] is not None and shown["picture"] < LISTENING_PHONE["viewport"]["height"], (k, shown)
    assert not shown["wide"], (k, shown)


def line_of(k: int, n: int, lang: str = "en") -> str:
    return plain_text(app_text("step_of", lang, k=k, n=n))
