"""Small building blocks shared by every section: normalisations, masks, dropout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, get_args

import torch
from torch import nn

from .errors import ExplainedValueError
from .validation import check_dropout, check_positive_int, check_seed

__all__ = [
    "Normalisation",
    "NORMALISATIONS",
    "softmax_naive",
    "softmax_stable",
    "normalise",
    "check_normalisation",
    "seeded_dropout",
    "causal_mask",
    "future_mask",
    "mask_pattern",
    "apply_dropout",
    "active_dropout",
    "softmax_stability_examples",
    "softmax_stability_demo",
]

Normalisation = Literal["sum", "softmax_naive", "softmax"]
NORMALISATIONS: tuple[str, ...] = get_args(Normalisation)


def check_normalisation(method: object) -> str:
    """One of the three ways to turn scores into weights (3.3), or a message saying which exist."""
    if method not in NORMALISATIONS:
        raise ExplainedValueError("normalisation must be one of {methods}, got {method!r}.",
                                  methods=NORMALISATIONS, method=method)
    return str(method)


def softmax_naive(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """exp(x) / sum(exp(x)): the textbook formula, which overflows for large x."""
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)


def softmax_stable(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Softmax after subtracting the row maximum, the trick torch.softmax uses."""
    shifted = x - x.amax(dim=dim, keepdim=True)
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)


def normalise(scores: torch.Tensor, method: str = "softmax", dim: int = -1) -> torch.Tensor:
    """Turn scores into weights that sum to one along ``dim``.

    ``"sum"`` divides by the row sum (the chapter's first attempt: it breaks
    for negative scores and rows that sum to zero), ``"softmax_naive"`` is the
    plain exponential formula, ``"softmax"`` is ``torch.softmax``.
    """
    method = check_normalisation(method)
    if method == "sum":
        return scores / scores.sum(dim=dim, keepdim=True)
    if method == "softmax_naive":
        return softmax_naive(scores, dim=dim)
    return torch.softmax(scores, dim=dim)


def causal_mask(num_tokens: int) -> torch.Tensor:
    """Lower-triangular ones: row i may attend to keys 0..i (the book's mask_simple)."""
    num_tokens = check_positive_int(num_tokens, "num_tokens")
    return torch.tril(torch.ones(num_tokens, num_tokens))


def future_mask(num_tokens: int) -> torch.Tensor:
    """Boolean mask that is True above the diagonal: the keys a query must not see."""
    num_tokens = check_positive_int(num_tokens, "num_tokens")
    return torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool), diagonal=1)


MASK_PATTERNS = ("above", "diagonal", "below", "none")  # which cells of a square mask are True


def mask_pattern(mask: torch.Tensor | None) -> str | None:
    """Name the cells a square boolean mask hides: ``"above"`` the diagonal (the causal mask),
    the ``"diagonal"`` and above, ``"below"`` it, or ``"none"``; None for any other pattern."""
    if mask is None or not bool(mask.any()):
        return "none"
    n = mask.shape[-1]
    ones = torch.ones(n, n, dtype=torch.bool)
    patterns = {"above": torch.triu(ones, 1), "diagonal": torch.triu(ones), "below": torch.tril(ones, -1)}
    return next((name for name, p in patterns.items() if mask.shape == p.shape and torch.equal(mask, p)), None)


def apply_dropout(weights: torch.Tensor, p: float, *, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Dropout in training mode with its own generator.

    Returns ``(dropped, keep)``: survivors are scaled by 1 / (1 - p). With
    ``seed`` the draws are exactly those of ``torch.manual_seed(seed)``
    followed by ``nn.Dropout(p)``, but without touching the global generator.
    """
    p = check_dropout(p)
    seed = check_seed(seed)
    if p == 0.0:
        return weights, torch.ones_like(weights, dtype=torch.bool)
    generator = torch.Generator().manual_seed(seed)
    keep = torch.empty_like(weights).bernoulli_(1.0 - p, generator=generator)
    return weights * keep / (1.0 - p), keep.bool()


def seeded_dropout(p: float, seed: int, training: bool) -> Callable[[torch.Tensor], torch.Tensor] | None:
    """:func:`apply_dropout` with its own seeded generator as a function of the weights, or None
    when it would do nothing (p = 0, or evaluation mode)."""
    if p == 0.0 or not training:
        return None
    return lambda w: apply_dropout(w, p, seed=seed)[0]


def active_dropout(layer: nn.Dropout) -> nn.Dropout | None:
    """The dropout layer when it would drop anything (training mode, p > 0), else None."""
    return layer if layer.training and layer.p > 0 else None


def softmax_stability_examples() -> dict[str, torch.Tensor]:
    """Score rows where the naive softmax fails and the stable one does not."""
    return {
        "large scores (exp overflows to inf)": torch.tensor([1000.0, 1001.0, 1002.0]),
        "very negative scores (exp underflows to 0)": torch.tensor([-1000.0, -1001.0, -1002.0]),
        "ordinary scores": torch.tensor([1.0, 2.0, 3.0]),
    }


def softmax_stability_demo() -> list[dict[str, object]]:
    """For each example row: the scores and what each normalisation makes of them."""
    rows: list[dict[str, object]] = []
    for name, scores in softmax_stability_examples().items():
        rows.append(
            {
                "example": name,
                "scores": scores,
                "naive softmax": softmax_naive(scores),
                "stable softmax (subtract max)": softmax_stable(scores),
                "torch.softmax": torch.softmax(scores, dim=-1),
            }
        )
    return rows
