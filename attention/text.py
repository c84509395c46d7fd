"""From text to attention: tokens, vocabulary, embeddings, positions, heads.

The chapter starts from a ready embedding matrix. This module builds one
from sentences, the way the seed notebook on multi-head attention does,
and fixes what the notebook leaves rough: a padding token so sentences of
different lengths fit in one batch, a padding mask so no query attends to
padding, and separate query/key/value inputs so one sentence can attend to
another (cross-attention).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import torch
from torch import nn

from .core import attend
from .errors import ExplainedTypeError, ExplainedValueError
from .ops import future_mask
from .rng import seeded
from .trace import Trace
from .validation import (
    check_heads_divide,
    check_index,
    check_inputs,
    check_positive_int,
    check_seed,
)

__all__ = [
    "PAD",
    "tokenize",
    "build_vocab",
    "encode_batch",
    "sinusoidal_positions",
    "SinusoidalPositionalEncoding",
    "TextMultiHeadAttention",
    "text_to_attention",
    "TextResult",
]

PAD = "<pad>"
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)


def tokenize(sentence: str) -> list[str]:
    """Lower-case words; punctuation is dropped (``"Hello, world!"`` -> hello, world)."""
    if not isinstance(sentence, str):
        raise ExplainedTypeError("sentence must be a str, got {kind}.", kind=type(sentence).__name__)
    return _WORD.findall(sentence.lower())


def build_vocab(sentences: list[str]) -> dict[str, int]:
    """Sorted unique tokens, with ``<pad>`` reserved as id 0."""
    words = sorted({tok for s in sentences for tok in tokenize(s)})
    return {PAD: 0, **{w: i + 1 for i, w in enumerate(words)}}


def encode_batch(sentences: list[str], vocab: dict[str, int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Token ids padded to the longest sentence, and a padding mask: True on padding, as torch's."""
    if not sentences:
        raise ExplainedValueError("give at least one sentence.")
    tokenized = [tokenize(s) for s in sentences]
    for i, toks in enumerate(tokenized):
        if not toks:
            raise ExplainedValueError("sentence {number} ({sentence!r}) has no words to attend to.",
                                      number=i + 1, sentence=sentences[i])
        unknown = [t for t in toks if t not in vocab]
        if unknown:
            raise ExplainedValueError("sentence {number} has words missing from the vocabulary: {unknown}.",
                                      number=i + 1, unknown=unknown)
    length = max(len(t) for t in tokenized)
    ids = torch.zeros(len(sentences), length, dtype=torch.long)  # (B, T), 0 = <pad>
    padding = torch.ones(len(sentences), length, dtype=torch.bool)
    for i, toks in enumerate(tokenized):
        ids[i, : len(toks)] = torch.tensor([vocab[t] for t in toks])
        padding[i, : len(toks)] = False
    return ids, padding


def sinusoidal_positions(num_positions: int, d_model: int) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same), shape (T, d)."""
    num_positions = check_positive_int(num_positions, "num_positions")
    d_model = check_positive_int(d_model, "d_model")
    pos = torch.arange(num_positions, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(num_positions, d_model)
    pe[:, 0::2] = torch.sin(pos * freq)
    pe[:, 1::2] = torch.cos(pos * freq[: d_model // 2])  # odd widths have one fewer cosine
    return pe


class SinusoidalPositionalEncoding(nn.Module):
    """Adds fixed sine/cosine position signals to token embeddings."""

    def __init__(self, d_model: int, max_length: int = 512):
        super().__init__()
        self.register_buffer("pe", sinusoidal_positions(max_length, d_model), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        t = x.shape[-2]
        if t > self.pe.shape[0]:
            raise ExplainedValueError("{num_tokens} tokens exceed the encoding's max_length={max_length}.",
                                      num_tokens=t, max_length=self.pe.shape[0])
        return x + self.pe[:t]  # (B, T, d) + (T, d)


class TextMultiHeadAttention(nn.Module):
    """Multi-head attention with separate query, key and value inputs.

    ``forward(query, key, value, key_padding_mask=None, causal=False)``
    returns ``(output, probs)`` with probs shaped (B, H, T_query, T_key).
    With ``key is query`` it is self-attention; with another sentence as
    key and value it is cross-attention.
    """

    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.d_model = check_positive_int(d_model, "d_model")
        self.num_heads = check_positive_int(num_heads, "num_heads")
        self.head_dim = check_heads_divide(d_model, num_heads)
        self.W_query = nn.Linear(d_model, d_model)
        self.W_key = nn.Linear(d_model, d_model)
        self.W_value = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        # (B, T, d) -> (B, T, H, hd) -> (B, H, T, hd)
        return x.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        key_padding_mask: torch.Tensor | None = None,
        causal: bool = False,
        trace: Trace | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``key_padding_mask`` is True on padding (keys to ignore), as in ``torch.nn.MultiheadAttention``."""
        trace = trace if trace is not None else Trace.keeping("weights")
        _check_text_attention(self, query, key, value, key_padding_mask, causal)
        q = self._heads(self.W_query(query))  # (B, H, T_q, hd)
        k = self._heads(self.W_key(key))  # (B, H, T_k, hd)
        v = self._heads(self.W_value(value))
        hide = None if key_padding_mask is None else key_padding_mask[:, None, None, :]  # (B, 1, 1, T_k)
        if causal:
            future = future_mask(query.shape[1])
            hide = future if hide is None else hide | future
        context = attend(q, k, v, trace, mask=hide)  # (B, H, T_q, hd)
        b, _, t_q, _ = context.shape
        merged = context.transpose(1, 2).reshape(b, t_q, self.d_model)  # (B, T_q, d)
        return self.out_proj(merged), trace["weights"]


def _check_text_attention(
    module: TextMultiHeadAttention, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
    key_padding_mask: torch.Tensor | None, causal: bool,
) -> None:
    dtype = module.W_query.weight.dtype
    for name, x in (("query", query), ("key", key), ("value", value)):
        check_inputs(x, module.d_model, name=name, ranks=(3,), dtype=dtype)
    if key.shape[:2] != value.shape[:2]:
        raise ExplainedValueError("key and value must have the same batch size and length.")
    if causal and query.shape[1] != key.shape[1]:
        raise ExplainedValueError(
            "causal=True with {num_queries} queries and {num_keys} keys: the causal mask is meant "
            "for self-attention, where every query is also a key.",
            num_queries=query.shape[1], num_keys=key.shape[1],
        )
    if query.shape[0] != key.shape[0]:
        raise ExplainedValueError(
            "query has batch size {query_batch} but key has {key_batch}; "
            "pair every query sentence with one key sentence.",
            query_batch=query.shape[0], key_batch=key.shape[0],
        )
    if key_padding_mask is not None:
        _check_padding_mask(key_padding_mask, key)


def _check_padding_mask(key_padding_mask: torch.Tensor, key: torch.Tensor) -> None:
    if not isinstance(key_padding_mask, torch.Tensor) or key_padding_mask.dtype != torch.bool:
        raise ExplainedTypeError("key_padding_mask must be a bool tensor, True on padding and False on real tokens.")
    if key_padding_mask.shape != key.shape[:2]:
        raise ExplainedValueError(
            "key_padding_mask has shape {shape}; it needs one entry "
            "per key token, shape {expected}.",
            shape=tuple(key_padding_mask.shape), expected=tuple(key.shape[:2]),
        )
    if bool(key_padding_mask.all(dim=-1).any()):
        raise ExplainedValueError("key_padding_mask hides every key of a sentence: nothing left to attend to.")


@dataclass(frozen=True)
class TextResult:
    """Sentences turned into attention: the recorded steps and the words behind them."""

    trace: Trace
    vocab: dict[str, int]
    tokens: list[list[str]]  # every sentence's tokens
    query_tokens: list[str]
    key_tokens: list[str]
    cross: bool  # the queries come from one sentence, the keys and values from another


def text_to_attention(
    sentences: list[str],
    *,
    d_model: int = 8,
    num_heads: int = 4,
    seed: int = 123,
    positional: bool = True,
    causal: bool = False,
    query_sentence: int = 0,
    key_sentence: int | None = None,
) -> TextResult:
    """Sentences -> ids -> embeddings (+ positions) -> per-head attention.

    ``key_sentence=None`` (or equal to ``query_sentence``) is self-attention;
    another index makes the query sentence attend to that sentence.
    """
    sentences = _check_sentences(sentences)
    seed, d_model = check_seed(seed), check_positive_int(d_model, "d_model")
    check_heads_divide(d_model, check_positive_int(num_heads, "num_heads"))
    qi = check_index(query_sentence, len(sentences), "query_sentence")
    ki = qi if key_sentence is None else check_index(key_sentence, len(sentences), "key_sentence")
    vocab = build_vocab(sentences)
    with seeded(seed):
        embedding = nn.Embedding(len(vocab), d_model)
        attn = TextMultiHeadAttention(d_model, num_heads)
    tokens = [tokenize(s) for s in sentences]
    trace = Trace()
    with torch.no_grad():
        x = _embed(trace, sentences, vocab, embedding, positional)  # (B, T, d)
        xq = x[qi : qi + 1, : len(tokens[qi])]  # (1, T_q, d): the query sentence, unpadded
        xk = x[ki : ki + 1, : len(tokens[ki])]  # (1, T_k, d)
        trace.add("query_inputs", xq[0], ("token", "dim"), "the query sentence's inputs, without padding")
        out, _ = attn(xq, xk, xk, causal=causal and ki == qi, trace=trace)
    trace.add("output", out, ("batch", "token", "d_model"), "out_proj of the merged heads")
    return TextResult(trace, vocab, tokens, tokens[qi], tokens[ki], ki != qi)


def _check_sentences(sentences: object) -> list[str]:
    if isinstance(sentences, str) or not isinstance(sentences, list | tuple):
        raise ExplainedTypeError(
            "sentences must be a list of strings, got {kind}; "
            'wrap a single sentence in a list: ["..."].',
            kind=type(sentences).__name__,
        )
    if not sentences:
        raise ExplainedValueError("give at least one sentence.")
    return list(sentences)


def _embed(trace: Trace, sentences: list[str], vocab: dict[str, int], embedding: nn.Embedding,
           positional: bool) -> torch.Tensor:
    """Ids, padding, embeddings and positions of every sentence; returns the attention inputs."""
    ids, padding = encode_batch(sentences, vocab)
    trace.add("ids", ids, ("sentence", "token"), "token ids, padded with <pad> = 0")
    trace.add("padding_mask", (~padding).float(), ("sentence", "token"), "1 on real tokens, 0 on padding")
    emb = embedding(ids)  # (B, T, d)
    trace.add("embeddings", emb, ("sentence", "token", "dim"), "nn.Embedding lookup of each id")
    pe = sinusoidal_positions(ids.shape[1], embedding.embedding_dim)  # (T, d)
    trace.add("positions", pe, ("token", "dim"), "sinusoidal positional encoding")
    x = emb + pe if positional else emb
    trace.add("inputs", x, ("sentence", "token", "dim"), "embeddings + positions" if positional else "the embeddings")
    return x
