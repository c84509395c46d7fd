"""Start the app: ``python -m ui.serve app.py [streamlit options]`` (what ``make run`` does).

Streamlit 1.67 treats a ``pages/`` folder next to the main script as a legacy multipage
app until ``st.navigation`` has run once in the process. Until then, the very first
visitor who opens a deep link (``/all-queries``) gets a "Page not found" dialog over the
right page, and that first run's widgets are keyed to the wrong page. This launcher
switches the legacy mode off before the server starts, so every visit behaves the same,
and imports PyTorch while the server boots rather than on the first page view.
Plain ``streamlit run app.py`` works too; only that first deep link differs.
"""

from __future__ import annotations

import sys
import threading

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli


def _preload() -> None:
    """Import the heavy modules while the server boots, instead of on the first page view."""
    import torch  # noqa: F401

    import attention  # noqa: F401
    import ui.draw  # noqa: F401
    import ui.page  # noqa: F401


def main() -> None:
    PagesManager.uses_pages_directory = False
    threading.Thread(target=_preload, name="preload", daemon=True).start()
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
