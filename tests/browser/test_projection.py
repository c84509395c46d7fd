"""The projection fills the projector, and the presenter console drives it from a second window.

Both in Chromium: the bundled walkthrough walked with PageDown, its visuals measured on every step at three projector
sizes (tests/browser/projection_measure.js); then the projection and
its console as two pages of one browser (two Streamlit sessions), moving each other.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest

from tests.browser.harness import PATIENT_MS, ROOT, choose_option, resize, sized_page, steady, wait_idle
from tests.browser.lecture import open_console, open_projection, step_of, wait_keys, wait_step
from ui.lecture.walkthrough import load_bundled
from ui.words.content import page_text

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
MEASURE_JS = (Path(__file__).with_name("projection_measure.js")).read_text("utf-8")
SHOT_STEPS = {4, 9, 31}  # one query's scores; all the weights; the heads' batched product (docs/screenshots)


PROJECTORS = [(1280, 720), (1920, 1080), (1024, 768)]


@pytest.fixture(scope="module")
def projected(browser, app_server):
    """The walkthrough projected and walked once with PageDown, every step measured at each projector size (the
    window resized on the step, as a projector's would be: the layout is the browser's)."""
    walk = load_bundled()
    seen: dict[tuple[int, int], list[dict]] = {size: [] for size in PROJECTORS}
    with sized_page(browser, *PROJECTORS[0]) as page:
        page.goto(app_server.url + "/walkthrough?lecture=1")
        wait_step(page, 1, 60_000)
        wait_idle(page)
        for k, step in enumerate(walk.steps, start=1):
            if k > 1:
                page.keyboard.press("PageDown")
                wait_step(page, k)
                wait_idle(page)
            main = page.inner_text('[data-testid="stMain"]')
            for size in PROJECTORS if k % 2 else PROJECTORS[::-1]:  # each size in turn: two resizes a step
                resize(page, size)
                found = steady(page, MEASURE_JS)  # the charts' own drawing after the run, or after the resize
                found.update(note=step.note in main, title=page_text(step.page).title in main,
                             failed=page.locator('[data-testid="stException"]').count(),
                             width=page.evaluate("innerWidth"))
                seen[size].append(found)
                if size == PROJECTORS[0] and k in SHOT_STEPS:
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"projection-{k:02d}.png"))
        assert "lecture=1" in page.url and "console" not in page.url
    return seen


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_step_fits_the_projector(projected, size):
    """The step's first visual is whole on the first screen and starts in its top quarter, on every step;
    no step shows its speaker note; at 1280x720 the visuals take a median of 40% of the screen or more, and
    every word of a chart (values, ticks, titles, legends) and of the slim line is 20 px or more as drawn."""
    width, height = size
    walk = load_bundled()
    found_at = projected[size]
    assert len(found_at) == len(walk.steps) and {f["width"] for f in found_at} == {width}
    shares, failures, small = [], [], []
    for k, (step, found) in enumerate(zip(walk.steps, found_at, strict=True), start=1):
        first = found["first"]
        whole = (first is not None and 0 <= first["top"] < height / 4 and first["bottom"] <= height
                 and first["left"] >= 0 and first["right"] <= width)
        if not whole:
            failures.append((k, step.page, step.step, first))
        shares.append(found["share"])
        if size == PROJECTORS[0] and (
                (found["line"] or 0) < 20 or (found["smallest"] is not None and found["smallest"]["px"] < 20)):
            small.append((k, step.step, found["smallest"], found["line"]))
        assert not found["note"], (k, "the speaker note is projected")
        assert found["title"] and not found["failed"], k
    assert not failures, failures
    assert not small, small
    if size == PROJECTORS[0]:
        assert statistics.median(shares) >= 0.40, sorted(shares)


def open_pair(browser, app_server, walk_to: int = 1, script: str | None = None):
    """A projection (1280x720) and the console it opens with P, as two pages (tabs) of one browser (``script``: run
    in every page of it before the app's own)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    if script:
        context.add_init_script(script)
    projection, _ = open_projection(context, app_server.url, walk_to)
    return context, projection, open_console(context, projection)


def both_at(projection, console, k: int) -> None:
    """Wait until both windows show step ``k``."""
    wait_step(projection, k)
    console.wait_for_function("(k) => document.querySelector('[data-testid=\"stMain\"]').innerText"
                              ".includes('Step ' + k + ' of')", arg=k, timeout=PATIENT_MS, polling="raf")


# Every message a window's browser sends its server (a run asked for: a widget's change, a timed fragment's tick).
SENT_JS = """(() => {
  const send = WebSocket.prototype.send;
  window.attentionSent = 0;
  WebSocket.prototype.send = function (data) { window.attentionSent += 1; return send.call(this, data); };
})();"""


def test_a_quiet_room_runs_nothing_and_the_first_press_in_the_console_reaches_the_projection(browser, app_server):
    """No timed fragment runs in a lecturer's window: while nothing happens in the room, neither the projection nor
    its console asks its server for a run (a heartbeat asked every 2 s). The projection hears the room from its first
    run, so the console's first PageDown reaches it, by its event: not by the listener's safety net."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        context.add_init_script(SENT_JS)
        projection, _ = open_projection(context, app_server.url, 1)
        console = open_console(context, projection)
        projection.wait_for_selector(".st-key-listening", state="attached", timeout=PATIENT_MS)
        for window in (projection, console):
            wait_idle(window)
        time.sleep(1.0)  # the runs the console's arrival started have been asked for
        sent = [w.evaluate("() => window.attentionSent") for w in (projection, console)]
        time.sleep(6.0)
        quiet = [w.evaluate("() => window.attentionSent") - n for w, n in zip((projection, console), sent, strict=True)]
        assert quiet == [0, 0], f"runs asked for in a quiet room (projection, console): {quiet}"
        console.bring_to_front()
        console.keyboard.press("PageDown")
        both_at(projection, console, 2)
        time.sleep(7.0)  # three asks of the room's activity: a move the projection never took would be caught
        caught = [w.evaluate("() => window.attentionListen.caught || 0") for w in (projection, console)]
        assert caught == [0, 0], f"moves taken only by the listener's safety net (projection, console): {caught}"
    finally:
        context.close()


# Each window keeps, in the order they came, the room's events its listener (ui/lecture/listen.js) received: their
# version, the token of the window that published them, whether the deck was unchanged from the version before, and
# the newest version the listener had seen when it came (this handler runs before the listener's own); and the
# versions it reran for (its state 'heard').
HEARD_JS = """(() => {
  const kept = window.attentionHeard = {events: [], reran: []};
  const Source = window.EventSource;
  window.EventSource = function (url) {
    const source = new Source(url);
    if (String(url).includes('raw=1')) source.addEventListener('message', (e) => {
      let deck = {}; try { deck = JSON.parse(e.data) || {}; } catch (err) { /* kept as {} */ }
      kept.events.push([Number(e.lastEventId), deck.by ?? null, deck.unchanged === true,
                        window.attentionListen.seen]);
    });
    return source;
  };
  let set = null;
  window.attentionListen = {seen: 0};
  Object.defineProperty(window.attentionListen, 'set', {
    get: () => set,
    set: (f) => { set = (name, value) => { if (name === 'heard') kept.reran.push(value); return f(name, value); }; },
  });
})()"""


def reran_for_nothing(page) -> list[int]:
    """The versions a window reran for though it had published them itself, or though they were unchanged from a
    version it had already seen; and it asserts that it heard any."""
    heard = page.evaluate("() => ({...window.attentionHeard, me: window.attentionListen.me})")
    assert heard["events"] and heard["me"], "the window's listener received no event"
    needless = {version for version, by, unchanged, seen in heard["events"]
                if by == heard["me"] or (unchanged and seen >= version - 1)}
    return [v for v in heard["reran"] if v in needless]


def test_the_console_drives_the_projection_and_follows_it(browser, app_server):
    walk = load_bundled()
    context, projection, console = open_pair(browser, app_server, script=HEARD_JS)
    try:
        # The one-time token left the console's address bar; the projection's never had one.
        assert "console=" not in console.evaluate("location.href")
        assert "console" not in projection.evaluate("location.href")
        text = console.inner_text('[data-testid="stMain"]')
        assert walk.steps[0].note in text and walk.steps[1].note in text  # this step's note, and the next
        assert walk.steps[0].note not in projection.inner_text('[data-testid="stMain"]')
        for k in range(2, 12):  # PageDown in the console, then in the projection, taking turns
            window = console if k % 2 == 0 else projection
            window.keyboard.press("PageDown")
            both_at(projection, console, k)
            wait_idle(projection)
            wait_idle(console)
        # Every move reached both windows (both_at waits for it). How fast is make bench-latency's to say (its
        # console row, against the minimal app, side by side), never a test's: a busy machine is slow, not wrong.
        # Neither window ran again for what it had published itself, nor for a deck it already had: only for the
        # other's moves.
        assert reran_for_nothing(console) == [] and reran_for_nothing(projection) == []
        assert walk.steps[10].note in console.inner_text('[data-testid="stMain"]')
        console.get_by_role("button", name="Start the clock").click()
        console.wait_for_selector(".talk-clock .pace[data-pace]", timeout=PATIENT_MS)
        console.wait_for_function("() => document.querySelector('.talk-clock .elapsed').textContent !== '00:00'",
                                  timeout=PATIENT_MS)
        wait_idle(console)
        assert step_of(projection) == 11  # the clock does not move the projection
        if os.environ.get("UPDATE_SCREENSHOTS"):
            console.screenshot(path=str(SHOTS / "console.png"))
        # A lecturer who presses quickly: 6 PageDown 20 ms apart, faster than the windows redraw (some land while a
        # run is under way), then 2 PageUp in the console. Every press counts, once: a press counted from the step
        # drawn would make two quick presses one.
        projection.bring_to_front()
        for _ in range(6):
            projection.keyboard.press("PageDown")
            time.sleep(0.02)
        both_at(projection, console, 17)
        console.bring_to_front()
        for _ in range(2):
            console.keyboard.press("PageUp")
            time.sleep(0.02)
        both_at(projection, console, 15)
        time.sleep(1.0)  # a moment later, nothing moved on its own
        assert step_of(projection) == 15
    finally:
        context.close()


def test_a_control_changed_in_the_console_changes_the_projection(browser, app_server):
    context, projection, console = open_pair(browser, app_server, walk_to=4)  # 3.3.1: one query's scores
    try:
        before = projection.inner_text('.st-key-projection-stage .printed-tensor')
        assert "0.9544" in before  # "journey" asks: the book's scores
        query = console.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').filter(has_text="Query token")
        choose_option(console, query, "x(5) “one”")  # the step's own control, not the poll's question
        projection.wait_for_function(
            "() => { const t = document.querySelector('.st-key-projection-stage .printed-tensor');"
            " return t && !t.innerText.includes('0.9544'); }", timeout=PATIENT_MS)
        # ...and it stays: the projection's browser, still holding the old query when it took the new one, may ask
        # for its next run with the old value, which once came back to the console as the projection's own change.
        wait_idle(projection)
        wait_idle(console)
        after = projection.inner_text('.st-key-projection-stage .printed-tensor')
        assert "0.9544" not in after and after == console.inner_text('[data-testid="stMain"] .printed-tensor')
    finally:
        context.close()


def test_the_console_on_another_replica_drives_the_projection_through_redis(browser):
    """Two app servers sharing a real redis-server stand for two replicas: the projection on one,
    its console on the other (its token redeemed there), moving each other. Nothing reads the room between runs:
    each window hears the other's move on its room's event stream (ui/lecture/listen.js), across Redis."""
    from tests.browser.harness import Server
    from tests.redis_server import redis_server_path, running_redis

    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        env = {"ATTENTION_ROOMS": url}
        replicas = [Server(ROOT / "app.py", env=env) for _ in range(2)]
        context, console = browser.new_context(viewport={"width": 1280, "height": 720}), None
        try:
            for replica in replicas:
                replica.wait_healthy()
            projection = context.new_page()
            projection.goto(replicas[0].url + "/walkthrough?lecture=1&walk=4")
            wait_step(projection, 4, 60_000)
            wait_idle(projection)
            projection.wait_for_selector(".console-opener", state="attached")
            token = projection.locator(".console-opener").get_attribute("data-token")
            console = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()  # a window of its own
            console.goto(f"{replicas[1].url}/walkthrough?console={token}")
            console.wait_for_selector(".st-key-console-note", timeout=60_000)
            assert "Step 4 of" in console.inner_text('[data-testid="stMain"]')  # it joined the room
            wait_idle(projection)
            wait_idle(console)
            wait_keys(console)
            console.keyboard.press("PageDown")
            wait_step(projection, 5)
            projection.keyboard.press("PageDown")
            console.wait_for_function("() => document.querySelector('[data-testid=\"stMain\"]').innerText"
                                      ".includes('Step 6 of')", timeout=PATIENT_MS)
        finally:
            context.close()
            if console is not None:
                console.context.close()
            for replica in replicas:
                replica.stop()


def test_a_move_made_while_the_store_was_out_of_reach_reaches_the_projection_once_it_is_back(browser):
    """Redis stalls (the process stopped, as a store under too much load or a network cut would look) while the
    lecturer presses PageDown in the console: its run cannot publish. No timed fragment runs in either window, so
    nothing else would run the console again: its listener, told by the room's activity that the store is back
    (503, then 200), reruns it, and that run publishes the move. The projection follows without another key."""
    import signal
    import subprocess

    from tests.browser.harness import Server
    from tests.redis_server import redis_server_path, running_redis

    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        (pid,) = (int(p) for p in subprocess.check_output(["pgrep", "-f", f"redis-server.*:{port}"]).split())
        server = Server(ROOT / "app.py", env={"ATTENTION_ROOMS": url})
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            server.wait_healthy()
            projection, _ = open_projection(context, server.url, 1, new_room=True)
            console = open_console(context, projection)
            for window in (projection, console):
                wait_idle(window)
            os.kill(pid, signal.SIGSTOP)
            try:
                console.bring_to_front()
                console.keyboard.press("PageDown")
                console.wait_for_function("() => document.querySelector('[data-testid=\"stMain\"]').innerText"
                                          ".includes('Step 2 of')", timeout=PATIENT_MS)
                wait_idle(console, PATIENT_MS)
                time.sleep(5.0)  # the windows' asks of the room's activity meet the stalled store
                assert step_of(projection) == 1
            finally:
                os.kill(pid, signal.SIGCONT)
            wait_step(projection, 2)
            caught = console.evaluate("() => window.attentionListen.caught || 0")
            assert caught >= 1, "the console published its move without the listener's rerun"
        finally:
            context.close()
            server.stop()
