"""Streamlit side of shareable links (the codec itself is ui.share)."""

from __future__ import annotations

import streamlit as st

from . import state
from .pages import PAGES
from .settings import limits
from .share import PARAM, LinkError, decode_state, encode_state

__all__ = ["LECTURE_PARAM", "STEP_PARAM", "lecture_requested", "load_link_once", "write_link"]

LECTURE_PARAM, STEP_PARAM = "lecture", "step"  # ?lecture=1 and the step on screen, beside ?s=


def lecture_requested() -> bool:
    """Whether the address asks for lecture mode (``?lecture=1``)."""
    return st.query_params.get(LECTURE_PARAM, "") in {"1", "true", "yes", "on"}


def load_link_once() -> None:
    """On a session's first run, adopt the state carried by ``?s=``; refuse bad links politely."""
    if not state.first_run_of_session():
        return
    state.set_lecture_mode(lecture_requested())
    step = st.query_params.get(STEP_PARAM)
    if step:
        state.set_pending_step(step[:60])
    raw = st.query_params.get(PARAM)
    if not raw:
        return
    lim = limits()
    try:
        shared = decode_state(
            raw, pages={p.page_id for p in PAGES}, max_tokens=lim.max_tokens, max_dim=lim.max_dim,
            max_chars=lim.max_url_chars,
        )
    except LinkError as exc:
        state.flash("warning", f"This link could not be opened ({exc}) The chapter's defaults are shown instead.",
                    where="page")
        return
    if shared.matrix is not None:
        state.set_matrix(shared.matrix)
    state.replace_controls(shared.controls)
    state.flash("success", "Opened a shared link: inputs and controls are as they were shared.", where="page")


def write_link() -> None:
    """Keep the address bar equal to the current state: ``?s=``, ``lecture`` and ``step``."""
    _write_view()
    encoded, note = encode_state(state.get_matrix(), state.controls())
    state.set_share_note(note)
    if len(encoded) > limits().max_url_chars:
        state.set_share_note("The state is too large for a link; download the matrix as CSV.")
        if PARAM in st.query_params:
            del st.query_params[PARAM]
        return
    if st.query_params.get(PARAM) != encoded:
        st.query_params[PARAM] = encoded


def _set_param(name: str, value: str | None) -> None:
    if value is None:
        if name in st.query_params:
            del st.query_params[name]
    elif st.query_params.get(name) != value:
        st.query_params[name] = value


def _write_view() -> None:
    """Lecture mode and the step on screen, so that a lecturer can bookmark a prepared view."""
    _set_param(LECTURE_PARAM, "1" if state.lecture_mode() else None)
    page = state.current_page()
    on_step = page is not None and state.step_mode(page) and state.current_step(page)
    _set_param(STEP_PARAM, state.current_step(page) if on_step else None)
