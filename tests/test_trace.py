"""The Trace record, comparisons, softmax stability, normalisations, masks and seeding."""

from __future__ import annotations

import math
import re
import threading

import pytest
import torch

import attention
from attention import Comparison, Step, Trace, seeded

# --------------------------------------------------------------------------- Step


def test_step_shape_and_shape_text():
    step = Step("context", torch.zeros(2, 6, 3), ("batch", "tokens", "d_out"), "the output")
    assert step.shape == (2, 6, 3)
    assert step.shape_text() == "(batch: 2, tokens: 6, d_out: 3)"
    scalar = Step("omega", torch.tensor(1.5), (), "a score")
    assert scalar.shape == () and scalar.shape_text() == ""  # a single number: no empty "()" in its caption


@pytest.mark.parametrize("dims", [("token",), ("a", "b", "c"), ()])
def test_step_rejects_wrong_number_of_axis_names(dims):
    with pytest.raises(ValueError, match=r"step 'scores': .*axis names.*\(6, 6\)"):
        Step("scores", torch.zeros(6, 6), dims, "scores")


# --------------------------------------------------------------------------- Trace


def make_trace() -> Trace:
    trace = Trace()
    trace.add("a", torch.ones(2), ("x",), "first")
    trace.add("b", torch.zeros(2, 3), ("x", "y"), "second")
    trace.add("c", torch.full((3,), 7.0), ("y",), "third")
    return trace


def test_trace_lookup_by_name():
    trace = make_trace()
    assert len(trace) == 3
    assert trace.names() == ["a", "b", "c"]
    assert [s.name for s in trace] == ["a", "b", "c"]
    assert "b" in trace and "z" not in trace
    assert torch.equal(trace["b"], torch.zeros(2, 3))
    assert trace.step("c").meaning == "third"
    assert trace.step("b").dims == ("x", "y")
    assert torch.equal(trace.output, torch.full((3,), 7.0))  # no "output" or "context": the last step


def test_missing_step_keyerror_lists_the_names():
    trace = make_trace()
    with pytest.raises(KeyError, match=r"no step named 'zz'.*\['a', 'b', 'c'\]"):
        trace["zz"]
    with pytest.raises(KeyError, match="'zz'"):
        trace.step("zz")


def test_duplicate_step_names_are_rejected():
    trace = make_trace()
    with pytest.raises(ValueError, match="already has a step named 'b'"):
        trace.add("b", torch.ones(1), ("x",), "again")
    assert len(trace) == 3 and torch.equal(trace["b"], torch.zeros(2, 3))


def test_step_dims_are_validated_on_add():
    with pytest.raises(ValueError, match="axis names"):
        Trace().add("bad", torch.ones(2, 2), ("x",), "wrong dims")


def test_add_detaches_tensors():
    w = torch.ones(3, requires_grad=True)
    trace = Trace()
    trace.add("w2", w * 2, ("x",), "grad-carrying")
    assert not trace["w2"].requires_grad


def test_empty_trace_has_no_output():
    with pytest.raises(ValueError, match="empty trace"):
        _ = Trace().output


def test_keeping_records_only_the_named_steps():
    trace = Trace.keeping("b", "c")
    trace.add("a", torch.ones(2), ("x",), "first")
    trace.add("b", torch.zeros(2), ("x",), "second")
    trace.add("c", torch.ones(1), ("x",), "third")
    trace.add("d", torch.ones(1), ("x",), "fourth")
    assert trace.names() == ["b", "c"]
    assert "a" not in trace and "d" not in trace


def test_keeping_weights_on_a_real_module():
    mha = attention.MultiHeadAttention(3, 2, 6, 0.0, 2)
    x = attention.book_inputs().unsqueeze(0)
    trace = Trace.keeping("weights")
    out = mha(x, trace=trace)
    assert trace.names() == ["weights"]
    torch.testing.assert_close(trace["weights"], mha.trace(x)["weights"])
    torch.testing.assert_close(out, mha(x))


def test_wants_says_what_add_would_record():
    assert Trace().wants("anything")
    assert not Trace.off().wants("anything")
    keeping = Trace.keeping("weights")
    assert keeping.wants("weights") and not keeping.wants("scores")


def test_off_records_nothing():
    trace = Trace.off()
    trace.add("a", torch.ones(2), ("x",), "ignored")
    trace.add("a", torch.ones(2), ("x",), "ignored twice: no duplicate error either")
    trace.compare("a", torch.ones(2), "b", torch.zeros(2))
    assert len(trace) == 0 and trace.names() == [] and trace.comparisons == []
    assert "a" not in trace


def test_extend_with_prefix():
    trace = Trace()
    trace.add("a", torch.ones(1), ("x",), "mine")
    trace.extend(make_trace(), prefix="head0.")
    assert trace.names() == ["a", "head0.a", "head0.b", "head0.c"]
    assert torch.equal(trace["head0.c"], torch.full((3,), 7.0))
    with pytest.raises(ValueError, match="already has a step"):
        trace.extend(make_trace(), prefix="head0.")


# --------------------------------------------------------------------------- Comparison


def test_comparison_max_abs_diff():
    cmp = Comparison.of("loop", torch.tensor([1.0, 2.0, 3.0]), "matmul", torch.tensor([1.0, 2.5, 1.75]))
    assert cmp.max_abs_diff == pytest.approx(1.25)
    assert (cmp.label_a, cmp.label_b) == ("loop", "matmul")
    assert not cmp.agrees()
    assert cmp.agrees(1.25) and not cmp.agrees(1.2)


def test_comparison_of_equal_and_empty_tensors():
    x = torch.randn(4, 5)
    assert Comparison.of("a", x, "b", x.clone()).max_abs_diff == 0.0
    assert Comparison.of("a", x, "b", x.clone()).agrees(0.0)
    assert Comparison.of("a", torch.zeros(0), "b", torch.zeros(0)).max_abs_diff == 0.0


def test_comparison_sees_the_largest_difference_anywhere():
    a = torch.zeros(3, 4)
    b = a.clone()
    b[2, 1] = -0.5
    b[0, 3] = 0.25
    assert Comparison.of("a", a, "b", b).max_abs_diff == 0.5


def test_comparison_detaches_and_rejects_shape_mismatch():
    a = torch.ones(2, requires_grad=True)
    cmp = Comparison.of("a", a * 1, "b", torch.ones(2))
    assert not cmp.a.requires_grad
    with pytest.raises(ValueError, match="cannot compare"):
        Comparison.of("a", torch.ones(2, 3), "b", torch.ones(3, 2))


def test_trace_compare_records_comparisons_in_order():
    trace = Trace()
    trace.compare("x", torch.ones(2), "y", torch.ones(2))
    trace.compare("p", torch.ones(2), "q", torch.zeros(2))
    assert [c.label_a for c in trace.comparisons] == ["x", "p"]
    assert [c.max_abs_diff for c in trace.comparisons] == [0.0, 1.0]


# --------------------------------------------------------------------------- softmax and normalisation


def reference_softmax(row: list[float]) -> list[float]:
    m = max(row)
    e = [math.exp(v - m) for v in row]
    return [v / sum(e) for v in e]


def test_softmax_stability_examples():
    examples = attention.softmax_stability_examples()
    unstable = [name for name in examples if "large" in name or "negative" in name]
    assert len(unstable) == 2
    for name, scores in examples.items():
        naive = attention.softmax_naive(scores)
        stable = attention.softmax_stable(scores)
        builtin = torch.softmax(scores, dim=-1)
        expected = torch.tensor(reference_softmax(scores.tolist()))
        for w in (stable, builtin):
            assert torch.isfinite(w).all(), name
            assert w.sum().item() == pytest.approx(1.0, abs=1e-6)
            torch.testing.assert_close(w, expected)
        if name in unstable:
            assert torch.isnan(naive).any(), name
        else:
            torch.testing.assert_close(naive, expected)


def test_large_scores_overflow_and_very_negative_underflow():
    big = torch.tensor([1000.0, 1001.0, 1002.0])
    assert torch.isinf(torch.exp(big)).all()
    assert torch.isnan(attention.softmax_naive(big)).all()
    small = -big
    assert (torch.exp(small) == 0).all()
    assert torch.isnan(attention.softmax_naive(small)).all()
    # Shifting by the maximum does not change the softmax: softmax(x) == softmax(x - c).
    torch.testing.assert_close(attention.softmax_stable(big), torch.softmax(big - 1000, dim=-1))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_variants_agree_on_ordinary_scores(dim):
    scores = torch.randn(4, 5, generator=torch.Generator().manual_seed(0))
    expected = torch.softmax(scores, dim=dim)
    torch.testing.assert_close(attention.softmax_naive(scores, dim=dim), expected)
    torch.testing.assert_close(attention.softmax_stable(scores, dim=dim), expected)
    torch.testing.assert_close(attention.normalise(scores, "softmax", dim=dim), expected)
    torch.testing.assert_close(attention.normalise(scores, "softmax_naive", dim=dim), expected)


def test_normalise_sum_differs_from_softmax():
    scores = torch.tensor([1.0, 2.0, 3.0])
    by_sum = attention.normalise(scores, "sum")
    torch.testing.assert_close(by_sum, torch.tensor([1 / 6, 2 / 6, 3 / 6]))
    softmax = attention.normalise(scores, "softmax")
    torch.testing.assert_close(softmax, torch.tensor(reference_softmax([1.0, 2.0, 3.0])))
    assert by_sum.sum().item() == pytest.approx(1.0) and softmax.sum().item() == pytest.approx(1.0)
    assert (by_sum - softmax).abs().max().item() > 0.1
    # Softmax favours the largest score more strongly than proportional weights.
    assert softmax[2] > by_sum[2] and softmax[0] < by_sum[0]


def test_normalise_sum_breaks_on_negative_scores():
    weights = attention.normalise(torch.tensor([-1.0, 2.0]), "sum")
    torch.testing.assert_close(weights, torch.tensor([-1.0, 2.0]))  # sums to 1, but a negative weight
    assert not torch.isfinite(attention.normalise(torch.tensor([-1.0, 1.0]), "sum")).all()
    assert (attention.normalise(torch.tensor([-1.0, 2.0]), "softmax") > 0).all()


def test_normalisations_constant():
    assert attention.NORMALISATIONS == ("sum", "softmax_naive", "softmax")


# --------------------------------------------------------------------------- masks


@pytest.mark.parametrize("n", [1, 2, 6])
def test_causal_and_future_masks(n):
    keep = attention.causal_mask(n)
    hide = attention.future_mask(n)
    assert keep.shape == hide.shape == (n, n)
    assert hide.dtype == torch.bool
    for i in range(n):
        for j in range(n):
            assert keep[i, j].item() == (1.0 if j <= i else 0.0)
            assert hide[i, j].item() == (j > i)


# --------------------------------------------------------------------------- seeding


def test_seeded_is_reproducible_and_matches_manual_seed():
    with seeded(42):
        a = torch.rand(5)
        lin = torch.nn.Linear(3, 2)
    with seeded(42):
        b = torch.rand(5)
    torch.manual_seed(42)
    c = torch.rand(5)
    assert torch.equal(a, b) and torch.equal(a, c)
    torch.manual_seed(42)
    torch.rand(5)
    assert torch.equal(lin.weight, torch.nn.Linear(3, 2).weight)


def test_seeded_restores_global_rng_state():
    torch.manual_seed(7)
    before = torch.random.get_rng_state()
    with seeded(123):
        torch.rand(100)
    assert torch.equal(torch.random.get_rng_state(), before)
    # ...even when the block raises.
    with pytest.raises(RuntimeError, match="boom"):
        with seeded(5):
            torch.rand(3)
            raise RuntimeError("boom")
    assert torch.equal(torch.random.get_rng_state(), before)


def test_seeded_blocks_in_threads_do_not_interleave():
    expected = {}
    for s in range(6):
        torch.manual_seed(s)
        expected[s] = torch.rand(200)
    results: dict[tuple[int, int], torch.Tensor] = {}

    def work(s: int) -> None:
        for rep in range(10):
            with seeded(s):
                draws = [torch.rand(1) for _ in range(200)]
            results[(s, rep)] = torch.cat(draws)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 60
    for (s, _), got in results.items():
        assert torch.equal(got, expected[s])


def test_seeded_module_construction_matches_the_book_pattern():
    with seeded(123):
        a = attention.CausalAttention(3, 2, 6, 0.0)
    torch.manual_seed(123)
    b = attention.CausalAttention(3, 2, 6, 0.0)
    for (name, p), (_, q) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert torch.equal(p, q), name


# --------------------------------------------------------------------------- one home per idea


def test_applied_weights_are_the_dropped_ones_only_when_dropout_ran():
    x = attention.book_inputs()
    plain = attention.simple_self_attention(x)
    assert plain.applied_weights.name == "weights"
    dropped = attention.simple_self_attention(x, dropout=0.5)
    assert dropped.applied_weights.name == "dropped_weights"
    assert not torch.equal(dropped.applied_weights.tensor, dropped["weights"])
    # eval mode: no dropout step at all
    assert attention.simple_self_attention(x, dropout=0.5, training=False).applied_weights.name == "weights"


@pytest.mark.parametrize("normalisation", ["softmax", "sum"])
def test_hidden_cells_are_the_mask_the_kernel_applied(normalisation):
    x = attention.book_inputs()
    trace = attention.simple_self_attention(x, causal=True, normalisation=normalisation)
    hidden = trace.hidden_cells()
    assert torch.equal(hidden, attention.future_mask(6))
    assert (trace.applied_weights.tensor[hidden] == 0).all()  # hidden means weight exactly 0, with -inf or 0 fill
    assert attention.simple_self_attention(x).hidden_cells() is None


def test_hidden_cells_follow_batch_and_head_indexing():
    torch.manual_seed(0)
    mha = attention.MultiHeadAttention(3, 4, 6, 0.0, 2)
    trace = mha.trace(torch.stack([attention.book_inputs()] * 2))
    assert trace.hidden_cells().shape == (2, 2, 6, 6)
    assert torch.equal(trace.hidden_cells((1, 0)), attention.future_mask(6))
    wrapper = attention.MultiHeadAttentionWrapper(3, 2, 6, 0.0, 3)
    assert torch.equal(wrapper.trace(torch.stack([attention.book_inputs()] * 2)).hidden_cells((0, 2)),
                       attention.future_mask(6))


def test_one_query_hidden_cells_are_the_later_keys():
    trace = attention.simple_attention_for_query(attention.book_inputs(), 2, causal=True)
    assert trace.hidden_cells().tolist() == [False, False, False, True, True, True]
    assert trace["weights_sum"][3:].eq(0).all() and trace["weights_softmax"][3:].eq(0).all()


def test_batched_product_is_the_chapters_and_equals_head_by_head():
    trace = attention.batched_product()
    assert trace["a"].shape == (1, 2, 3, 4)
    expected_first = torch.tensor([[1.3208, 1.1631, 1.2879], [1.1631, 2.2150, 1.8424], [1.2879, 1.8424, 2.0402]])
    torch.testing.assert_close(trace["product"][0, 0], expected_first, atol=1e-4, rtol=0)
    (comparison,) = trace.comparisons
    assert comparison.agrees(1e-6)
    other = torch.rand(2, 3, 4, 5)
    torch.testing.assert_close(attention.batched_product(other)["product"], other @ other.transpose(2, 3))
    with pytest.raises(ValueError, match="num_heads"):
        attention.batched_product(torch.rand(3, 4))


def test_the_book_classes_show_their_own_forward_and_mark_what_is_new():
    import inspect

    v1 = inspect.getsource(attention.SelfAttention_v1)
    v2 = inspect.getsource(attention.SelfAttention_v2)
    for source in (v1, v2):
        assert "def forward" in source and "queries = " in source and "attend(queries, keys, values" in source
    assert "# new:" not in v1  # the first class: nothing to compare with
    assert "nn.Linear" in v2 and "# new:" in v2
    for cls in (attention.CausalAttention, attention.MultiHeadAttention, attention.MultiHeadAttentionWrapper):
        assert "# new:" in inspect.getsource(cls), cls.__name__
    kernel = inspect.getsource(attention.attend)
    assert len(kernel.splitlines()) <= 40 and "masked_fill(" in kernel
    assert not re.search(r"\.\w+_\(", kernel), "the teaching kernel does nothing in place"


def test_results_are_typed_records_not_info_dicts():
    from attention.explore import RunOptions, stacking_heads, weight_splits

    x = attention.book_inputs()
    assert not hasattr(attention.Trace(), "info")
    heads = stacking_heads(x, attention.AttentionConfig(3, 4, 6, 0.0, 2), RunOptions())
    assert heads.parameters == 2 * 3 * (3 * 2) and heads.batch_shape == (2, 6, 3)
    splits = weight_splits(x, attention.AttentionConfig(3, 2, 6, 0.0, 2))
    assert splits.gpt2_parameters == 2_360_064 and not splits.reduced
    big = weight_splits(torch.rand(700, 4), attention.AttentionConfig(4, 4, 700, 0.0, 4), RunOptions(batch_size=4))
    assert big.reduced and big.batch_shape == (1, 700, 4) and "scores" not in big.trace
    with pytest.raises(ValueError, match="batch_size"):
        RunOptions(batch_size=0)


def test_hides_tells_the_masked_steps_from_the_weights_before_the_mask():
    """3.5.1 records the weights before masking and after: only the steps the mask reached are hatched."""
    trace = attention.causal_attention_step_by_step(torch.tensor(attention.BOOK_INPUTS), d_out=2, seed=789)
    assert trace.mask is not None
    assert {name: trace.hides(name) for name in ("scores", "weights", "masked_scores", "masked_weights",
                                                 "masked_simple", "masked_simple_norm")} == {
        "scores": False, "weights": False, "masked_scores": True, "masked_weights": True,
        "masked_simple": True, "masked_simple_norm": True}
    assert not trace.hides("queries")  # (token, d_out): not a (query, key) step
    # the weights that multiplied the values are the masked ones
    assert trace.applied_weights.name == "masked_weights"
    assert torch.allclose(trace["context"], trace.applied_weights.tensor @ trace["values"])
    unmasked = attention.causal_attention_step_by_step(torch.tensor(attention.BOOK_INPUTS), d_out=2, seed=789,
                                                       causal=False)
    assert not unmasked.hides("weights")


def test_the_words_of_3_3_and_3_4_say_what_the_code_does():
    """m18: 3.3's context is the inputs' own weighted sum (no value vectors yet), and 3.4's three matrices are drawn
    one after another after a single seed, not each after its own."""
    from attention import book_inputs, self_attention_step_by_step, simple_attention_for_query, simple_self_attention

    for trace in (simple_attention_for_query(book_inputs(), 1), simple_self_attention(book_inputs())):
        context = trace.step("context")
        assert context.dims[-1] == "dim" and "the inputs, weighted and summed" in context.describe()
        assert "value" not in context.describe()
    meaning = self_attention_step_by_step(book_inputs()).step("W_key").describe()
    assert meaning == "W_key: torch.rand(3, 2), draw 2 of 3 after seed 123"


def test_a_results_traces_are_found_by_name_and_a_result_without_one_has_none():
    from attention import book_inputs, simple_self_attention
    from attention.explore import self_attention_classes
    from attention.trace import traces_in

    plain = simple_self_attention(book_inputs())
    assert traces_in(plain) == {"": plain}
    classes = self_attention_classes(book_inputs())
    assert set(traces_in(classes)) >= {"v1", "v2"} and traces_in(classes)["v2"] is classes.v2
    assert traces_in({"weights": 1}) == {} and traces_in(None) == {}
