"""A replica dies mid-lecture and no student is lost: 2 replicas, a real redis-server, HAProxy, one SIGKILL.

Run: .venv/bin/python benchmarks/bench_failover_room.py [--students 8] [--readers 24]   (make bench-failover; writes
benchmarks/FAILOVER-ROOM.md)

The lecturer's projection (Chromium, ``/walkthrough?lecture=1&room=new&walk=4``) makes a room through the balancer.
The class follows it as students do now, on the light page, without a Streamlit session:

- ``--students`` Chromium pages on ``/follow/<room>?lang=en`` (a context each, as each is a device): the page's
  EventSource reads ``/room/<room>/events`` and reconnects by itself when the stream breaks;
- ``--readers`` light protocol students (benchmarks/bench_room.py StreamStudent): plain event-stream readers on raw
  sockets, which connect again after the stream's ``retry`` as EventSource does.

The event streams have no stickiness (HAProxy's ``events`` backend, leastconn), so the class is spread over both
replicas. The replica that serves the lecturer's session is spared; the other one is killed with SIGKILL, with the
streams it served (the balancer's count). Its students' streams break, reconnect, land on the live replica and start
with the room's newest state, which Redis kept. Then the lecturer moves on, 4 -> 7. A student is restored when it
shows step 7 (a Chromium page: drawn with its picture; a reader: its picture event read); a moved student is one
whose stream was opened again (a Chromium page: its second request for the stream; a reader: its reconnect count).

The last line reads ``failover (room): N students, K restored, L lost``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_failover import first_line, replica_of  # noqa: E402
from benchmarks.bench_room import (  # noqa: E402
    LANG,
    LIGHT_RECORDER_JS,
    LightWindow,
    StreamStudent,
    streams_per_replica,
)
from benchmarks.cluster import Cluster, balancer_path  # noqa: E402
from benchmarks.lecturer import BrowserWindow, open_lecturer, press, until  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.redis_server import redis_server_path, running_redis  # noqa: E402

START, END = 4, 7  # the lecturer's step when the replica dies, and after the moves that follow
TIMEOUT = 90.0


@dataclass
class Student:
    i: int
    kind: str  # "page" (Chromium on the light page) or "reader" (a protocol event-stream reader)
    window: LightWindow | None = None
    reader: StreamStudent | None = None
    streams: int = 0  # a page's requests for the event stream (more than one: it reconnected)
    moved: bool = False
    recovery: float | None = None  # seconds from the kill until step END was shown
    problems: list[str] = field(default_factory=list)

    async def shown(self) -> dict[int, float]:
        if self.reader is not None:
            return dict(self.reader.shown)
        return await self.window.shown() if self.window is not None else {}


async def join_page(browser, url: str, room: str, student: Student) -> None:
    """A phone-sized light page, its requests for the event stream counted from before it loads."""
    def count(request) -> None:
        if "/events" in request.url:
            student.streams += 1

    try:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        page.on("request", count)
        await page.goto(f"{url}/follow/{room}?lang={LANG}", timeout=TIMEOUT * 1000)
        await page.wait_for_selector("#line", timeout=TIMEOUT * 1000)
        await page.evaluate(LIGHT_RECORDER_JS, "#line")
        student.window = LightWindow(page)
        if not await until(lambda: _at(student, START), TIMEOUT):
            student.problems.append(f"never showed step {START} after joining")
    except Exception as exc:  # noqa: BLE001 - a student who never joined cannot be restored
        student.problems.append(f"could not join: {type(exc).__name__}: {first_line(exc)}")


async def join_reader(url: str, room: str, student: Student) -> None:
    student.reader = StreamStudent(url, f"/room/{room}/events?lang={LANG}")
    await student.reader.join()
    if student.reader.failed:
        student.problems.append(f"could not join: {student.reader.failed}")
    elif not await until(lambda: _at(student, START), TIMEOUT):
        student.problems.append(f"never showed step {START} after joining")


async def _at(student: Student, k: int) -> bool:
    return k in await student.shown()


async def recover(student: Student, killed_at: float) -> None:
    """Wait until the student shows step END; note whether its stream was opened again."""
    if student.problems:  # never joined: counted as lost already
        return
    if await until(lambda: _at(student, END), TIMEOUT):
        student.recovery = (await student.shown())[END] - killed_at
    else:
        shown = sorted(await student.shown())
        student.problems.append(f"not back after the kill: it showed steps {shown}, never {END}")
    student.moved = student.reader.reconnects > 0 if student.reader is not None else student.streams > 1


async def fail_over(browser, cluster: Cluster, students: list[Student]) -> dict:
    lecturer: BrowserWindow = await open_lecturer(browser, cluster.url, f"/walkthrough?lecture=1&room=new&walk={START}")
    room = await lecturer.page.evaluate("new URL(location.href).searchParams.get('room')")
    lecturer_replica = await replica_of(lecturer.page)
    pages = [s for s in students if s.kind == "page"]
    for i in range(0, len(pages), 4):
        await asyncio.gather(*(join_page(browser, cluster.url, room, s) for s in pages[i:i + 4]))
    readers = [s for s in students if s.kind == "reader"]
    for i in range(0, len(readers), 10):
        await asyncio.gather(*(join_reader(cluster.url, room, s) for s in readers[i:i + 10]))
    await asyncio.sleep(1.0)
    before = streams_per_replica(cluster)
    victim = next(name for name in cluster.servers if name != lecturer_replica)
    killed_at = time.time()
    cluster.kill(victim)
    lost_moves = 0
    for k in range(START + 1, END + 1):  # the lecture goes on while the moved students reconnect
        _, took = await press(lecturer, "PageDown", k)
        lost_moves += math.isnan(took)  # the projection never showed it
    await asyncio.gather(*(recover(s, killed_at) for s in students))
    after = streams_per_replica(cluster)
    for s in students:
        if s.reader is not None:
            await s.reader.close()
        elif s.window is not None:
            await s.window.page.context.close()
    await lecturer.page.context.close()
    return {"room": room, "victim": victim, "lecturer": lecturer_replica, "before": before, "after": after,
            "lecturer_lost": lost_moves}


async def run(pages: int, readers: int) -> tuple[list[Student], dict]:
    from playwright.async_api import async_playwright

    class_ = [Student(i, "page") for i in range(pages)] + [Student(pages + i, "reader") for i in range(readers)]
    with ExitStack() as stack:
        url = stack.enter_context(running_redis())
        cluster = Cluster(2, env={"ATTENTION_ROOMS": url})
        stack.callback(cluster.stop)
        cluster.start()
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                facts = await fail_over(browser, cluster, class_)
            finally:
                await browser.close()
    return class_, facts


def report(students: list[Student], facts: dict) -> list[str]:
    pages = sum(s.kind == "page" for s in students)
    moved = [s for s in students if s.moved]
    times = [s.recovery for s in moved if s.recovery is not None]
    restored = sum(1 for s in students if not s.problems)
    streams = ", ".join(f"{name} {n}" for name, n in sorted(facts["before"].items()))
    lines = [f"2 replicas behind HAProxy, rooms in one redis-server; the lecturer's session on {facts['lecturer']}; "
             f"{len(students)} students on the light page ({pages} Chromium pages, a context each, and "
             f"{len(students) - pages} event-stream readers)",
             f"event streams before the kill: {streams}",
             f"killed {facts['victim']} with SIGKILL: {len(moved)} students' streams were opened again "
             f"({sum(s.kind == 'page' for s in moved)} pages, {sum(s.kind == 'reader' for s in moved)} readers); "
             f"the lecturer then moved {START} -> {END}"
             + (f" ({facts['lecturer_lost']} of its steps never shown)" if facts["lecturer_lost"] else ""),
             "event streams after: " + ", ".join(f"{name} {n}" for name, n in sorted(facts["after"].items()))]
    if times:
        lines.append(f"moved students back in the room (kill -> step {END} shown): median "
                     f"{statistics.median(times):.2f} s, max {max(times):.2f} s")
    lines += [f"LOST: student {s.i} ({s.kind}): {'; '.join(s.problems)}" for s in students if s.problems]
    lines.append(f"failover (room): {len(students)} students, {restored} restored, {len(students) - restored} lost")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=8, help="Chromium pages on the light page")
    ap.add_argument("--readers", type=int, default=24, help="protocol event-stream readers")
    args = ap.parse_args()
    if chromium_path() is None or balancer_path() is None or redis_server_path() is None:
        print("needs chromium, haproxy and redis-server (make bench-failover installs them)")
        return 1
    students, facts = asyncio.run(run(args.students, args.readers))
    lines = report(students, facts)
    print("\n".join(lines))
    (ROOT / "benchmarks" / "FAILOVER-ROOM.md").write_text(
        f"# Failover in a lecture's room\n\nCommand: `.venv/bin/python benchmarks/bench_failover_room.py --students "
        f"{args.students} --readers {args.readers}` ({os.cpu_count()} cores)\n\n```\n" + "\n".join(lines) + "\n```\n")
    return 0 if all(not s.problems for s in students) else 1


if __name__ == "__main__":
    sys.exit(main())
