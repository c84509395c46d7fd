"""The room benchmark sees what a student sees: a deliberately slowed store shows up in its follow times,
and in the time a class poll's answers take to reach the console; a deliberately slowed page run shows up in the
servers' CPU per follower update and in the follow times.

A small class (8 protocol students and one Chromium student, 2 replicas, a real redis-server behind
HAProxy) follows 4 of the lecturer's moves; then 9 protocol students do the same with every Redis reply held
back 150 ms by a TCP proxy (benchmarks/bench_room.py SlowProxy); then the first class again, Chromium student
included, with every full run of the app doing 30 ms more work (the servers' CPU per follower update must grow by
at least 15 ms, and the median follow by at least 30 ms: a student's own run is on its path, and the others' runs
queue before it). The slowed-run class is the first one in every other respect, so a browser drawing beside it, or
fewer moves, cannot hide the slowdown. A student's move costs
several round trips to the store (the poll's version, the deck, the page run's own look at the room), so the
slowed median must be at least 0.2 s later. Nobody may miss a move or leave the lecture by themselves.
Then 8 protocol students answer a poll at once: every answer must reach the console's count, at least 0.1 s later
with the slowed store (each answer and each count is a round trip to it), and one click closes the poll.
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


async def _both():
    from playwright.async_api import async_playwright

    from benchmarks.bench_room import in_cluster

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            # No lecturer-alone walk: nothing here compares the lecturer's own times (make bench-room does).
            normal = await in_cluster(2, "redis", 9, 1, 4, browser, idle_seconds=1.0, poll_answers=8, poll_repeats=1,
                                      alone=False)
            slowed = await in_cluster(2, "redis", 9, 0, 4, browser, slow_ms=150, idle_seconds=1.0, poll_answers=8,
                                      poll_repeats=1, alone=False)  # protocol students only: the store is the point
            slow_page = await in_cluster(2, "redis", 9, 1, 4, browser, idle_seconds=1.0, alone=False, slow_run_ms=30)
        finally:
            await browser.close()
    return normal, slowed, slow_page


def test_a_slowed_store_and_a_slowed_page_run_show_in_the_follow_times():
    with ThreadPoolExecutor(1) as pool:  # the browser tests' own Playwright holds this thread's event loop
        normal, slowed, slow_page = pool.submit(asyncio.run, _both()).result()
    for run in (normal, slowed):
        assert run.missed == 0 and run.exploring == 0, (run.setup, run.missed, run.exploring)
        assert len(run.follow) == 9 * 4 and len(run.lecturer_with_class) == 4
        assert run.lecturer_lost == 0, run.setup  # the projection showed each of the lecturer's steps
        assert 0 < run.update_ms < 1000, run.update_ms  # the servers' CPU per follower update was measured
    assert len(normal.browser_follow) == 4  # the Chromium student's four moves
    assert statistics.median(slowed.follow) >= statistics.median(normal.follow) + 0.2, (normal.follow, slowed.follow)
    # Every full run 30 ms slower (Python work holding the interpreter, as a page's drawing does): the CPU the
    # servers spend per follower update grows by about that, and the same class follows later.
    assert slow_page.missed == 0 and len(slow_page.follow) == 9 * 4, (slow_page.missed, slow_page.follow)
    assert slow_page.update_ms >= normal.update_ms + 15, (normal.update_ms, slow_page.update_ms)
    assert statistics.median(slow_page.follow) >= statistics.median(normal.follow) + 0.03, (normal.follow,
                                                                                             slow_page.follow)
    assert normal.poll_closed == [True] and slowed.poll_closed == [True], "a Close did not take on its one click"
    (poll,), (slowed_poll,) = normal.poll_seconds, slowed.poll_seconds  # nan if the console never counted all 8
    assert 0 < poll < 5 and slowed_poll >= poll + 0.1, (poll, slowed_poll)  # one round trip to the store at least
