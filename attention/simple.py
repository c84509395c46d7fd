"""3.3 A simple self-attention mechanism without trainable weights.

The inputs act as their own queries, keys and values: scores are plain dot
products between token embeddings, weights are the normalised scores, and
context vectors are weighted sums of the inputs.
"""

from __future__ import annotations

import torch

from .core import attend, attend_one_query
from .ops import NORMALISATIONS, check_normalisation, future_mask, normalise, seeded_dropout
from .trace import Trace
from .validation import check_dropout, check_index, check_inputs, check_seed, embedding_width
from .words import said

__all__ = [
    "attention_scores_loop",
    "attention_scores_matmul",
    "context_vectors_loop",
    "simple_attention_for_query",
    "simple_self_attention",
]

NORMALISATION_FORMULAS = {
    "sum": "scores / sum(scores)",
    "softmax_naive": "exp(scores) / sum(exp(scores))",
    "softmax": "torch.softmax(scores, dim=0)",
}


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

    Also records the weights under all three normalisations, so they can be
    shown side by side, and the chapter's loops beside the matrix products.
    """
    inputs = check_inputs(inputs, embedding_width(inputs), ranks=(2,))
    q = check_index(query_index, inputs.shape[0], "query_index")
    drop = seeded_dropout(check_dropout(dropout), check_seed(seed), training)
    normalisation = check_normalisation(normalisation)

    trace = Trace()
    trace.add("inputs", inputs, ("token", "dim"))
    query = inputs[q]
    trace.add("query", query, ("dim",), "the query x({n}), token {n}'s embedding", fields={"n": q + 1})
    hidden = future_mask(inputs.shape[0])[q] if causal else None  # keys after the query
    context = attend_one_query(query, inputs, inputs, trace, mask=hidden, scale=False,
                               normalisation=normalisation, dropout=drop, values_axis="dim",
                               context_meaning="the context vector: the inputs, weighted and summed")
    _record_every_normalisation(trace)
    trace.compare(said("loop of torch.dot"), torch.stack([torch.dot(x_j, query) for x_j in inputs]),
                  said("matrix product"), trace["scores"])
    weights = trace.applied_weights.tensor
    trace.compare(said("loop of weighted sums"), sum(w * x_j for w, x_j in zip(weights, inputs, strict=True)),
                  said("matrix product"), context)
    return trace


def _record_every_normalisation(trace: Trace) -> None:
    """The three ways to turn one query's scores into weights, side by side (3.3.1)."""
    for method in NORMALISATIONS:
        scores = trace["scores"]
        if trace.mask is not None:  # a hidden key adds nothing to a sum, and exp(-inf) = 0
            scores = scores.masked_fill(trace.mask, 0.0 if method == "sum" else -torch.inf)
        trace.add(f"weights_{method}", normalise(scores, method), ("key",), NORMALISATION_FORMULAS[method])


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
    inputs = check_inputs(inputs, embedding_width(inputs), ranks=(2,))
    drop = seeded_dropout(check_dropout(dropout), check_seed(seed), training)
    normalisation = check_normalisation(normalisation)
    trace = Trace()
    trace.add("inputs", inputs, ("token", "dim"))
    hidden = future_mask(inputs.shape[0]) if causal else None
    context = attend(inputs, inputs, inputs, trace, mask=hidden, scale=False,
                     normalisation=normalisation, dropout=drop, values_axis="dim",
                     context_meaning="context vectors: the inputs, weighted and summed")
    trace.compare(said("double loop of torch.dot"), attention_scores_loop(inputs), "X @ X.T", trace["scores"])
    weights = trace.applied_weights.tensor
    trace.compare(said("loop of weighted sums"), context_vectors_loop(weights, inputs), "weights @ X", context)
    return trace
