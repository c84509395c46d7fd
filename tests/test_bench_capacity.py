"""The capacity report refuses a rate it did not earn (a session stops at its first failed edit)."""

from __future__ import annotations

import math

from benchmarks.bench_capacity import Measurement, row

CPU = {"replicas": 4.0, "haproxy": 0.1, "load generator": 1.0}


def test_a_run_with_a_failed_edit_earns_no_rate_and_does_not_move_the_median():
    clean = Measurement(1, edits=100, wall=5.0, cpu=CPU, sessions_per_replica=[30], latencies=[0.5])
    failed = Measurement(1, edits=90, failed=1, wall=2.0, cpu=CPU, sessions_per_replica=[30], latencies=[0.5])
    assert clean.rate == 20.0 and math.isnan(failed.rate)  # 45 edits/s would have been claimed
    cells = [c.strip() for c in row(1, [clean, failed], 20.0).split("|")]
    assert cells[3] == "20.0, nan" and cells[4] == "**20.0**" and cells[-2] == "1"  # failed edits counted
    only_failed = [c.strip() for c in row(1, [failed], 20.0).split("|")]
    assert only_failed[4] == "**nan**"
