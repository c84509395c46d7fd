"""30 learners at once, each editing its own matrix: nobody ever sees another's data."""

from __future__ import annotations

import asyncio

from benchmarks.bench_concurrency import report, run


def test_thirty_concurrent_sessions_stay_isolated():
    sessions = 30
    result = asyncio.run(run(sessions=sessions, rounds=1))
    print(report(result, sessions, 1))
    assert result.violations == []
    assert result.completed == sessions
    assert len(result.latencies) == sessions
