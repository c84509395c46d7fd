"""Each section's live result at several settings, as its page script computes it: what the Check yourself tests
(tests/test_check.py) and the light page's verdicts (tests/test_follow_answer.py) judge answers against."""

from __future__ import annotations

from typing import Any

import torch

from attention import (
    AttentionConfig,
    additive_attention,
    book_inputs,
    causal_attention_step_by_step,
    dropout_demo,
    rnn_bottleneck,
    self_attention_step_by_step,
    simple_attention_for_query,
    simple_self_attention,
)
from attention.explore import RunOptions, causal_class_demo, self_attention_classes, stacking_heads, weight_splits
from ui.check.questions import Live

X = book_inputs()
LABELS = ("Your", "journey", "starts", "with", "one", "step")


def config(d_out: int, heads: int = 1, *, bias: bool = False, causal: bool = True) -> AttentionConfig:
    return AttentionConfig(d_in=3, d_out=d_out, context_length=6, dropout=0.0, num_heads=heads, qkv_bias=bias,
                           causal=causal)


def lives() -> list[tuple[str, Live]]:
    """Each section's live result at several settings (the page scripts' own calls)."""
    live = []

    def add(page_id: str, result: Any, inputs: torch.Tensor = X, **given: Any) -> None:
        live.append((page_id, Live(result, LABELS[: len(inputs)], inputs, given)))

    for hidden, seed in ((4, 123), (1, 5)):
        add("long-sequences", rnn_bottleneck(X, hidden=hidden, seed=seed), attention=simple_self_attention(X),
            hidden=hidden, scale=0.6)
    for q in (0, 2, 5):
        add("dependencies", additive_attention(X), query=q)
        add("one-query", simple_attention_for_query(X, q), query=q)
        add("trainable-steps", self_attention_step_by_step(X, query_index=q, causal=q == 2), query=q)
    add("one-query", simple_attention_for_query(X, 3, normalisation="sum"), query=3)
    add("one-query", simple_attention_for_query(X, 1, causal=True), query=1)  # keys the mask hides
    for dropout in (0.0, 0.5):
        add("all-queries", simple_self_attention(X, dropout=dropout, causal=dropout > 0))
    add("all-queries", simple_self_attention(X, dropout=0.5, seed=seed_where_dropout_moves_the_top_key()))
    for d_out, bias in ((2, False), (3, False), (2, True)):
        add("self-attention-classes", self_attention_classes(X, d_out=d_out, qkv_bias=bias))
    for causal in (True, False):
        add("causal-mask", causal_attention_step_by_step(X, causal=causal))
    add("causal-mask", causal_attention_step_by_step(X[:1]), X[:1])
    weights = causal_attention_step_by_step(X)["masked_weights"]
    for p, training, seed in ((0.5, True, 123), (0.2, True, 1), (0.5, False, 123)):
        add("dropout", dropout_demo(weights, p, seed=seed, training=training), p=p, training=training)
    one = causal_attention_step_by_step(X[:1])["masked_weights"]  # a single cell: all of it may be dropped
    seed = next(s for s in range(100) if dropout_demo(one, 0.9, seed=s).kept_fraction == 0.0)
    add("dropout", dropout_demo(one, 0.9, seed=seed), X[:1], p=0.9, training=True)
    for causal, length in ((True, 6), (False, 8)):
        causal_config = AttentionConfig(3, 2, length, causal=causal)
        add("causal-class", causal_class_demo(X, causal_config, RunOptions(batch_size=3)))
    for d_out, heads, bias in ((2, 2, False), (1, 2, True), (2, 1, False), (3, 2, True)):
        add("stacking-heads", stacking_heads(X, config(d_out * heads, heads, bias=bias)), heads=heads, d_out=d_out,
            qkv_bias=bias)
    for d_out, heads, bias in ((2, 2, False), (4, 2, True), (6, 3, False)):
        add("weight-splits", weight_splits(X, config(d_out, heads, bias=bias)), heads=heads, d_out=d_out,
            qkv_bias=bias)
    return live


def seed_where_dropout_moves_the_top_key() -> int:
    """A dropout seed after which the query "starts" no longer weighs its top-scoring key most."""
    for seed in range(500):
        trace = simple_self_attention(X, dropout=0.5, seed=seed)
        row, scores = trace["dropped_weights"][2], trace["scores"][2]
        if int(scores.argmax()) not in (int(row.argmax()), int(trace["dropped_weights"][:, 2].argmax())):
            return seed
    raise AssertionError("no such seed")
