"""The one attention kernel every section's code path goes through.

``attend`` takes queries, keys and values whose last two axes are
(tokens, width), with any leading axes (batch, head), and records each step
in a :class:`~attention.trace.Trace` in the chapter's order:

    scores -> masked_scores -> scaled_scores -> weights -> dropped_weights -> context

so the page for 3.3 and the page for 3.6.2 show the same named intermediates.

The (..., Tq, Tk) score matrix is the large tensor (400 MB at GPT-2 size
with batch 8). When the trace keeps none of ``scores``, ``masked_scores`` and
``scaled_scores`` (a plain ``forward``, or a trace keeping only ``weights``),
the mask, the scaling and the softmax overwrite that one fresh tensor in
place instead of allocating a new matrix per step. The operations and their
order are the book's, so the numbers are the same either way; a tensor the
trace has recorded is never modified afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from .ops import normalise
from .trace import Trace

__all__ = ["attend"]

DropoutFn = Callable[[torch.Tensor], torch.Tensor]


def attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    trace: Trace,
    *,
    lead: tuple[str, ...] = (),
    causal: bool = False,
    mask: torch.Tensor | None = None,
    scale: bool = True,
    normalisation: str = "softmax",
    dropout: DropoutFn | None = None,
) -> torch.Tensor:
    """Scaled dot-product attention with every intermediate recorded.

    ``lead`` names the leading axes (e.g. ``("batch", "head")``). ``mask`` is
    a boolean tensor, True where a key must be hidden from a query, that
    broadcasts against the scores; ``causal`` adds the upper-triangular mask.
    ``dropout`` is applied to the weights (pass ``None`` for no dropout).
    """
    qk_dims = (*lead, "query", "key")
    # (..., Tq, d) @ (..., d, Tk) -> (..., Tq, Tk)
    scores = queries @ keys.transpose(-2, -1)
    trace.add("scores", scores, qk_dims, "dot product of every query with every key")
    # ``scores`` is a new tensor; it may be overwritten while the trace does not keep it.
    reuse = not trace.wants("scores")

    hide = mask
    if causal:
        t_q, t_k = scores.shape[-2], scores.shape[-1]
        future = torch.triu(torch.ones(t_q, t_k, dtype=torch.bool), diagonal=1 + t_k - t_q)
        hide = future if hide is None else (hide | future)
    if hide is not None:
        # Dividing by the row sum cannot use -inf; zero the hidden scores instead.
        fill = 0.0 if normalisation == "sum" else float("-inf")
        if reuse and _fits(hide, scores):
            _fill_hidden_(scores, hide, fill)
        else:
            scores = scores.masked_fill(hide, fill)
        trace.add(
            "masked_scores",
            scores,
            qk_dims,
            "scores with hidden keys set to -inf, so softmax gives them weight 0",
        )
        reuse = not trace.wants("masked_scores")

    d_k = keys.shape[-1]
    if scale:
        scores = scores.div_(d_k**0.5) if reuse else scores / d_k**0.5
        trace.add("scaled_scores", scores, qk_dims, f"scores divided by sqrt(d_k) = sqrt({d_k})")
        reuse = not trace.wants("scaled_scores")

    if reuse and normalisation == "softmax" and scores.is_contiguous() and not scores.requires_grad:
        # The same kernel as torch.softmax(scores), writing over its input row by row.
        weights = torch.softmax(scores, dim=-1, out=scores)
    else:
        weights = normalise(scores, normalisation, dim=-1)
    trace.add("weights", weights, qk_dims, "attention weights: each query's row sums to 1")

    if dropout is not None:
        weights = dropout(weights)
        trace.add(
            "dropped_weights",
            weights,
            qk_dims,
            "weights after dropout: dropped cells are 0, survivors scaled by 1/(1-p)",
        )

    # (..., Tq, Tk) @ (..., Tk, d_v) -> (..., Tq, d_v)
    context = weights @ values
    trace.add(
        "context",
        context,
        (*lead, "token", "d_out"),
        "context vectors: weighted sums of the value vectors",
    )
    return context


_ROWS = 64  # rows per block when _fill_hidden_ writes a causal mask


def _fill_hidden_(scores: torch.Tensor, hide: torch.Tensor, fill: float) -> None:
    """``scores.masked_fill_(hide, fill)``, writing only the hidden cells of a causal mask.

    For the (T, T) upper-triangular mask of a long sequence, each block of
    rows fills the keys hidden from all of them with one ``fill_`` and applies
    the mask only to the square on the diagonal, instead of reading the mask
    for every cell. The result is identical; any other mask uses ``masked_fill_``.
    """
    t = scores.shape[-1]
    if (
        t >= 4 * _ROWS
        and hide.shape == (t, t)
        and scores.shape[-2] == t
        and torch.equal(hide, torch.ones(t, t, dtype=torch.bool, device=hide.device).triu_(1))
    ):
        for r0 in range(0, t, _ROWS):
            r1 = min(t, r0 + _ROWS)
            scores[..., r0:r1, r1:].fill_(fill)  # keys after this block: hidden from every row in it
            scores[..., r0:r1, r0:r1].masked_fill_(hide[r0:r1, r0:r1], fill)
    else:
        scores.masked_fill_(hide, fill)


def _fits(mask: torch.Tensor, scores: torch.Tensor) -> bool:
    """Whether ``scores.masked_fill_(mask, ...)`` works: the mask broadcasts to its shape."""
    try:
        return torch.broadcast_shapes(mask.shape, scores.shape) == scores.shape
    except RuntimeError:
        return False
