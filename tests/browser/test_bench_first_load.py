"""The first-load benchmark sees what a phone receives (benchmarks/bench_first_load.py; its timed rows are the
benchmark's, not a test's): with compression switched off in the balancer, it measures the bytes grow. And the
balancer sends Streamlit's bundles as they were gzipped beforehand (deploy/precompress.py, deploy/static_gz.lua)."""

from __future__ import annotations

import gzip
import re
import urllib.request

import pytest

from benchmarks.bench_first_load import VISITS, visit
from benchmarks.cluster import Cluster, balancer_path
from deploy.precompress import static_root


def _get(url: str, gzip_ok: bool):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers, response.read()


@pytest.mark.skipif(balancer_path() is None, reason="HAProxy is not installed (make test installs it)")
def test_the_first_load_benchmark_catches_compression_switched_off(browser):
    _, path, chart = VISITS[1]  # the deep link to 3.5.1
    sent = {}
    for compress in (True, False):
        cluster = Cluster(1, compress=compress)
        try:
            cluster.start()
            # One cold visit each: the bytes a phone receives do not depend on the server having run the page before
            # (the benchmark's own warm-up visit is for its timings)
            sent[compress] = visit(browser, cluster.url + path, chart, throttle=False)
            if compress:  # a bundle: from the balancer, gzipped at level 9; without gzip, from Streamlit as it is
                _, page = _get(cluster.url + "/", gzip_ok=False)
                bundle = re.search(rb'src="\.?/?(static/js/[^"]+\.js)"', page).group(1).decode()
                original = (static_root() / bundle.removeprefix("static/")).read_bytes()
                headers, body = _get(f"{cluster.url}/{bundle}", gzip_ok=True)
                assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == original
                assert len(body) <= len(gzip.compress(original, 9)) + 64  # level 9, not the balancer's libslz
                headers, body = _get(f"{cluster.url}/{bundle}", gzip_ok=False)
                assert headers.get("Content-Encoding") is None and body == original
        finally:
            cluster.stop()
    on, off = sent[True], sent[False]
    assert on.bytes_http < 0.5 * off.bytes_http, (on.bytes_http, off.bytes_http)
    assert on.total < 2_200_000 < 3_000_000 < off.total  # about 1.6 MB against 4 MB (2026-11-29)
