"""From sentences to per-head attention: tokens, vocabulary, padding, positions, heads."""

from __future__ import annotations

import math

import pytest
import torch

import attention
from attention import MultiHeadAttention, TextMultiHeadAttention, seeded

SENTENCES = [
    "I wonder what will come next!",
    "This is a basic example paragraph.",
    "Hello, what is a basic split?",
]


def upper(t: int) -> torch.Tensor:
    return torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)


# --------------------------------------------------------------------------- tokens and vocabulary


@pytest.mark.parametrize(
    "sentence,tokens",
    [
        ("I wonder what will come next!", ["i", "wonder", "what", "will", "come", "next"]),
        ("Hello, what is a basic split?", ["hello", "what", "is", "a", "basic", "split"]),
        ("  Spaces   and\ttabs\n", ["spaces", "and", "tabs"]),
        ("Don't panic -- it's fine.", ["don't", "panic", "it's", "fine"]),
        ("snake_case; GPT-2 (2019)", ["snake", "case", "gpt", "2", "2019"]),
        ("Ça VA, Zoë?", ["ça", "va", "zoë"]),
        ("...!?", []),
        ("", []),
    ],
)
def test_tokenize_lowercases_and_drops_punctuation(sentence, tokens):
    assert attention.tokenize(sentence) == tokens


def test_build_vocab_reserves_pad_and_is_sorted():
    vocab = attention.build_vocab(SENTENCES)
    assert vocab["<pad>"] == 0
    words = list(vocab)[1:]
    assert words == sorted(words)
    assert len(words) == len(set(words))  # "what", "is", "a", "basic" appear once each
    expected_words = {t for s in SENTENCES for t in attention.tokenize(s)}
    assert set(words) == expected_words
    assert sorted(vocab.values()) == list(range(len(vocab)))
    assert [vocab[w] for w in words] == list(range(1, len(words) + 1))


def test_encode_batch_pads_to_the_longest_sentence():
    sentences = ["Hello world", "This is a basic example paragraph.", "What next?"]
    vocab = attention.build_vocab(sentences)
    ids, padding = attention.encode_batch(sentences, vocab)
    real = ~padding  # encode_batch marks padding, as torch's key_padding_mask does
    assert ids.shape == real.shape == (3, 6)
    assert ids.dtype == torch.long and real.dtype == torch.bool
    lengths = [2, 6, 2]
    inverse = {i: w for w, i in vocab.items()}
    for row, sentence in enumerate(sentences):
        n = lengths[row]
        assert real[row].tolist() == [True] * n + [False] * (6 - n)
        assert (ids[row, n:] == vocab["<pad>"]).all()
        assert [inverse[int(i)] for i in ids[row, :n]] == attention.tokenize(sentence)
    assert (ids[real] != 0).all()  # no real token uses the padding id


def test_encode_batch_without_padding():
    vocab = attention.build_vocab(SENTENCES)
    ids, padding = attention.encode_batch(SENTENCES, vocab)
    assert ids.shape == (3, 6) and not bool(padding.any())


# --------------------------------------------------------------------------- positions


@pytest.mark.parametrize("d_model", [1, 2, 5, 8, 13])
def test_sinusoidal_positions_follow_the_formula(d_model):
    num_positions = 50
    pe = attention.sinusoidal_positions(num_positions, d_model)
    assert pe.shape == (num_positions, d_model)
    for pos in range(num_positions):
        for j in range(d_model):
            i = j // 2
            angle = pos / 10000 ** (2 * i / d_model)
            expected = math.sin(angle) if j % 2 == 0 else math.cos(angle)
            assert pe[pos, j].item() == pytest.approx(expected, abs=1e-4), (pos, j)


def test_sinusoidal_positions_first_row_and_distinctness():
    pe = attention.sinusoidal_positions(20, 8)
    assert pe[0, 0::2].tolist() == [0.0] * 4
    assert pe[0, 1::2].tolist() == [1.0] * 4
    # Every position gets its own code.
    assert torch.cdist(pe, pe).add(torch.eye(20)).min() > 1e-3


def test_positional_encoding_module_adds_positions():
    enc = attention.SinusoidalPositionalEncoding(6, max_length=10)
    x = torch.rand(2, 7, 6)
    torch.testing.assert_close(enc(x), x + attention.sinusoidal_positions(7, 6))
    assert "pe" not in enc.state_dict()  # fixed, not saved
    with pytest.raises(ValueError, match="max_length=10"):
        enc(torch.rand(1, 11, 6))


# --------------------------------------------------------------------------- text_to_attention


@pytest.mark.parametrize("query_sentence", [0, 1, 2])
@pytest.mark.parametrize("d_model,num_heads", [(8, 4), (12, 3), (4, 1)])
def test_text_to_attention_weights_per_head(query_sentence, d_model, num_heads):
    trace = attention.text_to_attention(SENTENCES, d_model=d_model, num_heads=num_heads, query_sentence=query_sentence)
    t = len(attention.tokenize(SENTENCES[query_sentence]))
    weights = trace.trace["weights"]
    assert weights.shape == (1, num_heads, t, t)
    torch.testing.assert_close(weights.sum(-1), torch.ones(1, num_heads, t))
    assert (weights >= 0).all()
    assert trace.trace["output"].shape == (1, t, d_model)
    assert trace.query_tokens == attention.tokenize(SENTENCES[query_sentence])
    assert trace.cross is False
    assert trace.vocab == attention.build_vocab(SENTENCES)


def test_text_to_attention_inputs_are_embeddings_plus_positions():
    with_pos = attention.text_to_attention(SENTENCES)
    without = attention.text_to_attention(SENTENCES, positional=False)
    torch.testing.assert_close(with_pos.trace["inputs"], with_pos.trace["embeddings"] + with_pos.trace["positions"])
    torch.testing.assert_close(without.trace["inputs"], without.trace["embeddings"])
    torch.testing.assert_close(with_pos.trace["embeddings"], without.trace["embeddings"])
    assert not torch.allclose(with_pos.trace["weights"], without.trace["weights"])
    # Same word, same embedding: "what" in sentence 1 and sentence 3.
    vocab = with_pos.vocab
    ids = with_pos.trace["ids"]
    where = (ids == vocab["what"]).nonzero().tolist()
    assert len(where) == 2
    (b1, t1), (b2, t2) = where
    torch.testing.assert_close(with_pos.trace["embeddings"][b1, t1], with_pos.trace["embeddings"][b2, t2])


def test_without_positions_repeated_words_are_indistinguishable():
    sentence = ["the cat saw the dog"]  # "the" at positions 0 and 3
    without = attention.text_to_attention(sentence, positional=False)
    torch.testing.assert_close(without.trace["output"][0, 0], without.trace["output"][0, 3])
    torch.testing.assert_close(without.trace["weights"][0, :, 0], without.trace["weights"][0, :, 3])
    with_pos = attention.text_to_attention(sentence, positional=True)
    assert not torch.allclose(with_pos.trace["output"][0, 0], with_pos.trace["output"][0, 3])


@pytest.mark.parametrize("query_sentence,key_sentence", [(0, 1), (1, 0), (2, 1)])
def test_cross_attention_shapes(query_sentence, key_sentence):
    sentences = ["Hello world", "This is a basic example paragraph.", "Attention is all you need"]
    trace = attention.text_to_attention(sentences, query_sentence=query_sentence, key_sentence=key_sentence)
    t_q = len(attention.tokenize(sentences[query_sentence]))
    t_k = len(attention.tokenize(sentences[key_sentence]))
    assert t_q != t_k
    assert trace.trace["weights"].shape == (1, 4, t_q, t_k)
    torch.testing.assert_close(trace.trace["weights"].sum(-1), torch.ones(1, 4, t_q))
    assert trace.trace["output"].shape == (1, t_q, 8)
    assert trace.cross is True
    assert trace.key_tokens == attention.tokenize(sentences[key_sentence])


def test_key_sentence_equal_to_query_is_self_attention():
    a = attention.text_to_attention(SENTENCES, query_sentence=1, key_sentence=1)
    b = attention.text_to_attention(SENTENCES, query_sentence=1)
    assert a.cross is False
    torch.testing.assert_close(a.trace["weights"], b.trace["weights"], atol=0, rtol=0)


@pytest.mark.parametrize("query_sentence", [0, 2])
def test_causal_self_attention_zeroes_the_future(query_sentence):
    trace = attention.text_to_attention(SENTENCES, causal=True, query_sentence=query_sentence)
    weights = trace.trace["weights"]
    t = weights.shape[-1]
    assert (weights[..., upper(t)] == 0).all()
    assert (weights[..., ~upper(t)] > 0).all()
    torch.testing.assert_close(weights.sum(-1), torch.ones(1, 4, t))
    # The first token can only attend to itself.
    assert (weights[0, :, 0, 0] == 1).all()
    full = attention.text_to_attention(SENTENCES, causal=False, query_sentence=query_sentence)
    assert (full.trace["weights"] > 0).all()
    # The last query sees every token in both cases.
    torch.testing.assert_close(weights[..., -1, :], full.trace["weights"][..., -1, :])


def test_same_seed_same_numbers_other_seed_other_numbers():
    a = attention.text_to_attention(SENTENCES, seed=7)
    b = attention.text_to_attention(SENTENCES, seed=7)
    c = attention.text_to_attention(SENTENCES, seed=8)
    assert a.trace.names() == b.trace.names()
    for name in a.trace.names():
        torch.testing.assert_close(a.trace[name], b.trace[name], atol=0, rtol=0)
    assert not torch.allclose(a.trace["embeddings"], c.trace["embeddings"])
    assert not torch.allclose(a.trace["weights"], c.trace["weights"])


def test_text_to_attention_leaves_global_rng_alone():
    torch.manual_seed(99)
    before = torch.random.get_rng_state()
    attention.text_to_attention(SENTENCES, seed=1)
    assert torch.equal(torch.random.get_rng_state(), before)


def test_text_to_attention_uses_the_seeded_modules():
    trace = attention.text_to_attention(SENTENCES, seed=5)
    torch.manual_seed(5)
    embedding = torch.nn.Embedding(len(trace.vocab), 8)
    torch.testing.assert_close(trace.trace["embeddings"], embedding(trace.trace["ids"]).detach())


# --------------------------------------------------------------------------- TextMultiHeadAttention


@pytest.fixture
def padded_batch():
    sentences = ["Hello world", "This is a basic example paragraph.", "What will come next?"]
    vocab = attention.build_vocab(sentences)
    ids, padding = attention.encode_batch(sentences, vocab)
    with seeded(3):
        emb = torch.nn.Embedding(len(vocab), 8)
        attn = TextMultiHeadAttention(8, 2)
    with torch.no_grad():
        x = emb(ids) + attention.sinusoidal_positions(ids.shape[1], 8)
    return attn, x, padding


@pytest.mark.parametrize("causal", [False, True])
def test_padding_keys_get_exactly_zero_weight(padded_batch, causal):
    attn, x, padding = padded_batch
    real = ~padding
    with torch.no_grad():
        out, probs = attn(x, x, x, key_padding_mask=padding, causal=causal)
    b, t = real.shape
    assert probs.shape == (b, 2, t, t)
    for i in range(b):
        assert (probs[i][..., ~real[i]] == 0).all()  # exactly zero
        assert (probs[i][..., real[i]] > 0).any()
    torch.testing.assert_close(probs.sum(-1), torch.ones(b, 2, t))
    assert out.shape == (b, t, 8)


def test_padding_does_not_change_real_tokens(padded_batch):
    attn, x, padding = padded_batch
    real = ~padding
    with torch.no_grad():
        out, probs = attn(x, x, x, key_padding_mask=padding)
        for i in range(x.shape[0]):
            n = int(real[i].sum())
            alone = x[i : i + 1, :n]
            out_alone, probs_alone = attn(alone, alone, alone)
            torch.testing.assert_close(out[i : i + 1, :n], out_alone, atol=1e-6, rtol=1e-5)
            torch.testing.assert_close(probs[i : i + 1, :, :n, :n], probs_alone, atol=1e-6, rtol=1e-5)


def test_without_the_mask_padding_leaks_into_attention(padded_batch):
    attn, x, padding = padded_batch
    real = ~padding
    with torch.no_grad():
        _, probs = attn(x, x, x)
    assert (probs[0][..., ~real[0]] > 0).all()


@pytest.mark.parametrize("causal", [False, True])
def test_text_attention_equals_book_multihead_attention(causal):
    with seeded(11):
        text = TextMultiHeadAttention(12, 3)
    book = MultiHeadAttention(12, 12, 9, 0.0, 3, qkv_bias=True, causal=causal)
    missing, unexpected = book.load_state_dict(text.state_dict(), strict=False)
    assert missing == ["mask"] and unexpected == []
    x = torch.randn(2, 9, 12, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        out, probs = text(x, x, x, causal=causal)
        book_out, book_probs = book.forward_with_weights(x)
    torch.testing.assert_close(out, book_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(probs, book_probs, atol=1e-6, rtol=1e-5)


def test_cross_attention_module_shapes():
    with seeded(0):
        attn = TextMultiHeadAttention(8, 4)
    q = torch.rand(2, 3, 8)
    kv = torch.rand(2, 5, 8)
    out, probs = attn(q, kv, kv)
    assert out.shape == (2, 3, 8)
    assert probs.shape == (2, 4, 3, 5)
    torch.testing.assert_close(probs.sum(-1), torch.ones(2, 4, 3))
