"""Streamlit side of shareable links (the codec itself is ui.share)."""

from __future__ import annotations

import streamlit as st

from . import state
from .pages import PAGES
from .settings import limits
from .share import PARAM, LinkError, decode_state, encode_state

__all__ = ["load_link_once", "write_link"]


def load_link_once() -> None:
    """On a session's first run, adopt the state carried by ``?s=``; refuse bad links politely."""
    if not state.first_run_of_session():
        return
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
    """Keep ``?s=`` in the address bar equal to the current state."""
    encoded, note = encode_state(state.get_matrix(), state.controls())
    state.set_share_note(note)
    if len(encoded) > limits().max_url_chars:
        state.set_share_note("The state is too large for a link; download the matrix as CSV.")
        if PARAM in st.query_params:
            del st.query_params[PARAM]
        return
    if st.query_params.get(PARAM) != encoded:
        st.query_params[PARAM] = encoded
