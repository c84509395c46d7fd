"""Streamlit side of shareable links (the codec itself is ui.sharing.codec)."""

from __future__ import annotations

import time

import streamlit as st

from .. import state
from ..chapter import PAGES
from ..inputs import state as matrix_state
from ..settings import limits
from ..steps import state as step_state
from ..words.content import app_text
from ..words.i18n import LANGUAGES, explain, negotiate
from . import state as link_state
from .codec import PARAM, LinkError, decode_state, encode_state

__all__ = ["LANG_PARAM", "LECTURE_PARAM", "OPENED_HOLD_S", "STEP_PARAM", "choose_language_once", "lecture_requested",
           "link_opened", "load_link_once", "write_link"]

LECTURE_PARAM, STEP_PARAM = "lecture", "step"  # ?lecture=1 and the step on screen, beside ?s=
OPENED_HOLD_S = 30.0  # how long every run says that a shared link was opened
LANG_PARAM = "lang"  # ?lang=en|id|vi|ko


def choose_language_once() -> None:
    """On a session's first run: ``?lang=`` if it names a language, else the browser's locale.

    After that the session's language is the sidebar selector's (ui/inputs/sidebar.py), and
    :func:`write_link` keeps ``?lang=`` equal to it, so a shared link opens in its language.
    """
    if state.language_chosen():
        return
    asked = st.query_params.get(LANG_PARAM, "")
    lang = asked if asked in LANGUAGES else negotiate(st.context.locale)
    state.set_language(lang or state.language())
    if asked and asked not in LANGUAGES:
        state.flash("warning", app_text("unknown_language", asked=asked[:20], known=", ".join(LANGUAGES)),
                    where="page")


def lecture_requested() -> bool:
    """Whether the address asks for lecture mode (``?lecture=1``)."""
    return st.query_params.get(LECTURE_PARAM, "") in {"1", "true", "yes", "on"}


def load_link_once() -> None:
    """On a session's first run, adopt the state carried by ``?s=``; refuse bad links politely."""
    if not link_state.first_run_of_session():
        return
    state.set_lecture_mode(lecture_requested())
    step = st.query_params.get(STEP_PARAM)
    page = state.current_page()
    if step and page is not None:  # the link was taken in step-through: it opens there, at that step
        step_state.set_step_mode(page, True)
        step_state.set_pending_step(step[:60])
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
        state.flash("warning", app_text("link_refused", error=explain(exc, state.language())), where="page")
        return
    if shared.matrix is not None:
        matrix_state.set_matrix(shared.matrix)
    state.replace_controls(shared.controls)
    link_state.set_opened_at(time.monotonic())  # "the link was opened"; not after a reload (ui/shell/page.js)


def link_opened() -> bool:
    """Whether the page says that a shared link was opened. Every run says it for the first OPENED_HOLD_S seconds,
    then the next run does not: a run replaced at once by another (the browser's saved progress arriving,
    ui/check/progress.py, seconds later on a slow phone) took a one-shot message away before it was seen, and the
    learner's first change after reading it takes it away, like any message about what just happened."""
    opened = link_state.opened_at()
    if opened is None:
        return False
    if time.monotonic() - opened > OPENED_HOLD_S:
        link_state.set_opened_at(None)
        return False
    return True


def write_link() -> None:
    """Keep the address bar equal to the current state: ``?s=``, ``lang``, ``lecture`` and ``step``."""
    _write_view()
    matrix = matrix_state.get_matrix()
    encoded, note = encode_state(matrix, state.controls())
    link_state.set_share_note(app_text("matrix_left_out", n=matrix.num_tokens, d=matrix.dim) if note else "")
    fits = len(encoded) <= limits().max_url_chars
    if not fits:
        link_state.set_share_note(app_text("link_too_large"))
    _set_param(PARAM, encoded if fits else None)


def _set_param(name: str, value: str | None) -> None:
    if value is None:
        if name in st.query_params:
            del st.query_params[name]
    elif st.query_params.get(name) != value:
        st.query_params[name] = value


def _write_view() -> None:
    """Language, lecture mode and the step on screen, so that a lecturer can bookmark a prepared view."""
    _set_param(LANG_PARAM, state.language())
    _set_param(LECTURE_PARAM, "1" if state.lecture_mode() else None)
    page = state.current_page()
    on_step = page is not None and step_state.step_mode(page) and step_state.current_step(page)
    _set_param(STEP_PARAM, step_state.current_step(page) if on_step else None)
