"""The walkthrough's clicker keys, kept as state instead of sent as clicks.

A button's click reaches the server once, as a one-shot trigger, which Streamlit can drop when it arrives while a
timed fragment reruns (a lecture window once had a heartbeat: the soak test's projection stayed on its step after a
PageDown); and a lecturer presses twice faster than a run ends. So a window that drives the walkthrough (the
projection, its console, the plain walkthrough) listens for PageDown, PageUp, → and ←, and for clicks on the
walkthrough's Back and Next, with a script that comes with its page (``clicker_keys.js``: a press just after a
reload is counted too), and sends them with a small component (``clicker.js``) once that has loaded. The presses
become one value, ``{seq, net, n}``: how many there were, their sum (+1 forward, -1 back) and the walkthrough's
length. The browser keeps that value and sends it with every request, so a press can arrive a run late but is never
lost; the run that sees a new ``seq`` moves by what ``net`` grew since the value it took last (two quick presses
move two steps, a value seen twice moves once). ``ui/lecture/state.py`` takes it before anything is drawn, from the
step the window is at: a clicker goes on from where the lecture is, as a slide show's does. The counts belong to one
server session (a token in the data the scripts get): a browser that reconnects to a restarted server sends its last
value again, and the new session must not take presses the old one took.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from pathlib import Path

import streamlit as st

from ..draw import script_component
from ..state import Key
from . import state as step_state

__all__ = ["MAX_STEPS", "Press", "advance", "mount", "parse", "pressed"]

MAX_STEPS = 10_000  # a walkthrough's length sent by a browser: anything beyond is refused (they are far shorter)
_MAX_COUNT = 2**31


@dataclass(frozen=True)
class Press:
    seq: int  # how many presses this page has sent
    net: int  # their sum: +1 forward, -1 back
    n: int  # the walkthrough's length, as drawn


@functools.cache
def _keys_script() -> str:
    return Path(__file__).with_name("clicker_keys.js").read_text(encoding="utf-8")


def _ignore() -> None:
    """The press is read before the next page is drawn (:func:`pressed`), not in a callback."""


def mount(total: int) -> None:
    """The clicker of this run's walkthrough, of ``total`` steps: its keys, listened for from the moment the page is
    drawn (a hidden element and its script), and the component that sends what they counted."""
    token = step_state.clicker_token()
    st.html(f'<span hidden class="walk-clicker" data-s="{escape(token)}"></span>'
            f"<script>{_keys_script()}</script>", unsafe_allow_javascript=True)
    component = script_component("attention_clicker", Path(__file__).with_name("clicker.js"))
    component(key=Key.CLICKER_KEYS, data={"n": total, "s": token}, on_press_change=_ignore, height=0)


def pressed() -> Press | None:
    """The browser's presses so far, or None (none yet, or a malformed value)."""
    return parse(step_state.clicker_value(), step_state.clicker_token())


def parse(value: object, token: str) -> Press | None:
    """The clicker's state as a browser sent it, checked like anything a client sends: None if malformed, or
    counted for another session than ``token``'s."""
    press = value.get("press") if hasattr(value, "get") else None
    if not isinstance(press, dict) or press.get("s") != token:
        return None
    seq, net, n = press.get("seq"), press.get("net"), press.get("n")
    if any(type(v) is not int for v in (seq, net, n)):  # a bool is not a count
        return None
    if not (0 < seq < _MAX_COUNT and abs(net) <= seq and 0 < n <= MAX_STEPS):
        return None
    return Press(seq, net, n)


def advance(press: Press | None, taken: tuple[int, int], at: int) -> tuple[tuple[int, int], int]:
    """From the value taken last (``taken``: its seq and net; a page's first is (0, 0)) and the step ``at``: what is
    taken now, and the step to be at (within the walkthrough's length)."""
    if press is None or press.seq == taken[0]:
        return taken, at
    return (press.seq, press.net), min(max(at + press.net - taken[1], 0), press.n - 1)
