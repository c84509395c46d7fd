"""3.4 Self-attention with trainable weights (scaled dot-product attention).

Three matrices project each input into a query, a key and a value. Scores
are query-key dot products divided by sqrt(d_k), weights are their softmax,
and context vectors are weighted sums of the values.

Each class adds one idea to the previous one, as in the book; the lines
marked ``# new:`` are what it adds.
"""

from __future__ import annotations

import torch
from torch import nn

from .core import Traceable, attend, attend_one_query, record_qkv
from .errors import ExplainedValueError
from .ops import future_mask, seeded_dropout
from .rng import seeded
from .trace import NO_TRACE, Trace
from .validation import check_dropout, check_index, check_inputs, check_positive_int, check_seed, embedding_width

__all__ = [
    "SelfAttention_v1",
    "SelfAttention_v2",
    "init_trainable_weights",
    "self_attention_step_by_step",
    "copy_v2_into_v1",
    "V2_TO_V1_WAYS",
    "v1_from_v2_weights",
    "transfer_gap",
]

V2_TO_V1_WAYS = ("as_is", "transpose", "view")  # how v2's (d_out, d_in) weight may be put into v1 (Exercise 3.1)


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
    inputs = check_inputs(inputs, embedding_width(inputs), ranks=(2,))
    q = check_index(query_index, inputs.shape[0], "query_index")
    dropout, dropout_seed = check_dropout(dropout), check_seed(dropout_seed)
    weights = init_trainable_weights(inputs.shape[1], d_out, seed)
    trace = Trace()
    trace.add("inputs", inputs, ("token", "d_in"))
    for k, (name, w) in enumerate(weights.items(), start=1):  # one seed, then the three draws in turn
        trace.add(name, w, ("d_in", "d_out"), "{name}: torch.rand({d_in}, {d_out}), draw {k} of 3 after seed {seed}",
                  fields={"name": name, "d_in": inputs.shape[1], "d_out": d_out, "seed": seed, "k": k})
    query = _project_one_token(trace, inputs[q], q, weights)
    keys = inputs @ weights["W_key"]  # (T, d_in) @ (d_in, d_out) -> (T, d_out)
    values = inputs @ weights["W_value"]
    trace.add("keys", keys, ("token", "d_out"), "all keys: X W_key")
    trace.add("values", values, ("token", "d_out"), "all values: X W_value")
    trace.add("omega_qq", query.dot(keys[q]), (),
              "omega({n},{n}) = q({n}) . k({n}): the query's score for its own key", fields={"n": q + 1})
    drop = seeded_dropout(dropout, dropout_seed, training)
    hidden = future_mask(inputs.shape[0])[q] if causal else None  # keys after the query
    attend_one_query(query, keys, values, trace, mask=hidden, dropout=drop)
    return trace


def _project_one_token(trace: Trace, x_q: torch.Tensor, q: int, weights: dict[str, torch.Tensor]) -> torch.Tensor:
    """q, k and v of the token that asks the question; returns its query."""
    trace.add("x_query", x_q, ("d_in",), "x({n}), the input that asks the question", fields={"n": q + 1})
    trace.add("query", x_q @ weights["W_query"], ("d_out",), f"q({q + 1}) = x({q + 1}) W_query")
    trace.add("key_of_query", x_q @ weights["W_key"], ("d_out",), f"k({q + 1}) = x({q + 1}) W_key")
    trace.add("value_of_query", x_q @ weights["W_value"], ("d_out",), f"v({q + 1}) = x({q + 1}) W_value")
    return x_q @ weights["W_query"]


class SelfAttention_v1(Traceable, nn.Module):
    """Self-attention with its weight matrices held as nn.Parameter (3.4.2).

    Parameters are drawn with ``torch.rand(d_in, d_out)`` in the book's order,
    W_query, W_key, W_value, so ``torch.manual_seed(123)`` gives the chapter's
    numbers. ``causal=True`` (keyword-only, not in the book) hides later tokens.
    """

    def __init__(self, d_in: int, d_out: int, *, causal: bool = False):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.causal = bool(causal)
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor, trace: Trace = NO_TRACE) -> torch.Tensor:
        x = check_inputs(x, self.d_in, dtype=self.W_query.dtype)
        keys = x @ self.W_key  # (T, d_in) @ (d_in, d_out) -> (T, d_out)
        queries = x @ self.W_query
        values = x @ self.W_value
        record_qkv(trace, queries, keys, values)
        mask = future_mask(x.shape[-2]) if self.causal else None
        return attend(queries, keys, values, trace, mask=mask)  # softmax(Q Kᵀ / √d_k) V


class SelfAttention_v2(Traceable, nn.Module):
    """Self-attention with nn.Linear projections (3.4.2).

    nn.Linear stores its weight as (d_out, d_in) and draws it with Kaiming
    uniform initialisation, so the numbers differ from v1's for the same seed.
    """

    def __init__(self, d_in: int, d_out: int, qkv_bias: bool = False, *, causal: bool = False):
        super().__init__()
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.causal = bool(causal)
        self.W_query = nn.Linear(d_in, d_out, bias=bool(qkv_bias))  # new: nn.Linear, with an optional bias
        self.W_key = nn.Linear(d_in, d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(d_in, d_out, bias=bool(qkv_bias))

    def forward(self, x: torch.Tensor, trace: Trace = NO_TRACE) -> torch.Tensor:
        x = check_inputs(x, self.d_in, dtype=self.W_query.weight.dtype)
        keys = self.W_key(x)  # new: a layer call, x @ W.T (+ b): (T, d_in) -> (T, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        record_qkv(trace, queries, keys, values)
        mask = future_mask(x.shape[-2]) if self.causal else None
        return attend(queries, keys, values, trace, mask=mask)  # softmax(Q Kᵀ / √d_k) V


def _check_no_bias(v2: SelfAttention_v2) -> None:
    if v2.W_query.bias is not None:
        raise ExplainedValueError(
            "v2 was built with qkv_bias=True; SelfAttention_v1 has no bias terms, so the "
            "two cannot compute the same thing. Use qkv_bias=False for this exercise."
        )


def copy_v2_into_v1(v2: SelfAttention_v2, v1: SelfAttention_v1) -> SelfAttention_v1:
    """Exercise 3.1: give v1 v2's weights, transposed, so both compute the same.

    nn.Linear computes x @ W.T, so v1's (d_in, d_out) parameter must be the
    transpose of v2's (d_out, d_in) weight. Biases cannot be carried over.
    """
    _check_no_bias(v2)
    if (v1.d_in, v1.d_out) != (v2.d_in, v2.d_out):
        raise ExplainedValueError(
            "v1 is ({v1_d_in}, {v1_d_out}) but v2 is ({v2_d_in}, {v2_d_out}); build both "
            "with the same d_in and d_out.",
            v1_d_in=v1.d_in, v1_d_out=v1.d_out, v2_d_in=v2.d_in, v2_d_out=v2.d_out,
        )
    with torch.no_grad():
        v1.W_query.copy_(v2.W_query.weight.T)
        v1.W_key.copy_(v2.W_key.weight.T)
        v1.W_value.copy_(v2.W_value.weight.T)
    return v1


def v1_from_v2_weights(v2: SelfAttention_v2, ways: dict[str, str]) -> SelfAttention_v1:
    """Exercise 3.1 done a learner's way: a SelfAttention_v1 holding v2's weights, each moved over
    as it is (``"as_is"``), transposed (``"transpose"``, what nn.Linear's ``x @ W.T`` needs) or
    reshaped with ``.view(d_in, d_out)`` (``"view"``: v1's shape, but the numbers in other places).

    ``ways`` maps "W_query", "W_key" and "W_value" to one of :data:`V2_TO_V1_WAYS`. Raises
    ValueError when v2 has biases (v1 has none) or a moved weight does not fit v1's (d_in, d_out).
    """
    _check_no_bias(v2)
    with seeded(0):  # v1's own draws are overwritten below; seeded keeps other sessions' draws apart
        v1 = SelfAttention_v1(v2.d_in, v2.d_out, causal=v2.causal)
    with torch.no_grad():
        for role in ("W_query", "W_key", "W_value"):
            way, weight = ways.get(role), getattr(v2, role).weight  # (d_out, d_in)
            if way not in V2_TO_V1_WAYS:
                raise ExplainedValueError("ways[{role!r}] must be one of {ways}, got {way!r}.",
                                          role=role, ways=V2_TO_V1_WAYS, way=way)
            moved = {"as_is": weight, "transpose": weight.T, "view": weight.view(v2.d_in, v2.d_out)}[way]
            target = getattr(v1, role)
            if moved.shape != target.shape:
                raise ExplainedValueError("{role}: v2's weight {way} is {shape}, but v1's {role} is "
                                          "{target_shape} (d_in, d_out).",
                                          role=role, way=way, shape=tuple(moved.shape),
                                          target_shape=tuple(target.shape))
            target.copy_(moved)
    return v1


def transfer_gap(v2: SelfAttention_v2, ways: dict[str, str], inputs: torch.Tensor) -> float:
    """How far v1, given v2's weights the learner's ``ways``, is from v2 on ``inputs``: the largest
    absolute difference of their context vectors (0 up to rounding when the transfer is right)."""
    with torch.no_grad():
        return float((v1_from_v2_weights(v2, ways)(inputs) - v2(inputs)).abs().max())
