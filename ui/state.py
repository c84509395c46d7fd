"""Session state: the session's core, and the registry of every key the app keeps in ``st.session_state``
(ui/keys.py, re-exported here).

Streamlit forgets a widget's value when its page is not shown. The canonical values therefore
live under the app's own keys (the matrix, and each page's controls), and widgets are re-seeded
from them on every run, so nothing resets when the learner switches pages.

:class:`Key` (ui/keys.py) lists every key, so that no two features collide. Each feature keeps the functions
for its own keys next to it, in a module named ``state.py`` (``ui/inputs/state.py``: the matrix;
``ui/check/state.py``: the learner's answers; ``ui/page/state.py``: a page's controls; ``ui/steps/state.py``;
``ui/lecture/state.py``; ``ui/sharing/state.py``). Only those modules and this one read or write ``st.session_state``
(``tests/test_layout.py`` checks it); everything else calls their functions.

This module holds what every page shares: the language, lecture mode, the page on screen, every page's control
values (what a shared link carries; ui/page/state.py draws them, and keeps a walkthrough step's), messages queued by
callbacks, and the last result each page could compute.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from .keys import Key, fold_key
from .words.content import follow_language
from .words.i18n import DEFAULT_LANG, LANGUAGES

__all__ = [
    "Key", "fold_key", "value", "set_value", "mirrored", "holding", "within",
    "begin_run", "decimal_fields", "note_help", "language", "set_language", "speaking", "language_chosen",
    "lecture_mode", "set_lecture_mode",
    "flash", "take_flash",
    "current_page", "set_current_page",
    "controls", "replace_controls",
    "forget_good", "last_good", "remember_good",
]


def navigation_pages(key: tuple[str, ...], build: Callable[[], Any]) -> Any:
    """This session's ``st.Page`` objects, built again only when ``key`` (the language and the titles) changes (a
    ✓ once a page is checked, another language).
    Each one resolves its file's path when made: about 5% of a short run (a Streamlit follower's, when students
    followed that way), rebuilt every run (benchmarks/PROFILE-ROOM.md). They are kept per session: a page object
    carries its session's navigation flags."""
    held = st.session_state.get(Key.NAVIGATION)
    if held is None or held[0] != key:
        held = (key, build())
        st.session_state[Key.NAVIGATION] = held
    return held[1]


def value(key: str, default: Any = None) -> Any:
    """A widget's current value (sidebar widgets keyed with :class:`Key`)."""
    return st.session_state.get(key, default)


def set_value(key: str, new: Any) -> None:
    st.session_state[key] = new


def mirrored(widget: Callable[..., Any], label: str, key: str, current: Any, on_set: Callable[[Any], None],
             **kwargs: Any) -> Any:
    """A widget that shows a value kept elsewhere in the session and hands the learner's change back.

    The value's home is not the widget (the language, lecture mode, the matrix's width, a page's
    step mode): the widget shows it (:func:`holding`), and ``on_set(new)`` runs when it changes.
    """
    note_help(key, kwargs.get("help"))
    return widget(label, key=key, on_change=lambda: on_set(value(key)), **holding(widget, key, current, kwargs),
                  **kwargs)


def holding(widget: Callable[..., Any], key: str, current: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Make the widget keyed ``key`` show ``current``; returns the arguments to draw it with besides ``kwargs``.

    It is set where it does not hold ``current`` already (a value from a link, a walkthrough, another page, or a
    widget Streamlit forgot since it was not drawn in the last run): set on every run, Streamlit sent every widget to
    be redrawn whole in the browser on every edit (16 ms of 3.3.1's 106, benchmarks/bench_floor.py). And ``current``
    is declared as the widget's own default, so that a widget the browser mounts afresh shows it: with its first
    option, its minimum or off, it sent that back as a change, and a lecturer's page once published the first token
    as the query."""
    if value(key) != current:
        set_value(key, current)
    return _declared(widget, current, kwargs)


def _declared(widget: Callable[..., Any], current: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``current`` as the widget's default: an index among its options, or its value."""
    if widget in (st.selectbox, st.radio):
        options = list(kwargs["options"])
        return {"index": options.index(current)} if current in options else {}
    if isinstance(current, int | float) and not within(current, kwargs.get("min_value"), kwargs.get("max_value")):
        return {}  # Streamlit would raise at a default out of bounds (a preset wider than a lowered limit)
    return {"value": current}


def within(value: float, low: float | None, high: float | None) -> bool:
    """``low <= value <= high``, where a bound that is None is no bound."""
    return (low is None or value >= low) and (high is None or value <= high)


def note_help(key: str, text: str | None) -> None:
    """A widget's help, kept for the rest of the run: ui/announce writes it where a screen reader reads it, as
    the widget's description (its tooltip alone is only seen)."""
    if text:
        helps()[key] = text


def helps() -> dict[str, str]:
    """The help texts of the widgets this run drew, by widget key (a fragment's run adds its own)."""
    found = getattr(_run, "helps", None)
    if found is None:
        found = _run.helps = {}
    return found


def decimal_fields() -> set[str]:
    """The keys of the text fields this run drew that take a number (Check yourself's): a phone opens its number
    keyboard for them (``inputmode``, set by ui/shell/page.js from the marker ui/announce draws)."""
    found = getattr(_run, "decimal", None)
    if found is None:
        found = _run.decimal = set()
    return found


# ----- the language -------------------------------------------------------------------------


# What a run has read of its session's state and may read again, kept for the rest of the run: a run asks the
# language about 50 times (every ``app_text``), and each read of ``st.session_state`` takes Streamlit's lock.
# A run's thread is its session's (Streamlit gives every script run a thread of its session's runner), and
# :func:`begin_run` forgets it all when a full run starts; setting the value keeps this copy true.
_run = threading.local()


def begin_run() -> None:
    """A full run of the app starts (app.py): what the session's state holds is read again, once."""
    _run.__dict__.clear()
    _run.active = True


def language() -> str:
    """The session's language: what ``app_text`` and ``page_text`` speak when not told otherwise."""
    lang = getattr(_run, "lang", None)
    if lang is None:
        lang = st.session_state.get(Key.LANG, DEFAULT_LANG)
        lang = lang if lang in LANGUAGES else DEFAULT_LANG
        if getattr(_run, "active", False):
            _run.lang = lang
    return lang


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Words drawn inside speak ``lang``, on this thread only, whatever the session: the server's follower view renders
    a step per language in a worker thread (ui/follow/render.py), outside any run. What the thread spoke before (a
    run's language) is put back after."""
    before = getattr(_run, "lang", None)
    _run.lang = lang if lang in LANGUAGES else DEFAULT_LANG
    try:
        yield
    finally:
        if before is None:
            del _run.lang
        else:
            _run.lang = before


def set_language(lang: str) -> None:
    st.session_state[Key.LANG] = lang = lang if lang in LANGUAGES else DEFAULT_LANG
    if getattr(_run, "active", False):
        _run.lang = lang


def language_chosen() -> bool:
    """Whether this session has settled its language (on its first run)."""
    return Key.LANG in st.session_state


follow_language(language)


# ----- messages queued by callbacks (which cannot draw) ------------------------------------


def flash(kind: str, message: str, where: str = "matrix") -> None:
    """Queue a message to show at a place on the next run."""
    st.session_state.setdefault(Key.FLASH, {})[where] = (kind, message)


def take_flash(where: str) -> tuple[str, str] | None:
    return st.session_state.get(Key.FLASH, {}).pop(where, None)


# ----- pages and their controls ------------------------------------------------------------


def current_page() -> str | None:
    return st.session_state.get(Key.PAGE)


def set_current_page(page_id: str) -> None:
    st.session_state[Key.PAGE] = page_id


def controls() -> dict[str, dict[str, Any]]:
    """Every page's control values (what a shared link carries)."""
    return st.session_state.setdefault(Key.CONTROLS, {})


def replace_controls(new: dict[str, dict[str, Any]]) -> None:
    st.session_state[Key.CONTROLS] = new


# ----- the last result that could be computed, per page -------------------------------------


def last_good(page_id: str, slot: int) -> Callable[[], Any] | None:
    return st.session_state.get(Key.LAST_GOOD, {}).get((page_id, slot))


def remember_good(page_id: str, slot: int, compute: Callable[[], Any]) -> None:
    st.session_state.setdefault(Key.LAST_GOOD, {})[(page_id, slot)] = compute


def forget_good(page_id: str) -> None:
    """The page's last good computations, gone: a closure holds the page's script, and with it all the run drew."""
    kept = st.session_state.get(Key.LAST_GOOD, {})
    for found in [k for k in kept if k[0] == page_id]:
        del kept[found]


# ----- lecture mode (its walkthrough: ui/lecture/; its step-through: ui/steps/) -----------------


def lecture_mode() -> bool:
    return bool(st.session_state.get(Key.LECTURE, False))


def set_lecture_mode(on: bool) -> None:
    st.session_state[Key.LECTURE] = bool(on)
