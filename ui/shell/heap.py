"""Keep Streamlit's after-every-run garbage collection cheap.

Streamlit runs a full ``gc.collect(2)`` after every script run (``runner.postScriptGC``), to
keep memory from building up between runs. With PyTorch, pandas and Streamlit imported the
heap holds more than 200,000 container objects, and a full collection walks all of them:
about 100 ms on the machines this app is measured on, on every click, while the GIL is held
and the "run finished" message waits. Those objects are the imported libraries; they live
as long as the process. ``gc.freeze()`` moves them to the collector's permanent generation
once, so every later collection only walks what the sessions created.

ui.shell.process.prepare_process (app.py) calls this at the top of the first run in the process.
The first session's own objects of that moment are frozen too; they are still freed by
reference counting when the session ends, and only a reference cycle among them would
outlive it: a bounded, one-off cost.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_frozen = False


def freeze_import_heap() -> bool:
    """Freeze the objects that exist now (once per process); True on the call that froze."""
    global _frozen
    with _lock:
        if _frozen:
            return False
        # Import what every page will need, so that it is frozen too.
        import pandas  # noqa: F401
        import torch  # noqa: F401

        import attention  # noqa: F401
        import ui.draw  # noqa: F401
        import ui.inputs.sidebar  # noqa: F401
        import ui.page  # noqa: F401

        gc.collect()
        gc.freeze()
        _frozen = True
        return True
