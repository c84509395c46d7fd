"""The spotlight: a student sends what they found, and the lecturer puts it on the projector.

- **Sending** (a student exploring, :func:`send_panel` in their line): the page on screen, its step, their matrix and
  controls, an optional one-line note and a small picture of their step, checked like a link
  (ui/lecture/explorations.py) and kept in the room's inbox (``Rooms.send``: a few a minute, a cap per room).
- **The console's list** (:func:`console_panel`): what the class sent, newest first and anonymous ("Student 7"),
  each with its picture and **Project**; what is on the projector now, and **Back to the lecture**.
- **Projected** (:func:`driver`, :func:`banner`): the projection runs the student's page on the student's state
  (the light page shows the picture the projection drew), held apart from the session's (``ui.page.Fixed``), under a
  banner that says whose it is. The lecture's own step, matrix and controls stay in the deck as they were: Back (B on
  the projection) only takes the spotlight away. A move of the lecture takes it away too (the spotlight shows on the
  step it was put on).

Only a lecturer's window projects (it holds the room's secret: the deck is written with it); a student's window only
sends, and a send changes nothing on anyone's screen.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from html import escape

import numpy as np
import streamlit as st

from .. import state
from ..chapter import PAGES
from ..check import state as check_state
from ..draw.charts import heatmap_data
from ..draw.show import WEIGHT_LIKE
from ..draw.thumbnail import thumbnail_svg
from ..inputs import state as matrix_state
from ..page import Driver, Fixed
from ..page import state as page_state
from ..state import Key
from ..steps import state as step_state
from ..steps.stepper import Position, slides
from ..words.content import app_text, page_text
from ..words.i18n import explain
from . import files, lesson, window
from . import state as walk_state
from .explorations import MAX_NOTE, MAX_PREVIEW, Exploration, ExplorationError, Spotlight
from .records import Lecturer, SetSpotlight, Student, Window
from .rooms import RoomError, RoomsUnavailable, SendRefused

__all__ = ["back", "banner", "console_panel", "driver", "send_panel", "shown_now"]

LISTED = 8  # the newest explorations the console lists (the room keeps more: Rooms.sent)
_log = logging.getLogger("attention_app")


# ----- a student sends -----------------------------------------------------------------------------------

def send_panel(page_id: str) -> None:
    """In an exploring student's line: "Send to the lecturer", with the step to show and an optional note (a page
    that computes)."""
    if page_id not in {p.page_id for p in PAGES} or not page_text(page_id).steps:
        return
    captions = {s.name: s.caption for s in page_text(page_id).steps}
    names = [None, *(_steps_now(page_id) or captions)]  # None: the step on screen when Send is pressed
    # (the popover is drawn above the page, which reruns on its own: a step chosen there is not known here yet)
    with st.popover(app_text("spotlight_send"), icon=":material/send:", help=app_text("spotlight_send_help")):
        with st.form(Key.SPOTLIGHT_FORM, clear_on_submit=True, border=False):
            # The options' words never change with the page's mode: a select box whose words changed between two
            # runs sent back the old words, which name no step. With step-through off the whole page is on screen:
            # a line under the choice says that "the step on my screen" is then the page's result (its last step).
            st.selectbox(app_text("spotlight_step"), names, key=Key.SPOTLIGHT_STEP,
                         format_func=lambda n: app_text("spotlight_step_on_screen") if n is None else captions[n])
            if not step_state.step_mode(page_id):
                st.caption(app_text("spotlight_step_result"))
            st.text_input(app_text("spotlight_note"), key=Key.SPOTLIGHT_NOTE, max_chars=MAX_NOTE,
                          placeholder=app_text("spotlight_note_placeholder"))
            st.form_submit_button(app_text("spotlight_send_button"), on_click=_send, args=(page_id,),
                                  icon=":material/send:", type="primary")


def said() -> None:
    """What was said about the student's last send, once, under their line."""
    flashed = state.take_flash("spotlight")
    if flashed:
        getattr(st, flashed[0])(flashed[1])


def _send(page_id: str) -> None:
    member = window.current()
    if not isinstance(member, Student):
        return
    note, step = state.value(Key.SPOTLIGHT_NOTE) or "", state.value(Key.SPOTLIGHT_STEP)
    step = step or _step(page_id, _steps_now(page_id) or [s.name for s in page_text(page_id).steps])
    try:
        exploration = Exploration.of(page_id, step, matrix_state.get_matrix(), page_state.page_controls(page_id),
                                     str(note)[:MAX_NOTE], *_preview(page_id, step))
    except ExplorationError as exc:
        state.flash("warning", app_text("spotlight_cannot", error=explain(exc, state.language())), where="spotlight")
        return
    try:  # said present first: an explorer's runs say so, and a while may have passed since the last one
        window.rooms().attend(member.room, member.student)
        _, student = window.rooms().send(member.room, member.student, exploration.to_json())
    except SendRefused as exc:
        said = app_text("spotlight_refused_busy") if exc.reason == "busy" else app_text("spotlight_refused_full") \
            if exc.reason == "full" else app_text("spotlight_refused_absent")
        state.flash("warning", said, where="spotlight")
        return
    except RoomsUnavailable:
        state.flash("warning", app_text("room_store_down"), where="spotlight")
        return
    except RoomError:
        state.flash("warning", app_text("spotlight_refused_absent"), where="spotlight")
        return
    state.flash("success", app_text("spotlight_sent", student=student), where="spotlight")


def _steps_now(page_id: str) -> list[str]:
    """The page's steps that the student's last run recorded (with the mask off, no masking steps)."""
    live = check_state.live(page_id)
    return [] if live is None else [s.text.name for s in slides(page_text(page_id).steps, live.result)]


def _step(page_id: str, names: list[str]) -> str:
    """The step on the student's screen when they press Send: in step mode, the one they are at; else the page's
    last of ``names`` (its result)."""
    current = step_state.current_step(page_id)
    return current if step_state.step_mode(page_id) and current in names else names[-1]


def _preview(page_id: str, step: str | None) -> tuple[tuple[tuple[float | None, ...], ...], bool]:
    """The step's numbers in small (at most MAX_PREVIEW a side, block means), from the student's last run."""
    live = check_state.live(page_id)
    found = [] if live is None else slides(page_text(page_id).steps, live.result)
    chosen = [s for s in found if s.text.name == step] or found[:1]
    if not chosen:
        return (), False
    tensor = chosen[0].trace.step(chosen[0].step)
    values = np.asarray(tensor.tensor.detach().numpy(), dtype=float)
    while values.ndim > 2:
        values = values[0]
    if values.ndim < 2:
        values = values.reshape(1, -1)  # a vector: one row; a number: one cell
    data = heatmap_data(values, [""] * values.shape[0], [""] * values.shape[1], max_side=MAX_PREVIEW)
    rows = tuple(tuple(None if hidden else round(float(v), 4) for v, hidden in zip(row, mask, strict=True))
                 for row, mask in zip(data.values, data.hidden, strict=True))
    return rows, any(w in tensor.name for w in WEIGHT_LIKE)


# ----- the console: the list, Project, Back -----------------------------------------------------------------

def console_panel(index: int) -> None:
    """The console's box: what is on the projector (and Back to the lecture), the record, then what the class sent.
    A new exploration reruns the console (its listener asks the room's activity: ui/lecture/listen.js)."""
    member = window.current()
    if not isinstance(member, Lecturer):
        return
    with st.container(key=Key.SPOTLIGHT_CONSOLE, border=True):
        st.markdown(f"**:material/emoji_people: {app_text('spotlight_heading')}**")
        shown = shown_now(member, index)
        if shown is not None:
            st.html(f'<div class="spotlight-on">{escape(app_text("spotlight_on", whose=_whose(shown)))}</div>')
            st.button(app_text("spotlight_back"), key=Key.SPOTLIGHT_BACK, on_click=back, type="primary",
                      icon=":material/podium:", help=app_text("spotlight_back_help"))
        entries = _inbox(member)
        for number, student, exploration in entries[:LISTED]:
            _entry(number, student, exploration, shown, index)
        if len(entries) > LISTED:
            st.caption(app_text("spotlight_older", n=len(entries) - LISTED))
        files.record_link(member.room)


def _inbox(member: Lecturer) -> list[tuple[int, int, Exploration]]:
    """What the class sent, newest first, each checked like a link; said on screen when the store is out of reach."""
    try:
        sent = window.rooms().sent(member.room, member.secret)
    except RoomsUnavailable:
        st.caption(app_text("room_store_down"))
        return []
    except RoomError:
        return []
    walk_state.draw_activity("sent", sent[0][0] if sent else 0)  # a newer one reruns the console (listen.js)
    entries = [(n, who, e) for n, who, e in ((n, who, _parsed(doc)) for n, who, doc in sent) if e is not None]
    if not entries:
        st.caption(app_text("spotlight_none"))
    return entries


def _project(number: int, student: int, exploration: Exploration, index: int) -> None:
    """on_click of Project: the exploration on the projector at the lecture's step, and in the lesson's record."""
    member = window.current()
    if not isinstance(member, Lecturer):
        return
    spotlight = Spotlight.of(number, student, index, exploration)
    window.dispatch(SetSpotlight(spotlight))
    lesson.keep_projected(member, spotlight)


def _entry(number: int, student: int, exploration: Exploration, on: Spotlight | None, index: int) -> None:
    """One exploration in the list: whose, the note, where; its picture and Project."""
    with st.container(border=True, gap="small"):
        st.html(f'<div class="spotlight-entry"><b>{escape(app_text("spotlight_student", student=student))}</b>'
                f'{escape(_noted(exploration.note))}<br><small>{escape(_where(exploration))}</small></div>')
        with st.container(horizontal=True, vertical_alignment="center", gap="small"):
            values = np.array([[-np.inf if v is None else v for v in row] for row in exploration.preview], dtype=float)
            svg = thumbnail_svg(values, exploration.weights, _where(exploration)) if values.size else None
            if svg is not None:
                st.html(f'<div class="spotlight-picture">{svg}</div>')
            st.button(app_text("spotlight_project"), key=f"{Key.SPOTLIGHT_PROJECT_PREFIX}{number}",
                      on_click=_project, args=(number, student, exploration, index), icon=":material/present_to_all:",
                      disabled=on is not None and on.number == number, help=app_text("spotlight_project_help"))


def _parsed(document: str) -> Exploration | None:
    try:
        return Exploration.from_json(document)
    except ExplorationError as exc:  # the store's content is checked like a link: skipped, and logged
        _log.warning("an exploration sent to a room was refused: %s", exc)
        return None


def back() -> None:
    """Back to the lecture (the console's button, the projection's B): the spotlight goes, nothing else changes."""
    if isinstance(window.current(), Lecturer):
        window.dispatch(SetSpotlight(None))


# ----- projected ---------------------------------------------------------------------------------------------

def shown_now(member: Window | None, index: int) -> Spotlight | None:
    """The exploration a lecturer's window shows at the lecture's step ``index``. One put on another step is gone:
    the lecture moved on."""
    if not isinstance(member, Lecturer):
        return None
    if member.spotlight is not None and member.spotlight.at != index:
        window.dispatch(SetSpotlight(None))
        return None
    return member.spotlight


def driver(spotlight: Spotlight, position: Position) -> Driver:
    """The walkthrough's driver for the student's page: their step, on their state (held apart: ui.page.Fixed)."""
    found = spotlight.state()
    fixed = Fixed(found.matrix, dict(found.controls.get(spotlight.page, {})))
    return Driver(replace(position, current=spotlight.step, cover=None), projection=True, quiet=True,
                  fixed=fixed)


def banner(spotlight: Spotlight, ends: bool = False) -> None:
    """Above the projected exploration: that it is a student's, whose, and their note (as text). ``ends``: the
    projection that drives the room, with Back to the lecture (B)."""
    with st.container(key=Key.SPOTLIGHT_BANNER, horizontal=True, vertical_alignment="center", gap="small"):
        st.html(f'<div class="spotlight-banner" role="status"><b>{escape(app_text("spotlight_banner"))}</b> '
                f"{escape(app_text('spotlight_student', student=spotlight.student) + _noted(spotlight.note))}</div>",
                width="stretch")
        if ends:
            st.button(app_text("spotlight_back"), key=Key.SPOTLIGHT_BACK_KEY, shortcut="b", on_click=back,
                      type="tertiary", icon=":material/podium:", help=app_text("spotlight_back_help"))


def _whose(spotlight: Spotlight) -> str:
    return (app_text("spotlight_student", student=spotlight.student) + _noted(spotlight.note) + " · "
            + _where(spotlight))


def _noted(note: str) -> str:
    return f": “{note}”" if note else ""


def _where(exploration: Exploration | Spotlight) -> str:
    """The page and the step, in the reader's words."""
    text = page_text(exploration.page)
    captions = {s.name: s.caption for s in text.steps}
    step = captions.get(exploration.step) if exploration.step else text.steps[0].caption
    return f"{text.title}: {step}"
