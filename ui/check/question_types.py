"""What a question is, as plain data: its kinds, the live state it is asked on (:class:`Live`), its answer, a
verdict on what the learner gave, and the helpers that build an answer from a page's result.

Apart from the questions themselves (self_attention.py, causal_and_heads.py), the judging (judging.py) and the
registry (questions.py), which all speak of these.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from attention import Trace

__all__ = ["CHOICE", "GENERIC", "KINDS", "MAPPING", "NUMBER", "PREDICT", "ROLES", "SHAPE", "TASK", "Answer", "Live",
           "Question", "Unavailable", "Verdict"]

NUMBER, CHOICE, SHAPE, PREDICT, TASK, MAPPING = "number", "choice", "shape", "predict", "task", "mapping"
KINDS = (NUMBER, CHOICE, SHAPE, PREDICT, TASK, MAPPING)
ROLES = ("W_query", "W_key", "W_value")
# Feedback every question may give without words of its own (app-wide: check_<name> in _app.toml).
GENERIC = ("correct", "wrong", "too_high", "too_low", "rank", "book")


@dataclass(frozen=True)
class Live:
    """What a page computed, for its questions."""

    result: Any  # the page's typed result: a Trace or a result record
    labels: tuple[str, ...]  # the tokens' names
    inputs: torch.Tensor  # the (T, d_in) input matrix
    given: Mapping[str, Any] = field(default_factory=dict)  # settings the page passes (query index, heads...)
    book: Live | None = None  # the same page at the book's matrix and settings, while the learner's differ


@dataclass(frozen=True)
class Verdict:
    correct: bool
    feedback: str  # "correct", a generic name (GENERIC) or one of the question's mistakes
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A question's answer under the live inputs, and what its words need."""

    value: Any  # a float, a shape tuple, an option id; for tasks and mappings, what the check depends on
    fields: Mapping[str, Any] = field(default_factory=dict)  # fill the prompt and the feedback
    mistakes: Mapping[str, Any] = field(default_factory=dict)  # mistake -> the answer it gives (a choice: or a tuple)
    options: tuple[str, ...] = ()  # choices, by id, in order
    labels: Mapping[str, str] = field(default_factory=dict)  # names of choices that are not option_<id> words
    whole: bool = False  # a count: shown as a whole number
    reveal: tuple[Trace, str] | None = None  # predict: the step drawn beside the guess once committed
    check: Callable[[Any], Verdict] | None = None  # tasks and mappings: how an answer is judged


@dataclass(frozen=True)
class Unavailable:
    """The question cannot be asked with these settings; ``reason`` names its unavailable_<reason> words."""

    reason: str


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    answer: Callable[[Live], Answer | Unavailable]
    mistakes: tuple[str, ...] = ()  # every feedback_<name> it may give (the content test checks the words)
    options: tuple[str, ...] = ()  # choices named in the content file (option_<id>)
    unavailable: tuple[str, ...] = ()  # reasons it may be unavailable (unavailable_<reason>)


# ----- helpers over results -------------------------------------------------------------------------


def _f(t: torch.Tensor | float) -> float:
    return float(t)


def _tokens(live: Live) -> tuple[tuple[str, ...], dict[str, str]]:
    """Choices over the tokens: ids "0".."T-1" and their names as the page shows them."""
    ids = tuple(str(i) for i in range(len(live.labels)))
    return ids, {str(i): f"x({i + 1}) “{t}”" for i, t in enumerate(live.labels)}


def _token_answer(live: Live, index: int, fields: Mapping[str, Any], mistakes: Mapping[str, int],
                  **more: Any) -> Answer:
    ids, names = _tokens(live)
    return Answer(str(index), fields, {m: str(i) for m, i in mistakes.items() if i != index}, ids, names, **more)


def _applied(trace: Trace) -> torch.Tensor:
    return trace.applied_weights.tensor


def _digest(*tensors: torch.Tensor) -> str:
    h = hashlib.sha1()
    for t in tensors:
        h.update(t.detach().contiguous().float().numpy().tobytes())
    return h.hexdigest()
