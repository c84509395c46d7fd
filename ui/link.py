"""Streamlit side of shareable links (the codec itself is ui.share)."""

from __future__ import annotations

import streamlit as st

from .pages import PAGES
from .settings import limits
from .share import PARAM, LinkError, decode_state, encode_state
from .state import CONTROLS, flash, get_matrix, set_matrix

__all__ = ["load_link_once", "write_link", "share_note"]


def load_link_once() -> None:
    """On a session's first run, adopt the state carried by ``?s=``; refuse bad links politely."""
    if st.session_state.get("_link_loaded"):
        return
    st.session_state["_link_loaded"] = True
    raw = st.query_params.get(PARAM)
    if not raw:
        return
    lim = limits()
    try:
        state = decode_state(
            raw, pages={p.page_id for p in PAGES}, max_tokens=lim.max_tokens, max_dim=lim.max_dim,
            max_chars=lim.max_url_chars,
        )
    except LinkError as exc:
        flash("warning", f"This link could not be opened ({exc}) The chapter's defaults are shown instead.",
              where="page")
        return
    if state.matrix is not None:
        set_matrix(state.matrix)
    st.session_state[CONTROLS] = state.controls
    flash("success", "Opened a shared link: inputs and controls are as they were shared.", where="page")


def write_link() -> None:
    """Keep ``?s=`` in the address bar equal to the current state."""
    value, note = encode_state(get_matrix(), st.session_state.get(CONTROLS, {}))
    st.session_state["_share_note"] = note
    if len(value) > limits().max_url_chars:
        st.session_state["_share_note"] = "The state is too large for a link; download the matrix as CSV."
        if PARAM in st.query_params:
            del st.query_params[PARAM]
        return
    if st.query_params.get(PARAM) != value:
        st.query_params[PARAM] = value


def share_note() -> str:
    return st.session_state.get("_share_note", "")
