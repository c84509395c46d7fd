"""Step-through: a page's computation one idea at a time, with keys a presentation clicker sends.

The steps are the page's content file's ``[steps.<name>]`` tables, in order, each naming a
step of the page's trace (``"weights"``, or ``"v2.weights"`` for a result with several
traces). Only the steps the current settings recorded are shown: with the causal mask off
there is no ``masked_scores`` step. The step on screen is remembered by name, so when a
control changes, the step stays and its tensor updates in place.

→ and PageDown go forward, ← and PageUp back (presentation clickers send PageDown and PageUp): on a
page, Streamlit's button shortcuts; on the walkthrough, its clicker (ui/steps/clicker.py), which keeps each
press as state so that no press is dropped or counted twice. On a student's device that follows a
lecture, PageDown and PageUp scroll the page, as they do everywhere else: the lecturer moves the step, and ← →
step on one's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention import Trace
from attention.trace import traces_in

from .. import announce, draw
from ..state import Key
from ..words.content import StepText, app_text
from . import clicker
from . import state as step_state

__all__ = ["WALK_KEYS", "Position", "Slide", "slides", "step_through"]

WALK_KEYS = "walk"  # the walkthrough's buttons: step_next:walk ... (a page's own: step_next:<page id>)


@dataclass(frozen=True)
class Slide:
    text: StepText
    trace: Trace
    step: str  # the step's name in ``trace``


def slides(steps: tuple[StepText, ...], result: Any) -> list[Slide]:
    """The page's steps that the result recorded, in the content file's order."""
    traces = traces_in(result)
    found = []
    for text in steps:
        where, _, name = text.name.rpartition(".")
        trace = traces.get(where)
        if trace is not None and name in trace:
            found.append(Slide(text, trace, name))
    return found


@dataclass(frozen=True)
class Position:
    """Where a step-through is: step ``index`` of ``total``, and how to move (a callback per direction)."""

    index: int
    total: int
    move: Callable[[int], None]
    current: str | None = None  # the step to show; None: the first
    title: str | None = None  # on a projection: the section, in the step's one slim line
    tools: Callable[[], None] | None = None  # on a projection: its own buttons, at the end of that line
    cover: Callable[[], None] | None = None  # on a projection: drawn instead of the step (the class's join panel)
    drawn: Callable[..., None] | None = None  # on a projection: handed (page, slide, labels, key labels) it drew


def step_through(page_id: str, steps: tuple[StepText, ...], result: Any, labels: Sequence[str],
                 position: Position | None = None, key_labels: Sequence[str] | None = None) -> bool:
    """Draw the current step with its navigation; False if the page has no step to show.

    Without ``position`` the page's own steps are numbered and stepped through; the chapter
    walkthrough passes its own position instead, so → goes on to its next step, on any page.
    """
    shown = slides(steps, result)
    if not shown:
        return False
    names = [s.text.name for s in shown]
    if position is None:
        step_state.take_pending_step(page_id)
        index = names.index(step_state.current_step(page_id)) if step_state.current_step(page_id) in names else 0
        position = Position(index, len(names), lambda d: _move(page_id, names, index, d))
        slide = shown[index]
        keys = page_id
    else:
        slide = shown[names.index(position.current)] if position.current in names else shown[0]
        keys = WALK_KEYS  # one set of buttons across the walkthrough's pages: never remounted mid-lecture
    _navigation(keys, position)
    announce.note("step", announce.step_sentence(position.index, position.total, slide.text.caption))
    # The cover's place, in every run: emptied at once when there is none. Drawn where the step goes, a cover's
    # last elements (a revealed poll's chart) stayed on screen under the next step until that run ended.
    slot = st.empty()
    if position.cover is not None:
        with slot.container():
            position.cover()
    else:
        slot.empty()
        _draw(slide, labels, key_labels)
        if position.drawn is not None:  # the class's light pages show what the projection drew (ui/follow)
            position.drawn(page_id, slide, labels, key_labels)
    return True


def _move(page_id: str, names: list[str], index: int, direction: int) -> None:
    """From the step the buttons were drawn at: a press that Streamlit hands to its callback twice (a run cut by
    another and started again) still moves one step."""
    target = min(max(index + direction, 0), len(names) - 1)
    step_state.set_current_step(page_id, names[target])


def _navigation(keys: str, position: Position) -> None:
    with st.container(key=Key.CLICKER):  # hidden by ui/shell/style.css: the keys a presentation clicker sends
        if keys == WALK_KEYS:  # the walkthrough's, kept as state (a trigger can be dropped; state cannot)
            clicker.mount(position.total)
        else:
            st.button("PageUp", key=f"{Key.STEP_PAGEUP_PREFIX}{keys}", shortcut="PageUp", on_click=position.move,
                      args=(-1,))
            st.button("PageDown", key=f"{Key.STEP_PAGEDOWN_PREFIX}{keys}", shortcut="PageDown",
                      on_click=position.move, args=(1,))
    if position.title is not None:
        _slim_navigation(keys, position)
    else:
        _row_navigation(keys, position)


def _slim_navigation(keys: str, position: Position) -> None:
    """The projection's one line: the section, "Step k of n", small Back/Next, and the projection's tools."""
    with st.container(key=Key.PROJECTION_BAR, horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(position.title, width="stretch")
        with st.container(key=_where_key(keys, position), width="content"):
            st.markdown(app_text("step_of", k=position.index + 1, n=position.total), width="content")
        _arrows(keys, position, app_text("step_back"), app_text("step_next"))
        if position.tools is not None:
            position.tools()


def _arrows(keys: str, position: Position, back_help: str, next_help: str) -> None:
    """A slim line's small ← → (and their keys), with their help texts (in the learner's words)."""
    st.button("", icon=":material/arrow_back:", key=f"{Key.STEP_BACK_PREFIX}{keys}",
              shortcut=_shortcut(keys, position, "Left"), on_click=position.move, args=(-1,),
              disabled=position.index == 0, type="tertiary", help=back_help)
    st.button("", icon=":material/arrow_forward:", key=f"{Key.STEP_NEXT_PREFIX}{keys}",
              shortcut=_shortcut(keys, position, "Right"), on_click=position.move, args=(1,),
              disabled=position.index == position.total - 1, type="tertiary", help=next_help)


def _where_key(keys: str, position: Position) -> str | None:
    """The walkthrough's "Step k of n" names its step (walk-at-<k>), for a script or a test to read the step a
    lecturer's window shows. A page's own step-through needs no key."""
    return f"{Key.WALK_AT_PREFIX}{position.index + 1}" if keys == WALK_KEYS else None


def _shortcut(keys: str, position: Position, key: str) -> str | None:
    """A step button's key: none on the walkthrough, whose clicker takes the keys; a page's own."""
    return key if keys != WALK_KEYS else None


def _row_navigation(keys: str, position: Position) -> None:
    """Back, "Step k of n", Next. A shortcut's hint shows its arrow; the walkthrough's (its clicker's keys) an icon."""
    back, where, forward = st.columns([1, 3, 1], vertical_alignment="center")
    walk = keys == WALK_KEYS
    back.button(app_text("step_back"), key=f"{Key.STEP_BACK_PREFIX}{keys}", shortcut=_shortcut(keys, position, "Left"),
                icon=":material/arrow_back:" if walk else None, width="stretch", on_click=position.move, args=(-1,),
                disabled=position.index == 0)
    where.container(key=_where_key(keys, position)).markdown(app_text("step_of", k=position.index + 1,
                                                                       n=position.total))
    forward.button(app_text("step_next"), key=f"{Key.STEP_NEXT_PREFIX}{keys}",
                   shortcut=_shortcut(keys, position, "Right"), icon=":material/arrow_forward:" if walk else None,
                   width="stretch", on_click=position.move, args=(1,), type="primary",
                   disabled=position.index == position.total - 1)


def _draw(slide: Slide, labels: Sequence[str], key_labels: Sequence[str] | None) -> None:
    """What is new at this step, large: the tensor, the formula term, the lines of code. A grid of heads takes
    the whole width, the formula and the code under it: beside them, its numbers would shrink below 20 px on
    a 1280 px projection."""
    if draw.per_head(slide.trace, slide.step):
        drawing = words = st.container()
    else:
        drawing, words = draw.side_by_side("step", [3, 2])
    with drawing:
        _picture(slide, labels, key_labels)
    with words:
        _words(slide)
        draw.show_step_code(slide.trace, slide.step, lines=False)  # the fold: a widget


def _picture(slide: Slide, labels: Sequence[str], key_labels: Sequence[str] | None) -> None:
    draw.step_heading(slide.text.caption)
    draw.show_step(slide.trace, slide.step, labels, key_labels)


def _words(slide: Slide) -> None:
    if slide.text.formula:
        draw.show_formula(slide.text.formula)
    draw.show_step_code(slide.trace, slide.step, whole=False)


