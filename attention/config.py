"""One small, validated configuration for a multi-head attention module."""

from __future__ import annotations

from dataclasses import dataclass

from .validation import check_dropout, check_heads_divide, check_positive_int

__all__ = ["AttentionConfig", "GPT2_SMALL"]


@dataclass(frozen=True)
class AttentionConfig:
    """The chapter's constructor arguments, checked once.

    >>> AttentionConfig(d_in=3, d_out=2, context_length=6, num_heads=2).head_dim
    1
    """

    d_in: int
    d_out: int
    context_length: int
    dropout: float = 0.0
    num_heads: int = 1
    qkv_bias: bool = False
    causal: bool = True

    def __post_init__(self) -> None:
        check_positive_int(self.d_in, "d_in")
        check_positive_int(self.d_out, "d_out")
        check_positive_int(self.context_length, "context_length")
        check_positive_int(self.num_heads, "num_heads")
        check_dropout(self.dropout)
        check_heads_divide(self.d_out, self.num_heads)

    @property
    def head_dim(self) -> int:
        return self.d_out // self.num_heads

    def book_args(self) -> tuple[int, int, int, float, int, bool]:
        """Positional arguments in the book's order for MultiHeadAttention(...)."""
        return (self.d_in, self.d_out, self.context_length, self.dropout, self.num_heads, self.qkv_bias)


# Exercise 3.3: the attention module of the smallest GPT-2.
GPT2_SMALL = AttentionConfig(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12)
