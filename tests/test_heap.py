"""The import heap is frozen once per process, so Streamlit's after-run GC only walks session objects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import gc, json
import torch
before = len(gc.get_objects())
from ui.shell.heap import freeze_import_heap
first, second = freeze_import_heap(), freeze_import_heap()
print(json.dumps({"first": first, "second": second, "frozen": gc.get_freeze_count(),
                  "tracked_before": before, "tracked_after": len(gc.get_objects())}))
"""


def test_freezing_moves_the_imported_libraries_out_of_the_collectors_way():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert (r["first"], r["second"]) == (True, False)  # once per process
    assert r["frozen"] >= r["tracked_before"] > 50_000  # torch's objects, and more, are frozen
    assert r["tracked_after"] < r["tracked_before"] // 20  # a full collection now walks almost nothing


THREADS_PROBE = """
import json, threading
import torch
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=120)
at.run()
seen = []
t = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))  # a later script run's thread
t.start(); t.join()
print(json.dumps({"errors": len(at.exception), "threads": seen[0]}))
"""


def _threads_after_first_run(env_threads: str | None) -> dict:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("ATTENTION_TORCH_THREADS", "OMP_NUM_THREADS")}
    if env_threads is not None:
        env["ATTENTION_TORCH_THREADS"] = env_threads
    out = subprocess.run([sys.executable, "-c", THREADS_PROBE], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_first_run_gives_every_later_run_one_torch_thread():
    # ui/shell/process.py: PyTorch's OpenMP pool only spins a core the browser and other sessions need
    assert _threads_after_first_run(None) == {"errors": 0, "threads": 1}


def test_a_server_may_ask_for_more_torch_threads():
    assert _threads_after_first_run("2") == {"errors": 0, "threads": 2}
    assert _threads_after_first_run("lots") == {"errors": 0, "threads": 1}  # not a number: the default
