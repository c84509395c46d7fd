"""A class of 60 follows the lecturer on light pages: the time from the lecturer's PageDown to each student's new step.

Run: .venv/bin/python benchmarks/bench_room.py   (make bench-room; ``--write`` writes benchmarks/ROOM.md)

The lecturer is a Chromium page on the projection (``/walkthrough?lecture=1&room=new&walk=1``), through HAProxy in
front of two replicas that share a real redis-server (``ATTENTION_ROOMS=redis://...``): the deployment with replicas
(benchmarks/cluster.py, deploy/haproxy.py as deployed: cookie stickiness, compression). The class joins the room as
following students do now, without a Streamlit session:

- ``--browsers`` (3) Chromium pages on the light page, ``/follow/<room>?lang=en`` (ui/follow/page.py): a step is
  drawn when the page's line says "Step k of" and its caption is the step's (not the "waiting" text it shows between
  a move and the step's picture): what a student sees, recorded in the page by a MutationObserver;
- the rest (57) light protocol students: plain event-stream readers of ``/room/<room>/events?lang=en``
  (ui/shell/push.py), raw sockets in this process, through the balancer; a step has arrived when the first event of
  it with its picture (``index`` k-1, ``picture`` true: the view the light page draws) is read. They carry no cookie,
  so the balancer spreads them over both replicas (leastconn): one room's students sit on different replicas, and
  a move reaches the other replica through Redis's pub/sub.

Each move makes two versions of the room (the position, then the projection's picture): a student's time is the
picture's. Measured, in one run, on one machine:

- follow: key press -> step drawn (Chromium) or its picture event read (protocol), every student and move;
- the lecturer: key -> projection shows the step, idle, alone (the same steps, no class) and with the class; the ratio;
- idle: the replicas' CPU over ``IDLE_SECONDS`` with the class connected and nothing moving (keep-alives only);
- CPU per follower per move: the replicas' CPU over the class's walk, less the idle rate over that time, less the
  lecturer's own runs (the replicas' CPU per move of the lecturer-alone walk), per student and move; HAProxy's apart;
- the floor: a bare Starlette fan-out (benchmarks/hall_floor_app.py), two replicas behind the same kind of balancer,
  the same room made on both, the same view bytes the app sent published to both directly (no Redis, no lecturer run,
  no rendering), read by the same number of readers (all protocol: the floor serves no page). Its time is from the
  publish, so the app's follow is compared with the floor's fan-out plus the lecturer's own step alone;
- ``--slow-ms``: the same class with each Redis reply held back (a TCP proxy), which the follow times must show;
- ``--slow-fanout-ms``: the same class with the replicas' streams doing that much Python work per stream and event
  (ATTENTION_SLOW_FANOUT_MS), which the follow times and the CPU per follower must show.

It ends with ``room: 60 followers, 2 replicas, follow median X s, p95 Y s, lecturer Zx, idle W% of a core``.
The Streamlit followers of before (a session each) were measured in benchmarks/ROOM-streamlit.md, by a bench since
removed with that design.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import statistics
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_hall import fanout_parser, settle, write_report  # noqa: E402
from benchmarks.cluster import Cluster, cpu_seconds  # noqa: E402
from benchmarks.hall_readers import Dechunker  # noqa: E402
from benchmarks.lecturer import LECTURER_PATH, MOVE_TIMEOUT, SlowProxy, open_lecturer, press, recorder_js, until  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.redis_server import running_redis  # noqa: E402

IDLE_SECONDS = 10.0
LANG = "en"
FLOOR_APP = ROOT / "benchmarks" / "hall_floor_app.py"
CONNECTING_AT_ONCE = 10  # a class arrives over a few seconds, not in one instant
RETRY_SECONDS = 2.0  # ui/shell/push.py RETRY_MS: how soon a browser's EventSource reconnects

# In a light page: the first moment (epoch ms) each step was drawn: its line names it and its caption is the step's
# (between a move and its picture the page shows the "waiting" words). A MutationObserver: a window behind others
# gets no animation frames, but its DOM still changes.
LIGHT_RECORDER_JS = recorder_js("const caption = document.getElementById('caption');"
                                " return caption && caption.textContent.trim()"
                                " && caption.textContent !== document.body.dataset.waiting;")


class StreamStudent:
    """A light protocol student: one event stream read on a raw socket (HTTP/1.1 through the balancer, chunked).
    ``shown[k]``: when the first event of step k with its picture was read; ``data[k]``: that event's data (the view's
    JSON), kept by one student for the floor to publish."""

    def __init__(self, base_url: str, path: str, keep: bool = False) -> None:
        url = urlparse(base_url)
        self.host, self.port, self.path, self.keep = url.hostname, url.port, path, keep
        self.shown: dict[int, float] = {}
        self.versions: dict[int, int] = {}  # step -> the room's version of its first picture event read
        self.data: dict[int, str] = {}
        self.first = asyncio.Event()
        self.failed = ""
        self._chunks, self._text = Dechunker(), b""
        self._task: asyncio.Task | None = None
        self._writer = None
        self._closing = False
        self.reconnects = 0

    async def join(self) -> None:
        self._task = asyncio.create_task(self._run())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.first.wait(), 60)

    async def _run(self) -> None:
        """Read the stream; when it ends or breaks, connect again after the stream's ``retry`` (2 s), as a browser's
        EventSource does (a replica marked down closes its streams): the new stream starts with the room's newest
        state. A stream refused before its first event fails the student."""
        while True:
            try:
                await self._read_stream()
            except (OSError, ConnectionError, asyncio.IncompleteReadError) as exc:
                if not self.first.is_set():
                    self.failed = f"{type(exc).__name__}: {exc}"
                    self.first.set()
                    return
            if self._closing:
                return
            self.reconnects += 1
            await asyncio.sleep(RETRY_SECONDS)

    async def _read_stream(self) -> None:
        self._chunks, self._text = Dechunker(), b""
        reader, self._writer = await asyncio.open_connection(self.host, self.port)
        self._writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                           "Accept: text/event-stream\r\nAccept-Encoding: gzip\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        if " 200 " not in head.split("\r\n", 1)[0]:
            raise ConnectionError(head.split("\r\n", 1)[0])
        if "content-encoding" in head.lower():
            raise ConnectionError("the event stream came compressed")
        try:
            while data := await reader.read(65536):
                self._events(self._chunks.feed(data))
        finally:
            self._writer.close()

    def _events(self, body: bytes) -> None:
        now = time.time()
        self._text += body
        while b"\n\n" in self._text:
            event, self._text = self._text.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    self._view(line[6:].decode(), now)

    def _view(self, data: str, now: float) -> None:
        try:
            view = json.loads(data)
        except ValueError:
            return
        if not isinstance(view, dict) or not view.get("picture") or not isinstance(view.get("index"), int):
            return
        k = view["index"] + 1
        if k not in self.shown:
            self.shown[k] = now
            self.versions[k] = view.get("version", 0)
            if self.keep:
                self.data[k] = data
        self.first.set()

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 5)


@dataclass
class LightWindow:
    page: object

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
    failed: int = 0  # students whose stream or page never opened
    reconnects: int = 0  # protocol students' streams that ended and were opened again (a browser does the same)
    idle_cores: float = 0.0
    cpu_ms: float = math.nan  # the replicas' CPU per follower per move (idle and the lecturer's own runs taken out)
    class_ms: float = math.nan  # the same per move for the whole class (a view rendered once per replica included)
    lecturer_cpu_ms: float = math.nan  # the replicas' CPU per move of the lecturer alone
    balancer_ms: float = math.nan  # HAProxy's CPU per follower per move
    replicas: dict[str, int] = field(default_factory=dict)  # event streams open per replica (the balancer's count)
    payloads: dict[int, str] = field(default_factory=dict)  # step -> the view the app sent (for the floor)
    fanout: list[float] = field(default_factory=list)  # protocol students: the picture's publish -> its event read
    published: list[float] = field(default_factory=list)  # each move: key -> the picture's version in the store

    def p(self, q: float, values: list[float] | None = None) -> float:
        values = sorted(self.follow if values is None else values)
        return values[min(len(values) - 1, math.ceil(q * len(values)) - 1)] if values else math.nan

    @property
    def median(self) -> float:
        return statistics.median(self.follow) if self.follow else math.nan

    @property
    def lecturer_ratio(self) -> float:
        alone, with_class = _finite(self.lecturer_alone), _finite(self.lecturer_with_class)
        if not alone or not with_class:
            return math.nan
        return statistics.median(with_class) / statistics.median(alone)


def _finite(values: list[float]) -> list[float]:
    return [v for v in values if not math.isnan(v)]


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


async def open_light(browser, base_url: str, room: str) -> LightWindow:
    """A student's phone-sized window on the light page, recording when each step is drawn."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.goto(f"{base_url}/follow/{room}?lang={LANG}")
    await page.wait_for_selector("#line", timeout=120_000)
    await page.evaluate(LIGHT_RECORDER_JS, "#line")
    return LightWindow(page)


async def watch_versions(url: str, room: str, seen: dict[int, float], stop: asyncio.Event) -> None:
    """When each version of the room appeared in Redis (read directly, every 5 ms, not through a slowed proxy): the
    moment the lecturer's run published it. Until ``stop`` is set (redis-py may swallow a task's cancellation)."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    try:
        while not stop.is_set():
            found = await client.hget(f"attn:room:{room}", "ver")
            if found is not None:
                seen.setdefault(int(found), time.time())
            await asyncio.sleep(0.005)
    finally:
        await client.aclose()


async def walk(run: Run, lecturer, presses: int, students: list[StreamStudent], windows: list[LightWindow],
               pids: list[int], record: bool = True, versions: dict[int, float] | None = None) -> float:
    """PageDown ``presses`` times from step 1, waiting for everyone (or MOVE_TIMEOUT) after each; the replicas' CPU."""
    before = _cpu(pids)
    for k in range(2, presses + 2):
        pressed, own = await press(lecturer, "PageDown", k)
        (run.lecturer_with_class if students or windows else run.lecturer_alone).append(own)
        if math.isnan(own):
            print(f"{run.setup}: the projection never showed step {k} within {MOVE_TIMEOUT:.0f} s", file=sys.stderr)

        async def everyone(k: int = k) -> bool:
            return all(k in s.shown for s in students) and all([k in await w.shown() for w in windows])

        if not await until(everyone):
            late = [i for i, s in enumerate(students) if k not in s.shown]
            lines = [await w.page.evaluate("() => document.getElementById('line').textContent") for w in windows
                     if k not in await w.shown()]
            print(f"step {k}: not shown within {MOVE_TIMEOUT:.0f} s by {len(late)} streams (students {late}) and "
                  f"{len(lines)} light pages (their lines: {lines})", file=sys.stderr)
        if record:
            _note(run, k, pressed, students, [(await w.shown()).get(k) for w in windows])
        if versions and students and k in students[0].versions and students[0].versions[k] in versions:
            published = versions[students[0].versions[k]]
            run.published.append(published - pressed)
            run.fanout += [s.shown[k] - versions[s.versions[k]] for s in students
                           if k in s.shown and s.versions[k] in versions]
        await asyncio.sleep(0.5)
    return _cpu(pids) - before


def _note(run: Run, k: int, sent: float, students: list[StreamStudent], windows: list[float | None]) -> None:
    for s in students:
        if k in s.shown:
            run.follow.append(s.shown[k] - sent)
        else:
            run.missed += 1
    for got in windows:
        if got is None:
            run.missed += 1
        else:
            run.browser_follow.append(got - sent)
            run.follow.append(got - sent)


async def join_all(students: list[StreamStudent]) -> None:
    for i in range(0, len(students), CONNECTING_AT_ONCE):
        await asyncio.gather(*(s.join() for s in students[i:i + CONNECTING_AT_ONCE]))


async def measure(setup: str, cluster: Cluster, followers: int, browsers: int, presses: int, browser,
                  idle_seconds: float, alone: bool, lecturer_cpu_ms: float = math.nan, store: str = "") -> Run:
    """``alone``: first the lecturer's walk with no class; else ``lecturer_cpu_ms`` (another run's) is taken out."""
    run = Run(setup, followers, lecturer_cpu_ms=lecturer_cpu_ms)
    pids = [pid for name, pid in cluster.pids().items() if name != "haproxy"]
    balancer = [cluster.pids()["haproxy"]]
    if alone:  # the lecturer alone: the same steps with no class, its replicas' CPU per move
        solo = await open_lecturer(browser, cluster.url, LECTURER_PATH)
        before, started = _cpu(pids), time.monotonic()
        await asyncio.sleep(3.0)
        quiet = (_cpu(pids) - before) / (time.monotonic() - started)
        started = time.monotonic()
        spent = await walk(run, solo, presses, [], [], pids)
        run.lecturer_cpu_ms = 1000 * max(spent - quiet * (time.monotonic() - started), 0.0) / presses
        await solo.page.context.close()
    lecturer = await open_lecturer(browser, cluster.url, LECTURER_PATH)
    room = await lecturer.page.evaluate("new URL(location.href).searchParams.get('room')")
    path = f"/room/{room}/events?lang={LANG}"
    students = [StreamStudent(cluster.url, path, keep=i == 0) for i in range(followers - browsers)]
    await join_all(students)
    windows = []
    for _ in range(browsers):
        try:
            windows.append(await open_light(browser, cluster.url, room))
        except Exception as exc:  # noqa: BLE001 - a page that never opened is counted, the bench goes on
            run.failed += 1
            print(f"{setup}: a light page did not open: {type(exc).__name__}", file=sys.stderr)
    run.failed += sum(bool(s.failed) for s in students)
    for s in students:
        if s.failed:
            print(f"{setup}: a stream failed: {s.failed}", file=sys.stderr)
    run.replicas = streams_per_replica(cluster)

    async def at_one() -> bool:
        return all(1 in s.shown for s in students if not s.failed) and all([1 in await w.shown() for w in windows])

    if not await until(at_one, 120):
        print(f"{setup}: not every student reached step 1", file=sys.stderr)
    await asyncio.sleep(2.0)
    before, b_before = _cpu(pids), _cpu(balancer)
    await asyncio.sleep(idle_seconds)
    run.idle_cores = (_cpu(pids) - before) / idle_seconds
    b_idle = (_cpu(balancer) - b_before) / idle_seconds
    versions: dict[int, float] = {}
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_versions(store, room, versions, stop)) if store else None
    started, b_before = time.monotonic(), _cpu(balancer)
    spent = await walk(run, lecturer, presses, students, windows, pids, versions=versions)
    if watcher is not None:
        stop.set()
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(watcher, 10)
    took = time.monotonic() - started
    own = 0.0 if math.isnan(run.lecturer_cpu_ms) else run.lecturer_cpu_ms * presses / 1000
    run.reconnects = sum(s.reconnects for s in students)
    run.class_ms = 1000 * max(spent - run.idle_cores * took - own, 0.0) / presses
    run.cpu_ms = run.class_ms / followers
    run.balancer_ms = 1000 * max(_cpu(balancer) - b_before - b_idle * took, 0.0) / (presses * followers)
    run.payloads = dict(students[0].data) if students else {}
    for s in students:
        await s.close()
    for w in [lecturer, *windows]:
        await w.page.context.close()
    return run


async def in_cluster(followers: int, browsers: int, presses: int, browser, slow_ms: float = 0.0,
                     slow_fanout_ms: int = 0, idle_seconds: float = IDLE_SECONDS, alone: bool = True,
                     lecturer_cpu_ms: float = math.nan) -> Run:
    """The class on two replicas and Redis behind HAProxy; ``slow_ms``: each Redis reply held back that long;
    ``slow_fanout_ms``: that much Python work per stream and event (ATTENTION_SLOW_FANOUT_MS)."""
    with contextlib.ExitStack() as stack:
        url = direct = stack.enter_context(running_redis())
        proxy = None
        if slow_ms:
            proxy = SlowProxy(int(url.rsplit(":", 1)[1].split("/")[0]), slow_ms / 1000)
            await proxy.start()
            url = f"redis://127.0.0.1:{proxy.port}/0"
        env = {"ATTENTION_ROOMS": url}
        if slow_fanout_ms:
            env["ATTENTION_SLOW_FANOUT_MS"] = str(slow_fanout_ms)
        cluster = Cluster(2, env=env)
        stack.callback(cluster.stop)
        await asyncio.to_thread(cluster.start)
        await asyncio.to_thread(_settle, cluster)
        label = "2 replicas, Redis, light pages"
        label += f", store slowed {slow_ms:.0f} ms" if slow_ms else ""
        label += f", fan-out slowed {slow_fanout_ms} ms per stream and event" if slow_fanout_ms else ""
        try:
            run = await measure(label, cluster, followers, browsers, presses, browser, idle_seconds, alone,
                                lecturer_cpu_ms, direct)
            print(row(run), file=sys.stderr, flush=True)  # as it is measured: a later failure keeps it
            return run
        finally:
            if proxy is not None:
                await proxy.stop()


def streams_per_replica(cluster: Cluster) -> dict[str, int]:
    """The event streams open on each replica, as the balancer counts them (its ``events`` backend, or the one
    backend of a configuration without it): the light pages' and the protocol students' alike."""
    rows = cluster.stats()
    backend = "events" if any(r.get("pxname") == "events" for r in rows) else "replicas"
    return {r["svname"]: int(r["scur"]) for r in rows
            if r.get("pxname") == backend and r["svname"] in cluster.servers}


def _settle(cluster: Cluster) -> None:
    """Until every replica is quiet: ui.shell.serve goes on importing PyTorch and the pages after its health check."""
    for name, pid in cluster.pids().items():
        if name != "haproxy":
            settle(pid)


def _post(url: str, body: str) -> str:
    request = urllib.request.Request(url, data=body.encode(), method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


async def floor(followers: int, payloads: dict[int, str], idle_seconds: float = IDLE_SECONDS) -> Run:
    """The same readers of a bare Starlette fan-out on two replicas behind HAProxy: the room made on both, each move's
    view (the app's own bytes) published to both at once; a reader's time is from just before the publish."""
    steps = sorted(payloads)
    run = Run("2 replicas, bare Starlette fan-out (the floor)", followers)
    if not steps or steps[0] != 1:
        print("the floor: no step 1 from the app's run to publish", file=sys.stderr)
        return run
    cluster = Cluster(2, app=FLOOR_APP)
    try:
        await asyncio.to_thread(cluster.start)
        await asyncio.to_thread(_settle, cluster)
        servers = [f"http://127.0.0.1:{s.port}" for s in cluster.servers.values()]
        room = "floorroom123"
        for server in servers:
            await asyncio.to_thread(_post, f"{server}/bench/room?room={room}", payloads[1])
        pids = [pid for name, pid in cluster.pids().items() if name != "haproxy"]
        balancer = [cluster.pids()["haproxy"]]
        students = [StreamStudent(cluster.url, f"/room/{room}/events") for _ in range(followers)]
        await join_all(students)
        run.failed = sum(bool(s.failed) for s in students)
        run.replicas = streams_per_replica(cluster)
        await asyncio.sleep(2.0)
        before, b_before = _cpu(pids), _cpu(balancer)
        await asyncio.sleep(idle_seconds)
        run.idle_cores = (_cpu(pids) - before) / idle_seconds
        b_idle = (_cpu(balancer) - b_before) / idle_seconds
        started, before, b_before = time.monotonic(), _cpu(pids), _cpu(balancer)
        for k in steps[1:]:
            sent = time.time()
            await asyncio.gather(*(asyncio.to_thread(_post, f"{s}/bench/room/{room}/publish", payloads[k])
                                   for s in servers))

            async def everyone(k: int = k) -> bool:
                return all(k in s.shown for s in students)

            await until(everyone, MOVE_TIMEOUT)
            _note(run, k, sent, students, [])
            await asyncio.sleep(0.5)
        run.fanout = list(run.follow)  # from the publish's request: the floor's whole path
        took, moves = time.monotonic() - started, len(steps) - 1
        run.reconnects = sum(s.reconnects for s in students)
        run.class_ms = 1000 * max(_cpu(pids) - before - run.idle_cores * took, 0.0) / moves
        run.cpu_ms = run.class_ms / followers
        run.balancer_ms = 1000 * max(_cpu(balancer) - b_before - b_idle * took, 0.0) / (moves * followers)
        for s in students:
            await s.close()
    finally:
        cluster.stop()
    return run


def _med(values: list[float]) -> str:
    values = _finite(values)
    return f"{statistics.median(values):.2f}" if values else "–"


def row(run: Run) -> str:
    return (f"| {run.setup} | {run.followers} | **{run.median:.2f}** | **{run.p(0.95):.2f}** | {run.p(1.0):.2f} | "
            f"{_med(run.browser_follow)} | {_med(run.lecturer_alone)} / {_med(run.lecturer_with_class)} | "
            f"{run.idle_cores * 100:.1f}% | {run.cpu_ms:.2f} | {run.balancer_ms:.2f} | {run.missed} | "
            f"{run.failed} | {run.reconnects} | "
            f"{' '.join(f'{k}:{v}' for k, v in sorted(run.replicas.items()))} |")


def report(main: Run, presses: int, floor_run: Run | None, slow: Run | None, slow_fanout: Run | None) -> list[str]:
    lines = [f"Each row: the lecturer presses PageDown {presses} times; each student's new step is timed from the key "
             "(the floor's from the publish), in seconds.", "",
             "| setup | students | follow median | p95 | max | Chromium light pages' median | lecturer alone / with "
             "the class | idle: % of a core (replicas) | replicas' CPU per follower per move (ms) | HAProxy's (ms) | "
             "missed | failed to join | reconnected | streams per replica |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    lines += [row(r) for r in (main, slow, slow_fanout, floor_run) if r is not None]
    median, p95 = main.median, main.p(0.95)
    if main.published and main.fanout:
        lines += ["", f"The move's path, protocol students: key -> the picture's version in the store (the lecturer's "
                      f"run, read in Redis every 5 ms) median {statistics.median(main.published):.3f} s, p95 "
                      f"{main.p(0.95, main.published):.3f} s; that publish -> the student's event read (Redis pub/sub, "
                      f"the document read, the view rendered, the fan-out, HAProxy) median "
                      f"{statistics.median(main.fanout):.3f} s, p95 {main.p(0.95, main.fanout):.3f} s."]
    if floor_run is not None and floor_run.follow:
        fm, fp = floor_run.median, floor_run.p(0.95)
        lines += ["", f"The floor (a bare Starlette fan-out of the same view bytes to {floor_run.followers} readers, "
                      f"2 replicas behind the same HAProxy, published to both by HTTP): median {fm:.3f} s, p95 "
                      f"{fp:.3f} s from the publish's request, CPU {floor_run.cpu_ms:.3f} ms per follower per move."]
        if main.fanout:
            am, ap = statistics.median(main.fanout), main.p(0.95, main.fanout)
            lines += [f"The app's fan-out against the floor's, both from the publish: median {am:.3f} / {fm:.3f} s = "
                      f"{am / fm:.1f}x, p95 {ap:.3f} / {fp:.3f} s = {ap / fp:.1f}x; CPU per follower per move "
                      f"{main.cpu_ms:.3f} / {floor_run.cpu_ms:.3f} ms = "
                      f"{main.cpu_ms / floor_run.cpu_ms if floor_run.cpu_ms else math.inf:.1f}x."]
    if not math.isnan(main.lecturer_cpu_ms):
        lines += ["", f"The lecturer's own runs, alone: {main.lecturer_cpu_ms:.0f} ms of the replicas' CPU per move "
                      "(taken out of the class's CPU per follower above). The class's CPU per move includes each "
                      "replica's rendering of each new version's view once (its chart, for every subscriber of a "
                      "language): a cost per move, not per follower, here divided by the class."]
    if slow is not None:
        caught = slow.median > median + 0.1
        lines += ["", f"Slowed store check: follow median {median:.2f} s → {slow.median:.2f} s, p95 {p95:.2f} → "
                      f"{slow.p(0.95):.2f} s with each Redis reply held back ({'caught' if caught else 'NOT caught'})."]
    if slow_fanout is not None:
        caught = slow_fanout.p(0.95) > p95 + 0.05 and slow_fanout.cpu_ms > main.cpu_ms
        lines += ["", f"Slowed fan-out check: follow median {median:.2f} s → {slow_fanout.median:.2f} s, p95 "
                      f"{p95:.2f} → {slow_fanout.p(0.95):.2f} s, CPU per follower per move {main.cpu_ms:.2f} → "
                      f"{slow_fanout.cpu_ms:.2f} ms ({'caught' if caught else 'NOT caught'})."]
    lines += ["", f"room: {main.followers} followers, 2 replicas, follow median {median:.2f} s, p95 {p95:.2f} s, "
                  f"lecturer {main.lecturer_ratio:.2f}x, idle {main.idle_cores * 100:.1f}% of a core"]
    lines += [f"room CPU: {main.cpu_ms:.3f} ms per follower per move on the replicas (HAProxy {main.balancer_ms:.3f} "
              f"ms), {main.class_ms:.0f} ms per move for the whole class"
              + (f"; floor {floor_run.cpu_ms:.3f} ms (HAProxy {floor_run.balancer_ms:.3f} ms)"
                 if floor_run is not None else "")]
    targets = median <= 0.3 and p95 <= 0.6
    lines += [f"targets (median ≤ 0.3 s, p95 ≤ 0.6 s): {'met' if targets else 'NOT met'}"]
    return lines


async def main_async(args) -> list[str]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        main = await in_cluster(args.followers, args.browsers, args.presses, browser, idle_seconds=args.idle_seconds)
        slow = slow_fanout = None
        # The slowed classes' lecturer walks alone no more: the main run's CPU for the lecturer's runs is taken out.
        same = {"idle_seconds": args.idle_seconds, "alone": False, "lecturer_cpu_ms": main.lecturer_cpu_ms}
        if args.slow_ms:
            slow = await in_cluster(args.followers, args.browsers, args.presses, browser, slow_ms=args.slow_ms, **same)
        if args.slow_fanout_ms:
            slow_fanout = await in_cluster(args.followers, args.browsers, args.presses, browser,
                                           slow_fanout_ms=args.slow_fanout_ms, **same)
        await browser.close()
    floor_run = None
    if not args.no_floor:
        floor_run = await floor(args.followers, main.payloads, args.idle_seconds)
        print(row(floor_run), file=sys.stderr, flush=True)
    return report(main, args.presses, floor_run, slow, slow_fanout)


def main() -> int:
    parser = fanout_parser(__doc__, followers=60, idle_seconds=IDLE_SECONDS, report="ROOM.md")
    parser.add_argument("--browsers", type=int, default=3)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--slow-ms", type=float, default=100.0, help="the slowed store's check (0: none)")
    parser.add_argument("--slow-fanout-ms", type=int, default=5, help="the slowed fan-out's check (0: none)")
    args = parser.parse_args()
    lines = asyncio.run(main_async(args))
    print("\n".join(lines))
    if args.write:
        write_report("ROOM.md", "A class follows the lecturer on light pages", "2 cores", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
