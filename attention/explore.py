"""Whole experiments for the app's pages, each returning a typed result.

Every function builds the chapter's modules under a seed (isolated from other
sessions by :func:`~attention.rng.seeded`), runs them on a batch made of the
input sequence, and returns records, so a page only draws. The module's shape
is an :class:`~attention.config.AttentionConfig`; how it is run (batch size,
training mode, seeds) is a :class:`RunOptions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import torch

from .causal import CausalAttention
from .config import GPT2_SMALL, AttentionConfig
from .efficient import VariantReport, compare_variants
from .errors import ExplainedTypeError
from .multihead import MultiHeadAttention, MultiHeadAttentionWrapper, batched_product, count_parameters
from .rng import seeded
from .trace import Trace
from .trainable import SelfAttention_v1, SelfAttention_v2, copy_v2_into_v1
from .validation import check_inputs, check_positive_int, check_seed, embedding_width
from .words import said

__all__ = [
    "CausalClassResult",
    "ClassesResult",
    "EfficientResult",
    "HeadsResult",
    "RunOptions",
    "SplitsResult",
    "causal_class_demo",
    "efficient_variants",
    "gpt2_parameter_count",
    "make_batch",
    "self_attention_classes",
    "stacking_heads",
    "weight_splits",
]

LARGE_WEIGHTS = 4_000_000  # (B, H, T, T) cells above which 3.6.2 keeps only what it draws


@dataclass(frozen=True)
class RunOptions:
    """How an experiment runs its module: the batch, the mode and the two seeds."""

    batch_size: int = 2
    training: bool = True
    seed: int = 123  # torch.manual_seed before the weights are drawn
    dropout_seed: int = 123  # ... and before the dropout draws

    def __post_init__(self) -> None:
        check_positive_int(self.batch_size, "batch_size")
        check_seed(self.seed)
        check_seed(self.dropout_seed)


def make_batch(inputs: torch.Tensor, batch_size: int) -> torch.Tensor:
    """Stack the same sequence ``batch_size`` times, as the chapter does with two copies."""
    batch_size = check_positive_int(batch_size, "batch_size")
    return torch.stack([inputs] * batch_size, dim=0)  # (B, T, d_in)


def _checked(inputs: torch.Tensor, config: AttentionConfig) -> torch.Tensor:
    """The (T, d_in) input sequence, checked against the module's configuration."""
    if not isinstance(config, AttentionConfig):
        raise ExplainedTypeError("config must be an AttentionConfig, got {kind}.", kind=type(config).__name__)
    return check_inputs(inputs, config.d_in, context_length=config.context_length, ranks=(2,))


def _traced(module: torch.nn.Module, batch: torch.Tensor, run: RunOptions, keep=None) -> Trace:
    """The module's recorded forward pass in the run's mode, dropout drawn after its seed."""
    module.train(run.training)
    with torch.no_grad(), seeded(run.dropout_seed):
        return module.trace(batch, keep=keep) if keep is not None else module.trace(batch)


@dataclass(frozen=True)
class ClassesResult:
    v1: Trace
    v2: Trace
    v1_from_v2: Trace | None  # Exercise 3.1; None when v2 has biases that v1 cannot hold
    v2_module: SelfAttention_v2 | None = None  # v2 itself, for Exercise 3.1 done the learner's way


@torch.no_grad()
def self_attention_classes(
    inputs: torch.Tensor, *, d_out: int = 2, seed_v1: int = 123, seed_v2: int = 789,
    qkv_bias: bool = False, causal: bool = False,
) -> ClassesResult:
    """3.4.2: v1 and v2 side by side, and Exercise 3.1 (v1 given v2's weights)."""
    d_in = embedding_width(inputs)
    inputs = check_inputs(inputs, d_in, ranks=(2,))
    with seeded(check_seed(seed_v1)):
        v1 = SelfAttention_v1(d_in, d_out, causal=causal)
    with seeded(check_seed(seed_v2)):
        v2 = SelfAttention_v2(d_in, d_out, qkv_bias=qkv_bias, causal=causal)
    t1, t2 = v1.trace(inputs), v2.trace(inputs)
    if qkv_bias:
        return ClassesResult(t1, t2, None, v2)
    t3 = copy_v2_into_v1(v2, SelfAttention_v1(d_in, d_out, causal=causal)).trace(inputs)
    t3.compare("SelfAttention_v2", t2["context"], said("v1 with v2's weights (transposed)"), t3["context"])
    return ClassesResult(t1, t2, t3, v2)


@dataclass(frozen=True)
class CausalClassResult:
    trace: Trace
    batch_shape: tuple[int, ...]
    buffers: dict[str, tuple[int, ...]]
    state_dict_keys: list[str]
    parameters: int


def causal_class_demo(
    inputs: torch.Tensor, config: AttentionConfig, run: RunOptions = RunOptions()
) -> CausalClassResult:
    """3.5.3: CausalAttention (one head of ``config.d_out``) on a batch, and what its buffer holds."""
    inputs = _checked(inputs, config)
    with seeded(run.seed):
        ca = CausalAttention(config.d_in, config.d_out, config.context_length, config.dropout, config.qkv_bias,
                             causal=config.causal)
    batch = make_batch(inputs, run.batch_size)
    return CausalClassResult(
        _traced(ca, batch, run), tuple(batch.shape), {name: tuple(b.shape) for name, b in ca.named_buffers()},
        list(ca.state_dict().keys()), count_parameters(ca),
    )


@dataclass(frozen=True)
class HeadsResult:
    trace: Trace
    parameters: int
    batch_shape: tuple[int, ...]


def stacking_heads(inputs: torch.Tensor, config: AttentionConfig, run: RunOptions = RunOptions()) -> HeadsResult:
    """3.6.1: the wrapper's per-head weights and its concatenated output (``config.d_out`` in all),
    compared with MultiHeadAttention given the heads' weights stacked."""
    inputs = _checked(inputs, config)
    with seeded(run.seed):
        wrapper = MultiHeadAttentionWrapper(config.d_in, config.head_dim, config.context_length, config.dropout,
                                            config.num_heads, config.qkv_bias, causal=config.causal)
    batch = make_batch(inputs, run.batch_size)
    trace = _traced(wrapper, batch, run)
    if config.dropout == 0.0 or not run.training:  # with dropout the two draw different masks
        splits = _as_weight_splits(wrapper, config)
        trace.compare("MultiHeadAttentionWrapper", trace["output"],
                      said("MultiHeadAttention (stacked weights, identity out_proj)"), splits(batch))
    return HeadsResult(trace, count_parameters(wrapper), tuple(batch.shape))


@torch.no_grad()
def _as_weight_splits(wrapper: MultiHeadAttentionWrapper, config: AttentionConfig) -> MultiHeadAttention:
    """One MultiHeadAttention holding every head's weights, with an identity output projection."""
    splits = MultiHeadAttention(*config.book_args(), causal=config.causal).eval()
    for role in ("W_query", "W_key", "W_value"):
        target = getattr(splits, role)
        target.weight.copy_(torch.cat([getattr(h, role).weight for h in wrapper.heads]))
        if config.qkv_bias:
            target.bias.copy_(torch.cat([getattr(h, role).bias for h in wrapper.heads]))
    splits.out_proj.weight.copy_(torch.eye(config.d_out))
    splits.out_proj.bias.zero_()
    return splits


@cache
def gpt2_parameter_count() -> int:
    """Exercise 3.3: the parameters of GPT-2 small's attention module (built once per process)."""
    return count_parameters(MultiHeadAttention(*GPT2_SMALL.book_args()))


@dataclass(frozen=True)
class SplitsResult:
    trace: Trace
    parameters: int
    batch_shape: tuple[int, ...]
    head_dim: int  # d_out // num_heads: each head's width
    reduced: bool  # large input: only batch element 0 and the steps drawn were kept
    batched_product: Trace  # the chapter's a @ a.transpose(2, 3) example
    gpt2_parameters: int  # Exercise 3.3


SPLITS_KEPT_WHEN_LARGE = ("queries", "queries_split", "queries_by_head", "weights", "dropped_weights", "context",
                          "context_by_token", "context_merged", "output")


def weight_splits(inputs: torch.Tensor, config: AttentionConfig, run: RunOptions = RunOptions()) -> SplitsResult:
    """3.6.2: MultiHeadAttention with every reshape recorded.

    A large input (each (B, H, T, T) step costs B*H*T*T*4 bytes) runs on one batch
    element and keeps only the steps a page draws; ``reduced`` says so.
    """
    inputs = _checked(inputs, config)
    t = inputs.shape[0]
    reduced = run.batch_size * config.num_heads * t * t > LARGE_WEIGHTS
    with seeded(run.seed):
        mha = MultiHeadAttention(*config.book_args(), causal=config.causal)
    batch = make_batch(inputs, 1 if reduced else run.batch_size)
    trace = _traced(mha, batch, run, keep=SPLITS_KEPT_WHEN_LARGE if reduced else None)
    return SplitsResult(trace, count_parameters(mha), tuple(batch.shape), mha.head_dim, reduced, batched_product(),
                        gpt2_parameter_count())


@dataclass(frozen=True)
class EfficientResult:
    config: AttentionConfig
    book: MultiHeadAttention
    batch: torch.Tensor
    variants: VariantReport
    trace: Trace  # the book module's weights (and hidden cells), for drawing


def efficient_variants(
    inputs: torch.Tensor, config: AttentionConfig, run: RunOptions = RunOptions()
) -> EfficientResult:
    """Every efficient variant fed the book module's weights (dropout off), compared with it."""
    inputs = _checked(inputs, config)
    with seeded(run.seed):
        book = MultiHeadAttention(*config.book_args(), causal=config.causal)
    batch = make_batch(inputs, run.batch_size)
    with torch.no_grad():
        weights = book.trace(batch, keep=("weights",))
    return EfficientResult(config, book, batch, compare_variants(book, config, batch), weights)
