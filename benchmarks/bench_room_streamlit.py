"""A class of 60 follows the lecturer: the time from the lecturer's PageDown to each student's finished update.

Run: .venv/bin/python benchmarks/bench_room_streamlit.py --write   (writes benchmarks/ROOM-streamlit.md; the Streamlit
followers of before the light page: make bench-room now runs benchmarks/bench_room.py)

The lecturer is a Chromium page on the projection (``/walkthrough?lecture=1&room=new``), through the
balancer. The class joins with the room's link: ``--followers`` students, of which ``--browsers`` are
real Chromium pages (what a learner sees) and the rest protocol clients (benchmarks/protocol.py: the
websocket protocol spoken directly, with the frontend's timer for a timed fragment, so each costs the
server what a browser would and this machine's CPU is left to the servers). The lecturer presses
PageDown ``--presses`` times, one move at a time.

- A protocol student's update is finished when a full run that shows the new step ("Step k of n" on
  its line) has finished on the wire; a Chromium student's when its page shows the step and is idle.
- The lecturer's own step (key to its projection showing the step, idle) is measured on the same
  steps without the class and with it: the ratio is the class's cost to the lecturer.
- Setups: two replicas and a real redis-server behind HAProxy (the deployment with replicas); one
  process with the in-process store, at 30 and at 60 students; and the two replicas again with the
  store deliberately slowed (a TCP proxy that holds each of Redis's replies ``--slow-ms``), which the
  follow times must show; and (``--slow-run-ms``) every full run of the app made that much slower with Python work
  (ui/shell/process.py slowed_run), which the CPU per update and the follow times must show.
- The floor (``--floor``): the same class on the same setup following benchmarks/minimal_room_app.py, what following
  a room costs any Streamlit app with documented means (a timed fragment, then a full run); the app's row beside it.
- A protocol student does what a browser's watchdog does when a run's output never arrived (ui/lecture/watchdog.js):
  its beat says the session drew step k, its line shows another for 1.5 s: a full run. Those are counted (healed).
- An idle class: the servers' CPU over ``IDLE_SECONDS`` with every student polling and nothing moving.
- A class poll (with replicas and Redis, and with the slowed store): a new room, its console in Chromium,
  ``--followers`` protocol students; the console asks, every student answers at once (one fragment run
  each, as the frontend sends it), and the time until the console's count says all have answered is
  taken, ``POLL_REPEATS`` times. It ends with ``poll: 60 answers, 2 replicas, all on the console in X s``.

- CPU per follower update: the servers' CPU over the class's walk, less the idle class's rate over the same
  time, per student and move; beside it the minimal app's full run (benchmarks/minimal_app.py, PyTorch in its
  heap) measured the same way: half the class as protocol clients on one server, each asking for a full run at
  once, as many times as the lecturer presses (:func:`minimal_run_ms`), and the ratio.
  benchmarks/profile_room.py shows where that CPU goes (py-spy on a replica).

The follow section ends with ``room: 60 followers, 2 replicas, follow median X s, p95 Y s, lecturer Z x``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (ConnectionClosed)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from benchmarks.cluster import Cluster, cpu_seconds  # noqa: E402
from benchmarks.protocol import ProtocolLearner  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path  # noqa: E402
from tests.redis_server import running_redis  # noqa: E402

STEP = re.compile(r"Step \*\*(\d+)\*\* of")  # a student's line: "Step **k** of n" (ui/lecture/classroom.py)
BEAT_STEP = re.compile(r'data-step="(\d+)"')  # a beat's marker: the step the last full run drew (watchdog.py)
POLL_MARK = re.compile(r'data-poll="([0-9-]*)"')  # a beat's, and a question box's: which question (watchdog.js)
LOST_MS, HEAL_MS = 1_500, 4_000  # ui/lecture/watchdog.py STALE_MS and HEAL_MS
IDLE_SECONDS = 10.0
POLL_REPEATS = 5  # polls in a row, each answered by the whole class at once, each closed with one click
MOVE_TIMEOUT = 20.0

# In a page: the first moment (epoch ms) each step was on the line and the page idle. A MutationObserver, not
# requestAnimationFrame: a window behind the lecturer's gets no animation frames, but its DOM still changes.
RECORDER_JS = """(selector) => {
  window.__shown = window.__shown || {};
  const look = () => {
    const line = document.querySelector(selector);
    const m = line && /Step\\s*(\\d+)\\s*of/.exec(line.textContent);
    const app = document.querySelector('[data-testid="stApp"]');
    const idle = app && app.dataset.testScriptState !== 'running' && !document.querySelector('[data-stale="true"]');
    if (m && idle && !(m[1] in window.__shown)) window.__shown[m[1]] = performance.timeOrigin + performance.now();
  };
  if (!window.__recording) {
    window.__recording = true;
    new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                       characterData: true});
    look();
  }
}"""


class ProtocolStudent(ProtocolLearner):
    """A student's device on the wire: joins with ``?room=``, keeps the frontend's timer for each timed
    fragment (its poll), and notes when each step's full run has finished."""

    def __init__(self, base_url: str, room: str):
        super().__init__(base_url)
        self.room, self.query = room, f"room={room}"
        self.fragments: dict[str, asyncio.Task] = {}
        self.shown: dict[int, float] = {}  # step -> time.time() its run finished
        self.current: int | None = None
        self.log: list[tuple] = []  # (when, the step its run drew, how it finished): for a missed move's story
        self.exploring = False  # the student's line said so: it must never, as the student never touches anything
        self._reader: asyncio.Task | None = None
        self.poll_box: tuple[str, str, str] | None = None  # a question put to the class: (input id, Send id, fragment)
        self.want: int | None = None  # the step the beat says the last full run drew
        self.want_poll: str | None = None  # and the question ("" for none; None: the beat does not say)
        self.poll_shown = ""  # the question whose box the last full run that arrived drew
        self.heals = 0  # full runs asked for because a run's output never arrived (the watchdog's Heal)
        self.heal_widget: tuple[str, str] | None = None  # the heal component's (id, session token), as drawn
        self.asked = 0  # its state: the asks this session's token has counted (heal.js)
        self._watchdog: asyncio.Task | None = None

    async def join(self) -> None:
        await self.connect()
        self._reader = asyncio.create_task(self._read())
        self._watchdog = asyncio.create_task(self._watch())
        await self._send()

    async def _watch(self) -> None:
        """What a browser's watchdog (ui/lecture/watchdog.js) does when a run's output never arrived: the beat says
        the session drew step k (or question q), the page shows another for LOST_MS: Heal, a full run (at most
        every HEAL_MS)."""
        since = healed = 0.0
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()
            if (self.want is None or self.want == self.current) and self.want_poll in (None, self.poll_shown):
                since = 0.0
                continue
            since = since or now
            if now - since >= LOST_MS / 1000 and now - healed >= HEAL_MS / 1000:
                healed = now
                self.heals += 1
                self.asked += 1
                self.log.append((round(time.time(), 3), "heal", self.want, self.current))
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self._send()  # the ask's own request: a full run (heal.js's new state)

    async def _send(self, fragment: str = "") -> None:
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        if self.page_hash:
            rerun.page_script_hash = self.page_hash
        if fragment:
            rerun.fragment_id, rerun.is_auto_rerun = fragment, True
        rerun.widget_states.widgets.extend(self._heal_state())
        await self.ws.send(msg.SerializeToString())

    def _heal_state(self) -> list[WidgetState]:
        """The watchdog's count of asks, which a browser sends with every request (none before the first ask)."""
        if not self.asked or self.heal_widget is None:
            return []
        widget, token = self.heal_widget
        return [WidgetState(id=widget, json_value=json.dumps({"heal": {"n": self.asked, "s": token}}))]

    async def _timer(self, fragment: str, interval: float) -> None:
        while True:  # the frontend's setInterval: it sends whether or not a run is going on
            await asyncio.sleep(interval)
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._send(fragment)

    async def _read(self) -> None:
        step, poll_drawn = None, ""
        async for raw in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            timed = msg.auto_rerun if kind == "auto_rerun" else None
            if timed is not None and timed.interval < 60 and timed.fragment_id not in self.fragments:
                self.fragments[timed.fragment_id] = asyncio.create_task(self._timer(timed.fragment_id, timed.interval))
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") in ("text_input", "button"):
                self._note_poll_widget(msg.delta)
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") == "bidi_component" \
                    and "heal" in (component := msg.delta.new_element.bidi_component).component_name:
                self._note_heal(component)
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") == "html" and "data-beat=" in (
                        html := msg.delta.new_element.html.body):
                drawn = BEAT_STEP.search(html)  # the step the last full run drew
                self.want = int(drawn.group(1)) if drawn else None
                question = POLL_MARK.search(html)
                self.want_poll = question.group(1) if question else None
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") == "html" and "poll-in-view" in (
                        html := msg.delta.new_element.html.body):
                question = POLL_MARK.search(html)
                poll_drawn = question.group(1) if question else ""
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") == "markdown":
                body = msg.delta.new_element.markdown.body
                found = STEP.search(body)
                step = int(found.group(1)) if found else step
                if "Exploring on your own" in body:
                    self.exploring = True
            elif kind == "script_finished":
                self.log.append((round(time.time(), 3), step, msg.script_finished))
                # A run that drew the step (the student's line is drawn by full runs only) has finished. Its
                # status varies: "early for rerun" when a poll was queued behind it, or a fragment run's when
                # the queued poll ran at its end, in the same run (Streamlit's ScriptRequests).
                if msg.script_finished != ForwardMsg.FINISHED_WITH_COMPILE_ERROR and step is not None:
                    self.shown.setdefault(step, time.time())
                    self.current = step
                    self.poll_shown = poll_drawn
                step, poll_drawn = None, ""

    def _note_heal(self, component) -> None:
        """The watchdog's heal component (ui/lecture/heal.js): its id, and the session's token its count carries. A
        new token (a new session) counts from 0 again, as the browser's script does."""
        token = json.loads(component.json or "{}").get("s", "")
        if self.heal_widget is not None and self.heal_widget[1] != token:
            self.asked = 0
        self.heal_widget = (component.id, token)

    def _note_poll_widget(self, delta) -> None:
        """The answer box of a question put to the class (ui/lecture/poll.py: keys poll_answer:<n>, poll_send)."""
        element = delta.new_element
        kind = element.WhichOneof("type")
        widget = getattr(element, kind)
        if kind == "text_input" and "poll_answer:" in widget.id:
            send = self.poll_box[1] if self.poll_box else ""
            self.poll_box = (widget.id, send, delta.fragment_id)
        elif kind == "button" and widget.id.endswith("poll_send"):
            typed, fragment = (self.poll_box[0], self.poll_box[2]) if self.poll_box else ("", delta.fragment_id)
            self.poll_box = (typed, widget.id, fragment)

    async def answer(self, text: str) -> None:
        """Type ``text`` and press Send, as the frontend does: one rerun of the box's fragment."""
        typed, send, fragment = self.poll_box
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        rerun.page_script_hash = self.page_hash
        rerun.fragment_id = fragment
        rerun.widget_states.widgets.extend([WidgetState(id=typed, string_value=text),
                                            WidgetState(id=send, trigger_value=True), *self._heal_state()])
        await self.ws.send(msg.SerializeToString())

    def student_note(self) -> str:
        """Which replica served this student (its session cookie names it), for a missed step's story."""
        return str({k: v for k, v in getattr(self, "cookies", {}).items() if "xsrf" not in k})

    async def close(self) -> None:
        for task in [*self.fragments.values(), self._reader, self._watchdog]:
            if task is not None:
                task.cancel()
        await super().close()


@dataclass
class BrowserWindow:
    page: object
    selector: str

    async def shown(self) -> dict[int, float]:
        found = await self.page.evaluate("() => window.__shown || {}")
        return {int(k): v / 1000 for k, v in found.items()}


@dataclass
class Run:
    setup: str
    followers: int
    follow: list[float] = field(default_factory=list)  # seconds, every student x every move
    browser_follow: list[float] = field(default_factory=list)
    lecturer_alone: list[float] = field(default_factory=list)
    lecturer_with_class: list[float] = field(default_factory=list)
    missed: int = 0
    exploring: int = 0  # protocol students that left the lecture by themselves (a bug if not 0)
    idle_cores: float = 0.0
    poll_seconds: list[float] = field(default_factory=list)  # each poll: every answer sent at once -> all counted
    poll_closed: list[bool] = field(default_factory=list)  # each poll: Close took on its one click
    poll_unseen: list[int] = field(default_factory=list)  # each poll: students whose page never showed it
    update_ms: float = float("nan")  # the servers' CPU per follower update (the idle class's share taken out)
    pressed: list[tuple[int, float]] = field(default_factory=list)  # (step, when its key was pressed)
    heals: int = 0  # full runs the students' watchdogs asked for: a run's output lost on the way (watchdog.js)
    lecturer_lost: int = 0  # the lecturer's presses whose step the projection never showed, settled, in time

    def p(self, q: float, values: list[float] | None = None) -> float:
        values = sorted(self.follow if values is None else values)
        return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")

    @property
    def lecturer_ratio(self) -> float:
        alone, with_class = _shown(self.lecturer_alone), _shown(self.lecturer_with_class)
        if not alone or not with_class:  # a run without the lecturer-alone walk
            return float("nan")
        return statistics.median(with_class) / statistics.median(alone)


def _shown(times: list[float]) -> list[float]:
    """The lecturer's times of the steps the projection showed (a step it never showed is counted apart)."""
    return [t for t in times if not math.isnan(t)]


async def open_window(browser, url: str, selector: str, viewport: dict) -> BrowserWindow:
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector(selector, timeout=120_000)
    await page.evaluate(RECORDER_JS, selector)
    return BrowserWindow(page, selector)


async def until(check, timeout: float = MOVE_TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.02)
    return False


async def press(lecturer: BrowserWindow, key: str, k: int) -> tuple[float, float]:
    """The lecturer's key; (when it was pressed, seconds until the projection showed step k, idle)."""
    pressed = time.time()
    await lecturer.page.keyboard.press(key)
    await until(lambda: _has(lecturer, k))
    shown = (await lecturer.shown()).get(k)
    return pressed, (shown - pressed) if shown else float("nan")


async def _has(window: BrowserWindow, k: int) -> bool:
    return k in await window.shown()


async def walk(run: Run, lecturer: BrowserWindow, presses: int, students: list[ProtocolStudent],
               windows: list[BrowserWindow]) -> None:
    """PageDown ``presses`` times from step 1, waiting for everyone (or a timeout) after each."""
    for k in range(2, presses + 2):
        pressed, own = await press(lecturer, "PageDown", k)
        run.pressed.append((k, round(pressed, 3)))
        if math.isnan(own):  # never shown settled: a lost press, or a step drawn and left while still running
            run.lecturer_lost += 1
            print(f"{run.setup}: the projection never showed step {k} settled within {MOVE_TIMEOUT:.0f} s of its key; "
                  f"it showed {sorted(await lecturer.shown())}", file=sys.stderr)
        (run.lecturer_with_class if students or windows else run.lecturer_alone).append(own)

        async def everyone(k: int = k) -> bool:
            return all(k in s.shown for s in students) and all([k in await w.shown() for w in windows])

        await until(everyone)
        for s in students:
            if k in s.shown:
                run.follow.append(s.shown[k] - pressed)
            else:
                run.missed += 1
        for w in windows:
            got = (await w.shown()).get(k)
            if got is None:
                run.missed += 1
            else:
                run.browser_follow.append(got - pressed)
                run.follow.append(got - pressed)
        await asyncio.sleep(0.5)


LECTURER_PATH = "/walkthrough?lecture=1&room=new&walk=1"
FLOOR_APP, FLOOR_LECTURER_PATH = ROOT / "benchmarks" / "minimal_room_app.py", "/?lecture=1&room=new"


async def open_lecturer(browser, base_url: str, path: str = LECTURER_PATH) -> BrowserWindow:
    """A projection at step 1 in a new room (``?room=new``), settled."""
    lecturer = await open_window(browser, base_url + path,
                                 ".st-key-projection-bar", {"width": 1280, "height": 720})
    await until(lambda: _has(lecturer, 1), 60)
    await lecturer.page.wait_for_function("() => new URL(location.href).searchParams.get('room') !== 'new'")
    await asyncio.sleep(1.0)
    return lecturer


async def measure(setup: str, base_url: str, pids: list[int], followers: int, browsers: int, presses: int,
                  browser, idle_seconds: float = IDLE_SECONDS, alone: bool = True,
                  lecturer_path: str = LECTURER_PATH) -> Run:
    """``alone``: first the same steps by a lecturer with no class (the lecturer's ratio's baseline)."""
    run = Run(setup, followers)
    if alone:
        solo = await open_lecturer(browser, base_url, lecturer_path)
        await walk(run, solo, presses, [], [])  # a lecturer alone: the same steps, no class
        await solo.page.context.close()
    lecturer = await open_lecturer(browser, base_url, lecturer_path)  # the class's lecturer, in a room of its own
    room = await lecturer.page.evaluate("new URL(location.href).searchParams.get('room')")
    students = [ProtocolStudent(base_url, room) for _ in range(followers - browsers)]
    for i in range(0, len(students), 10):  # a class arrives over a few seconds, not in one instant
        await asyncio.gather(*(s.join() for s in students[i:i + 10]))
    windows = [await open_window(browser, f"{base_url}/?room={room}", ".st-key-class-bar",
                                 {"width": 1280, "height": 800}) for _ in range(browsers)]
    if not await until(lambda: _all_at(students, windows, 1), 120):
        where = [s.current for s in students] + [sorted(await w.shown()) for w in windows]
        print(f"not every student reached step 1: {where}", file=sys.stderr)
    await asyncio.sleep(2.0)
    before = sum(cpu_seconds(pid) for pid in pids)
    await asyncio.sleep(idle_seconds)
    run.idle_cores = (sum(cpu_seconds(pid) for pid in pids) - before) / idle_seconds
    walked, before = time.monotonic(), sum(cpu_seconds(pid) for pid in pids)
    await walk(run, lecturer, presses, students, windows)
    spent = sum(cpu_seconds(pid) for pid in pids) - before - run.idle_cores * (time.monotonic() - walked)
    run.update_ms = 1000 * spent / (presses * followers)  # the lecturer's own runs are in it too (one per move)
    run.exploring = sum(s.exploring for s in students)
    run.heals = sum(s.heals for s in students)
    if run.missed:
        print("missed:", [sorted(s.shown) for s in students if len(s.shown) < presses + 1][:5],
              [sorted(await w.shown()) for w in windows], file=sys.stderr)
        stories = ROOT / "artifacts" / "room-missed.txt"  # each student that missed a step: every run it saw
        with stories.open("w") as out:
            print("presses (step, time):", run.pressed, file=out)
            for s in [s for s in students if len(s.shown) < presses + 1]:
                print("student", s.student_note(), "shown", sorted(s.shown.items()), file=out)
                print("\n".join(map(str, s.log)), file=out)
        print(f"missed: the students' stories are in {stories}", file=sys.stderr)
        for i, w in enumerate(windows):  # what each Chromium student shows, if it still shows anything
            try:
                print("window", i, (await w.page.locator(w.selector).text_content(timeout=5000))[:80], file=sys.stderr)
                await w.page.screenshot(path=str(ROOT / "artifacts" / f"room-student-{i}.png"))
            except Exception as exc:  # noqa: BLE001 - a diagnosis must not end the bench before its table
                print("window", i, "could not be read:", type(exc).__name__, file=sys.stderr)
    for s in students:
        await s.close()
    for w in [lecturer, *windows]:
        await w.page.context.close()
    return run


# In the console: the first moment (epoch ms) its poll box said that every student of the class answered.
COUNTED_JS = """(n) => {
  window.__counted = null;
  const look = () => {
    const box = document.querySelector('.st-key-poll-console');
    if (window.__counted === null && box && new RegExp('(^|[^0-9])' + n + ' of [0-9]+ following answered')
        .test(box.innerText))
      window.__counted = performance.timeOrigin + performance.now();
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


async def measure_poll(base_url: str, browser, answers: int,
                       repeats: int = POLL_REPEATS) -> tuple[list[float], list[bool]]:
    """The console asks; ``answers`` protocol students answer at once: seconds until the console shows all,
    for each of ``repeats`` polls in a row; and whether each poll's Close took on its one click (never clicked
    again: a lost Close shows as such, and the next poll is not asked)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 720})
    projection = await context.new_page()
    await projection.goto(base_url + "/walkthrough?lecture=1&room=new&walk=4")
    await projection.wait_for_function("() => new URL(location.href).searchParams.get('room') !== 'new'",
                                       timeout=120_000)
    room = await projection.evaluate("new URL(location.href).searchParams.get('room')")
    await asyncio.sleep(2.0)
    async with context.expect_page() as opened:
        await projection.keyboard.press("p")
    console = await opened.value
    await console.set_viewport_size({"width": 1440, "height": 900})
    await console.wait_for_selector(".st-key-poll-console", timeout=120_000)
    students = [ProtocolStudent(base_url, room) for _ in range(answers)]
    for i in range(0, len(students), 10):
        await asyncio.gather(*(s.join() for s in students[i:i + 10]))
    await until(lambda: _all_at(students, [], 4), 120)
    await asyncio.sleep(2.0)
    box = console.locator(".st-key-poll-console")
    took, closed, unseen = [], [], []
    for number in range(1, repeats + 1):
        await console.evaluate(COUNTED_JS, answers)
        ask = box.get_by_role("button", name="Ask the class")
        try:
            await ask.wait_for(timeout=60_000)
        except Exception:
            await console.screenshot(path=str(ROOT / "artifacts" / f"poll-console-{number}.png"))
            print(f"poll {number}: no Ask button; the console's box says: {await box.inner_text()!r}", file=sys.stderr)
            break
        await ask.click()
        if not await until(_all_asked(students, number), 60):
            boxes = collections.Counter(s.poll_box[0] if s.poll_box else None for s in students)
            wanted = collections.Counter(s.want_poll for s in students)
            print(f"poll {number}: {sum(not _asked(s, number) for s in students)} students never saw the question; "
                  f"their answer boxes: {dict(boxes)}; the question their beats name: {dict(wanted)}; the "
                  f"console's box: {await box.inner_text()!r}", file=sys.stderr)
        await asyncio.sleep(1.0)
        asked = [s for s in students if _asked(s, number)]  # one that never saw it cannot answer: counted apart
        unseen.append(len(students) - len(asked))
        await console.evaluate(COUNTED_JS, len(asked))
        sent = time.time()
        await asyncio.gather(*(s.answer("0.9544" if i % 2 else "0.1385") for i, s in enumerate(asked)))
        await until(lambda: _counted(console), 30)
        counted = await console.evaluate("() => window.__counted")
        took.append(counted / 1000 - sent if counted else float("nan"))
        await box.get_by_role("button", name="Close the poll").click()  # once, as a lecturer would
        try:
            await box.get_by_role("button", name="Ask the class").wait_for(timeout=10_000)
            closed.append(True)
        except Exception:  # noqa: BLE001 (Playwright's TimeoutError)
            closed.append(False)
            print(f"poll {number}: Close did not take", file=sys.stderr)
            await console.screenshot(path=str(ROOT / "artifacts" / f"poll-close-{number}.png"))
            break
        await asyncio.sleep(1.0)
    for s in students:
        await s.close()
    await context.close()
    return took, closed, unseen


def _asked(student: ProtocolStudent, number: int) -> bool:
    box = student.poll_box
    return box is not None and all(box) and f"poll_answer:{number}" in box[0]


def _all_asked(students: list[ProtocolStudent], number: int):
    async def check() -> bool:
        return all(_asked(s, number) for s in students)
    return check


async def _counted(console) -> bool:
    return bool(await console.evaluate("() => window.__counted"))


async def _all_at(students: list[ProtocolStudent], windows: list[BrowserWindow], k: int) -> bool:
    return all(s.current == k for s in students) and all([k in await w.shown() for w in windows])


class SlowProxy:
    """A TCP proxy in front of Redis that holds each reply ``delay`` seconds: a deliberately slowed store."""

    def __init__(self, target_port: int, delay: float):
        self.target_port, self.delay = target_port, delay
        self.server = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _client(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pipe(src, dst, delay: float) -> None:
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                while data := await src.read(65536):
                    if delay:
                        await asyncio.sleep(delay)
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer, 0.0), pipe(up_reader, writer, self.delay))

    async def stop(self) -> None:
        self.server.close()


async def in_cluster(replicas: int, store: str, followers: int, browsers: int, presses: int, browser,
                     slow_ms: float = 0.0, idle_seconds: float = IDLE_SECONDS, poll_answers: int = 0,
                     poll_repeats: int = POLL_REPEATS, alone: bool = True, floor: bool = False,
                     slow_run_ms: int = 0, framed: bool = False) -> Run:
    """``floor``: the class follows benchmarks/minimal_room_app.py instead of the app (the architecture's floor).
    ``slow_run_ms``: every full run of the app does that much more work (ui/shell/process.py slowed_run).
    ``framed`` (with ``floor``): the floor's students draw what the app's following students draw, element for
    element, with none of the app's logic (``FLOOR_FRAME=1``)."""
    with contextlib.ExitStack() as stack:
        env = {}
        proxy = None
        if store == "redis":
            url = stack.enter_context(running_redis())
            if slow_ms:
                proxy = SlowProxy(int(url.rsplit(":", 1)[1].split("/")[0]), slow_ms / 1000)
                await proxy.start()
                url = f"redis://127.0.0.1:{proxy.port}/0"
            env["ATTENTION_ROOMS"] = url
        if slow_run_ms:
            env["ATTENTION_BENCH_SLOW_RUN_MS"] = str(slow_run_ms)
        if framed:
            env["FLOOR_FRAME"] = "1"
        cluster = Cluster(replicas, env=env, app=FLOOR_APP) if floor else Cluster(replicas, env=env)
        stack.callback(cluster.stop)
        await asyncio.to_thread(cluster.start)
        label = f"{replicas} replica{'s' if replicas > 1 else ''}, " + (
            "Redis" if store == "redis" else "in-process store")
        label += f", store slowed {slow_ms:.0f} ms" if slow_ms else ""
        label += (", the minimal room app drawing the app's elements (the framed floor)" if framed
                  else ", the minimal room app (the floor)") if floor else ""
        label += f", every page run {slow_run_ms} ms slower" if slow_run_ms else ""
        pids = [pid for name, pid in cluster.pids().items() if name != "haproxy"]
        try:
            run = await measure(label, cluster.url, pids, followers, browsers, presses, browser, idle_seconds, alone,
                                FLOOR_LECTURER_PATH if floor else LECTURER_PATH)
            print(row(run), file=sys.stderr, flush=True)  # as it is measured: a later failure keeps it
            if poll_answers:
                run.poll_seconds, run.poll_closed, run.poll_unseen = await measure_poll(
                    cluster.url, browser, poll_answers, poll_repeats)
            return run
        finally:
            if proxy is not None:
                await proxy.stop()


async def minimal_run_ms(sessions: int, rounds: int) -> float:
    """The baseline for a follower's update: server CPU (ms) per full run of the minimal app (the latency
    bench's: benchmarks/minimal_app.py, with PyTorch in its heap), ``sessions`` protocol clients each asking for
    a full run at once, ``rounds`` times, on one server of the same setup."""
    server = Server(ROOT / "benchmarks" / "minimal_app.py", env={"BENCH_IMPORT_TORCH": "1"})
    try:
        await asyncio.to_thread(server.wait_healthy, 120)
        learners = [ProtocolLearner(server.url) for _ in range(sessions)]
        for i in range(0, sessions, 10):
            await asyncio.gather(*(s.open("", "") for s in learners[i:i + 10]))
        await asyncio.sleep(1.0)
        before = cpu_seconds(server.proc.pid)
        for _ in range(rounds):
            await asyncio.gather(*(s.run() for s in learners))
            await asyncio.sleep(0.5)
        spent = cpu_seconds(server.proc.pid) - before
        for s in learners:
            await s.close()
        return 1000 * spent / (sessions * rounds)
    finally:
        server.stop()


def _median(values: list[float]) -> str:
    values = _shown(values)
    return f"{statistics.median(values):.2f}" if values else "–"


def row(run: Run) -> str:
    browsers = f"{statistics.median(run.browser_follow):.2f}" if run.browser_follow else "–"
    return (f"| {run.setup} | {run.followers} | **{statistics.median(run.follow):.2f}** | **{run.p(0.95):.2f}** | "
            f"{run.p(1.0):.2f} | {browsers} | {_median(run.lecturer_alone)} / "
            f"{_median(run.lecturer_with_class)} = {run.lecturer_ratio:.2f}×{_lost(run)} | {run.idle_cores:.2f} | "
            f"{run.update_ms:.1f} | {run.missed} | {run.heals} | {run.exploring} |")


def _lost(run: Run) -> str:
    return f" (**{run.lecturer_lost} of its steps never shown**)" if run.lecturer_lost else ""


def report(runs: list[Run], presses: int, slow: Run | None, baseline_ms: float = 0.0,
           floor: Run | None = None, slow_run: Run | None = None, framed: Run | None = None) -> list[str]:
    lines = [f"Each row: the lecturer presses PageDown {presses} times; every student's finished update is timed "
             "from the key (seconds).", "",
             "| setup | students | follow median | p95 | max | Chromium students' median | lecturer alone / with "
             "the class | idle class: cores busy | CPU per update (ms) | missed | healed | broke away |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [row(r) for r in runs + [r for r in (slow, slow_run, floor, framed) if r is not None]]
    main = runs[0]
    median = statistics.median(main.follow)
    if slow_run is not None:
        slowed = statistics.median(slow_run.follow)
        caught = slowed > median + 0.05 and slow_run.update_ms > main.update_ms + 15
        lines += ["", f"Slowed page run check: follow median {median:.2f} s → {slowed:.2f} s, CPU per update "
                      f"{main.update_ms:.1f} → {slow_run.update_ms:.1f} ms with every full run made slower "
                      f"({'caught' if caught else 'NOT caught'})."]
    if floor is not None:
        lines += ["", f"The floor, the same class following benchmarks/minimal_room_app.py on the same setup: follow "
                      f"median {statistics.median(floor.follow):.2f} s, p95 {floor.p(0.95):.2f} s, CPU per update "
                      f"{floor.update_ms:.1f} ms. The app: median {median / statistics.median(floor.follow):.2f}x, "
                      f"p95 {main.p(0.95) / floor.p(0.95):.2f}x, CPU per update "
                      f"{main.update_ms / floor.update_ms:.2f}x the floor's."]
    if framed is not None:
        lines += ["", f"The framed floor, the minimal room app drawing what a following student's run of the app "
                      f"draws (element for element, none of the app's logic): follow median "
                      f"{statistics.median(framed.follow):.2f} s, p95 {framed.p(0.95):.2f} s, CPU per update "
                      f"{framed.update_ms:.1f} ms. The app: median {median / statistics.median(framed.follow):.2f}x, "
                      f"p95 {main.p(0.95) / framed.p(0.95):.2f}x, CPU per update "
                      f"{main.update_ms / framed.update_ms:.2f}x the framed floor's."]
    if slow is not None:
        slowed = statistics.median(slow.follow)
        lines += ["", f"Slowed store check: follow median {median:.2f} s → {slowed:.2f} s with each Redis reply "
                      f"held back ({'caught' if slowed > median + 0.1 else 'NOT caught'})."]
    if floor is not None:  # the baseline measured the same way, on the same setup: the floor
        lines += ["", f"CPU per follower update: {main.update_ms:.1f} ms on the servers (the idle class's heartbeats "
                      f"taken out); the floor's, measured the same way: {floor.update_ms:.1f} ms; ratio "
                      f"{main.update_ms / floor.update_ms:.2f}x"]
    if baseline_ms:
        lines += ["", f"The latency bench's minimal app, its full runs asked for directly ({main.followers // 2} "
                      f"sessions at once on one server): {baseline_ms:.1f} ms a run (ratio "
                      f"{main.update_ms / baseline_ms:.2f}x). It draws a data editor, which a follower's run no "
                      "longer does: the floor is the baseline to compare with."]
    lines += ["", f"room: {main.followers} followers, 2 replicas, follow median {median:.2f} s, "
                  f"p95 {main.p(0.95):.2f} s, lecturer {main.lecturer_ratio:.2f}x"]
    if main.poll_seconds:
        lines += ["", f"A class poll, {len(main.poll_seconds)} times: the console asks, every student answers at once "
                      "(protocol clients); the time until the console's count shows them all: "
                      + ", ".join(f"{t:.2f}" for t in main.poll_seconds) + " s."]
        counted = [t for t in main.poll_seconds if t == t]  # nan: the count never arrived
        lines += ["", f"Close took on its one click in {sum(main.poll_closed)} of {len(main.poll_closed)} polls; "
                      f"the count arrived in {len(counted)} of {len(main.poll_seconds)}; students whose page never "
                      f"showed the question: {', '.join(map(str, main.poll_unseen)) or '–'} (each poll)."]
        poll = statistics.median(counted) if counted else float("nan")
        if slow is not None and slow.poll_seconds:
            slowed = statistics.median([t for t in slow.poll_seconds if t == t] or [float("nan")])
            lines += ["", f"Slowed store check: {poll:.2f} s → {slowed:.2f} s with each Redis reply held back "
                          f"({'caught' if slowed > poll + 0.1 else 'NOT caught'})."]
        lines += ["", f"poll: {main.followers} answers, 2 replicas, all on the console in {poll:.1f} s"]
    return lines


async def main_async(args) -> list[str]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        runs = [await in_cluster(2, "redis", args.followers, args.browsers, args.presses, browser,
                                 poll_answers=args.followers)]
        if not args.quick:
            for n in (30, args.followers):
                runs.append(await in_cluster(1, "memory", n, args.browsers, args.presses, browser))
        floor = None
        if args.floor:  # the same class on the same setup, following the minimal room app
            floor = await in_cluster(2, "redis", args.followers, args.browsers, args.presses, browser, floor=True)
        framed = None
        if args.framed_floor:  # the floor drawing, element for element, what a following student's run draws
            framed = await in_cluster(2, "redis", args.followers, args.browsers, args.presses, browser, floor=True,
                                      framed=True)
        slow_run = None
        if args.slow_run_ms:
            slow_run = await in_cluster(2, "redis", args.followers, args.browsers, args.presses, browser,
                                        alone=False, slow_run_ms=args.slow_run_ms)
        slow = None
        if args.slow_ms:
            slow = await in_cluster(2, "redis", args.followers, args.browsers, args.presses, browser, args.slow_ms,
                                    poll_answers=args.followers)
        await browser.close()
    baseline = await minimal_run_ms(args.followers // 2, args.presses)
    return report(runs, args.presses, slow, baseline, floor, slow_run, framed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", type=int, default=60)
    parser.add_argument("--browsers", type=int, default=3)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--slow-ms", type=float, default=100.0)
    parser.add_argument("--quick", action="store_true", help="only the replicas with Redis (and the slowed store)")
    parser.add_argument("--slow-run-ms", type=int, default=30, help="the slowed page run's check (0: none)")
    parser.add_argument("--floor", action="store_true",
                        help="also the class following benchmarks/minimal_room_app.py (what the architecture costs)")
    parser.add_argument("--framed-floor", action="store_true",
                        help="also the floor drawing what a following student's run of the app draws (Streamlit's "
                             "cost for the elements, without the app's logic)")
    parser.add_argument("--write", action="store_true", help="write benchmarks/ROOM-streamlit.md")
    args = parser.parse_args()
    lines = asyncio.run(main_async(args))
    print("\n".join(lines))
    if args.write:
        command = "python benchmarks/bench_room_streamlit.py " + " ".join(sys.argv[1:])
        text = "\n".join(lines)
        (ROOT / "benchmarks" / "ROOM-streamlit.md").write_text(
            f"# A class follows the lecturer\n\nCommand: `{command.strip()}` (2 cores)\n\n{text}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
