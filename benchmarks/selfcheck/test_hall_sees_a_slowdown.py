"""The hall benchmark sees a slowed fan-out: every stream doing SLOW_MS of Python work per event
(ATTENTION_SLOW_FANOUT_MS, ui/shell/push.py) shows up in its p95 and in its CPU per follower per move.

A small hall (50 readers, 5 moves) is measured with the benchmark's own function (benchmarks/bench_hall.py measure),
as the app is and with the slowdown. The work holds the event loop, so the streams of one move are served one after
another: the last of 50 readers waits about 50 x SLOW_MS more, and the 95th percentile about 47 x SLOW_MS; the bench
must see at least a third of that. The work is CPU, so the CPU per follower per move must grow by at least half of
SLOW_MS. Nobody may miss a move either way.
"""

from __future__ import annotations

import pytest

from benchmarks.bench_hall import app_env, measure
from tests.browser.harness import ROOT

FOLLOWERS, MOVES, SLOW_MS = 50, 5, 5


@pytest.fixture(scope="module")
def halls():
    (ROOT / "artifacts").mkdir(exist_ok=True)
    return {name: measure(ROOT / "app.py", FOLLOWERS, MOVES, 2.0, app_env(slow))
            for name, slow in (("normal", 0), ("slowed", SLOW_MS))}


def test_every_reader_read_every_move(halls):
    assert all(hall.missed == 0 for hall in halls.values()), halls


def test_a_slowed_fanout_shows_in_the_p95(halls):
    added = halls["slowed"].p95_s - halls["normal"].p95_s
    assert added >= FOLLOWERS * 0.95 * SLOW_MS / 1000 / 3, halls


def test_a_slowed_fanout_shows_in_the_cpu_per_follower(halls):
    assert halls["slowed"].cpu_ms - halls["normal"].cpu_ms >= SLOW_MS / 2, halls
