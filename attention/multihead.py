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
from .core import attend
from .trace import Trace
from .validation import (
    check_dropout,
    check_heads_divide,
    check_inputs,
    check_positive_int,
)

__all__ = ["MultiHeadAttentionWrapper", "MultiHeadAttention", "count_parameters"]


def count_parameters(module: nn.Module) -> int:
    """Trainable parameters (Exercise 3.3: GPT-2's attention has 2,360,064)."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads CausalAttention heads side by side (3.6.1).

    Each head projects to ``d_out``, so the output is ``d_out * num_heads``
    wide (Exercise 3.2: d_out=1 with two heads gives width 2).
    """

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        *,
        causal: bool = True,
    ):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.num_heads = check_positive_int(num_heads, "num_heads")
        self.heads = nn.ModuleList(
            CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal=causal)
            for _ in range(num_heads)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([head(x) for head in self.heads], dim=-1)  # (B, T, H * d_out)

    def trace(self, x: torch.Tensor) -> Trace:
        """Per-head traces stacked on a head axis, then the concatenation."""
        per_head = [head.trace(x) for head in self.heads]
        trace = Trace(info={"class": "MultiHeadAttentionWrapper", "num_heads": self.num_heads})
        for name in per_head[0].names():
            first = per_head[0].step(name)
            head_axis = 1 if first.dims[0] == "batch" else 0
            stacked = torch.stack([t[name] for t in per_head], dim=head_axis)
            dims = list(first.dims)
            dims.insert(head_axis, "head")
            trace.add(name, stacked, tuple(dims), f"{first.meaning} (one slice per head)")
        context = torch.cat([t["context"] for t in per_head], dim=-1)
        lead = per_head[0].step("context").dims[:-2]
        trace.add(
            "output",
            context,
            (*lead, "token", "d_out*heads"),
            f"the {self.num_heads} heads' context vectors concatenated along the last axis",
        )
        return trace


class MultiHeadAttention(nn.Module):
    """Multi-head causal attention with weight splits (3.6.2).

    One ``W_query``/``W_key``/``W_value`` each of width ``d_out``; the
    projections are viewed as ``num_heads`` slices of width
    ``head_dim = d_out // num_heads``. ``forward`` returns the context
    tensor as in the book; ``trace`` records every reshape.
    """

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        *,
        causal: bool = True,
    ):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.context_length = check_positive_int(context_length, "context_length")
        self.num_heads = check_positive_int(num_heads, "num_heads")
        self.head_dim = check_heads_divide(self.d_out, self.num_heads)
        self.causal = bool(causal)
        self.W_query = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_key = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(check_dropout(dropout))
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._run(x, Trace.off())

    def forward_with_weights(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The context and the per-head weights (B, H, T, T) that were applied, as attention
        backends return them: after dropout when dropout is active."""
        trace = Trace.keeping("weights", "dropped_weights")
        out = self._run(x, trace)
        return out, trace["dropped_weights"] if "dropped_weights" in trace else trace["weights"]

    def trace(self, x: torch.Tensor, keep: tuple[str, ...] | None = None) -> Trace:
        """The forward pass with its intermediates; ``keep`` limits which steps are stored."""
        if keep is not None:
            trace = Trace.keeping(*keep)
            trace.info.update({"class": "MultiHeadAttention", "num_heads": self.num_heads})
            self._run(x, trace)
            return trace
        trace = Trace(info={"class": "MultiHeadAttention", "num_heads": self.num_heads})
        self._run(x, trace)
        return trace

    def _run(self, x: torch.Tensor, record: Trace) -> torch.Tensor:
        x = check_inputs(x, self.d_in, context_length=self.context_length, dtype=self.W_query.weight.dtype)
        unbatched = x.dim() == 2
        if unbatched:
            x = x.unsqueeze(0)  # (T, d_in) -> (1, T, d_in)
        b, num_tokens, _ = x.shape
        h, hd = self.num_heads, self.head_dim

        queries = self.W_query(x)  # (B, T, d_out)
        keys = self.W_key(x)
        values = self.W_value(x)
        record.add("queries", queries, ("batch", "token", "d_out"), "queries = W_query(x)")
        record.add("keys", keys, ("batch", "token", "d_out"), "keys = W_key(x)")
        record.add("values", values, ("batch", "token", "d_out"), "values = W_value(x)")

        # Split the last axis into heads: (B, T, d_out) -> (B, T, H, head_dim)
        queries = queries.view(b, num_tokens, h, hd)
        keys = keys.view(b, num_tokens, h, hd)
        values = values.view(b, num_tokens, h, hd)
        record.add(
            "queries_split",
            queries,
            ("batch", "token", "head", "head_dim"),
            f".view(b, num_tokens, {h}, {hd}): each token's query cut into {h} pieces",
        )
        # Group by head: (B, T, H, head_dim) -> (B, H, T, head_dim)
        queries = queries.transpose(1, 2)
        keys = keys.transpose(1, 2)
        values = values.transpose(1, 2)
        record.add(
            "queries_by_head",
            queries,
            ("batch", "head", "token", "head_dim"),
            ".transpose(1, 2): each head now holds all tokens' pieces",
        )
        record.add("keys_by_head", keys, ("batch", "head", "token", "head_dim"), "keys grouped by head")
        record.add(
            "values_by_head", values, ("batch", "head", "token", "head_dim"), "values grouped by head"
        )

        hide = self.mask.bool()[:num_tokens, :num_tokens] if self.causal else None
        drop = self.dropout if self.training and self.dropout.p > 0 else None
        # Batched matmul over (B, H): (B, H, T, hd) @ (B, H, hd, T) -> (B, H, T, T)
        context = attend(
            queries, keys, values, record, lead=("batch", "head"), mask=hide, dropout=drop
        )  # (B, H, T, head_dim)

        # Back to tokens first: (B, H, T, head_dim) -> (B, T, H, head_dim)
        context = context.transpose(1, 2)
        record.add(
            "context_by_token",
            context,
            ("batch", "token", "head", "head_dim"),
            ".transpose(1, 2): back to one row per token",
        )
        # Merge the heads: (B, T, H, head_dim) -> (B, T, d_out)
        context = context.contiguous().view(b, num_tokens, self.d_out)
        record.add(
            "context_merged",
            context,
            ("batch", "token", "d_out"),
            f".contiguous().view(b, num_tokens, {self.d_out}): heads concatenated",
        )
        out = self.out_proj(context)  # (B, T, d_out)
        record.add("output", out, ("batch", "token", "d_out"), "out_proj mixes the heads")
        return out.squeeze(0) if unbatched else out
