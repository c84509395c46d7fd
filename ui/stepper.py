"""Step-through: a page's computation one idea at a time, with keys a presentation clicker sends.

The steps are the page's content file's ``[steps.<name>]`` tables, in order, each naming a
step of the page's trace (``"weights"``, or ``"v2.weights"`` for a result with several
traces). Only the steps the current settings recorded are shown: with the causal mask off
there is no ``masked_scores`` step. The step on screen is remembered by name, so when a
control changes, the step stays and its tensor updates in place.

→ and PageDown go forward, ← and PageUp back (Streamlit's button shortcuts; presentation
clickers send PageDown and PageUp).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention import Trace

from . import draw, state
from .content import StepText, app_text

__all__ = ["Slide", "slides", "step_through"]


@dataclass(frozen=True)
class Slide:
    text: StepText
    trace: Trace
    step: str  # the step's name in ``trace``


def _traces(result: Any) -> dict[str, Trace]:
    """The result's traces by name: "" for a plain Trace or a record's ``trace`` field."""
    if isinstance(result, Trace):
        return {"": result}
    found = {name: value for name, value in vars(result).items() if isinstance(value, Trace)}
    if "trace" in found:
        found[""] = found.pop("trace")
    return found


def slides(steps: tuple[StepText, ...], result: Any) -> list[Slide]:
    """The page's steps that the result recorded, in the content file's order."""
    traces = _traces(result)
    found = []
    for text in steps:
        where, _, name = text.name.rpartition(".")
        trace = traces.get(where)
        if trace is not None and name in trace:
            found.append(Slide(text, trace, name))
    return found


def step_through(page_id: str, steps: tuple[StepText, ...], result: Any, labels: list[str],
                 on_past_end: Callable[[int], bool] | None = None) -> bool:
    """Draw the current step with its navigation; False if the page has no step to show.

    ``on_past_end(direction)`` is asked before moving past the first or last step (the
    chapter walkthrough moves on to the next page); it returns whether it handled the move.
    """
    shown = slides(steps, result)
    if not shown:
        return False
    names = [s.text.name for s in shown]
    current = state.current_step(page_id)
    index = names.index(current) if current in names else 0
    _navigation(page_id, names, index, on_past_end)
    _draw(shown[index], labels)
    return True


def _move(page_id: str, names: list[str], index: int, direction: int,
          on_past_end: Callable[[int], bool] | None) -> None:
    target = index + direction
    if 0 <= target < len(names):
        state.set_current_step(page_id, names[target])
    elif on_past_end is not None:
        on_past_end(direction)


def _navigation(page_id: str, names: list[str], index: int, on_past_end: Callable[[int], bool] | None) -> None:
    args = (page_id, names, index)
    back, where, forward = st.columns([1, 3, 1], vertical_alignment="center")
    back.button(app_text("step_back"), key=f"step_back:{page_id}", shortcut="Left", width="stretch",
                on_click=_move, args=(*args, -1, on_past_end), icon=":material/arrow_back:")
    where.markdown(app_text("step_of", k=index + 1, n=len(names)))
    forward.button(app_text("step_next"), key=f"step_next:{page_id}", shortcut="Right", width="stretch",
                   on_click=_move, args=(*args, 1, on_past_end), icon=":material/arrow_forward:", type="primary")
    with st.container(key="clicker"):  # hidden by ui/style.css: the keys a presentation clicker sends
        st.button("PageUp", key=f"step_pageup:{page_id}", shortcut="PageUp", on_click=_move,
                  args=(*args, -1, on_past_end))
        st.button("PageDown", key=f"step_pagedown:{page_id}", shortcut="PageDown", on_click=_move,
                  args=(*args, 1, on_past_end))


def _draw(slide: Slide, labels: list[str]) -> None:
    """What is new at this step, large: the tensor, the formula term, the lines of code."""
    drawing, words = st.columns([3, 2])
    with drawing:
        st.markdown(f"**{slide.text.caption}**")
        draw.show_step(slide.trace, slide.step, labels)
    with words:
        if slide.text.formula:
            st.latex(slide.text.formula)
        draw.show_step_code(slide.trace, slide.step)
