"""3.6 Extending single-head attention to multi-head attention.

``MultiHeadAttentionWrapper`` stacks independent ``CausalAttention`` heads
and concatenates their outputs (3.6.1). ``MultiHeadAttention`` does the same
work with one projection per role, split into heads with ``view`` and
``transpose`` (3.6.2), and mixes the heads with an output projection.
"""

from __future__ import annotations

import torch
from torch import nn

from .causal import CausalAttention
from .core import Traceable, attend, record_qkv
from .data import book_batched_heads
from .errors import ExplainedValueError
from .ops import active_dropout
from .trace import NO_TRACE, Trace
from .validation import check_dropout, check_heads_divide, check_inputs, check_positive_int
from .words import said

__all__ = ["MultiHeadAttentionWrapper", "MultiHeadAttention", "batched_product", "count_parameters"]

SPLIT_DIMS = ("batch", "token", "head", "head_dim")
BY_HEAD_DIMS = ("batch", "head", "token", "head_dim")


def count_parameters(module: nn.Module) -> int:
    """Trainable parameters (Exercise 3.3: GPT-2's attention has 2,360,064)."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads CausalAttention heads side by side (3.6.1).

    Each head projects to ``d_out``, so the output is ``d_out * num_heads``
    wide (Exercise 3.2: d_out=1 with two heads gives width 2).
    """

    def __init__(
        self, d_in: int, d_out: int, context_length: int, dropout: float, num_heads: int,
        qkv_bias: bool = False, *, causal: bool = True,
    ):
        super().__init__()
        self.num_heads = check_positive_int(num_heads, "num_heads")  # each head checks its own sizes
        self.heads = nn.ModuleList(  # new: a list of independent heads
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal=causal)
             for _ in range(num_heads)]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([head(x) for head in self.heads], dim=-1)  # new: concatenate, (b, T, heads * d_out)

    def trace(self, x: torch.Tensor) -> Trace:
        """Every head's steps stacked on a head axis, then the concatenated output."""
        per_head = [head.trace(x) for head in self.heads]
        trace = Trace()
        for first in per_head[0]:
            at = 1 if first.dims[0] == "batch" else 0  # the head axis goes after the batch axis
            stacked = torch.stack([t[first.name] for t in per_head], dim=at)
            trace.add(first.name, stacked, (*first.dims[:at], "head", *first.dims[at:]),
                      "{meaning} (one slice per head)", first.where, {**first.fields, "meaning": first.meaning})
        if per_head[0].mask is not None:
            trace.add_mask(per_head[0].mask)  # every head hides the same cells
        output = torch.cat([t["context"] for t in per_head], dim=-1)
        trace.add("output", output, (*per_head[0].step("context").dims[:-2], "token", "d_out*heads"),
                  "the {heads} heads' context vectors concatenated along the last axis",
                  fields={"heads": self.num_heads})
        return trace


class MultiHeadAttention(Traceable, nn.Module):
    """Multi-head causal attention with weight splits (3.6.2).

    One ``W_query``/``W_key``/``W_value`` each of width ``d_out``; the
    projections are viewed as ``num_heads`` slices of width
    ``head_dim = d_out // num_heads``. Calling it returns the context tensor
    as in the book; ``trace(x)`` records every reshape.
    """

    def __init__(
        self, d_in: int, d_out: int, context_length: int, dropout: float, num_heads: int,
        qkv_bias: bool = False, *, causal: bool = True,
    ):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.context_length = check_positive_int(context_length, "context_length")
        self.num_heads = check_positive_int(num_heads, "num_heads")
        self.head_dim = check_heads_divide(self.d_out, self.num_heads)  # new: each head's width
        self.causal = bool(causal)
        self.W_query = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_key = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.out_proj = nn.Linear(d_out, d_out)  # new: mixes the heads' outputs
        self.dropout = nn.Dropout(check_dropout(dropout))
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x: torch.Tensor, trace: Trace = NO_TRACE) -> torch.Tensor:
        x = check_inputs(x, self.d_in, context_length=self.context_length, dtype=self.W_query.weight.dtype)
        if x.dim() == 2:  # one sequence: (T, d_in) -> (1, T, d_in), and back at the end
            return self.forward(x.unsqueeze(0), trace).squeeze(0)
        b, num_tokens, _ = x.shape
        keys = self.W_key(x)  # (b, T, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        record_qkv(trace, queries, keys, values)
        # new: split the last axis into heads, (b, T, d_out) -> (b, T, heads, head_dim)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        trace.add("queries_split", queries, SPLIT_DIMS, f".view(b, num_tokens, {self.num_heads}, {self.head_dim})")
        # new: group by head, (b, T, heads, head_dim) -> (b, heads, T, head_dim)
        keys, queries, values = keys.transpose(1, 2), queries.transpose(1, 2), values.transpose(1, 2)
        for name, tensor in (("queries", queries), ("keys", keys), ("values", values)):
            trace.add(f"{name}_by_head", tensor, BY_HEAD_DIMS, ".transpose(1, 2): one block of tokens per head")
        mask = self.mask.bool()[:num_tokens, :num_tokens] if self.causal else None
        # one batched matmul for every head: (b, heads, T, head_dim) @ (b, heads, head_dim, T)
        context = attend(queries, keys, values, trace, mask=mask, dropout=active_dropout(self.dropout))
        context = context.transpose(1, 2)  # new: back to tokens first, (b, T, heads, head_dim)
        trace.add("context_by_token", context, SPLIT_DIMS, ".transpose(1, 2): back to one row per token")
        context = context.contiguous().view(b, num_tokens, self.d_out)  # new: merge the heads, (b, T, d_out)
        trace.add("context_merged", context, ("batch", "token", "d_out"), ".contiguous().view: heads side by side")
        out = self.out_proj(context)  # (b, T, d_out)
        trace.add("output", out, ("batch", "token", "d_out"), "out_proj mixes the heads")
        return out

    def forward_with_weights(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The output and the per-head weights (b, heads, T, T) it applied (after dropout, if any)."""
        trace = Trace.keeping("weights", "dropped_weights")
        out = self(x, trace=trace)
        return out, trace.applied_weights.tensor


def batched_product(a: torch.Tensor | None = None) -> Trace:
    """3.6.2's batched matrix product ``a @ a.transpose(2, 3)`` on a (b, heads, T, head_dim) tensor.

    Without ``a``, the chapter's (1, 2, 3, 4) example; the product is compared
    with the same product done head by head, as the chapter prints both.
    """
    a = book_batched_heads() if a is None else a
    if not isinstance(a, torch.Tensor) or a.dim() != 4 or not torch.is_floating_point(a):
        raise ExplainedValueError("a must be a float tensor shaped (b, num_heads, num_tokens, head_dim).")
    trace = Trace()
    trace.add("a", a, BY_HEAD_DIMS, "a tensor shaped (b, num_heads, num_tokens, head_dim)")
    product = a @ a.transpose(2, 3)  # (b, heads, T, hd) @ (b, heads, hd, T) -> (b, heads, T, T)
    trace.add("product", product, ("batch", "head", "query", "key"), "a @ a.transpose(2, 3): every head at once")
    by_head = torch.stack([a[0, h] @ a[0, h].T for h in range(a.shape[1])])  # (heads, T, T), batch 0
    trace.compare("a @ a.transpose(2, 3)", product[0], said("each head on its own"), by_head)
    return trace
