"""The /walkthrough page: one walkthrough step at a time, each shown on its real, live page.

The walkthrough page runs the step's own page script inside itself, with the walkthrough's
own control values and the step on screen set by the walkthrough; the page's Back/Next (and
← → PageUp PageDown) then move through the walkthrough, across pages.

It has three views of one deck (ui/lecture/deck.py):
- the **projection** (lecture mode): one slim line, then the step's visual filling the screen; no
  speaker note, and the explanation and controls one key (D) away; P opens the console;
- the **presenter console** (ui/lecture/console.py): the note, the next step, the clock, the list of
  steps, and the same live step with its controls;
- the **plain** walkthrough, for reading alone (and a student exploring, who has no speaker notes): the note and
  the page under it.
A student who follows the lecture has the light page (ui/follow), not this one.
The projection and its console share a room (ui/lecture/window.py): each follows the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import streamlit as st

from .. import state
from ..chapter import PAGES
from ..inputs import state as matrix_state
from ..page import Driver, Page, draw_explanation, driven_by
from ..page.state import WalkLog
from ..script import PageEnded, run_script
from ..state import Key
from ..steps import stepper
from ..words.content import app_text, page_text
from ..words.i18n import WALK_CONTEXT, explain, translate
from . import classroom, console, files, lecture, poll, spotlight, window
from . import state as walk_state
from .explorations import Spotlight
from .records import WALK_PAGE, Lecturer, Student, Window
from .walkthrough import FILE_PARAM, WalkStep, Walkthrough, WalkthroughError, decode, encode, load_bundled, parse

__all__ = ["report_refused", "walkthrough"]

ROOT = Path(__file__).resolve().parents[2]
FILES = {p.page_id: p.file for p in PAGES}
WALK_PARAM = "walk"  # ?walk=<step number>


def walkthrough(page: Page) -> None:
    """Draw the walkthrough's current step in this window's view, then the step's live page. (The room was
    seen before this page ran, and what it changes is published after it: ui/lecture/lecture.py.)"""
    walk, custom = _walkthrough()
    member = window.current()
    following = isinstance(member, Lecturer) and member.console
    if walk_state.first_run_of_walkthrough() and not following:  # ?walk= is this window's own step
        walk_state.set_walk_position(_requested_position(len(walk.steps)))
    # Taken here too, not only before the page (ui/lecture/lecture.py): a window that drives no lecture (the plain
    # walkthrough, an exploring student) runs its page as a fragment, and its clicker's change reruns only that.
    walk_state.take_press()
    index = min(walk_state.walk_position(), len(walk.steps) - 1)
    step = walk.steps[index]
    shown = lecture.view(WALK_PAGE)
    position = stepper.Position(index, len(walk.steps), _mover(index, len(walk.steps)), step.step)
    poll_box = drift_box = None
    if shown == "projection":  # the step is the screen: no note, no title; details and console one key away
        walk_state.set_drawn_picture(None)  # until the step is drawn (not under a cover, nor an exploration)
        driver = Driver(replace(position, tools=_projection_tools, cover=_cover(member),
                                drawn=walk_state.keep_picture(index, len(walk.steps))), projection=True,
                        details=walk_state.details_shown())
    elif shown == "console":
        console.console(walk, index, own_file=_own_file_panel)
        drift_box = st.container()  # filled once the step's page has run: whether its values are the step's
        poll_box = st.container()  # filled once the step's page has run: its live result judges the answers
        driver = Driver(position)
    else:  # the plain walkthrough
        _plain_view(walk, step, index, member)
        driver = Driver(position)
    _write_params(index, custom)
    walk_state.arrive_at_walk_step(index, step.page, step.controls)
    spot = spotlight.shown_now(member, index) if shown == "projection" else None
    if spot is not None:  # a student's exploration on the projector, in place of the step
        _run_spotlight(spot, position, member)
        return
    _run_step(walk, step, index, driver, (drift_box, poll_box))


def _run_spotlight(spot: Spotlight, position: stepper.Position, member: Window | None) -> None:
    """On the projection, the student's page on the student's state, under a banner that says whose it is; the
    projection that drives the room has Back to the lecture (B) in it. The lecture's step and its values are left as
    they were."""
    hosting = isinstance(member, Lecturer) and not member.console
    spotlight.banner(spot, ends=hosting)
    cover = classroom.join_panel if hosting and walk_state.join_shown() else None
    driver = spotlight.driver(spot, replace(position, tools=_projection_tools))
    driver = replace(driver, position=replace(driver.position, cover=cover), details=walk_state.details_shown())
    with driven_by(driver):
        run_script(str(ROOT / FILES[spot.page]))


def _run_step(walk: Walkthrough, step: WalkStep, index: int, driver: Driver, boxes: tuple) -> None:
    """Run the step's page under ``driver``; then (on the console) what the page's run tells the lecturer."""
    drift_box, poll_box = boxes
    try:
        with driven_by(driver):
            run_script(str(ROOT / FILES[step.page]))
    except PageEnded:  # the page ends after its step: say what of the step's controls it could not take
        report_refused(step, index, driver.log)
        if driver.details:
            _details(walk, step)
        raise
    finally:
        poll.say_asked()
        if poll_box is not None:
            with drift_box:
                console.drift(step, index, driver.log)
            with poll_box:
                poll.console_panel(step.page, index)


def _mover(index: int, total: int) -> Callable[[int], None]:
    def move(direction: int) -> None:  # from the step drawn: a callback Streamlit calls twice moves one step
        walk_state.set_walk_position(min(max(index + direction, 0), total - 1))
    return move


def _plain_view(walk: Walkthrough, step: WalkStep, index: int, member: Window | None) -> None:
    """The plain walkthrough's top: where we are, the note, the notebook."""
    lang = state.language()  # the bundled walkthrough's words are in the catalogs; a lecturer's own stay as written
    if not isinstance(member, Student):  # a student explores the lecture's walkthrough, not one of their own
        _own_file_panel()
    st.caption(app_text("walk_where", k=index + 1, n=len(walk.steps), title=translate(walk.title, lang, WALK_CONTEXT),
                        page=page_text(step.page).title, controls=_controls_text(step)))
    if step.note and not isinstance(member, Student):  # the speaker notes are the lecturer's
        st.markdown(f":material/record_voice_over: *{translate(step.note, lang, WALK_CONTEXT)}*")
    _notebook(index)


def _notebook(index: int) -> None:
    """The whole walkthrough as one notebook, at its settings, with this window's matrix, the step on screen
    marked (a link: built when the browser asks for it, ui/lecture/files.py)."""
    files.walkthrough_link(matrix_state.get_matrix(), _packed(), index, state.language())


def _packed() -> str | None:
    """This window's walkthrough file as its link parameter; None for the bundled one."""
    text = walk_state.custom_walkthrough()
    if text is not None:
        return encode(text)
    raw = st.query_params.get(FILE_PARAM)
    return raw[:20_000] if raw else None


def _cover(member: Window | None) -> Callable[[], None] | None:
    """What the projection shows in place of the step: the join panel (J), or the question put to the class."""
    if isinstance(member, Lecturer) and walk_state.join_shown():
        return classroom.join_panel
    return poll.projection_panel if poll.asked() is not None else None


def _projection_tools() -> None:
    """The projection's own buttons, at the end of its line: the class (J), details (D), the presenter console (P)."""
    member = window.current()
    hosting = isinstance(member, Lecturer) and not member.console  # a projection that follows holds no key
    if hosting:  # the class's icon (J), then how many are in it, counted live (classroom.class_count)
        st.button("", key=Key.JOIN_BUTTON, shortcut="j", on_click=walk_state.toggle_join, type="tertiary",
                  icon=":material/group:", help=app_text("projection_class_help"))
        with st.container(key=Key.CLASS_COUNT, width="content"):  # alone in its box: a timed fragment
            classroom.class_count()
    st.button(app_text("projection_details"), key=Key.DETAILS_BUTTON, shortcut="d", on_click=walk_state.toggle_details,
              type="tertiary", help=app_text("projection_details_help"))
    if hosting:
        console.opener(console.token())


def _details(walk: Walkthrough, step: WalkStep) -> None:
    """Below the step, on the projection when asked (D): the walkthrough's title and the page's explanation."""
    st.divider()
    st.caption(translate(walk.title, state.language(), WALK_CONTEXT))
    draw_explanation(step.page)


def report_refused(step: WalkStep, index: int, log: WalkLog) -> None:
    """Say which of the step's control values the page could not take (called before the page ends)."""
    unknown = sorted(set(step.controls) - log.drawn)
    if unknown:
        st.warning(app_text("walk_unknown_controls", k=index + 1, page=step.page, names=", ".join(unknown)))
    for name, value in log.rejected:
        st.warning(app_text("walk_refused_value", k=index + 1, name=name, value=repr(value)))


def _walkthrough() -> tuple[Walkthrough, str | None]:
    """The walkthrough of the link or of an uploaded file, else the bundled one."""
    text = walk_state.custom_walkthrough()
    raw = st.query_params.get(FILE_PARAM)
    try:
        if text is not None:
            return parse(text), encode(text)
        if raw:
            return decode(raw[:20_000]), raw[:20_000]
    except WalkthroughError as exc:
        st.error(app_text("walk_bad_file", error=explain(exc, state.language())))
        walk_state.set_custom_walkthrough(None)
    return load_bundled(), None


def _requested_position(total: int) -> int:
    raw = st.query_params.get(WALK_PARAM, "1")
    return min(max(int(raw) - 1, 0), total - 1) if raw.isdigit() else 0


def _write_params(index: int, custom: str | None) -> None:
    if st.query_params.get(WALK_PARAM) != str(index + 1):
        st.query_params[WALK_PARAM] = str(index + 1)
    if custom is not None and st.query_params.get(FILE_PARAM) != custom:
        st.query_params[FILE_PARAM] = custom


def _controls_text(step: WalkStep) -> str:
    return ", ".join(f"{name} = {value}" for name, value in step.controls.items()) or "—"


def _own_file_panel() -> None:
    """A walkthrough of one's own: prepared before the talk (the projector shows only the steps)."""
    with st.expander(app_text("walk_own_heading")):
        st.markdown(app_text("walk_own_body"))
        st.file_uploader(app_text("walk_upload"), type=["toml"], key=Key.WALK_UPLOAD, on_change=_take_upload)


def _take_upload() -> None:
    file = state.value(Key.WALK_UPLOAD)
    if file is None:
        return
    try:
        text = file.getvalue().decode("utf-8")
        parse(text)
    except (UnicodeDecodeError, WalkthroughError) as exc:
        state.flash("error", app_text("walk_bad_file", error=explain(exc, state.language())), where="page")
        return
    walk_state.set_custom_walkthrough(text)
    walk_state.set_walk_position(0)
