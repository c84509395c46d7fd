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
            raise TypeError(
                f"{name} must be a whole number (an int), got the float {value!r}; "
                f"write {int(value)} instead of {value!r}."
            )
        raise TypeError(
            f"{name} must be a whole number (an int), got {type(value).__name__} {value!r}."
        )
    value = int(value)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}.")
    return value


def check_dropout(value: object, name: str = "dropout") -> float:
    """Return ``value`` as a float if it is a rate in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a number in [0, 1), got {type(value).__name__} {value!r}."
        )
    value = float(value)
    if math.isnan(value) or not 0.0 <= value < 1.0:
        raise ValueError(
            f"{name} must be in [0, 1): 0 keeps every weight, 0.5 drops half of them; "
            f"1 would drop everything. Got {value}."
        )
    return value


def check_heads_divide(d_out: int, num_heads: int) -> int:
    """Return the per-head width, or explain why the split is impossible."""
    if d_out % num_heads != 0:
        options = [h for h in range(1, d_out + 1) if d_out % h == 0]
        raise ValueError(
            f"d_out ({d_out}) must be divisible by num_heads ({num_heads}) so that every "
            f"head gets the same width. With d_out={d_out} you can use "
            f"num_heads in {options}, or change d_out to a multiple of {num_heads}."
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
        raise ValueError(
            f"{name} must contain only finite numbers; found {value} at index {where}. "
            "Replace NaN and infinite values with ordinary numbers."
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
        raise ValueError(
            f"{name} has {x.shape[-2]} tokens, more than context_length={context_length}: "
            f"the causal mask only covers {context_length} positions. Shorten the "
            f"sequence or build the module with context_length >= {x.shape[-2]}."
        )
    if dtype is not None and x.dtype != dtype:
        raise TypeError(
            f"{name} has dtype {x.dtype}, but this module's weights are {dtype}; "
            f"convert the inputs with .to({dtype}) (or the module with .to({x.dtype}))."
        )
    check_finite(x, name)
    return x


def _check_kind(x: object, d_in: int, name: str, ranks: tuple[int, ...]) -> None:
    """A floating-point tensor of one of the accepted ranks."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(
            f"{name} must be a torch.Tensor of shape (num_tokens, {d_in}) or "
            f"(batch, num_tokens, {d_in}); got {type(x).__name__}."
        )
    if not torch.is_floating_point(x):
        raise TypeError(
            f"{name} must hold floating-point numbers, got dtype {x.dtype}; call .float() on it first."
        )
    if x.dim() not in ranks:
        expected = " or ".join({2: f"(num_tokens, {d_in})", 3: f"(batch, num_tokens, {d_in})"}[r] for r in ranks)
        raise ValueError(
            f"{name} must have shape {expected}; got a tensor with "
            f"{x.dim()} dimension(s) and shape {tuple(x.shape)}."
        )


def _check_sizes(x: torch.Tensor, d_in: int, name: str) -> None:
    """At least one token and one sequence, and the module's embedding width."""
    if x.shape[-2] == 0:
        raise ValueError(f"{name} is an empty sequence: attention needs at least one token.")
    if x.shape[-1] == 0:
        raise ValueError(f"{name} has embedding width 0: every token needs a vector of at least one number.")
    if x.shape[-1] != d_in:
        raise ValueError(
            f"{name} has embedding width {x.shape[-1]}, but this module was built with "
            f"d_in={d_in}. Make every token vector {d_in} numbers long, or rebuild the "
            f"module with d_in={x.shape[-1]}."
        )
    if x.dim() == 3 and x.shape[0] == 0:
        raise ValueError(f"{name} has a batch of size 0: give at least one sequence.")


def check_index(index: object, size: int, name: str) -> int:
    """Check a token index such as the query position."""
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(index).__name__} {index!r}.")
    index = int(index)
    if not 0 <= index < size:
        raise ValueError(f"{name} must be between 0 and {size - 1}, got {index}.")
    return index


def check_seed(seed: object) -> int:
    """A seed is a whole number from 0 to 2**63 - 1."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be a whole number, got {type(seed).__name__} {seed!r}.")
    seed = int(seed)
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed must be between 0 and 2**63 - 1, got {seed}.")
    return seed
