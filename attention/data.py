"""The chapter's running example: "Your journey starts with one step" in 3-D."""

from __future__ import annotations

import torch

__all__ = [
    "BOOK_TOKENS", "BOOK_INPUTS", "BOOK_BATCHED_HEADS", "book_inputs", "book_batched_heads", "random_inputs",
    "near_duplicate_inputs",
]

BOOK_TOKENS: tuple[str, ...] = ("Your", "journey", "starts", "with", "one", "step")

BOOK_INPUTS: tuple[tuple[float, ...], ...] = (
    (0.43, 0.15, 0.89),  # Your     (x^1)
    (0.55, 0.87, 0.66),  # journey  (x^2)
    (0.57, 0.85, 0.64),  # starts   (x^3)
    (0.22, 0.58, 0.33),  # with     (x^4)
    (0.77, 0.25, 0.10),  # one      (x^5)
    (0.05, 0.80, 0.55),  # step     (x^6)
)

# 3.6.2's example of a batched matrix product: (b, num_heads, num_tokens, head_dim) = (1, 2, 3, 4).
BOOK_BATCHED_HEADS: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...] = (
    (
        ((0.2745, 0.6584, 0.2775, 0.8573), (0.8993, 0.0390, 0.9268, 0.7388), (0.7179, 0.7058, 0.9156, 0.4340)),
        ((0.0772, 0.3565, 0.1479, 0.5331), (0.4066, 0.2318, 0.4545, 0.9737), (0.4606, 0.5159, 0.4220, 0.5786)),
    ),
)


def book_inputs() -> torch.Tensor:
    """A fresh (6, 3) tensor of the chapter's embeddings."""
    return torch.tensor(BOOK_INPUTS)


def book_batched_heads() -> torch.Tensor:
    """A fresh (1, 2, 3, 4) tensor: 3.6.2's example of one batch with two heads."""
    return torch.tensor(BOOK_BATCHED_HEADS)


def random_inputs(num_tokens: int, dim: int, seed: int) -> torch.Tensor:
    """Uniform [0, 1) embeddings from their own generator (no global state)."""
    generator = torch.Generator().manual_seed(seed)
    return torch.rand(num_tokens, dim, generator=generator)


def near_duplicate_inputs() -> torch.Tensor:
    """The chapter's inputs with "step" moved almost onto "journey".

    Two nearly equal tokens get nearly equal scores against every query, so
    their columns in the weight matrix look alike: attention cannot tell them
    apart without position information.
    """
    x = book_inputs()
    x[5] = x[1] + torch.tensor([0.01, -0.01, 0.005])
    return x
