"""One record type for every computation's named intermediates.

A :class:`Trace` is an ordered list of :class:`Step` objects: each has a short
machine name (``"scores"``), the tensor, the names of its axes (so a chart
knows which axis is the query and which the key), and a one-line meaning.
Computations append to a trace as they go; pages read from it and never
recompute. A disabled trace (``Trace.off()``) ignores ``add`` so the same
code path serves the fast ``forward`` and the fully recorded one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

__all__ = ["Comparison", "Step", "Trace"]


@dataclass(frozen=True)
class Step:
    """One named intermediate of a computation."""

    name: str
    tensor: torch.Tensor
    dims: tuple[str, ...]
    meaning: str

    def __post_init__(self) -> None:
        if len(self.dims) != self.tensor.dim():
            raise ValueError(
                f"step {self.name!r}: {len(self.dims)} axis names {self.dims} for a tensor "
                f"of shape {tuple(self.tensor.shape)}"
            )

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.tensor.shape)

    def shape_text(self) -> str:
        """The shape with axis names, e.g. ``(batch=2, tokens=6, d_out=2)``."""
        return "(" + ", ".join(f"{d}={s}" for d, s in zip(self.dims, self.shape, strict=True)) + ")"


@dataclass
class Trace:
    """Ordered, named intermediates of one computation."""

    steps: list[Step] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    comparisons: list[Comparison] = field(default_factory=list)
    enabled: bool = True
    only: frozenset[str] | None = None

    @classmethod
    def keeping(cls, *names: str) -> Trace:
        """A trace that records only the named steps (cheap at large sizes)."""
        return cls(only=frozenset(names))

    @classmethod
    def off(cls) -> Trace:
        """A trace that records nothing (used by plain ``forward`` calls)."""
        return cls(enabled=False)

    def wants(self, name: str) -> bool:
        """Whether ``add(name, ...)`` would record the step.

        A computation asks before it overwrites a tensor in place: a step the
        trace keeps must never change after it is recorded, and one it does
        not keep need not be copied.
        """
        return self.enabled and (self.only is None or name in self.only)

    def add(self, name: str, tensor: torch.Tensor, dims: tuple[str, ...], meaning: str) -> None:
        if not self.wants(name):
            return
        if name in self:
            raise ValueError(f"trace already has a step named {name!r}")
        self.steps.append(Step(name, tensor.detach(), tuple(dims), meaning))

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
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(f"no step named {name!r}; this trace has {self.names()}")

    def names(self) -> list[str]:
        return [s.name for s in self.steps]

    @property
    def output(self) -> torch.Tensor:
        """The last recorded tensor: the result of the computation."""
        if not self.steps:
            raise ValueError("empty trace has no output")
        return self.steps[-1].tensor

    def extend(self, other: Trace, prefix: str = "") -> None:
        """Copy another trace's steps in, optionally prefixing their names."""
        for s in other.steps:
            self.add(prefix + s.name, s.tensor, s.dims, s.meaning)


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
            raise ValueError(
                f"cannot compare {label_a} {tuple(a.shape)} with {label_b} {tuple(b.shape)}"
            )
        a, b = a.detach(), b.detach()
        diff = float((a - b).abs().max()) if a.numel() else 0.0
        return cls(label_a, label_b, a, b, diff)

    def agrees(self, tol: float = 1e-5) -> bool:
        return self.max_abs_diff <= tol
