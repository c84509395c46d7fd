"""Start the app: ``python -m ui.shell.serve app.py [streamlit options]`` (what ``make run`` does).

The same as ``streamlit run app.py``, except that PyTorch and the page modules are imported
while the server boots rather than on the first page view. (A deep link as the first visit
after a start works either way: see ui/script.py.)
"""

from __future__ import annotations

import sys
import threading

from streamlit.web import cli


def _preload() -> None:
    """Import the heavy modules while the server boots, instead of on the first page view."""
    import torch  # noqa: F401

    import attention  # noqa: F401
    import ui.draw  # noqa: F401
    import ui.page  # noqa: F401


def main() -> None:
    threading.Thread(target=_preload, name="preload", daemon=True).start()
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
