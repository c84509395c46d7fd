"""Every tensor Chapter 3 prints for "Your journey starts with one step", to 4 decimals.

The expected numbers are copied from the book, never produced by running
this package. Each test builds the computation the way the chapter does
(``torch.manual_seed`` then the module) and compares with
``atol=5e-5, rtol=0``: the printed values are rounded to 4 decimals.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

import attention
from attention import (
    GPT2_SMALL,
    CausalAttention,
    FastMultiHeadAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
    SelfAttention_v1,
    SelfAttention_v2,
)

ATOL = 5e-5


def close(actual: torch.Tensor, expected) -> None:
    expected = torch.as_tensor(expected, dtype=actual.dtype)
    torch.testing.assert_close(actual, expected, atol=ATOL, rtol=0)


@pytest.fixture
def inputs() -> torch.Tensor:
    return attention.book_inputs()


@pytest.fixture
def batch(inputs) -> torch.Tensor:
    return torch.stack((inputs, inputs), dim=0)


def test_book_inputs_are_the_chapter_embeddings(inputs):
    close(
        inputs,
        [
            [0.43, 0.15, 0.89],
            [0.55, 0.87, 0.66],
            [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33],
            [0.77, 0.25, 0.10],
            [0.05, 0.80, 0.55],
        ],
    )
    assert attention.BOOK_TOKENS == ("Your", "journey", "starts", "with", "one", "step")
    # A fresh tensor each call: mutating one must not change the next.
    inputs[0, 0] = 99.0
    assert attention.book_inputs()[0, 0].item() == pytest.approx(0.43)


# --------------------------------------------------------------------------- 3.3.1

SCORES_2 = [0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865]
SOFTMAX_2 = [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]
CONTEXT_2 = [0.4419, 0.6515, 0.5683]


def test_331_scores_for_query_2(inputs):
    trace = attention.simple_attention_for_query(inputs, 1)
    close(trace["query"], [0.55, 0.87, 0.66])
    close(trace["scores"], SCORES_2)


def test_331_weights_by_sum(inputs):
    trace = attention.simple_attention_for_query(inputs, 1)
    close(trace["weights_sum"], [0.1455, 0.2278, 0.2249, 0.1285, 0.1077, 0.1656])
    assert trace["weights_sum"].sum().item() == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("name", ["weights_softmax_naive", "weights_softmax", "weights"])
def test_331_softmax_weights(inputs, name):
    trace = attention.simple_attention_for_query(inputs, 1)
    close(trace[name], SOFTMAX_2)
    assert trace[name].sum().item() == pytest.approx(1.0, abs=1e-6)


def test_331_context_z2(inputs):
    trace = attention.simple_attention_for_query(inputs, 1)
    close(trace["context"], CONTEXT_2)
    assert trace.output is trace["context"]


def test_331_sum_normalisation_changes_the_context(inputs):
    by_sum = attention.simple_attention_for_query(inputs, 1, normalisation="sum")
    torch.testing.assert_close(by_sum["weights"], by_sum["weights_sum"])
    close(by_sum["context"], torch.tensor([0.1455, 0.2278, 0.2249, 0.1285, 0.1077, 0.1656]) @ inputs)


# --------------------------------------------------------------------------- 3.3.2

ALL_SCORES = [
    [0.9995, 0.9544, 0.9422, 0.4753, 0.4576, 0.6310],
    [0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865],
    [0.9422, 1.4754, 1.4570, 0.8296, 0.7154, 1.0605],
    [0.4753, 0.8434, 0.8296, 0.4937, 0.3474, 0.6565],
    [0.4576, 0.7070, 0.7154, 0.3474, 0.6654, 0.2935],
    [0.6310, 1.0865, 1.0605, 0.6565, 0.2935, 0.9450],
]
ALL_WEIGHTS = [
    [0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452],
    [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581],
    [0.1390, 0.2369, 0.2326, 0.1242, 0.1108, 0.1565],
    [0.1435, 0.2074, 0.2046, 0.1462, 0.1263, 0.1720],
    [0.1526, 0.1958, 0.1975, 0.1367, 0.1879, 0.1295],
    [0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896],
]
ALL_CONTEXT = [
    [0.4421, 0.5931, 0.5790],
    [0.4419, 0.6515, 0.5683],
    [0.4431, 0.6496, 0.5671],
    [0.4304, 0.6298, 0.5510],
    [0.4671, 0.5910, 0.5266],
    [0.4177, 0.6503, 0.5645],
]


def test_332_all_scores_weights_context(inputs):
    trace = attention.simple_self_attention(inputs)
    close(trace["scores"], ALL_SCORES)
    close(trace["weights"], ALL_WEIGHTS)
    close(trace["context"], ALL_CONTEXT)
    assert "scaled_scores" not in trace  # 3.3 does not scale by sqrt(d_k)
    assert "masked_scores" not in trace


def test_332_loop_helpers_match_the_book(inputs):
    close(attention.attention_scores_loop(inputs), ALL_SCORES)
    close(attention.attention_scores_matmul(inputs), ALL_SCORES)
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    close(attention.context_vectors_loop(weights, inputs), ALL_CONTEXT)


def test_332_row_two_is_section_331(inputs):
    one = attention.simple_attention_for_query(inputs, 1)
    every = attention.simple_self_attention(inputs)
    torch.testing.assert_close(every["context"][1], one["context"])
    torch.testing.assert_close(every["weights"][1], one["weights"])


# --------------------------------------------------------------------------- 3.4.1


def test_341_init_trainable_weights_is_the_books_torch_rand():
    torch.manual_seed(123)
    expected = [torch.rand(3, 2) for _ in range(3)]
    got = attention.init_trainable_weights(3, 2, seed=123)
    assert list(got) == ["W_query", "W_key", "W_value"]
    for tensor, want in zip(got.values(), expected, strict=True):
        torch.testing.assert_close(tensor, want, atol=0, rtol=0)


def test_341_step_by_step(inputs):
    trace = attention.self_attention_step_by_step(inputs)
    close(trace["query"], [0.4306, 1.4551])
    close(trace["key_of_query"], [0.4433, 1.1419])
    close(trace["value_of_query"], [0.3951, 1.0037])
    assert trace["keys"].shape == (6, 2)
    assert trace["omega_qq"].shape == ()
    close(trace["omega_qq"], 1.8524)
    close(trace["scores"], [1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440])
    close(trace["weights"], [0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])
    close(trace["context"], [0.3061, 0.8210])


def test_341_weights_are_the_seeded_matrices(inputs):
    trace = attention.self_attention_step_by_step(inputs)
    torch.manual_seed(123)
    for name in ("W_query", "W_key", "W_value"):
        torch.testing.assert_close(trace[name], torch.rand(3, 2), atol=0, rtol=0)


# --------------------------------------------------------------------------- 3.4.2

V1_OUT = [
    [0.2996, 0.8053],
    [0.3061, 0.8210],
    [0.3058, 0.8203],
    [0.2948, 0.7939],
    [0.2927, 0.7891],
    [0.2990, 0.8040],
]
V2_OUT = [
    [-0.0739, 0.0713],
    [-0.0748, 0.0703],
    [-0.0749, 0.0702],
    [-0.0760, 0.0685],
    [-0.0763, 0.0679],
    [-0.0754, 0.0693],
]


def test_342_self_attention_v1(inputs):
    torch.manual_seed(123)
    sa_v1 = SelfAttention_v1(3, 2)
    close(sa_v1(inputs), V1_OUT)


def test_342_self_attention_v2(inputs):
    torch.manual_seed(789)
    sa_v2 = SelfAttention_v2(3, 2)
    close(sa_v2(inputs), V2_OUT)


def test_342_v1_row_two_is_section_341(inputs):
    torch.manual_seed(123)
    out = SelfAttention_v1(3, 2)(inputs)
    close(out[1], [0.3061, 0.8210])


def test_exercise_31_copy_v2_into_v1(inputs):
    torch.manual_seed(789)
    sa_v2 = SelfAttention_v2(3, 2)
    torch.manual_seed(123)
    sa_v1 = SelfAttention_v1(3, 2)
    assert not torch.allclose(sa_v1(inputs), sa_v2(inputs))
    returned = attention.copy_v2_into_v1(sa_v2, sa_v1)
    assert returned is sa_v1
    torch.testing.assert_close(sa_v1(inputs), sa_v2(inputs))
    close(sa_v1(inputs), V2_OUT)


def test_exercise_31_rejects_bias():
    v2 = SelfAttention_v2(3, 2, qkv_bias=True)
    with pytest.raises(ValueError, match="qkv_bias"):
        attention.copy_v2_into_v1(v2, SelfAttention_v1(3, 2))


def test_exercise_31_rejects_mismatched_sizes():
    with pytest.raises(ValueError, match="same d_in and d_out"):
        attention.copy_v2_into_v1(SelfAttention_v2(3, 2), SelfAttention_v1(3, 4))


# --------------------------------------------------------------------------- 3.5.1

UNMASKED_WEIGHTS = [
    [0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510],
    [0.2041, 0.1659, 0.1662, 0.1496, 0.1665, 0.1477],
    [0.2036, 0.1659, 0.1662, 0.1498, 0.1664, 0.1480],
    [0.1869, 0.1667, 0.1668, 0.1571, 0.1661, 0.1564],
    [0.1830, 0.1669, 0.1670, 0.1588, 0.1658, 0.1585],
    [0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529],
]
MASKED_WEIGHTS = [
    [1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
    [0.5517, 0.4483, 0.0000, 0.0000, 0.0000, 0.0000],
    [0.3800, 0.3097, 0.3103, 0.0000, 0.0000, 0.0000],
    [0.2758, 0.2460, 0.2462, 0.2319, 0.0000, 0.0000],
    [0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0.0000],
    [0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529],
]
MASKED_SCORES_LOWER = [
    [0.2899],
    [0.4656, 0.1723],
    [0.4594, 0.1703, 0.1731],
    [0.2642, 0.1024, 0.1036, 0.0186],
    [0.2183, 0.0874, 0.0882, 0.0177, 0.0786],
    [0.3408, 0.1270, 0.1290, 0.0198, 0.1290, 0.0078],
]


def test_351_unmasked_weights(inputs):
    trace = attention.causal_attention_step_by_step(inputs)
    close(trace["weights"], UNMASKED_WEIGHTS)


def test_351_simple_mask(inputs):
    trace = attention.causal_attention_step_by_step(inputs)
    assert torch.equal(trace["mask_simple"], torch.tril(torch.ones(6, 6)))
    close(trace["masked_simple"], torch.tensor(UNMASKED_WEIGHTS).tril())
    close(trace["masked_simple_norm"], MASKED_WEIGHTS)


def test_351_minus_inf_mask(inputs):
    trace = attention.causal_attention_step_by_step(inputs)
    masked = trace["masked_scores"]
    upper = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    assert torch.isneginf(masked[upper]).all()
    assert torch.isfinite(masked[~upper]).all()
    for i, row in enumerate(MASKED_SCORES_LOWER):
        close(masked[i, : i + 1], row)
    close(trace["masked_weights"], MASKED_WEIGHTS)


def test_351_uses_a_seeded_self_attention_v2(inputs):
    trace = attention.causal_attention_step_by_step(inputs, seed=789)
    torch.manual_seed(789)
    sa_v2 = SelfAttention_v2(3, 2)
    with torch.no_grad():
        torch.testing.assert_close(trace["queries"], sa_v2.W_query(inputs))
        torch.testing.assert_close(trace["keys"], sa_v2.W_key(inputs))
    # The unmasked context is SelfAttention_v2's output (3.4.2's printed values).
    close(trace["weights"] @ trace["values"], V2_OUT)


# --------------------------------------------------------------------------- 3.5.2

DROPPED_ONES = [
    [2, 2, 0, 2, 2, 0],
    [0, 0, 0, 2, 0, 2],
    [2, 2, 2, 2, 0, 2],
    [0, 2, 2, 0, 0, 2],
    [0, 2, 0, 2, 0, 2],
    [0, 2, 2, 2, 2, 0],
]
DROPPED_WEIGHTS = [
    [2.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
    [0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
    [0.7599, 0.6194, 0.6206, 0.0000, 0.0000, 0.0000],
    [0.0000, 0.4921, 0.4925, 0.0000, 0.0000, 0.0000],
    [0.0000, 0.3966, 0.0000, 0.3775, 0.0000, 0.0000],
    [0.0000, 0.3327, 0.3331, 0.3084, 0.3331, 0.0000],
]


@pytest.fixture
def masked_weights(inputs) -> torch.Tensor:
    return attention.causal_attention_step_by_step(inputs)["masked_weights"]


def test_352_dropout_on_ones(masked_weights):
    trace = attention.dropout_demo(masked_weights, 0.5, seed=123).trace
    close(trace["example"], torch.ones(6, 6))
    close(trace["dropped_example"], DROPPED_ONES)
    close(trace["keep"], torch.tensor(DROPPED_ONES) / 2)


def test_352_dropout_on_masked_weights(masked_weights):
    demo = attention.dropout_demo(masked_weights, 0.5, seed=123)
    close(demo.trace["dropped_weights"], DROPPED_WEIGHTS)
    book_kept = (torch.tensor(DROPPED_ONES) != 0).float().mean().item()
    assert demo.kept_fraction == pytest.approx(book_kept)


def test_352_dropout_matches_nn_dropout(masked_weights):
    torch.manual_seed(123)
    expected_ones = nn.Dropout(0.5)(torch.ones(6, 6))
    torch.manual_seed(123)
    expected_weights = nn.Dropout(0.5)(masked_weights)
    trace = attention.dropout_demo(masked_weights, 0.5, seed=123).trace
    torch.testing.assert_close(trace["dropped_example"], expected_ones)
    torch.testing.assert_close(trace["dropped_weights"], expected_weights)


@pytest.mark.parametrize("seed", [0, 1, 123, 789, 2**40])
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_apply_dropout_equals_seeded_nn_dropout(seed, p):
    weights = torch.rand(7, 9, generator=torch.Generator().manual_seed(5)) + 0.1
    torch.manual_seed(seed)
    expected = nn.Dropout(p)(weights)
    dropped, keep = attention.apply_dropout(weights, p, seed=seed)
    torch.testing.assert_close(dropped, expected)
    assert torch.equal(keep, expected != 0)


def test_dropout_demo_leaves_global_rng_untouched(masked_weights):
    torch.manual_seed(2024)
    before = torch.random.get_rng_state()
    attention.dropout_demo(masked_weights, 0.5, seed=123)
    assert torch.equal(torch.random.get_rng_state(), before)
    # ...and the next draw is the one the seed alone predicts.
    drawn = torch.rand(3)
    torch.manual_seed(2024)
    assert torch.equal(drawn, torch.rand(3))


def test_dropout_demo_eval_mode_is_identity(masked_weights):
    demo = attention.dropout_demo(masked_weights, 0.5, seed=123, training=False)
    trace = demo.trace
    assert torch.equal(trace["dropped_weights"], masked_weights)
    assert torch.equal(trace["dropped_example"], torch.ones(6, 6))
    assert bool(trace["keep"].all())
    assert demo.kept_fraction == 1.0


def test_dropout_demo_p_zero_is_identity(masked_weights):
    trace = attention.dropout_demo(masked_weights, 0.0, seed=123).trace
    assert torch.equal(trace["dropped_weights"], masked_weights)


# --------------------------------------------------------------------------- 3.5.3

CAUSAL_OUT = [
    [-0.4519, 0.2216],
    [-0.5874, 0.0058],
    [-0.6300, -0.0632],
    [-0.5675, -0.0843],
    [-0.5526, -0.0981],
    [-0.5299, -0.1081],
]


def test_353_causal_attention(batch):
    assert batch.shape == (2, 6, 3)
    torch.manual_seed(123)
    ca = CausalAttention(3, 2, batch.shape[1], 0.0)
    out = ca(batch)
    assert out.shape == (2, 6, 2)
    for b in range(2):
        close(out[b], CAUSAL_OUT)


def test_353_mask_is_a_buffer():
    ca = CausalAttention(3, 2, 6, 0.0)
    assert "mask" in dict(ca.named_buffers())
    assert "mask" in ca.state_dict()
    assert "mask" not in dict(ca.named_parameters())
    assert torch.equal(ca.mask, torch.triu(torch.ones(6, 6), diagonal=1))


def test_353_unbatched_input_gives_the_same_rows(inputs):
    torch.manual_seed(123)
    ca = CausalAttention(3, 2, 6, 0.0)
    close(ca(inputs), CAUSAL_OUT)


def test_353_shorter_sequence_uses_a_slice_of_the_mask(inputs):
    torch.manual_seed(123)
    ca = CausalAttention(3, 2, 10, 0.0)  # context_length larger than the 6 tokens
    close(ca(inputs), CAUSAL_OUT)
    # Causality: the first 4 outputs depend only on the first 4 tokens.
    close(ca(inputs[:4]), CAUSAL_OUT[:4])


# --------------------------------------------------------------------------- 3.6.1

WRAPPER_OUT = [
    [-0.4519, 0.2216, 0.4772, 0.1063],
    [-0.5874, 0.0058, 0.5891, 0.3257],
    [-0.6300, -0.0632, 0.6202, 0.3860],
    [-0.5675, -0.0843, 0.5478, 0.3589],
    [-0.5526, -0.0981, 0.5321, 0.3428],
    [-0.5299, -0.1081, 0.5077, 0.3493],
]
EX32_OUT = [
    [-0.5740, 0.2216],
    [-0.7320, 0.0155],
    [-0.7774, -0.0546],
    [-0.6979, -0.0817],
    [-0.6538, -0.0957],
    [-0.6424, -0.1065],
]


def test_361_wrapper(batch):
    torch.manual_seed(123)
    mha = MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)
    out = mha(batch)
    assert out.shape == (2, 6, 4)
    for b in range(2):
        close(out[b], WRAPPER_OUT)


def test_exercise_32_wrapper_with_d_out_1(batch):
    torch.manual_seed(123)
    mha = MultiHeadAttentionWrapper(3, 1, 6, 0.0, num_heads=2)
    out = mha(batch)
    assert out.shape == (2, 6, 2)
    for b in range(2):
        close(out[b], EX32_OUT)


# --------------------------------------------------------------------------- 3.6.2

MHA_OUT = [
    [0.3190, 0.4858],
    [0.2943, 0.3897],
    [0.2856, 0.3593],
    [0.2693, 0.3873],
    [0.2639, 0.3928],
    [0.2575, 0.4028],
]


def test_362_multihead_attention(batch):
    torch.manual_seed(123)
    mha = MultiHeadAttention(3, 2, 6, 0.0, num_heads=2)
    out = mha(batch)
    assert out.shape == (2, 6, 2)
    for b in range(2):
        close(out[b], MHA_OUT)


def test_362_unbatched_input(inputs):
    torch.manual_seed(123)
    mha = MultiHeadAttention(3, 2, 6, 0.0, num_heads=2)
    out = mha(inputs)
    assert out.shape == (6, 2)
    close(out, MHA_OUT)


def test_362_batched_matmul_example():
    a = torch.tensor(
        [
            [
                [
                    [0.2745, 0.6584, 0.2775, 0.8573],
                    [0.8993, 0.0390, 0.9268, 0.7388],
                    [0.7179, 0.7058, 0.9156, 0.4340],
                ],
                [
                    [0.0772, 0.3565, 0.1479, 0.5331],
                    [0.4066, 0.2318, 0.4545, 0.9737],
                    [0.4606, 0.5159, 0.4220, 0.5786],
                ],
            ]
        ]
    )
    assert a.shape == (1, 2, 3, 4)
    out = a @ a.transpose(2, 3)
    assert out.shape == (1, 2, 3, 3)
    close(out[0, 0], [[1.3208, 1.1631, 1.2879], [1.1631, 2.2150, 1.8424], [1.2879, 1.8424, 2.0402]])
    close(out[0, 1], [[0.4391, 0.7003, 0.5903], [0.7003, 1.3737, 1.0620], [0.5903, 1.0620, 0.9912]])
    # The book's point: the batched product is the per-head product, head by head.
    for h in range(2):
        torch.testing.assert_close(out[0, h], a[0, h] @ a[0, h].T)


def test_exercise_33_gpt2_parameter_count():
    mha = MultiHeadAttention(768, 768, 1024, 0.0, 12)
    assert attention.count_parameters(mha) == 2_360_064
    assert attention.count_parameters(MultiHeadAttention(*GPT2_SMALL.book_args())) == 2_360_064
    assert GPT2_SMALL.head_dim == 64
    # The combined-QKV module has the same parameters in a different layout.
    assert attention.count_parameters(FastMultiHeadAttention(GPT2_SMALL)) == 2_360_064


def test_count_parameters_ignores_frozen_parameters_and_buffers():
    mha = MultiHeadAttention(3, 2, 6, 0.0, 2)
    # Three bias-free 3->2 projections (3 * 6) plus out_proj's 2x2 weight and 2 biases.
    assert attention.count_parameters(mha) == 3 * 6 + (2 * 2 + 2)
    mha.out_proj.weight.requires_grad_(False)
    assert attention.count_parameters(mha) == 20


# --------------------------------------------------------------------------- traces


def _book_module(name: str) -> torch.nn.Module:
    if name == "SelfAttention_v1":
        torch.manual_seed(123)
        return SelfAttention_v1(3, 2)
    if name == "SelfAttention_v2":
        torch.manual_seed(789)
        return SelfAttention_v2(3, 2)
    torch.manual_seed(123)
    if name == "CausalAttention":
        return CausalAttention(3, 2, 6, 0.0)
    if name == "MultiHeadAttentionWrapper":
        return MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)
    return MultiHeadAttention(3, 2, 6, 0.0, num_heads=2)


BOOK_CLASSES = [
    "SelfAttention_v1",
    "SelfAttention_v2",
    "CausalAttention",
    "MultiHeadAttentionWrapper",
    "MultiHeadAttention",
]


@pytest.mark.parametrize("name", BOOK_CLASSES)
@pytest.mark.parametrize("batched", [False, True])
def test_trace_output_equals_module_call(name, batched, inputs, batch):
    module = _book_module(name)
    x = batch if batched else inputs
    trace = module.trace(x)
    expected = module(x)
    want_shape = expected.shape if name != "MultiHeadAttention" or batched else (1, *expected.shape)
    assert trace.output.shape == want_shape
    torch.testing.assert_close(trace.output.reshape(expected.shape), expected, atol=0, rtol=0)
    for step in trace:
        assert len(step.dims) == step.tensor.dim()


def test_trace_of_book_classes_carries_book_numbers(batch):
    expected = {
        "SelfAttention_v1": V1_OUT,
        "SelfAttention_v2": V2_OUT,
        "CausalAttention": CAUSAL_OUT,
        "MultiHeadAttentionWrapper": WRAPPER_OUT,
        "MultiHeadAttention": MHA_OUT,
    }
    for name, rows in expected.items():
        out = _book_module(name).trace(batch).output
        close(out[0], rows)
        close(out[1], rows)


def test_multihead_trace_shapes(batch):
    trace = _book_module("MultiHeadAttention").trace(batch)
    shapes = {
        "queries": (2, 6, 2),
        "queries_split": (2, 6, 2, 1),
        "queries_by_head": (2, 2, 6, 1),
        "scores": (2, 2, 6, 6),
        "weights": (2, 2, 6, 6),
        "context": (2, 2, 6, 1),
        "context_by_token": (2, 6, 2, 1),
        "context_merged": (2, 6, 2),
        "output": (2, 6, 2),
    }
    for name, shape in shapes.items():
        assert trace.step(name).shape == shape, name
    assert trace.step("queries_by_head").dims == ("batch", "head", "token", "head_dim")
    assert trace.step("weights").dims == ("batch", "head", "query", "key")
    order = trace.names()
    assert [n for n in order if n in shapes] == list(shapes)


def test_multihead_trace_reshapes_are_consistent(batch):
    trace = _book_module("MultiHeadAttention").trace(batch)
    q = trace["queries"]
    torch.testing.assert_close(trace["queries_split"], q.view(2, 6, 2, 1))
    torch.testing.assert_close(trace["queries_by_head"], q.view(2, 6, 2, 1).transpose(1, 2))
    torch.testing.assert_close(trace["context_by_token"], trace["context"].transpose(1, 2))
    torch.testing.assert_close(trace["context_merged"], trace["context"].transpose(1, 2).reshape(2, 6, 2))


def test_wrapper_trace_stacks_heads(batch):
    module = _book_module("MultiHeadAttentionWrapper")
    trace = module.trace(batch)
    assert trace.step("weights").shape == (2, 2, 6, 6)
    assert trace.step("weights").dims == ("batch", "head", "query", "key")
    for h, head in enumerate(module.heads):
        torch.testing.assert_close(trace["context"][:, h], head(batch))
