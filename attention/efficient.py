"""Efficient multi-head attention: the same function, computed faster.

Every backend has one signature, ``backend(q, k, v, *, causal, dropout_p,
need_weights) -> (output, weights)`` on tensors shaped (B, H, T, head_dim),
and the registry :data:`ATTENTION_BACKENDS` picks one by name, as in Hugging
Face's attention interface. ``sdpa`` calls PyTorch's fused
``scaled_dot_product_attention``, which never materialises the weights, so it
returns ``None`` for them and says so in :data:`BACKEND_RETURNS_WEIGHTS`.

The variants below are fed the same weights as a book ``MultiHeadAttention``
and agree with it to 1e-5 when dropout is 0.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .config import AttentionConfig
from .core import _fill_hidden_
from .multihead import MultiHeadAttention
from .trace import Comparison
from .validation import check_inputs

__all__ = [
    "ATTENTION_BACKENDS",
    "BACKEND_RETURNS_WEIGHTS",
    "FastMultiHeadAttention",
    "TorchMultiheadAttention",
    "VariantResult",
    "VARIANTS",
    "build_variant",
    "compare_variants",
    "time_variants",
]

Backend = Callable[..., tuple[torch.Tensor, torch.Tensor | None]]


def _causal_hide(t_q: int, t_k: int) -> torch.Tensor:
    return torch.triu(torch.ones(t_q, t_k, dtype=torch.bool), diagonal=1 + t_k - t_q)


def _softmax_last(scores: torch.Tensor) -> torch.Tensor:
    """Softmax over the last axis, written over ``scores`` when autograd does not need it.

    ``scores`` is a fresh local tensor, so this keeps one (B, H, T, T) matrix instead of two.
    """
    if scores.requires_grad or not scores.is_contiguous():
        return torch.softmax(scores, dim=-1)
    return torch.softmax(scores, dim=-1, out=scores)


def eager_backend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, dropout_p: float, need_weights: bool
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Matmul, mask, softmax, matmul: the chapter's algorithm with the scale folded into q."""
    scale = q.shape[-1] ** -0.5
    scores = (q * scale) @ k.transpose(-2, -1)  # (B, H, T, T)
    if causal:
        _fill_hidden_(scores, _causal_hide(q.shape[-2], k.shape[-2]), float("-inf"))
    weights = _softmax_last(scores)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, training=True)
    return weights @ v, (weights if need_weights else None)  # (B, H, T, hd)


def einsum_backend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, dropout_p: float, need_weights: bool
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The same computation written with einsum index notation."""
    scale = q.shape[-1] ** -0.5
    scores = torch.einsum("bhqd,bhkd->bhqk", q * scale, k)
    if causal:
        _fill_hidden_(scores, _causal_hide(q.shape[-2], k.shape[-2]), float("-inf"))
    weights = _softmax_last(scores)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, training=True)
    return torch.einsum("bhqk,bhkd->bhqd", weights, v), (weights if need_weights else None)


def sdpa_backend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, dropout_p: float, need_weights: bool
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """torch.nn.functional.scaled_dot_product_attention: fused, cannot return weights."""
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p, is_causal=causal)
    return out, None


ATTENTION_BACKENDS: dict[str, Backend] = {
    "eager": eager_backend,
    "einsum": einsum_backend,
    "sdpa": sdpa_backend,
}
BACKEND_RETURNS_WEIGHTS: dict[str, bool] = {"eager": True, "einsum": True, "sdpa": False}


class FastMultiHeadAttention(nn.Module):
    """Multi-head attention with one combined QKV projection and a pluggable backend."""

    def __init__(self, config: AttentionConfig, backend: str = "sdpa"):
        super().__init__()
        _check_config(config)
        if backend not in ATTENTION_BACKENDS:
            raise ValueError(f"backend must be one of {list(ATTENTION_BACKENDS)}, got {backend!r}.")
        self.config, self.backend = config, backend
        self.qkv = nn.Linear(config.d_in, 3 * config.d_out, bias=config.qkv_bias)
        self.out_proj = nn.Linear(config.d_out, config.d_out)

    @torch.no_grad()
    def load_from(self, mha: MultiHeadAttention) -> FastMultiHeadAttention:
        """Take a book MultiHeadAttention's weights: stack W_query, W_key, W_value."""
        _check_same_shape(self.config, mha)
        self.qkv.weight.copy_(torch.cat([mha.W_query.weight, mha.W_key.weight, mha.W_value.weight]))
        if self.qkv.bias is not None:
            self.qkv.bias.copy_(torch.cat([mha.W_query.bias, mha.W_key.bias, mha.W_value.bias]))
        self.out_proj.load_state_dict(mha.out_proj.state_dict())
        return self

    def forward(
        self, x: torch.Tensor, need_weights: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        cfg = self.config
        x = check_inputs(x, cfg.d_in, context_length=cfg.context_length, ranks=(3,), dtype=self.qkv.weight.dtype)
        b, t, _ = x.shape
        # (B, T, 3 * d_out) -> (B, T, 3, H, hd) -> (3, B, H, T, hd)
        qkv = self.qkv(x).view(b, t, 3, cfg.num_heads, cfg.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)  # each (B, H, T, hd)
        p = cfg.dropout if self.training else 0.0
        out, weights = ATTENTION_BACKENDS[self.backend](
            q, k, v, causal=cfg.causal, dropout_p=p, need_weights=need_weights
        )
        out = out.transpose(1, 2).reshape(b, t, cfg.d_out)  # (B, H, T, hd) -> (B, T, d_out)
        return self.out_proj(out), weights


class TorchMultiheadAttention(nn.Module):
    """PyTorch's own nn.MultiheadAttention, loaded with the book module's weights.

    It projects the query input with an (embed_dim x embed_dim) matrix, so it
    needs d_in == d_out.
    """

    def __init__(self, config: AttentionConfig):
        super().__init__()
        _check_config(config)
        if config.d_in != config.d_out:
            raise ValueError(
                f"torch.nn.MultiheadAttention needs d_in == d_out (got {config.d_in} and "
                f"{config.d_out}): it has no separate input width for the query."
            )
        self.config = config
        self.mha = nn.MultiheadAttention(
            config.d_out, config.num_heads, dropout=config.dropout, bias=True, batch_first=True
        )

    @torch.no_grad()
    def load_from(self, book: MultiHeadAttention) -> TorchMultiheadAttention:
        _check_same_shape(self.config, book)
        m = self.mha
        m.in_proj_weight.copy_(torch.cat([book.W_query.weight, book.W_key.weight, book.W_value.weight]))
        if book.W_query.bias is not None:
            m.in_proj_bias.copy_(torch.cat([book.W_query.bias, book.W_key.bias, book.W_value.bias]))
        else:
            m.in_proj_bias.zero_()
        m.out_proj.load_state_dict(book.out_proj.state_dict())
        return self

    def forward(
        self, x: torch.Tensor, need_weights: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        cfg = self.config
        x = check_inputs(
            x, cfg.d_in, context_length=cfg.context_length, ranks=(3,), dtype=self.mha.in_proj_weight.dtype
        )
        t = x.shape[1]
        mask = _causal_hide(t, t) if cfg.causal else None
        out, weights = self.mha(
            x, x, x, attn_mask=mask, need_weights=need_weights,
            average_attn_weights=False, is_causal=cfg.causal,
        )
        return out, weights


def _check_config(config: object) -> None:
    if not isinstance(config, AttentionConfig):
        raise TypeError(f"config must be an AttentionConfig, got {type(config).__name__}.")


def _check_same_shape(config: AttentionConfig, mha: MultiHeadAttention) -> None:
    fields = "(d_in, d_out, num_heads, qkv_bias, causal, context_length)"
    theirs = (mha.d_in, mha.d_out, mha.num_heads, mha.W_query.bias is not None, mha.causal, mha.context_length)
    ours = (config.d_in, config.d_out, config.num_heads, config.qkv_bias, config.causal, config.context_length)
    if theirs != ours:
        raise ValueError(f"cannot load weights: the book module has {fields}={theirs}, this one {ours}.")


class _BookVariant(nn.Module):
    def __init__(self, mha: MultiHeadAttention):
        super().__init__()
        self.mha = mha

    def forward(self, x: torch.Tensor, need_weights: bool = False):
        if need_weights:
            return self.mha.forward_with_weights(x)
        return self.mha(x), None


# name -> (description, builder from (config, book module), returns weights?)
VARIANTS: dict[str, tuple[str, Callable[[AttentionConfig, MultiHeadAttention], nn.Module], bool]] = {
    "book MultiHeadAttention": (
        "the chapter's class: three projections, view, transpose, batched matmul",
        lambda cfg, book: _BookVariant(book),
        True,
    ),
    "combined QKV + eager": (
        "one Linear(d_in, 3*d_out) for Q, K and V, then the same matmul-softmax-matmul",
        lambda cfg, book: FastMultiHeadAttention(cfg, "eager").load_from(book),
        True,
    ),
    "combined QKV + einsum": (
        "the attention written as two einsum calls",
        lambda cfg, book: FastMultiHeadAttention(cfg, "einsum").load_from(book),
        True,
    ),
    "combined QKV + SDPA": (
        "F.scaled_dot_product_attention: a fused kernel that never stores the weights",
        lambda cfg, book: FastMultiHeadAttention(cfg, "sdpa").load_from(book),
        False,
    ),
    "torch.nn.MultiheadAttention": (
        "PyTorch's ready-made module (needs d_in == d_out)",
        lambda cfg, book: TorchMultiheadAttention(cfg).load_from(book),
        True,
    ),
}


def build_variant(name: str, config: AttentionConfig, book: MultiHeadAttention) -> nn.Module:
    if name not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {name!r}.")
    module = VARIANTS[name][1](config, book)
    module.train(book.training)
    return module


@dataclass(frozen=True)
class VariantResult:
    name: str
    description: str
    output: torch.Tensor | None
    returns_weights: bool
    comparison: Comparison | None
    unavailable: str | None = None
    weights: torch.Tensor | None = None  # (B, H, T, T), or None when the variant cannot return them
    weights_comparison: Comparison | None = None  # against the book module's weights

    def agrees(self, tol: float = 1e-5) -> bool:
        """Same output as the book module within ``tol``, and the same weights when it returns any."""
        if self.comparison is None:
            return False
        return self.comparison.agrees(tol) and (self.weights_comparison is None or self.weights_comparison.agrees(tol))


@torch.no_grad()
def compare_variants(
    book: MultiHeadAttention, config: AttentionConfig, x: torch.Tensor
) -> list[VariantResult]:
    """Run every variant on ``x`` with the book module's weights, in eval mode.

    Outputs are compared with the book module's output, and the attention weights of the
    variants that can return them with the book module's per-head weights (B, H, T, T).
    """
    with _eval_mode(book):
        reference, reference_weights = book.forward_with_weights(x)
        results = []
        for name, (description, _, returns_weights) in VARIANTS.items():
            try:
                module = build_variant(name, config, book).eval()
            except ValueError as exc:
                results.append(VariantResult(name, description, None, returns_weights, None, str(exc)))
                continue
            out, weights = module(x, need_weights=returns_weights)
            cmp = Comparison.of("book MultiHeadAttention", reference, name, out)
            wcmp = None
            if weights is not None:
                wcmp = Comparison.of("book weights", reference_weights, f"{name} weights", weights)
            results.append(VariantResult(name, description, out, returns_weights, cmp, weights=weights,
                                         weights_comparison=wcmp))
    return results


@contextmanager
def _eval_mode(module: nn.Module) -> Iterator[None]:
    """Eval mode for the block, then the module's own mode again."""
    was_training = module.training
    module.eval()
    try:
        yield
    finally:
        module.train(was_training)


@torch.no_grad()
def time_variants(
    book: MultiHeadAttention, config: AttentionConfig, x: torch.Tensor, *, repeats: int = 5
) -> dict[str, float | None]:
    """Median seconds per forward pass of every variant, measured in one run.

    Variants are interleaved round by round so that machine noise hits all
    of them alike. Returns ``None`` for a variant that cannot run here.
    """
    modules: dict[str, nn.Module] = {}
    times: dict[str, list[float]] = {}
    with _eval_mode(book):
        for name in VARIANTS:
            try:
                modules[name] = build_variant(name, config, book).eval()
                times[name] = []
            except ValueError:
                pass
        for _ in range(repeats + 1):  # the first round warms up and is discarded
            for name, module in modules.items():
                start = time.perf_counter()
                module(x)
                times[name].append(time.perf_counter() - start)
    result: dict[str, float | None] = {name: None for name in VARIANTS}
    for name, samples in times.items():
        kept = sorted(samples[1:])
        result[name] = kept[len(kept) // 2]
    return result
