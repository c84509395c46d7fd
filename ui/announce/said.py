"""Sentences that say what a page shows now, for a screen reader: built from the page's live result.

Plain Python over the package's results (no Streamlit); the words are the app's (``say_*`` in _app.toml).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attention import Trace
from attention.trace import traces_in

from ..words.content import app_text, label_number

__all__ = ["dropout_sentence", "heads_sentence", "mask_sentence", "step_sentence", "weights_sentence"]


def _trace(result: Any) -> Trace | None:
    """The trace a page's result draws its weights from: the result itself, a record's ``trace``, or its ``v2``."""
    traces = traces_in(result)
    return traces[""] if "" in traces else traces.get("v2")


def weights_sentence(result: Any, labels: Sequence[str], given: Mapping[str, Any]) -> str | None:
    """Where the page's query puts most of its weight: "the query “journey” attends most to itself, 0.2379"."""
    trace = _trace(result)
    query = int(given.get("query", min(1, len(labels) - 1)))  # the page's query; else "journey", as the book
    strongest = trace.strongest_key(query) if trace is not None else None
    if strongest is None:
        return None
    top, weight = strongest
    names = list(labels)
    token = names[query] if query < len(names) else str(query + 1)
    to = app_text("say_itself") if top == query else f"“{names[top] if top < len(names) else top + 1}”"
    return app_text("say_weights", token=token, top=to, weight=label_number(weight))


def mask_sentence(result: Any) -> str | None:
    """Whether the causal mask is on, and how many cells it hides."""
    trace = _trace(result)
    if trace is None or trace.strongest_key(0) is None:  # no weights: nothing a mask could hide
        return None
    if trace.mask is None:
        return app_text("say_mask_off")
    return app_text("say_mask_on", n=trace.hidden_count())


def dropout_sentence(p: float, training: bool) -> str:
    """What dropout does now: nothing in eval mode (or at p = 0), else the share it zeroes and the scale of the rest."""
    if not training:
        return app_text("say_dropout_off")
    if p <= 0:
        return app_text("say_dropout_none")
    return app_text("say_dropout_on", p=label_number(p), scale=label_number(1 / (1 - p)))


def heads_sentence(result: Any, given: Mapping[str, Any]) -> str | None:
    """How many heads, and the shape of what they return together (a page that sets the heads)."""
    trace = _trace(result)
    if trace is None or "heads" not in given or not trace.steps:
        return None
    return app_text("say_heads", heads=int(given["heads"]), shape=tuple(trace.output.shape))


def step_sentence(index: int, total: int, caption: str) -> str:
    return app_text("say_step", k=index + 1, n=total, caption=caption.rstrip("."))
