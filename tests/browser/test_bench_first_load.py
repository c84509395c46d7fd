"""The first-load benchmark sees what a phone receives: with compression switched off in the balancer, it measures
the bytes grow (benchmarks/bench_first_load.py; its timed rows are the benchmark's, not a test's)."""

from __future__ import annotations

import pytest

from benchmarks.bench_first_load import VISITS, visit
from benchmarks.cluster import Cluster, balancer_path


@pytest.mark.skipif(balancer_path() is None, reason="HAProxy is not installed (make test installs it)")
def test_the_first_load_benchmark_catches_compression_switched_off(browser):
    _, path, chart = VISITS[1]  # the deep link to 3.5.1
    sent = {}
    for compress in (True, False):
        cluster = Cluster(1, compress=compress)
        try:
            cluster.start()
            visit(browser, cluster.url + path, chart, throttle=False)  # the server's first run of the page
            sent[compress] = visit(browser, cluster.url + path, chart, throttle=False)
        finally:
            cluster.stop()
    on, off = sent[True], sent[False]
    assert on.bytes_http < 0.6 * off.bytes_http, (on.bytes_http, off.bytes_http)
    assert on.total < 3_000_000 < off.total  # about 2.3 MB against 5.5 MB
