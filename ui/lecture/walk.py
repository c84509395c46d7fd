"""The /walkthrough page: one walkthrough step at a time, each shown on its real, live page.

The walkthrough page runs the step's own page script inside itself, with the walkthrough's
own control values and the step on screen set by the walkthrough; the page's Back/Next (and
← → PageUp PageDown) then move through the walkthrough, across pages.

It has three views of one deck (ui/lecture/deck.py):
- the **projection** (lecture mode): one slim line, then the step's visual filling the screen; no
  speaker note, and the explanation and controls one key (D) away; P opens the console;
- the **presenter console** (ui/lecture/console.py): the note, the next step, the clock, the list of
  steps, and the same live step with its controls;
- the **plain** walkthrough, for reading alone: the note and the page under it.
The projection and its console share a room (ui/lecture/sync.py): each follows the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from .. import state
from ..chapter import PAGES
from ..page import Page, draw_explanation
from ..script import PageEnded, run_script
from ..state import Key
from ..words.content import app_text, page_text
from ..words.i18n import WALK_CONTEXT, explain, translate
from . import classroom, console, poll, sync
from . import state as walk_state
from .rooms import RoomError
from .walkthrough import FILE_PARAM, WalkStep, Walkthrough, WalkthroughError, decode, encode, load_bundled, parse

__all__ = ["WalkContext", "view", "walkthrough"]

ROOT = Path(__file__).resolve().parents[2]
FILES = {p.page_id: p.file for p in PAGES}
WALK_PARAM = "walk"  # ?walk=<step number>


@dataclass(frozen=True)
class WalkContext:
    """The walkthrough step that is driving a page now."""

    step: WalkStep
    index: int
    total: int
    projection: bool = False  # drawn on the projection: a slim line, the step, the rest folded
    details: bool = False  # the projection shows its explanation and controls too
    tools: Callable[[], None] | None = None  # the projection's buttons at the end of its line
    cover: Callable[[], None] | None = None  # drawn instead of the step: the class's join panel (J)

    def move(self, direction: int) -> None:
        walk_state.set_walk_position(min(max(self.index + direction, 0), self.total - 1))


def view() -> str:
    """Which view of the walkthrough this window draws: "projection", "console" or "plain"."""
    if state.lecture_mode():
        return "projection"
    member = walk_state.membership()
    return "console" if member is not None and member.role == "console" else "plain"


def walkthrough(page: Page) -> None:
    """Draw the walkthrough's current step in this window's view, then the step's live page."""
    sync.publish()  # Back/Next and the controls' callbacks have run: the other window hears of it now,
    sync.follow()  # and what the other window did since this one last ran is taken (after: ours is newer)
    walk, custom = _walkthrough()
    if (member := walk_state.membership()) is not None:
        member.steps = len(walk.steps)
    if walk_state.first_run_of_walkthrough() and (member is None or not member.following or member.role == "host"):
        # ?walk= is this window's own step, unless it follows a room (a console, a student who follows)
        walk_state.set_walk_position(_requested_position(len(walk.steps)))
    index = min(walk_state.walk_position(), len(walk.steps) - 1)
    step = walk.steps[index]
    shown = view()
    poll_box = None
    lang = state.language()  # the bundled walkthrough's words are in the catalogs; a lecturer's own stay as written
    context = WalkContext(step, index, len(walk.steps))
    if shown == "projection":  # the step is the screen: no note, no title; details and console one key away
        hosting = _host()
        context = WalkContext(step, index, len(walk.steps), projection=True, details=walk_state.details_shown(),
                              tools=_projection_tools, cover=_cover(hosting))
    elif shown == "console":
        console.console(walk, index, own_file=_own_file_panel)
        poll_box = st.container()  # filled once the step's page has run: its live result judges the answers
    else:
        if member is None or member.role != "student":  # a student follows the lecturer's walkthrough
            _own_file_panel()
        st.caption(app_text("walk_where", k=index + 1, n=len(walk.steps),
                            title=translate(walk.title, lang, WALK_CONTEXT), page=page_text(step.page).title,
                            controls=_controls_text(step)))
        held = poll.holds_step()  # a question is open: the step (and the note) would give its answer away
        if step.note and not held:
            st.markdown(f":material/record_voice_over: *{translate(step.note, lang, WALK_CONTEXT)}*")
        context = WalkContext(step, index, len(walk.steps), cover=poll.step_held if held else None)
    _write_params(index, custom)
    walk_state.arrive_at_walk_step(index, step.page, step.controls)
    state.set_walk_active(context)
    try:
        run_script(str(ROOT / FILES[step.page]))
    except PageEnded:  # the page ends after its step: say what of the step's controls it could not take
        report_refused(state.walk_active())
        if context.details:
            _details(walk, step)
        raise
    finally:
        state.set_walk_active(None)
        if poll_box is not None:
            with poll_box:
                poll.console_panel(step.page, index)
        sync.publish(final=True)  # what the page itself changed (a step's own control values); the class may follow


def _cover(hosting: bool) -> Callable[[], None] | None:
    """What the projection shows in place of the step: the join panel (J), or the question put to the class."""
    if hosting and walk_state.join_shown():
        return classroom.join_panel
    return poll.projection_panel if poll.asked() is not None else None


def _host() -> bool:
    """The projection's room (made on its first run); False, with the reason on screen, if none could be made.
    A projection reloaded from its address (``room=<id>``, no key) follows that room instead of opening another."""
    member = walk_state.membership()
    if member is not None and member.role == "student":
        st.caption(app_text("projection_follows"))
        return False
    try:
        sync.host()
    except RoomError as exc:
        st.warning(classroom.refusal(exc))
        return False
    return True


def _projection_tools() -> None:
    """The projection's own buttons, at the end of its line: the class (J), details (D), the presenter console (P)."""
    member = walk_state.membership()
    hosting = member is not None and member.role == "host"  # a projection that follows holds no key to share
    if hosting:
        st.button(str(sync.attendance()), key=Key.JOIN_BUTTON, shortcut="j",  # the count, by the class's icon
                  on_click=walk_state.toggle_join, type="tertiary", icon=":material/group:",
                  help=app_text("projection_class_help"))
    st.button(app_text("projection_details"), key=Key.DETAILS_BUTTON, shortcut="d", on_click=walk_state.toggle_details,
              type="tertiary", help=app_text("projection_details_help"))
    if hosting:
        console.opener(sync.token())


def _details(walk: Walkthrough, step: WalkStep) -> None:
    """Below the step, on the projection when asked (D): the walkthrough's title and the page's explanation."""
    st.divider()
    st.caption(translate(walk.title, state.language(), WALK_CONTEXT))
    draw_explanation(step.page)


def report_refused(context: WalkContext) -> None:
    """Say which of the step's control values the page could not take (called before the page ends)."""
    unknown = sorted(set(context.step.controls) - state.walk_drawn())
    refused = state.walk_rejected()
    if unknown:
        st.warning(app_text("walk_unknown_controls", k=context.index + 1, page=context.step.page,
                            names=", ".join(unknown)))
    for name, value in refused:
        st.warning(app_text("walk_refused_value", k=context.index + 1, name=name, value=repr(value)))


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
    file = state.value("walk_upload")
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
