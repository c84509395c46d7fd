"""Start the app: ``python -m ui.shell.serve app.py [streamlit options]`` (what ``make run`` does).

The same as ``streamlit run app.py``, except that PyTorch and the page modules are imported, and the pages'
formulas drawn for a phone, while the server boots rather than on the first page view. (A deep link as the first visit
after a start works either way: see ui/script.py.)
"""

from __future__ import annotations

import sys
import threading

from streamlit.web import cli


def _preload() -> None:
    """Import the heavy modules while the server boots, instead of on the first page view; and draw the pages'
    formulas as a phone is shown them (ui/draw/formula.py), instead of on a phone's first view of each page."""
    import torch  # noqa: F401

    import attention  # noqa: F401
    import ui.draw  # noqa: F401
    import ui.page  # noqa: F401
    from ui.chapter import PAGES
    from ui.draw.formula import predraw
    from ui.words.content import page_text

    predraw(text.formula for text in (page_text(info.page_id, "en") for info in PAGES) if text.formula)


def main() -> None:
    threading.Thread(target=_preload, name="preload", daemon=True).start()
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
