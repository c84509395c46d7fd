"""How big one replica is, derived from measurements; docker-compose.yml and k8s/ use these numbers.

Measured on the development machine (2 cores, PyTorch 2.13 CPU, hosted mode), see
``benchmarks/CAPACITY.md`` (``make bench-capacity``) and docs/performance.md:

* ``IDLE_MB``: RSS of a replica after start-up, PyTorch and the pages imported, no session yet.
* ``SESSION_MB``: RSS one open session adds at the default sizes (6×3 matrix), the largest of
  the measured runs (30 sessions without a browser: 1.2 MB each; 12 browser sessions: 2.9 MB;
  4 browser sessions: 7.1 MB; docs/performance.md's latency run: 7 MB).
* ``SESSION_MB_GPT2``: the same for a session holding a GPT-2-size input (1024×768 on 3.6.2,
  docs/performance.md's latency table; the larger of the two runs).
* ``RENDER_PEAK_MB``: how far RSS rises above the idle replica while its first GPT-2-size page
  runs (VmHWM − idle RSS: +166 and +150 MB in two runs; the allocator keeps most of it).
* ``SESSIONS_PER_REPLICA``: what one replica (one core for Python) is sized for: 30 learners
  editing at the same instant wait about 2 s on one replica (CAPACITY.md).

The request covers a typical class (every session small, one heavy page at a time); the limit
covers the worst case the hosted caps allow in practice (every session at GPT-2 size, two heavy
pages at once). Both are rounded up to 64 MiB.
"""

from __future__ import annotations

import math

IDLE_MB = 312  # 304 and 312 MB in the two capacity runs
SESSION_MB = 7.0
SESSION_MB_GPT2 = 20.2  # the larger of two runs: 17.4 MB (capacity run) and 20.2 MB (latency run, 5 sessions)
RENDER_PEAK_MB = 170
SESSIONS_PER_REPLICA = 30
CPU_REQUEST = "1"  # one core: the GIL keeps a replica's Python on one core
CPU_LIMIT = "2"  # PyTorch's kernels may briefly use a second core on GPT-2-size inputs


def _round_up(mb: float, step: int = 64) -> int:
    return int(math.ceil(mb / step) * step)


def memory_request_mib() -> int:
    return _round_up(IDLE_MB + SESSIONS_PER_REPLICA * SESSION_MB + RENDER_PEAK_MB)


def memory_limit_mib() -> int:
    return _round_up(IDLE_MB + SESSIONS_PER_REPLICA * SESSION_MB_GPT2 + 2 * RENDER_PEAK_MB)
