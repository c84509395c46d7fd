"""Step-through in the session: whether a page steps through, the step on screen, a link's pending step.

Only this module touches these keys (ui/keys.py lists them).
"""

from __future__ import annotations

import secrets

import streamlit as st

from ..state import Key, lecture_mode

__all__ = ["clicker_token", "clicker_value",
           "current_step", "set_current_step", "set_pending_step", "set_step_mode", "step_mode", "take_pending_step"]


def step_mode(page_id: str, walk: bool = False) -> bool:
    """Whether the page steps through its computation (the default in lecture mode; always in a walkthrough)."""
    return walk or bool(st.session_state.get(Key.STEP_MODE, {}).get(page_id, lecture_mode()))


def set_step_mode(page_id: str, on: bool) -> None:
    st.session_state.setdefault(Key.STEP_MODE, {})[page_id] = bool(on)


def current_step(page_id: str) -> str | None:
    return st.session_state.get(Key.STEP, {}).get(page_id)


def set_current_step(page_id: str, name: str) -> None:
    st.session_state.setdefault(Key.STEP, {})[page_id] = name


def set_pending_step(name: str) -> None:
    st.session_state[Key.PENDING_STEP] = name


def take_pending_step(page_id: str) -> None:
    """A shared link's step becomes the step of the first page that steps through."""
    name = st.session_state.pop(Key.PENDING_STEP, None)
    if name is not None and current_step(page_id) is None:
        set_current_step(page_id, name)


def clicker_token() -> str:
    """This session's token: the walkthrough clicker's presses are counted in the browser for it
    (ui/steps/clicker.py)."""
    return st.session_state.setdefault(Key.CLICKER_TOKEN, secrets.token_urlsafe(9))


def clicker_value() -> object:
    """The walkthrough clicker's state as the browser last sent it (unchecked)."""
    return st.session_state.get(Key.CLICKER_KEYS)
