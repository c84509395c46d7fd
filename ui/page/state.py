"""A page's control values in the session: the learner's, or a walkthrough step's while one drives the page, each
drawn as a widget whose value survives page switches (:func:`control`).

Streamlit forgets a widget's value when its page is not shown, so the values live under the app's own keys
(``Key.CONTROLS``, ``Key.WALK_CONTROLS``), and each widget is set from them wherever it does not hold them.
``ui/state.py`` keeps every page's learner values as a whole (what a shared link carries); this module draws them
and keeps the walkthrough's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from ..state import Key, controls, holding, note_help, within

__all__ = ["WalkLog", "control", "fits", "page_controls", "put_walk_values", "walk_round"]


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
        if not within(new, kwargs.get("min_value"), kwargs.get("max_value")):
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
    widget (the quiet controls of a student's exploration on the projection): the stored value, checked as the
    widget would check it.
    ``store``: what finds where the page's values are (default: the session's, the walkthrough's while it drives).
    It is asked again when the widget changes: a lecture window may take a room's deck between runs (a move it heard),
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
    if isinstance(default, float) and type(stored) is int:  # a link's 1 for 1.0: a widget's value must match its type
        stored = float(stored)
    if walk is not None:
        walk.noted(name, default, label, kwargs.get("format_func") or str)
    if not draw:
        store[name] = stored
        return stored
    key, drawn_round = _widget_key(page_id, name, walk is not None)

    def _save() -> None:
        if walk is not None and walk_round(page_id) != drawn_round:  # drawn before the server's values: stale
            return
        where()[name] = st.session_state[key]

    note_help(key, kwargs.get("help"))
    result = widget(label, key=key, on_change=_save, **holding(widget, key, stored, kwargs), **kwargs)
    store[name] = result
    return result


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
