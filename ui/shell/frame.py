"""Run a page inside app.py's frame (navigation, sidebar, links), as a fragment.

A page runs in an ``st.fragment``: a change to one of the page's own controls reruns the
page alone, not the frame around it (navigation, the sidebar and its matrix editor), so the
browser redraws only what can change. Whatever the frame shows (the matrix, language, lecture
mode, the ✓ of finished sections) is compared before and after the page ran; if the page
changed any of it (e.g. a button that makes its embeddings the shared input), the whole app
reruns at once. The page ends by writing the address bar, which a fragment run must keep
current too. A page run outside the frame (Streamlit's legacy first run) is ui/script.py's.

A lecturer's window runs its page in the frame's own run instead (:func:`run_whole_page`): every command there
(Next, PageDown, Reveal, Close, Ask) is then a full run of the app. Streamlit can drop a click on a button inside
a fragment when a timed fragment's rerun of the app has just re-registered that fragment; a click that reruns
the app is merged into any run pending, never dropped (tests/browser/test_commands.py clicks 90 times).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable

import streamlit as st

from ..script import PageEnded, frame_active, run_script

__all__ = ["run_page", "run_whole_page"]


@st.fragment
def run_page(file: str, frame: Hashable, frame_now: Callable[[], Hashable], on_failure: Callable[[], None],
             after: Callable[[], None]) -> None:
    """Run the page script ``file`` as a fragment; ``frame`` is what the frame showed when it was drawn."""
    run_whole_page(file, frame, frame_now, on_failure, after)


def run_whole_page(file: str, frame: Hashable, frame_now: Callable[[], Hashable], on_failure: Callable[[], None],
                   after: Callable[[], None]) -> None:
    """Run the page script ``file`` in the current run (a full run of the app, or run_page's fragment)."""
    try:
        with frame_active(after, on_failure):
            run_script(file)
    except PageEnded:
        pass
    except Exception:  # the last line of defence: a learner never sees a traceback
        logging.getLogger("attention_app").exception("page failed")
        on_failure()
    finally:  # however the page ended: the address bar always holds the current view
        after()
    if frame_now() != frame:
        st.rerun(scope="app")
