"""The questions of 3.5 and 3.6 (causal attention, dropout, multi-head attention), each answer computed from the
page's live result, and their part of the registry (ui/check/questions.py gathers it).
"""

from __future__ import annotations

from typing import Any

from attention import GPT2_SMALL
from attention.ops import MASK_PATTERNS, mask_pattern

from .answers import format_shape
from .question_types import CHOICE, NUMBER, SHAPE, TASK, Answer, Live, Question, Unavailable, Verdict, _f

__all__ = ["CAUSAL_AND_HEADS", "EXERCISE_3_2"]


# ----- 3.5: causal attention ----------------------------------------------------------------------------


def _hidden_cells(live: Live) -> Answer | Unavailable:
    value = mask_pattern(live.result.hidden_cells())
    if value is None:
        return Unavailable("pattern")
    if value == "none":
        mistakes = {"mask_off": "above"}
    else:
        mistakes = {"diagonal": "diagonal", "below": "below", "none": "none"}
    return Answer(value, {"n": len(live.labels)}, mistakes, MASK_PATTERNS)


def _masked_weight(live: Live) -> Answer | Unavailable:
    trace = live.result
    if "masked_weights" not in trace:
        return Unavailable("mask_off")
    if len(live.labels) < 2:
        return Unavailable("tokens")
    fields = {"token": live.labels[1], "first": live.labels[0]}
    # Zeroing the future leaves column 1 as it was: before masking and before renormalising are one mistake.
    return Answer(_f(trace["masked_weights"][1, 0]), fields, {"unmasked": _f(trace["weights"][1, 0])})


def _left_in_row(live: Live) -> Answer | Unavailable:
    trace = live.result
    if "row_sums" not in trace:
        return Unavailable("mask_off")
    row = min(1, len(live.labels) - 1)
    return Answer(_f(trace["row_sums"][row]), {"q": row + 1, "token": live.labels[row]}, {"one": 1.0})


def _dropout_fields(live: Live) -> dict[str, Any]:
    return {"p": f"{live.given['p']:g}", "scale": f"{1 / (1 - live.given['p']):.4g}"}


def _survivor(live: Live) -> Answer | Unavailable:
    trace, p = live.result.trace, live.given["p"]
    kept = trace["keep"].bool()
    if not bool(kept.any()):
        return Unavailable("none_kept")
    return Answer(_f(trace["dropped_example"][kept][0]), _dropout_fields(live),
                  {"unscaled": 1.0, "keep_rate": 1.0 - p, "p": p})


def _dropped_count(live: Live) -> Answer:
    trace, p = live.result.trace, live.given["p"]
    keep, training = trace["keep"], live.given["training"]
    expected = float(round(keep.numel() * p))  # what p predicts on average; the draw decides
    fields = {**_dropout_fields(live), "cells": keep.numel()}
    mistakes = {"expected" if training else "eval": expected, "kept": float(keep.sum())}
    return Answer(float((keep == 0).sum()), fields, mistakes, whole=True)


def _cell_after(live: Live) -> Answer | Unavailable:
    trace, p = live.result.trace, live.given["p"]
    if len(live.labels) < 2:
        return Unavailable("tokens")
    before, after = _f(trace["weights"][1, 0]), _f(trace["dropped_weights"][1, 0])
    mistakes = {"before": before}
    if bool(trace["keep"][1, 0]):
        mistakes["dropped"] = 0.0  # it survived: not 0
    else:
        mistakes["survived"] = before / (1 - p)  # it was dropped: not scaled up
    fields = {**_dropout_fields(live), "token": live.labels[1], "first": live.labels[0]}
    return Answer(after, fields, mistakes)


def _causal_context_shape(live: Live) -> Answer:
    b, n, d_out = live.result.trace["context"].shape
    d_in = live.inputs.shape[1]
    fields = {"batch": b, "n": n, "d_out": d_out, "d_in": d_in}
    return Answer((b, n, d_out), fields, {"no_batch": (n, d_out), "weights": (b, n, n), "d_in": (b, n, d_in)})


def _mask_buffer_shape(live: Live) -> Answer:
    shape, n = live.result.buffers["mask"], len(live.labels)
    return Answer(tuple(shape), {"context_length": shape[0], "n": n}, {"sliced": (n, n)})


def _hidden_count(live: Live) -> Answer:
    result, n = live.result, len(live.labels)
    hidden = result.trace.hidden_cells((0,))
    count = 0 if hidden is None else int(hidden.sum())
    batch = result.batch_shape[0]
    mistakes = {"diagonal": n * (n + 1) / 2, "whole_batch": batch * count} if count else {"mask_off": n * (n - 1) / 2}
    return Answer(float(count), {"n": n, "batch": batch}, mistakes, whole=True)


# ----- 3.6: multi-head attention --------------------------------------------------------------------------


EXERCISE_3_2 = (2, 2)  # the book's Exercise 3.2: a 2-dimensional output, keeping num_heads=2


def _exercise_3_2(live: Live) -> Answer:
    shape, heads, d_out = tuple(live.result.trace["output"].shape), live.given["heads"], live.given["d_out"]
    width, target_heads = EXERCISE_3_2
    fields = {"shape": format_shape(shape), "width": shape[-1], "heads": heads, "d_out": d_out,
              "target_width": width, "target_heads": target_heads,
              "answer": f"d_out = {width // target_heads}, num_heads = {target_heads}"}

    def check(_: Any) -> Verdict:
        if shape[-1] == width and heads == target_heads:
            return Verdict(True, "correct", fields)
        return Verdict(False, "heads" if shape[-1] == width else "width", fields)

    return Answer((shape, heads, d_out), fields, check=check)


def _head_fields(live: Live) -> dict[str, Any]:
    g = live.given
    return {"d_in": live.inputs.shape[1], "d_out": g["d_out"], "heads": g["heads"], "bias": g["qkv_bias"]}


def _output_width(live: Live) -> Answer:
    fields = _head_fields(live)
    width = live.result.trace["output"].shape[-1]
    return Answer(float(width), fields, {"per_head": float(fields["d_out"]), "heads_only": float(fields["heads"])},
                  whole=True)


def _bias_mistakes(count: int, biases: int, with_bias: bool) -> dict[str, float]:
    return {"forgot_bias": float(count - biases)} if with_bias else {"counted_bias": float(count + biases)}


def _wrapper_parameters(live: Live) -> Answer:
    fields, count = _head_fields(live), live.result.parameters
    biases = 3 * fields["d_out"] * fields["heads"]
    mistakes = {"one_head": count / fields["heads"], **_bias_mistakes(count, biases, fields["bias"])}
    return Answer(float(count), fields, mistakes, whole=True)


def _split_fields(live: Live) -> dict[str, Any]:
    b, n, heads, head_dim = live.result.trace["queries_split"].shape
    return {"batch": b, "n": n, "heads": heads, "head_dim": head_dim, "d_out": heads * head_dim}


def _split_shape(live: Live) -> Answer:
    trace, f = live.result.trace, _split_fields(live)
    return Answer(tuple(trace["queries_split"].shape), f,
                  {"by_head": tuple(trace["queries_by_head"].shape), "not_split": (f["batch"], f["n"], f["d_out"])})


def _weights_shape(live: Live) -> Answer:
    f = _split_fields(live)
    b, h, n = f["batch"], f["heads"], f["n"]
    mistakes = {"no_heads": (b, n, n), "context": (b, h, n, f["head_dim"])}
    return Answer(tuple(live.result.trace["weights"].shape), f, mistakes)


def _exercise_3_3(live: Live) -> Answer:
    count, d = live.result.gpt2_parameters, GPT2_SMALL.d_out
    fields = {"args": ", ".join(str(a) for a in GPT2_SMALL.book_args()[:5]), "d": d}
    mistakes = {"no_out_bias": count - d, "no_out_proj": count - d * d - d, "qkv_bias": count + 3 * d}
    return Answer(float(count), fields, {k: float(v) for k, v in mistakes.items()}, whole=True)


def _splits_parameters(live: Live) -> Answer:
    count, g = live.result.parameters, live.given
    fields = _head_fields(live)
    d = g["d_out"]
    mistakes = {"no_out_proj": float(count - d * d - d), "no_out_bias": float(count - d),
                **_bias_mistakes(count, 3 * d, g["qkv_bias"])}
    return Answer(float(count), fields, mistakes, whole=True)


# ----- the registry: page id -> its questions, in order -------------------------------------------------------

CAUSAL_AND_HEADS: dict[str, tuple[Question, ...]] = {
    "causal-mask": (
        Question("hidden_cells", CHOICE, _hidden_cells, ("diagonal", "below", "none", "mask_off"),
                 ("above", "diagonal", "below", "none"), ("pattern",)),
        Question("masked_weight", NUMBER, _masked_weight, ("unmasked",), (),
                 ("mask_off", "tokens")),
        Question("left_in_row", NUMBER, _left_in_row, ("one",), (), ("mask_off",)),
    ),
    "dropout": (
        Question("survivor", NUMBER, _survivor, ("unscaled", "keep_rate", "p"), (), ("none_kept",)),
        Question("dropped_count", NUMBER, _dropped_count, ("expected", "eval", "kept")),
        Question("cell_after", NUMBER, _cell_after, ("before", "dropped", "survived"), (), ("tokens",)),
    ),
    "causal-class": (
        Question("context_shape", SHAPE, _causal_context_shape, ("no_batch", "weights", "d_in")),
        Question("mask_shape", SHAPE, _mask_buffer_shape, ("sliced",)),
        Question("hidden_count", NUMBER, _hidden_count, ("diagonal", "whole_batch", "mask_off")),
    ),
    "stacking-heads": (
        Question("exercise_3_2", TASK, _exercise_3_2, ("correct", "heads", "width")),
        Question("output_width", NUMBER, _output_width, ("per_head", "heads_only")),
        Question("parameters", NUMBER, _wrapper_parameters, ("one_head", "forgot_bias", "counted_bias")),
    ),
    "weight-splits": (
        Question("split_shape", SHAPE, _split_shape, ("by_head", "not_split")),
        Question("weights_shape", SHAPE, _weights_shape, ("no_heads", "context")),
        Question("exercise_3_3", NUMBER, _exercise_3_3, ("no_out_bias", "no_out_proj", "qkv_bias")),
        Question("parameters", NUMBER, _splits_parameters, ("no_out_proj", "no_out_bias", "forgot_bias",
                                                           "counted_bias")),
    ),
}
