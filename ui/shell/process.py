"""What the app sets up once per server process, before its first script run.

Two settings, both about sharing a few cores between many short script runs:

* **One PyTorch thread per script run.** Streamlit runs every rerun in a new thread. With
  PyTorch's default intra-op pool (one OpenMP thread per core), the first operation in each new
  thread starts a team of OpenMP workers, and after every parallel region those workers
  spin-wait for more work, keeping another core busy. The app's tensors are tiny (6×3 by
  default; at most 1024×768), so the pool buys nothing, while the spinning core is the one the
  learner's browser needs to draw the page (on a laptop, `streamlit run` and the browser share
  the cores) or the one another session's run needs (on a hosted replica). Measured in
  `make bench-latency` on 2 cores: one thread made 3.5.1's page control 236 → 135 ms and its
  cell edit 442 → 317 ms, and even the GPT-2-size toggle faster (1.13 → 0.91 s). A server can set
  ``ATTENTION_TORCH_THREADS`` to use more.
* **A frozen import heap** (:mod:`ui.shell.heap`): Streamlit's after-run garbage collection then
  skips the libraries' objects.

And one benchmark's lever: ``ATTENTION_BENCH_SLOW_RUN_MS`` adds that much CPU to every full run
(:func:`slowed_run`), so that ``make bench-room`` can prove it sees a slower page run.

And one check: a malformed ``ATTENTION_ROOMS`` (:func:`ui.settings.rooms_url`) stops the app at its first run,
saying what it accepts, rather than when a lecture begins.
"""

from __future__ import annotations

import os
import threading
import time

from ui.settings import rooms_url
from ui.shell.heap import freeze_import_heap

_lock = threading.Lock()
_prepared = False
THREADS_VAR = "ATTENTION_TORCH_THREADS"
SLOW_RUN_VAR = "ATTENTION_BENCH_SLOW_RUN_MS"  # benchmarks only: CPU added to every full run


def torch_threads() -> int:
    """PyTorch's intra-op threads for this process: 1, unless ATTENTION_TORCH_THREADS says more."""
    raw = os.environ.get(THREADS_VAR, "1").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else 1


def prepare_process() -> bool:
    """Set PyTorch's threads and freeze the import heap, once per process; True on the call that did. A malformed
    ATTENTION_ROOMS raises its ValueError here (every run, until it is fixed)."""
    global _prepared
    with _lock:
        if _prepared:
            return False
        rooms_url()
        import torch

        torch.set_num_threads(torch_threads())  # global: every later script-run thread gets it
        freeze_import_heap()
        _prepared = True
        return True


def slowed_run() -> None:
    """A benchmark's deliberately slower page run: ``ATTENTION_BENCH_SLOW_RUN_MS`` of Python work, holding the
    interpreter as a page's own drawing does (a sleep would let the other sessions' runs go on meanwhile)."""
    raw = os.environ.get(SLOW_RUN_VAR, "").strip()
    if not raw.isdigit() or int(raw) == 0:
        return
    deadline = time.thread_time() + int(raw) / 1000  # this thread's CPU: the same work however busy the machine is
    while time.thread_time() < deadline:
        pass
