"""Session state: the session's core, and the registry of every key the app keeps in ``st.session_state``
(ui/keys.py, re-exported here).

Streamlit forgets a widget's value when its page is not shown. The canonical values therefore
live under the app's own keys (the matrix, and each page's controls), and widgets are re-seeded
from them on every run, so nothing resets when the learner switches pages.

:class:`Key` (ui/keys.py) lists every key, so that no two features collide. Each feature keeps the functions
for its own keys next to it, in a module named ``state.py`` (``ui/inputs/state.py``: the matrix;
``ui/check/state.py``: the learner's answers; ``ui/steps/state.py``; ``ui/lecture/state.py``;
``ui/sharing/state.py``). Only those modules and this one read or write ``st.session_state``
(``tests/test_layout.py`` checks it); everything else calls their functions.

This module holds what every page shares: the language, lecture mode, the page on screen, its
control values and who drives them (the learner, or a walkthrough step), messages queued by
callbacks, and the last result each page could compute.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from .keys import Key, fold_key
from .words.content import follow_language
from .words.i18n import DEFAULT_LANG, LANGUAGES

__all__ = [
    "Key", "fold_key", "value", "set_value", "mirrored",
    "begin_run", "decimal_fields", "language", "set_language", "speaking", "language_chosen",
    "lecture_mode", "set_lecture_mode",
    "flash", "take_flash",
    "current_page", "set_current_page",
    "controls", "replace_controls", "page_controls", "fits", "control",
    "WalkLog",
    "last_good", "remember_good",
]


def navigation_pages(key: tuple[str, ...], build: Callable[[], Any]) -> Any:
    """This session's ``st.Page`` objects, built again only when ``key`` (the language and the titles) changes (a
    ✓ once a page is checked, another language).
    Each one resolves its file's path when made: about 5% of a following student's run, rebuilt every run
    (benchmarks/PROFILE-ROOM.md). They are kept per session: a page object carries its session's navigation flags."""
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
    step mode): the widget is set from it on every run, and ``on_set(new)`` runs when it changes.
    """
    set_value(key, current)
    _note_help(key, kwargs.get("help"))
    return widget(label, key=key, on_change=lambda: on_set(value(key)), **kwargs)


def _note_help(key: str, text: str | None) -> None:
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


def page_controls(page_id: str, walk: bool = False) -> dict[str, Any]:
    """A page's control values: the walkthrough's own while it drives the page (``walk``)."""
    if walk:
        return st.session_state.setdefault(Key.WALK_CONTROLS, {}).setdefault(page_id, {})
    return controls().setdefault(page_id, {})


def put_walk_values(new: dict[str, dict[str, Any]]) -> None:
    """The walkthrough's control values replaced by the server's (a room's deck taken, a step arrived at), page
    by page. A page whose values changed starts a new round: its widgets are drawn under new keys
    (:func:`control`). A browser that had not yet drawn the new values may still send a widget's old value, with
    the request for its next run (a timed fragment, the room's listener); sent under the old key, it is no
    change of this round's widget, and a lecture window does not publish it as the lecturer's own (the console's
    query came back as the projection's stale echo and undid the lecturer's choice)."""
    old = st.session_state.get(Key.WALK_CONTROLS, {})
    rounds = st.session_state.setdefault(Key.WALK_ROUNDS, {})
    for page_id in set(old) | set(new):
        if old.get(page_id, {}) != new.get(page_id, {}):
            rounds[page_id] = rounds.get(page_id, 0) + 1
    st.session_state[Key.WALK_CONTROLS] = new


def walk_round(page_id: str) -> int:
    """How often the server put other values in the page's walkthrough controls (:func:`put_walk_values`)."""
    return st.session_state.get(Key.WALK_ROUNDS, {}).get(page_id, 0)


def _widget_key(page_id: str, name: str, walk: bool) -> tuple[str, int]:
    """A control's widget key, and the round of the walkthrough's values it is drawn in (0 off the walkthrough)."""
    key = f"{Key.WALK_CONTROL_PREFIX if walk else Key.CONTROL_PREFIX}{page_id}:{name}"
    drawn_round = walk_round(page_id) if walk else 0
    return (f"{key}#{drawn_round}" if drawn_round else key), drawn_round


def fits(new: Any, default: Any, kwargs: dict[str, Any]) -> bool:
    """Would the widget accept ``new``? (Stored and linked values may be stale or hostile.)"""
    if isinstance(default, bool):
        return isinstance(new, bool)
    if isinstance(default, int | float):
        if isinstance(new, bool) or not isinstance(new, int | float):
            return False
        if isinstance(default, int) and "options" not in kwargs and not isinstance(new, int):
            return False
        low, high = kwargs.get("min_value"), kwargs.get("max_value")
        if (low is not None and new < low) or (high is not None and new > high):
            return False
    if isinstance(default, str) and not isinstance(new, str):
        return False
    if isinstance(new, str) and "max_chars" in kwargs and len(new) > kwargs["max_chars"]:
        return False
    return "options" not in kwargs or new in list(kwargs["options"])


def control(
    page_id: str, name: str, default: Any, widget: Callable[..., Any], label: str, *,
    valid: Callable[[Any], bool] | None = None, walk: WalkLog | None = None, draw: bool = True,
    store: Callable[[], dict[str, Any]] | None = None, **kwargs: Any,
) -> Any:
    """Draw one widget whose value survives page switches.

    ``widget`` is a Streamlit widget function (``st.slider``...). The value is
    stored per page; ``valid`` rejects a stored value that no longer fits (e.g. a
    head count after d_out changed), falling back to ``default``. ``walk``: a walkthrough step drives the
    page; its own values are used, and what the page drew or refused of them is noted there. ``draw=False``: no
    widget (a following student's quiet controls): the stored value, checked as the widget would check it.
    ``store``: what finds where the page's values are (default: the session's, the walkthrough's while it drives).
    It is asked again when the widget changes: a lecture window may take a room's deck between runs (its heartbeat),
    which replaces the values' dict, and a change written into the dict this run drew from would go to a dict the
    session no longer holds.
    """
    where = store if store is not None else (lambda: page_controls(page_id, walk is not None))
    store = where()
    stored = store.get(name, default)
    if (valid is not None and not valid(stored)) or not fits(stored, default, kwargs):
        if walk is not None and name in store:
            walk.rejected.append((name, stored))
        stored = default
    if walk is not None:
        walk.noted(name, default, label, kwargs.get("format_func") or str)
    if not draw:
        store[name] = stored
        return stored
    key, drawn_round = _widget_key(page_id, name, walk is not None)
    # Set on every run, even when unchanged: the widget then carries its value to the browser each time. Set only
    # when changed, a widget the browser mounted afresh (another page, a rebuilt layout) took the widget's own
    # default (the first option, the minimum, off) and sent it back as a change: a following student's page then
    # "changed" every control at once and left the lecture, and a lecturer's page published the first token as the
    # query and divide-by-sum as the normalisation to the whole class.
    st.session_state[key] = stored

    def _save() -> None:
        if walk is not None and walk_round(page_id) != drawn_round:  # drawn before the server's values: stale
            return
        where()[name] = st.session_state[key]

    _note_help(key, kwargs.get("help"))
    result = widget(label, key=key, on_change=_save, **kwargs)
    store[name] = result
    return result


# ----- the last result that could be computed, per page -------------------------------------


def last_good(page_id: str, slot: int) -> Callable[[], Any] | None:
    return st.session_state.get(Key.LAST_GOOD, {}).get((page_id, slot))


def remember_good(page_id: str, slot: int, compute: Callable[[], Any]) -> None:
    st.session_state.setdefault(Key.LAST_GOOD, {})[(page_id, slot)] = compute


# ----- lecture mode (its walkthrough: ui/lecture/; its step-through: ui/steps/) -----------------


def lecture_mode() -> bool:
    return bool(st.session_state.get(Key.LECTURE, False))


def set_lecture_mode(on: bool) -> None:
    st.session_state[Key.LECTURE] = bool(on)


# ----- who drives the page's controls: the learner, or the walkthrough step being shown ---------


@dataclass
class WalkLog:
    """What a page did, in one run, with the control values of the walkthrough step driving it."""

    drawn: set[str] = field(default_factory=set)  # the controls it drew
    rejected: list[tuple[str, Any]] = field(default_factory=list)  # the values it could not take (name, value)
    defaults: dict[str, Any] = field(default_factory=dict)  # each drawn control's default
    labels: dict[str, str] = field(default_factory=dict)  # each drawn control's label, as the page says it
    formats: dict[str, Callable[[Any], str]] = field(default_factory=dict)  # how it shows a value (its options')

    def noted(self, name: str, default: Any, label: str, shown: Callable[[Any], str]) -> None:
        """A control the page drew: its default, its label, and how it shows a value."""
        self.drawn.add(name)
        self.defaults[name] = default
        self.labels[name] = label
        self.formats[name] = shown
