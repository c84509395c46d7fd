"""One record type for every computation's named intermediates.

A :class:`Trace` is an ordered list of :class:`Step` objects: each has a short
machine name (``"scores"``), the tensor, the names of its axes (so a chart
knows which axis is the query and which the key), and a one-line meaning.
Computations append to a trace as they go; pages read from it and never
recompute. A disabled trace (:data:`NO_TRACE`) ignores ``add``, so one code
path serves the plain ``forward`` and the fully recorded one.

The trace also keeps the one answer to "which cells were hidden?": the mask a
computation applied (True where a key was hidden from a query), see
:meth:`Trace.hidden_cells`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

import torch

from .errors import ExplainedValueError, named

__all__ = ["Comparison", "NO_TRACE", "STEP_MEANINGS", "Step", "Trace", "Where", "traces_in"]

# What the steps every section shares mean; a computation may say more for its own steps.
STEP_MEANINGS: dict[str, str] = {
    "inputs": "the input embeddings x(1)..x(T)",
    "queries": "queries = x W_query",
    "keys": "keys = x W_key",
    "values": "values = x W_value",
    "scores": "dot product of every query with every key",
    "masked_scores": "scores with the hidden keys filled in, so they get weight 0",
    "scaled_scores": "scores divided by sqrt(d_k)",
    "weights": "attention weights: each query's row sums to 1",
    "dropped_weights": "weights after dropout: dropped cells are 0, survivors scaled by 1/(1-p)",
    "context": "context vectors: weighted sums of the value vectors",
}


@dataclass(frozen=True)
class Where:
    """The code that recorded a step: the function's code object and the line of the ``add`` call."""

    code: CodeType
    line: int


# Helpers that pass other functions' tensors on: a step's place is their caller's.
_RELAYS = {"add", "extend", "record_qkv"}


def _caller() -> Where | None:
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_name in _RELAYS:
        frame = frame.f_back
    return None if frame is None else Where(frame.f_code, frame.f_lineno)


@dataclass(frozen=True)
class Step:
    """One named intermediate of a computation, and where in the code it was computed."""

    name: str
    tensor: torch.Tensor
    dims: tuple[str, ...]
    meaning: str  # English, a str.format template when ``fields`` fill it in
    where: Where | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"d_k": 2} for "... sqrt({d_k})"

    def describe(self) -> str:
        """The meaning in English, its fields filled in; a field that is itself a meaning (a step
        copied per head) is filled too. An app may translate ``meaning`` first (ui/i18n.fill)."""
        if not self.fields:
            return self.meaning
        inner = {k: v.format(**self.fields) if isinstance(v, str) else v for k, v in self.fields.items()}
        return self.meaning.format(**inner)

    def __post_init__(self) -> None:
        if len(self.dims) != self.tensor.dim():
            raise ExplainedValueError(
                "step {name!r}: {count} axis names {dims} for a tensor "
                "of shape {shape}",
                name=self.name, count=len(self.dims), dims=self.dims, shape=tuple(self.tensor.shape),
            )

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.tensor.shape)

    def shape_text(self) -> str:
        """The shape with axis names, e.g. ``(batch: 2, token: 6, d_out: 2)``; empty for a single number.
        (``key=6`` read as "the key equals 6".)"""
        if not self.dims:
            return ""
        return "(" + ", ".join(f"{d}: {s}" for d, s in zip(self.dims, self.shape, strict=True)) + ")"


@dataclass
class Trace:
    """Ordered, named intermediates of one computation."""

    steps: list[Step] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    enabled: bool = True
    only: frozenset[str] | None = None
    mask: torch.Tensor | None = None  # True where a key was hidden; broadcasts to the weights

    @classmethod
    def keeping(cls, *names: str) -> Trace:
        """A trace that records only the named steps (cheap at large sizes)."""
        return cls(only=frozenset(names))

    @classmethod
    def off(cls) -> Trace:
        """A trace that records nothing (like :data:`NO_TRACE`)."""
        return cls(enabled=False)

    def wants(self, name: str) -> bool:
        """Whether ``add(name, ...)`` would record the step."""
        return self.enabled and (self.only is None or name in self.only)

    def add(self, name: str, tensor: torch.Tensor, dims: tuple[str, ...], meaning: str | None = None,
            where: Where | None = None, fields: Mapping[str, Any] | None = None) -> None:
        """Record a step; ``meaning`` defaults to the shared one in :data:`STEP_MEANINGS`.

        ``meaning`` is a literal English sentence, or a template that ``fields`` fill in (so an
        app can translate the sentence and keep the numbers). ``where`` defaults to the line
        that called ``add`` (a step copied from another trace keeps its own).
        """
        if not self.wants(name):
            return
        if name in self:
            raise ExplainedValueError("trace already has a step named {name!r}", name=name)
        text = meaning if meaning is not None else STEP_MEANINGS.get(name, name)
        self.steps.append(Step(name, tensor.detach(), tuple(dims), text, where or _caller(), dict(fields or {})))

    def add_mask(self, hidden: torch.Tensor) -> None:
        """Remember which cells the computation hid (True = hidden from the query)."""
        if self.enabled:
            self.mask = hidden.detach().bool()

    def compare(self, label_a: str, a: torch.Tensor, label_b: str, b: torch.Tensor) -> None:
        """Record that two methods should agree, with their largest difference."""
        if self.enabled:
            self.comparisons.append(Comparison.of(label_a, a, label_b, b))

    def __contains__(self, name: object) -> bool:
        return any(s.name == name for s in self.steps)

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.step(name).tensor

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def step(self, name: str) -> Step:
        return named(self.steps, name, "step")

    def names(self) -> list[str]:
        return [s.name for s in self.steps]

    @property
    def output(self) -> torch.Tensor:
        """The result of the computation: the step "output", else "context", else the last one."""
        if not self.steps:
            raise ExplainedValueError("empty trace has no output")
        for name in ("output", "context"):
            if name in self:
                return self[name]
        return self.steps[-1].tensor

    @property
    def applied_weights(self) -> Step:
        """The weights that multiplied the values: after dropout if dropout ran, else the softmax
        (the masked one where a trace records the weights before and after the mask, as 3.5.1's)."""
        for name in ("dropped_weights", "masked_weights"):
            if name in self:
                return self.step(name)
        return self.step("weights")

    def hidden_cells(self, index: tuple[int, ...] = ()) -> torch.Tensor | None:
        """Where keys were hidden from queries, shaped like ``applied_weights[index]``; None if nothing was."""
        if self.mask is None:
            return None
        shape = self.applied_weights.shape
        return torch.broadcast_to(self.mask, shape)[index] if index else torch.broadcast_to(self.mask, shape)

    def strongest_key(self, query: int) -> tuple[int, float] | None:
        """Where one query puts most of its applied weight: (key, weight), for the first sequence and head; None
        where the trace has no weights. A query past the last row reads the last."""
        if not any(name in self for name in ("weights", "masked_weights", "dropped_weights")):
            return None
        weights = self.applied_weights.tensor
        while weights.dim() > 2:  # (batch, head, query, key) -> (query, key): the first sequence's first head
            weights = weights[0]
        if weights.numel() == 0:
            return None
        row = weights if weights.dim() == 1 else weights[min(query, weights.shape[0] - 1)]  # (key,)
        top = int(row.argmax())
        return top, float(row[top])

    def hidden_count(self) -> int:
        """How many (query, key) cells the mask hides in one head of one sequence: 15 for six causal tokens."""
        hidden = self.hidden_cells()
        if hidden is None:
            return 0
        while hidden.dim() > 2:  # (batch, head, query, key) -> (query, key)
            hidden = hidden[0]
        return int(hidden.sum())

    def hides(self, name: str) -> bool:
        """Whether step ``name`` carries the mask: every hidden cell of it is 0 or -inf.

        True for the masked scores and the weights after masking (or dropout), for a (query, key)
        matrix or one query's vector over the keys; False for the weights computed before the mask
        (3.5.1 shows both) and for steps of another shape.
        """
        return self.hidden_in(name) is not None

    def hidden_in(self, name: str, index: tuple[int, ...] = ()) -> torch.Tensor | None:
        """The hidden cells of step ``name`` (indexed like ``trace[name][index]``), if the step carries the mask."""
        step = self.step(name)
        if self.mask is None or step.dims[-1:] != ("key",):
            return None
        try:
            hidden = torch.broadcast_to(self.mask, step.tensor.shape)  # (..., [query,] key)
        except RuntimeError:  # a step of another sequence (cross-attention keys)
            return None
        if not bool(hidden.any()):
            return None
        cut = step.tensor[hidden]
        if not bool(((cut == 0) | torch.isneginf(cut)).all()):
            return None
        return hidden[index] if index else hidden

    def dropped_in(self, name: str, index: tuple[int, ...] = ()) -> torch.Tensor | None:
        """The cells of step ``name`` that dropout zeroed (not the hidden ones), or None if it dropped none.

        A step ``dropped_<x>`` is step ``<x>`` (or ``masked_<x>``) after dropout: a cell is dropped where
        it was not zero before and is zero now.
        """
        if not name.startswith("dropped_"):
            return None
        before = next((self[n] for n in (f"masked_{name[8:]}", name[8:]) if n in self
                       and self[n].shape == self[name].shape), None)
        if before is None:
            return None
        dropped = (self[name] == 0) & (before != 0)
        hidden = self.hidden_in(name)
        if hidden is not None:
            dropped &= ~hidden
        if not bool(dropped.any()):
            return None
        return dropped[index] if index else dropped

    def extend(self, other: Trace, prefix: str = "") -> None:
        """Copy another trace's steps (and its mask) in, optionally prefixing their names."""
        for s in other.steps:
            self.add(prefix + s.name, s.tensor, s.dims, s.meaning, s.where, s.fields)
        if other.mask is not None and self.mask is None:
            self.add_mask(other.mask)


NO_TRACE = Trace(enabled=False)
"""The disabled trace: plain ``forward`` calls record nothing."""


@dataclass(frozen=True)
class Comparison:
    """Two ways of computing the same thing, and how far apart they are."""

    label_a: str
    label_b: str
    a: torch.Tensor
    b: torch.Tensor
    max_abs_diff: float

    @classmethod
    def of(cls, label_a: str, a: torch.Tensor, label_b: str, b: torch.Tensor) -> Comparison:
        if a.shape != b.shape:
            raise ExplainedValueError(
                "cannot compare {label_a} {shape_a} with {label_b} {shape_b}",
                label_a=label_a, shape_a=tuple(a.shape), label_b=label_b, shape_b=tuple(b.shape),
            )
        a, b = a.detach(), b.detach()
        diff = float((a - b).abs().max()) if a.numel() else 0.0
        return cls(label_a, label_b, a, b, diff)

    def agrees(self, tol: float = 1e-5) -> bool:
        return self.max_abs_diff <= tol


def traces_in(result: Any) -> dict[str, Trace]:
    """A result's traces by name: "" for a plain Trace or a record's ``trace`` field, else the field's name
    (``"v1"``, ``"v2"``...); none for a result that holds no trace."""
    if isinstance(result, Trace):
        return {"": result}
    found = {name: value for name, value in getattr(result, "__dict__", {}).items() if isinstance(value, Trace)}
    if "trace" in found:
        found[""] = found.pop("trace")
    return found
