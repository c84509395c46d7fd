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
from .errors import ExplainedTypeError, ExplainedValueError, named
from .multihead import MultiHeadAttention
from .trace import Comparison
from .validation import check_inputs
from .words import said

__all__ = [
    "ATTENTION_BACKENDS",
    "BACKEND_RETURNS_WEIGHTS",
    "FastMultiHeadAttention",
    "TorchMultiheadAttention",
    "Variant",
    "VariantReport",
    "VariantResult",
    "VARIANTS",
    "variant",
    "build_variant",
    "compare_variants",
    "time_variants",
    "relative_times",
    "VariantTime",
]

Backend = Callable[..., tuple[torch.Tensor, torch.Tensor | None]]


def _causal_hide(t_q: int, t_k: int) -> torch.Tensor:
    return torch.triu(torch.ones(t_q, t_k, dtype=torch.bool), diagonal=1 + t_k - t_q)


_ROWS = 64  # rows per block when _fill_future_ writes a causal mask


def _fill_future_(scores: torch.Tensor, fill: float) -> None:
    """``scores.masked_fill_(_causal_hide(T_q, T_k), fill)``: the future set to ``fill``, in place.

    For a long square sequence, each block of rows fills the keys hidden from all of
    them with one ``fill_`` and masks only the square on the diagonal, without building
    the (T, T) mask. The result is identical.
    """
    t_q, t = scores.shape[-2], scores.shape[-1]
    if t < 4 * _ROWS or t_q != t:
        scores.masked_fill_(_causal_hide(t_q, t), fill)
        return
    for r0 in range(0, t, _ROWS):
        r1 = min(t, r0 + _ROWS)
        scores[..., r0:r1, r1:].fill_(fill)  # keys after this block: hidden from every row in it
        scores[..., r0:r1, r0:r1].masked_fill_(_causal_hide(r1 - r0, r1 - r0), fill)


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
    """The chapter's kernel, in the book's order (mask, divide by sqrt(d_k), softmax), done in place.

    The same operations as :func:`attention.core.attend`, so the same numbers bit for bit,
    but on one (B, H, T, T) score tensor instead of a new one per step: the memory-lean path.
    """
    scores = q @ k.transpose(-2, -1)  # (B, H, T, T)
    if causal:
        _fill_future_(scores, float("-inf"))
    scores.div_(k.shape[-1] ** 0.5)
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
        _fill_future_(scores, float("-inf"))
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
            raise ExplainedValueError("backend must be one of {backends}, got {backend!r}.",
                                      backends=list(ATTENTION_BACKENDS), backend=backend)
        self.config, self.backend = config, backend
        self.qkv = nn.Linear(config.d_in, 3 * config.d_out, bias=config.qkv_bias)
        self.out_proj = nn.Linear(config.d_out, config.d_out)

    @torch.no_grad()
    def load_from(self, mha: MultiHeadAttention) -> FastMultiHeadAttention:
        """Take a book MultiHeadAttention's weights: stack W_query, W_key, W_value."""
        _check_same_shape(self.config, mha)
        weight, bias = _stacked_qkv(mha)
        self.qkv.weight.copy_(weight)
        if self.qkv.bias is not None:
            self.qkv.bias.copy_(bias)
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
            raise ExplainedValueError(
                "torch.nn.MultiheadAttention needs d_in == d_out (got {d_in} and "
                "{d_out}): it has no separate input width for the query.",
                d_in=config.d_in, d_out=config.d_out,
            )
        self.config = config
        self.mha = nn.MultiheadAttention(
            config.d_out, config.num_heads, dropout=config.dropout, bias=True, batch_first=True
        )

    @torch.no_grad()
    def load_from(self, book: MultiHeadAttention) -> TorchMultiheadAttention:
        _check_same_shape(self.config, book)
        weight, bias = _stacked_qkv(book)
        self.mha.in_proj_weight.copy_(weight)
        self.mha.in_proj_bias.copy_(torch.zeros(weight.shape[0]) if bias is None else bias)
        self.mha.out_proj.load_state_dict(book.out_proj.state_dict())
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


def _stacked_qkv(book: MultiHeadAttention) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The book module's three projections as one (3 * d_out, d_in) weight and its bias, Q, K, V in order."""
    layers = (book.W_query, book.W_key, book.W_value)
    bias = None if book.W_query.bias is None else torch.cat([layer.bias for layer in layers])
    return torch.cat([layer.weight for layer in layers]), bias


def _check_config(config: object) -> None:
    if not isinstance(config, AttentionConfig):
        raise ExplainedTypeError("config must be an AttentionConfig, got {kind}.", kind=type(config).__name__)


def _check_same_shape(config: AttentionConfig, mha: MultiHeadAttention) -> None:
    theirs = (mha.d_in, mha.d_out, mha.num_heads, mha.W_query.bias is not None, mha.causal, mha.context_length)
    ours = (config.d_in, config.d_out, config.num_heads, config.qkv_bias, config.causal, config.context_length)
    if theirs != ours:
        raise ExplainedValueError(
            "cannot load weights: the book module has "
            "(d_in, d_out, num_heads, qkv_bias, causal, context_length)={theirs}, this one {ours}.",
            theirs=theirs, ours=ours,
        )


class _BookVariant(nn.Module):
    def __init__(self, mha: MultiHeadAttention):
        super().__init__()
        self.mha = mha

    def forward(self, x: torch.Tensor, need_weights: bool = False):
        if need_weights:
            return self.mha.forward_with_weights(x)
        return self.mha(x), None


@dataclass(frozen=True)
class Variant:
    """One way to compute the book module's function, built from its weights."""

    name: str
    description: str
    build: Callable[[AttentionConfig, MultiHeadAttention], nn.Module]
    returns_weights: bool


# A variant's name is what the page's table calls it (translated, so marked as words) and the key it is looked up by.
BOOK = said("book MultiHeadAttention")
SDPA = said("combined QKV + SDPA")
VARIANTS: tuple[Variant, ...] = (
    Variant(BOOK, said("the chapter's class: three projections, view, transpose, batched matmul"),
            lambda cfg, book: _BookVariant(book), True),
    Variant(said("combined QKV + eager"),
            said("one Linear(d_in, 3*d_out) for Q, K and V, then the book's kernel in place"),
            lambda cfg, book: FastMultiHeadAttention(cfg, "eager").load_from(book), True),
    Variant(said("combined QKV + einsum"), said("the attention written as two einsum calls"),
            lambda cfg, book: FastMultiHeadAttention(cfg, "einsum").load_from(book), True),
    Variant(SDPA, said("F.scaled_dot_product_attention: a fused kernel that never stores the weights"),
            lambda cfg, book: FastMultiHeadAttention(cfg, "sdpa").load_from(book), False),
    Variant("torch.nn.MultiheadAttention", said("PyTorch's ready-made module (needs d_in == d_out)"),
            lambda cfg, book: TorchMultiheadAttention(cfg).load_from(book), True),
)


def variant(name: str) -> Variant:
    """The variant called ``name``."""
    try:
        return named(VARIANTS, name, "variant")
    except KeyError:  # a learner's choice, so said in words the app translates
        raise ExplainedValueError("variant must be one of {variants}, got {name!r}.",
                                  variants=[v.name for v in VARIANTS], name=name) from None


def build_variant(name: str, config: AttentionConfig, book: MultiHeadAttention) -> nn.Module:
    module = variant(name).build(config, book)
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
    error: ValueError | None = None  # why it is unavailable, as raised (its template translates)

    def agrees(self, tol: float = 1e-5) -> bool:
        """Same output as the book module within ``tol``, and the same weights when it returns any."""
        if self.comparison is None:
            return False
        return self.comparison.agrees(tol) and (self.weights_comparison is None or self.weights_comparison.agrees(tol))


@dataclass(frozen=True)
class VariantReport:
    """Every variant's result on one batch, by name; ``book`` is the reference."""

    results: tuple[VariantResult, ...]

    def __iter__(self) -> Iterator[VariantResult]:
        return iter(self.results)

    def __getitem__(self, name: str) -> VariantResult:
        return named(self.results, name, "variant")

    @property
    def book(self) -> VariantResult:
        return self[BOOK]


@torch.no_grad()
def compare_variants(book: MultiHeadAttention, config: AttentionConfig, x: torch.Tensor) -> VariantReport:
    """Run every variant on ``x`` with the book module's weights, in eval mode.

    Outputs are compared with the book module's output, and the attention weights of the
    variants that can return them with the book module's per-head weights (B, H, T, T).
    """
    with _eval_mode(book):
        reference, reference_weights = book.forward_with_weights(x)
        return VariantReport(tuple(_run_variant(v, config, book, x, reference, reference_weights) for v in VARIANTS))


def _run_variant(v: Variant, config: AttentionConfig, book: MultiHeadAttention, x: torch.Tensor,
                 reference: torch.Tensor, reference_weights: torch.Tensor) -> VariantResult:
    try:
        module = build_variant(v.name, config, book).eval()
    except ValueError as exc:
        return VariantResult(v.name, v.description, None, v.returns_weights, None, str(exc), error=exc)
    out, weights = module(x, need_weights=v.returns_weights)
    wcmp = None if weights is None else Comparison.of("book weights", reference_weights, f"{v.name} weights", weights)
    return VariantResult(v.name, v.description, out, v.returns_weights, Comparison.of(BOOK, reference, v.name, out),
                         weights=weights, weights_comparison=wcmp)


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
        for v in VARIANTS:
            try:
                modules[v.name] = build_variant(v.name, config, book).eval()
                times[v.name] = []
            except ValueError:
                pass
        for _ in range(repeats + 1):  # the first round warms up and is discarded
            for name, module in modules.items():
                start = time.perf_counter()
                module(x)
                times[name].append(time.perf_counter() - start)
    result: dict[str, float | None] = {v.name: None for v in VARIANTS}
    for name, samples in times.items():
        kept = sorted(samples[1:])
        result[name] = kept[len(kept) // 2]
    return result


@dataclass(frozen=True)
class VariantTime:
    """One variant's median time, and its ratio to the fused SDPA path measured in the same run."""

    name: str
    median_ms: float | None  # None: the variant cannot run with this configuration
    vs_sdpa: float | None


def relative_times(times: dict[str, float | None], base: str = SDPA) -> list[VariantTime]:
    """``time_variants``'s seconds as milliseconds and as ratios to ``base``."""
    reference = times.get(base)
    return [VariantTime(name, None if t is None else t * 1e3,
                        None if t is None or not reference else t / reference) for name, t in times.items()]
