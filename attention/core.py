"""The one attention kernel every section's code path goes through.

``attend`` takes queries, keys and values whose last two axes are
(tokens, width), with any leading axes (batch, head), and records each step
in a :class:`~attention.trace.Trace` in the chapter's order:

    scores -> masked_scores -> scaled_scores -> weights -> dropped_weights -> context

so the page for 3.3 and the page for 3.6.2 show the same named intermediates.
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

    hide = mask
    if causal:
        t_q, t_k = scores.shape[-2], scores.shape[-1]
        future = torch.triu(torch.ones(t_q, t_k, dtype=torch.bool), diagonal=1 + t_k - t_q)
        hide = future if hide is None else (hide | future)
    if hide is not None:
        if normalisation == "sum":
            # Dividing by the row sum cannot use -inf; zero the hidden scores instead.
            scores = scores.masked_fill(hide, 0.0)
        else:
            scores = scores.masked_fill(hide, float("-inf"))
        trace.add(
            "masked_scores",
            scores,
            qk_dims,
            "scores with hidden keys set to -inf, so softmax gives them weight 0",
        )

    d_k = keys.shape[-1]
    if scale:
        scores = scores / d_k**0.5
        trace.add("scaled_scores", scores, qk_dims, f"scores divided by sqrt(d_k) = sqrt({d_k})")

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
