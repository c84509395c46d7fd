"""Chapter 3 of *Build a Large Language Model From Scratch*, as an importable package.

Pure PyTorch, no Streamlit. The book's classes keep the book's names and
constructor signatures and return the context tensor when called; every
computation can also return a :class:`Trace` of its named intermediates.
"""

from .causal import CausalAttention, DropoutDemo, causal_attention_step_by_step, dropout_demo
from .config import GPT2_SMALL, AttentionConfig
from .core import attend
from .data import BOOK_BATCHED_HEADS, BOOK_INPUTS, BOOK_TOKENS, book_batched_heads, book_inputs
from .efficient import (
    ATTENTION_BACKENDS,
    BACKEND_RETURNS_WEIGHTS,
    VARIANTS,
    FastMultiHeadAttention,
    TorchMultiheadAttention,
    Variant,
    VariantReport,
    build_variant,
    compare_variants,
    time_variants,
)
from .multihead import MultiHeadAttention, MultiHeadAttentionWrapper, batched_product, count_parameters
from .ops import (
    NORMALISATIONS,
    active_dropout,
    apply_dropout,
    causal_mask,
    future_mask,
    normalise,
    softmax_naive,
    softmax_stability_demo,
    softmax_stability_examples,
    softmax_stable,
)
from .rng import seeded
from .sequence import additive_attention, rnn_bottleneck
from .simple import (
    attention_scores_loop,
    attention_scores_matmul,
    context_vectors_loop,
    simple_attention_for_query,
    simple_self_attention,
)
from .text import (
    SinusoidalPositionalEncoding,
    TextMultiHeadAttention,
    TextResult,
    build_vocab,
    encode_batch,
    sinusoidal_positions,
    text_to_attention,
    tokenize,
)
from .trace import NO_TRACE, Comparison, Step, Trace
from .trainable import (
    SelfAttention_v1,
    SelfAttention_v2,
    copy_v2_into_v1,
    init_trainable_weights,
    self_attention_step_by_step,
)

__all__ = [
    "ATTENTION_BACKENDS",
    "BACKEND_RETURNS_WEIGHTS",
    "BOOK_BATCHED_HEADS",
    "BOOK_INPUTS",
    "BOOK_TOKENS",
    "GPT2_SMALL",
    "NORMALISATIONS",
    "VARIANTS",
    "AttentionConfig",
    "CausalAttention",
    "Comparison",
    "DropoutDemo",
    "NO_TRACE",
    "FastMultiHeadAttention",
    "MultiHeadAttention",
    "MultiHeadAttentionWrapper",
    "SelfAttention_v1",
    "SelfAttention_v2",
    "SinusoidalPositionalEncoding",
    "Step",
    "TextMultiHeadAttention",
    "TextResult",
    "TorchMultiheadAttention",
    "Trace",
    "Variant",
    "VariantReport",
    "active_dropout",
    "batched_product",
    "book_batched_heads",
    "apply_dropout",
    "attend",
    "attention_scores_loop",
    "attention_scores_matmul",
    "book_inputs",
    "build_variant",
    "build_vocab",
    "causal_attention_step_by_step",
    "causal_mask",
    "compare_variants",
    "context_vectors_loop",
    "copy_v2_into_v1",
    "count_parameters",
    "dropout_demo",
    "encode_batch",
    "future_mask",
    "init_trainable_weights",
    "normalise",
    "seeded",
    "additive_attention",
    "rnn_bottleneck",
    "self_attention_step_by_step",
    "simple_attention_for_query",
    "simple_self_attention",
    "sinusoidal_positions",
    "softmax_naive",
    "softmax_stability_demo",
    "softmax_stability_examples",
    "softmax_stable",
    "text_to_attention",
    "time_variants",
    "tokenize",
]
