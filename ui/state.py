"""Session state: the registry of every key the app keeps in ``st.session_state``, and the session's core.

Streamlit forgets a widget's value when its page is not shown. The canonical values therefore
live under the app's own keys (the matrix, and each page's controls), and widgets are re-seeded
from them on every run, so nothing resets when the learner switches pages.

:class:`Key` lists every key, so that no two features collide. Each feature keeps the functions
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

from .words.content import follow_language
from .words.i18n import DEFAULT_LANG, LANGUAGES

__all__ = [
    "Key", "fold_key", "value", "set_value", "mirrored",
    "begin_run", "language", "set_language", "speaking", "language_chosen",
    "lecture_mode", "set_lecture_mode",
    "flash", "take_flash",
    "current_page", "set_current_page",
    "controls", "replace_controls", "page_controls", "fits", "control",
    "WalkLog",
    "last_good", "remember_good",
]


class Key:
    """Every session-state key of the app (widget keys included), grouped by the module that owns it."""

    # ui/state.py: what every page shares
    LANG = "_lang"  # the language the app speaks (ui/words/i18n.py LANGUAGES)
    LECTURE = "lecture"  # lecture mode on or off (its sidebar toggle is LECTURE_TOGGLE)
    PAGE = "current_page"
    CONTROLS = "controls"  # page id -> control name -> value: what a shared link carries
    FLASH = "_flash"
    LINK_OPENED = "link-opened"  # the container of "the shared link was opened" (ui/page.py draw_flash)
    LAST_GOOD = "_last_good"
    WALK_CONTROLS = "_walk_controls"  # page id -> the walkthrough's own control values
    NAVIGATION = "_navigation"  # (language and titles, the st.Page objects): app.py's pages, built again on a change
    # ui/inputs/state.py: the shared input matrix
    MATRIX = "matrix"
    EDITOR_VERSION = "editor_version"
    EDITOR_BASE = "editor_base"
    MATRIX_EDITOR_PREFIX = "matrix_editor_"  # the data editor, remounted under a new number per new matrix
    UPLOAD_PREFIX = "upload_"  # the CSV uploader, likewise
    # ui/inputs/sidebar.py's widgets (read through value(), written through mirrored())
    LANG_SELECT = "lang_select"  # the sidebar's language selector
    PRESET = "preset"
    RAND_TOKENS = "rand_tokens"
    RAND_DIM = "rand_dim"
    RAND_SEED = "rand_seed"
    MATRIX_WIDTH = "matrix_width"
    LECTURE_TOGGLE = "lecture_toggle"
    LOAD_PRESET = "load_preset"
    RESET_MATRIX = "reset_matrix"
    DOWNLOAD_MATRIX = "download_matrix"
    # ui/steps/state.py: step-through
    STEP_MODE = "_step_mode"  # page id -> bool: step through instead of the whole page
    STEP = "_step"  # page id -> the name of the step on screen
    PENDING_STEP = "_pending_step"  # a shared link's ?step=, for the first page that steps through
    # ui/steps/stepper.py's widgets: step_back:<page> ... (the walkthrough's: step_back:walk on every page); CLICKER
    # is the container of the clicker's keys; CLICKER_KEYS the walkthrough's clicker (ui/steps/clicker.py)
    STEP_BACK_PREFIX = "step_back:"
    STEP_NEXT_PREFIX = "step_next:"
    STEP_PAGEUP_PREFIX = "step_pageup:"
    STEP_PAGEDOWN_PREFIX = "step_pagedown:"
    CLICKER = "clicker"
    CLICKER_KEYS = "clicker_keys"
    CLICKER_TOKEN = "_clicker_token"  # the session's token, which the browser's press counts carry
    # ui/lecture/state.py: the chapter walkthrough
    WALK_POSITION = "_walk_position"  # the walkthrough's step, the step whose controls were applied, the presses taken
    WALK_FILE = "_walk_file"  # an uploaded walkthrough's text
    WALK_OPENED = "_walk_opened"  # the walkthrough page has read its ?walk= once
    WALK_UPLOAD = "walk_upload"  # ui/lecture/walk.py: the uploader of a walkthrough of one's own
    PROJECTION_DETAILS = "_projection_details"  # the projection shows the explanation and the controls
    LECTURE_LOCK = "_lecture_lock"  # one run at a time reads and writes the lecture's state (ui/lecture/state.py)
    ROOM = "_room"  # this window in a lecture's room: a Slot holding one frozen record (ui/lecture/records.py)
    PROJECTION_JOIN = "_projection_join"  # the projection shows the class's join link and QR code (J)
    # ui/lecture/: widgets of the projection's bar and of the presenter console
    DETAILS_BUTTON = "projection_details"
    CONSOLE_OPENED = "console_opened"  # hidden: the projection's script presses it when it opens a console
    PROJECTION_BAR = "projection-bar"  # the projection's one slim line (a container)
    WALK_AT_PREFIX = "walk-at-"  # walk-at-<k>: "Step k of n" on a lecturer's window (the watchdog compares it)
    STAGE = "projection-stage"  # the step on the projection: what follows it is hidden (ui/shell/projection.css)
    STAGE_DETAILS = "stage-with-details"  # the same, with the details shown
    # The console's list of steps (a radio), one widget per step on screen: console_steps:<index>. A rerun the
    # browser sent before it drew the new step carries the old list's choice; under the old key that choice
    # is no change, where one key for every step would take it as the lecturer's and put the step back.
    CONSOLE_STEPS_PREFIX = "console_steps:"
    CONSOLE_LIST = "console-list"
    CONSOLE_NOTE = "console-note"  # the speaker note, large
    CONSOLE_DRIFT = "console-drift"  # "the live values differ from the walkthrough's", and its reset
    CONSOLE_DRIFT_RESET = "console_drift_reset"
    CONSOLE_BUDGET = "console_budget"
    CONSOLE_CLOCK = "console_clock"
    CONSOLE_SHARE_NOTES = "console_share_notes"  # the console's "Share notes with the class"
    JOIN_BUTTON = "projection_join"  # the projection's J: the join panel
    JOIN_PANEL = "join-panel"
    CLASS_COUNT = "class-count"  # the projection's live count of the class, alone in its box (a timed fragment)
    # ui/lecture/classroom.py: a student's line (exploring on their own) and its link back to the lecture
    CLASS_BAR = "class-bar"
    CLASS_REJOIN = "class-rejoin"  # the class of "Rejoin the lecture", a link to the light page
    # ui/lecture/poll.py: a class poll's widgets and boxes
    POLL_QUESTION = "poll_question"  # the console's choice of question
    POLL_ASK = "poll_ask"
    POLL_REVEAL = "poll_reveal"
    POLL_CLOSE = "poll_close"
    POLL_DELETE = "poll_delete"
    POLL_CONSOLE = "poll-console"  # the console's poll box
    POLL_STAGE = "poll-stage"  # the projection's poll, in place of the step
    # ui/lecture/spotlight.py: a student's exploration sent, listed on the console, put on the projector
    SPOTLIGHT_NOTE = "spotlight_note"  # a student's one-line note, in the send form
    SPOTLIGHT_STEP = "spotlight_step"  # the step to show, in the send form (None: the one on screen)
    SPOTLIGHT_FORM = "spotlight_form"
    SPOTLIGHT_SEND = "spotlight_send"
    SPOTLIGHT_SAID = "_spotlight_said"  # a student: (kind, message) said about their last send
    SPOTLIGHT_BANNER = "spotlight-banner"  # above the projected exploration: whose it is
    SPOTLIGHT_CONSOLE = "spotlight-console"  # the console's box: what is on the projector, what the class sent
    SPOTLIGHT_BACK = "spotlight_back"  # the console's "Back to the lecture"
    SPOTLIGHT_BACK_KEY = "spotlight_back_key"  # the projection's (B)
    SPOTLIGHT_PROJECT_PREFIX = "spotlight_project:"  # the console's Project, per exploration: spotlight_project:<n>
    LISTEN = "listen"  # hidden: the newest room version a lecturer's window heard (ui/lecture/listen.js)
    HEAL = "heal"  # hidden: the watchdog's count of asks for a full run (ui/lecture/heal.js), kept as state
    HEAL_TOKEN = "_heal_token"  # the session's token, which the browser's count of asks carries
    HEAL_TAKEN = "_heal_taken"  # the asks a run has taken (ui/lecture/state.py)
    HEARTBEAT = "heartbeat"  # the box of a lecture window's heartbeat (ui/lecture/window.py), hidden by style.css
    SEAT = "seat"  # the box of the script that keeps a lecturer's secret in its browser (ui/lecture/seat.py), hidden
    CONSOLE_TOKEN = "_console_token"  # the projection: the one-time token that opens its console (P)
    # ui/sharing/state.py: the shareable link
    LINK_LOADED = "_link_loaded"
    NOTEBOOK_SPEC = "_notebook_spec"  # the state the page's "Open as a notebook" offers (a NotebookSpec)
    # ui/announce/state.py: what a screen reader hears of a change
    SAY_NOW = "_say_now"  # this run's sentences, by kind
    SAID = "_said"  # each page's last sentences, by kind
    SAY_COUNT = "_say_count"  # announcements made: the browser speaks when it moves
    SAY_TEXT = "_say_text"  # the last announcement
    LINK_OPENED_AT = "_link_opened_at"  # when a shared link was opened, while that is said (ui/sharing/link.py)
    SHARE_NOTE = "_share_note"
    # ui/check/state.py: page id -> question id -> the learner's answer and progress.
    # Never part of controls(), so a shared link carries no answers.
    CHECKS = "_checks"
    PROGRESS = "_progress"  # ui/check/progress.py: the browser's kept progress (a component's state)
    PROGRESS_TOKEN = "_progress_token"
    PROGRESS_TAKEN = "_progress_taken"
    CHECK_WIDGET_PREFIX = "check:"  # answer widgets: check:<page>:<question>[:<part>]
    LIVE = "_live"  # (page id, Live): what this run's page computed, for a class poll judged on it
    # Prefixes of widget keys made per page or per thing (each owner builds its keys from its prefix).
    FOLD_PREFIX = "fold:"  # ui/draw/layout.py folded(): fold:<what>, open or closed
    RESULTS_PREFIX = "results-"  # ui/draw/layout.py side_by_side(): columns of results that may stack
    CONTROL_PREFIX = "w:"  # control(): w:<page>:<name>
    WALK_CONTROL_PREFIX = "walk:"  # control() while a walkthrough drives the page: walk:<page>:<name>
    STEP_MODE_PREFIX = "step_mode:"  # the step-through toggle of a page: step_mode:<page>
    DOWNLOAD_PREFIX = "download:"  # ui/page.py: a page's CSV download, download:<page>:<n>
    # page scripts' own widgets
    TIME_VARIANTS = "time_variants"  # pages/92_efficient.py


def fold_key(what: str) -> str:
    """The widget key of a folded section (an expander that draws its contents only while open)."""
    return f"{Key.FOLD_PREFIX}{what}"


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
    store: dict[str, Any] | None = None, **kwargs: Any,
) -> Any:
    """Draw one widget whose value survives page switches.

    ``widget`` is a Streamlit widget function (``st.slider``...). The value is
    stored per page; ``valid`` rejects a stored value that no longer fits (e.g. a
    head count after d_out changed), falling back to ``default``. ``walk``: a walkthrough step drives the
    page; its own values are used, and what the page drew or refused of them is noted there. ``draw=False``: no
    widget (a following student's quiet controls): the stored value, checked as the widget would check it.
    ``store``: where the page's values are (default: the session's, the walkthrough's while it drives).
    """
    store = page_controls(page_id, walk is not None) if store is None else store
    stored = store.get(name, default)
    if (valid is not None and not valid(stored)) or not fits(stored, default, kwargs):
        if walk is not None and name in store:
            walk.rejected.append((name, stored))
        stored = default
    if walk is not None:
        walk.drawn.add(name)
        walk.defaults[name] = default
        walk.labels[name] = label
        walk.formats[name] = kwargs.get("format_func") or str
    if not draw:
        store[name] = stored
        return stored
    key = f"{Key.WALK_CONTROL_PREFIX if walk is not None else Key.CONTROL_PREFIX}{page_id}:{name}"
    # Set on every run, even when unchanged: the widget then carries its value to the browser each time. Set only
    # when changed, a widget the browser mounted afresh (another page, a rebuilt layout) took the widget's own
    # default (the first option, the minimum, off) and sent it back as a change: a following student's page then
    # "changed" every control at once and left the lecture, and a lecturer's page published the first token as the
    # query and divide-by-sum as the normalisation to the whole class.
    st.session_state[key] = stored

    def _save() -> None:
        store[name] = st.session_state[key]

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
