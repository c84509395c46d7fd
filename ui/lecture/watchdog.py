"""A lecturer's window's watchdog, in the browser: it notices when the window stopped following its room, and heals it.

Streamlit pushes nothing from the server to a session: the projection and its console learn of each other's moves
from their room's event stream, heard in the browser, and their heartbeat (a timed fragment, ui/lecture/window.py);
a browser whose stream and timer stopped would otherwise sit on an old step for ever. Nothing on the server can see
that. So a lecturer's window on the walkthrough also carries a small script (``watchdog.js``) that watches what the
window shows (the class follows on the light page, ui/follow, which reconnects by itself):
- the heartbeat's marker, redrawn on every beat, and the element the window must show (the projection's bar, the
  console's note);
- when either stops for :data:`HEAL_MS`, it asks for a full run (which draws the heartbeat again), each further try
  later than the one before, and a reload follows if three fail;
- a blank window (the main area empty, or no app) is reloaded after :data:`STALE_MS`: its address holds the room;
- a line showing another step, or a projection or console showing another question (or none), than the session's
  last full run drew (that run's output never reached the browser: Streamlit drops a run's unsent messages when the
  next run starts) is healed.

An ask for a full run is kept as state, as the clicker's presses are (ui/steps/clicker.py): a small component
(``heal.js``) counts the asks, and the browser sends that count with every request, a heartbeat's included. A
button's click is a one-shot request, which Streamlit may drop when it arrives while a timed fragment reruns: in
the room bench, a student whose run's output was lost asked five times in 20 s and no full run came back. Now the
next beat, which always runs, sees the count grew (:func:`asked`) and reruns the app.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

from ..draw import script_component
from ..settings import limits
from ..state import Key
from . import state as walk_state

__all__ = ["HEAL_MS", "STALE_MS", "asked", "beat", "draw", "parse"]

STALE_MS = 1_500  # a blank page, or another step or question than drawn, for this long: healed
# No new beat for this long asks for a rerun (plus up to half again, at random: a class does not press at once);
# three beats at the least, so that a beat late on a busy machine is not taken for a stopped one.
HEAL_MS = max(4_000, 3 * limits().heartbeat_ms)
_MAX_COUNT = 2**31


@functools.cache
def _script() -> str:
    """The script without its comment lines: it is sent with every full run of a window in a room."""
    text = Path(__file__).with_name("watchdog.js").read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _ignore() -> None:
    """An ask is taken by the next run that looks (:func:`asked`), not in a callback."""


def draw(expect: str, beats: bool) -> None:
    """The watchdog of this window (in the heartbeat's hidden box, before the heartbeat itself): ``expect`` is a
    CSS selector of what a healthy window shows; ``beats``: whether a heartbeat marker is drawn here."""
    st.html(f'<span class="attention-watch" data-expect="{expect}" data-beats="{int(beats)}" '
            f'data-stale="{STALE_MS}" data-heal="{HEAL_MS}"></span><script>{_script()}</script>',
            unsafe_allow_javascript=True)
    component = script_component("attention_heal", Path(__file__).with_name("heal.js"))
    component(key=Key.HEAL, data={"s": walk_state.window_token()}, on_heal_change=_ignore, height=0)


def asked() -> bool:
    """The watchdog asked for a full run since a run last looked (its count grew): True once per ask. A full run
    takes it (it is the run asked for); a heartbeat's run that sees it reruns the app."""
    count = parse(walk_state.heal_value(), walk_state.window_token())
    return count is not None and walk_state.take_heal(count)


def parse(value: object, token: str) -> int | None:
    """The browser's count of asks, checked like anything a client sends: None if malformed, or counted for another
    session than ``token``'s."""
    heal = value.get("heal") if hasattr(value, "get") else None
    if not isinstance(heal, dict) or heal.get("s") != token:
        return None
    count = heal.get("n")
    return count if type(count) is int and 0 < count < _MAX_COUNT else None


def beat(count: int, step: int | None = None, poll: str | None = None) -> None:
    """The heartbeat's marker, drawn on each beat: the watchdog sees the window is alive, and the step and the
    question (``poll``: its box's mark, "" for none) the session's last full run drew: a line on another step, or
    another question on the page, lost that run's output on the way, and is healed."""
    drawn = "" if step is None else f' data-step="{step}"'
    drawn += "" if poll is None else f' data-poll="{poll}"'
    st.html(f'<span data-beat="{count}"{drawn}></span>')
