"""Different ways of computing attention that the chapter says must agree, do agree.

Random inputs and weights over several shapes, seeds, bias and mask settings:
loops vs matrix products, the two causal masks, one head vs CausalAttention,
the wrapper vs MultiHeadAttention, and every efficient variant vs the book
class. Plus the invariants every attention computation must satisfy.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

import attention
from attention import (
    ATTENTION_BACKENDS,
    BACKEND_RETURNS_WEIGHTS,
    VARIANTS,
    AttentionConfig,
    CausalAttention,
    FastMultiHeadAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
    TorchMultiheadAttention,
    Trace,
    seeded,
)

# (d_in, d_out, num_heads, num_tokens, batch)
SHAPES = [(3, 2, 2, 6, 2), (8, 8, 2, 10, 3), (16, 12, 3, 7, 1), (12, 12, 4, 5, 2)]
SHAPE_IDS = [f"din{s[0]}-dout{s[1]}-h{s[2]}-T{s[3]}-B{s[4]}" for s in SHAPES]
SEEDS = [0, 1, 2024]

shapes = pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
seeds = pytest.mark.parametrize("seed", SEEDS)
biases = pytest.mark.parametrize("qkv_bias", [False, True], ids=["nobias", "bias"])
causals = pytest.mark.parametrize("causal", [True, False], ids=["causal", "full"])


def rand_inputs(seed: int, *shape: int) -> torch.Tensor:
    """Standard-normal inputs from a private generator (the global RNG is left alone)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def book_mha(shape, seed, qkv_bias, causal, *, dropout=0.0) -> MultiHeadAttention:
    d_in, d_out, heads, t, _ = shape
    with seeded(seed):
        return MultiHeadAttention(d_in, d_out, t, dropout, heads, qkv_bias, causal=causal)


def upper(t_q: int, t_k: int | None = None) -> torch.Tensor:
    t_k = t_q if t_k is None else t_k
    return torch.triu(torch.ones(t_q, t_k, dtype=torch.bool), diagonal=1)


# --------------------------------------------------------------------------- loops vs matmul


@pytest.mark.parametrize("num_tokens,dim", [(1, 1), (6, 3), (9, 5), (4, 16)])
@seeds
def test_loop_and_matmul_scores_agree(num_tokens, dim, seed):
    x = rand_inputs(seed, num_tokens, dim)
    loop = attention.attention_scores_loop(x)
    matmul = attention.attention_scores_matmul(x)
    assert loop.shape == matmul.shape == (num_tokens, num_tokens)
    torch.testing.assert_close(loop, matmul, atol=1e-5, rtol=1e-5)
    # Independent reference: the score of (i, j) is the dot product of tokens i and j.
    for i in range(num_tokens):
        for j in range(num_tokens):
            assert loop[i, j].item() == pytest.approx(float((x[i] * x[j]).sum()), abs=1e-5)


@pytest.mark.parametrize("num_tokens,dim", [(1, 1), (6, 3), (9, 5)])
@seeds
def test_loop_and_matmul_context_agree(num_tokens, dim, seed):
    x = rand_inputs(seed, num_tokens, dim)
    w = torch.softmax(rand_inputs(seed + 1, num_tokens, num_tokens), dim=-1)
    torch.testing.assert_close(attention.context_vectors_loop(w, x), w @ x, atol=1e-5, rtol=1e-5)


def test_loop_helpers_keep_the_input_dtype():
    x = rand_inputs(3, 5, 4).double()
    scores = attention.attention_scores_loop(x)
    assert scores.dtype == torch.float64
    torch.testing.assert_close(scores, x @ x.T, atol=1e-12, rtol=0)
    w = torch.softmax(scores, dim=-1)
    context = attention.context_vectors_loop(w, x)
    assert context.dtype == torch.float64
    torch.testing.assert_close(context, w @ x, atol=1e-12, rtol=0)


@pytest.mark.parametrize("normalisation", ["sum", "softmax_naive", "softmax"])
@causals
@seeds
def test_simple_self_attention_records_agreeing_comparisons(normalisation, causal, seed):
    # Positive inputs keep the "sum" normalisation well defined.
    x = torch.rand(7, 4, generator=torch.Generator().manual_seed(seed)) + 0.1
    trace = attention.simple_self_attention(x, normalisation=normalisation, causal=causal)
    assert len(trace.comparisons) == 2
    for cmp in trace.comparisons:
        assert cmp.agrees(1e-5), (cmp.label_a, cmp.label_b, cmp.max_abs_diff)
    weights = trace["weights"]
    torch.testing.assert_close(weights.sum(-1), torch.ones(7))
    torch.testing.assert_close(trace["context"], weights @ x)
    if causal:
        assert (weights[upper(7)] == 0).all()
    else:
        assert (weights > 0).all()


@pytest.mark.parametrize("query_index", [0, 3, 6])
@causals
@seeds
def test_simple_attention_for_query_agrees_with_all_queries(query_index, causal, seed):
    x = rand_inputs(seed, 7, 4)
    one = attention.simple_attention_for_query(x, query_index, causal=causal)
    every = attention.simple_self_attention(x, causal=causal)
    for cmp in one.comparisons:
        assert cmp.agrees(1e-5), (cmp.label_a, cmp.max_abs_diff)
    torch.testing.assert_close(one["weights"], every["weights"][query_index])
    torch.testing.assert_close(one["context"], every["context"][query_index])
    if causal:
        assert (one["weights"][query_index + 1 :] == 0).all()


# --------------------------------------------------------------------------- causal masks


@biases
@pytest.mark.parametrize("num_tokens,d_in,d_out", [(6, 3, 2), (9, 5, 4), (1, 3, 3), (12, 8, 1)])
@seeds
def test_renormalise_equals_minus_inf_mask(num_tokens, d_in, d_out, qkv_bias, seed):
    x = rand_inputs(seed, num_tokens, d_in)
    trace = attention.causal_attention_step_by_step(x, d_out=d_out, seed=seed, qkv_bias=qkv_bias)
    (cmp,) = trace.comparisons
    assert cmp.agrees(1e-6), cmp.max_abs_diff
    torch.testing.assert_close(trace["masked_simple_norm"], trace["masked_weights"])
    hidden = upper(num_tokens)
    assert (trace["masked_weights"][hidden] == 0).all()
    assert (trace["masked_simple_norm"][hidden] == 0).all()
    torch.testing.assert_close(trace["masked_weights"].sum(-1), torch.ones(num_tokens))
    torch.testing.assert_close(trace["context"], trace["masked_weights"] @ trace["values"])


def test_causal_step_by_step_without_mask_stops_at_weights():
    x = rand_inputs(0, 5, 3)
    trace = attention.causal_attention_step_by_step(x, causal=False)
    assert "masked_weights" not in trace and not trace.comparisons
    torch.testing.assert_close(trace["context"], trace["weights"] @ trace["values"])


# --------------------------------------------------------------------------- one head, many heads


def copy_linear(dst: nn.Linear, src: nn.Linear) -> None:
    with torch.no_grad():
        dst.weight.copy_(src.weight)
        if src.bias is not None:
            dst.bias.copy_(src.bias)


@shapes
@biases
@causals
@seeds
def test_one_head_multihead_is_causal_attention_plus_out_proj(shape, qkv_bias, causal, seed):
    d_in, d_out, _, t, b = shape
    one = book_mha((d_in, d_out, 1, t, b), seed, qkv_bias, causal)
    with seeded(seed + 1):
        ca = CausalAttention(d_in, d_out, t, 0.0, qkv_bias, causal=causal)
    for name in ("W_query", "W_key", "W_value"):
        copy_linear(getattr(ca, name), getattr(one, name))
    x = rand_inputs(seed, b, t, d_in)
    torch.testing.assert_close(one(x), one.out_proj(ca(x)), atol=1e-5, rtol=1e-5)


@shapes
@biases
@causals
@seeds
def test_wrapper_equals_multihead_with_concatenated_weights(shape, qkv_bias, causal, seed):
    d_in, d_out, heads, t, b = shape
    head_dim = d_out // heads
    with seeded(seed):
        wrapper = MultiHeadAttentionWrapper(d_in, head_dim, t, 0.0, heads, qkv_bias, causal=causal)
    mha = book_mha(shape, seed + 1, qkv_bias, causal)
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            layers = [getattr(h, name) for h in wrapper.heads]
            getattr(mha, name).weight.copy_(torch.cat([lin.weight for lin in layers], dim=0))
            if qkv_bias:
                getattr(mha, name).bias.copy_(torch.cat([lin.bias for lin in layers], dim=0))
        mha.out_proj.weight.copy_(torch.eye(d_out))
        mha.out_proj.bias.zero_()
    x = rand_inputs(seed, b, t, d_in)
    expected = wrapper(x)
    assert expected.shape == (b, t, d_out)
    torch.testing.assert_close(mha(x), expected, atol=1e-5, rtol=1e-5)
    # Head h of the book class attends exactly like the wrapper's head h.
    mha_weights = mha.forward_with_weights(x)[1]
    wrapper_weights = wrapper.trace(x)["weights"]  # (B, H, T, T)
    torch.testing.assert_close(mha_weights, wrapper_weights, atol=1e-6, rtol=1e-5)


# --------------------------------------------------------------------------- efficient variants


def test_variant_registry_flags():
    assert set(ATTENTION_BACKENDS) == {"eager", "einsum", "sdpa"}
    assert BACKEND_RETURNS_WEIGHTS == {"eager": True, "einsum": True, "sdpa": False}
    assert VARIANTS[0].name == attention.efficient.BOOK == "book MultiHeadAttention"
    assert attention.efficient.variant("combined QKV + SDPA").returns_weights is False
    assert attention.efficient.variant("combined QKV + eager").returns_weights is True
    with pytest.raises(ValueError, match="variant must be one of"):
        attention.efficient.variant("flash")


@shapes
@biases
@causals
@seeds
def test_compare_variants_all_agree(shape, qkv_bias, causal, seed):
    d_in, d_out, heads, t, b = shape
    config = AttentionConfig(d_in, d_out, t, 0.0, heads, qkv_bias, causal)
    book = book_mha(shape, seed, qkv_bias, causal)
    x = rand_inputs(seed, b, t, d_in)
    expected = book(x)
    results = attention.compare_variants(book, config, x)
    assert [r.name for r in results] == [v.name for v in VARIANTS]
    assert results.book.name == "book MultiHeadAttention"
    torch.testing.assert_close(results.book.output, expected, atol=0, rtol=0)
    for r in results:
        if r.name == "torch.nn.MultiheadAttention" and d_in != d_out:
            assert r.output is None and r.comparison is None
            assert "d_in == d_out" in r.unavailable
            assert not r.agrees()  # nothing to agree with
            continue
        assert r.unavailable is None, r.name
        assert r.output.shape == (b, t, d_out)
        torch.testing.assert_close(r.output, expected, atol=1e-5, rtol=0)
        assert r.comparison.agrees(1e-5), (r.name, r.comparison.max_abs_diff)
        assert r.agrees(1e-5), r.name
        if r.returns_weights:  # the same per-head weights as the book module, (B, H, T, T)
            assert r.weights.shape == (b, heads, t, t)
            torch.testing.assert_close(r.weights, book.forward_with_weights(x)[1], atol=1e-5, rtol=0)
            assert r.weights_comparison.agrees(1e-5), (r.name, r.weights_comparison.max_abs_diff)
        else:  # SDPA never materialises the weights, and says so
            assert r.weights is None and r.weights_comparison is None


@shapes
@biases
@causals
@pytest.mark.parametrize("backend", list(ATTENTION_BACKENDS))
def test_fast_backends_match_book_outputs_and_weights(shape, qkv_bias, causal, backend):
    d_in, d_out, heads, t, b = shape
    config = AttentionConfig(d_in, d_out, t, 0.0, heads, qkv_bias, causal)
    book = book_mha(shape, 7, qkv_bias, causal).eval()
    fast = FastMultiHeadAttention(config, backend).load_from(book).eval()
    x = rand_inputs(11, b, t, d_in)
    out, weights = fast(x, need_weights=True)
    book_out, book_weights = book.forward_with_weights(x)
    torch.testing.assert_close(out, book_out, atol=1e-5, rtol=0)
    if BACKEND_RETURNS_WEIGHTS[backend]:
        assert weights is not None
        torch.testing.assert_close(weights, book_weights, atol=1e-6, rtol=1e-5)
    else:
        assert weights is None
    _, no_weights = fast(x)
    assert no_weights is None


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[0] == s[1]], ids=lambda s: f"d{s[0]}-h{s[2]}")
@biases
@causals
def test_torch_multihead_attention_matches_book(shape, qkv_bias, causal):
    d_in, d_out, heads, t, b = shape
    config = AttentionConfig(d_in, d_out, t, 0.0, heads, qkv_bias, causal)
    book = book_mha(shape, 5, qkv_bias, causal).eval()
    torch_mha = TorchMultiheadAttention(config).load_from(book).eval()
    x = rand_inputs(13, b, t, d_in)
    out, weights = torch_mha(x, need_weights=True)
    book_out, book_weights = book.forward_with_weights(x)
    torch.testing.assert_close(out, book_out, atol=1e-5, rtol=0)
    torch.testing.assert_close(weights, book_weights, atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(torch_mha(x)[0], book_out, atol=1e-5, rtol=0)


@pytest.mark.parametrize("d_in,d_out", [(3, 2), (16, 12), (4, 8)])
def test_torch_multihead_attention_needs_square_projection(d_in, d_out):
    config = AttentionConfig(d_in, d_out, 6, 0.0, 2)
    with pytest.raises(ValueError, match="d_in == d_out"):
        TorchMultiheadAttention(config)
    book = MultiHeadAttention(*config.book_args())
    with pytest.raises(ValueError, match="d_in == d_out"):
        attention.build_variant("torch.nn.MultiheadAttention", config, book)


def test_build_variant_rejects_unknown_names_and_mismatched_modules():
    config = AttentionConfig(8, 8, 6, 0.0, 2)
    book = MultiHeadAttention(*config.book_args())
    with pytest.raises(ValueError, match="variant must be one of"):
        attention.build_variant("flash", config, book)
    with pytest.raises(ValueError, match="backend must be one of"):
        FastMultiHeadAttention(config, "flash")
    other = MultiHeadAttention(8, 8, 6, 0.0, 4)
    with pytest.raises(ValueError, match="cannot load weights"):
        FastMultiHeadAttention(config, "eager").load_from(other)


def test_build_variant_follows_book_training_mode():
    config = AttentionConfig(8, 8, 6, 0.1, 2)
    book = MultiHeadAttention(*config.book_args())
    for v in VARIANTS:
        assert attention.build_variant(v.name, config, book.train()).training
        assert not attention.build_variant(v.name, config, book.eval()).training


# --------------------------------------------------------------------------- invariants


@shapes
@biases
@causals
@seeds
def test_weight_rows_sum_to_one_and_future_is_zero(shape, qkv_bias, causal, seed):
    d_in, _, heads, t, b = shape
    book = book_mha(shape, seed, qkv_bias, causal)
    x = rand_inputs(seed, b, t, d_in) * 3.0
    weights = book.trace(x)["weights"]
    assert weights.shape == (b, heads, t, t)
    torch.testing.assert_close(weights.sum(-1), torch.ones(b, heads, t))
    assert (weights >= 0).all()
    if causal:
        assert (weights[..., upper(t)] == 0).all()  # exactly zero, not just small
        assert (weights[..., ~upper(t)] > 0).all()
        assert (weights[..., 0, 0] == 1).all()  # the first token sees only itself
    else:
        assert (weights > 0).all()


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
@seeds
def test_dropout_survivors_are_rescaled_and_fraction_kept_is_near_1_minus_p(p, seed):
    weights = torch.softmax(rand_inputs(seed, 200, 200), dim=-1)
    dropped, keep = attention.apply_dropout(weights, p, seed=seed)
    assert keep.dtype == torch.bool and keep.shape == weights.shape
    assert (dropped[~keep] == 0).all()
    torch.testing.assert_close(dropped[keep], weights[keep] / (1 - p))
    assert abs(keep.float().mean().item() - (1 - p)) < 0.02
    # Dropout keeps each row's expected sum: on average rows still sum to about one.
    assert abs(dropped.sum(-1).mean().item() - 1.0) < 0.05
    # Same seed, same cells; another seed, other cells.
    assert torch.equal(attention.apply_dropout(weights, p, seed=seed)[1], keep)
    assert not torch.equal(attention.apply_dropout(weights, p, seed=seed + 1)[1], keep)


@pytest.mark.parametrize("p", [0.2, 0.5])
def test_module_dropout_in_training_mode(p):
    book = book_mha((8, 8, 2, 10, 3), 0, False, True, dropout=p).train()
    x = rand_inputs(0, 3, 10, 8)
    torch.manual_seed(0)
    trace = book.trace(x)
    weights, dropped = trace["weights"], trace["dropped_weights"]
    kept = dropped != 0
    torch.testing.assert_close(dropped[kept], weights[kept] / (1 - p))
    assert (dropped[..., upper(10)] == 0).all()
    # In eval mode there is no dropout step and the output is deterministic.
    book.eval()
    assert "dropped_weights" not in book.trace(x)
    torch.testing.assert_close(book(x), book(x), atol=0, rtol=0)


@pytest.mark.parametrize("p", [0.2, 0.5])
def test_causal_attention_dropout_in_training_mode(p):
    with seeded(1):
        ca = CausalAttention(5, 4, 8, p).train()
    x = rand_inputs(1, 2, 8, 5)
    trace = ca.trace(x)
    kept = trace["dropped_weights"] != 0
    torch.testing.assert_close(trace["dropped_weights"][kept], trace["weights"][kept] / (1 - p))
    torch.testing.assert_close(trace["context"], trace["dropped_weights"] @ trace["values"])


@causals
def test_trace_off_records_nothing_and_gives_the_same_output(causal):
    q, k, v = (rand_inputs(s, 2, 3, 5, 4) for s in (1, 2, 3))
    off = Trace.off()
    on = Trace()
    mask = upper(5) if causal else None
    out_off = attention.attend(q, k, v, off, mask=mask)
    out_on = attention.attend(q, k, v, on, mask=mask)
    assert len(off) == 0 and off.names() == [] and off.comparisons == []
    off.compare("a", q, "b", q)
    assert off.comparisons == []
    assert "scores" in on and "context" in on
    torch.testing.assert_close(out_off, out_on, atol=0, rtol=0)
    torch.testing.assert_close(on.output, out_on, atol=0, rtol=0)


@shapes
@causals
def test_module_forward_equals_traced_run(shape, causal):
    book = book_mha(shape, 3, True, causal)
    x = rand_inputs(3, shape[4], shape[3], shape[0])
    torch.testing.assert_close(book(x), book.trace(x).output, atol=0, rtol=0)
    torch.testing.assert_close(book(x), book.forward_with_weights(x)[0], atol=0, rtol=0)


def test_attend_scale_and_reference_formula():
    q, k, v = (rand_inputs(s, 4, 5, 3) for s in (4, 5, 6))
    trace = Trace()
    out = attention.attend(q, k, v, trace, mask=upper(5))
    scores = q @ k.transpose(-2, -1) / 3**0.5
    scores = scores.masked_fill(upper(5), float("-inf"))
    torch.testing.assert_close(out, torch.softmax(scores, -1) @ v)
    torch.testing.assert_close(trace["scaled_scores"], scores)


# --------------------------------------------------------------------------- partial traces


KEEP_SETS = [(), ("weights",), ("scores",), ("masked_scores",), ("scaled_scores",), ("scores", "weights")]


@pytest.mark.parametrize("keep", KEEP_SETS, ids=lambda k: "+".join(k) or "nothing")
@pytest.mark.parametrize("normalisation", ["softmax", "softmax_naive", "sum"])
@pytest.mark.parametrize("mask_kind", ["none", "causal", "padding"])
def test_partial_traces_give_the_full_traces_numbers(keep, normalisation, mask_kind):
    """Whatever a trace keeps, the output and every kept step are those of a full trace."""
    gen = torch.Generator().manual_seed(3)
    q, k, v = (torch.rand(2, 3, 5, 4, generator=gen) + 0.1 for _ in range(3))
    kwargs = {"normalisation": normalisation}
    if mask_kind == "causal":
        kwargs["mask"] = upper(5)
    elif mask_kind == "padding":
        hide = torch.zeros(2, 1, 1, 5, dtype=torch.bool)
        hide[1, ..., 3:] = True
        kwargs["mask"] = hide
    full = Trace()
    expected = attention.attend(q, k, v, full, **kwargs)
    partial = Trace.keeping(*keep)
    out = attention.attend(q, k, v, partial, **kwargs)
    torch.testing.assert_close(out, expected, atol=0, rtol=0)
    assert partial.names() == [n for n in full.names() if n in keep]
    for name in partial.names():
        torch.testing.assert_close(partial[name], full[name], atol=0, rtol=0, equal_nan=True)
    off_out = attention.attend(q, k, v, Trace.off(), **kwargs)
    torch.testing.assert_close(off_out, expected, atol=0, rtol=0)


def test_recorded_steps_are_not_modified_later():
    q, k, v = (rand_inputs(s, 1, 2, 4, 3) for s in (1, 2, 3))
    trace = Trace.keeping("scores", "weights")
    attention.attend(q, k, v, trace, mask=upper(4))
    torch.testing.assert_close(trace["scores"], q @ k.transpose(-2, -1))  # unmasked, unscaled
    assert torch.isfinite(trace["scores"]).all()
    torch.testing.assert_close(trace["weights"].sum(-1), torch.ones(1, 2, 4))


@causals
def test_gradients_flow_through_every_trace_mode(causal):
    """The in-place fast path must not break autograd or change the gradients."""
    grads = []
    for trace in (Trace(), Trace.off(), Trace.keeping("weights")):
        book = book_mha((8, 8, 2, 10, 3), 0, True, causal)
        x = rand_inputs(0, 3, 10, 8).requires_grad_(True)
        book(x, trace=trace).pow(2).sum().backward()
        grads.append((x.grad.clone(), book.W_query.weight.grad.clone()))
    for x_grad, w_grad in grads[1:]:
        torch.testing.assert_close(x_grad, grads[0][0], atol=1e-6, rtol=1e-5)
        torch.testing.assert_close(w_grad, grads[0][1], atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("backend", ["eager", "einsum"])
def test_fast_backends_backpropagate_like_the_book(backend):
    config = AttentionConfig(8, 8, 10, 0.0, 2)
    book = book_mha((8, 8, 2, 10, 3), 4, False, True)
    fast = FastMultiHeadAttention(config, backend).load_from(book)
    x1 = rand_inputs(4, 3, 10, 8).requires_grad_(True)
    x2 = x1.detach().clone().requires_grad_(True)
    book(x1).sum().backward()
    fast(x2)[0].sum().backward()
    torch.testing.assert_close(x2.grad, x1.grad, atol=1e-5, rtol=1e-5)


def test_a_variant_agrees_only_if_output_and_weights_both_agree():
    from attention.efficient import VariantResult
    from attention.trace import Comparison

    a = torch.zeros(1, 2, 3, 3)
    same = Comparison.of("book", a, "v", a.clone())
    off = Comparison.of("book", a, "v", a + 1e-3)
    assert VariantResult("v", "", a, True, same, weights=a, weights_comparison=same).agrees()
    assert not VariantResult("v", "", a, True, same, weights=a, weights_comparison=off).agrees()
    assert not VariantResult("v", "", a, True, off, weights=a, weights_comparison=same).agrees()
    assert VariantResult("sdpa", "", a, False, same).agrees()  # no weights to compare


@shapes
@causals
def test_the_memory_lean_eager_backend_is_the_teaching_kernel_bit_for_bit(shape, causal):
    """efficient.eager_backend does attend's operations in attend's order, in place: same numbers exactly."""
    _, _, heads, t, b = shape
    gen = torch.Generator().manual_seed(5)
    q, k, v = (torch.rand(b, heads, t, 4, generator=gen) for _ in range(3))
    trace = Trace()
    expected = attention.attend(q, k, v, trace, mask=upper(t) if causal else None)
    out, weights = attention.efficient.eager_backend(q, k, v, causal=causal, dropout_p=0.0, need_weights=True)
    assert torch.equal(out, expected)
    assert torch.equal(weights, trace["weights"])


def test_the_lean_causal_fill_writes_exactly_the_masked_cells():
    """The blocked fill used for long sequences equals masked_fill_ with the causal mask."""
    from attention.efficient import _fill_future_

    for t in (300, 8):  # the blocked path, and the plain one
        scores = torch.rand(2, t, t, generator=torch.Generator().manual_seed(0))
        expected = scores.masked_fill(upper(t), float("-inf"))
        _fill_future_(scores, float("-inf"))
        assert torch.equal(scores, expected)


def test_relative_times_are_milliseconds_and_ratios_to_sdpa():
    from attention.efficient import relative_times

    timed = {t.name: t for t in relative_times({"combined QKV + SDPA": 0.002, "eager": 0.005, "torch": None})}
    assert timed["eager"].median_ms == pytest.approx(5.0) and timed["eager"].vs_sdpa == pytest.approx(2.5)
    assert timed["combined QKV + SDPA"].vs_sdpa == pytest.approx(1.0)
    assert timed["torch"].median_ms is None and timed["torch"].vs_sdpa is None


# ----- helpers the Check-yourself questions ask of the package -------------------------------------------


def test_transfer_gap_is_zero_for_the_books_transposes_and_large_for_a_view():
    from attention.trainable import SelfAttention_v2, transfer_gap

    torch.manual_seed(789)
    v2 = SelfAttention_v2(3, 2)
    x = torch.rand(6, 3)
    right = dict.fromkeys(("W_query", "W_key", "W_value"), "transpose")
    assert transfer_gap(v2, right, x) < 1e-6
    assert transfer_gap(v2, {**right, "W_key": "view"}, x) > 1e-3


@pytest.mark.parametrize("n", [1, 2, 6])
def test_mask_pattern_names_each_triangle(n):
    from attention.ops import future_mask, mask_pattern

    ones = torch.ones(n, n, dtype=torch.bool)
    assert mask_pattern(future_mask(n)) == ("above" if n > 1 else "none")
    assert mask_pattern(None) == mask_pattern(torch.zeros(n, n, dtype=torch.bool)) == "none"
    assert mask_pattern(torch.triu(ones)) == "diagonal"
    if n > 1:
        assert mask_pattern(torch.tril(ones, -1)) == "below"
        odd = torch.zeros(n, n, dtype=torch.bool)
        odd[0, 0] = True
        odd[-1, -1] = True
        assert mask_pattern(odd) is None
