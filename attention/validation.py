"""Checks with messages a learner can act on.

Every public entry point of the package runs its arguments through these
helpers, so a bad configuration or a bad input fails early with a
``ValueError`` (or ``TypeError`` for a wrong type) that says what is wrong
and how to fix it -- never an ``AssertionError``, an ``IndexError`` deep in
a matmul, or a silently wrong tensor.
"""

from __future__ import annotations

import math
import numbers

import torch

from .errors import ExplainedTypeError, ExplainedValueError

__all__ = [
    "check_positive_int",
    "check_dropout",
    "check_heads_divide",
    "check_inputs",
    "check_finite",
    "check_index",
    "check_seed",
    "embedding_width",
]


def check_positive_int(value: object, name: str) -> int:
    """Return ``value`` as an int if it is a whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value.is_integer():
            raise ExplainedTypeError(
                "{name} must be a whole number (an int), got the float {value!r}; "
                "write {whole} instead of {value!r}.",
                name=name, value=value, whole=int(value),
            )
        raise ExplainedTypeError(
            "{name} must be a whole number (an int), got {kind} {value!r}.",
            name=name, kind=type(value).__name__, value=value,
        )
    value = int(value)
    if value < 1:
        raise ExplainedValueError("{name} must be at least 1, got {value}.", name=name, value=value)
    return value


def check_dropout(value: object, name: str = "dropout") -> float:
    """Return ``value`` as a float if it is a rate in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ExplainedTypeError(
            "{name} must be a number in [0, 1), got {kind} {value!r}.",
            name=name, kind=type(value).__name__, value=value,
        )
    value = float(value)
    if math.isnan(value) or not 0.0 <= value < 1.0:
        raise ExplainedValueError(
            "{name} must be in [0, 1): 0 keeps every weight, 0.5 drops half of them; "
            "1 would drop everything. Got {value}.",
            name=name, value=value,
        )
    return value


def check_heads_divide(d_out: int, num_heads: int) -> int:
    """Return the per-head width, or explain why the split is impossible."""
    if d_out % num_heads != 0:
        options = [h for h in range(1, d_out + 1) if d_out % h == 0]
        raise ExplainedValueError(
            "d_out ({d_out}) must be divisible by num_heads ({num_heads}) so that every "
            "head gets the same width. With d_out={d_out} you can use "
            "num_heads in {options}, or change d_out to a multiple of {num_heads}.",
            d_out=d_out, num_heads=num_heads, options=options,
        )
    return d_out // num_heads


def check_finite(x: torch.Tensor, name: str = "inputs") -> None:
    """Refuse NaN and +-inf, saying where the first one is."""
    if x.numel() == 0:
        return
    # Fast path: NaN propagates through aminmax, and +-inf would be the min or max.
    low, high = torch.aminmax(x.detach())
    if bool(torch.isfinite(low)) and bool(torch.isfinite(high)):
        return
    finite = torch.isfinite(x)
    if not bool(finite.all()):
        where = tuple(int(i) for i in (~finite).nonzero()[0].tolist())
        value = x[where].item()
        raise ExplainedValueError(
            "{name} must contain only finite numbers; found {value} at index {index}. "
            "Replace NaN and infinite values with ordinary numbers.",
            name=name, value=value, index=where,
        )


def embedding_width(x: object) -> int:
    """The last axis of a tensor (its embedding width), or 0 for anything else."""
    return int(x.shape[-1]) if isinstance(x, torch.Tensor) and x.dim() >= 1 else 0


def check_inputs(
    x: object,
    d_in: int,
    *,
    context_length: int | None = None,
    name: str = "inputs",
    ranks: tuple[int, ...] = (2, 3),
    dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """Check an embedding tensor of shape (T, d_in) or (B, T, d_in).

    ``dtype`` is the dtype of the module's weights, if any: a float64 input
    to a float32 module would otherwise fail deep inside a matmul.
    """
    _check_kind(x, d_in, name, ranks)
    _check_sizes(x, d_in, name)
    if context_length is not None and x.shape[-2] > context_length:
        raise ExplainedValueError(
            "{name} has {num_tokens} tokens, more than context_length={context_length}: "
            "the causal mask only covers {context_length} positions. Shorten the "
            "sequence or build the module with context_length >= {num_tokens}.",
            name=name, num_tokens=x.shape[-2], context_length=context_length,
        )
    if dtype is not None and x.dtype != dtype:
        raise ExplainedTypeError(
            "{name} has dtype {input_dtype}, but this module's weights are {weight_dtype}; "
            "convert the inputs with .to({weight_dtype}) (or the module with .to({input_dtype})).",
            name=name, input_dtype=x.dtype, weight_dtype=dtype,
        )
    check_finite(x, name)
    return x


def _check_kind(x: object, d_in: int, name: str, ranks: tuple[int, ...]) -> None:
    """A floating-point tensor of one of the accepted ranks."""
    if not isinstance(x, torch.Tensor):
        raise ExplainedTypeError(
            "{name} must be a torch.Tensor of shape (num_tokens, {d_in}) or "
            "(batch, num_tokens, {d_in}); got {kind}.",
            name=name, d_in=d_in, kind=type(x).__name__,
        )
    if not torch.is_floating_point(x):
        raise ExplainedTypeError(
            "{name} must hold floating-point numbers, got dtype {dtype}; call .float() on it first.",
            name=name, dtype=x.dtype,
        )
    if x.dim() not in ranks:
        got = dict(name=name, d_in=d_in, ndim=x.dim(), shape=tuple(x.shape))
        if tuple(ranks) == (2,):
            raise ExplainedValueError(
                "{name} must have shape (num_tokens, {d_in}); got a tensor with "
                "{ndim} dimension(s) and shape {shape}.", **got,
            )
        if tuple(ranks) == (3,):
            raise ExplainedValueError(
                "{name} must have shape (batch, num_tokens, {d_in}); got a tensor with "
                "{ndim} dimension(s) and shape {shape}.", **got,
            )
        raise ExplainedValueError(
            "{name} must have shape (num_tokens, {d_in}) or (batch, num_tokens, {d_in}); got a tensor with "
            "{ndim} dimension(s) and shape {shape}.", **got,
        )


def _check_sizes(x: torch.Tensor, d_in: int, name: str) -> None:
    """At least one token and one sequence, and the module's embedding width."""
    if x.shape[-2] == 0:
        raise ExplainedValueError("{name} is an empty sequence: attention needs at least one token.", name=name)
    if x.shape[-1] == 0:
        raise ExplainedValueError(
            "{name} has embedding width 0: every token needs a vector of at least one number.", name=name
        )
    if x.shape[-1] != d_in:
        raise ExplainedValueError(
            "{name} has embedding width {width}, but this module was built with "
            "d_in={d_in}. Make every token vector {d_in} numbers long, or rebuild the "
            "module with d_in={width}.",
            name=name, width=x.shape[-1], d_in=d_in,
        )
    if x.dim() == 3 and x.shape[0] == 0:
        raise ExplainedValueError("{name} has a batch of size 0: give at least one sequence.", name=name)


def check_index(index: object, size: int, name: str) -> int:
    """Check a token index such as the query position."""
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise ExplainedTypeError(
            "{name} must be an int, got {kind} {index!r}.", name=name, kind=type(index).__name__, index=index
        )
    index = int(index)
    if not 0 <= index < size:
        raise ExplainedValueError(
            "{name} must be between 0 and {last}, got {index}.", name=name, last=size - 1, index=index
        )
    return index


def check_seed(seed: object) -> int:
    """A seed is a whole number from 0 to 2**63 - 1."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ExplainedTypeError(
            "seed must be a whole number, got {kind} {seed!r}.", kind=type(seed).__name__, seed=seed
        )
    seed = int(seed)
    if not 0 <= seed < 2**63:
        raise ExplainedValueError("seed must be between 0 and 2**63 - 1, got {seed}.", seed=seed)
    return seed
