"""The presenter console: the lecturer's own window, beside the projection, in step with it.

Above the step's live page (the same page the projection shows, with its controls), the console
shows what the room must not see: the speaker note in full (and the switch that shares the notes with the
class's devices), the next step, the talk's clock with its pacing, and the list of steps to jump to. Its
Back/Next, keys, step list, controls and matrix change the deck, which the projection follows
(ui/lecture/window.py).

The projection opens it (:func:`opener`): a button and the P key, which open
``/walkthrough?console=<one-time token>`` in a window of its own. The token is in the projection's
page, never in its address bar or under a link (a hovered link shows its address to the room).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from html import escape

import streamlit as st

from .. import state
from ..check import state as check_state
from ..draw.show import WEIGHT_LIKE
from ..draw.thumbnail import thumbnail_svg
from ..inputs import state as matrix_state
from ..inputs.matrix import book_matrix
from ..page.state import WalkLog
from ..state import Key
from ..steps.stepper import slides
from ..words.content import app_text, page_text
from ..words.i18n import WALK_CONTEXT, translate
from . import classroom, spotlight, window
from . import state as walk_state
from .deck import DEFAULT_BUDGET_MIN, MAX_BUDGET_MIN
from .records import Lecturer, SetBudget, ShareNotes, StartClock
from .rooms import RoomError, RoomsUnavailable
from .walkthrough import WalkStep, Walkthrough

__all__ = ["console", "opener", "token"]

_OPENER_SCRIPT = """
(() => {
  const open = () => {
    const box = document.querySelector('.console-opener');
    if (!box || !box.dataset.token) return;
    const url = new URL('walkthrough?console=' + encodeURIComponent(box.dataset.token)
                        + '&lang=' + encodeURIComponent(box.dataset.lang), window.location.href);
    window.open(url.href, 'attention-console', 'popup,width=1280,height=800');
  };
  document.querySelectorAll('.console-opener button:not([data-ready])').forEach((button) => {
    button.dataset.ready = '1';
    button.addEventListener('click', open);
  });
  if (!window.attentionConsoleKey) {
    window.attentionConsoleKey = true;
    document.addEventListener('keydown', (event) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable;
      if ((event.key === 'p' || event.key === 'P') && !typing && !event.ctrlKey && !event.metaKey && !event.altKey
          && document.querySelector('.console-opener')) {
        event.preventDefault();
        open();
      }
    });
  }
})();
"""

_CLOCK_SCRIPT = """
(() => {
  const two = (n) => String(Math.floor(n)).padStart(2, '0');
  const clock = (s) => `${two(s / 60)}:${two(s % 60)}`;
  const tick = () => document.querySelectorAll('.talk-clock[data-start]').forEach((box) => {
    const start = parseFloat(box.dataset.start), budget = parseFloat(box.dataset.budget) * 60;
    const done = parseFloat(box.dataset.done), words = JSON.parse(box.dataset.words);
    const elapsed = Math.max(0, Date.now() / 1000 - start);
    box.querySelector('.elapsed').textContent = clock(elapsed);
    const ahead = Math.round((done * budget - elapsed) / 60);  // minutes: where we are against where the time says
    const pace = box.querySelector('.pace');
    pace.textContent = ahead === 0 ? words.on_time
      : (ahead > 0 ? words.ahead : words.behind).replace('{minutes}', Math.abs(ahead));
    pace.dataset.pace = ahead === 0 ? 'on-time' : (ahead > 0 ? 'ahead' : 'behind');
  });
  tick();
  if (!window.attentionClock) window.attentionClock = setInterval(tick, 1000);
})();
"""


# The list of steps keeps the current one in view (scrolling its own box, not the page).
_LIST_SCRIPT = """
requestAnimationFrame(() => {
  const box = document.querySelector('.st-key-console-list');
  const chosen = box && box.querySelector('input:checked');
  const row = chosen && chosen.closest('label');
  if (!row) return;
  const at = row.getBoundingClientRect(), frame = box.getBoundingClientRect();
  box.scrollTop += at.top - frame.top - (box.clientHeight - at.height) / 2;
});
"""


def _choose(key: str, drawn_at: int) -> None:
    """The lecturer chose a step in the list drawn at step ``drawn_at``. Streamlit may also call this for a
    list it has just drawn (created in a fragment's run) with the list's own step: that is no choice."""
    chosen = state.value(key)
    if chosen is not None and int(chosen) != drawn_at:
        walk_state.set_walk_position(int(chosen))


def _start_clock() -> None:
    window.dispatch(StartClock(time.time()))


def token() -> str | None:
    """The one-time token that opens a console on this window's room (the projection's P), or None. The store
    keeps only its hash; the window keeps the token while the store says it lives."""
    member = window.current()
    if not isinstance(member, Lecturer) or member.console:
        return None
    try:
        walk_state.set_console_token(window.rooms().issue_token(member.room, member.secret, walk_state.console_token()))
    except RoomsUnavailable:
        pass
    except RoomError:  # the room is gone
        return None
    return walk_state.console_token()


def opener(token: str | None) -> None:
    """The projection's console button (and its P key), holding the room's one-time token."""
    if token is None:
        return
    st.html(f'<div class="console-opener" data-token="{escape(token)}" data-lang="{escape(state.language())}">'
            f'<button type="button" title="{escape(app_text("console_open_help"))}">{escape(app_text("console_open"))}'
            f"</button></div><script>{_OPENER_SCRIPT}</script>", unsafe_allow_javascript=True, width="content")


def console(walk: Walkthrough, index: int, own_file: Callable[[], None]) -> None:
    """The console's top: where we are, the note, the next step | the clock, the list of steps."""
    lang = state.language()
    step = walk.steps[index]
    here, side = st.columns([3, 2], gap="large")
    with here:
        st.caption(app_text("console_heading", title=translate(walk.title, lang, WALK_CONTEXT)))
        st.markdown(app_text("console_where", k=index + 1, n=len(walk.steps), page=page_text(step.page).title,
                             step=_caption(step)))
        note = translate(step.note, lang, WALK_CONTEXT) if step.note else app_text("console_no_note")
        with st.container(key=Key.CONSOLE_NOTE):
            st.markdown(note)
        _share_notes()
        if index + 1 < len(walk.steps):
            after = walk.steps[index + 1]
            st.markdown(app_text("console_next", page=page_text(after.page).title, step=_caption(after)))
            if after.note:
                st.caption(translate(after.note, lang, WALK_CONTEXT))
            _next_picture(after)
        else:
            st.markdown(app_text("console_last"))
    with side:
        _clock(index, len(walk.steps))
        with st.container(height=260, key=Key.CONSOLE_LIST):
            key = f"{Key.CONSOLE_STEPS_PREFIX}{index}"
            st.radio(app_text("console_steps"), options=list(range(len(walk.steps))), index=index, key=key,
                     on_change=_choose, args=(key, index),
                     format_func=lambda i: _list_entry(walk, i))
        st.html(f'<span hidden data-step="{index}"></span><script>{_LIST_SCRIPT}</script>',
                unsafe_allow_javascript=True)
        member = window.current()
        if member is not None:
            st.caption(app_text("console_class", n=window.attendance(), link=classroom.join_link(member.room)))
        spotlight.console_panel(index)
        own_file()
    st.divider()


def _next_picture(after: WalkStep) -> None:
    """The next step in small, from the values its page computed in this window's last run: drawn when that page
    is the one on screen and the next step changes no control (its numbers are then the ones to come). Another
    page is not computed for a preview (a whole page's run per console run): its words above say what comes."""
    live = check_state.live(after.page)
    if live is None or after.controls:
        return
    found = [s for s in slides(page_text(after.page).steps, live.result) if s.text.name == after.step]
    if not found:
        return
    step = found[0].trace.step(found[0].step)
    svg = thumbnail_svg(step.tensor.detach().numpy(), any(w in step.name for w in WEIGHT_LIKE),
                        app_text("console_next_picture", step=_caption(after)))
    if svg is not None:
        st.html(f'<div class="next-picture">{svg}</div>')


def _share_notes() -> None:
    """The console's switch: the speaker notes stay the lecturer's unless shared with the class's devices."""
    member = window.current()
    shared = isinstance(member, Lecturer) and member.notes_shared
    state.mirrored(st.toggle, app_text("console_share_notes"), Key.CONSOLE_SHARE_NOTES, shared,
                   lambda on: window.dispatch(ShareNotes(bool(on))), help=app_text("console_share_notes_help"))


def _list_entry(walk: Walkthrough, i: int) -> str:
    return f"{i + 1}. {page_text(walk.steps[i].page).title}: {_caption(walk.steps[i])}"


def _caption(step: WalkStep) -> str:
    """A walkthrough step's own words: the caption of its page's step."""
    for text in page_text(step.page).steps:
        if text.name == step.step:
            return text.caption
    return step.step


def _clock(index: int, total: int) -> None:
    """Elapsed time against the talk's length, and whether the talk is ahead or behind (ticking in the
    browser: no rerun per second)."""
    member = window.current()
    start = member.clock_start if isinstance(member, Lecturer) else None
    budget = member.budget_min if isinstance(member, Lecturer) else DEFAULT_BUDGET_MIN
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    with c1:
        if start is None:
            st.markdown(app_text("console_clock_stopped"))
        else:
            words = {"on_time": app_text("console_on_time"),  # {minutes} is filled in by the browser
                     "ahead": app_text("console_ahead", minutes="{minutes}"),
                     "behind": app_text("console_behind", minutes="{minutes}")}
            st.html(f'<div class="talk-clock" data-start="{start}" data-budget="{budget}" data-done="{index / total}"'
                    f' data-words="{escape(json.dumps(words))}"><span class="elapsed">00:00</span> '
                    f'{escape(app_text("console_of_minutes", minutes=budget))} · <span class="pace" role="status">'
                    f"</span></div><script>{_CLOCK_SCRIPT}</script>", unsafe_allow_javascript=True)
        label = app_text("console_clock_start") if start is None else app_text("console_clock_restart")
        st.button(label, key=Key.CONSOLE_CLOCK, on_click=_start_clock, icon=":material/timer:")
    with c2:
        state.mirrored(st.number_input, app_text("console_budget"), Key.CONSOLE_BUDGET, budget,
                       lambda minutes: window.dispatch(SetBudget(int(minutes or DEFAULT_BUDGET_MIN))),
                       min_value=1, max_value=MAX_BUDGET_MIN, step=5)



def drift(step: WalkStep, index: int, log: WalkLog) -> None:
    """Whether the live values are the step's (what its note and the book print): when a control (or the
    matrix) was changed on purpose, the console says which, with one click back to the walkthrough's."""
    changed = walk_state.walk_drift(step.page, step.controls, log.defaults, {name for name, _ in log.rejected})
    edited = matrix_state.get_matrix() != book_matrix()
    if not changed and not edited:
        return
    names = [app_text("console_drift_control", name=log.labels.get(name, name), live=_shown(log, name, live),
                      step=_shown(log, name, want)) for name, (live, want) in changed.items()]
    if edited:
        names.append(app_text("console_drift_matrix"))
    with st.container(key=Key.CONSOLE_DRIFT, horizontal=True, vertical_alignment="center"):
        st.warning(app_text("console_drift", changes="; ".join(names)), icon=":material/rule:")
        st.button(app_text("console_drift_reset"), key=Key.CONSOLE_DRIFT_RESET, on_click=_reset,
                  args=(step, index, edited), icon=":material/restart_alt:")


def _shown(log: WalkLog, name: str, value: object) -> str:
    """A control's value as its widget shows it (an option's name), else as written."""
    try:
        return str(log.formats.get(name, str)(value))
    except Exception:  # noqa: BLE001 (a value the widget's options do not know: said as it is)
        return str(value)


def _reset(step: WalkStep, index: int, matrix: bool) -> None:
    if walk_state.walk_position() != index:  # the lecture moved on meanwhile: that step's values are its own
        return
    walk_state.reset_walk_controls(step.page, step.controls)
    if matrix:
        matrix_state.set_matrix(book_matrix())
