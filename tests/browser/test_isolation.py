"""8 learners at once, each editing its own matrix: nobody ever sees another's data. (make bench-concurrency
runs 30, twice; 8 keep make test short and still edit at the same moment on one server, more sessions than
the server has cores or script threads at rest.)"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from benchmarks.bench_concurrency import report, run


def test_eight_concurrent_sessions_stay_isolated():
    sessions = 8
    # Playwright's sync fixtures own this thread's event loop; the async scenario gets its own thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        result = pool.submit(asyncio.run, run(sessions=sessions, rounds=1)).result(timeout=900)
    print(report(result, sessions, 1))
    assert result.violations == [], "a session saw data that is not its own"
    assert result.failures == [], "a session could not finish"
    assert result.completed == sessions
    assert len(result.latencies) == sessions
