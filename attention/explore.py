"""Whole experiments for the app's pages, each returning traces and comparisons.

Every function builds the chapter's modules under a seed (isolated from
other sessions by :func:`~attention.rng.seeded`), runs them, and returns
records, so a page only draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .causal import CausalAttention
from .config import AttentionConfig
from .efficient import VariantResult, compare_variants
from .multihead import MultiHeadAttention, MultiHeadAttentionWrapper, count_parameters
from .rng import seeded
from .trace import Trace
from .trainable import SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1
from .validation import check_inputs, check_positive_int, check_seed

__all__ = [
    "ClassesResult",
    "self_attention_classes",
    "make_batch",
    "causal_class_demo",
    "stacking_heads",
    "weight_splits",
    "efficient_variants",
]


def _width(x: object) -> int:
    return int(x.shape[-1]) if isinstance(x, torch.Tensor) and x.dim() >= 1 else 0


@dataclass(frozen=True)
class ClassesResult:
    v1: Trace
    v2: Trace
    v1_from_v2: Trace | None
    note: str


@torch.no_grad()
def self_attention_classes(
    inputs: torch.Tensor,
    *,
    d_out: int = 2,
    seed_v1: int = 123,
    seed_v2: int = 789,
    qkv_bias: bool = False,
    causal: bool = False,
) -> ClassesResult:
    """3.4.2: v1 and v2 side by side, and Exercise 3.1 (v1 given v2's weights)."""
    d_in = _width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    with seeded(check_seed(seed_v1)):
        v1 = SelfAttention_v1(d_in, d_out)
    with seeded(check_seed(seed_v2)):
        v2 = SelfAttention_v2(d_in, d_out, qkv_bias=qkv_bias)
    t1, t2 = v1.trace(inputs, causal=causal), v2.trace(inputs, causal=causal)
    if qkv_bias:
        note = "v1 has no bias terms, so Exercise 3.1 needs qkv_bias off."
        return ClassesResult(t1, t2, None, note)
    v1_copy = copy_v2_into_v1(v2, SelfAttention_v1(d_in, d_out))
    t3 = v1_copy.trace(inputs, causal=causal)
    t3.compare("SelfAttention_v2", t2["context"], "v1 with v2's weights (transposed)", t3["context"])
    return ClassesResult(t1, t2, t3, "")


def make_batch(inputs: torch.Tensor, batch_size: int) -> torch.Tensor:
    """Stack the same sequence ``batch_size`` times, as the chapter does with two copies."""
    batch_size = check_positive_int(batch_size, "batch_size")
    return torch.stack([inputs] * batch_size, dim=0)  # (B, T, d_in)


def causal_class_demo(
    inputs: torch.Tensor,
    *,
    batch_size: int = 2,
    d_out: int = 2,
    context_length: int | None = None,
    dropout: float = 0.0,
    training: bool = True,
    causal: bool = True,
    qkv_bias: bool = False,
    seed: int = 123,
    dropout_seed: int = 123,
) -> Trace:
    """3.5.3: CausalAttention on a batch; info says what the buffer holds."""
    d_in = _width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    context_length = inputs.shape[0] if context_length is None else context_length
    with seeded(check_seed(seed)):
        ca = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal=causal)
    ca.train(training)
    batch = make_batch(inputs, batch_size)
    with torch.no_grad(), seeded(check_seed(dropout_seed)):
        trace = ca.trace(batch)
    trace.info.update(
        buffers={name: tuple(b.shape) for name, b in ca.named_buffers()},
        state_dict_keys=list(ca.state_dict().keys()),
        batch_shape=tuple(batch.shape),
        parameters=count_parameters(ca),
    )
    return trace


def stacking_heads(
    inputs: torch.Tensor,
    *,
    batch_size: int = 2,
    d_out: int = 2,
    num_heads: int = 2,
    context_length: int | None = None,
    dropout: float = 0.0,
    training: bool = True,
    causal: bool = True,
    qkv_bias: bool = False,
    seed: int = 123,
    dropout_seed: int = 123,
) -> Trace:
    """3.6.1: the wrapper's per-head weights, its concatenated output, and the
    same computation done by MultiHeadAttention with the heads' weights stacked."""
    d_in = _width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    context_length = inputs.shape[0] if context_length is None else context_length
    with seeded(check_seed(seed)):
        wrapper = MultiHeadAttentionWrapper(
            d_in, d_out, context_length, dropout, num_heads, qkv_bias, causal=causal
        )
    wrapper.train(training)
    batch = make_batch(inputs, batch_size)
    with torch.no_grad(), seeded(check_seed(dropout_seed)):
        trace = wrapper.trace(batch)
    # One MultiHeadAttention of width num_heads * d_out holds every head's weights.
    splits = MultiHeadAttention(
        d_in, num_heads * d_out, context_length, 0.0, num_heads, qkv_bias, causal=causal
    ).eval()
    with torch.no_grad():
        for role in ("W_query", "W_key", "W_value"):
            target = getattr(splits, role)
            target.weight.copy_(torch.cat([getattr(h, role).weight for h in wrapper.heads]))
            if qkv_bias:
                target.bias.copy_(torch.cat([getattr(h, role).bias for h in wrapper.heads]))
        splits.out_proj.weight.copy_(torch.eye(num_heads * d_out))
        splits.out_proj.bias.zero_()
        if dropout == 0.0 or not training:
            trace.compare("MultiHeadAttentionWrapper", trace["output"],
                          "MultiHeadAttention (stacked weights, identity out_proj)", splits(batch))
    trace.info.update(parameters=count_parameters(wrapper), batch_shape=tuple(batch.shape))
    return trace


def weight_splits(
    inputs: torch.Tensor,
    *,
    batch_size: int = 2,
    d_out: int = 2,
    num_heads: int = 2,
    context_length: int | None = None,
    dropout: float = 0.0,
    training: bool = True,
    causal: bool = True,
    qkv_bias: bool = False,
    seed: int = 123,
    dropout_seed: int = 123,
    keep: tuple[str, ...] | None = None,
) -> Trace:
    """3.6.2: MultiHeadAttention with every reshape recorded.

    ``keep`` limits which steps are stored (for large inputs, where each
    (B, H, T, T) step costs B*H*T*T*4 bytes).
    """
    d_in = _width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    context_length = inputs.shape[0] if context_length is None else context_length
    with seeded(check_seed(seed)):
        mha = MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads, qkv_bias, causal=causal)
    mha.train(training)
    batch = make_batch(inputs, batch_size)
    with torch.no_grad(), seeded(check_seed(dropout_seed)):
        trace = mha.trace(batch, keep=keep)
    trace.info.update(
        parameters=count_parameters(mha),
        head_dim=mha.head_dim,
        batch_shape=tuple(batch.shape),
        gpt2_parameters=count_parameters(MultiHeadAttention(768, 768, 1024, 0.0, 12)),
    )
    return trace


def efficient_variants(
    inputs: torch.Tensor,
    *,
    batch_size: int = 2,
    d_out: int | None = None,
    num_heads: int = 2,
    qkv_bias: bool = False,
    causal: bool = True,
    seed: int = 123,
) -> tuple[MultiHeadAttention, AttentionConfig, torch.Tensor, list[VariantResult]]:
    """Every efficient variant fed the book module's weights, compared with it."""
    d_in = _width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    d_out = d_in if d_out is None else d_out
    config = AttentionConfig(d_in, d_out, inputs.shape[0], 0.0, num_heads, qkv_bias, causal)
    with seeded(check_seed(seed)):
        book = MultiHeadAttention(*config.book_args(), causal=causal)
    batch = make_batch(inputs, batch_size)
    return book, config, batch, compare_variants(book, config, batch)
