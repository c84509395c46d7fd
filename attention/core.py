"""The one attention kernel every section's code goes through, written as the book writes it.

``attend`` takes queries, keys and values whose last two axes are (tokens,
width), with any leading axes (batch, head), and records each step in a
:class:`~attention.trace.Trace`, in the chapter's order::

    scores -> masked_scores -> scaled_scores -> weights -> dropped_weights -> context

so the page for 3.3 and the page for 3.6.2 show the same named intermediates.
Every operation makes a new tensor, so a recorded step never changes later.
The memory-lean version for long sequences, with the same operations in the
same order done in place, is :func:`attention.efficient.book_order_backend`.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from .ops import normalise
from .trace import NO_TRACE, Trace

__all__ = ["Traceable", "attend", "attend_one_query", "record_qkv", "token_dims"]

Dropout = Callable[[torch.Tensor], torch.Tensor]
LEAD = ("batch", "head")  # the names of the leading axes, outermost first


def token_dims(x: torch.Tensor, last: str) -> tuple[str, ...]:
    """Axis names of a (..., tokens, width) tensor: ``("batch", "token", "d_out")`` for 3-D."""
    return (*LEAD[: x.dim() - 2], "token", last)


def record_qkv(trace: Trace, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> None:
    """Record the three projections under their shared names."""
    for name, tensor in (("queries", queries), ("keys", keys), ("values", values)):
        trace.add(name, tensor, token_dims(tensor, "d_out"))


def attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    trace: Trace = NO_TRACE,
    *,
    mask: torch.Tensor | None = None,
    scale: bool = True,
    normalisation: str = "softmax",
    dropout: Dropout | None = None,
    values_axis: str = "d_out",
    context_meaning: str | None = None,
) -> torch.Tensor:
    """Scaled dot-product attention: softmax(Q Kᵀ / √d_k) V, every step recorded.

    ``mask`` is a boolean tensor, True where a key is hidden from a query, that
    broadcasts against the scores. ``dropout`` acts on the weights (None: no dropout).
    ``values_axis`` names the values' last axis, and ``context_meaning`` says what the context is, where the values
    are not projections (3.3: the inputs themselves, of width ``dim``).
    """
    dims = (*LEAD[: queries.dim() - 2], "query", "key")
    scores = queries @ keys.transpose(-2, -1)  # (..., Tq, d) @ (..., d, Tk) -> (..., Tq, Tk)
    trace.add("scores", scores, dims)
    if mask is not None:
        # exp(-inf) = 0 hides a key from softmax; dividing by the row sum needs 0 instead.
        scores = scores.masked_fill(mask, 0.0 if normalisation == "sum" else -torch.inf)
        trace.add("masked_scores", scores, dims)
        trace.add_mask(mask)
    if scale:
        scores = scores / keys.shape[-1] ** 0.5
        trace.add("scaled_scores", scores, dims, "scores divided by sqrt(d_k) = sqrt({d_k})",
                  fields={"d_k": keys.shape[-1]})
    weights = normalise(scores, normalisation, dim=-1)
    trace.add("weights", weights, dims)
    if dropout is not None:
        weights = dropout(weights)
        trace.add("dropped_weights", weights, dims)
    context = weights @ values  # (..., Tq, Tk) @ (..., Tk, d_v) -> (..., Tq, d_v)
    trace.add("context", context, (*dims[:-2], "token", values_axis), context_meaning)
    return context


def attend_one_query(
    query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, trace: Trace, **options
) -> torch.Tensor:
    """``attend`` for a single query vector: the steps are recorded as vectors over the keys."""
    one = Trace()
    context = attend(query.unsqueeze(0), keys, values, one, **options)  # query (d,) -> (1, d)
    for step in one:
        # Drop the query axis of length 1: (1, T) -> (T,), (1, d) -> (d,)
        trace.add(step.name, step.tensor.squeeze(0), step.dims[1:], step.meaning, step.where, step.fields)
    if one.mask is not None:
        trace.add_mask(one.hidden_cells((0,)))  # (1, T) -> (T,)
    return context.squeeze(0)


class Traceable:
    """Adds ``module.trace(x)``: the module's own ``forward(x, trace)``, with every step recorded."""

    def trace(self, x: torch.Tensor, keep: tuple[str, ...] | None = None) -> Trace:
        """Run ``forward`` once and return what it recorded (only the ``keep`` steps, if given)."""
        trace = Trace.keeping(*keep) if keep is not None else Trace()
        self(x, trace=trace)  # type: ignore[operator]
        return trace
