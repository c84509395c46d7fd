"""3.3 A simple self-attention mechanism without trainable weights.

The inputs act as their own queries, keys and values: scores are plain dot
products between token embeddings, weights are the normalised scores, and
context vectors are weighted sums of the inputs.
"""

from __future__ import annotations

import torch

from .core import attend
from .ops import NORMALISATIONS, apply_dropout, normalise
from .trace import Trace
from .validation import check_dropout, check_index, check_inputs, check_seed

__all__ = [
    "attention_scores_loop",
    "attention_scores_matmul",
    "context_vectors_loop",
    "simple_attention_for_query",
    "simple_self_attention",
]


def attention_scores_loop(inputs: torch.Tensor) -> torch.Tensor:
    """omega[i, j] = x_i . x_j, one dot product at a time (the chapter's double loop)."""
    n = inputs.shape[0]
    scores = torch.empty(n, n, dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        for j, x_j in enumerate(inputs):
            scores[i, j] = torch.dot(x_i, x_j)
    return scores


def attention_scores_matmul(inputs: torch.Tensor) -> torch.Tensor:
    """The same scores as one matrix product: X @ X^T."""
    return inputs @ inputs.T  # (T, d) @ (d, T) -> (T, T)


def context_vectors_loop(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    """z_i = sum_j alpha_ij x_j, accumulated vector by vector."""
    context = torch.zeros(weights.shape[0], inputs.shape[1], dtype=torch.result_type(weights, inputs))
    for i in range(weights.shape[0]):
        for j, x_j in enumerate(inputs):
            context[i] += weights[i, j] * x_j
    return context


def _dropout_fn(dropout: float, seed: int, training: bool):
    if dropout == 0.0 or not training:
        return None
    return lambda w: apply_dropout(w, dropout, seed=seed)[0]


def simple_attention_for_query(
    inputs: torch.Tensor,
    query_index: int = 1,
    *,
    normalisation: str = "softmax",
    causal: bool = False,
    dropout: float = 0.0,
    seed: int = 123,
    training: bool = True,
) -> Trace:
    """3.3.1: scores, weights and the context vector for one query token.

    Records the weights under all three normalisations so they can be shown
    side by side; ``weights`` is the one chosen with ``normalisation``.
    """
    inputs = check_inputs(inputs, _width(inputs), ranks=(2,))
    n = inputs.shape[0]
    q = check_index(query_index, n, "query_index")
    dropout, seed = check_dropout(dropout), check_seed(seed)
    if normalisation not in NORMALISATIONS:
        raise ValueError(f"normalisation must be one of {NORMALISATIONS}, got {normalisation!r}.")

    trace = Trace(info={"query_index": q, "normalisation": normalisation})
    trace.add("inputs", inputs, ("token", "dim"), "the input embeddings x(1)..x(T)")
    query = inputs[q]
    trace.add("query", query, ("dim",), f"the query x({q + 1}), token {q + 1}'s embedding")

    loop = torch.empty(n, dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        loop[i] = torch.dot(x_i, query)
    scores = inputs @ query  # (T, d) @ (d,) -> (T,)
    trace.compare("loop of torch.dot", loop, "matrix product", scores)
    trace.add("scores", scores, ("key",), f"omega({q + 1}, j) = x({q + 1}) . x(j)")

    visible = torch.ones(n, dtype=torch.bool)
    if causal:
        visible = torch.arange(n) <= q
        fill = 0.0 if normalisation == "sum" else float("-inf")
        scores = scores.masked_fill(~visible, fill)
        trace.add("masked_scores", scores, ("key",), "scores of later tokens hidden")

    for method in NORMALISATIONS:
        trace.add(
            f"weights_{method}",
            normalise(scores, method),
            ("key",),
            {
                "sum": "scores / sum(scores)",
                "softmax_naive": "exp(scores) / sum(exp(scores))",
                "softmax": "torch.softmax(scores, dim=0)",
            }[method],
        )
    weights = trace[f"weights_{normalisation}"]
    trace.add("weights", weights, ("key",), f"the chosen normalisation ({normalisation})")
    drop = _dropout_fn(dropout, seed, training)
    if drop is not None:
        weights = drop(weights)
        trace.add("dropped_weights", weights, ("key",), "weights after dropout")

    context_loop = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        context_loop += weights[i] * x_i
    context = weights @ inputs  # (T,) @ (T, d) -> (d,)
    trace.compare("loop of weighted sums", context_loop, "matrix product", context)
    trace.add("context", context, ("dim",), f"z({q + 1}) = sum_j alpha({q + 1}, j) x(j)")
    return trace


def simple_self_attention(
    inputs: torch.Tensor,
    *,
    normalisation: str = "softmax",
    causal: bool = False,
    dropout: float = 0.0,
    seed: int = 123,
    training: bool = True,
) -> Trace:
    """3.3.2: attention weights and context vectors for every token at once."""
    inputs = check_inputs(inputs, _width(inputs), ranks=(2,))
    dropout, seed = check_dropout(dropout), check_seed(seed)
    if normalisation not in NORMALISATIONS:
        raise ValueError(f"normalisation must be one of {NORMALISATIONS}, got {normalisation!r}.")
    trace = Trace(info={"normalisation": normalisation})
    trace.add("inputs", inputs, ("token", "dim"), "the input embeddings")
    context = attend(
        inputs,
        inputs,
        inputs,
        trace,
        causal=causal,
        scale=False,
        normalisation=normalisation,
        dropout=_dropout_fn(dropout, seed, training),
    )
    trace.compare("double loop of torch.dot", attention_scores_loop(inputs), "X @ X.T", trace["scores"])
    final = trace["dropped_weights"] if "dropped_weights" in trace else trace["weights"]
    trace.compare("loop of weighted sums", context_vectors_loop(final, inputs), "weights @ X", context)
    return trace


def _width(x: object) -> int:
    return int(x.shape[-1]) if isinstance(x, torch.Tensor) and x.dim() >= 1 else 0
