"""The room benchmark sees what a student sees: a deliberately slowed store and a deliberately slowed fan-out show up
in its follow times (and the fan-out in the replicas' CPU per follower).

A small class on light pages (8 light protocol students, plain event-stream readers, and one Chromium light page; 2
replicas, a real redis-server, HAProxy) follows 4 of the lecturer's moves, measured with the benchmark's own
function (benchmarks/bench_room.py in_cluster); then the same class with every Redis reply held back 150 ms by a TCP
proxy (benchmarks/lecturer.py SlowProxy); then with the replicas' streams doing 40 ms of Python work per stream and
event (ATTENTION_SLOW_FANOUT_MS, ui/shell/push.py), which holds each replica's event loop.

- The slowed store: a move is several round trips to the store on its path (the lecturer's run reads and writes the
  room; the publish; the other replica hears it on pub/sub and reads the document), so the median follow must be at
  least 0.2 s later.
- The slowed fan-out: a move is two events (the position, then the picture), each sent to the 4 or 5 streams of a
  replica one after the other, 40 ms each: the last stream of a replica waits a few hundred ms more, so the p95 must
  be at least 0.1 s later; and each stream spends 2 x 40 ms of CPU per move, so the CPU per follower per move must
  grow by at least 40 ms.

Nobody may miss a move either way, and every student must join. A stream that ends (a replica marked down by a
health check that a busy event loop answered late closes its streams) is read again, as EventSource does.
"""

from __future__ import annotations

import asyncio
import statistics
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks.cluster import balancer_path
from tests.browser.harness import CHROMIUM_ARGS, chromium_path
from tests.redis_server import redis_server_path

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_path() is None or balancer_path() is None or redis_server_path() is None,
                                 reason="needs chromium, haproxy and redis-server (make test installs them)")]

STUDENTS, BROWSERS, MOVES = 9, 1, 4
SLOW_STORE_MS, SLOW_FANOUT_MS = 150, 40


async def _three():
    from playwright.async_api import async_playwright

    from benchmarks.bench_room import in_cluster

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            same = {"idle_seconds": 2.0, "alone": False}  # nothing here compares the lecturer's own times
            normal = await in_cluster(STUDENTS, BROWSERS, MOVES, browser, **same)
            slowed = await in_cluster(STUDENTS, BROWSERS, MOVES, browser, slow_ms=SLOW_STORE_MS, **same)
            fanout = await in_cluster(STUDENTS, BROWSERS, MOVES, browser, slow_fanout_ms=SLOW_FANOUT_MS, **same)
        finally:
            await browser.close()
    return normal, slowed, fanout


@pytest.fixture(scope="module")
def runs():
    with ThreadPoolExecutor(1) as pool:  # the browser tests' own Playwright holds this thread's event loop
        return pool.submit(asyncio.run, _three()).result()


def test_every_student_joined_and_saw_every_move(runs):
    for run in runs:
        assert run.missed == 0 and run.failed == 0, (run.setup, run.missed, run.failed)
        assert len(run.follow) == STUDENTS * MOVES, (run.setup, len(run.follow))
        assert len(run.browser_follow) == BROWSERS * MOVES, run.setup  # the Chromium light page drew every step
        # the class sits on both replicas (the balancer's count of streams): Redis carries the moves between them
        assert len(run.replicas) == 2 and all(run.replicas.values()), run.replicas


def test_a_slowed_store_shows_in_the_follow_times(runs):
    normal, slowed, _ = runs
    assert statistics.median(slowed.follow) >= statistics.median(normal.follow) + 0.2, (normal.follow, slowed.follow)


def test_a_slowed_fanout_shows_in_the_follow_times_and_the_cpu(runs):
    normal, _, fanout = runs
    assert fanout.p(0.95) >= normal.p(0.95) + 0.1, (normal.follow, fanout.follow)
    assert fanout.cpu_ms >= normal.cpu_ms + SLOW_FANOUT_MS, (normal.cpu_ms, fanout.cpu_ms)
