"""Bad configurations and bad inputs fail early with a message a learner can act on.

Every case must raise ``ValueError`` (``TypeError`` for a wrong type) whose
message names the problem; never an ``AssertionError``, ``IndexError`` or
``RuntimeError`` from deep inside PyTorch, and never a silently wrong tensor.
``pytest.raises`` with an exact exception class checks the first part (a
subclass such as ``IndexError`` would not satisfy ``ValueError``), ``match``
the second.
"""

from __future__ import annotations

import math
import re

import pytest
import torch

import attention
from attention import (
    AttentionConfig,
    CausalAttention,
    FastMultiHeadAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
    SelfAttention_v1,
    SelfAttention_v2,
    TextMultiHeadAttention,
)
from attention.errors import ExplainedTypeError, ExplainedValueError

# --------------------------------------------------------------------------- helpers


# The package raises its ValueErrors and TypeErrors as templated errors (translatable messages).
TEMPLATED = {ValueError: ExplainedValueError, TypeError: ExplainedTypeError}


def raises(exc: type[Exception], match: str, fn, *args, **kwargs) -> Exception:
    """Call fn and require exactly ``exc``'s templated class (no other subclass) with a message matching ``match``."""
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    exc = TEMPLATED.get(exc, exc)
    assert type(info.value) is exc, f"expected {exc.__name__}, got {type(info.value).__name__}: {info.value}"
    message = str(info.value)
    assert len(message) > 20, f"message too terse to help: {message!r}"
    assert re.search(match, message), f"{match!r} not in {message!r}"
    return info.value


# Constructors of every book class from (d_in, d_out, context_length, dropout, num_heads).
BUILDERS = {
    "SelfAttention_v1": lambda d_in, d_out, ctx, p, h: SelfAttention_v1(d_in, d_out),
    "SelfAttention_v2": lambda d_in, d_out, ctx, p, h: SelfAttention_v2(d_in, d_out),
    "CausalAttention": lambda d_in, d_out, ctx, p, h: CausalAttention(d_in, d_out, ctx, p),
    "MultiHeadAttentionWrapper": lambda d_in, d_out, ctx, p, h: MultiHeadAttentionWrapper(d_in, d_out, ctx, p, h),
    "MultiHeadAttention": lambda d_in, d_out, ctx, p, h: MultiHeadAttention(d_in, d_out, ctx, p, h),
    "AttentionConfig": lambda d_in, d_out, ctx, p, h: AttentionConfig(d_in, d_out, ctx, p, h),
}
# Which constructor arguments each one takes.
TAKES = {
    "SelfAttention_v1": {"d_in", "d_out"},
    "SelfAttention_v2": {"d_in", "d_out"},
    "CausalAttention": {"d_in", "d_out", "context_length", "dropout"},
    "MultiHeadAttentionWrapper": {"d_in", "d_out", "context_length", "dropout", "num_heads"},
    "MultiHeadAttention": {"d_in", "d_out", "context_length", "dropout", "num_heads"},
    "AttentionConfig": {"d_in", "d_out", "context_length", "dropout", "num_heads"},
}
GOOD = {"d_in": 3, "d_out": 2, "context_length": 6, "dropout": 0.0, "num_heads": 2}


def build(cls: str, **overrides):
    args = {**GOOD, **overrides}
    return BUILDERS[cls](args["d_in"], args["d_out"], args["context_length"], args["dropout"], args["num_heads"])


def size_cases():
    for cls, takes in TAKES.items():
        for arg in ("d_in", "d_out", "context_length", "num_heads"):
            if arg in takes:
                yield cls, arg


# --------------------------------------------------------------------------- configurations

BAD_SIZES = [
    (0, ValueError, "at least 1"),
    (-2, ValueError, "at least 1"),
    (2.0, TypeError, "whole number.*write 2"),
    (2.5, TypeError, "whole number"),
    ("2", TypeError, "whole number"),
    (True, TypeError, "whole number"),
    (None, TypeError, "whole number"),
]


@pytest.mark.parametrize("cls,arg", list(size_cases()))
@pytest.mark.parametrize("value,exc,match", BAD_SIZES, ids=[repr(v[0]) for v in BAD_SIZES])
def test_bad_sizes_and_head_counts(cls, arg, value, exc, match):
    err = raises(exc, match, build, cls, **{arg: value})
    assert arg in str(err)  # the message names the offending argument


@pytest.mark.parametrize("cls", [c for c, t in TAKES.items() if "dropout" in t])
@pytest.mark.parametrize(
    "value,exc",
    [
        (-0.1, ValueError),
        (1.0, ValueError),
        (1.5, ValueError),
        (math.nan, ValueError),
        ("0.1", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
    ids=["-0.1", "1.0", "1.5", "nan", "str", "bool", "None"],
)
def test_bad_dropout(cls, value, exc):
    raises(exc, r"dropout must be", build, cls, dropout=value)


@pytest.mark.parametrize("cls", [c for c, t in TAKES.items() if "dropout" in t])
@pytest.mark.parametrize("value", [0.0, 0, 0.5, 0.999])
def test_good_dropout_is_accepted(cls, value):
    build(cls, dropout=value)


@pytest.mark.parametrize("cls", ["MultiHeadAttention", "AttentionConfig"])
@pytest.mark.parametrize("d_out,heads", [(2, 3), (5, 2), (768, 7)])
def test_d_out_not_divisible_by_num_heads(cls, d_out, heads):
    err = raises(ValueError, "divisible by num_heads", build, cls, d_out=d_out, num_heads=heads)
    # The message suggests head counts that would work.
    valid = [h for h in range(1, d_out + 1) if d_out % h == 0]
    assert str(valid) in str(err)


def test_wrapper_heads_need_not_divide_d_out():
    # Each wrapper head has its own d_out, so 3 heads of width 2 are fine.
    assert build("MultiHeadAttentionWrapper", d_out=2, num_heads=3)(torch.rand(1, 6, 3)).shape == (1, 6, 6)


@pytest.mark.parametrize("cls", ["CausalAttention", "MultiHeadAttentionWrapper", "MultiHeadAttention"])
def test_context_length_zero(cls):
    raises(ValueError, "context_length must be at least 1", build, cls, context_length=0)


def test_fast_module_rejects_unknown_backend():
    raises(ValueError, "backend must be one of", FastMultiHeadAttention, AttentionConfig(3, 2, 6), "flash")


# --------------------------------------------------------------------------- inputs to the classes

MODULES = {
    "SelfAttention_v1": lambda: SelfAttention_v1(3, 2),
    "SelfAttention_v2": lambda: SelfAttention_v2(3, 2),
    "CausalAttention": lambda: CausalAttention(3, 2, 6, 0.0),
    "MultiHeadAttentionWrapper": lambda: MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2),
    "MultiHeadAttention": lambda: MultiHeadAttention(3, 2, 6, 0.0, 2),
    "FastMultiHeadAttention[eager]": lambda: FastMultiHeadAttention(AttentionConfig(3, 2, 6, 0.0, 2), "eager"),
    "FastMultiHeadAttention[sdpa]": lambda: FastMultiHeadAttention(AttentionConfig(3, 2, 6, 0.0, 2), "sdpa"),
}
HAS_CONTEXT_LENGTH = {n for n in MODULES if not n.startswith("SelfAttention")}
BATCH_ONLY = {n for n in MODULES if n.startswith("FastMultiHeadAttention")}


def with_value(value: float, batched: bool = True) -> torch.Tensor:
    x = torch.rand(2, 6, 3) if batched else torch.rand(6, 3)
    x[(1, 4, 2) if batched else (4, 2)] = value
    return x


INPUT_CASES = [
    ("1-D", lambda: torch.rand(3), ValueError, r"must have shape .*1 dimension"),
    ("4-D", lambda: torch.rand(1, 2, 6, 3), ValueError, r"must have shape .*4 dimension"),
    ("width 4", lambda: torch.rand(2, 6, 4), ValueError, r"embedding width 4.*d_in=3"),
    ("no tokens", lambda: torch.rand(2, 0, 3), ValueError, "empty sequence"),
    ("empty batch", lambda: torch.rand(0, 6, 3), ValueError, "batch of size 0"),
    ("NaN", lambda: with_value(math.nan), ValueError, r"finite.*nan.*\(1, 4, 2\)"),
    ("+inf", lambda: with_value(math.inf), ValueError, r"finite.*inf"),
    ("-inf", lambda: with_value(-math.inf), ValueError, r"finite.*-inf"),
    ("list", lambda: torch.rand(2, 6, 3).tolist(), TypeError, r"must be a torch.Tensor.*list"),
    ("int64", lambda: torch.ones(2, 6, 3, dtype=torch.long), TypeError, r"floating-point.*int64"),
    ("bool", lambda: torch.ones(2, 6, 3, dtype=torch.bool), TypeError, r"floating-point"),
]
UNBATCHED_CASES = [
    ("2-D no tokens", lambda: torch.rand(0, 3), ValueError, "empty sequence"),
    ("2-D width 1", lambda: torch.rand(6, 1), ValueError, "embedding width 1"),
    ("2-D NaN", lambda: with_value(math.nan, batched=False), ValueError, r"finite.*\(4, 2\)"),
]


@pytest.mark.parametrize("module", list(MODULES))
@pytest.mark.parametrize("case,make,exc,match", INPUT_CASES, ids=[c[0] for c in INPUT_CASES])
def test_bad_inputs_to_every_class(module, case, make, exc, match):
    m = MODULES[module]()
    raises(exc, match, m, make())


@pytest.mark.parametrize("module", [m for m in MODULES if m not in BATCH_ONLY])
@pytest.mark.parametrize("case,make,exc,match", UNBATCHED_CASES, ids=[c[0] for c in UNBATCHED_CASES])
def test_bad_unbatched_inputs(module, case, make, exc, match):
    raises(exc, match, MODULES[module](), make())


@pytest.mark.parametrize("module", [m for m in MODULES if m not in BATCH_ONLY])
@pytest.mark.parametrize("case,make,exc,match", INPUT_CASES[:6], ids=[c[0] for c in INPUT_CASES[:6]])
def test_bad_inputs_to_trace(module, case, make, exc, match):
    raises(exc, match, MODULES[module]().trace, make())


@pytest.mark.parametrize(
    "module,shape",
    [(m, s) for m in sorted(HAS_CONTEXT_LENGTH) for s in [(2, 7, 3), (7, 3)] if m not in BATCH_ONLY or len(s) == 3],
)
def test_more_tokens_than_context_length(module, shape):
    raises(ValueError, r"7 tokens, more than context_length=6", MODULES[module](), torch.rand(*shape))


@pytest.mark.parametrize("module", sorted(BATCH_ONLY))
def test_fast_module_explains_it_needs_a_batch(module):
    raises(ValueError, r"\(batch, num_tokens, 3\)", MODULES[module](), torch.rand(6, 3))


@pytest.mark.parametrize(
    "module", ["SelfAttention_v1", "SelfAttention_v2", "CausalAttention", "MultiHeadAttentionWrapper"]
)
@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_input_dtype_must_match_the_weights(module, dtype):
    raises(TypeError, rf"dtype {dtype}.*torch.float32", MODULES[module](), torch.rand(2, 6, 3).to(dtype))


def test_a_float64_module_accepts_float64_inputs():
    m = CausalAttention(3, 2, 6, 0.0).double()
    assert m(torch.rand(2, 6, 3, dtype=torch.float64)).dtype == torch.float64


def test_v1_v2_accept_any_number_of_tokens():
    # SelfAttention_v1/v2 have no mask, so any number of tokens is fine.
    assert SelfAttention_v1(3, 2)(torch.rand(50, 3)).shape == (50, 2)


# --------------------------------------------------------------------------- functional entry points

FUNCTIONAL = {
    "simple_attention_for_query": attention.simple_attention_for_query,
    "simple_self_attention": attention.simple_self_attention,
    "self_attention_step_by_step": attention.self_attention_step_by_step,
    "causal_attention_step_by_step": attention.causal_attention_step_by_step,
    "dropout_demo": attention.dropout_demo,
}
# These take a single (tokens, dim) matrix, so a batch is the wrong rank.
FUNCTIONAL_INPUT_CASES = [
    ("1-D", lambda: torch.rand(3), ValueError, r"must have shape .*1 dimension"),
    ("3-D", lambda: torch.rand(2, 6, 3), ValueError, r"must have shape .*3 dimension"),
    ("4-D", lambda: torch.rand(1, 2, 6, 3), ValueError, r"must have shape .*4 dimension"),
    ("0-D", lambda: torch.tensor(1.0), ValueError, r"must have shape .*0 dimension"),
    ("no tokens", lambda: torch.rand(0, 3), ValueError, "empty sequence"),
    ("no width", lambda: torch.rand(6, 0), ValueError, "width 0"),
    ("NaN", lambda: with_value(math.nan, batched=False), ValueError, r"finite.*nan"),
    ("+inf", lambda: with_value(math.inf, batched=False), ValueError, r"finite.*inf"),
    ("-inf", lambda: with_value(-math.inf, batched=False), ValueError, r"finite.*-inf"),
    ("list", lambda: torch.rand(6, 3).tolist(), TypeError, r"torch.Tensor.*list"),
    ("int64", lambda: torch.ones(6, 3, dtype=torch.long), TypeError, r"floating-point"),
]


@pytest.mark.parametrize("fn", list(FUNCTIONAL))
@pytest.mark.parametrize("case,make,exc,match", FUNCTIONAL_INPUT_CASES, ids=[c[0] for c in FUNCTIONAL_INPUT_CASES])
def test_bad_inputs_to_functional_entry_points(fn, case, make, exc, match):
    raises(exc, match, FUNCTIONAL[fn], make())


BAD_INDICES = [
    (6, ValueError, "between 0 and 5"),
    (-1, ValueError, "between 0 and 5"),
    (1.0, TypeError, "must be an int"),
    ("1", TypeError, "must be an int"),
    (True, TypeError, "must be an int"),
]


@pytest.mark.parametrize("fn", ["simple_attention_for_query", "self_attention_step_by_step"])
@pytest.mark.parametrize("value,exc,match", BAD_INDICES, ids=[repr(v[0]) for v in BAD_INDICES])
def test_bad_query_index(fn, value, exc, match):
    inputs = attention.book_inputs()
    err = raises(exc, match, FUNCTIONAL[fn], inputs, query_index=value)
    assert "query_index" in str(err)


BAD_SEEDS = [
    (-1, ValueError, r"between 0 and 2\*\*63"),
    (2**63, ValueError, r"between 0 and 2\*\*63"),
    (1.5, TypeError, "seed must be a whole number"),
    ("123", TypeError, "seed must be a whole number"),
    (True, TypeError, "seed must be a whole number"),
    (None, TypeError, "seed must be a whole number"),
]
SEEDED = {
    "simple_attention_for_query": lambda s: attention.simple_attention_for_query(attention.book_inputs(), seed=s),
    "simple_self_attention": lambda s: attention.simple_self_attention(attention.book_inputs(), seed=s),
    "self_attention_step_by_step": lambda s: attention.self_attention_step_by_step(attention.book_inputs(), seed=s),
    "self_attention_step_by_step[dropout_seed]": lambda s: attention.self_attention_step_by_step(
        attention.book_inputs(), dropout_seed=s
    ),
    "causal_attention_step_by_step": lambda s: attention.causal_attention_step_by_step(attention.book_inputs(), seed=s),
    "dropout_demo": lambda s: attention.dropout_demo(torch.rand(6, 6), seed=s),
    "text_to_attention": lambda s: attention.text_to_attention(["hello world"], seed=s),
    "init_trainable_weights": lambda s: attention.init_trainable_weights(3, 2, seed=s),
    "apply_dropout": lambda s: attention.apply_dropout(torch.rand(3, 3), 0.5, seed=s),
    "seeded": lambda s: attention.seeded(s).__enter__(),
}


@pytest.mark.parametrize("fn", list(SEEDED))
@pytest.mark.parametrize("value,exc,match", BAD_SEEDS, ids=[repr(v[0]) for v in BAD_SEEDS])
def test_bad_seed(fn, value, exc, match):
    raises(exc, match, SEEDED[fn], value)


BAD_RATES = [
    (-0.1, ValueError),
    (1.0, ValueError),
    (1.5, ValueError),
    (math.nan, ValueError),
    ("0.1", TypeError),
]
WITH_DROPOUT = {
    "simple_attention_for_query": lambda p: attention.simple_attention_for_query(attention.book_inputs(), dropout=p),
    "simple_self_attention": lambda p: attention.simple_self_attention(attention.book_inputs(), dropout=p),
    "self_attention_step_by_step": lambda p: attention.self_attention_step_by_step(attention.book_inputs(), dropout=p),
    "dropout_demo": lambda p: attention.dropout_demo(torch.rand(6, 6), p),
    "apply_dropout": lambda p: attention.apply_dropout(torch.rand(6, 6), p, seed=1),
}


@pytest.mark.parametrize("fn", list(WITH_DROPOUT))
@pytest.mark.parametrize("value,exc", BAD_RATES, ids=[repr(v[0]) for v in BAD_RATES])
def test_bad_dropout_rate_in_functions(fn, value, exc):
    raises(exc, r"must be", WITH_DROPOUT[fn], value)


@pytest.mark.parametrize("fn", ["simple_attention_for_query", "simple_self_attention"])
def test_bad_normalisation(fn):
    raises(
        ValueError,
        r"normalisation must be one of",
        FUNCTIONAL[fn],
        attention.book_inputs(),
        normalisation="max",
    )


def test_normalise_rejects_unknown_method():
    raises(ValueError, r"normalisation must be one of", attention.normalise, torch.rand(3), "max")


@pytest.mark.parametrize("fn", ["self_attention_step_by_step", "causal_attention_step_by_step"])
@pytest.mark.parametrize(
    "value,exc", [(0, ValueError), (-1, ValueError), (2.0, TypeError), ("2", TypeError), (True, TypeError)]
)
def test_bad_d_out_in_step_by_step(fn, value, exc):
    raises(exc, "d_out", FUNCTIONAL[fn], attention.book_inputs(), d_out=value)


@pytest.mark.parametrize("fn", [attention.causal_mask, attention.future_mask])
@pytest.mark.parametrize("value,exc", [(0, ValueError), (-3, ValueError), (2.5, TypeError)])
def test_bad_mask_sizes(fn, value, exc):
    raises(exc, "num_tokens", fn, value)


def test_dropout_demo_needs_a_tensor():
    raises(TypeError, "2-D torch.Tensor", attention.dropout_demo, [[0.5, 0.5], [1.0, 0.0]])


# --------------------------------------------------------------------------- text


def test_text_to_attention_bad_arguments():
    t2a = attention.text_to_attention
    raises(ValueError, "at least one sentence", t2a, [])
    raises(ValueError, "no words", t2a, [""])
    raises(ValueError, "no words", t2a, ["Hello there.", "?!"])
    raises(TypeError, "list of strings", t2a, "Hello there.")
    raises(TypeError, "must be a str", t2a, ["Hello there.", 42])
    raises(ValueError, "divisible by num_heads", t2a, ["Hello there."], d_model=8, num_heads=3)
    raises(ValueError, "d_model must be at least 1", t2a, ["Hello there."], d_model=0)
    raises(TypeError, "num_heads must be a whole number", t2a, ["Hello there."], num_heads=2.0)
    raises(ValueError, "query_sentence must be between 0 and 1", t2a, ["a b", "c d"], query_sentence=2)
    raises(ValueError, "key_sentence must be between 0 and 1", t2a, ["a b", "c d"], key_sentence=-1)
    raises(TypeError, "key_sentence must be an int", t2a, ["a b", "c d"], key_sentence="1")


def test_encode_batch_bad_arguments():
    vocab = attention.build_vocab(["hello world"])
    raises(ValueError, "at least one sentence", attention.encode_batch, [], vocab)
    raises(
        ValueError,
        r"missing from the vocabulary: \['there'\]",
        attention.encode_batch,
        ["hello there"],
        vocab,
    )
    raises(TypeError, "must be a str", attention.tokenize, None)


def test_text_multihead_attention_bad_arguments():
    raises(ValueError, "divisible by num_heads", TextMultiHeadAttention, 8, 3)
    raises(ValueError, "d_model must be at least 1", TextMultiHeadAttention, 0, 1)
    m = TextMultiHeadAttention(8, 2)
    x = torch.rand(2, 5, 8)
    raises(ValueError, "embedding width 6", m, torch.rand(2, 5, 6), x, x)
    raises(ValueError, "must have shape", m, torch.rand(5, 8), x, x)
    raises(ValueError, "key and value", m, x, x, torch.rand(2, 4, 8))
    raises(ValueError, "batch size", m, torch.rand(1, 5, 8), x, x)
    raises(ValueError, "finite", m, x, with_nan(x), x)
    raises(ValueError, "causal=True with 5 queries and 4 keys", m, x, x[:, :4], x[:, :4], causal=True)
    no_padding = torch.zeros(2, 5, dtype=torch.bool)  # True would mark padding, as in torch
    raises(TypeError, "bool tensor", m, x, x, x, key_padding_mask=no_padding.float())
    raises(ValueError, r"shape \(2, 5\)", m, x, x, x, key_padding_mask=no_padding[:, :4])
    all_padding = no_padding.clone()
    all_padding[1] = True
    raises(ValueError, "hides every key", m, x, x, x, key_padding_mask=all_padding)


def with_nan(x: torch.Tensor) -> torch.Tensor:
    x = x.clone()
    x[0, 0, 0] = math.nan
    return x


# --------------------------------------------------------------------------- odds and ends


def test_copy_v2_into_v1_mismatch():
    raises(
        ValueError,
        "same d_in and d_out",
        attention.copy_v2_into_v1,
        SelfAttention_v2(3, 2),
        SelfAttention_v1(4, 2),
    )


def test_load_from_mismatched_module():
    config = AttentionConfig(3, 2, 6, 0.0, 2)
    raises(
        ValueError,
        "cannot load weights",
        FastMultiHeadAttention(config).load_from,
        MultiHeadAttention(3, 4, 6, 0.0, 2),
    )


def test_comparison_shape_mismatch_is_a_value_error():
    raises(
        ValueError,
        r"cannot compare a \(2,\) with b \(3,\)",
        attention.Comparison.of,
        "a",
        torch.zeros(2),
        "b",
        torch.zeros(3),
    )


# ----- fixes found in review: efficient variants and dtypes -------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: MultiHeadAttention(3, 2, 6, 0.0, 2),
        lambda: FastMultiHeadAttention(AttentionConfig(3, 2, 6, 0.0, 2), "eager"),
        lambda: attention.TorchMultiheadAttention(AttentionConfig(3, 3, 6, 0.0, 1)),
    ],
    ids=["MultiHeadAttention", "FastMultiHeadAttention", "TorchMultiheadAttention"],
)
def test_wrong_dtype_is_a_type_error_not_a_matmul_crash(make):
    x = torch.rand(2, 6, 3, dtype=torch.float64)
    with pytest.raises(TypeError, match="dtype"):
        make()(x)


def test_variant_modules_need_a_config():
    with pytest.raises(TypeError, match="AttentionConfig"):
        FastMultiHeadAttention("x")
    with pytest.raises(TypeError, match="AttentionConfig"):
        attention.TorchMultiheadAttention({"d_in": 3})


def test_compare_and_time_variants_restore_training_mode():
    config = AttentionConfig(3, 2, 6, 0.0, 2)
    book = MultiHeadAttention(*config.book_args()).train()
    x = torch.rand(2, 6, 3)
    attention.compare_variants(book, config, x)
    assert book.training
    attention.time_variants(book, config, x, repeats=1)
    assert book.training


def test_loading_weights_checks_the_mask_too():
    book = MultiHeadAttention(3, 2, 6, 0.0, 2, causal=False)
    with pytest.raises(ValueError, match="cannot load weights"):
        FastMultiHeadAttention(AttentionConfig(3, 2, 6, 0.0, 2, causal=True)).load_from(book)
