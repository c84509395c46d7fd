"""3.4 Self-attention with trainable weights (scaled dot-product attention).

Three matrices project each input into a query, a key and a value. Scores
are query-key dot products divided by sqrt(d_k), weights are their softmax,
and context vectors are weighted sums of the values.
"""

from __future__ import annotations

import torch
from torch import nn

from .core import attend
from .ops import apply_dropout
from .rng import seeded
from .trace import Trace
from .validation import (
    check_dropout,
    check_index,
    check_inputs,
    check_positive_int,
    check_seed,
)

__all__ = [
    "SelfAttention_v1",
    "SelfAttention_v2",
    "init_trainable_weights",
    "self_attention_step_by_step",
    "copy_v2_into_v1",
]


def init_trainable_weights(d_in: int, d_out: int, seed: int = 123) -> dict[str, torch.Tensor]:
    """W_query, W_key and W_value drawn with torch.rand in that order (3.4.1)."""
    d_in, d_out = check_positive_int(d_in, "d_in"), check_positive_int(d_out, "d_out")
    with seeded(check_seed(seed)):
        return {name: torch.rand(d_in, d_out) for name in ("W_query", "W_key", "W_value")}


def self_attention_step_by_step(
    inputs: torch.Tensor,
    *,
    d_out: int = 2,
    seed: int = 123,
    query_index: int = 1,
    causal: bool = False,
    dropout: float = 0.0,
    dropout_seed: int = 123,
    training: bool = True,
) -> Trace:
    """3.4.1: every quantity for one query, from the weight matrices to z(q)."""
    d_in = inputs.shape[-1] if isinstance(inputs, torch.Tensor) and inputs.dim() else 0
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    q = check_index(query_index, inputs.shape[0], "query_index")
    dropout = check_dropout(dropout)
    dropout_seed = check_seed(dropout_seed)
    weights = init_trainable_weights(d_in, d_out, seed)

    trace = Trace(info={"query_index": q, "d_in": d_in, "d_out": d_out, "seed": seed})
    trace.add("inputs", inputs, ("token", "d_in"), "the input embeddings")
    for name, w in weights.items():
        trace.add(name, w, ("d_in", "d_out"), f"{name}: torch.rand({d_in}, {d_out}) after seed {seed}")
    x_q = inputs[q]
    trace.add("x_query", x_q, ("d_in",), f"x({q + 1}), the input that asks the question")
    trace.add("query", x_q @ weights["W_query"], ("d_out",), f"q({q + 1}) = x({q + 1}) W_query")
    trace.add("key_of_query", x_q @ weights["W_key"], ("d_out",), f"k({q + 1}) = x({q + 1}) W_key")
    trace.add("value_of_query", x_q @ weights["W_value"], ("d_out",), f"v({q + 1}) = x({q + 1}) W_value")
    keys = inputs @ weights["W_key"]  # (T, d_in) @ (d_in, d_out) -> (T, d_out)
    values = inputs @ weights["W_value"]
    trace.add("keys", keys, ("token", "d_out"), "all keys: X W_key")
    trace.add("values", values, ("token", "d_out"), "all values: X W_value")
    query = trace["query"]
    trace.add(
        "omega_qq",
        query.dot(keys[q]),
        (),
        f"omega({q + 1},{q + 1}) = q({q + 1}) . k({q + 1}): the query's score for its own key",
    )
    drop = None
    if dropout > 0.0 and training:
        drop = lambda w: apply_dropout(w, dropout, seed=dropout_seed)[0]  # noqa: E731
    # One query row: (1, d_out) against (T, d_out); attend records the rest.
    sub = Trace()
    visible = None
    if causal:
        visible = (torch.arange(inputs.shape[0]) > q).unsqueeze(0)  # (1, T)
    attend(query.unsqueeze(0), keys, values, sub, mask=visible, dropout=drop)
    for step in sub:
        # Drop the leading query axis of length 1: these are vectors for one query.
        dims = step.dims[1:] if step.dims[0] in ("query", "token") else step.dims
        tensor = step.tensor.squeeze(0)
        trace.add(step.name, tensor, dims, step.meaning)
    return trace


class _TracedSelfAttention(nn.Module):
    """Shared forward for v1 and v2: subclasses say how to project."""

    d_in: int

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        raise NotImplementedError

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._run(x, Trace.off())

    def trace(self, x: torch.Tensor, *, causal: bool = False) -> Trace:
        """The forward pass with every intermediate recorded."""
        trace = Trace(info={"class": type(self).__name__})
        self._run(x, trace, causal=causal)
        return trace

    def _run(self, x: torch.Tensor, trace: Trace, causal: bool = False) -> torch.Tensor:
        x = check_inputs(x, self.d_in, dtype=next(self.parameters()).dtype)
        lead = ("batch",) if x.dim() == 3 else ()
        keys, queries, values = self.project(x)  # each (..., T, d_out)
        trace.add("queries", queries, (*lead, "token", "d_out"), "queries = X W_query")
        trace.add("keys", keys, (*lead, "token", "d_out"), "keys = X W_key")
        trace.add("values", values, (*lead, "token", "d_out"), "values = X W_value")
        return attend(queries, keys, values, trace, lead=lead, causal=causal)


class SelfAttention_v1(_TracedSelfAttention):
    """Self-attention with weight matrices held as nn.Parameter (3.4.2).

    Parameters are drawn with ``torch.rand(d_in, d_out)`` in the book's
    order, W_query, W_key, W_value, so ``torch.manual_seed(123)`` reproduces
    the chapter's numbers.
    """

    def __init__(self, d_in: int, d_out: int):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return x @ self.W_key, x @ self.W_query, x @ self.W_value


class SelfAttention_v2(_TracedSelfAttention):
    """Self-attention with nn.Linear projections (3.4.2).

    nn.Linear stores its weight as (d_out, d_in) and draws it with Kaiming
    uniform initialisation, so the numbers differ from v1's for the same seed.
    """

    def __init__(self, d_in: int, d_out: int, qkv_bias: bool = False):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.W_query = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_key = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(d_in, d_out, bias=bool(qkv_bias))

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.W_key(x), self.W_query(x), self.W_value(x)


def copy_v2_into_v1(v2: SelfAttention_v2, v1: SelfAttention_v1) -> SelfAttention_v1:
    """Exercise 3.1: give v1 v2's weights, transposed, so both compute the same.

    nn.Linear computes x @ W.T, so v1's (d_in, d_out) parameter must be the
    transpose of v2's (d_out, d_in) weight. Biases cannot be carried over.
    """
    if v2.W_query.bias is not None:
        raise ValueError(
            "v2 was built with qkv_bias=True; SelfAttention_v1 has no bias terms, so the "
            "two cannot compute the same thing. Use qkv_bias=False for this exercise."
        )
    if (v1.d_in, v1.d_out) != (v2.d_in, v2.d_out):
        raise ValueError(
            f"v1 is ({v1.d_in}, {v1.d_out}) but v2 is ({v2.d_in}, {v2.d_out}); build both "
            "with the same d_in and d_out."
        )
    with torch.no_grad():
        v1.W_query.copy_(v2.W_query.weight.T)
        v1.W_key.copy_(v2.W_key.weight.T)
        v1.W_value.copy_(v2.W_value.weight.T)
    return v1
