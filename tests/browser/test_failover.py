"""A replica dies behind HAProxy and its learners come back on the other one, each with exactly its own state.

The small version of ``make bench-failover``: 2 replicas, 6 sessions (benchmarks/bench_failover.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks.bench_failover import report, run
from benchmarks.cluster import balancer_path


def test_killing_a_replica_loses_no_learner_state():
    if balancer_path() is None:
        pytest.skip("HAProxy is not installed and could not be installed (make test runs `make balancer-deps`)")
    sessions = 6
    # Playwright's sync fixtures own this thread's event loop; the async scenario gets its own thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        outcome = pool.submit(asyncio.run, run(replicas=2, sessions=sessions)).result(timeout=300)
    lines = report(outcome)
    print("\n".join(lines))
    moved = [learner for learner in outcome.learners if learner.replica_before == outcome.victim]
    assert 1 <= len(moved) < sessions, "the killed replica served some, not all, of the sessions"
    assert all(learner.recovery is not None for learner in moved), "every moved session ran again"
    assert outcome.after[outcome.victim] == 0, "nobody is still pinned to the dead replica"
    assert sum(outcome.after.values()) == sessions
    assert [learner.problems for learner in outcome.learners] == [[]] * sessions
    assert lines[-1] == f"failover: {sessions} sessions, {sessions} restored, 0 lost"
