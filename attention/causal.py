"""3.5 Hiding future words with causal attention.

A language model predicting token t+1 may only look at tokens 1..t. The
causal mask hides later keys from every query; dropout then randomly drops
some of the remaining weights during training.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from .core import Traceable, attend, record_qkv
from .errors import ExplainedTypeError, ExplainedValueError
from .ops import active_dropout, apply_dropout, causal_mask, future_mask
from .rng import seeded
from .trace import NO_TRACE, Trace
from .trainable import SelfAttention_v2
from .validation import check_dropout, check_inputs, check_positive_int, check_seed, embedding_width
from .words import said

__all__ = ["CausalAttention", "DropoutDemo", "causal_attention_step_by_step", "dropout_demo"]


def causal_attention_step_by_step(
    inputs: torch.Tensor,
    *,
    d_out: int = 2,
    seed: int = 789,
    qkv_bias: bool = False,
    causal: bool = True,
) -> Trace:
    """3.5.1: weights from a seeded SelfAttention_v2, then both ways to mask them.

    Way 1 multiplies the softmax weights by the lower-triangular mask and
    divides each row by its new sum. Way 2 fills the scores above the
    diagonal with -inf before the softmax. The two agree; way 2 saves a pass.
    """
    inputs = check_inputs(inputs, embedding_width(inputs), ranks=(2,))
    with seeded(check_seed(seed)):
        sa_v2 = SelfAttention_v2(inputs.shape[1], d_out, qkv_bias=qkv_bias)
    trace = Trace()
    with torch.no_grad():
        queries, keys, values = sa_v2.W_query(inputs), sa_v2.W_key(inputs), sa_v2.W_value(inputs)
    record_qkv(trace, queries, keys, values)
    scores = queries @ keys.T  # (T, d_out) @ (d_out, T) -> (T, T)
    trace.add("scores", scores, ("query", "key"), "queries @ keys.T")
    weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
    trace.add("weights", weights, ("query", "key"), "softmax(scores / sqrt(d_k)), no mask yet")
    if not causal:
        trace.add("context", weights @ values, ("token", "d_out"), "context without a mask")
        return trace
    renormalised = _zero_out_and_renormalise(trace, weights)
    masked_weights = _minus_infinity_before_softmax(trace, scores, keys.shape[-1])
    trace.compare(said("zero out and renormalise"), renormalised, said("-inf before softmax"), masked_weights)
    trace.add("context", masked_weights @ values, ("token", "d_out"), "causal context vectors")
    return trace


def _zero_out_and_renormalise(trace: Trace, weights: torch.Tensor) -> torch.Tensor:
    """Way 1: multiply by the lower-triangular mask, then divide each row by its new sum."""
    mask_simple = causal_mask(weights.shape[0])
    trace.add("mask_simple", mask_simple, ("query", "key"), "torch.tril(ones): 1 = may attend")
    masked_simple = weights * mask_simple
    trace.add("masked_simple", masked_simple, ("query", "key"), "weights * mask: future zeroed")
    row_sums = masked_simple.sum(dim=-1, keepdim=True)  # (T, 1)
    trace.add("row_sums", row_sums.squeeze(-1), ("query",), "what is left of each row")
    renormalised = masked_simple / row_sums
    trace.add("masked_simple_norm", renormalised, ("query", "key"), "rows divided by their sums")
    return renormalised


def _minus_infinity_before_softmax(trace: Trace, scores: torch.Tensor, d_k: int) -> torch.Tensor:
    """Way 2: fill the future scores with -inf, then one softmax."""
    hidden = future_mask(scores.shape[0])
    trace.add("mask", hidden.float(), ("query", "key"), "torch.triu(ones, diagonal=1): 1 = hide")
    trace.add_mask(hidden)
    masked = scores.masked_fill(hidden, -torch.inf)
    trace.add("masked_scores", masked, ("query", "key"), "scores with the future set to -inf")
    masked_weights = torch.softmax(masked / d_k**0.5, dim=-1)
    trace.add("masked_weights", masked_weights, ("query", "key"), "softmax of the -inf-masked scores")
    return masked_weights


@dataclass(frozen=True)
class DropoutDemo:
    """3.5.2: the recorded steps, and the share of cells that survived."""

    trace: Trace
    kept_fraction: float


def dropout_demo(weights: torch.Tensor, p: float = 0.5, *, seed: int = 123, training: bool = True,
                 mask: torch.Tensor | None = None) -> DropoutDemo:
    """3.5.2: dropout on a matrix of ones, then on the attention weights.

    Both use the same seed, as in the chapter, so the same cells are dropped.
    In eval mode dropout does nothing. ``mask``: the causal mask the weights were computed
    under (True where hidden), recorded so that a chart tells masked cells from dropped ones.
    """
    if not isinstance(weights, torch.Tensor):
        raise ExplainedTypeError(
            "dropout_demo expects a 2-D torch.Tensor of weights (query, key), got {kind}.",
            kind=type(weights).__name__,
        )
    weights = check_inputs(weights, embedding_width(weights), name="weights", ranks=(2,))
    p, seed = check_dropout(p), check_seed(seed)
    trace = Trace()
    if mask is not None:
        mask = torch.as_tensor(mask, dtype=torch.bool)
        if mask.shape != weights.shape:
            raise ExplainedValueError("the mask has shape {mask}, the weights {weights}: they must match.",
                                      mask=tuple(mask.shape), weights=tuple(weights.shape))
        trace.add_mask(mask)
    ones = torch.ones_like(weights)
    trace.add("example", ones, ("query", "key"), "a matrix of ones")
    trace.add("weights", weights, ("query", "key"), "the attention weights before dropout")
    active = training and p > 0.0
    dropped_ones, keep = apply_dropout(ones, p, seed=seed) if active else (ones, ones.bool())
    dropped = apply_dropout(weights, p, seed=seed)[0] if active else weights
    trace.add("keep", keep.float(), ("query", "key"), "1 where the cell survives, 0 where dropped")
    if active:
        trace.add("dropped_example", dropped_ones, ("query", "key"), "survivors become 1/(1-p) = {scale:g}",
                  fields={"scale": 1 / (1 - p)})
        trace.add("dropped_weights", dropped, ("query", "key"), "weights after dropout")
    else:
        trace.add("dropped_example", dropped_ones, ("query", "key"),
                  "dropout is off (eval mode, or p = 0): every cell is kept as it is")
        trace.add("dropped_weights", dropped, ("query", "key"), "weights unchanged: dropout is off")
    return DropoutDemo(trace, float(keep.float().mean()))


class CausalAttention(Traceable, nn.Module):
    """Single-head causal self-attention for batches (3.5.3).

    The mask is a registered buffer (it moves with the module between devices
    and is saved in its state_dict) sized for ``context_length`` and sliced to
    the number of tokens in each call. ``causal=False`` (keyword-only, not in
    the book) turns the mask off for comparison.
    """

    def __init__(
        self, d_in: int, d_out: int, context_length: int, dropout: float, qkv_bias: bool = False, *,
        causal: bool = True,
    ):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.context_length = check_positive_int(context_length, "context_length")
        self.causal = bool(causal)
        self.W_query = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_key = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.dropout = nn.Dropout(check_dropout(dropout))  # new: dropout on the weights
        self.register_buffer(  # new: the mask, made once for context_length tokens
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
        )

    def forward(self, x: torch.Tensor, trace: Trace = NO_TRACE) -> torch.Tensor:
        x = check_inputs(x, self.d_in, context_length=self.context_length, dtype=self.W_query.weight.dtype)
        num_tokens = x.shape[-2]  # new: x is a batch, (b, num_tokens, d_in)
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        record_qkv(trace, queries, keys, values)
        mask = self.mask.bool()[:num_tokens, :num_tokens] if self.causal else None  # new: hide the future
        return attend(queries, keys, values, trace, mask=mask, dropout=active_dropout(self.dropout))
