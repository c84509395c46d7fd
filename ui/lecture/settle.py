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
from dataclasses import dataclass

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ..state import Key

__all__ = ["SETTLE_SECONDS", "drew", "timed"]

SETTLE_SECONDS = 0.5  # a fragment started this soon after a full run ended may have cut that run's clean-up


@dataclass
class _Drawn:
    shown: Hashable = None  # what the last full run showed (its step, spotlight and question)
    ended: float = 0.0  # when it ended (time.monotonic)
    settled: bool = True  # nothing of an older page can be left on screen (or a rerun was asked for already)


def drew(shown: Hashable) -> None:
    """A full run of a lecturer's window has drawn ``shown``: what decides which elements are on its page."""
    drawn = st.session_state.setdefault(Key.SETTLE, _Drawn())
    # a holder's fields set in plain Python: nothing stops the run between them (ui/lecture/state.py says why)
    drawn.settled, drawn.shown, drawn.ended = drawn.shown == shown, shown, time.monotonic()


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
    drawn = st.session_state.get(Key.SETTLE)
    if ctx is None or not ctx.fragment_ids_this_run or drawn is None or drawn.settled:
        return False
    drawn.settled = True
    return time.monotonic() - drawn.ended < SETTLE_SECONDS
