"""A lecturer's window's timed fragments, and the clean-up of a full run that one of them can cost.

When a full run ends, Streamlit's browser side removes what that run no longer drew (the elements left over from
the run before). It does so only if no newer run has started by the time it applies the change; a timed fragment
that starts just as a full run ends (its request came in while the full run was running) is such a newer run, and
a fragment's own clean-up removes only what is inside it. What the old page drew below the new one then stays on
screen until the next full run: a student's chart under the lecture's own after Back to the lecture, or an
answer box after a step moved on.

So a full run that changed what the window shows (another step, spotlight or question: :func:`drew`) notes when it
ended, and every timed fragment of a lecturer's window (:func:`timed`) that starts within
:data:`SETTLE_SECONDS` of it reruns the app, once: that run ends with no fragment on its heels, and its clean-up
takes the old page's elements away.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from . import state as walk_state

__all__ = ["SETTLE_SECONDS", "drew", "timed"]

SETTLE_SECONDS = 0.5  # a fragment started this soon after a full run ended may have cut that run's clean-up


def drew(shown: Hashable) -> None:
    """A full run of a lecturer's window has drawn ``shown``: what decides which elements are on its page."""
    drawn = walk_state.drawn()  # its fields set in plain Python: nothing stops the run between them
    # a window's first full run follows no page of its own: nothing of it can be left on screen
    drawn.settled, drawn.shown, drawn.ended = drawn.shown in (None, shown), shown, time.monotonic()


def timed(seconds: float) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``st.fragment(run_every=seconds)`` for a lecturer's window: a fragment run that may have cut the last full
    run's clean-up asks for one more full run first."""
    def wrap(func: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(func)
        def run(*args, **kwargs) -> None:
            if _unsettled():
                st.rerun(scope="app")
            func(*args, **kwargs)
        return st.fragment(run_every=seconds)(run)
    return wrap


def _unsettled() -> bool:
    """This is a fragment's own run, started just after a full run that changed the page: True once."""
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return False
    drawn = walk_state.drawn()
    if drawn.settled:
        return False
    drawn.settled = True
    return time.monotonic() - drawn.ended < SETTLE_SECONDS
