"""Entry files for Streamlit's legacy scan of ``pages/``: a deep link works on a fresh server.

Streamlit 1.67 treats a ``pages/`` folder next to the main script as a legacy multipage app
until ``st.navigation`` has run once in the server process. On that first run it looks for a
file ``pages/<url path>.py``; when there is none (our page scripts are ``pages/p351_...py``)
it sends the browser a "Page not found" dialog and runs app.py anyway. So the very first
visitor after every start of a server (a restart on Community Cloud, every new replica) who
opened a deep link such as ``/causal-mask?s=...`` saw that dialog over the right page.

Every page except the default one therefore has an entry file named after its URL path,
``pages/<page_id>.py``, holding ``ENTRY_SOURCE``: it runs app.py, whose ``st.navigation``
resolves the same URL path to the real page script, inside app.py's frame. The legacy scan
finds the entry file, so no dialog is sent; after that first run Streamlit uses
``st.navigation`` only and never runs an entry file again. No private Streamlit attribute is
involved. ``python -m ui.entry`` writes missing entry files (``tests/test_entry.py`` checks them).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"

ENTRY_SOURCE = '''"""This URL path on a server's very first run (Streamlit's legacy pages/ scan): see ui/entry.py."""

from ui.entry import run_app

run_app()
'''

__all__ = ["APP", "ENTRY_SOURCE", "entry_files", "run_app", "write_entries"]


def run_app() -> None:
    """Run app.py in the current script run (the frame resolves the URL to the real page)."""
    from .frame import run_script  # frame runs this module's run_app: imported here, not at the top

    run_script(str(APP))


def entry_files() -> dict[str, Path]:
    """page_id -> the entry file it needs (every page but the default one, which is the root URL)."""
    from .pages import PAGES

    return {p.page_id: ROOT / "pages" / f"{p.page_id}.py" for p in PAGES[1:]}


def write_entries() -> list[Path]:
    """Write the missing or outdated entry files; return the ones written."""
    written = []
    for path in entry_files().values():
        if not path.is_file() or path.read_text() != ENTRY_SOURCE:
            path.write_text(ENTRY_SOURCE)
            written.append(path)
    return written


if __name__ == "__main__":
    write_entries()
