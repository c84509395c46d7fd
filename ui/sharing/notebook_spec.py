"""What a notebook is made of: the learner's state as plain data (:class:`NotebookSpec`), and the checks that refuse
what a shared link refuses, each with a message a learner can read (:class:`NotebookError`).

Apart from the notebook's cells (notebook.py): the page's offer (offer.py) and a walkthrough's download check a
state before anything is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from attention.errors import ExplainedValueError

from ..inputs.matrix import InputMatrix
from ..settings import limits
from .book_files import _STEP, book_pages
from .codec import MAX_INLINE_CELLS, LinkError, decode_state, encode_state

__all__ = ["MAX_CONTROLS", "NotebookError", "NotebookSpec", "check", "check_size"]

MAX_CONTROLS = 40


class NotebookError(ExplainedValueError):
    """A state a notebook cannot be made of, and why (an English template and its fields)."""


@dataclass(frozen=True)
class NotebookSpec:
    """What the learner sees, as plain data: the page, the matrix, the controls' values, the step on screen."""

    page: str
    tokens: tuple[str, ...]
    rows: tuple[tuple[float, ...], ...]
    controls: Mapping[str, Any] = field(default_factory=dict)
    step: str | None = None

    @classmethod
    def of(cls, page: str, matrix: InputMatrix, controls: Mapping[str, Any], step: str | None = None) -> NotebookSpec:
        rows = tuple(tuple(float(v) for v in row) for row in matrix.values.tolist())
        return cls(page, tuple(matrix.tokens), rows, dict(controls), step)


def check_size(num_tokens: int, dim: int) -> None:
    """Refuse a matrix too large to write out as code (as a link leaves it out)."""
    if num_tokens * dim > MAX_INLINE_CELLS:
        raise NotebookError("the {cells} numbers of this matrix are too many to write into a notebook (the limit "
                            "is {limit}); download the results as CSV instead.", cells=num_tokens * dim,
                            limit=MAX_INLINE_CELLS)


def check(spec: NotebookSpec) -> None:
    """Refuse what a shared link refuses (the matrix, the controls' kinds and sizes, the app's limits), with the
    link's message."""
    pages = set(book_pages())
    if spec.page not in pages:
        raise NotebookError("there is no notebook for the page {page!r}.", page=spec.page[:40])
    if len(spec.controls) > MAX_CONTROLS:
        raise NotebookError("the state has {count} controls; the limit is {limit}.", count=len(spec.controls),
                            limit=MAX_CONTROLS)
    if spec.step is not None and not (isinstance(spec.step, str) and _STEP.match(spec.step)):
        raise NotebookError("the step on screen is not one of the page's steps.")
    check_size(len(spec.rows), max((len(r) for r in spec.rows), default=0))
    try:
        matrix = InputMatrix(spec.tokens, spec.rows)
        text, _ = encode_state(matrix, {spec.page: dict(spec.controls)})
        lim = limits()
        decode_state(text, pages=pages, max_tokens=lim.max_tokens, max_dim=lim.max_dim, max_chars=10**9)
    except (LinkError, ValueError, TypeError) as exc:
        if isinstance(exc, ExplainedValueError):
            raise NotebookError("this state cannot be a notebook: {problem}", problem=exc) from None
        raise NotebookError("this state cannot be a notebook: its matrix or controls are not plain values.") from None
