"""A lecture's windows in Chromium, shared by the projection, class and poll tests: the projection (its
step bar), the presenter console it opens with P, and students' windows following a room."""

from __future__ import annotations

from contextlib import ExitStack

from tests.browser.harness import PATIENT_MS, wait_idle

# Waits are generous: they are for a behaviour (the window shows it), not a speed, and cost time only on a failure.

BAR = ".st-key-projection-bar"  # the projection's one line: "Step k of n"
CLASS_BAR = ".st-key-class-bar"  # a student's bar: "Following the lecture · Step k of n"
STAGE = ".st-key-poll-stage"  # the projection's poll, in place of the step
ASKED = ".st-key-poll-student"  # a student's question box
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
    """Each window of ``page``'s browser context: its address, its main area's text and its heartbeat's marker."""
    shown = []
    for other in page.context.pages:
        try:
            shown.append(other.evaluate("""() => ({address: location.search.slice(0, 80),
                main: (document.querySelector('[data-testid="stMain"]')?.innerText || '').slice(0, 600),
                beat: document.querySelector('[data-beat]')?.outerHTML,
                running: document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState})"""))
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


def open_student(stack: ExitStack, browser, url: str, room: str):
    """A student's device (a browser context of its own) following ``room``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    stack.callback(context.close)
    page = context.new_page()
    page.goto(f"{url}/?room={room}")
    says(page, CLASS_BAR, "Following the lecture", 60_000)
    wait_idle(page)
    return page


def click_until(button, done, wait_ms: float = 8_000, clicks: int = 4) -> int:
    """Click ``button`` until ``done(timeout_ms)`` stops raising; how many clicks it took (at most ``clicks``).

    For a student's buttons inside a fragment only (Send in the answer box, Next on a page explored on one's own):
    a class heartbeat's rerun can re-register the fragment just before the click lands, and Streamlit then drops
    it, as a student sees when they click again. On a machine kept busy, two clicks in a row were dropped. A
    lecturer's commands are clicked once: their page runs in the app's own run (tests/browser/test_commands.py)."""
    for n in range(1, clicks + 1):
        button.click()
        try:
            done(wait_ms if n < clicks else 30_000)
            return n
        except Exception:  # noqa: BLE001 (Playwright's TimeoutError): a click the student would repeat
            if n == clicks:
                raise
            if button.count() == 0:  # the click was taken (the button is gone): the window is just slow
                done(30_000)
                return n
    return clicks


def answer(page, typed: str, send: str = "Send", sent: str | None = None) -> int:
    """A student answers the open question: types ``typed`` and presses ``send`` (the button's words in the
    student's language) until the box says ``sent`` (in English, "Sent: <typed>"); how many clicks it took."""
    page.wait_for_selector(ASKED, timeout=PATIENT_MS)
    box = page.locator(ASKED)
    box.locator("input").fill(typed)
    box.locator("input").press("Enter")
    wait_idle(page)
    return click_until(box.locator("button").filter(has_text=send),
                       lambda ms: says(page, ASKED, f"Sent: {typed}" if sent is None else sent, ms))
