"""Step-through: a page's computation one idea at a time, with keys a presentation clicker sends.

The steps are the page's content file's ``[steps.<name>]`` tables, in order, each naming a
step of the page's trace (``"weights"``, or ``"v2.weights"`` for a result with several
traces). Only the steps the current settings recorded are shown: with the causal mask off
there is no ``masked_scores`` step. The step on screen is remembered by name, so when a
control changes, the step stays and its tensor updates in place.

→ and PageDown go forward, ← and PageUp back (presentation clickers send PageDown and PageUp): on a
page, Streamlit's button shortcuts; on the walkthrough, its clicker (ui/steps/clicker.py), which keeps each
press as state so that a lecture window's heartbeat cannot drop it. On a student's device that follows a
lecture, PageDown and PageUp scroll the page, as they do everywhere else: the lecturer moves the step, and ← →
step on one's own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention import Trace
from attention.trace import traces_in

from .. import announce, draw, state
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
    follower: bool = False  # a student's device following a lecture: one slim line, PageDown/PageUp scroll the page
    under: Callable[[], None] | None = None  # drawn under the step (a student's device: the notes, when shared)
    drawn: Callable[..., None] | None = None  # on a projection: handed (page, slide, labels, key labels) it drew


def step_through(page_id: str, steps: tuple[StepText, ...], result: Any, labels: Sequence[str],
                 position: Position | None = None, key_labels: Sequence[str] | None = None,
                 shared: bool = False) -> bool:
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
    caption = slide.text.caption
    if position.follower:  # the lecturer moved: a student's screen reader hears where to
        announce.note("lecture", announce.lecture_sentence(position.index, position.total, position.title or "",
                                                           caption))
    else:
        announce.note("step", announce.step_sentence(position.index, position.total, caption))
    # The cover's place, in every run: emptied at once when there is none. Drawn where the step goes, a cover's
    # last elements (a revealed poll's chart) stayed on screen under the next step until that run ended.
    slot = st.empty()
    if position.cover is not None:
        with slot.container():
            position.cover()
    else:
        slot.empty()
        _draw(slide, labels, key_labels, shared)
        if position.drawn is not None:  # the class's light pages show what the projection drew (ui/follow)
            position.drawn(page_id, slide, labels, key_labels)
    if position.under is not None:
        position.under()
    return True


def _move(page_id: str, names: list[str], index: int, direction: int) -> None:
    """From the step the buttons were drawn at: a press that Streamlit hands to its callback twice (a run cut by
    another and started again) still moves one step."""
    target = min(max(index + direction, 0), len(names) - 1)
    step_state.set_current_step(page_id, names[target])


def _navigation(keys: str, position: Position) -> None:
    if position.follower:
        _follower_navigation(keys, position)
        return  # no clicker keys: PageDown and PageUp scroll a student's page (their line says the step)
    with st.container(key=Key.CLICKER):  # hidden by ui/shell/style.css: the keys a presentation clicker sends
        if keys == WALK_KEYS:  # the walkthrough's, kept as state (a lecture window's heartbeat drops a trigger)
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


def _follower_navigation(keys: str, position: Position) -> None:
    """A following student's one line under theirs: the section, and small Back/Next to step on their own."""
    with st.container(key=Key.FOLLOWER_BAR, horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(position.title or "", width="stretch")
        _arrows(keys, position, app_text("step_back_own"), app_text("step_next_own"))


def _arrows(keys: str, position: Position, back_help: str, next_help: str) -> None:
    """A slim line's small ← → (and their keys), with their help texts (in the learner's words)."""
    st.button("", icon=":material/arrow_back:", key=f"{Key.STEP_BACK_PREFIX}{keys}",
              shortcut=_shortcut(keys, position, "Left"), on_click=position.move, args=(-1,),
              disabled=position.index == 0, type="tertiary", help=back_help)
    st.button("", icon=":material/arrow_forward:", key=f"{Key.STEP_NEXT_PREFIX}{keys}",
              shortcut=_shortcut(keys, position, "Right"), on_click=position.move, args=(1,),
              disabled=position.index == position.total - 1, type="tertiary", help=next_help)


def _where_key(keys: str, position: Position) -> str | None:
    """The walkthrough's "Step k of n" names its step (walk-at-<k>): a lecturer window's watchdog compares it with
    the step its session drew (ui/lecture/watchdog.js). A page's own step-through needs no key."""
    return f"{Key.WALK_AT_PREFIX}{position.index + 1}" if keys == WALK_KEYS else None


def _shortcut(keys: str, position: Position, key: str) -> str | None:
    """A step button's key: none on the walkthrough, whose clicker takes the keys; a page's own, and a following
    student's (they step on their own, and their device has no clicker)."""
    return key if keys != WALK_KEYS or position.follower else None


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


def _draw(slide: Slide, labels: Sequence[str], key_labels: Sequence[str] | None, shared: bool) -> None:
    """What is new at this step, large: the tensor, the formula term, the lines of code. A grid of heads takes
    the whole width, the formula and the code under it: beside them, its numbers would shrink below 20 px on
    a 1280 px projection.

    ``shared``: a following student's step, whose drawing every follower of the class may replay. The first
    follower's drawing is kept for the process and the others replay it (``st.cache_data`` replays the elements a
    cached function drew), without building its chart and text again: that building was most of a follower's run
    (benchmarks/PROFILE-ROOM.md). A replay is keyed by what the drawing reads (:func:`_drawn_from`), never by
    where it came from: two steps that share a name in different traces (3.4.2's ``v1.context`` and
    ``v2.context``) once shared a key, and every follower was shown v1's numbers under v2's heading."""
    if draw.per_head(slide.trace, slide.step):
        drawing = words = st.container()
    else:
        drawing, words = draw.side_by_side("step", [3, 2])
    key = _drawn_from(slide, labels, key_labels) if shared else None
    with drawing:
        _picture(slide, labels, key_labels) if key is None else _shared_picture(key, slide, labels, key_labels)
    with words:
        _words(slide) if key is None else _shared_words(key, slide)
        draw.show_step_code(slide.trace, slide.step, lines=False)  # the fold: a widget, drawn by every session


def _picture(slide: Slide, labels: Sequence[str], key_labels: Sequence[str] | None) -> None:
    draw.step_heading(slide.text.caption)
    draw.show_step(slide.trace, slide.step, labels, key_labels)


def _words(slide: Slide) -> None:
    if slide.text.formula:
        draw.show_formula(slide.text.formula)
    draw.show_step_code(slide.trace, slide.step, whole=False)


def _drawn_from(slide: Slide, labels: Sequence[str], key_labels: Sequence[str] | None) -> str:
    """A digest of everything a step's drawing reads: the step's words (its full name, caption and formula), its
    whole trace (every step's name, axes, meaning, fields, values and the code that recorded it, and the mask), the
    labels, and how the reader draws (language, lecture mode, screen). Equal digests, equal drawings: a replay
    cannot show other numbers than the session would have drawn itself. A follower's matrix is at most
    ui/page.py's REMEMBER_UP_TO cells, so hashing the trace costs microseconds."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (repr(slide.text), slide.step, tuple(labels), tuple(key_labels or ()), state.language(),
                 state.lecture_mode(), draw.narrow_screen()):
        digest.update(repr(part).encode())
    for step in slide.trace:
        where = None if step.where is None else (step.where.code.co_filename, step.where.code.co_qualname,
                                                 step.where.line)
        digest.update(repr((step.name, step.dims, str(step.tensor.dtype), step.shape, step.meaning,
                            sorted(step.fields.items()), where)).encode())
        digest.update(step.tensor.contiguous().numpy().tobytes())
    mask = slide.trace.mask
    digest.update(b"no mask" if mask is None else repr(tuple(mask.shape)).encode() + mask.numpy().tobytes())
    return digest.hexdigest()


# Keyed by ``key`` alone (Streamlit hashes no argument whose name starts with "_"): the same key, the same step.
@st.cache_data(max_entries=64, show_spinner=False)
def _shared_picture(key: str, _slide: Slide, _labels: Sequence[str], _key_labels: Sequence[str] | None) -> None:
    _picture(_slide, _labels, _key_labels)


@st.cache_data(max_entries=64, show_spinner=False)
def _shared_words(key: str, _slide: Slide) -> None:
    _words(_slide)
