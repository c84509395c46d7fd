"""3.5 Hiding future words with causal attention.

A language model predicting token t+1 may only look at tokens 1..t. The
causal mask hides later keys from every query; dropout then randomly drops
some of the remaining weights during training.
"""

from __future__ import annotations

import torch
from torch import nn

from .core import attend
from .ops import apply_dropout, causal_mask, future_mask
from .rng import seeded
from .trace import Trace
from .trainable import SelfAttention_v2
from .validation import (
    check_dropout,
    check_inputs,
    check_positive_int,
    check_seed,
)

__all__ = ["CausalAttention", "causal_attention_step_by_step", "dropout_demo"]


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
    d_in = inputs.shape[-1] if isinstance(inputs, torch.Tensor) and inputs.dim() else 0
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    with seeded(check_seed(seed)):
        sa_v2 = SelfAttention_v2(d_in, d_out, qkv_bias=qkv_bias)
    n = inputs.shape[0]
    trace = Trace(info={"seed": seed, "d_out": d_out})
    with torch.no_grad():
        queries, keys = sa_v2.W_query(inputs), sa_v2.W_key(inputs)
        values = sa_v2.W_value(inputs)
    trace.add("queries", queries, ("token", "d_out"), "queries from SelfAttention_v2")
    trace.add("keys", keys, ("token", "d_out"), "keys from SelfAttention_v2")
    trace.add("values", values, ("token", "d_out"), "values from SelfAttention_v2")
    scores = queries @ keys.T  # (T, d_out) @ (d_out, T) -> (T, T)
    d_k = keys.shape[-1]
    trace.add("scores", scores, ("query", "key"), "queries @ keys.T")
    weights = torch.softmax(scores / d_k**0.5, dim=-1)
    trace.add("weights", weights, ("query", "key"), "softmax(scores / sqrt(d_k)), no mask yet")
    if not causal:
        trace.add("context", weights @ values, ("token", "d_out"), "context without a mask")
        return trace

    mask_simple = causal_mask(n)
    trace.add("mask_simple", mask_simple, ("query", "key"), "torch.tril(ones): 1 = may attend")
    masked_simple = weights * mask_simple
    trace.add("masked_simple", masked_simple, ("query", "key"), "weights * mask: future zeroed")
    row_sums = masked_simple.sum(dim=-1, keepdim=True)
    trace.add("row_sums", row_sums.squeeze(-1), ("query",), "what is left of each row")
    renormalised = masked_simple / row_sums
    trace.add("masked_simple_norm", renormalised, ("query", "key"), "rows divided by their sums")

    future = future_mask(n)
    trace.add("mask", future.float(), ("query", "key"), "torch.triu(ones, diagonal=1): 1 = hide")
    masked = scores.masked_fill(future, float("-inf"))
    trace.add("masked_scores", masked, ("query", "key"), "scores with the future set to -inf")
    via_inf = torch.softmax(masked / d_k**0.5, dim=-1)
    trace.add("masked_weights", via_inf, ("query", "key"), "softmax of the -inf-masked scores")
    trace.compare("zero out and renormalise", renormalised, "-inf before softmax", via_inf)
    trace.add("context", via_inf @ values, ("token", "d_out"), "causal context vectors")
    return trace


def dropout_demo(weights: torch.Tensor, p: float = 0.5, *, seed: int = 123, training: bool = True) -> Trace:
    """3.5.2: dropout on a matrix of ones, then on the attention weights.

    Both use the same seed, as in the chapter, so the same cells are dropped.
    In eval mode dropout does nothing.
    """
    if not isinstance(weights, torch.Tensor):
        raise TypeError(
            f"dropout_demo expects a 2-D torch.Tensor of weights (query, key), got {type(weights).__name__}."
        )
    width = weights.shape[-1] if weights.dim() else 0
    weights = check_inputs(weights, width, name="weights", ranks=(2,))
    p, seed = check_dropout(p), check_seed(seed)
    trace = Trace(info={"p": p, "seed": seed, "training": training})
    example = torch.ones_like(weights)
    trace.add("example", example, ("query", "key"), "a matrix of ones")
    trace.add("weights", weights, ("query", "key"), "the attention weights before dropout")
    if training and p > 0.0:
        dropped_ones, keep = apply_dropout(example, p, seed=seed)
        dropped, _ = apply_dropout(weights, p, seed=seed)
    else:
        dropped_ones, keep = example, torch.ones_like(weights, dtype=torch.bool)
        dropped = weights
    trace.add("keep", keep.float(), ("query", "key"), "1 where the cell survives, 0 where dropped")
    scale_text = f"survivors become 1/(1-p) = {1 / (1 - p):g}"
    trace.add("dropped_example", dropped_ones, ("query", "key"), scale_text)
    trace.add("dropped_weights", dropped, ("query", "key"), "weights after dropout")
    trace.info["kept_fraction"] = float(keep.float().mean())
    return trace


class CausalAttention(nn.Module):
    """Single-head causal self-attention for batches (3.5.3).

    The mask is a registered buffer (it moves with the module between
    devices and is saved in its state_dict) sized for ``context_length``
    and sliced to the number of tokens in each call. ``causal=False`` turns
    the mask off for comparison; it is keyword-only so the book's
    signature is unchanged.
    """

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        qkv_bias: bool = False,
        *,
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
        self.dropout = nn.Dropout(check_dropout(dropout))
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._run(x, Trace.off())

    def trace(self, x: torch.Tensor) -> Trace:
        trace = Trace(info={"class": "CausalAttention", "training": self.training})
        self._run(x, trace)
        return trace

    def _run(self, x: torch.Tensor, trace: Trace) -> torch.Tensor:
        x = check_inputs(
            x, self.d_in, context_length=self.context_length, dtype=self.W_query.weight.dtype
        )
        lead = ("batch",) if x.dim() == 3 else ()
        num_tokens = x.shape[-2]
        keys = self.W_key(x)  # (B, T, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        trace.add("queries", queries, (*lead, "token", "d_out"), "queries = W_query(x)")
        trace.add("keys", keys, (*lead, "token", "d_out"), "keys = W_key(x)")
        trace.add("values", values, (*lead, "token", "d_out"), "values = W_value(x)")
        hide = self.mask.bool()[:num_tokens, :num_tokens] if self.causal else None
        drop = self.dropout if self.training and self.dropout.p > 0 else None
        return attend(queries, keys, values, trace, lead=lead, mask=hide, dropout=drop)
